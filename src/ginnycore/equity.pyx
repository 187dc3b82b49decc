# cython: language_level=3
"""Equity in C: plays and returns ranked on one scale, score + leave value (docs/EQUITY.md).

The leave value is leaves.LeaveModel's linear model over the eleven features
of leaves.FEATURES, one weight row a stage of the game (the box size).  Every
legal play keeps the rack less its tiles; every return keeps the rest, scores
0 and adds the stage's return term.  The returns are all the distinct
non-empty sub-multisets of the rack (jokers too, docs/RULES.md §6), when
returns are asked for and the box holds a tile.  Without a play or a return
the one action is a pass, which keeps the whole rack.

Ranking, best first, total: the higher equity (to 1e-9), the higher score,
plays before returns before a pass; plays then as the core ranks them (fewer
jokers, more tiles, the placements by square, real before joker, card:
``_rank_order`` in core.pyx, ``ScoredPlay.sort_key``); returns of fewer tiles
first, then by the returned tiles in ascending order.  The first ``limit``
actions are kept in a bounded heap.  Everything here runs without the GIL, for
one core or for a batch of positions over threads.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport isnan, llround
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from ginnycore.board cimport board_clone
from ginnycore.core cimport Core, board_generate, board_prepare, claim, release, thread_count
from ginnycore.rules cimport JOKERS_PER_SET, MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, sets_for
from ginnycore.types cimport (GEN_ALL, JOKER, MAX_PLACED, NUM_CARDS, RACK_KINDS, Board, PlayRecord,
                              play_joker)

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctz(unsigned int) nogil

cdef enum:
    HEAP_START = 64             # the ranked array's first size when no limit is smaller
    MAX_SUBSETS = 1 << MAX_PLACED   # sub-multisets of a rack of at most 14 tiles: at most 2^14

cdef long long KEY_LIMIT = 9000000000000000000     # |key| at most this (an equity past 9e9 saturates)
cdef long long NO_LIMIT = 1 << 62
cdef uint64_t ACE_LANES = 0x0001000100010001    # bit 0 (the ace) of every 16-bit suit lane


# -- leave values and racks as bits (leave_values.pxi) ------------------------------

include "leave_values.pxi"


# -- the ranking ----------------------------------------------------------------------

cdef inline long long _equity_key(double equity) noexcept nogil:
    """The equity to 1e-9 as a whole number, so that equal equities tie whatever
    their rounding error (Python's round(equity, 9)); saturated far out."""
    if isnan(equity):
        return -KEY_LIMIT
    if equity > 9e9:
        return KEY_LIMIT
    if equity < -9e9:
        return -KEY_LIMIT
    return llround(equity * 1e9)


cdef int _order(const Ranked* a, const Ranked* b) noexcept nogil:
    """-1 when ``a`` ranks before ``b``, 1 after, 0 for the same action."""
    cdef int i, joker, other_joker
    cdef const PlayRecord* p = &a.play
    cdef const PlayRecord* q = &b.play
    if a.key != b.key:
        return -1 if a.key > b.key else 1
    if p.score != q.score:
        return -1 if p.score > q.score else 1
    if a.kind != b.kind:
        return -1 if a.kind < b.kind else 1
    if a.kind == ACTION_PLAY:       # the core's _rank_order
        if p.jokers != q.jokers:
            return -1 if p.jokers < q.jokers else 1
        if p.n != q.n:
            return -1 if p.n > q.n else 1
        for i in range(p.n):
            if p.square[i] != q.square[i]:
                return -1 if p.square[i] < q.square[i] else 1
            joker = play_joker(p, i)
            other_joker = play_joker(q, i)
            if joker != other_joker:
                return -1 if joker < other_joker else 1
            if p.card[i] != q.card[i]:
                return -1 if p.card[i] < q.card[i] else 1
        return 0
    if p.n != q.n:
        return -1 if p.n < q.n else 1
    for i in range(p.n):
        if p.card[i] != q.card[i]:
            return -1 if p.card[i] < q.card[i] else 1
    return 0


ctypedef struct Heap:
    # The first ``limit`` actions in ranking order; heap[0] ranks last.
    Ranked** items
    size_t* capacity
    size_t size
    long long limit
    int failed


cdef void _sift_up(Ranked* heap, size_t i) noexcept nogil:
    cdef Ranked moving = heap[i]
    cdef size_t parent
    while i > 0:
        parent = (i - 1) // 2
        if _order(&moving, &heap[parent]) <= 0:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = moving


cdef void _sift_down(Ranked* heap, size_t size, size_t i) noexcept nogil:
    cdef Ranked moving = heap[i]
    cdef size_t child
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _order(&heap[child + 1], &heap[child]) > 0:
            child += 1
        if _order(&heap[child], &moving) <= 0:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = moving


cdef inline int _wanted(Heap* heap, const Ranked* action) noexcept nogil:
    """Would ``action`` be kept?"""
    return heap.size < <size_t>heap.limit or _order(action, &heap.items[0][0]) < 0


cdef void _keep(Heap* heap, const Ranked* action) noexcept nogil:
    """Keep ``action`` if it ranks among the first ``limit`` so far."""
    cdef size_t grown_capacity
    cdef Ranked* grown
    if heap.size < <size_t>heap.limit:
        if heap.size == heap.capacity[0]:
            grown_capacity = heap.capacity[0] * 2 if heap.capacity[0] else HEAP_START
            if <long long>grown_capacity > heap.limit:
                grown_capacity = <size_t>heap.limit
            grown = <Ranked*>realloc(heap.items[0], grown_capacity * sizeof(Ranked))
            if grown == NULL:
                heap.failed = 1
                return
            heap.items[0] = grown
            heap.capacity[0] = grown_capacity
        heap.items[0][heap.size] = action[0]
        heap.size += 1
        _sift_up(heap.items[0], heap.size - 1)
    elif _order(action, &heap.items[0][0]) < 0:
        heap.items[0][0] = action[0]
        _sift_down(heap.items[0], heap.size, 0)


cdef void _sort(Heap* heap) noexcept nogil:
    """The kept actions best first (heap sort: the last-ranked root goes to the end)."""
    cdef size_t end = heap.size
    cdef Ranked last
    cdef Ranked* items = heap.items[0]
    while end > 1:
        end -= 1
        last = items[end]
        items[end] = items[0]
        items[0] = last
        _sift_down(items, end, 0)


cdef inline int _skip(Heap* heap, double equity) noexcept nogil:
    """Does an action of ``equity`` rank after every kept one, the heap being full?
    (A margin far above rounding keeps near ties for the exact comparison.)"""
    cdef const Ranked* last
    if heap.size < <size_t>heap.limit:
        return 0
    last = &heap.items[0][0]
    return equity < last.play.score + last.value - 1e-6


cdef void _rank_plays(Heap* heap, const LeaveTable* table, const LeaveRow* row, const unsigned char* counts,
                      const Rack* rack, const double* values, const PlayRecord* plays, long long count) noexcept nogil:
    """Every play, its leave's value read from ``values`` (by the mask it keeps)
    or, when ``values`` is NULL, counted afresh."""
    cdef unsigned char leave[RACK_KINDS]
    cdef Ranked action
    cdef long long p
    cdef int i, tile
    cdef unsigned int kept
    action.kind = ACTION_PLAY
    memcpy(leave, counts, RACK_KINDS)
    for p in range(count):
        kept = rack.full
        for i in range(plays[p].n):
            tile = JOKER if play_joker(&plays[p], i) else plays[p].card[i]
            leave[tile] -= 1
            kept &= ~(1u << (rack.first[tile] + leave[tile]))     # its highest copy still kept
        if values != NULL:
            action.value = values[kept]
        else:
            action.value = _value_of(table, row, leave, rack.kinds, rack.n_kinds, NULL)
        for i in range(plays[p].n):
            tile = JOKER if play_joker(&plays[p], i) else plays[p].card[i]
            leave[tile] = counts[tile]
        if _skip(heap, plays[p].score + action.value):
            continue        # ranks after the last kept: no need to copy the play
        action.key = _equity_key(plays[p].score + action.value)
        action.play = plays[p]
        _keep(heap, &action)


cdef void _rank_returns(Heap* heap, const LeaveRow* row, const Rack* rack, double* values) noexcept nogil:
    """Every distinct non-empty multiset of the rack's tiles as a return;
    ``values[kept]`` gets every leave's value, the whole rack's too."""
    cdef Ranked action
    cdef unsigned int kept, given
    cdef int n
    memset(&action, 0, sizeof(action))
    action.kind = ACTION_RETURN
    values[rack.full] = _mask_value(rack, row, rack.full)
    for kept in range(rack.full):
        if kept & rack.follows & ~(kept << 1):
            continue        # another mask keeps the same tiles
        values[kept] = _mask_value(rack, row, kept)
        action.value = values[kept] + row.returns
        if _skip(heap, action.value):
            continue
        action.key = _equity_key(action.value)
        given = rack.full & ~kept
        n = 0
        while given:
            action.play.card[n] = <signed char>rack.kind[__builtin_ctz(given)]
            given &= given - 1
            n += 1
        action.play.n = n
        _keep(heap, &action)


cdef long long rank_actions(Board* board, const LeaveTable* table, int box_size, const GameState* state,
                            int returns, long long limit,
                            PlayRecord** plays, size_t* capacity, Ranked** ranked, size_t* ranked_capacity) noexcept nogil:
    """Rank the actions of the prepared ``board`` (its rack is the player's) in
    the game ``state`` (NULL: 2 players, a meld down, the clock at 0;
    with the model's ``open_first``, a player with a play and no meld on the
    board gets no returns):
    the first ``limit`` (1 or more) go to ``ranked[0]`` best first (the array
    grows as needed; ``ranked_capacity`` its size), the plays are generated
    into ``plays[0]`` (GEN_ALL).  Returns only when ``returns`` is set, except
    the best one for a player without a play.  How many were kept, or -1 when
    memory ran out or the rack holds more than 14 tiles."""
    cdef Rack rack
    cdef double values[MAX_SUBSETS]
    cdef int tiles = 0, kind
    cdef LeaveRow row
    cdef long long count
    cdef Heap heap
    cdef Ranked action
    heap.items = ranked
    heap.capacity = ranked_capacity
    heap.size = 0
    heap.limit = limit
    heap.failed = 0
    for kind in range(RACK_KINDS):
        tiles += board.rack[kind]
    if tiles > MAX_PLACED:
        return -1
    leave_row(&row, table, box_size, state)
    _rack_of(&rack, table, board.rack)
    count = board_generate(board, GEN_ALL, NULL, plays, capacity)
    if count < 0:
        return -1
    if state != NULL and table.open_first and not state.opened and count > 0:
        returns = 0         # an opening is never declined
    if box_size > 0 and tiles > 0 and (returns or count == 0):
        if not returns:
            heap.limit = 1      # a player without a play must return: the best return
        _rank_returns(&heap, &row, &rack, values)
        _rank_plays(&heap, table, &row, board.rack, &rack, values, plays[0], count)
    else:
        _rank_plays(&heap, table, &row, board.rack, &rack, NULL, plays[0], count)
    if heap.size == 0 and not heap.failed:
        memset(&action, 0, sizeof(action))
        action.kind = ACTION_PASS
        action.value = _value_of(table, &row, board.rack, rack.kinds, rack.n_kinds, NULL)
        action.key = _equity_key(action.value)
        _keep(&heap, &action)
    if heap.failed:
        return -1
    _sort(&heap)
    return <long long>heap.size


# -- the Python face ------------------------------------------------------------------

cdef object _whole(object value, str name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {type(value).__name__}")
    return value


cdef long long _limit_of(object limit) except -1:
    """``limit`` (None: every action) as a count of at least 1."""
    if limit is None:
        return NO_LIMIT
    _whole(limit, "limit")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    return min(limit, NO_LIMIT)


cdef int _check_rack(const unsigned char* rack, str where) except -1:
    cdef int kind, tiles = 0
    for kind in range(RACK_KINDS):
        tiles += rack[kind]
    if tiles > MAX_PLACED:
        raise ValueError(f"{where}rack holds {tiles} tiles, more than {MAX_PLACED}")
    return 0


cdef list _checked_rows(object rows, int width, str name):
    """``rows``: STAGE_COUNT rows of ``width`` finite numbers, as lists."""
    import math
    rows = [list(row) for row in rows]
    if len(rows) != STAGE_COUNT or any(len(row) != width for row in rows):
        raise ValueError(f"{name} must be {STAGE_COUNT} rows of {width} numbers")
    for row in rows:
        for value in row:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"weights and returns must be finite numbers, not {value!r}")
    return rows


cdef int _state_of(GameState* state, object given) except -1:
    """A GameState from ``(players, opened, quiet_turns, quiet_limit)``."""
    try:
        players, opened, quiet_turns, quiet_limit = given
    except (TypeError, ValueError):
        raise ValueError("state must be (players, opened, quiet_turns, quiet_limit)") from None
    state.players = _whole(players, "state's players")
    state.opened = bool(opened)
    state.quiet_turns = _whole(quiet_turns, "state's quiet_turns")
    state.quiet_limit = _whole(quiet_limit, "state's quiet_limit")
    return 0


cdef class LeaveModel:
    """A leave model in C: ``LeaveModel(weights, returns, stages, penalty,
    state_weights=None, players=None)`` with ``weights`` 4 rows of 11 finite
    numbers (one row a stage), ``returns`` 4 numbers, ``stages`` 4 (lowest,
    highest) box sizes, ``penalty`` 13 whole numbers (a card's end cost by rank
    index) and ``state_weights`` 4 rows of 7 (leaves.STATE_FEATURES; None:
    zeros): what ginnyo.leaves holds for 2 players.  ``players`` maps 3 and 4
    to their own ``(weights, returns, state_weights)``; a count not given uses
    the 2-player weights.  ``open_first``: while no meld is down, a player
    with a legal play gets no returns (an opening is never declined)."""

    def __cinit__(self, weights, returns, stages, penalty, state_weights=None, players=None, open_first=False):
        cdef int model, stage, feature, rank, count
        stages = [tuple(pair) for pair in stages]
        penalty = list(penalty)
        if len(stages) != STAGE_COUNT or any(len(pair) != 2 for pair in stages):
            raise ValueError(f"stages must be {STAGE_COUNT} (lowest, highest) pairs")
        if len(penalty) != RANK_COUNT:
            raise ValueError(f"penalty must be {RANK_COUNT} whole numbers")
        others = dict(players or {})
        for count in others:
            if isinstance(count, bool) or not isinstance(count, int) or not MIN_PLAYERS < count <= MAX_PLAYERS:
                raise ValueError(f"players: models are for {MIN_PLAYERS + 1} to {MAX_PLAYERS} players, "
                                 f"not {count!r}")
        for model in range(PLAYER_MODELS):
            given = others.get(model + MIN_PLAYERS, (weights, returns, state_weights))
            if len(given) != 3:
                raise ValueError("players: each model is (weights, returns, state_weights)")
            rows = _checked_rows(given[0], FEATURE_COUNT, "weights")
            model_returns = _checked_rows([[r] for r in given[1]], 1, "returns")
            state_rows = _checked_rows(given[2] if given[2] is not None else [[0.0] * STATE_COUNT] * STAGE_COUNT,
                                       STATE_COUNT, "state_weights")
            for stage in range(STAGE_COUNT):
                for feature in range(FEATURE_COUNT):
                    self.table.weight[model][stage][feature] = rows[stage][feature]
                for feature in range(STATE_COUNT):
                    self.table.state[model][stage][feature] = state_rows[stage][feature]
                self.table.returns[model][stage] = model_returns[stage][0]
        for stage in range(STAGE_COUNT):
            self.table.stage_low[stage] = _whole(stages[stage][0], "a stage's box size")
            self.table.stage_high[stage] = _whole(stages[stage][1], "a stage's box size")
        for rank in range(RANK_COUNT):
            self.table.penalty[rank] = _whole(penalty[rank], "penalty")
        self.table.open_first = bool(open_first)

    def stage(self, int box_size):
        """The stage index of a decision with ``box_size`` tiles in the box."""
        return stage_index(&self.table, box_size)

    def features(self, const unsigned char[:] counts not None):
        """The 11 leave features of ``counts`` (53 tile counts)."""
        cdef double out[FEATURE_COUNT]
        cdef LeaveRow row
        if counts.shape[0] != RACK_KINDS:
            raise ValueError("counts needs 53 entries")
        leave_row(&row, &self.table, 0, NULL)
        _value_of(&self.table, &row, &counts[0], ALL_KINDS, RACK_KINDS, out)
        return tuple(out[i] for i in range(FEATURE_COUNT))

    def row(self, int box_size, state=None):
        """The weights of a decision with ``box_size`` in the box in ``state``
        (``(players, opened, quiet_turns, quiet_limit)``; None: 2 players, a meld
        down, no clock): the 11 leave weights and the return term."""
        cdef GameState game
        cdef LeaveRow row
        if state is not None:
            _state_of(&game, state)
        leave_row(&row, &self.table, box_size, &game if state is not None else NULL)
        return tuple(row.weight[i] for i in range(FEATURE_COUNT)), row.returns

    def value(self, const unsigned char[:] counts not None, int box_size, state=None):
        """The value of the leave ``counts`` (53 tile counts) with ``box_size`` in the box, in ``state`` (see row)."""
        cdef GameState game
        cdef LeaveRow row
        if counts.shape[0] != RACK_KINDS:
            raise ValueError("counts needs 53 entries")
        if state is not None:
            _state_of(&game, state)
        leave_row(&row, &self.table, box_size, &game if state is not None else NULL)
        return leave_value(&self.table, &row, &counts[0])


cdef tuple _action_tuple(const Ranked* action):
    """``(kind, score, leave value, placements, returned)`` with ``kind`` 0 play,
    1 return, 2 pass; placements as Core.legal_plays gives them."""
    cdef const PlayRecord* play = &action.play
    cdef int i
    if action.kind == ACTION_PLAY:
        return (ACTION_PLAY, play.score, action.value,
                tuple((play.square[i], play.card[i], bool(play_joker(play, i))) for i in range(play.n)), ())
    if action.kind == ACTION_RETURN:
        return (ACTION_RETURN, 0, action.value, (), tuple(play.card[i] for i in range(play.n)))
    return (ACTION_PASS, 0, action.value, (), ())


def rank_core(Core core not None, LeaveModel model not None, int box_size, returns=True, limit=None, state=None):
    """The first ``limit`` actions (all when None) of the core's position by
    equity, best first, as ``(kind, score, leave_value, placements, returned)``
    tuples (see the module's doc; kind 0 play, 1 return, 2 pass), in the game
    ``state``: ``(players, opened, quiet_turns, quiet_limit)`` or None (2
    players, a meld down, no clock).  The plays are left in the core's C array
    as ``generate_plays`` leaves them."""
    cdef long long wanted = _limit_of(limit), count, i
    cdef int with_returns = bool(returns)
    cdef GameState game
    cdef const GameState* given = NULL
    if state is not None:
        _state_of(&game, state)
        given = &game
    cdef Ranked* ranked = NULL
    cdef size_t ranked_capacity = 0
    _check_rack(core.board.rack, "the core's ")
    claim(core)
    try:
        with nogil:
            count = rank_actions(core.board, &model.table, box_size, given, with_returns, wanted,
                                 &core.plays, &core.capacity, &ranked, &ranked_capacity)
        core.stored = 0
        if count < 0:
            raise MemoryError("the equity ranking did not fit in memory")
        return [_action_tuple(&ranked[i]) for i in range(count)]
    finally:
        free(ranked)
        release(core)


def rank_batch(Core layout not None, LeaveModel model not None, const unsigned char[:, ::1] boards not None,
               const unsigned char[:, ::1] racks not None, const int[:] box_sizes not None,
               signed char[:, :] kinds not None, int[:, :] scores not None, double[:, :] values not None,
               short[:, :, :] squares not None, signed char[:, :, :] cards not None,
               unsigned char[:, :, :] jokers not None, int[:] counts not None, returns=True, threads=1,
               const long long[:, :] states=None):
    """Rank the actions of many positions of one layout (``layout``: a Core of
    it), keeping the first ``limit`` of each, where ``limit`` is the second
    dimension of the output arrays.  ``boards`` and ``racks`` as
    ``best_plays_batch`` takes them, ``box_sizes`` one a row.  Row ``r``'s
    actions, best first, go to ``kinds`` (0 play, 1 return, 2 pass), ``scores``,
    ``values`` (leave values), ``squares``/``cards``/``jokers`` (14 a play,
    squares -1 past its tiles; a return's tiles in ``cards`` with squares -1)
    and how many there are to ``counts[r]`` (-1 when memory ran out).
    ``threads`` > 1 spreads the rows over that many cores.  ``states``, one row
    a position, is its ``(players, opened, quiet_turns, quiet_limit)`` (None:
    2 players, a meld down, no clock)."""
    cdef Py_ssize_t n = boards.shape[0], row, limit = kinds.shape[1]
    cdef int i, size = layout.board.size, bad, workers = thread_count(threads), with_returns = bool(returns)
    cdef long long found, a
    cdef const unsigned char* cells
    # each thread's own, set again first thing in the parallel block: NULL here so that
    # the copy OpenMP makes of them (firstprivate) is of a set value
    cdef Board* local = NULL
    cdef PlayRecord* plays = NULL
    cdef size_t capacity = 0
    cdef Ranked* ranked = NULL
    cdef size_t ranked_capacity = 0
    cdef Ranked* action
    cdef GameState* row_states = NULL
    cdef GameState* row_state
    if boards.shape[1] != 2 * size or racks.shape[0] != n or racks.shape[1] != RACK_KINDS or box_sizes.shape[0] != n:
        raise ValueError("boards must be (n, 2 x squares), racks (n, 53) and box_sizes (n,)")
    if limit < 1:
        raise ValueError("the output arrays must keep at least 1 action a position")
    if (kinds.shape[0] < n or scores.shape[0] < n or values.shape[0] < n or counts.shape[0] < n
            or squares.shape[0] < n or cards.shape[0] < n or jokers.shape[0] < n
            or scores.shape[1] < limit or values.shape[1] < limit or squares.shape[1] < limit
            or cards.shape[1] < limit or jokers.shape[1] < limit or squares.shape[2] < MAX_PLACED
            or cards.shape[2] < MAX_PLACED or jokers.shape[2] < MAX_PLACED):
        raise ValueError("output arrays are too small")
    for row in range(n):
        cells = &boards[row, 0]
        bad = 0
        for i in range(size):
            bad |= (cells[i] >= NUM_CARDS) & (cells[i] != 255)
        if bad:
            for i in range(size):
                if cells[i] != 255 and cells[i] >= NUM_CARDS:
                    raise ValueError(f"row {row}: card {cells[i]} on square {i}")
        _check_rack(&racks[row, 0], f"row {row}: ")
    if states is not None:
        if states.shape[0] != n or states.shape[1] != 4:
            raise ValueError("states must be (n, 4): players, opened, quiet_turns, quiet_limit")
        row_states = <GameState*>malloc(max(n, 1) * sizeof(GameState))
        if row_states == NULL:
            raise MemoryError()
        for row in range(n):
            row_states[row].players = <int>states[row, 0]
            row_states[row].opened = states[row, 1] != 0
            row_states[row].quiet_turns = states[row, 2]
            row_states[row].quiet_limit = states[row, 3]
    claim(layout)
    with nogil, parallel(num_threads=workers):
        local = board_clone(layout.board)
        plays = NULL
        capacity = 0
        ranked = NULL
        ranked_capacity = 0
        for row in prange(n, schedule="dynamic", chunksize=16):
            if local == NULL:
                counts[row] = -1
                continue
            memcpy(local.card, &boards[row, 0], size)          # 255 is EMPTY (-1) as a signed char
            memcpy(local.joker, &boards[row, size], size)
            memcpy(local.rack, &racks[row, 0], RACK_KINDS)
            board_prepare(local)
            row_state = &row_states[row] if row_states != NULL else NULL
            found = rank_actions(local, &model.table, box_sizes[row], row_state, with_returns, limit,
                                 &plays, &capacity, &ranked, &ranked_capacity)
            counts[row] = <int>found
            a = 0
            while a < found:
                action = &ranked[a]
                kinds[row, a] = <signed char>action.kind
                scores[row, a] = action.play.score
                values[row, a] = action.value
                for i in range(MAX_PLACED):
                    squares[row, a, i] = -1
                    cards[row, a, i] = -1
                    jokers[row, a, i] = 0
                for i in range(action.play.n):
                    if action.kind == ACTION_PLAY:
                        squares[row, a, i] = action.play.square[i]
                        jokers[row, a, i] = play_joker(&action.play, i)
                    cards[row, a, i] = action.play.card[i]
                a = a + 1
        free(local)
        free(plays)
        free(ranked)
    free(row_states)
    release(layout)
