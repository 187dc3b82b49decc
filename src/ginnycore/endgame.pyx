# cython: language_level=3
"""Exact 2-player endgames of Ginny-O in C (docs/RULES.md §6 with the box empty).

Both racks are known, so the rest of the game is a two-player game of perfect
information.  A player with a legal play must play; one without (an empty rack
has none) passes; a pass answered by a pass ends the game, and each rack's
tiles are then subtracted from its owner.  The search is a negamax over
(play | forced pass) with alpha-beta and principal-variation null windows,
plays tried best score first (the transposition table's best play before
them), a fixed-size transposition table keyed by a Zobrist hash of the placed
tiles (square, card, joker), both racks, the side to move and whether the last
turn was a pass, and iterative deepening by plies under a time budget.  A value
is *proven* when the last completed iteration met no horizon.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from ginnycore.board cimport board_clone, board_copy
from ginnycore.core cimport Core, board_generate, board_place
from ginnycore.rules cimport rack_penalty
from ginnycore.types cimport GEN_ALL, JOKER, MAX_PLACED, NUM_CARDS, RACK_KINDS, Board, PlayRecord, play_joker

cdef enum:
    BOUND_EXACT = 0
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    NO_BEST = 0xFFFF
    INFINITE = 1000000
    CLOCK_MASK = 1023           # the clock is read once every 1024 nodes
    MIN_TABLE_BITS = 10
    MAX_TABLE_BITS = 26
    DEFAULT_TABLE_BITS = 20     # 2^20 entries of 16 bytes: 16 MiB

cdef uint64_t SIDE_KEY = 0x2545F4914F6CDD1D
cdef uint64_t PASS_KEY = 0x9E3779B97F4A7C15
cdef uint64_t LOW32 = 0xFFFFFFFF          # the low half of an order key: 0xFFFFFFFF - index


cdef inline uint64_t _mix(uint64_t value) noexcept nogil:
    """SplitMix64's finaliser: a Zobrist key computed, not stored."""
    value += <uint64_t>0x9E3779B97F4A7C15
    value = (value ^ (value >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    value = (value ^ (value >> 27)) * <uint64_t>0x94D049BB133111EB
    return value ^ (value >> 31)


cdef inline uint64_t _tile_key(int square, int card, int joker) noexcept nogil:
    return _mix((<uint64_t>1 << 40) | (<uint64_t>square << 8) | <uint64_t>(card << 1) | <uint64_t>joker)


cdef inline uint64_t _rack_key(int side, int tile, int copy) noexcept nogil:
    """The key of the ``copy``-th tile (1 up) of kind ``tile`` on ``side``'s rack."""
    return _mix((<uint64_t>2 << 40) | (<uint64_t>side << 16) | <uint64_t>(tile << 8) | <uint64_t>copy)


cdef inline double _now() noexcept nogil:
    cdef timespec clock
    clock_gettime(CLOCK_MONOTONIC, &clock)
    return clock.tv_sec + clock.tv_nsec * 1e-9


cdef int _descending(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return (x < y) - (x > y)


cdef inline int _rack_tile(const PlayRecord* play, int i) noexcept nogil:
    return JOKER if play_joker(play, i) else play.card[i]


# -- making and taking back a turn ----------------------------------------------------

cdef void _make_play(Search* s, const PlayRecord* play) noexcept nogil:
    """Put ``play`` down for the side to move, who then hands the turn over."""
    cdef unsigned char jokers[MAX_PLACED]
    cdef int i, tile, side = s.side
    for i in range(play.n):
        jokers[i] = play_joker(play, i)
        tile = _rack_tile(play, i)
        s.hash ^= _rack_key(side, tile, s.racks[side][tile]) ^ _tile_key(play.square[i], play.card[i], jokers[i])
        s.racks[side][tile] -= 1
        s.penalties[side] -= rack_penalty(tile)
    s.rack_sizes[side] -= play.n
    board_place(s.board, play.n, play.square, play.card, jokers, 0)
    s.side = 1 - side
    s.hash ^= SIDE_KEY


cdef void _take_back(Search* s, const PlayRecord* play, int groups) noexcept nogil:
    """Undo ``_make_play``; ``groups`` is the board's group count before it."""
    cdef unsigned char jokers[MAX_PLACED]
    cdef int i, tile, side = 1 - s.side
    s.side = side
    s.hash ^= SIDE_KEY
    for i in range(play.n):
        jokers[i] = play_joker(play, i)
        tile = _rack_tile(play, i)
        s.racks[side][tile] += 1
        s.penalties[side] += rack_penalty(tile)
        s.hash ^= _rack_key(side, tile, s.racks[side][tile]) ^ _tile_key(play.square[i], play.card[i], jokers[i])
    s.rack_sizes[side] += play.n
    board_place(s.board, play.n, play.square, play.card, jokers, 1)
    # group ids handed out by the play are free again (a long search would run out of them)
    s.board.n_groups = groups


# -- the search ---------------------------------------------------------------------------

cdef long long _generate(Search* s, int ply) noexcept nogil:
    """The side to move's plays into the buffer of ``ply``; -1 when out of memory."""
    memcpy(s.board.rack, s.racks[s.side], RACK_KINDS)
    s.board.rack_size = s.rack_sizes[s.side]
    return board_generate(s.board, GEN_ALL, NULL, &s.plays[ply], &s.capacity[ply])


cdef int _order(Search* s, int ply, long long count, int first) noexcept nogil:
    """Sort keys of the plays of ``ply``: score high first, then generation order,
    with play ``first`` (the table's best, or -1) ahead of all.  0 when out of memory."""
    cdef long long i
    cdef uint64_t* grown
    cdef size_t wanted = <size_t>count
    if wanted > s.order_capacity[ply]:
        grown = <uint64_t*>realloc(s.order[ply], wanted * 2 * sizeof(uint64_t))
        if grown == NULL:
            return 0
        s.order[ply] = grown
        s.order_capacity[ply] = wanted * 2
    for i in range(count):
        # score (offset to stay positive) in the high half, the reversed index in the low
        s.order[ply][i] = ((<uint64_t>(s.plays[ply][i].score + (1 << 20)) << 32)
                           | (LOW32 - <uint64_t>i))
    if 0 <= first < count:
        s.order[ply][first] = (LOW32 << 32) | (LOW32 - <uint64_t>first)
    qsort(s.order[ply], count, sizeof(uint64_t), _descending)
    return 1


cdef inline TableEntry* _probe(Search* s) noexcept nogil:
    """The table's entry of the current position, or NULL.  A bucket is two
    entries: the first keeps the deepest result, the second the latest."""
    cdef TableEntry* bucket = &s.table[s.hash & s.table_mask & ~(<uint64_t>1)]
    if bucket[0].key == s.hash:
        return &bucket[0]
    if bucket[1].key == s.hash:
        return &bucket[1]
    return NULL


cdef inline void _store(Search* s, int depth, int value, int bound, long long best, int exact) noexcept nogil:
    cdef TableEntry* bucket = &s.table[s.hash & s.table_mask & ~(<uint64_t>1)]
    cdef TableEntry* entry = &bucket[1]
    cdef int stored_depth = ENDGAME_EXACT if exact else depth
    if bucket[0].key == s.hash or stored_depth >= bucket[0].depth:
        if bucket[0].key != s.hash and bucket[0].key != 0:
            bucket[1] = bucket[0]       # the deepest so far becomes the latest
        entry = &bucket[0]
    elif bucket[1].key == s.hash:
        entry = &bucket[1]
    entry.key = s.hash
    entry.value = value
    entry.bound = bound
    entry.depth = stored_depth
    entry.best = <uint16_t>best if 0 <= best < NO_BEST else NO_BEST


cdef inline void _pv_set(Search* s, int ply, const PlayRecord* play) noexcept nogil:
    """The line from ``ply``: ``play`` then the line found below it."""
    cdef int i
    s.pv[ply][ply] = play[0]
    for i in range(ply + 1, s.pv_length[ply + 1]):
        s.pv[ply][i] = s.pv[ply + 1][i]
    s.pv_length[ply] = max(s.pv_length[ply + 1], ply + 1)


cdef int _search(Search* s, int ply, int depth, int alpha, int beta, int passed) noexcept nogil:
    """The value of the rest of the game for the side to move (its points minus
    the other's, end penalties included), searched ``depth`` plies deep."""
    cdef TableEntry* entry
    cdef long long count, i, index, best = -1
    cdef long long horizons_before = s.horizons
    cdef int value, best_value = -INFINITE, original_alpha = alpha, first = -1, groups
    cdef int pv_node = beta - alpha > 1
    cdef PlayRecord pass_record
    cdef PlayRecord* play
    s.pv_length[ply] = ply
    s.nodes += 1
    if (s.nodes & s.check_mask) == 0 and s.may_stop:
        if s.stop_request or (s.max_nodes > 0 and s.nodes >= s.max_nodes) \
                or (s.deadline > 0 and _now() > s.deadline):
            s.stopped = 1
    if s.stopped or s.failed:
        return 0
    entry = _probe(s)
    if entry != NULL:
        if entry.depth >= depth and not pv_node:
            if (entry.bound == BOUND_EXACT or (entry.bound == BOUND_LOWER and entry.value >= beta)
                    or (entry.bound == BOUND_UPPER and entry.value <= alpha)):
                if entry.depth != ENDGAME_EXACT:
                    s.horizons += 1
                return entry.value
        if entry.best != NO_BEST:
            first = entry.best
    if depth <= 0 or ply >= ENDGAME_MAX_PLY - 1:
        s.horizons += 1
        return s.penalties[1 - s.side] - s.penalties[s.side]
    count = _generate(s, ply)
    if count < 0:
        s.failed = 1
        return 0
    if count == 0:
        pass_record.n = 0
        pass_record.score = 0
        if passed:
            # a pass answered by a pass: the game is over, the racks are subtracted
            s.pv[ply][ply] = pass_record
            s.pv_length[ply] = ply + 1
            return s.penalties[1 - s.side] - s.penalties[s.side]
        s.side = 1 - s.side
        s.hash ^= SIDE_KEY ^ PASS_KEY
        value = -_search(s, ply + 1, depth - 1, -beta, -alpha, 1)
        s.side = 1 - s.side
        s.hash ^= SIDE_KEY ^ PASS_KEY
        if s.stopped or s.failed:
            return 0
        _pv_set(s, ply, &pass_record)
        return value
    if not _order(s, ply, count, first if first < count else -1):
        s.failed = 1
        return 0
    if passed:
        s.hash ^= PASS_KEY      # the children follow a play
    for i in range(count):
        index = <long long>(LOW32 - (s.order[ply][i] & LOW32))
        play = &s.plays[ply][index]
        groups = s.board.n_groups
        _make_play(s, play)
        if i == 0 or not pv_node:
            value = play.score - _search(s, ply + 1, depth - 1, play.score - beta, play.score - alpha, 0)
        else:
            value = play.score - _search(s, ply + 1, depth - 1, play.score - alpha - 1, play.score - alpha, 0)
            if alpha < value < beta and not s.stopped:
                value = play.score - _search(s, ply + 1, depth - 1, play.score - beta, play.score - alpha, 0)
        _take_back(s, play, groups)
        if s.stopped or s.failed:
            break
        if value > best_value:
            best_value = value
            best = index
        if value > alpha:
            alpha = value
            _pv_set(s, ply, play)
            if alpha >= beta:
                break
    if passed:
        s.hash ^= PASS_KEY
    if s.stopped or s.failed:
        return 0
    _store(s, depth, best_value,
           BOUND_UPPER if best_value <= original_alpha else BOUND_LOWER if best_value >= beta else BOUND_EXACT,
           best, s.horizons == horizons_before)
    return best_value


cdef void _release(Search* s) noexcept nogil:
    cdef int ply
    if s == NULL:
        return
    for ply in range(ENDGAME_MAX_PLY):
        free(s.plays[ply])
        free(s.order[ply])
    free(s.table)
    free(s.board)
    free(s)


cdef int _load_racks(Search* s, const unsigned char* mover, const unsigned char* other) noexcept nogil:
    """Set both racks, their sizes and penalties; 0 when a rack holds more than
    MAX_PLACED tiles, else 1."""
    cdef int side, tile
    memcpy(s.racks[0], mover, RACK_KINDS)
    memcpy(s.racks[1], other, RACK_KINDS)
    for side in range(2):
        s.rack_sizes[side] = 0
        s.penalties[side] = 0
        for tile in range(RACK_KINDS):
            s.rack_sizes[side] += s.racks[side][tile]
            s.penalties[side] += rack_penalty(tile) * s.racks[side][tile]
    return s.rack_sizes[0] <= MAX_PLACED and s.rack_sizes[1] <= MAX_PLACED


cdef void _start(Search* s, int after_pass, double seconds, long long nodes) noexcept nogil:
    """Ready a loaded search to run: its hash, counters and budgets."""
    cdef int side, tile, i
    s.side = 0
    s.nodes = 0
    s.horizons = 0
    s.may_stop = 0
    s.stopped = 0
    s.failed = 0
    s.hash = PASS_KEY if after_pass else 0
    for side in range(2):
        for tile in range(RACK_KINDS):
            for i in range(1, s.racks[side][tile] + 1):
                s.hash ^= _rack_key(side, tile, i)
    for i in range(s.board.size):
        if s.board.card[i] >= 0:
            s.hash ^= _tile_key(i, s.board.card[i], s.board.joker[i] != 0)
    s.deadline = _now() + seconds if seconds > 0 else 0
    s.max_nodes = nodes if nodes > 0 else 0
    s.check_mask = CLOCK_MASK


cdef int _deepen(Search* s, int after_pass, PlayRecord* line, int* line_length, int* reached,
                 int* proven) noexcept nogil:
    """Iterative deepening until proven or out of budget: the value of the last
    completed iteration, its line into ``line`` (ENDGAME_MAX_PLY room)."""
    cdef int depth, value, result = 0
    cdef long long horizons
    line_length[0] = 0
    reached[0] = 0
    proven[0] = 0
    for depth in range(1, ENDGAME_MAX_PLY - 1):
        horizons = s.horizons
        value = _search(s, 0, depth, -INFINITE, INFINITE, after_pass)
        if s.stopped or s.failed:
            break
        result = value
        reached[0] = depth
        line_length[0] = s.pv_length[0]
        memcpy(line, s.pv[0], line_length[0] * sizeof(PlayRecord))
        s.may_stop = 1
        if s.horizons == horizons:
            proven[0] = 1
            break
    return result


cdef Search* endgame_search_new(const Board* board, int table_bits) noexcept nogil:
    """A search for endgames on boards of ``board``'s size, with a transposition
    table of ``2 ** table_bits`` entries; NULL when out of memory."""
    cdef Search* s = <Search*>calloc(1, sizeof(Search))
    if s == NULL:
        return NULL
    s.board = board_clone(board)
    s.table = <TableEntry*>calloc(<size_t>1 << table_bits, sizeof(TableEntry))
    if s.board == NULL or s.table == NULL:
        _release(s)
        return NULL
    s.table_mask = (<uint64_t>1 << table_bits) - 1
    return s


cdef void endgame_search_free(Search* s) noexcept nogil:
    _release(s)


cdef int endgame_value(Search* s, const Board* board, const unsigned char* mover, const unsigned char* other,
                       int after_pass, long long nodes, int* proven) noexcept nogil:
    """The endgame's value for the player to move on ``board`` holding ``mover``
    against ``other`` (``after_pass``: a pass now ends the game), searched
    within about ``nodes`` nodes (the budget looked at every ENDGAME_SMALL_CHECK
    nodes after the first iteration) with the table cleared first, so the
    answer depends on the position alone; ``proven`` says whether it is exact.
    ``s.failed`` is set when memory ran out or a rack holds over MAX_PLACED tiles."""
    cdef PlayRecord line[ENDGAME_MAX_PLY]
    cdef int line_length, reached
    board_copy(s.board, board)
    memset(s.table, 0, (s.table_mask + 1) * sizeof(TableEntry))
    if not _load_racks(s, mover, other):
        s.failed = 1
        return 0
    _start(s, after_pass, 0.0, nodes)
    s.check_mask = ENDGAME_SMALL_CHECK - 1
    return _deepen(s, after_pass, line, &line_length, &reached, proven)


# -- the Python face --------------------------------------------------------------------

cdef class Endgame:
    """A 2-player endgame: the board and rack of ``core`` (the player to move)
    against ``opponent_rack`` (53 counts, jokers last), with a transposition
    table of ``2 ** table_bits`` entries of 16 bytes.  ``after_pass``: the
    opponent's last turn was a pass (then a pass now ends the game)."""

    def __cinit__(self, Core core not None, const unsigned char[:] opponent_rack not None,
                  int table_bits=DEFAULT_TABLE_BITS,
                  bint after_pass=False):
        cdef int tile
        cdef unsigned char other[RACK_KINDS]
        self.search = NULL
        if opponent_rack.shape[0] != RACK_KINDS:
            raise ValueError("opponent_rack needs 53 counts")
        if not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS:
            raise ValueError(f"table_bits must be from {MIN_TABLE_BITS} to {MAX_TABLE_BITS}, not {table_bits}")
        self.search = <Search*>calloc(1, sizeof(Search))
        if self.search == NULL:
            raise MemoryError()
        self.search.board = board_clone(core.board)
        if self.search.board == NULL:
            raise MemoryError()
        self.table_bits = table_bits
        self.after_pass = after_pass
        for tile in range(RACK_KINDS):
            other[tile] = opponent_rack[tile]
        if not _load_racks(self.search, core.board.rack, other):
            raise ValueError(f"a rack holds at most {MAX_PLACED} tiles")

    def __dealloc__(self):
        _release(self.search)

    def stop(self):
        """Ask a running ``solve`` (in another thread) to return what it has."""
        self.search.stop_request = 1

    def solve(self, double seconds=0.0, long long nodes=0, int check_every=CLOCK_MASK + 1):
        """Search until proven, or for at most ``seconds`` (0 or less: no limit)
        and at most about ``nodes`` nodes (0 or less: no limit; the count is
        checked every ``check_every`` nodes, a power of two up to 1024, so a
        node budget gives the same answer on any machine, which a time budget
        does not).

        Returns ``(spread, line, proven, nodes, depth, elapsed)``: the line as
        plays ``(score, ((square, card, is_joker), ...))``, a pass as
        ``(0, ())``.  The GIL is released while it runs; call it once."""
        cdef Search* s = self.search
        cdef int result, proven = 0, reached = 0, i
        cdef double started
        cdef PlayRecord line[ENDGAME_MAX_PLY]
        cdef int line_length = 0, after_pass = self.after_pass
        if s.table != NULL:
            raise ValueError("an Endgame is solved once")
        if not 1 <= check_every <= CLOCK_MASK + 1 or check_every & (check_every - 1):
            raise ValueError(f"check_every must be a power of two from 1 to {CLOCK_MASK + 1}, not {check_every}")
        s.table = <TableEntry*>calloc(<size_t>1 << self.table_bits, sizeof(TableEntry))
        if s.table == NULL:
            raise MemoryError()
        s.table_mask = (<uint64_t>1 << self.table_bits) - 1
        started = _now()
        _start(s, after_pass, seconds, nodes)
        s.check_mask = check_every - 1
        with nogil:
            result = _deepen(s, after_pass, line, &line_length, &reached, &proven)
        if s.failed:
            raise MemoryError()
        plays = [(line[i].score, tuple((line[i].square[j], line[i].card[j], bool(play_joker(&line[i], j)))
                                       for j in range(line[i].n)))
                 for i in range(line_length)]
        return result, plays, bool(proven), s.nodes, reached, _now() - started

    @property
    def table_bytes(self):
        """Memory the transposition table takes (allocated when ``solve`` runs)."""
        return (1 << self.table_bits) * sizeof(TableEntry)
