# cython: language_level=3
"""Monte Carlo rollouts in C: every candidate of a position played forward on sampled deals (docs/EQUITY.md).

ginnyo.simulation is the face; this module does the rollouts without the GIL,
spread over threads.  Rollout ``i`` of a seed deals the tiles we cannot see
(the other racks first, the rest is the box) from a SplitMix64 generator
seeded from ``(seed, i)`` alone, so a rollout's outcomes never depend on the
thread that ran it nor on how many ran.  Every candidate is played on the same
deal (common random numbers): the candidate, then ``plies`` turns (or, with
``to_end``, turns until the game ends), each player drawing a tile (we from
the end of the box, the others from its front, so that their tiles do not
depend on how many we drew), choosing by the policy in its game state at that
turn and drawing back up to 7.  (A rack grows past 8 only when its player
passes on an empty box and draws a tile someone returned since; the core takes
racks of at most 14 tiles, so a rack of 14 does not draw at the start of a
turn: a limit no real rollout reaches.)  Returned tiles go into the box one by
one at a place drawn from a second generator, seeded by the deal and restarted
for every candidate.  The policies: greedy (the best-scoring play; without
one, return the tile best-move names while the box has tiles, else pass) and
equity (the first action of ginnycore.equity's ranking, returns of any tiles
included).  With 2 players and an endgame budget, once the box is empty the
endgame solver (ginnycore.endgame's endgame_value) is asked for the rest of
the game; a proven value ends the rollout, else the rollout plays on.  The
game ends inside a rollout as docs/RULES.md §6 says: as many passes in a row
as players, or the quiet turns reaching the stall clock's limit (counted on
from the position's own clock).  An outcome is our points minus the
opponents' mean plus the leave values of what each player kept on its last
turn, valued in that turn's game state (ours added, the opponents' mean taken
off), or, when the game ended, the final difference with the rack penalties; a
return with no plies after it also gets its stage's return term.  Our share of
the win compares the scores before the decision plus those points.
ginnyo.simulation's Python rollouts of old (tests/simulation_reference.py) are
the yardstick."""

from cython.parallel cimport parallel, prange
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memmove, memset

from ginnycore.board cimport board_clone, board_copy
from ginnycore.core cimport Core, board_generate, board_place, board_score, claim, release, thread_count
from ginnycore.endgame cimport Search, endgame_search_free, endgame_search_new, endgame_value
from ginnycore.equity cimport (ACTION_PASS, ACTION_PLAY, ACTION_RETURN, GameState, LeaveModel, LeaveRow, LeaveTable,
                               Ranked, leave_row, leave_value, rank_actions)
from ginnycore.rules cimport (JOKERS_PER_SET, MAX_PLAYERS, MAX_STALL_ROUNDS, MIN_PLAYERS, RACK_SIZE, RULES_VERSION,
                              STALL_ROUNDS, quiet_turn_limit, rack_penalty, rack_tile_to_return)
from ginnycore.splitmix cimport splitmix_below, splitmix_next
from ginnycore.types cimport GEN_BEST, JOKER, MAX_PLACED, NUM_CARDS, RACK_KINDS, Board, PlayRecord, play_joker

cdef enum:
    MAX_TILES = 2 * (NUM_CARDS + JOKERS_PER_SET)   # two sets, for 3 or 4 players
    BOX_ROOM = 2 * MAX_TILES + 2 * MAX_PLACED      # the box's buffer: it never holds more than MAX_TILES
    MAX_PLIES = 100000
    ROLLOUT_TABLE_BITS = 14     # a rollout endgame's transposition table: 2^14 entries of 16 bytes, cleared a solve

cpdef enum:                     # the rollout players' policy
    POLICY_GREEDY = 0
    POLICY_EQUITY = 1

cdef uint64_t INDEX_STEP = 0x9E3779B97F4A7C15
cdef long long MAX_ENDGAME_NODES = 1LL << 40


ctypedef struct Candidate:
    # A play (``card``/``joker`` by ``square``), a return (``n`` tiles in
    # ``card``, a joker as 52) or a pass; kinds as ginnycore.equity's.
    int kind
    int score
    int n
    short square[MAX_PLACED]
    signed char card[MAX_PLACED]
    unsigned char joker[MAX_PLACED]

ctypedef struct Sim:
    # Everything a rollout reads; set once, shared by the threads.
    Board* board                # the position with our rack, prepared
    const LeaveTable* table
    GameState state             # the decision's game state (players, a meld down, the stall clock)
    double return_term          # the return term at the decision
    Candidate* candidates
    int n_candidates
    int players
    int plies
    int policy
    int to_end                  # rollouts play on to the game's end (plies is then no limit)
    long long endgame_nodes     # 2 players: once the box is empty, the endgame solver's node budget (0: no solver)
    long long scores[MAX_PLAYERS]   # the scores before the decision, ours first, then in turn order
    int opened                  # a tile is on the board
    int box_size                # tiles in the box at the decision
    int n_unseen
    int hand[MAX_PLAYERS]       # the rack size of each seat after ours (seat 0 unused)
    long long quiet_turns       # turns without a play before ours
    long long quiet_closed      # the quiet turns that end a game with no meld down ...
    long long quiet_open        # ... and once one is
    uint64_t seed
    unsigned char rack[RACK_KINDS]
    int rack_size
    signed char unseen[MAX_TILES]
    void* inferred              # an InferredDeal (infer_deal.pxi) when opponents' leaves were inferred, else NULL

ctypedef struct Deal:
    # Rollout i's tiles: the other racks, the box (drawn from both ends) and
    # the seed of where returned tiles go.
    unsigned char hands[MAX_PLAYERS][RACK_KINDS]
    int hand_size[MAX_PLAYERS]
    int n_box
    signed char box[MAX_TILES]
    uint64_t returns_seed

ctypedef struct Box:
    int head                    # the front tile is tile[head]
    int size
    signed char tile[BOX_ROOM]

ctypedef struct Scratch:
    # What one thread needs: its board and the equity ranking's arrays.
    Board* board
    PlayRecord* plays
    size_t capacity
    Ranked* ranked
    size_t ranked_capacity
    Search* endgame             # the endgame solver's (2 players with a node budget), else NULL


# -- the deal ----------------------------------------------------------------------------

cdef inline uint64_t rollout_state(uint64_t seed, long long index) noexcept nogil:
    """The generator of rollout ``index`` of ``seed``: a hash of the seed, stepped
    by the index, hashed again (nearby seeds and indices share nothing)."""
    cdef uint64_t state = seed
    state = splitmix_next(&state) + <uint64_t>index * INDEX_STEP
    return splitmix_next(&state)


cdef void _deal(const Sim* sim, long long index, Deal* deal) noexcept nogil:
    """Shuffle the unseen tiles (Fisher-Yates from the end), hand the other
    racks their tiles in seat order from the front; the rest is the box."""
    cdef uint64_t state = rollout_state(sim.seed, index)
    cdef signed char tiles[MAX_TILES]
    cdef signed char tile
    cdef int i, j, seat, at = 0
    memcpy(tiles, sim.unseen, sim.n_unseen)
    for i in range(sim.n_unseen - 1, 0, -1):
        j = splitmix_below(&state, i + 1)
        tile = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = tile
    memset(deal.hands, 0, sizeof(deal.hands))
    for seat in range(1, sim.players):
        deal.hand_size[seat] = sim.hand[seat]
        for i in range(sim.hand[seat]):
            deal.hands[seat][tiles[at]] += 1
            at += 1
    deal.n_box = sim.n_unseen - at
    memcpy(deal.box, &tiles[at], deal.n_box)
    deal.returns_seed = splitmix_next(&state)


include "infer_deal.pxi"


cdef inline int _draw(Box* box, int ours) noexcept nogil:
    """A tile from the box (not empty): ours from its end, the others' from its front."""
    cdef int tile
    box.size -= 1
    if ours:
        return box.tile[box.head + box.size]
    tile = box.tile[box.head]
    box.head += 1
    return tile


cdef void _insert(Box* box, int tile, uint64_t* state) noexcept nogil:
    """Put a returned tile into the box at a random place (0 to its size)."""
    cdef int at = splitmix_below(state, box.size + 1)
    if box.head + box.size + 1 > BOX_ROOM:
        memmove(box.tile, &box.tile[box.head], box.size)
        box.head = 0
    memmove(&box.tile[box.head + at + 1], &box.tile[box.head + at], box.size - at)
    box.tile[box.head + at] = <signed char>tile
    box.size += 1


cdef inline void _refill(Box* box, unsigned char* rack, int* size, int ours) noexcept nogil:
    while size[0] < RACK_SIZE and box.size > 0:
        rack[_draw(box, ours)] += 1
        size[0] += 1


# -- a rollout -----------------------------------------------------------------------------

cdef inline long long equity_choice(Board* board, const LeaveTable* table, int box_size, const GameState* state,
                                    Scratch* scratch) noexcept nogil:
    """The equity policy's ranking: the best action of ``board`` (its rack the
    player's) with ``box_size`` tiles in the box, in game ``state``, goes to
    ``scratch.ranked[0]``; 1, or -1 when memory ran out.  The one call of the
    core's equity ranking."""
    return rank_actions(board, table, box_size, state, 1, 1, &scratch.plays, &scratch.capacity,
                        &scratch.ranked, &scratch.ranked_capacity)


cdef inline void _place(Board* board, const PlayRecord* play, unsigned char* rack, int* size) noexcept nogil:
    """Put a play of the rack on the board."""
    cdef unsigned char jokers[MAX_PLACED]
    cdef int i
    for i in range(play.n):
        jokers[i] = play_joker(play, i)
        rack[JOKER if jokers[i] else play.card[i]] -= 1
    size[0] -= play.n
    board_place(board, play.n, play.square, play.card, jokers, 0)


cdef inline void _give_back(Box* box, const signed char* tiles, int n, unsigned char* rack, int* size,
                            uint64_t* state) noexcept nogil:
    """Return ``tiles`` from the rack into the box, one by one in their order."""
    cdef int i
    for i in range(n):
        rack[tiles[i]] -= 1
    size[0] -= n
    for i in range(n):
        _insert(box, tiles[i], state)


cdef double _win_share(const double* totals, int players) noexcept nogil:
    """Our share of the win on ``totals``: 1 alone on top, 1/t tied on top with t - 1 others, else 0."""
    cdef double top = totals[0]
    cdef int seat, tied = 0
    for seat in range(1, players):
        if totals[seat] > top:
            return 0.0
    for seat in range(players):
        tied += totals[seat] == top
    return 1.0 / tied


cdef double _play_out(const Sim* sim, const Candidate* candidate, const Deal* deal, Scratch* scratch,
                      double* win, int* failed) noexcept nogil:
    """One candidate on one deal: its outcome (see the module's doc), and our
    share of the win into ``win``."""
    cdef Board* board = scratch.board
    cdef unsigned char racks[MAX_PLAYERS][RACK_KINDS]
    cdef unsigned char leaves[MAX_PLAYERS][RACK_KINDS]
    cdef LeaveRow rows[MAX_PLAYERS]         # the weights each seat's last leave is valued with
    cdef int has_leave[MAX_PLAYERS]
    cdef int sizes[MAX_PLAYERS]
    cdef long long points[MAX_PLAYERS]
    cdef double totals[MAX_PLAYERS]
    cdef PlayRecord play
    cdef GameState state = sim.state
    cdef const Ranked* best
    cdef Box box
    cdef uint64_t state_seed = deal.returns_seed
    cdef int players = sim.players, opponents = sim.players - 1, seat, ply, ours, tile, i, ended, played
    cdef int passes = 0, opened = sim.opened or candidate.kind == ACTION_PLAY, solved = 0, tried = 0, proven
    cdef int value
    cdef long long quiet = sim.quiet_turns + (candidate.kind != ACTION_PLAY)
    cdef signed char returned[1]
    cdef double outcome, others = 0.0
    board_copy(board, sim.board)
    memcpy(racks[0], sim.rack, RACK_KINDS)
    sizes[0] = sim.rack_size
    for seat in range(1, players):
        memcpy(racks[seat], deal.hands[seat], RACK_KINDS)
        sizes[seat] = deal.hand_size[seat]
    memset(points, 0, sizeof(points))
    memset(has_leave, 0, sizeof(has_leave))
    box.head = 0
    box.size = deal.n_box
    memcpy(box.tile, deal.box, deal.n_box)
    # our candidate
    if candidate.kind == ACTION_PLAY:
        for i in range(candidate.n):
            racks[0][JOKER if candidate.joker[i] else candidate.card[i]] -= 1
        sizes[0] -= candidate.n
        board_place(board, candidate.n, candidate.square, candidate.card, candidate.joker, 0)
        points[0] += candidate.score
    elif candidate.kind == ACTION_RETURN:
        _give_back(&box, candidate.card, candidate.n, racks[0], &sizes[0], &state_seed)
    else:
        passes = 1
    memcpy(leaves[0], racks[0], RACK_KINDS)
    leave_row(&rows[0], sim.table, sim.box_size, &sim.state)
    has_leave[0] = 1
    _refill(&box, racks[0], &sizes[0], 1)
    ended = quiet >= (sim.quiet_open if opened else sim.quiet_closed)
    ply = 0
    while not ended and (ply < sim.plies or (sim.to_end and ply < MAX_PLIES)):
        seat = (ply + 1) % players
        ours = seat == 0
        if scratch.endgame != NULL and box.size == 0 and opened and not tried:
            # both racks are known: the endgame solver's value is the rest of the
            # game when it proves it within its budget, else the rollout plays on
            # (a pass now ends the game when one was just made or the clock is one turn from its end)
            tried = 1
            value = endgame_value(scratch.endgame, board, racks[seat], racks[1 - seat],
                                  passes > 0 or quiet + 1 >= sim.quiet_open, sim.endgame_nodes, &proven)
            if scratch.endgame.failed:
                failed[0] = 1
                return 0.0
            if proven:
                points[seat] += value
                ended = solved = 1
                break
        if box.size > 0 and sizes[seat] < MAX_PLACED:     # (a rack holds at most 14: see the module's doc)
            racks[seat][_draw(&box, ours)] += 1
            sizes[seat] += 1
        memcpy(board.rack, racks[seat], RACK_KINDS)
        board.rack_size = sizes[seat]
        state.opened = opened
        state.quiet_turns = quiet
        state.quiet_limit = sim.quiet_open if opened else sim.quiet_closed
        played = 0
        if sim.policy == POLICY_EQUITY:
            if equity_choice(board, sim.table, box.size, &state, scratch) < 1:
                failed[0] = 1
                return 0.0
            best = &scratch.ranked[0]
            if best.kind == ACTION_PLAY:
                _place(board, &best.play, racks[seat], &sizes[seat])
                points[seat] += best.play.score
                played = 1
            elif best.kind == ACTION_RETURN:
                _give_back(&box, best.play.card, best.play.n, racks[seat], &sizes[seat], &state_seed)
                passes = 0
            else:
                passes += 1
        elif board_generate(board, GEN_BEST, &play, NULL, NULL):
            _place(board, &play, racks[seat], &sizes[seat])
            points[seat] += play.score
            played = 1
        else:
            tile = rack_tile_to_return(racks[seat]) if box.size > 0 else -1
            if tile >= 0:
                returned[0] = <signed char>tile
                _give_back(&box, returned, 1, racks[seat], &sizes[seat], &state_seed)
                passes = 0
            else:
                passes += 1
        if played:
            passes = 0
            quiet = 0
            opened = 1
        else:
            quiet += 1
        memcpy(leaves[seat], racks[seat], RACK_KINDS)
        leave_row(&rows[seat], sim.table, box.size, &state)
        has_leave[seat] = 1
        _refill(&box, racks[seat], &sizes[seat], ours)
        if passes >= players or quiet >= (sim.quiet_open if opened else sim.quiet_closed):
            ended = 1
        ply += 1
    if ended and not solved:
        for seat in range(players):
            for tile in range(RACK_KINDS):
                points[seat] -= rack_penalty(tile) * racks[seat][tile]
    totals[0] = 0   # set again just below (players >= 2); the compiler cannot know the loop runs
    for seat in range(players):
        totals[seat] = <double>points[seat]
        if not ended and has_leave[seat]:
            totals[seat] += leave_value(sim.table, &rows[seat], leaves[seat])
    if candidate.kind == ACTION_RETURN and sim.plies == 0 and not sim.to_end:
        totals[0] += sim.return_term
    for seat in range(1, players):
        others += totals[seat]
    outcome = totals[0] - others / opponents
    for seat in range(players):
        totals[seat] += <double>sim.scores[seat]
    win[0] = _win_share(totals, players)
    return outcome


cdef int _rollout(const Sim* sim, long long index, double* row, double* wins, Scratch* scratch) noexcept nogil:
    """Rollout ``index``: every candidate's outcome on its deal, into ``row``,
    and its share of the win into ``wins`` (unless NULL); 1 when memory ran
    out, else 0."""
    cdef Deal deal
    cdef int c, failed = 0
    cdef double win = 0   # _play_out sets it; 0 for the compiler, which cannot see that
    if sim.inferred != NULL:
        _deal_inferred(sim, <const InferredDeal*>sim.inferred, index, &deal)
    else:
        _deal(sim, index, &deal)
    for c in range(sim.n_candidates):
        row[c] = _play_out(sim, &sim.candidates[c], &deal, scratch, &win, &failed)
        if wins != NULL:
            wins[c] = win
    return failed


# -- the Python face ------------------------------------------------------------------------

cdef object _whole(object value, str name, long long low, long long high):
    """``value`` as a whole number from ``low`` to ``high``, else ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value}")
    return value


cdef class Rollouts:
    """The rollouts of one position's candidates, ready to run in C.

    ``Rollouts(position, model, unseen, opponent_racks, candidates, plies,
    seed, policy=POLICY_GREEDY, quiet_turns=0, stall_rounds=STALL_ROUNDS,
    rules=RULES_VERSION, scores=None, to_end=False, endgame_nodes=0)``:
    ``position`` a Core loaded with the board and our
    rack (copied; the Core stays free), ``model`` a ginnycore.equity.LeaveModel,
    ``unseen`` the tiles we cannot see (0..52, 52 a joker), ``opponent_racks``
    the rack sizes of the players after us in turn order (1 to 3 of them, at
    most 7 each, no more than the unseen tiles together), ``candidates``
    ``(kind, placements, returned)`` triples (kind 0 a play of ``(square, card,
    is_joker)`` placements in square order, legal on the position, 1 a return
    of rack tiles, 2 a pass), ``seed`` 0 to 2**64 - 1, ``scores`` the
    players' scores before the decision, ours first then in turn order (None:
    zeros; they decide only who wins), ``to_end`` play each rollout on to the
    game's end, ``endgame_nodes`` (2 players) finish a rollout whose box is
    empty with the endgame solver within about that many nodes (0: never), ``inferred`` None or an entry an
    opponent seat, None (dealt at random) or the alias table of its inferred
    leaves ``(leaves, keep, alias)`` (infer_deal.pxi).
    ValueError on anything else.  :meth:`run` plays rollouts; the object is
    read-only after it is made, so several threads may run it at once.
    """

    cdef Sim sim
    cdef InferredDeal inferred
    cdef LeaveModel model
    cdef readonly tuple scores

    def __cinit__(self, Core position not None, LeaveModel model not None, unseen, opponent_racks, candidates,
                  int plies, seed, int policy=POLICY_GREEDY, quiet_turns=0, int stall_rounds=STALL_ROUNDS,
                  int rules=RULES_VERSION, scores=None, bint to_end=False, endgame_nodes=0,
                  inferred=None):
        cdef int tile, c, seat
        cdef Candidate* made
        cdef LeaveRow row
        memset(&self.sim, 0, sizeof(Sim))
        memset(&self.inferred, 0, sizeof(InferredDeal))
        self.model = model
        _set_tiles(&self.sim, unseen, opponent_racks, seed)
        if inferred is not None:
            _set_inferred(&self.sim, &self.inferred, inferred)
        candidates = list(candidates)
        self.sim.plies = _whole(plies, "plies", 0, MAX_PLIES)
        self.sim.to_end = to_end
        self.sim.endgame_nodes = _whole(endgame_nodes, "endgame_nodes", 0, MAX_ENDGAME_NODES)
        scores = [0] * self.sim.players if scores is None else list(scores)
        if len(scores) != self.sim.players:
            raise ValueError(f"scores: one a player ({self.sim.players}), not {len(scores)}")
        for seat in range(self.sim.players):
            self.sim.scores[seat] = _whole(scores[seat], "a score", -(2**50), 2**50)
        if policy != POLICY_GREEDY and policy != POLICY_EQUITY:
            raise ValueError(f"policy must be {POLICY_GREEDY} (greedy) or {POLICY_EQUITY} (equity), not {policy}")
        self.sim.policy = policy
        self.sim.quiet_turns = _whole(quiet_turns, "quiet_turns", 0, 2**62)
        _whole(stall_rounds, "stall_rounds", 1, MAX_STALL_ROUNDS)
        _whole(rules, "rules", 1, RULES_VERSION)
        self.sim.quiet_closed = quiet_turn_limit(self.sim.players, rules == 1, stall_rounds)
        self.sim.quiet_open = quiet_turn_limit(self.sim.players, 1, stall_rounds)
        self.sim.table = &model.table
        if not candidates:
            raise ValueError("candidates: at least one")
        self.sim.candidates = <Candidate*>malloc(len(candidates) * sizeof(Candidate))
        if self.sim.candidates == NULL:
            raise MemoryError()
        claim(position)
        try:
            memcpy(self.sim.rack, position.board.rack, RACK_KINDS)
            for tile in range(RACK_KINDS):
                self.sim.rack_size += self.sim.rack[tile]
            if self.sim.rack_size > MAX_PLACED:
                raise ValueError(f"the rack holds {self.sim.rack_size} tiles, more than {MAX_PLACED}")
            self.sim.board = board_clone(position.board)
        finally:
            release(position)
        if self.sim.board == NULL:
            raise MemoryError()
        self.sim.opened = self.sim.board.n_tiles > 0
        self.sim.state.players = self.sim.players
        self.sim.state.opened = self.sim.opened
        self.sim.state.quiet_turns = self.sim.quiet_turns
        self.sim.state.quiet_limit = self.sim.quiet_open if self.sim.opened else self.sim.quiet_closed
        leave_row(&row, self.sim.table, self.sim.box_size, &self.sim.state)
        self.sim.return_term = row.returns
        scores = []
        for c, candidate in enumerate(candidates):
            made = &self.sim.candidates[c]
            _candidate(made, candidate, self.sim.board, self.sim.rack, c)
            self.sim.n_candidates = c + 1
            scores.append(made.score)
        self.scores = tuple(scores)

    def __dealloc__(self):
        _free_inferred(&self.inferred)
        free(self.sim.board)
        free(self.sim.candidates)

    @property
    def candidates(self):
        """How many candidates each rollout plays."""
        return self.sim.n_candidates

    def run(self, long long start, double[:, ::1] out not None, threads=1, double[:, ::1] wins=None):
        """Rollouts ``start`` to ``start + len(out) - 1``: row r of ``out`` gets
        rollout ``start + r``'s outcome for every candidate (a column each),
        and of ``wins`` (when given, the same shape) our share of the win (1
        alone on top of the scores with the rollout's points, and its leave
        values when the game did not end; 1/t tied on top with t - 1 others;
        else 0); the same whatever ``threads`` (spread over that many, at most
        one a core)."""
        cdef long long count = out.shape[0], r
        cdef int workers = thread_count(threads), out_of_memory = 0, solver
        cdef Scratch* scratch = NULL   # each thread's own, set in the parallel block (NULL: no unset copy)
        cdef double* win_rows = NULL
        if out.shape[1] != self.sim.n_candidates:
            raise ValueError(f"out needs a column a candidate ({self.sim.n_candidates}), not {out.shape[1]}")
        if wins is not None:
            if wins.shape[0] != out.shape[0] or wins.shape[1] != out.shape[1]:
                raise ValueError(f"wins must have the shape of out ({out.shape[0]}, {out.shape[1]}), "
                                 f"not ({wins.shape[0]}, {wins.shape[1]})")
            if count:
                win_rows = &wins[0, 0]
        solver = self.sim.players == 2 and self.sim.endgame_nodes > 0
        if start < 0 or start > (1 << 62) - count:
            raise ValueError(f"start must be from 0 to 2**62 less the rollouts, not {start}")
        if count == 0:
            return
        with nogil, parallel(num_threads=workers):
            scratch = <Scratch*>malloc(sizeof(Scratch))
            if scratch != NULL:
                memset(scratch, 0, sizeof(Scratch))
                scratch.board = board_clone(self.sim.board)
                if solver:
                    scratch.endgame = endgame_search_new(self.sim.board, ROLLOUT_TABLE_BITS)
            for r in prange(count, schedule="dynamic", chunksize=8):
                if scratch == NULL or scratch.board == NULL or (solver and scratch.endgame == NULL):
                    out_of_memory += 1
                else:
                    out_of_memory += _rollout(&self.sim, start + r, &out[r, 0],
                                              NULL if win_rows == NULL else win_rows + r * self.sim.n_candidates,
                                              scratch)
            if scratch != NULL:
                endgame_search_free(scratch.endgame)
                free(scratch.board)
                free(scratch.plays)
                free(scratch.ranked)
                free(scratch)
        if out_of_memory:
            raise MemoryError("the rollouts did not fit in memory")



cdef int _candidate(Candidate* made, object candidate, Board* board, const unsigned char* rack,
                    int c) except -1:
    """Check candidate ``c`` of Python and fill ``made``."""
    cdef unsigned char need[RACK_KINDS]
    cdef int i, n, tile
    try:
        kind, placements, returned = candidate
        placements = tuple(placements)
        returned = tuple(returned)
    except (TypeError, ValueError):
        raise ValueError(f"candidate {c}: must be (kind, placements, returned)") from None
    memset(made, 0, sizeof(Candidate))
    memset(need, 0, RACK_KINDS)
    made.kind = _whole(kind, f"candidate {c}: kind", ACTION_PLAY, ACTION_PASS)
    if made.kind == ACTION_PLAY:
        n = len(placements)
        if not 1 <= n <= MAX_PLACED or returned:
            raise ValueError(f"candidate {c}: a play places 1 to {MAX_PLACED} tiles and returns none")
        for i, placement in enumerate(placements):
            try:
                square, card, joker = placement
            except (TypeError, ValueError):
                raise ValueError(f"candidate {c}: a placement is (square, card, is_joker)") from None
            made.square[i] = <short>_whole(square, f"candidate {c}: a square", 0, board.size - 1)
            made.card[i] = <signed char>_whole(card, f"candidate {c}: a card", 0, NUM_CARDS - 1)
            made.joker[i] = 1 if joker else 0
        made.n = n
        made.score = board_score(board, n, made.square, made.card, made.joker, NULL, 0)
        if made.score < 0:
            raise ValueError(f"candidate {c}: not a legal play of the position (code {made.score})")
    elif made.kind == ACTION_RETURN:
        n = len(returned)
        if not 1 <= n <= MAX_PLACED or placements:
            raise ValueError(f"candidate {c}: a return gives back 1 to {MAX_PLACED} rack tiles and places none")
        for i, tile_value in enumerate(returned):
            tile = _whole(tile_value, f"candidate {c}: a returned tile", 0, JOKER)
            need[tile] += 1
            if need[tile] > rack[tile]:
                raise ValueError(f"candidate {c}: returns tile {tile}, which the rack does not hold")
            made.card[i] = <signed char>tile
        made.n = n
    elif placements or returned:
        raise ValueError(f"candidate {c}: a pass places and returns nothing")
    return 0


cdef int _set_tiles(Sim* sim, object unseen, object opponent_racks, object seed) except -1:
    """Check and set the unseen tiles, the other racks' sizes and the seed."""
    cdef int seat, total = 0, i
    unseen = list(unseen)
    opponent_racks = list(opponent_racks)
    if len(unseen) > MAX_TILES:
        raise ValueError(f"unseen: {len(unseen)} tiles, more than {MAX_TILES}")
    for i, tile_value in enumerate(unseen):
        sim.unseen[i] = <signed char>_whole(tile_value, "an unseen tile", 0, JOKER)
    sim.n_unseen = len(unseen)
    if not MIN_PLAYERS - 1 <= len(opponent_racks) <= MAX_PLAYERS - 1:
        raise ValueError(f"opponent_racks: {MIN_PLAYERS - 1} to {MAX_PLAYERS - 1} racks, not {len(opponent_racks)}")
    sim.players = len(opponent_racks) + 1
    for seat in range(1, sim.players):
        sim.hand[seat] = _whole(opponent_racks[seat - 1], "an opponent's rack size", 0, MAX_PLACED)
        total += sim.hand[seat]
    if total > sim.n_unseen:
        raise ValueError(f"opponent_racks hold {total} tiles, more than the {sim.n_unseen} unseen")
    sim.box_size = sim.n_unseen - total
    sim.seed = _seed(seed)
    return 0


def deal(unseen, opponent_racks, seed, long long index):
    """Rollout ``index``'s deal of ``unseen`` (tiles, 52 a joker) for the racks
    of ``opponent_racks`` sizes under ``seed``: ``(hands, box, returns_seed)``,
    the other racks' tiles in seat order, the box front to end and the seed of
    where returned tiles go (see the module's doc)."""
    cdef Sim sim
    cdef Deal dealt
    cdef int seat, tile
    memset(&sim, 0, sizeof(Sim))
    _set_tiles(&sim, unseen, opponent_racks, seed)
    if index < 0 or index >= (1 << 62):
        raise ValueError(f"index must be from 0 to 2**62 - 1, not {index}")
    _deal(&sim, index, &dealt)
    hands = [[tile for tile in range(RACK_KINDS) for _ in range(dealt.hands[seat][tile])]
             for seat in range(1, sim.players)]
    return hands, [dealt.box[tile] for tile in range(dealt.n_box)], dealt.returns_seed


cdef uint64_t _seed(object seed) except? 0:
    """A seed, 0 to 2**64 - 1, else ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r:.40}")
    return <uint64_t>seed
