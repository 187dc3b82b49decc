# cython: language_level=3
"""Whole greedy and equity games of Ginny-O in C (docs/RULES.md §6), for self-play at scale.

A greedy player takes the best-scoring play (the core's ranking); with none, it
returns the real tile that costs most on the rack at the end (a joker when the
rack holds only jokers) and redraws, or passes when the box is empty.  An
equity player takes the action ginnycore.equity ranks first (play, return or
pass; play_games).  The game ends as docs/RULES.md §6 (amended 2026-12-01) says: the box empty and every player
in turn without a play; once the first meld is down, ``stall_rounds`` full
rounds without a play (the clock restarting at every play); before it,
OPENING_GUARD_ROUNDS full rounds with an empty board.  The rules' numbers and
choices come from rules.pxd (ginnycore.rules), the home Python reads them from
too.  The box is shuffled by a SplitMix64 generator seeded per game, so a
(seed, game) pair always gives the same game.
"""

from cython.parallel cimport parallel, prange
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from ginnycore.board cimport board_clone, board_copy
from ginnycore.core cimport Core, board_generate, board_place, claim, release, thread_count
from ginnycore.rules cimport (JOKERS_PER_SET, MAX_PLAYERS, MIN_PLAYERS, OPENING_GUARD_ROUNDS, RACK_SIZE,
                              STALL_ROUNDS, draw_strength, quiet_turn_limit, rack_penalty, rack_tile_to_return,
                              sets_for)
from ginnycore.equity cimport ACTION_PLAY as EQUITY_PLAY, ACTION_RETURN as EQUITY_RETURN
from ginnycore.equity cimport GameState, LeaveModel, LeaveTable, Ranked, rank_actions
from ginnycore.splitmix cimport splitmix_below, splitmix_next
from ginnycore.types cimport (EMPTY, GEN_BEST, JOKER, MAX_PLACED, NUM_CARDS, RACK_KINDS, Board, PlayRecord,
                              play_joker)

cdef enum:
    MAX_TILES = 2 * (NUM_CARDS + JOKERS_PER_SET)   # two sets, for 3 or 4 players
    MAX_TURNS = 5000
    ACTION_PLAY = 0
    ACTION_RETURN = 1
    ACTION_PASS = 2

cpdef enum:                     # how a game ended (Python: ginnyo.native_selfplay.end_reason)
    END_BOX_EMPTY_ALL_PASSED = 1
    END_NO_PLAY_FOR_ROUNDS = 2
    END_TURN_LIMIT = 3
    END_NOBODY_OPENED = 4

ctypedef struct Turn:
    int player
    int action
    int drawn               # the tile drawn at the start of the turn, -1 when the box was empty
    int returned            # the tile returned to the box, -1 when none
    int score
    int n_refill
    signed char refill[MAX_PLACED]   # tiles drawn after the action
    PlayRecord play

ctypedef struct Game:
    int players
    int sets
    int stall_rounds
    int to_move
    int first_player
    int turns_without_play  # since the last play, or the first turn while nobody has played
    int passes_on_empty_box
    int over
    int end_reason          # END_* once over
    int n_turns
    int n_plays
    int box_size
    signed char box[MAX_TILES]
    unsigned char racks[MAX_PLAYERS][RACK_KINDS]
    int rack_sizes[MAX_PLAYERS]
    int scores[MAX_PLAYERS]
    uint64_t rng


cdef inline int _below(Game* game, int n) noexcept nogil:
    return splitmix_below(&game.rng, n)


cdef void _shuffle_box(Game* game) noexcept nogil:
    cdef int i, j
    cdef signed char tile
    for i in range(game.box_size - 1, 0, -1):
        j = _below(game, i + 1)
        tile = game.box[i]
        game.box[i] = game.box[j]
        game.box[j] = tile


cdef int _draw(Game* game, int player, int count, signed char* drawn) noexcept nogil:
    """Move up to ``count`` tiles from the end of the box to a rack; returns how many."""
    cdef int n = 0, tile
    while n < count and game.box_size > 0:
        game.box_size -= 1
        tile = game.box[game.box_size]
        game.racks[player][tile] += 1
        game.rack_sizes[player] += 1
        if drawn != NULL:
            drawn[n] = tile
        n += 1
    return n


cdef void _start(Game* game, int players, int sets, uint64_t seed, int stall_rounds) noexcept nogil:
    cdef int card, copy, player, i, top, n_contenders, strength
    cdef int picked[MAX_PLAYERS]
    cdef int is_contender[MAX_PLAYERS]
    memset(game, 0, sizeof(Game))
    game.players = players
    game.sets = sets
    game.stall_rounds = stall_rounds
    game.rng = seed
    for copy in range(sets):
        for card in range(NUM_CARDS):
            game.box[game.box_size] = card
            game.box_size += 1
        for card in range(JOKERS_PER_SET):
            game.box[game.box_size] = JOKER
            game.box_size += 1
    _shuffle_box(game)
    for player in range(players):
        is_contender[player] = 1
    n_contenders = players
    while n_contenders > 1:
        # each contender draws a different tile; the highest stay in
        top = -1
        for player in range(players):
            if not is_contender[player]:
                continue
            while True:
                picked[player] = _below(game, game.box_size)
                for i in range(player):
                    if is_contender[i] and picked[i] == picked[player]:
                        break
                else:
                    break
            strength = draw_strength(game.box[picked[player]])
            if strength > top:
                top = strength
        n_contenders = 0
        for player in range(players):
            if is_contender[player]:
                if draw_strength(game.box[picked[player]]) == top:
                    n_contenders += 1
                else:
                    is_contender[player] = 0
    for player in range(players):
        if is_contender[player]:
            game.to_move = player
            game.first_player = player
    for player in range(players):
        _draw(game, player, RACK_SIZE, NULL)


cdef int _turn(Game* game, Board* board, Turn* turn) noexcept nogil:
    """Play one turn for the player to move; returns 1 when the game is over."""
    cdef int player = _open_turn(game, board, turn), tile
    cdef signed char returned[1]
    cdef long long found
    found = board_generate(board, GEN_BEST, &turn.play, NULL, NULL)
    if found:
        _apply_play(game, board, turn, player)
    else:
        turn.play.n = 0
        turn.action = ACTION_PASS
        if game.box_size > 0:
            tile = rack_tile_to_return(game.racks[player])
            if tile >= 0:
                turn.returned = tile
                returned[0] = <signed char>tile
                _apply_return(game, turn, player, returned, 1)
        _no_play(game)
    return _close_turn(game)


cdef int _open_turn(Game* game, Board* board, Turn* turn) noexcept nogil:
    """Start the turn of the player to move: draw a tile and put the rack on
    ``board``; returns the player."""
    cdef int player = game.to_move
    cdef signed char drawn[1]
    turn.player = player
    turn.drawn = drawn[0] if _draw(game, player, 1, drawn) else -1
    turn.returned = -1
    turn.score = 0
    turn.n_refill = 0
    memcpy(board.rack, game.racks[player], RACK_KINDS)
    board.rack_size = game.rack_sizes[player]
    return player


cdef void _apply_play(Game* game, Board* board, Turn* turn, int player) noexcept nogil:
    """Put ``turn.play`` on the board for ``player``, score it and refill the rack."""
    cdef unsigned char jokers[MAX_PLACED]
    cdef int i, tile
    turn.action = ACTION_PLAY
    turn.score = turn.play.score
    for i in range(turn.play.n):
        jokers[i] = play_joker(&turn.play, i)
    board_place(board, turn.play.n, turn.play.square, turn.play.card, jokers, 0)
    for i in range(turn.play.n):
        tile = JOKER if jokers[i] else turn.play.card[i]
        game.racks[player][tile] -= 1
        game.rack_sizes[player] -= 1
    game.scores[player] += turn.score
    game.turns_without_play = 0
    game.passes_on_empty_box = 0
    game.n_plays += 1
    turn.n_refill = _draw(game, player, RACK_SIZE - game.rack_sizes[player], turn.refill)


cdef void _apply_return(Game* game, Turn* turn, int player, const signed char* tiles, int n) noexcept nogil:
    """``player`` returns ``tiles`` to the box, which is mixed, and draws back up to 7."""
    cdef int i
    turn.action = ACTION_RETURN
    for i in range(n):
        game.racks[player][tiles[i]] -= 1
        game.rack_sizes[player] -= 1
        game.box[game.box_size] = tiles[i]
        game.box_size += 1
    _shuffle_box(game)
    turn.n_refill = _draw(game, player, RACK_SIZE - game.rack_sizes[player], turn.refill)


cdef inline void _no_play(Game* game) noexcept nogil:
    """The stall clock and the passes on an empty box after a turn without a play."""
    game.turns_without_play += 1
    game.passes_on_empty_box = game.passes_on_empty_box + 1 if game.box_size == 0 else 0


cdef int _close_turn(Game* game) noexcept nogil:
    """End the turn: the end of the game (docs/RULES.md §6) and its rack
    penalties, the next player; returns 1 when the game is over."""
    cdef int player, tile
    game.n_turns += 1
    if game.passes_on_empty_box >= game.players:
        game.end_reason = END_BOX_EMPTY_ALL_PASSED
    elif game.turns_without_play >= quiet_turn_limit(game.players, game.n_plays > 0, game.stall_rounds):
        game.end_reason = END_NO_PLAY_FOR_ROUNDS if game.n_plays else END_NOBODY_OPENED
    elif game.n_turns >= MAX_TURNS:
        game.end_reason = END_TURN_LIMIT
    if game.end_reason:
        game.over = 1
        for player in range(game.players):
            for tile in range(RACK_KINDS):
                game.scores[player] -= rack_penalty(tile) * game.racks[player][tile]
    game.to_move = (game.to_move + 1) % game.players
    return game.over


cdef inline uint64_t _game_seed(uint64_t seed, long long index) noexcept nogil:
    """Game ``index`` of a run from ``seed`` is the game of seed ``seed + index``."""
    cdef uint64_t state = seed + <uint64_t>index
    return splitmix_next(&state)


cdef int _check_game(Core layout, int players, int stall_rounds) except -1:
    """ValueError unless ``layout`` is an empty board and the numbers make a game."""
    if layout.board.n_tiles:
        raise ValueError("layout must be an empty Core of the layout: its board has tiles")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Ginny-O is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 1 <= stall_rounds <= MAX_TURNS:
        raise ValueError(f"stall_rounds must be 1 to {MAX_TURNS}, not {stall_rounds}")
    return 0


def play_greedy_games(Core layout not None, long long games, int players, unsigned long long seed,
                      int[:, :] scores not None, int[:] turns not None, int[:] plays not None,
                      int[:] first_players not None, int[:] end_reasons not None,
                      int stall_rounds=STALL_ROUNDS, threads=1):
    """Play ``games`` greedy games on ``layout`` (an empty Core of the layout).

    Game i is the game of seed ``seed + i``.  Final scores (penalties taken) go
    to ``scores[i, :players]``; the number of turns, of plays, the first player
    and how the game ended (1: the box was empty and every player passed;
    2: no play for ``stall_rounds`` full rounds after the first meld; 3: the
    turn limit; 4: nobody opened in OPENING_GUARD_ROUNDS full rounds) to the
    other arrays.  ``threads`` as for ``core.best_plays_batch``; ``layout`` is
    in use for the length of the call.
    """
    play_games(layout, games, players, seed, bytes(players if 0 < players <= MAX_PLAYERS else 0), None, scores,
               turns, plays, first_players, end_reasons, stall_rounds, threads)


def greedy_game_record(Core layout not None, int players, unsigned long long seed, long long index=0,
                       int stall_rounds=STALL_ROUNDS):
    """One greedy game, turn by turn, as Python data (for records and checks).

    Returns ``(first_player, racks, turns, scores)``: the racks dealt (lists of
    tiles, 52 = joker), one dict a turn, and the final scores.
    """
    cdef Board* board
    cdef Game game
    cdef Turn turn
    cdef int player, tile, i
    _check_game(layout, players, stall_rounds)
    claim(layout)
    board = board_clone(layout.board)   # an empty, prepared board
    release(layout)
    if board == NULL:
        raise MemoryError()
    _start(&game, players, sets_for(players), _game_seed(seed, index), stall_rounds)
    racks = [[tile for tile in range(RACK_KINDS) for _ in range(game.racks[player][tile])]
             for player in range(players)]
    record = []
    over = 0
    while not over:
        over = _turn(&game, board, &turn)
        record.append({
            "player": turn.player,
            "action": ("play", "return", "pass")[turn.action],
            "drawn": turn.drawn,
            "returned": turn.returned,
            "score": turn.score,
            "placements": [(turn.play.square[i], turn.play.card[i], bool(play_joker(&turn.play, i)))
                           for i in range(turn.play.n)],
            "refill": [turn.refill[i] for i in range(turn.n_refill)],
        })
    free(board)
    return game.first_player, racks, record, [game.scores[player] for player in range(players)]


# -- equity players in the loop -------------------------------------------------------

ctypedef struct EquityScratch:
    # What an equity player's ranking needs, one a thread (ginnycore.equity.rank_actions).
    PlayRecord* plays
    size_t capacity
    Ranked* ranked
    size_t ranked_capacity


cdef int _equity_turn(Game* game, Board* board, Turn* turn, const LeaveTable* table,
                      EquityScratch* scratch) noexcept nogil:
    """One turn of the equity player (ginnyo.equity.EquityPlayer's choice, ranked
    in C: the play or return of highest score + leave value, else a pass);
    returns 1 when the game is over, -1 when memory ran out."""
    cdef int player = _open_turn(game, board, turn)
    cdef const Ranked* best
    cdef GameState state
    state.players = game.players
    state.opened = game.n_plays > 0
    state.quiet_turns = game.turns_without_play
    state.quiet_limit = quiet_turn_limit(game.players, game.n_plays > 0, game.stall_rounds)
    if rank_actions(board, table, game.box_size, &state, 1, 1, &scratch.plays, &scratch.capacity,
                    &scratch.ranked, &scratch.ranked_capacity) < 1:
        return -1
    best = &scratch.ranked[0]
    if best.kind == EQUITY_PLAY:
        turn.play = best.play
        _apply_play(game, board, turn, player)
    else:
        turn.play.n = 0
        turn.action = ACTION_PASS
        if best.kind == EQUITY_RETURN:
            turn.returned = best.play.card[0]
            _apply_return(game, turn, player, best.play.card, best.play.n)
        _no_play(game)
    return _close_turn(game)


def play_games(Core layout not None, long long games, int players, unsigned long long seed,
               const unsigned char[:] equity_seats not None, LeaveModel model,
               int[:, :] scores not None, int[:] turns not None, int[:] plays not None,
               int[:] first_players not None, int[:] end_reasons not None, int stall_rounds=STALL_ROUNDS, threads=1):
    """As :func:`play_greedy_games`, with the seats ``s`` where ``equity_seats[s]``
    is nonzero played by the equity player of ``model`` (a
    ginnycore.equity.LeaveModel; None when no seat is equity's).  A game whose
    ranking ran out of memory gets -1 turns."""
    cdef long long index
    cdef int player, over, sets = sets_for(players), workers = thread_count(threads)
    cdef unsigned char equity_at[MAX_PLAYERS]
    cdef const LeaveTable* table = NULL
    # each thread's own, set first thing in the parallel block: NULL here so that the
    # copy OpenMP makes of them (firstprivate) is of a set value
    cdef Board* board = NULL
    cdef Game* game = NULL
    cdef Turn* turn = NULL
    cdef EquityScratch* scratch = NULL
    _check_game(layout, players, stall_rounds)
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    if equity_seats.shape[0] != players:
        raise ValueError(f"equity_seats: {equity_seats.shape[0]} seats, not {players}")
    if scores.shape[0] < games or scores.shape[1] < players or turns.shape[0] < games \
            or plays.shape[0] < games or first_players.shape[0] < games or end_reasons.shape[0] < games:
        raise ValueError("output arrays are too small")
    for player in range(MAX_PLAYERS):
        equity_at[player] = player < players and equity_seats[player] != 0
        if equity_at[player] and model is None:
            raise ValueError("an equity seat needs a model")
    if model is not None:
        table = &model.table
    claim(layout)
    with nogil, parallel(num_threads=workers):
        # each thread owns its board, game, turn and ranking scratch
        board = board_clone(layout.board)
        game = <Game*>malloc(sizeof(Game))
        turn = <Turn*>malloc(sizeof(Turn))
        scratch = <EquityScratch*>malloc(sizeof(EquityScratch))
        if scratch != NULL:
            memset(scratch, 0, sizeof(EquityScratch))
        for index in prange(games, schedule="dynamic", chunksize=4):
            if board == NULL or game == NULL or turn == NULL or scratch == NULL:
                turns[index] = -1
                continue
            board_copy(board, layout.board)
            _start(game, players, sets, _game_seed(seed, index), stall_rounds)
            over = 0
            while over == 0:
                if equity_at[game.to_move]:
                    over = _equity_turn(game, board, turn, table, scratch)
                else:
                    over = _turn(game, board, turn)
            for player in range(players):
                scores[index, player] = game.scores[player]
            turns[index] = game.n_turns if over > 0 else -1
            plays[index] = game.n_plays
            first_players[index] = game.first_player
            end_reasons[index] = game.end_reason
        if scratch != NULL:
            free(scratch.plays)
            free(scratch.ranked)
        free(board)
        free(game)
        free(turn)
        free(scratch)
    release(layout)


# -- positions of equity games for the win-probability model (ginnyo.win_probability) ----------

cdef enum:
    SNAPSHOT_FIELDS = 9         # a snapshot row's fields (snapshot_games)
    SNAPSHOT_PICK = 0x5DEECE66D   # mixed into a game's seed to pick its snapshots


def snapshot_games(Core layout not None, long long games, int players, unsigned long long seed, LeaveModel model not None,
                   int per_game, int[:, ::1] rows not None, double[::1] wins not None, int stall_rounds=STALL_ROUNDS,
                   threads=1):
    """Equity games (every seat ``model``'s equity player) sampled for the win
    probability: of game ``i`` (seed ``seed + i``), up to ``per_game`` turns
    other than the last, picked at random, into rows ``i * per_game`` on (a
    row's first field -1 when unused).  A row is the position just after a
    turn: the game, the player who moved, its lead over each other player in
    turn order after it (three fields, 0 past the players), the box size,
    whether a meld is down, the quiet turns and its rack size; ``wins`` its share of the game's win (1, 1/t tied on top with t -
    1 others, 0).  ``rows`` must be (games * per_game, 9), ``wins`` as long."""
    cdef long long index, at
    cdef int player, over, seat, k, n, i, j, top, tied, swap, sets = sets_for(players)
    cdef int workers = thread_count(threads)
    cdef const LeaveTable* table = &model.table
    # NULL before the parallel block: its firstprivate copies are of these (set again in each thread)
    cdef Board* board = NULL
    cdef Game* game = NULL
    cdef Turn* turn = NULL
    cdef EquityScratch* scratch = NULL
    cdef int* seen = NULL
    cdef int* order = NULL
    cdef uint64_t pick
    _check_game(layout, players, stall_rounds)
    if games < 0 or per_game < 1:
        raise ValueError("games must be 0 or more and per_game 1 or more")
    if rows.shape[0] < games * per_game or rows.shape[1] != SNAPSHOT_FIELDS or wins.shape[0] < games * per_game:
        raise ValueError(f"rows must be ({games * per_game}, {SNAPSHOT_FIELDS}) and wins as long")
    claim(layout)
    with nogil, parallel(num_threads=workers):
        board = board_clone(layout.board)
        game = <Game*>malloc(sizeof(Game))
        turn = <Turn*>malloc(sizeof(Turn))
        scratch = <EquityScratch*>malloc(sizeof(EquityScratch))
        seen = <int*>malloc(MAX_TURNS * SNAPSHOT_FIELDS * sizeof(int))
        order = <int*>malloc(MAX_TURNS * sizeof(int))
        if scratch != NULL:
            memset(scratch, 0, sizeof(EquityScratch))
        for index in prange(games, schedule="dynamic", chunksize=4):
            for i in range(per_game):
                rows[index * per_game + i, 0] = -1
                wins[index * per_game + i] = 0.0
            if board == NULL or game == NULL or turn == NULL or scratch == NULL or seen == NULL or order == NULL:
                continue
            board_copy(board, layout.board)
            _start(game, players, sets, _game_seed(seed, index), stall_rounds)
            over = 0
            n = 0
            while over == 0:
                over = _equity_turn(game, board, turn, table, scratch)
                if over != 0:
                    break
                player = turn.player
                seen[n * SNAPSHOT_FIELDS + 0] = <int>index
                seen[n * SNAPSHOT_FIELDS + 1] = player
                for k in range(3):
                    seat = (player + 1 + k) % players
                    seen[n * SNAPSHOT_FIELDS + 2 + k] = game.scores[player] - game.scores[seat] if k < players - 1 else 0
                seen[n * SNAPSHOT_FIELDS + 5] = game.box_size
                seen[n * SNAPSHOT_FIELDS + 6] = game.n_plays > 0
                seen[n * SNAPSHOT_FIELDS + 7] = game.turns_without_play
                seen[n * SNAPSHOT_FIELDS + 8] = game.rack_sizes[player]
                n = n + 1
            if over < 0:
                continue
            top = game.scores[0]
            for player in range(players):
                if game.scores[player] > top:
                    top = game.scores[player]
            tied = 0
            for player in range(players):
                tied = tied + (game.scores[player] == top)
            pick = _game_seed(seed ^ <uint64_t>SNAPSHOT_PICK, index)
            for i in range(n):
                order[i] = i
            for i in range(min(per_game, n)):
                j = i + splitmix_below(&pick, n - i)
                swap = order[i]
                order[i] = order[j]
                order[j] = swap
                at = index * per_game + i
                for k in range(SNAPSHOT_FIELDS):
                    rows[at, k] = seen[order[i] * SNAPSHOT_FIELDS + k]
                player = seen[order[i] * SNAPSHOT_FIELDS + 1]    # (no array here: a C array is shared by the threads)
                wins[at] = 1.0 / tied if game.scores[player] == top else 0.0
        if scratch != NULL:
            free(scratch.plays)
            free(scratch.ranked)
        free(board)
        free(game)
        free(turn)
        free(scratch)
        free(seen)
        free(order)
    release(layout)
