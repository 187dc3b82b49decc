# cython: language_level=3
"""Rack inference in C: what an opponent may have kept, judged by the action it just made (docs/INFERENCE.md).

The opponent's rack at its decision was its hidden tiles plus, for a play, the
tiles it placed (known).  Every possible hidden multiset of the pool (the
tiles the inferring player could not see, less those placed) is weighed by
the ways it can be drawn, the product over tile kinds of C(pool count, count
taken); it is kept when the action was within ``margin`` points of equity of
the best action that rack had (ginnycore.equity's ranking, returns included):
MAGPIE's rule with equity in place of its static value.  A play's equity is
its score plus the value of the leave; a return of ``n`` face-down tiles is
judged by the best return of ``n`` tiles of that rack (its leave the one kept:
highest leave value, ties to the lowest tiles returned); a pass keeps the
whole rack at its leave value.  When the hidden multisets number more than a
limit, that many racks are instead drawn from the pool (SplitMix64, sample
``i`` seeded from ``(seed, i)`` alone), each of weight 1, which weighs them
by the ways they can be drawn too.  The judging runs without the GIL over
threads; tests/inference_reference.py is the plain-Python yardstick.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport llround
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from ginnycore.board cimport board_clone
from ginnycore.core cimport Core, board_score, claim, release, thread_count
from ginnycore.equity cimport (ACTION_PASS, ACTION_PLAY, ACTION_RETURN, GameState, LeaveModel, LeaveRow, LeaveTable,
                               Ranked, leave_row, leave_value, rank_actions)
from ginnycore.rules cimport JOKERS_PER_SET
from ginnycore.splitmix cimport splitmix_below, splitmix_next
from ginnycore.types cimport JOKER, MAX_PLACED, NUM_CARDS, RACK_KINDS, Board, PlayRecord

cdef enum:
    MAX_TILES = 2 * (NUM_CARDS + JOKERS_PER_SET)   # two sets, for 3 or 4 players

cdef uint64_t INDEX_STEP = 0x9E3779B97F4A7C15
cdef long long MAX_COUNT = 1LL << 40   # the count of hidden multisets saturates here

ctypedef struct Judge:
    # Everything judging a rack reads; set once, shared by the threads.
    Board* board                # the position before the action
    const LeaveTable* table
    GameState state
    LeaveRow row                # the leave weights at the decision
    int box_size
    int kind                    # the action: ACTION_PLAY, ACTION_RETURN or ACTION_PASS
    int n                       # tiles placed or returned
    int score                   # a play's score
    int hidden                  # tiles of the rack not shown
    double margin
    unsigned char placed[RACK_KINDS]   # a play's tiles as rack kinds
    int n_pool
    signed char pool[MAX_TILES]

ctypedef struct Scratch:
    Board* board
    PlayRecord* plays
    size_t capacity
    Ranked* ranked
    size_t ranked_capacity


cdef inline long long _key(double value) noexcept nogil:
    """An equity to 1e-9 as a whole number (as the equity ranking keys it)."""
    return llround(value * 1e9)


cdef void _best_return(const LeaveTable* table, const LeaveRow* row, unsigned char* rack, int kind, int n,
                       long long* best, double* best_value, unsigned char* kept) noexcept nogil:
    """The best leave of returning ``n`` tiles of ``rack`` from tile kind
    ``kind`` on: its value key into ``best`` (when higher), the leave into
    ``kept``.  Lower tiles are tried returned first, so a tie keeps the return
    of the lowest tiles."""
    cdef int m, most
    cdef long long key
    cdef double value
    if kind == RACK_KINDS:
        if n == 0:
            value = leave_value(table, row, rack)
            key = _key(value)
            if key > best[0]:
                best[0] = key
                best_value[0] = value
                memcpy(kept, rack, RACK_KINDS)
        return
    most = rack[kind] if rack[kind] < n else n
    for m in range(most, -1, -1):
        rack[kind] -= m
        _best_return(table, row, rack, kind + 1, n - m, best, best_value, kept)
        rack[kind] += m


cdef int _judge(const Judge* judge, const unsigned char* hidden, Scratch* scratch, unsigned char* leave) noexcept nogil:
    """1 when the action was within the margin of the best for the rack of
    ``hidden`` (plus the placed tiles), its leave into ``leave``; 0 when not;
    -1 when memory ran out."""
    cdef Board* board = scratch.board
    cdef unsigned char rack[RACK_KINDS]
    cdef const Ranked* top
    cdef long long best_key, action_key
    cdef double kept_value = 0.0
    cdef int tile, size = 0
    for tile in range(RACK_KINDS):
        rack[tile] = hidden[tile] + (judge.placed[tile] if judge.kind == ACTION_PLAY else 0)
        size += rack[tile]
    memcpy(board.rack, rack, RACK_KINDS)
    board.rack_size = size
    if rank_actions(board, judge.table, judge.box_size, &judge.state, 1, 1, &scratch.plays, &scratch.capacity,
                    &scratch.ranked, &scratch.ranked_capacity) < 1:
        return -1
    top = &scratch.ranked[0]
    best_key = top.key
    if judge.kind == ACTION_PLAY:
        memcpy(leave, hidden, RACK_KINDS)
        action_key = _key(judge.score + leave_value(judge.table, &judge.row, hidden))
    elif judge.kind == ACTION_RETURN:
        action_key = -(1LL << 62)
        memcpy(leave, rack, RACK_KINDS)
        _best_return(judge.table, &judge.row, rack, 0, judge.n, &action_key, &kept_value, leave)
        action_key = _key(kept_value + judge.row.returns)
    else:
        memcpy(leave, hidden, RACK_KINDS)
        action_key = _key(leave_value(judge.table, &judge.row, hidden))
    return 1 if action_key >= best_key - _key(judge.margin) - 1 else 0   # (1e-9 of rounding slack)


cdef long long _count(const unsigned char* pool, int size) noexcept nogil:
    """How many distinct multisets of ``size`` tiles the pool holds (saturating at MAX_COUNT)."""
    cdef long long ways[MAX_PLACED + 1]
    cdef long long grown[MAX_PLACED + 1]
    cdef int kind, k, m
    memset(ways, 0, sizeof(ways))
    ways[0] = 1
    for kind in range(RACK_KINDS):
        memset(grown, 0, sizeof(grown))
        for k in range(size + 1):
            for m in range(min(pool[kind], size - k) + 1):
                grown[k + m] += ways[k]
                if grown[k + m] > MAX_COUNT:
                    grown[k + m] = MAX_COUNT
        memcpy(ways, grown, sizeof(ways))
    return ways[size]


cdef long long _enumerate(const unsigned char* pool, int size, unsigned char* out, double* weights,
                          unsigned char* current, int kind, double weight, long long at) noexcept nogil:
    """Write every multiset of ``size`` more tiles of the pool from ``kind`` on
    (``current`` so far, ``weight`` its ways) into ``out``/``weights`` from row
    ``at``, kinds in ascending order; the next free row."""
    cdef int m, most
    cdef double ways
    if size == 0:
        memcpy(&out[at * RACK_KINDS], current, RACK_KINDS)
        weights[at] = weight
        return at + 1
    if kind == RACK_KINDS:
        return at
    most = pool[kind] if pool[kind] < size else size
    ways = 1.0
    for m in range(most + 1):
        current[kind] = m
        at = _enumerate(pool, size - m, out, weights, current, kind + 1, weight * ways, at)
        ways = ways * (pool[kind] - m) / (m + 1)      # C(pool, m + 1)
    current[kind] = 0
    return at


cdef void _sample(const Judge* judge, uint64_t seed, long long index, unsigned char* hidden) noexcept nogil:
    """Sample ``index``'s hidden tiles: ``judge.hidden`` drawn from the pool without replacement."""
    cdef signed char tiles[MAX_TILES]
    cdef signed char tile
    cdef uint64_t state = seed
    cdef int i, j
    state = splitmix_next(&state) + <uint64_t>index * INDEX_STEP
    state = splitmix_next(&state)
    memcpy(tiles, judge.pool, judge.n_pool)
    memset(hidden, 0, RACK_KINDS)
    for i in range(judge.hidden):
        j = i + splitmix_below(&state, judge.n_pool - i)
        tile = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = tile
        hidden[tiles[i]] += 1


cdef object _whole(object value, str name, long long low, long long high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value}")
    return value


def hidden_count(pool, int size):
    """How many distinct multisets of ``size`` tiles ``pool`` (53 counts) holds, at most 2**40."""
    cdef unsigned char counts[RACK_KINDS]
    _counts(pool, counts, "pool")
    _whole(size, "size", 0, MAX_PLACED)
    return _count(counts, size)


cdef int _counts(object given, unsigned char* counts, str name) except -1:
    given = bytes(given)
    if len(given) != RACK_KINDS:
        raise ValueError(f"{name}: {RACK_KINDS} tile counts, not {len(given)}")
    for tile in range(RACK_KINDS):
        counts[tile] = given[tile]
    return 0


def infer(Core position not None, LeaveModel model not None, pool, int rack_size, int kind, placements,
          int returned, int box_size, state, double margin, long long max_leaves, long long samples,
          seed=0, threads=1):
    """The racks an opponent may have held, judged by its action.

    ``position`` a Core with the board before the action (its rack unused),
    ``pool`` the 53 tile counts the hidden tiles come from (the tiles the
    inferring player could not see, less any placed), ``rack_size`` the
    opponent's rack at its decision, ``kind`` 0 a play of ``placements``
    (``(square, card, is_joker)``, legal on the board), 1 a return of
    ``returned`` face-down tiles, 2 a pass, ``box_size`` and ``state``
    (``(players, opened, quiet_turns, quiet_limit)``) its decision's, ``margin``
    points of equity.  Every hidden multiset when there are at most
    ``max_leaves``, else ``samples`` drawn from the pool.  Returns ``(exact,
    considered, leaves)``: whether it enumerated, the weight judged, and
    ``(leave counts as bytes, weight)`` for each rack kept, in the order
    judged (a play's leave is its hidden tiles).  ValueError on bad input."""
    cdef Judge judge
    cdef unsigned char pool_counts[RACK_KINDS]
    cdef unsigned char current[RACK_KINDS]
    cdef unsigned char* rows = NULL
    cdef unsigned char* leaves = NULL
    cdef double* weights = NULL
    cdef signed char* verdict = NULL
    cdef short squares[MAX_PLACED]
    cdef signed char cards[MAX_PLACED]
    cdef unsigned char jokers[MAX_PLACED]
    cdef long long count, total, i
    cdef int tile, n = 0, exact, workers = thread_count(threads), failed = 0
    cdef uint64_t seed_value
    cdef Scratch* scratch = NULL   # NULL before the parallel block: its firstprivate copy is of it
    memset(&judge, 0, sizeof(Judge))
    _counts(pool, pool_counts, "pool")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r:.40}")
    seed_value = <uint64_t>seed
    _whole(rack_size, "rack_size", 1, MAX_PLACED)
    _whole(kind, "kind", ACTION_PLAY, ACTION_PASS)
    _whole(box_size, "box_size", 0, MAX_TILES)
    _whole(max_leaves, "max_leaves", 0, 10**8)
    _whole(samples, "samples", 1, 10**8)
    if not margin >= 0:
        raise ValueError(f"margin must be 0 or more, not {margin}")
    players, opened, quiet_turns, quiet_limit = state
    judge.state.players = _whole(players, "players", 2, 4)
    judge.state.opened = 1 if opened else 0
    judge.state.quiet_turns = _whole(quiet_turns, "quiet_turns", 0, 2**62)
    judge.state.quiet_limit = _whole(quiet_limit, "quiet_limit", 0, 2**62)
    judge.kind = kind
    judge.box_size = box_size
    judge.margin = margin
    judge.table = &model.table
    placements = tuple(placements)
    if kind == ACTION_PLAY:
        n = len(placements)
        if not 1 <= n <= rack_size:
            raise ValueError(f"a play places 1 to {rack_size} tiles, not {n}")
        for i, (square, card, joker) in enumerate(placements):
            squares[i] = <short>_whole(square, "a square", 0, 10**6)
            cards[i] = <signed char>_whole(card, "a card", 0, NUM_CARDS - 1)
            jokers[i] = 1 if joker else 0
            judge.placed[JOKER if joker else card] += 1
    elif placements:
        raise ValueError("only a play places tiles")
    if kind == ACTION_RETURN:
        n = _whole(returned, "returned", 1, rack_size)
        if box_size <= 0:
            raise ValueError("a return needs a tile in the box")
    judge.n = n
    judge.hidden = rack_size - (n if kind == ACTION_PLAY else 0)
    for tile in range(RACK_KINDS):
        for i in range(pool_counts[tile]):
            if judge.n_pool >= MAX_TILES:
                raise ValueError(f"pool: more than {MAX_TILES} tiles")
            judge.pool[judge.n_pool] = <signed char>tile
            judge.n_pool += 1
    if judge.n_pool < judge.hidden:
        raise ValueError(f"pool: {judge.n_pool} tiles, fewer than the {judge.hidden} hidden")
    claim(position)
    try:
        for i in range(n if kind == ACTION_PLAY else 0):
            if squares[i] >= position.board.size:
                raise ValueError(f"a square must be below {position.board.size}, not {squares[i]}")
        judge.board = board_clone(position.board)
    finally:
        release(position)
    if judge.board == NULL:
        raise MemoryError()
    if kind == ACTION_PLAY:
        memcpy(judge.board.rack, judge.placed, RACK_KINDS)     # the play's own tiles: scored as the rack's
        judge.board.rack_size = n
        judge.score = board_score(judge.board, n, squares, cards, jokers, NULL, 0)
        if judge.score < 0:
            free(judge.board)
            raise ValueError(f"not a legal play of the position (code {judge.score})")
    leave_row(&judge.row, judge.table, box_size, &judge.state)
    count = _count(pool_counts, judge.hidden)
    exact = count <= max_leaves
    total = count if exact else samples
    try:
        rows = <unsigned char*>malloc(total * RACK_KINDS)
        leaves = <unsigned char*>malloc(total * RACK_KINDS)
        weights = <double*>malloc(total * sizeof(double))
        verdict = <signed char*>malloc(total)
        if rows == NULL or leaves == NULL or weights == NULL or verdict == NULL:
            raise MemoryError()
        if exact:
            memset(current, 0, RACK_KINDS)
            _enumerate(pool_counts, judge.hidden, rows, weights, current, 0, 1.0, 0)
        with nogil, parallel(num_threads=workers):
            scratch = <Scratch*>malloc(sizeof(Scratch))
            if scratch != NULL:
                memset(scratch, 0, sizeof(Scratch))
                scratch.board = board_clone(judge.board)
            for i in prange(total, schedule="dynamic", chunksize=16):
                if scratch == NULL or scratch.board == NULL:
                    failed += 1
                    verdict[i] = -1
                else:
                    if not exact:
                        _sample(&judge, seed_value, i, &rows[i * RACK_KINDS])
                        weights[i] = 1.0
                    verdict[i] = _judge(&judge, &rows[i * RACK_KINDS], scratch, &leaves[i * RACK_KINDS])
                    if verdict[i] < 0:
                        failed += 1
            if scratch != NULL:
                free(scratch.board)
                free(scratch.plays)
                free(scratch.ranked)
                free(scratch)
        if failed:
            raise MemoryError("the inference did not fit in memory")
        considered = 0.0
        kept = []
        for i in range(total):
            considered += weights[i]
            if verdict[i] == 1:
                kept.append((bytes(leaves[i * RACK_KINDS:(i + 1) * RACK_KINDS]), weights[i]))
        return bool(exact), considered, kept
    finally:
        free(rows)
        free(leaves)
        free(weights)
        free(verdict)
        free(judge.board)


cdef double _choose(int n, int k) noexcept nogil:
    """C(n, k) as a double (exact for the small counts of a tile kind)."""
    cdef long long ways = 1
    cdef int i
    if k < 0 or k > n:
        return 0.0
    for i in range(1, k + 1):
        ways = ways * (n - k + i) // i
    return <double>ways


def condition(pool, now, list kept):
    """The kept leaves of :func:`infer` conditioned on what was seen since:
    ``pool`` the 53 counts the hidden tiles came from, ``now`` the 53 counts
    the inferring player cannot see now.  A leave's weight is multiplied by
    the ways the tiles seen since (``pool - now``) could still have been
    drawn from what the leave left; a leave holding more of a kind than is
    unseen now is dropped.  Returns ``(kept weight, leaves)``: the weight
    kept before conditioning, and ``(tiles, weight, counts)`` for each leave
    left (its sorted tiles as a tuple, its summed weight, its 53 counts as
    bytes), heaviest first, ties by tiles.  ValueError on bad input."""
    cdef unsigned char pool_counts[RACK_KINDS]
    cdef unsigned char now_counts[RACK_KINDS]
    cdef int seen[RACK_KINDS]
    cdef const unsigned char* leave
    cdef int tile, left
    cdef double weight, ways, kept_weight = 0.0
    cdef dict weights = {}
    _counts(pool, pool_counts, "pool")
    _counts(now, now_counts, "now")
    for tile in range(RACK_KINDS):
        seen[tile] = pool_counts[tile] - now_counts[tile]
    for entry in kept:
        key, weight = entry
        if type(key) is not bytes or len(<bytes>key) != RACK_KINDS:
            raise ValueError(f"a kept leave must be {RACK_KINDS} tile counts as bytes")
        leave = <bytes>key
        kept_weight += weight
        ways = weight
        for tile in range(RACK_KINDS):
            if seen[tile] > 0:
                left = pool_counts[tile] - leave[tile]
                ways *= _choose(left if left > 0 else 0, seen[tile])
            elif leave[tile] > now_counts[tile]:
                ways = 0.0
            if ways == 0.0:
                break
        if ways != 0.0:
            weights[key] = weights.get(key, 0.0) + ways
    leaves = []
    for key, weight in weights.items():
        leave = <bytes>key
        tiles = []
        for tile in range(RACK_KINDS):
            for left in range(leave[tile]):
                tiles.append(tile)
        leaves.append((tuple(tiles), weight, key))
    leaves.sort(key=_heaviest_first)
    return kept_weight, leaves


def _heaviest_first(item):
    return (-item[1], item[0])
