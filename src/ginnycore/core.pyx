# cython: language_level=3
"""The compiled Ginny-O core: cross-checks, meld enumeration, generation, scoring.

A play is generated along a row or a column: an interval of empty squares is
filled, the whole line it makes must be a meld, and each placed card must be
accepted by the cross-check of its square.  Instead of permuting rack tiles,
the generator enumerates the melds the whole line can be (a run: suit, first
rank, direction; a set: rank and suits) given the tiles already in it, then
the ways the rack can supply the placed cards (a real tile or a joker).
"""

from operator import index as _whole_number

from cython.parallel cimport parallel, prange
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from openmp cimport omp_get_num_procs
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from ginnycore.board cimport board_clone, board_new
from ginnycore.types cimport (ACROSS, DOWN, EMPTY, GEN_ALL, GEN_ANY, GEN_BEST, GEN_COUNT, GEN_TOP, JOKER, KIND_NONE,
                              KIND_RUN, KIND_SET,
                              MAX_PLACED, MAX_RUN, MAX_SIDE, MAX_SQUARES, NUM_CARDS,
                              NOT_LIVE, ALONE, ALONE_FAR, LIMITS, RACK_KINDS, Anchor, Board, PlayRecord, Square,
                              play_joker)

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
    void __builtin_prefetch(const void*, ...) nogil

cdef uint64_t ALL_CARDS = (<uint64_t>1 << NUM_CARDS) - 1

cdef enum:
    BASE = MAX_PLACED           # array index of an anchor in Gen's line arrays
    FLAT_WORDS = 12             # 64-square words for MAX_SQUARES (676), and one spare
    NO_FLOOR = -0x7FFFFFFF - 1  # Gen.floor while every play may still be kept (INT_MIN)

# -- melds -------------------------------------------------------------------

cdef uint64_t ACES = 0x0000008004002001         # the ace of each suit: bits 0, 13, 26, 39
cdef unsigned short RANK_POSITION[NUM_CARDS]   # bits 1..14: a card's place in rank order (an ace at 1 and 14)


cdef int VALUE[3][13]               # by kind (none, set, run) and rank index: a real tile's value
cdef unsigned char CARD_SUIT[NUM_CARDS]     # card // 13
cdef unsigned char CARD_RANK[NUM_CARDS]     # card % 13
cdef uint64_t NEXT_UP[NUM_CARDS]     # the card one rank up in the suit (a king's: the ace), as a mask
cdef uint64_t NEXT_DOWN[NUM_CARDS]   # ... one rank down (an ace's: the king)
cdef uint64_t SAME_RANK[NUM_CARDS]   # the cards of its rank in the other suits
cdef uint64_t NEIGHBOURS[NUM_CARDS]  # the cards that may stand next to a card in a meld


cdef void _fill_rank_positions() noexcept nogil:
    cdef int card
    for card in range(NUM_CARDS):
        RANK_POSITION[card] = (1u << (card % 13 + 1)) | ((1u << 14) if card % 13 == 0 else 0u)
        CARD_SUIT[card] = card // 13
        CARD_RANK[card] = card % 13
        NEXT_UP[card] = <uint64_t>1 << (card - 12 if card % 13 == 12 else card + 1)
        NEXT_DOWN[card] = <uint64_t>1 << (card + 12 if card % 13 == 0 else card - 1)
    # next to a card in a meld: the same rank in another suit (a set), or the
    # same suit one rank away (a run; an ace is next to the 2 and to the king)
    for card in range(NUM_CARDS):
        SAME_RANK[card] = (ACES << (card % 13)) & ~(<uint64_t>1 << card)
        NEIGHBOURS[card] = SAME_RANK[card] | NEXT_UP[card] | NEXT_DOWN[card]


_fill_rank_positions()


cdef inline uint64_t _position_cards(unsigned int positions, int suit) noexcept nogil:
    """The cards of ``suit`` at the rank positions ``positions`` (bits 1..14:
    position p is rank index p - 1, and 14 the ace again)."""
    return <uint64_t>(((positions >> 1) & 0x1FFF) | ((positions >> 14) & 1)) << (13 * suit)


cdef inline int rank_position(int card) noexcept nogil:
    """Rank 1..13 of a card (ace 1)."""
    return card % 13 + 1


cdef int tile_value(int card, int kind) noexcept nogil:
    """A real card's value in a meld of ``kind``: ace 1 in a run, 15 in a set."""
    cdef int rank = card % 13 + 1
    if rank == 1:
        return 15 if kind == KIND_SET else 1
    return 10 if rank > 10 else rank


cdef int line_kind(const signed char* cards, int length) noexcept nogil:
    """KIND_SET, KIND_RUN or KIND_NONE for a whole line of cards."""
    cdef int i, suit, rank, used, step, first, position, ok, ace_high
    if length < 3:
        return KIND_NONE
    if length <= 4:
        rank = cards[0] % 13
        used = 0
        ok = 1
        for i in range(length):
            if cards[i] % 13 != rank or used & (1 << (cards[i] // 13)):
                ok = 0
                break
            used |= 1 << (cards[i] // 13)
        if ok:
            return KIND_SET
    if length > MAX_RUN:
        return KIND_NONE
    suit = cards[0] // 13
    for i in range(length):
        if cards[i] // 13 != suit:
            return KIND_NONE
    for step in range(1, -2, -2):
        for ace_high in range(2):
            first = rank_position(cards[0])
            if ace_high:
                if first != 1:
                    continue
                first = 14
            ok = 1
            for i in range(length):
                position = first + step * i
                if position < 1 or position > 14 or (position % 13) != (rank_position(cards[i]) % 13):
                    ok = 0
                    break
            if ok:
                return KIND_RUN
    return KIND_NONE


# -- board preparation: groups and cross-checks ----------------------------------

cdef inline int _neighbour(Board* board, int square, int side) noexcept nogil:
    """The square above (side 0), below (1), left (2) or right (3), or -1 off the board."""
    cdef int row = square // board.width, col = square % board.width
    if side == 0:
        return square - board.width if row > 0 else -1
    if side == 1:
        return square + board.width if row < board.height - 1 else -1
    if side == 2:
        return square - 1 if col > 0 else -1
    return square + 1 if col < board.width - 1 else -1


cdef uint64_t _hole_mask(Board* board, int first, int step, int length, int hole,
                         unsigned char* kind) noexcept nogil:
    """The cards that make the line of ``length`` squares from ``first`` a meld
    when put on its empty index ``hole``; the meld's kind goes to ``kind``."""
    cdef int i, card, rank_index, suit
    cdef unsigned int up = 0x7FFE, down = 0x7FFE, positions, ranks = 0, suits = 0
    cdef uint64_t mask = 0
    for i in range(length):
        if i == hole:
            continue
        card = board.card[first + i * step]
        ranks |= 1u << (card % 13)
        suits |= 1u << (card // 13)
        positions = RANK_POSITION[card]
        up &= positions >> i
        down &= positions << i
    if length <= 4 and __builtin_popcount(ranks) == 1 and __builtin_popcount(suits) == length - 1:
        # a set: one rank, every suit different; the hole takes a missing suit
        rank_index = __builtin_ctz(ranks)
        for suit in range(4):
            if not suits & (1u << suit):
                mask |= <uint64_t>1 << (suit * 13 + rank_index)
        kind[0] = KIND_SET
        return mask
    if __builtin_popcount(suits) != 1:
        return 0
    suit = __builtin_ctz(suits)
    # the hole's rank positions: first + hole for runs up, first - hole for runs down
    positions = (((up << hole) | (down >> hole)) & 0x7FFE)
    kind[0] = KIND_RUN
    return _position_cards(positions, suit)


cdef inline int _count_before(unsigned int word, int position) noexcept nogil:
    """How many set bits stand unbroken just below bit ``position`` of ``word``."""
    cdef unsigned int gaps = ~word & ((1u << position) - 1u)
    if gaps == 0:
        return position
    return position - 1 - (31 - __builtin_clz(gaps))


cdef inline int _count_after(unsigned int word, int position) noexcept nogil:
    """How many set bits stand unbroken just above bit ``position`` of ``word``
    (``position`` < 31, so the complement always has a bit above it)."""
    return __builtin_ctz(~(word >> (position + 1)))


cdef inline void _set_anchor(Board* board, int row, int col, int value) noexcept nogil:
    """Make a square an anchor or no anchor."""
    if value:
        board.row_anchor[row] |= 1u << col
        board.col_anchor[col] |= 1u << row
    else:
        board.row_anchor[row] &= ~(1u << col)
        board.col_anchor[col] &= ~(1u << row)


cdef inline void _line_checks(Board* board, int direction, int square, int step, unsigned int word,
                              int position) noexcept nogil:
    """The cross-check of an empty square for plays in ``direction``: ``word`` is
    the occupancy of the perpendicular line through it, ``position`` its bit."""
    cdef int count_before, count_after, length, group_before, group_after
    if not ((((word << 1) | (word >> 1)) >> position) & 1u):
        board.squares[square].cross_len[direction] = 1      # no tile next to it on that line
        return
    count_before = _count_before(word, position)
    count_after = _count_after(word, position)
    length = count_before + count_after + 1
    board.squares[square].cross_len[direction] = length
    board.squares[square].cross_kind[direction] = KIND_NONE
    board.squares[square].cross_mask[direction] = 0
    if length == 2 or length > MAX_RUN:
        return
    group_before = board.squares[square - step].group if count_before else -1
    group_after = board.squares[square + step].group if count_after else -1
    if group_before >= 0 and group_after >= 0 and group_before != group_after:
        return          # placing here would join two areas
    board.squares[square].cross_group[direction] = group_before if group_before >= 0 else group_after
    board.squares[square].cross_mask[direction] = _hole_mask(
        board, square - count_before * step, step, length, count_before,
        &board.squares[square].cross_kind[direction])


cdef inline uint64_t _fit_of(Board* board, int square, int row, int col) noexcept nogil:
    """``Anchor.fit`` of an empty square with its cross-checks done: what each
    line through it accepts when the line may grow on, that is its cross-check,
    except that a lone neighbour accepts any card that can stand beside it in a
    meld and a line the square is alone on accepts every card."""
    cdef uint64_t fit = ALL_CARDS
    cdef int width = board.width
    if board.squares[square].cross_len[ACROSS] == 2:       # the column through it
        fit &= NEIGHBOURS[board.card[square - width if row > 0 and board.card[square - width] != EMPTY
                                     else square + width]]
    elif board.squares[square].cross_len[ACROSS] > 2:
        fit &= board.squares[square].cross_mask[ACROSS]
    if board.squares[square].cross_len[DOWN] == 2:         # the row
        fit &= NEIGHBOURS[board.card[square - 1 if col > 0 and board.card[square - 1] != EMPTY
                                     else square + 1]]
    elif board.squares[square].cross_len[DOWN] > 2:
        fit &= board.squares[square].cross_mask[DOWN]
    return fit


cdef inline void _near_checks(Board* board, int square, int row, int col) noexcept nogil:
    """An empty square next to a tile: an anchor, with both cross-checks (an
    ACROSS play meets the column through it, a DOWN play the row)."""
    _set_anchor(board, row, col, 1)
    _line_checks(board, ACROSS, square, board.width, board.col_occ[col], row)
    _line_checks(board, DOWN, square, 1, board.row_occ[row], col)


cdef void _square_checks(Board* board, int row, int col) noexcept nogil:
    """The anchor flag and both cross-checks of any square, from the bitboards."""
    cdef int square = row * board.width + col
    cdef unsigned int column_word = board.col_occ[col], row_word = board.row_occ[row]
    board.squares[square].cross_len[0] = 1
    board.squares[square].cross_len[1] = 1
    if board.card[square] != EMPTY:
        _set_anchor(board, row, col, 0)
    elif not ((((column_word << 1) | (column_word >> 1)) >> row) & 1u
              or (((row_word << 1) | (row_word >> 1)) >> col) & 1u):
        # no tile next to it: the common case, nothing to check across it
        _set_anchor(board, row, col, board.squares[square].red or (board.n_tiles == 0 and square == board.centre))
    else:
        _near_checks(board, square, row, col)


cdef inline int _root(short* parent, int square) noexcept nogil:
    while parent[square] != square:
        parent[square] = parent[parent[square]]
        square = parent[square]
    return square


cdef inline void _union(short* parent, int a, int b) noexcept nogil:
    a = _root(parent, a)
    b = _root(parent, b)
    if a != b:
        parent[a if a > b else b] = b if a > b else a      # the smaller square is the root


cdef int LITTLE_ENDIAN
cdef unsigned short _probe = 1
LITTLE_ENDIAN = (<unsigned char*>&_probe)[0] == 1
cdef uint64_t LOW7 = 0x7F7F7F7F7F7F7F7F         # per byte
cdef uint64_t HIGH1 = 0x8080808080808080
cdef uint64_t GATHER = 0x0102040810204080       # moves bit 8 j to bit 56 + j


cdef inline unsigned int _nonzero_bytes(uint64_t word) noexcept nogil:
    """Bit j: byte j of ``word``, read from memory on a little-endian machine, is
    not 0.  A byte's low seven bits plus 0x7F carry into its high bit unless all
    are 0; one multiplication gathers the eight high bits."""
    word = (((word & LOW7) + LOW7) | word) & HIGH1
    return <unsigned int>(((word >> 7) * GATHER) >> 56)


cdef inline void _occupied_squares(Board* board, uint64_t* flat) noexcept nogil:
    """Bit s of ``flat`` (64 squares a word): square s holds a tile.  Eight
    squares at a time: the bytes that are not EMPTY (0xFF)."""
    cdef int i, size = board.size
    cdef uint64_t word
    memset(flat, 0, FLAT_WORDS * sizeof(uint64_t))
    i = 0
    if LITTLE_ENDIAN:
        while i + 8 <= size:
            memcpy(&word, &board.card[i], 8)
            flat[i >> 6] |= <uint64_t>_nonzero_bytes(~word) << (i & 63)
            i += 8
    while i < size:
        if board.card[i] != EMPTY:
            flat[i >> 6] |= <uint64_t>1 << (i & 63)
        i += 1


cdef inline void _anchor_line(Board* board, Anchor* entry, int direction, int square, unsigned int word,
                              unsigned int anchors, int position, int step) noexcept nogil:
    """``entry.limit`` and ``entry.free`` for plays along ``direction``: ``word``
    and ``anchors`` are the occupancy and the anchors of that line, ``position``
    the anchor's bit in it.  Two or more tiles next to it on the line limit
    nothing here (ALONE + 0)."""
    cdef int along = board.squares[square].cross_len[1 - direction]
    cdef unsigned int rest
    cdef int gap
    entry.free[direction] = _count_before(~(word | anchors), position)
    if along == 1:
        rest = word >> (position + 1)
        gap = __builtin_ctz(rest) + 1 if rest else ALONE_FAR - ALONE
        entry.limit[direction] = ALONE + min(gap, ALONE_FAR - ALONE)
    elif along == 2:
        entry.limit[direction] = board.card[
            square - step if position > 0 and (word >> (position - 1)) & 1u else square + step]
        board.lone_neighbours |= <uint64_t>1 << entry.limit[direction]
    else:
        entry.limit[direction] = ALONE


cdef inline void _add_anchor(Board* board, int square, int row, int col, uint64_t fit) noexcept nogil:
    """Append an anchor to ``board.anchors`` if it is live in some direction:
    some card fits it (``fit``) and its crossing line would not be two cards
    long (a play there is found in the other direction).  What the generator
    asks of an anchor for every rack is found here once: the cards that fit
    it, and on the line of a play in each direction, the card of a lone
    neighbour or, with none, how far the next tile is, and how many empty
    squares before it a play may start on.  The anchors before it on both its
    lines must be marked already (it is listed in square order)."""
    cdef bint across = fit != 0 and board.squares[square].cross_len[ACROSS] != 2
    cdef bint down = fit != 0 and board.squares[square].cross_len[DOWN] != 2
    cdef Anchor* entry
    if not (across or down):
        return
    entry = &board.anchors[board.n_anchors]
    board.n_anchors += 1
    entry.fit = fit
    entry.row = row
    entry.col = col
    if across:
        _anchor_line(board, entry, ACROSS, square, board.row_occ[row], board.row_anchor[row], col, 1)
    else:
        entry.limit[ACROSS] = NOT_LIVE
        entry.free[ACROSS] = 0
    if down:
        _anchor_line(board, entry, DOWN, square, board.col_occ[col], board.col_anchor[col], row, board.width)
    else:
        entry.limit[DOWN] = NOT_LIVE
        entry.free[DOWN] = 0


cdef void _list_anchors(Board* board) noexcept nogil:
    """Rebuild ``board.anchors`` from the anchor bitboards, in square order."""
    cdef int row, col, square
    cdef unsigned int bits
    board.n_anchors = 0
    board.lone_neighbours = 0
    for row in range(board.height):
        bits = board.row_anchor[row]
        while bits:
            col = __builtin_ctz(bits)
            bits &= bits - 1u
            square = row * board.width + col
            _add_anchor(board, square, row, col, _fit_of(board, square, row, col))


cdef void board_prepare(Board* board) noexcept nogil:
    """Recompute bitboards, tile count, groups and every cross-check from the
    board's cards.  Only empty squares next to a tile need a cross-check; the
    rest get the defaults (alone in both directions, an anchor when red)."""
    cdef int width = board.width, height = board.height, size = board.size
    cdef int square, row, col, root, i
    cdef unsigned int occupied, near, bits, full = (1u << width) - 1u
    cdef short parent[MAX_SQUARES]
    cdef uint64_t flat[FLAT_WORDS]
    board.n_tiles = 0
    board.n_groups = 0
    board.rack_size = 0
    for i in range(RACK_KINDS):
        board.rack_size += board.rack[i]
    memset(board.col_occ, 0, sizeof(board.col_occ))
    _occupied_squares(board, flat)
    for row in range(height):
        i = row * width
        occupied = <unsigned int>(flat[i >> 6] >> (i & 63))
        if (i & 63) + width > 64:
            occupied |= <unsigned int>(flat[(i >> 6) + 1] << (64 - (i & 63)))
        occupied &= full
        board.row_occ[row] = occupied
        board.n_tiles += __builtin_popcount(occupied)
        while occupied:
            col = __builtin_ctz(occupied)
            occupied &= occupied - 1u
            board.col_occ[col] |= 1u << row
    for square in range(size):
        board.squares[square].group = -1
        board.squares[square].cross_len[0] = 1
        board.squares[square].cross_len[1] = 1
    memset(board.row_anchor, 0, sizeof(board.row_anchor))
    memset(board.col_anchor, 0, sizeof(board.col_anchor))
    board.n_anchors = 0
    board.lone_neighbours = 0
    # groups by union-find over the left and upper neighbours; a group's root is
    # its smallest square, so it comes first in square order
    for row in range(height):
        bits = board.row_occ[row]
        while bits:
            col = __builtin_ctz(bits)
            bits &= bits - 1u
            square = row * width + col
            parent[square] = square
            if col > 0 and board.row_occ[row] & (1u << (col - 1)):
                _union(parent, square, square - 1)
            if row > 0 and board.row_occ[row - 1] & (1u << col):
                _union(parent, square, square - width)
    for row in range(height):
        bits = board.row_occ[row]
        while bits:
            col = __builtin_ctz(bits)
            bits &= bits - 1u
            square = row * width + col
            root = _root(parent, square)
            if root == square:
                board.squares[square].group = board.n_groups
                board.n_groups += 1
            else:
                board.squares[square].group = board.squares[root].group
    if board.n_tiles == 0 and board.centre >= 0:
        _set_anchor(board, board.centre // width, board.centre % width, 1)
    for row in range(height):
        occupied = board.row_occ[row]
        near = (occupied << 1) | (occupied >> 1)
        if row > 0:
            near |= board.row_occ[row - 1]
        if row < height - 1:
            near |= board.row_occ[row + 1]
        near &= ~occupied & full
        # the squares next to a tile, and away from every tile the red squares
        # (they may start an area) and the centre of an empty board, in square
        # order for the list of anchors
        bits = near | ((board.row_red[row] | board.row_anchor[row]) & ~occupied)
        while bits:
            col = __builtin_ctz(bits)
            bits &= bits - 1u
            square = row * width + col
            if (near >> col) & 1u:
                _near_checks(board, square, row, col)
                _add_anchor(board, square, row, col, _fit_of(board, square, row, col))
            else:
                _set_anchor(board, row, col, 1)
                _add_anchor(board, square, row, col, ALL_CARDS)


cdef void board_place(Board* board, int n, const short* squares, const signed char* cards,
                      const unsigned char* jokers, int remove) noexcept nogil:
    """Put a legal play's tiles on the board (or, with ``remove``, take them off
    again) and bring bitboards, groups, anchors and cross-checks up to date
    along the rows and columns of those tiles only.  The rack is the caller's."""
    cdef int i, j, square, row, col, group = -1, width = board.width
    cdef int lines[2 * MAX_PLACED]
    cdef int directions[2 * MAX_PLACED]
    cdef int n_lines = 0, seen, length, step, start, line, k
    if remove:
        for i in range(n):
            square = squares[i]
            board.card[square] = EMPTY
            board.joker[square] = 0
            board.squares[square].group = -1
            board.row_occ[square // width] &= ~(1u << (square % width))
            board.col_occ[square % width] &= ~(1u << (square // width))
        board.n_tiles -= n
    else:
        # the area the play joins, or a new one (a legal play touches at most one)
        for i in range(n):
            for j in range(4):
                square = _neighbour(board, squares[i], j)
                if square >= 0 and board.card[square] != EMPTY:
                    group = board.squares[square].group
            if group >= 0:
                break
        if group < 0:
            group = board.n_groups
            board.n_groups += 1
        for i in range(n):
            square = squares[i]
            board.card[square] = cards[i]
            board.joker[square] = jokers[i]
            board.squares[square].group = group
            board.row_occ[square // width] |= 1u << (square % width)
            board.col_occ[square % width] |= 1u << (square // width)
        board.n_tiles += n
    for i in range(n):
        for j in range(2):
            # the column (ACROSS cross-checks) and the row (DOWN) of each tile
            line = squares[i] % width if j == ACROSS else squares[i] // width
            seen = 0
            for k in range(n_lines):
                if lines[k] == line and directions[k] == j:
                    seen = 1
            if not seen:
                lines[n_lines] = line
                directions[n_lines] = j
                n_lines += 1
    for i in range(n_lines):
        if directions[i] == ACROSS:
            length, step, start = board.height, width, lines[i]
        else:
            length, step, start = width, 1, lines[i] * width
        for j in range(length):
            if directions[i] == ACROSS:
                _square_checks(board, j, lines[i])
            else:
                _square_checks(board, lines[i], j)
    if board.n_tiles == 0 or (not remove and board.n_tiles == n):
        # the centre is an anchor only on an empty board
        _square_checks(board, board.centre // width, board.centre % width)
    _list_anchors(board)


# -- generation -------------------------------------------------------------------

ctypedef struct Feasible:
    # What the line from its first square up to the current one can still be.
    # Runs are kept as 16-bit lanes, one a suit (suit s in bits 16 s .. 16 s + 15).
    uint64_t up                 # per suit: first positions (bits 1..14) of a run read upwards
    uint64_t down               # ... of a run read downwards
    unsigned int set_ranks      # ranks (bits 0..12) every index can take in a set
    unsigned int fixed_suits    # the suits of the board's tiles among the indexes (with two
                                # of one suit, set_ranks is 0)
    int length
    int set_bound               # upper bounds of the placed tiles' values x tile multiplier
    int run_bound
    int cross_bound             # ... and of the crossing melds they make


ctypedef struct Top:
    # GEN_TOP: the first ``limit`` plays in ranking order ranked after ``after``
    # (all plays without has_after), kept in a heap of records whose root heap[0]
    # ranks last; the array grows by doubling up to ``limit``.
    PlayRecord* heap
    size_t size
    size_t capacity
    size_t limit
    PlayRecord after
    int has_after


ctypedef struct Gen:
    Board* board
    int mode
    PlayRecord* best
    int have_best
    PlayRecord** plays
    size_t* capacity
    long long count
    int direction
    int length
    int origin                      # where the line starts in the arrays below
    # The arrays below are indexed from BASE - (squares left of the anchor):
    # the anchor sits at BASE, so the walk to its right is shared by every
    # start to its left.
    short line_square[BASE + MAX_SIDE]
    int k
    int* placed_index               # into placed_all: m squares left of the anchor, then those from it on
    int placed_all[2 * MAX_PLACED]  # [MAX_PLACED - j] = BASE - j, the j-th free square left of the anchor
    int main_mult
    signed char card[MAX_PLACED]
    short placed_square[MAX_PLACED]     # per placed index: its square
    int real_main[MAX_PLACED]
    int real_cross[MAX_PLACED]
    int placed_tile_mult[MAX_PLACED]    # per placed index: its square's tile multiplier,
    int placed_cross_mult[MAX_PLACED]   # ... tile x meld multiplier when it makes a crossing meld (else 0)
    int placed_cross_kind[MAX_PLACED]   # ... and that meld's kind (KIND_NONE when none)
    int set_main                    # a set candidate's scores with every card real
    int set_cross
    uint64_t available              # cards the rack can supply (all 52 with a joker)
    uint64_t rack_cards             # cards the rack holds as real tiles
    int jokers                      # jokers on the rack
    Feasible free_left[MAX_PLACED + 1]  # what m squares left of an anchor that touch nothing allow
    uint64_t free_lanes             # the rank positions of ``available`` in suit lanes
    uint64_t lacking_lanes          # ... of the cards the rack holds no real tile of
    unsigned int free_ranks         # the ranks of ``available``
    unsigned int set_ranks_for[MAX_PLACED + 1]  # ranks whose real tiles and jokers can fill k squares of a set
    uint64_t run_lanes_for[MAX_PLACED + 1]      # the lanes of the suits whose ... of a run
    uint64_t meld_cards             # see _meld_cards
    uint64_t pair_up                # see _pair_tables
    uint64_t pair_down
    uint64_t limit_of[LIMITS]       # by Anchor.limit: the _pair_cards of the board's lone
                                    # neighbours (unset for those with no meld neighbour on the
                                    # rack: their anchors' fit takes none of its cards); with
                                    # none, all cards when the next tile is in the rack's reach,
                                    # else meld_cards; none when not live
    uint64_t allowed[BASE + MAX_SIDE]   # per empty square of the line: the cards that may go there
    int set_done                    # best mode: a set's all-real supply was found, so its rank's
                                    # other suits cannot rank higher
    int done                        # generation stops: a play was found (any mode), or ...
    int failed                      # ... the plays did not fit in memory (all mode)
    int floor                       # best and top modes: a play scoring less cannot be kept
                                    # (NO_FLOOR until one can be passed over)
    Top* top                        # top mode: the plays kept
    int bounded                     # best and top modes: walks add up bounds of the scores


cdef inline int _rank_order(int score, int jokers, int n, const short* square, unsigned int joker_at,
                            const signed char* card, const PlayRecord* other) noexcept nogil:
    """The ranking of plays, defined once: -1 when the play of the fields (a
    joker on placed index i when bit i of ``joker_at`` is set) comes before
    ``other``, 1 when after, 0 when it is the same play.  First the higher
    score, then fewer jokers, more tiles, then the placements (square, joker?,
    card) in order: ScoredPlay.sort_key in python/ginnyo/play.py."""
    cdef int i, joker, other_joker
    if score != other.score:
        return -1 if score > other.score else 1
    if jokers != other.jokers:
        return -1 if jokers < other.jokers else 1
    if n != other.n:
        return -1 if n > other.n else 1
    for i in range(n):
        if square[i] != other.square[i]:
            return -1 if square[i] < other.square[i] else 1
        joker = (joker_at >> i) & 1u
        other_joker = play_joker(other, i)
        if joker != other_joker:
            return -1 if joker < other_joker else 1
        if card[i] != other.card[i]:
            return -1 if card[i] < other.card[i] else 1
    return 0


cdef inline int _better(Gen* gen, unsigned int joker_at, int score, int jokers, const PlayRecord* best) noexcept nogil:
    """Is the play in ``gen`` ahead of ``best`` in the ranking?"""
    return _rank_order(score, jokers, gen.k, gen.placed_square, joker_at, gen.card, best) < 0


cdef inline int _ranks_after(const PlayRecord* play, const PlayRecord* other) noexcept nogil:
    """Does the stored ``play`` come after ``other`` in the ranking?"""
    return _rank_order(play.score, play.jokers, play.n, play.square, play.joker_at, play.card, other) > 0


cdef inline void _record(Gen* gen, PlayRecord* record, unsigned int joker_at, int score, int jokers) noexcept nogil:
    """Write the play to ``record``: whole fixed-size arrays, which compile to a
    few moves with no loop over the placed tiles (entries past ``n`` are unused)."""
    record.score = score
    record.n = gen.k
    record.jokers = jokers
    record.joker_at = joker_at
    memcpy(record.square, gen.placed_square, sizeof(record.square))
    memcpy(record.card, gen.card, sizeof(record.card))


cdef int _grow_plays(Gen* gen) noexcept nogil:
    """Double the capacity of the plays array (GEN_ALL); 0 when out of memory,
    which also stops generation."""
    cdef size_t new_capacity = gen.capacity[0] * 2 if gen.capacity[0] else 1024
    cdef PlayRecord* grown = <PlayRecord*>realloc(gen.plays[0], new_capacity * sizeof(PlayRecord))
    if grown == NULL:
        gen.failed = 1
        gen.done = 1
        return 0
    gen.plays[0] = grown
    gen.capacity[0] = new_capacity
    return 1


cdef void _heap_up(PlayRecord* heap, size_t i) noexcept nogil:
    """Move heap[i] towards the root while it ranks after its parent."""
    cdef PlayRecord moving = heap[i]
    cdef size_t parent
    while i > 0:
        parent = (i - 1) >> 1
        if not _ranks_after(&moving, &heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = moving


cdef void _heap_down(PlayRecord* heap, size_t size, size_t i) noexcept nogil:
    """Move heap[i] away from the root while a child ranks after it."""
    cdef PlayRecord moving = heap[i]
    cdef size_t child
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _ranks_after(&heap[child + 1], &heap[child]):
            child += 1
        if not _ranks_after(&heap[child], &moving):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = moving


cdef void _heap_sort(Top* top) noexcept nogil:
    """Turn the heap into the kept plays in ranking order, first first."""
    cdef size_t end = top.size
    cdef PlayRecord last
    while end > 1:
        end -= 1
        last = top.heap[0]
        top.heap[0] = top.heap[end]
        top.heap[end] = last
        _heap_down(top.heap, end, 0)


cdef int _grow_top(Gen* gen) noexcept nogil:
    """Double the heap's array, to at most its limit; 0 when out of memory,
    which also stops generation."""
    cdef Top* top = gen.top
    cdef size_t new_capacity = top.capacity * 2 if top.capacity else 1024
    cdef PlayRecord* grown
    if new_capacity > top.limit:
        new_capacity = top.limit
    grown = <PlayRecord*>realloc(top.heap, new_capacity * sizeof(PlayRecord))
    if grown == NULL:
        gen.failed = 1
        gen.done = 1
        return 0
    top.heap = grown
    top.capacity = new_capacity
    return 1


cdef void _keep_top(Gen* gen, unsigned int joker_at, int score, int jokers) noexcept nogil:
    """GEN_TOP: keep the play in ``gen`` when it ranks after ``top.after`` and
    among the first ``top.limit``; once the heap is full its root's score is
    the floor, below which generation prunes."""
    cdef Top* top = gen.top
    if score < gen.floor:
        return
    if top.has_after and _rank_order(score, jokers, gen.k, gen.placed_square, joker_at, gen.card,
                                      &top.after) <= 0:
        return
    if top.size < top.limit:
        if top.size == top.capacity and not _grow_top(gen):
            return
        _record(gen, &top.heap[top.size], joker_at, score, jokers)
        _heap_up(top.heap, top.size)
        top.size += 1
        if top.size == top.limit:
            gen.floor = top.heap[0].score
    elif _better(gen, joker_at, score, jokers, &top.heap[0]):
        _record(gen, &top.heap[0], joker_at, score, jokers)
        _heap_down(top.heap, top.size, 0)
        gen.floor = top.heap[0].score


cdef inline void _emit(Gen* gen, unsigned int joker_at, int score, int jokers) noexcept nogil:
    """A play found: the placed cards ``gen.card``, a joker on placed index i
    when bit i of ``joker_at`` is set, scoring ``score``."""
    if gen.mode == GEN_ALL:
        if <size_t>gen.count >= gen.capacity[0] and not _grow_plays(gen):
            return
        _record(gen, &gen.plays[0][gen.count], joker_at, score, jokers)
    elif gen.mode == GEN_BEST:
        if not gen.have_best or _better(gen, joker_at, score, jokers, gen.best):
            _record(gen, gen.best, joker_at, score, jokers)
            gen.have_best = 1
            gen.floor = score
    elif gen.mode >= GEN_ANY:      # one test on the way to counting, as with no GEN_TOP
        if gen.mode == GEN_ANY:
            gen.done = 1
        else:
            _keep_top(gen, joker_at, score, jokers)
    gen.count += 1


cdef void _more_jokers(Gen* gen, unsigned int joker_at, unsigned int spare, int main_sum, int cross_sum,
                       int jokers, int budget) noexcept nogil:
    """Every supply that also puts a joker on 1 .. ``budget`` more of the placed
    indexes in ``spare`` (each set of them once, in increasing index order)."""
    cdef int i
    while spare and not gen.done:
        i = __builtin_ctz(spare)
        spare &= spare - 1u
        _emit(gen, joker_at | (1u << i),
              (main_sum - gen.real_main[i]) * gen.main_mult + cross_sum - gen.real_cross[i], jokers + 1)
        if budget > 1:
            _more_jokers(gen, joker_at | (1u << i), spare, main_sum - gen.real_main[i],
                         cross_sum - gen.real_cross[i], jokers + 1, budget - 1)


cdef void _supply_repeated(Gen* gen, unsigned int joker_at, int from_index, int main_sum, int cross_sum,
                           int jokers) noexcept nogil:
    """``_supply_from`` for a line that holds one card twice (a run of 14 has its
    suit's ace at both ends): try every joker placement and check the counts."""
    cdef int i, j, uses
    if gen.done:
        return
    for i in range(gen.k):
        if not (joker_at >> i) & 1u:
            uses = 0
            for j in range(gen.k):
                if gen.card[j] == gen.card[i] and not (joker_at >> j) & 1u:
                    uses += 1
            if uses > gen.board.rack[gen.card[i]]:
                break
    else:
        _emit(gen, joker_at, main_sum * gen.main_mult + cross_sum, jokers)
    if jokers == gen.jokers:
        return
    for i in range(from_index, gen.k):
        _supply_repeated(gen, joker_at | (1u << i), i + 1, main_sum - gen.real_main[i],
                         cross_sum - gen.real_cross[i], jokers + 1)


cdef inline void _supply_from(Gen* gen, unsigned int needed, int main_sum, int cross_sum) noexcept nogil:
    """Every way the rack supplies the placed cards ``gen.card`` when it holds a
    real tile of each but those of the placed indexes in ``needed``: each is a
    real tile or a joker, and those in ``needed`` are jokers.  ``main_sum`` and
    ``cross_sum`` score them all real; a joker scores nothing.  Best mode takes
    only the supply with the fewest jokers, which outranks every other supply
    of these cards.  ``needed`` never holds more indexes than the rack has
    jokers: _enumerate_line tries only such runs and set suit tuples."""
    cdef int i, missing = __builtin_popcount(needed)
    cdef unsigned int bits = needed
    while bits:
        i = __builtin_ctz(bits)
        bits &= bits - 1u
        main_sum -= gen.real_main[i]
        cross_sum -= gen.real_cross[i]
    _emit(gen, needed, main_sum * gen.main_mult + cross_sum, missing)
    if gen.mode == GEN_BEST:
        if missing == 0:
            gen.set_done = 1    # a set of this rank in other suits cannot rank higher
        return
    if missing < gen.jokers:
        _more_jokers(gen, needed, ~needed & ((1u << gen.k) - 1u), main_sum, cross_sum, missing,
                     gen.jokers - missing)


cdef inline void _placed_values(Gen* gen, int i, int suit, int rank_index, int kind) noexcept nogil:
    """Score placed index i as the card of ``suit`` and ``rank_index`` in a main line of ``kind``."""
    gen.card[i] = suit * 13 + rank_index
    gen.real_main[i] = VALUE[kind][rank_index] * gen.placed_tile_mult[i]
    gen.real_cross[i] = VALUE[gen.placed_cross_kind[i]][rank_index] * gen.placed_cross_mult[i]


cdef uint64_t GATHER_SUITS = 0x0000008008008008  # moves bit 13 s to bit 39 + s (no product overlaps)


cdef inline int _suits_of_rank(uint64_t mask, int rank_index) noexcept nogil:
    """4-bit mask of the suits whose card of ``rank_index`` is in ``mask``."""
    return <int>(((((mask >> rank_index) & ACES) * GATHER_SUITS) >> 39) & 0xF)


cdef inline unsigned int _rank_positions(uint64_t mask, int suit) noexcept nogil:
    """Bits 1..14: the positions in rank order of the cards of ``suit`` in ``mask``
    (an ace sits at 1 and at 14)."""
    cdef unsigned int ranks = <unsigned int>((mask >> (13 * suit)) & 0x1FFF)
    return (ranks << 1) | ((ranks & 1) << 14)


# A set's suits, placed index by placed index: the ordered tuples of k distinct
# suits (k <= 4), numbered in lexicographic order, as bit masks of tuple numbers
cdef unsigned int SET_TUPLES_WITH[5][4][16]    # by k, placed index, suits: the tuples giving
                                               # that index one of those suits
cdef unsigned int SET_TUPLES_HELD[5][16][5]    # by k, suits held, jokers (at most 4): the
                                               # tuples the rack can supply
cdef unsigned char SET_TUPLE_LACKS[5][24][16]  # by k, tuple, suits held: the placed indexes
                                               # whose suit is not held (each needs a joker)
cdef unsigned char SET_TUPLE_CARDS[5][24][4]   # by k, tuple: 13 x its suits


cdef void _fill_set_tuples() noexcept nogil:
    cdef int k, t, i, held, jokers, code, used, lacks
    cdef int suits[4]
    for k in range(1, 5):
        t = 0
        for code in range(256):         # 4 suits of 2 bits, in lexicographic order
            used = 0
            for i in range(k):
                suits[i] = (code >> (2 * (3 - i))) & 3
                if used & (1 << suits[i]):
                    used = -1
                    break
                used |= 1 << suits[i]
            if used < 0 or code & ((1 << (2 * (4 - k))) - 1):
                continue
            for i in range(4):
                SET_TUPLE_CARDS[k][t][i] = 13 * suits[i] if i < k else 0
            for held in range(16):
                for i in range(k):
                    if held & (1 << suits[i]):
                        SET_TUPLES_WITH[k][i][held] |= 1u << t
                lacks = 0
                for i in range(k):
                    if not held & (1 << suits[i]):
                        lacks |= 1 << i
                SET_TUPLE_LACKS[k][t][held] = lacks
                for jokers in range(5):
                    if __builtin_popcount(lacks) <= jokers:
                        SET_TUPLES_HELD[k][held][jokers] |= 1u << t
            t += 1


_fill_set_tuples()


cdef inline void _set_supplies(Gen* gen, unsigned int tuples, int rank_index, int held) noexcept nogil:
    """Supply the set of ``rank_index`` in each suit tuple of ``tuples`` (for
    gen.k placed tiles), in order, with ``held`` the suits of that rank the rack
    holds real tiles of.  A set's scores (``gen.set_main``, ``gen.set_cross``)
    do not depend on its suits.  The first four cards are written whole (bytes
    past gen.k are unused)."""
    cdef int t
    cdef unsigned int cards
    while tuples and not (gen.set_done or gen.done):
        t = __builtin_ctz(tuples)
        tuples &= tuples - 1u
        memcpy(&cards, SET_TUPLE_CARDS[gen.k][t], 4)
        cards += <unsigned int>rank_index * 0x01010101u      # no byte carries: 39 + 12 < 256
        memcpy(gen.card, &cards, 4)
        _supply_from(gen, SET_TUPLE_LACKS[gen.k][t][held], gen.set_main, gen.set_cross)


cdef unsigned char SET_MAX[8192]    # by 13-bit rank mask: the highest set value among them
cdef unsigned char RUN_MAX[8192]    # ... the highest run value


cdef void _fill_value_tables() noexcept nogil:
    cdef int ranks, rank_index, set_best, run_best, value
    for rank_index in range(13):
        VALUE[KIND_NONE][rank_index] = 0
        VALUE[KIND_SET][rank_index] = tile_value(rank_index, KIND_SET)
        VALUE[KIND_RUN][rank_index] = tile_value(rank_index, KIND_RUN)
    for ranks in range(8192):
        set_best = 0
        run_best = 0
        for rank_index in range(13):
            if ranks & (1 << rank_index):
                value = tile_value(rank_index, KIND_SET)
                if value > set_best:
                    set_best = value
                value = tile_value(rank_index, KIND_RUN)
                if value > run_best:
                    run_best = value
        SET_MAX[ranks] = set_best
        RUN_MAX[ranks] = run_best


_fill_value_tables()


cdef inline unsigned int _ranks_of(uint64_t mask) noexcept nogil:
    return <unsigned int>((mask | (mask >> 13) | (mask >> 26) | (mask >> 39)) & 0x1FFF)


cdef uint64_t LANE_LOW[32]     # by shift d: bits 0 .. 15 - d of every 16-bit lane
cdef uint64_t LANE_HIGH[32]    # ... bits d .. 15 of every lane
cdef uint64_t ALL_LANES = 0x7FFE7FFE7FFE7FFE     # every rank position of every suit
cdef uint64_t LANE_BIT0 = 0x0001000100010001     # bit 0 of every lane


cdef void _fill_lane_masks() noexcept nogil:
    cdef int shift, suit
    for shift in range(32):
        LANE_LOW[shift] = 0
        LANE_HIGH[shift] = 0
        for suit in range(4):
            if shift < 16:
                LANE_LOW[shift] |= <uint64_t>(0xFFFF >> shift) << (16 * suit)
                LANE_HIGH[shift] |= <uint64_t>((0xFFFF << shift) & 0xFFFF) << (16 * suit)


_fill_lane_masks()


cdef inline uint64_t _lanes_down(uint64_t lanes, int shift) noexcept nogil:
    """Every lane shifted towards bit 0 by ``shift``; nothing crosses into the next lane."""
    return (lanes >> shift) & LANE_LOW[shift]


cdef inline uint64_t _lanes_up(uint64_t lanes, int shift) noexcept nogil:
    """Every lane shifted away from bit 0 by ``shift``; nothing crosses into the next lane."""
    return (lanes << shift) & LANE_HIGH[shift]


cdef inline uint64_t _card_lanes(uint64_t cards) noexcept nogil:
    """The rank positions of a card mask, 16 bits a suit (an ace at 1 and 14)."""
    cdef uint64_t ranks = ((cards & 0x1FFF) | ((cards & (<uint64_t>0x1FFF << 13)) << 3)
                           | ((cards & (<uint64_t>0x1FFF << 26)) << 6) | ((cards & (<uint64_t>0x1FFF << 39)) << 9))
    return (ranks << 1) | ((ranks & LANE_BIT0) << 14)


cdef inline void _feasible_start(Feasible* feasible) noexcept nogil:
    feasible.up = ALL_LANES
    feasible.down = ALL_LANES
    feasible.set_ranks = 0x1FFF
    feasible.fixed_suits = 0
    feasible.length = 0
    feasible.set_bound = 0
    feasible.run_bound = 0
    feasible.cross_bound = 0


cdef inline void _feasible_add_lanes(Feasible* feasible, uint64_t lanes, unsigned int ranks) noexcept nogil:
    """Append an index whose cards are given as rank positions in suit lanes and ranks."""
    cdef int i = feasible.length
    feasible.up &= _lanes_down(lanes, i)
    feasible.down &= _lanes_up(lanes, i)
    feasible.set_ranks &= ranks
    feasible.length = i + 1


cdef inline void _feasible_add(Feasible* feasible, uint64_t allowed) noexcept nogil:
    """Append an index whose square may hold the cards in ``allowed``."""
    _feasible_add_lanes(feasible, _card_lanes(allowed), _ranks_of(allowed))


cdef inline void _feasible_fixed_suit(Feasible* feasible, int card) noexcept nogil:
    """Note the suit of a board tile ``card``: a set cannot hold two of one suit."""
    cdef unsigned int suit = 1u << CARD_SUIT[card]
    feasible.set_ranks &= -<unsigned int>((feasible.fixed_suits & suit) == 0)
    feasible.fixed_suits |= suit


cdef inline void _feasible_add_card(Feasible* feasible, int card) noexcept nogil:
    """Append an index holding ``card`` (a tile already on the board): only runs
    of its suit stay possible."""
    _feasible_add_lanes(feasible, <uint64_t>RANK_POSITION[card] << (16 * CARD_SUIT[card]), 1u << CARD_RANK[card])
    _feasible_fixed_suit(feasible, card)


cdef inline void _feasible_add_left(Feasible* feasible, int distance, uint64_t lanes,
                                    unsigned int ranks) noexcept nogil:
    """Add a square ``distance`` squares left of the anchor (index 0): the masks
    hold the anchor's rank position, so a run up needs the anchor ``distance``
    higher than this square's card, a run down ``distance`` lower.  ``length``
    keeps counting the squares from the anchor on."""
    feasible.up &= _lanes_up(lanes, distance)
    feasible.down &= _lanes_down(lanes, distance)
    feasible.set_ranks &= ranks


cdef inline void _feasible_add_left_card(Feasible* feasible, int distance, int card) noexcept nogil:
    """``_feasible_add_left`` for a square holding ``card`` (a tile on the board)."""
    _feasible_add_left(feasible, distance, <uint64_t>RANK_POSITION[card] << (16 * CARD_SUIT[card]),
                       1u << CARD_RANK[card])
    _feasible_fixed_suit(feasible, card)


cdef inline int _feasible_runs(Feasible* feasible) noexcept nogil:
    return (feasible.up | feasible.down) != 0


cdef inline int _feasible_any(Feasible* feasible) noexcept nogil:
    return _feasible_runs(feasible) or (feasible.length <= 4 and feasible.set_ranks != 0)


cdef void _run_candidate(Gen* gen, int suit, int first, int sign) noexcept nogil:
    """The line as a run of ``suit`` whose first square holds rank position
    ``first``, read upwards (``sign`` 1) or downwards (-1): score and supply it.
    The placed indexes whose card the rack holds no real tile of are read off
    gen.lacking_lanes, without a branch."""
    cdef int i, position, main_sum = 0, cross_sum = 0
    cdef unsigned int needed = 0
    cdef uint64_t lacking = gen.lacking_lanes >> (16 * suit)
    for i in range(gen.k):
        position = first + sign * (gen.placed_index[i] - gen.origin)
        _placed_values(gen, i, suit, 0 if position == 14 else position - 1, KIND_RUN)
        needed |= <unsigned int>((lacking >> position) & 1) << i
        main_sum += gen.real_main[i]
        cross_sum += gen.real_cross[i]
    if gen.floor != NO_FLOOR and main_sum * gen.main_mult + cross_sum < gen.floor:
        return
    if gen.length == MAX_RUN:       # the suit's ace at both ends
        _supply_repeated(gen, 0, 0, main_sum, cross_sum, 0)
        return
    _supply_from(gen, needed, main_sum, cross_sum)


cdef void _enumerate_line(Gen* gen, Feasible* feasible) noexcept nogil:
    """Every meld the whole line can be: sets by rank and suits, runs by suit,
    first position and direction, as ``feasible`` (indexed from the line's first
    square) narrowed them.  A run is skipped when it needs more cards the rack
    lacks than it has jokers."""
    cdef Board* board = gen.board
    cdef int length = gen.length, origin = gen.origin, i, rank_index, offset, square, bit, held
    cdef unsigned int placed_up = 0, placed_down = 0, ranks, fixed_suits, tuples
    cdef uint64_t lanes
    for i in range(gen.k):
        offset = gen.placed_index[i] - origin
        placed_up |= 1u << offset
        placed_down |= 1u << (length - 1 - offset)
        square = gen.line_square[gen.placed_index[i]]
        gen.placed_square[i] = square
        gen.placed_tile_mult[i] = board.squares[square].tile_mult
        if board.squares[square].cross_len[gen.direction] >= 3:
            gen.placed_cross_kind[i] = board.squares[square].cross_kind[gen.direction]
            gen.placed_cross_mult[i] = board.squares[square].tile_mult * board.squares[square].meld_mult
        else:
            gen.placed_cross_kind[i] = KIND_NONE
            gen.placed_cross_mult[i] = 0
    if length <= 4:
        fixed_suits = feasible.fixed_suits
        ranks = feasible.set_ranks
        while ranks and not gen.done:
            rank_index = __builtin_ctz(ranks)
            ranks &= ranks - 1u
            gen.set_main = 0
            gen.set_cross = 0
            held = _suits_of_rank(gen.rack_cards, rank_index)
            tuples = SET_TUPLES_HELD[gen.k][held][min(gen.jokers, 4)]
            for i in range(gen.k):
                tuples &= SET_TUPLES_WITH[gen.k][i][
                    _suits_of_rank(gen.allowed[gen.placed_index[i]], rank_index) & ~fixed_suits]
                gen.real_main[i] = VALUE[KIND_SET][rank_index] * gen.placed_tile_mult[i]
                gen.real_cross[i] = VALUE[gen.placed_cross_kind[i]][rank_index] * gen.placed_cross_mult[i]
                gen.set_main += gen.real_main[i]
                gen.set_cross += gen.real_cross[i]
            if gen.floor != NO_FLOOR and gen.set_main * gen.main_mult + gen.set_cross < gen.floor:
                continue        # a set's score does not depend on its suits
            gen.set_done = 0
            _set_supplies(gen, tuples, rank_index, held)
    # runs: bit 16 suit + first of the lanes, in one loop over all suits; the
    # rack lacks the cards of the placed positions in gen.lacking_lanes
    lanes = feasible.up
    while lanes and not gen.done:
        bit = __builtin_ctzll(lanes)
        lanes &= lanes - 1
        if __builtin_popcountll((<uint64_t>placed_up << bit) & gen.lacking_lanes
                                & (<uint64_t>0xFFFF << (bit & ~15))) <= gen.jokers:
            _run_candidate(gen, bit >> 4, bit & 15, 1)
    lanes = feasible.down & LANE_HIGH[length - 1]      # read downwards from length - 1 or higher
    while lanes and not gen.done:
        bit = __builtin_ctzll(lanes)
        lanes &= lanes - 1
        if __builtin_popcountll((<uint64_t>placed_down << (bit - length + 1)) & gen.lacking_lanes
                                & (<uint64_t>0xFFFF << (bit & ~15))) <= gen.jokers:
            _run_candidate(gen, bit >> 4, bit & 15, -1)


cdef uint64_t LANE_RANKS = 0x1FFF1FFF1FFF1FFF      # bits 0..12 of every lane
cdef uint64_t LANE_STARTS = 0x1FFE1FFE1FFE1FFE     # rank positions 1..12: where a run of three starts


cdef inline uint64_t _every_suit(unsigned int ranks) noexcept nogil:
    """The cards of the ranks ``ranks`` (bits 0..12) in every suit."""
    return <uint64_t>ranks * ((<uint64_t>1 << 39) | (<uint64_t>1 << 26) | (<uint64_t>1 << 13) | 1)


cdef inline uint64_t _lanes_cards(uint64_t lanes) noexcept nogil:
    """The cards at the rank positions of ``lanes`` (16 bits a suit; position p
    is rank index p - 1, and 14 the ace again): the inverse of _card_lanes."""
    cdef uint64_t ranks = ((lanes >> 1) | ((lanes >> 14) & LANE_BIT0)) & LANE_RANKS
    return ((ranks & 0x1FFF) | ((ranks >> 3) & (<uint64_t>0x1FFF << 13))
            | ((ranks >> 6) & (<uint64_t>0x1FFF << 26)) | ((ranks >> 9) & (<uint64_t>0x1FFF << 39)))


cdef inline uint64_t _two_supplied(uint64_t held_a, uint64_t exist_a, uint64_t held_b, uint64_t exist_b,
                                   int jokers) noexcept nogil:
    """Bitwise over rank positions: can the rack supply a card at position a and
    another at position b (each a real tile or a joker)?"""
    if jokers >= 2:
        return exist_a & exist_b
    if jokers == 1:
        return exist_a & exist_b & (held_a | held_b)
    return held_a & held_b


cdef void _pair_tables(Gen* gen, uint64_t held) noexcept nogil:
    """The cards (``pair_up``) of a board tile next to which the rack can lay the
    card one rank up and still have a third card for a run of three, the card one
    rank below or two above; ``pair_down`` the same for the card one rank down.
    ``held``: the rack's real tiles as rank-position lanes (_card_lanes).  All
    four suits at once, in lanes by rank position p of the board tile (an ace
    at 1 and 14): shifting by one or two moves no used bit into another suit's
    used bits 1..14, and ``exist`` clears what lands outside them."""
    cdef uint64_t exist = ALL_LANES, up, down, both
    both = _two_supplied(held << 1, exist << 1, held >> 1, exist >> 1, gen.jokers)
    up = (_two_supplied(held >> 1, exist >> 1, held >> 2, exist >> 2, gen.jokers) | both) & exist
    down = (_two_supplied(held << 2, exist << 2, held << 1, exist << 1, gen.jokers) | both) & exist
    # as cards: an ace lays the 2 from position 1 and the king from 14
    gen.pair_up = _lanes_cards(up)
    gen.pair_down = _lanes_cards(down)


cdef void _meld_cards(Gen* gen, uint64_t held) noexcept nogil:
    """``gen.meld_cards``: the cards the rack can lay in some meld of three made
    of its own tiles (each a real tile or a joker); ``held`` as in _pair_tables.
    Runs for all four suits at once, in rank-position lanes."""
    cdef unsigned int ranks = gen.set_ranks_for[3]
    cdef uint64_t a = held, b, c, starts
    cdef uint64_t cards = _every_suit(ranks)
    b = a >> 1
    c = a >> 2          # bit w: the rack holds position w, w + 1, w + 2
    if gen.jokers >= 3:
        starts = LANE_STARTS
    elif gen.jokers == 2:
        starts = a | b | c
    elif gen.jokers == 1:
        starts = (a & b) | (a & c) | (b & c)
    else:
        starts = a & b & c
    starts &= LANE_STARTS    # runs of three start at positions 1 .. 12
    cards |= _lanes_cards(starts | (starts << 1) | (starts << 2))
    gen.meld_cards = cards & gen.available


cdef inline uint64_t _pair_cards(Gen* gen, int card) noexcept nogil:
    """The cards the rack can lay next to a lone board tile ``card`` with a
    third card left for a meld of three (a set or a run)."""
    cdef uint64_t others = SAME_RANK[card], held = gen.rack_cards & others, in_set
    cdef uint64_t run = ((NEXT_UP[card] & -((gen.pair_up >> card) & 1))
                         | (NEXT_DOWN[card] & -((gen.pair_down >> card) & 1)))
    # a set: two more cards of the rank in other suits, real tiles or jokers
    # (without a branch: it would be mispredicted about once a rack)
    in_set = -<uint64_t>(__builtin_popcountll(held) + gen.jokers >= 2)
    return run | ((held | (others & -<uint64_t>(gen.jokers != 0))) & in_set)


cdef void _walk_anchor(Gen* gen, int direction, int line, int x, int free_before,
                       uint64_t anchor_cards) noexcept nogil:
    """Every play along ``direction`` whose first anchor is at ``x`` on ``line``
    (a row ACROSS, a column DOWN), on which the cards ``anchor_cards`` may go;
    ``free_before`` empty squares that are no anchors stand just before it.

    Left of x the play may start on m empty squares that touch nothing, or,
    when a tile stands just left of x, take in that tile's line.  The walk
    right of x is done once, keeping in a Feasible (indexed from x) what the
    line can still be; at each of its placed squares every m is tried by ANDing
    with the precomputed state of m free squares.  The walk stops as soon as no
    meld, no rack tile or no single area is possible any more.
    """
    cdef Board* board = gen.board
    cdef int line_length, step, start, b, i, m, m_first, m_last, low_fixed, free_max, square
    cdef int touched_group, touch, red, centre, k, group, right_group, right_touch, high
    cdef int length, main_mult, tile_mult, main_bound, set_bound, run_bound, start_index, free_filled, left_square
    cdef int left_tile_mult[MAX_PLACED + 1]
    cdef int left_meld_mult[MAX_PLACED + 1]
    cdef uint64_t allowed
    cdef unsigned int ranks
    cdef Feasible right, whole, line_state
    # in locals: the compiler cannot keep fields read through a pointer across
    # the stores to gen's int arrays, which might alias them
    cdef const Square* squares = board.squares
    cdef const signed char* cards = board.card
    cdef int rack_size = board.rack_size, n_tiles = board.n_tiles, centre_square = board.centre
    cdef uint64_t available = gen.available
    cdef bint best_mode = gen.bounded
    gen.direction = direction
    if direction == ACROSS:
        line_length, step, start = board.width, 1, line * board.width
    else:
        line_length, step, start = board.height, board.width, line
    _feasible_start(&right)
    touched_group = -1
    touch = 0
    low_fixed = 0       # tiles of the line just left of x
    free_max = 0        # empty squares left of x that touch nothing
    left_tile_mult[0] = 0
    left_meld_mult[0] = 1
    if x > 0 and cards[start + (x - 1) * step] != EMPTY:
        while x - low_fixed - 1 >= 0 and cards[start + (x - low_fixed - 1) * step] != EMPTY:
            low_fixed += 1
            square = start + (x - low_fixed) * step
            gen.line_square[BASE - low_fixed] = square
            _feasible_add_left_card(&right, low_fixed, cards[square])
        if low_fixed >= MAX_RUN:
            return
        touched_group = squares[start + (x - 1) * step].group
        touch = 1
    else:
        # the empty squares just left of x that are no anchors (filled in below when used)
        free_max = free_before
        if free_max > rack_size - 1:
            free_max = max(rack_size - 1, 0)
    free_filled = 0
    red = 0
    centre = 0
    k = 0
    main_mult = 1
    square = start + (x - 1) * step
    for b in range(x, min(line_length, x + MAX_RUN - low_fixed)):     # no longer than a run
        i = b - x
        square += step
        gen.line_square[BASE + i] = square
        if cards[square] != EMPTY:
            group = squares[square].group
            touch = 1
            if touched_group < 0:
                touched_group = group
            elif group != touched_group:
                break       # would join two areas, as would every longer interval
            _feasible_add_card(&right, cards[square])
            if not _feasible_any(&right):
                break
            continue
        if k == rack_size:
            break
        if squares[square].cross_len[direction] == 1:
            allowed = available
        else:
            allowed = squares[square].cross_mask[direction] & available
            if allowed == 0:
                break
            group = squares[square].cross_group[direction]
            touch = 1
            if touched_group < 0:
                touched_group = group
            elif group != touched_group:
                break
        if b == x:
            allowed = anchor_cards
        if allowed == available:
            _feasible_add_lanes(&right, gen.free_lanes, gen.free_ranks)
        else:
            _feasible_add(&right, allowed)
        gen.allowed[BASE + i] = allowed
        if not _feasible_any(&right):
            break
        if best_mode:
            tile_mult = squares[square].tile_mult
            ranks = _ranks_of(allowed)
            right.set_bound += SET_MAX[ranks] * tile_mult
            right.run_bound += RUN_MAX[ranks] * tile_mult
            if squares[square].cross_len[direction] >= 3:
                right.cross_bound += tile_mult * squares[square].meld_mult * (
                    SET_MAX[ranks] if squares[square].cross_kind[direction] == KIND_SET
                    else RUN_MAX[ranks])
        red |= squares[square].red
        centre |= square == centre_square
        main_mult *= squares[square].meld_mult
        gen.placed_all[MAX_PLACED + k] = BASE + i
        k += 1
        right.set_ranks &= gen.set_ranks_for[k]
        right.up &= gen.run_lanes_for[k]
        right.down &= gen.run_lanes_for[k]
        if not _feasible_any(&right):
            break
        # the tiles just right of b belong to the line too
        whole = right
        high = b
        right_touch = touch
        if b + 1 < line_length and cards[square + step] != EMPTY:
            right_touch = 1
            right_group = squares[square + step].group
            if touched_group >= 0 and right_group != touched_group:
                continue
            while high + 1 < line_length and cards[start + (high + 1) * step] != EMPTY \
                    and low_fixed + high + 1 - x < MAX_RUN:
                high += 1
                gen.line_square[BASE + high - x] = start + high * step
                _feasible_add_card(&whole, cards[start + high * step])
            if high + 1 < line_length and cards[start + (high + 1) * step] != EMPTY:
                break       # the line would be longer than any meld
        if n_tiles == 0:
            if not centre:
                continue
        elif not right_touch and not red:
            continue
        # m from m_first to m_last: within the rack, no longer than a meld and at
        # least three long; a lone tile with a row neighbour is found across
        length = low_fixed + high - x + 1
        m_first = max(3 - length, 0)
        if m_first == 0 and k == 1 and direction == DOWN and squares[square].cross_len[DOWN] > 1:
            m_first = 1
        m_last = min(free_max, rack_size - k, MAX_RUN - length)
        for m in range(m_first, m_last + 1):
            length = low_fixed + m + high - x + 1
            line_state = whole
            line_state.up &= gen.free_left[m].up & gen.run_lanes_for[k + m]
            line_state.down &= gen.free_left[m].down & gen.run_lanes_for[k + m]
            line_state.set_ranks &= gen.free_left[m].set_ranks & gen.set_ranks_for[k + m]
            line_state.length = length
            if not _feasible_any(&line_state):
                break       # more squares to the left only narrow it further
            while free_filled < m:
                free_filled += 1
                left_square = start + (x - free_filled) * step
                gen.line_square[BASE - free_filled] = left_square
                gen.allowed[BASE - free_filled] = available
                left_tile_mult[free_filled] = left_tile_mult[free_filled - 1] + squares[left_square].tile_mult
                left_meld_mult[free_filled] = left_meld_mult[free_filled - 1] * squares[left_square].meld_mult
            if gen.floor != NO_FLOOR:      # set only where the bounds are kept
                set_bound = whole.set_bound + SET_MAX[gen.free_ranks] * left_tile_mult[m]
                run_bound = whole.run_bound + RUN_MAX[gen.free_ranks] * left_tile_mult[m]
                main_bound = 0
                if length <= 4 and line_state.set_ranks:
                    main_bound = set_bound
                if _feasible_runs(&line_state) and run_bound > main_bound:
                    main_bound = run_bound
                if main_bound * main_mult * left_meld_mult[m] + whole.cross_bound < gen.floor:
                    continue
            # from the anchor's positions to the first square's
            start_index = low_fixed + m
            line_state.up = _lanes_down(line_state.up, start_index)
            line_state.down = _lanes_up(line_state.down, start_index)
            gen.origin = BASE - start_index
            gen.length = length
            gen.k = k + m
            gen.main_mult = main_mult * left_meld_mult[m]
            gen.placed_index = &gen.placed_all[MAX_PLACED - m]
            _enumerate_line(gen, &line_state)
            if gen.done:
                return


cdef void _generate_anchors(Gen* gen) noexcept nogil:
    """Every play, from the board's list of anchors in square order: a play's
    first anchor (an empty square beside a tile, a red square, or the centre of
    an empty board) is walked from in each direction it is live in, when some
    rack card can go on it there.  Those are the cards both lines through it
    accept, and what its neighbours on the line of the play accept: every line
    through the anchor holds those neighbours too, and any three or more
    adjacent cards of a meld are a meld themselves, so a lone neighbour needs a
    third card.  With no neighbour and no tile within the rack's reach further
    along (none lies before a play's first anchor), the play's own tiles make
    the whole line."""
    cdef Board* board = gen.board
    cdef const Anchor* anchor = board.anchors
    cdef const Anchor* end = board.anchors + board.n_anchors
    cdef uint64_t cards, across, down, available = gen.available
    # no branch until some card can go on the anchor: a branch a direction was
    # mispredicted about once an anchor
    while anchor < end:
        cards = anchor.fit & available
        across = cards & gen.limit_of[anchor.limit[ACROSS]]
        down = cards & gen.limit_of[anchor.limit[DOWN]]
        if across | down:
            if across:
                _walk_anchor(gen, ACROSS, anchor.row, anchor.col, anchor.free[ACROSS], across)
                if gen.done:
                    return
            if down:
                _walk_anchor(gen, DOWN, anchor.col, anchor.row, anchor.free[DOWN], down)
                if gen.done:
                    return
        anchor += 1


cdef long long board_generate(Board* board, int mode, PlayRecord* best,
                              PlayRecord** plays, size_t* capacity) noexcept nogil:
    """Generate every legal play: count them, keep the best in ``best``, store
    all in ``plays[0]`` (grown with realloc), or stop at the first.  Returns how
    many there are (in best and any mode: how many were scored, which is 0 only
    when there is none), or -1 when the plays did not fit in memory."""
    return _generate_on(board, mode, best, plays, capacity, NULL)


cdef long long _generate_on(Board* board, int mode, PlayRecord* best,
                            PlayRecord** plays, size_t* capacity, Top* top) noexcept nogil:
    """board_generate, and in GEN_TOP mode the first plays in ranking order
    into ``top`` (see Top), how many were scored (-1: out of memory)."""
    cdef Gen gen
    cdef int i, held, suit, card, reach = min(board.rack_size - 1, MAX_PLACED)
    cdef uint64_t lanes_by_supply[MAX_PLACED + 1]
    cdef unsigned int suit_ranks[4]
    cdef unsigned int ranks_held[5]
    cdef uint64_t counts, neighbours, near, rack_lanes
    cdef Feasible left
    cdef const char* block
    # Ask for the lines generation reads in order, and for the first lines of
    # the plays it writes: with many positions they are out of the nearest
    # caches, and the setup below runs while they arrive.
    block = <const char*>board.anchors
    for i in range(0, board.n_anchors * <int>sizeof(Anchor), 64):
        __builtin_prefetch(block + i)
    for i in range(0, board.size, 64):
        __builtin_prefetch(board.card + i)
    if mode == GEN_ALL and plays[0] != NULL:
        block = <const char*>plays[0]
        for i in range(0, min(<int>capacity[0], 8) * <int>sizeof(PlayRecord), 64):
            __builtin_prefetch(block + i, 1)
    gen.board = board
    gen.mode = mode
    gen.best = best
    gen.have_best = 0
    gen.floor = NO_FLOOR
    gen.top = top
    gen.bounded = mode == GEN_BEST or mode == GEN_TOP
    gen.plays = plays
    gen.capacity = capacity
    gen.count = 0
    # the cards the rack holds, eight counts at a time
    gen.available = 0
    held = 0
    if LITTLE_ENDIAN:
        while held + 8 <= NUM_CARDS:
            memcpy(&counts, &board.rack[held], 8)
            gen.available |= <uint64_t>_nonzero_bytes(counts) << held
            held += 8
    while held < NUM_CARDS:
        gen.available |= <uint64_t>(board.rack[held] != 0) << held
        held += 1
    gen.rack_cards = gen.available
    gen.jokers = board.rack[JOKER]
    if board.rack[JOKER]:
        gen.available = ALL_CARDS
    gen.free_lanes = _card_lanes(gen.available)
    rack_lanes = _card_lanes(gen.rack_cards)
    gen.lacking_lanes = ~rack_lanes
    gen.free_ranks = _ranks_of(gen.available)
    # the ranks (suits) whose real tiles and jokers can fill k squares of a set (run);
    # ranks_held[c]: the ranks the rack holds in c suits or more
    memset(lanes_by_supply, 0, sizeof(lanes_by_supply))
    for suit in range(4):
        suit_ranks[suit] = <unsigned int>(gen.rack_cards >> (13 * suit)) & 0x1FFF
        # rank positions, so an ace counts twice: an upper bound is enough here
        held = __builtin_popcount(_rank_positions(gen.rack_cards, suit)) + gen.jokers
        lanes_by_supply[min(held, MAX_PLACED)] |= <uint64_t>0xFFFF << (16 * suit)
    ranks_held[0] = 0x1FFF
    ranks_held[1] = suit_ranks[0] | suit_ranks[1] | suit_ranks[2] | suit_ranks[3]
    ranks_held[2] = ((suit_ranks[0] & (suit_ranks[1] | suit_ranks[2] | suit_ranks[3]))
                     | (suit_ranks[1] & (suit_ranks[2] | suit_ranks[3])) | (suit_ranks[2] & suit_ranks[3]))
    ranks_held[3] = ((suit_ranks[0] & suit_ranks[1] & (suit_ranks[2] | suit_ranks[3]))
                     | ((suit_ranks[0] | suit_ranks[1]) & suit_ranks[2] & suit_ranks[3]))
    ranks_held[4] = suit_ranks[0] & suit_ranks[1] & suit_ranks[2] & suit_ranks[3]
    gen.run_lanes_for[MAX_PLACED] = lanes_by_supply[MAX_PLACED]
    for i in range(MAX_PLACED - 1, -1, -1):
        gen.run_lanes_for[i] = gen.run_lanes_for[i + 1] | lanes_by_supply[i]
    memset(gen.set_ranks_for, 0, sizeof(gen.set_ranks_for))
    for i in range(min(gen.jokers + 4, MAX_PLACED) + 1):
        gen.set_ranks_for[i] = ranks_held[max(i - gen.jokers, 0)]
    _pair_tables(&gen, rack_lanes)
    _meld_cards(&gen, rack_lanes)
    # what may go on an anchor beyond its fit (Anchor.limit); a tile's
    # neighbours on both sides share its pair cards.  An anchor's fit holds only
    # cards that may stand beside its lone neighbours, so a neighbour none of
    # whose cards the rack has needs no entry: the anchor's cards are none anyway.
    near = ALL_CARDS
    if not gen.jokers:
        # NEIGHBOURS of each rack card: the same suit one rank away, and the
        # same rank in another suit (but for a card whose rank it holds in one suit)
        near = (_lanes_cards(((gen.free_lanes << 1) | (gen.free_lanes >> 1)) & ALL_LANES)
                | (_every_suit(ranks_held[1]) & ~(gen.available & _every_suit(ranks_held[1] & ~ranks_held[2]))))
    neighbours = board.lone_neighbours & near
    while neighbours:
        card = __builtin_ctzll(neighbours)
        neighbours &= neighbours - 1
        gen.limit_of[card] = _pair_cards(&gen, card)
    for i in range(ALONE, ALONE_FAR):
        gen.limit_of[i] = ALL_CARDS if i - ALONE <= board.rack_size else gen.meld_cards
    gen.limit_of[ALONE_FAR] = gen.meld_cards     # beyond any rack's reach
    gen.limit_of[NOT_LIVE] = 0
    # no play puts more than the rack's tiles but the anchor's left of an anchor
    # built in a local: copying the entry just stored would wait for the stores
    _feasible_start(&left)
    gen.free_left[0] = left
    for i in range(1, reach + 1):
        gen.placed_all[MAX_PLACED - i] = BASE - i
        _feasible_add_left(&left, i, gen.free_lanes, gen.free_ranks)
        gen.free_left[i] = left
    gen.done = 0
    gen.failed = 0
    _generate_anchors(&gen)
    return -1 if gen.failed else gen.count


# -- scoring a given play ---------------------------------------------------------

cdef enum:
    # board_score's verdict on an illegal play, checked in this order, and the
    # detail it writes to ``melds[0..]`` (python/ginnyo/illegal.py words them)
    ILLEGAL_COUNT = -6      # no tiles, or more than MAX_PLACED
    ILLEGAL_REPEATED = -7   # a square twice (or out of order): the square
    ILLEGAL_OFF_BOARD = -8  # the square
    ILLEGAL_COVERED = -9    # the square, already covered
    ILLEGAL_CARD = -10      # no card 0..51: the card
    ILLEGAL_RACK = -2       # the rack does not hold the tiles: the rack tile, how many
    ILLEGAL_SHAPE = -1      # §4.1 not in one row or one column
    ILLEGAL_GAP = -11       # §4.1 an empty square between the tiles: the square
    ILLEGAL_MELD = -3       # §4.2 a line that is no meld: direction, first square, length
    ILLEGAL_SHORT = -12     # §4.3 a tile in no line of three or more: the square
    ILLEGAL_CENTRE = -13    # §4.4 the first play misses the centre: the centre
    ILLEGAL_PLACE = -4      # §4.4 neither connects nor covers a red square
    ILLEGAL_AREAS = -5      # §4.5 the play would join areas: how many


cdef inline int _illegal(int code, int* detail, int first, int second, int third) noexcept nogil:
    """``code``, its detail written to ``detail`` (when not NULL)."""
    if detail != NULL:
        detail[0] = first
        detail[1] = second
        detail[2] = third
    return code


cdef int _line_bounds(Board* board, int square, int direction, int* first) noexcept nogil:
    """Length of the maximal occupied line through ``square``; its first square in ``first``."""
    cdef int width = board.width, step, count_before = 0, count_after = 0
    cdef int row = square // width, col = square % width
    if direction == ACROSS:
        step = 1
        while col - count_before - 1 >= 0 and board.card[square - count_before - 1] != EMPTY:
            count_before += 1
        while col + count_after + 1 < width and board.card[square + count_after + 1] != EMPTY:
            count_after += 1
    else:
        step = width
        while row - count_before - 1 >= 0 and board.card[square - (count_before + 1) * width] != EMPTY:
            count_before += 1
        while row + count_after + 1 < board.height and board.card[square + (count_after + 1) * width] != EMPTY:
            count_after += 1
    first[0] = square - count_before * step
    return count_before + count_after + 1


cdef int score_lines(Board* board, int n, const short* squares, const signed char* cards,
                     const unsigned char* jokers, int* melds, int max_melds) noexcept nogil:
    """§4.2, §4.3 and §5 of tiles on empty squares in one unbroken line: put
    them down, check and score every line through them, take them up.  Returns
    the score and writes the melds as board_score does, or returns
    ILLEGAL_MELD / ILLEGAL_SHORT with its detail.  Of a play known to be legal
    (one the generator made), this is all board_score has to do.
    """
    cdef int i, j, width = board.width, direction, first, length, kind, total = 0
    cdef int n_melds = 0, tile_sum, mult, longest, step, other, result = 0, seen
    cdef int meld_first[2 * MAX_PLACED]
    cdef int meld_direction[2 * MAX_PLACED]
    cdef signed char line[MAX_SIDE]
    cdef int* detail = melds if max_melds >= 1 else NULL
    for i in range(n):
        board.card[squares[i]] = cards[i]
    for i in range(n):
        longest = 1
        for direction in range(2):
            length = _line_bounds(board, squares[i], direction, &first)
            if length > longest:
                longest = length
            if length < 2:
                continue
            step = 1 if direction == ACROSS else width
            if length > MAX_SIDE:
                result = _illegal(ILLEGAL_MELD, detail, direction, first, length)
                break
            for j in range(length):
                line[j] = board.card[first + j * step]
            kind = line_kind(line, length)
            if kind == KIND_NONE:
                result = _illegal(ILLEGAL_MELD, detail, direction, first, length)
                break
            seen = 0
            for j in range(n_melds):
                if meld_first[j] == first and meld_direction[j] == direction:
                    seen = 1
            if seen:
                continue
            meld_first[n_melds] = first
            meld_direction[n_melds] = direction
            n_melds += 1
            tile_sum = 0
            mult = 1
            for j in range(n):
                other = squares[j]
                if (other - first) % step == 0 and first <= other <= first + (length - 1) * step \
                        and (direction == DOWN or other // width == first // width):
                    if not jokers[j]:
                        tile_sum += tile_value(cards[j], kind) * board.squares[other].tile_mult
                    mult *= board.squares[other].meld_mult
            total += tile_sum * mult
            if n_melds <= max_melds and melds != NULL:
                melds[5 * (n_melds - 1)] = direction
                melds[5 * (n_melds - 1) + 1] = first
                melds[5 * (n_melds - 1) + 2] = length
                melds[5 * (n_melds - 1) + 3] = kind
                melds[5 * (n_melds - 1) + 4] = tile_sum * mult
        if result != 0:
            break
        if longest < 3:
            result = _illegal(ILLEGAL_SHORT, detail, squares[i], 0, 0)
            break
    for i in range(n):
        board.card[squares[i]] = EMPTY
    if result != 0:
        return result
    if melds != NULL and n_melds < max_melds:
        melds[5 * n_melds] = -1
    return total


cdef int board_score(Board* board, int n, const short* squares, const signed char* cards,
                     const unsigned char* jokers, int* melds, int max_melds) noexcept nogil:
    """Check a play against §4 and score it (§5) without changing the board.

    ``squares`` must be in increasing order.  Returns the score (>= 0) and
    writes up to ``max_melds`` melds as (direction, first square, length, kind,
    score) quintuples into ``melds``, ending with -1; or returns a negative
    ILLEGAL_* code, the first rule broken in the order of the codes, and writes
    its detail to ``melds[0..2]`` (when ``max_melds`` >= 1).
    """
    cdef int i, j, square, width = board.width, total, step, other, seen
    cdef int touch = 0, red = 0, centre = 0, n_touched = 0, group
    cdef int touched_groups[4 * MAX_PLACED]
    cdef unsigned char need[RACK_KINDS]
    cdef int* detail = melds if max_melds >= 1 else NULL
    if n < 1 or n > MAX_PLACED:
        return _illegal(ILLEGAL_COUNT, detail, n, 0, 0)
    for i in range(1, n):
        if squares[i] <= squares[i - 1]:
            return _illegal(ILLEGAL_REPEATED, detail, squares[i], 0, 0)
    memset(need, 0, RACK_KINDS)
    for i in range(n):
        square = squares[i]
        if square < 0 or square >= board.size:
            return _illegal(ILLEGAL_OFF_BOARD, detail, square, 0, 0)
        if board.card[square] != EMPTY:
            return _illegal(ILLEGAL_COVERED, detail, square, 0, 0)
        if cards[i] < 0 or cards[i] >= NUM_CARDS:
            return _illegal(ILLEGAL_CARD, detail, cards[i], 0, 0)
        need[JOKER if jokers[i] else cards[i]] += 1
    for i in range(RACK_KINDS):
        if need[i] > board.rack[i]:
            return _illegal(ILLEGAL_RACK, detail, i, need[i], 0)
    if n > 1:
        if squares[0] // width == squares[n - 1] // width:
            step = 1
        elif squares[0] % width == squares[n - 1] % width:
            step = width
        else:
            return _illegal(ILLEGAL_SHAPE, detail, 0, 0, 0)
        for i in range(1, n):
            if (squares[i] - squares[0]) % step != 0:
                return _illegal(ILLEGAL_SHAPE, detail, 0, 0, 0)
        square = squares[0]
        while square <= squares[n - 1]:
            if board.card[square] == EMPTY:
                seen = 0
                for i in range(n):
                    if squares[i] == square:
                        seen = 1
                if not seen:
                    return _illegal(ILLEGAL_GAP, detail, square, 0, 0)
            square += step
    # §4.4 / §4.5 against the board before the play (their verdicts come after §4.2 / §4.3)
    for i in range(n):
        square = squares[i]
        if board.squares[square].red:
            red = 1
        if square == board.centre:
            centre = 1
        for j in range(4):
            other = _neighbour(board, square, j)
            if other >= 0 and board.card[other] != EMPTY:
                touch = 1
                seen = 0
                for group in range(n_touched):
                    if touched_groups[group] == board.squares[other].group:
                        seen = 1
                if not seen:
                    touched_groups[n_touched] = board.squares[other].group
                    n_touched += 1
    total = score_lines(board, n, squares, cards, jokers, melds, max_melds)
    if total < 0:
        return total
    if board.n_tiles == 0:
        if not centre:
            return _illegal(ILLEGAL_CENTRE, detail, board.centre, 0, 0)
    elif not touch and not red:
        return _illegal(ILLEGAL_PLACE, detail, 0, 0, 0)
    if n_touched > 1:
        return _illegal(ILLEGAL_AREAS, detail, n_touched, 0, 0)
    return total


# -- the Python face ----------------------------------------------------------------

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdlib cimport qsort

cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object, object, object) except -1
    void PyObject_GC_UnTrack(void*)

cdef enum:
    EMPTY_SQUARE = 255              # an empty square in the bytes ``load`` and the batch take
    MAX_MELDS = MAX_PLACED + 1      # the melds a play makes at most: its line, one across each tile
    MELD_FIELDS = 5                 # a meld: direction, first square, length, kind, score
    MELDS_BUFFER = 2 * MAX_PLACED   # the melds board_score may be given room for

# The core's constants and illegal-play codes as Python ints (ginnycore exports them).
CONSTANTS = {"MAX_PLACED": MAX_PLACED, "MAX_MELDS": MAX_MELDS, "RACK_KINDS": RACK_KINDS, "JOKER": JOKER,
             "NUM_CARDS": NUM_CARDS, "EMPTY_SQUARE": EMPTY_SQUARE, "KIND_SET": KIND_SET, "KIND_RUN": KIND_RUN,
             "ACROSS": ACROSS, "DOWN": DOWN}
ILLEGAL_CODES = {"ILLEGAL_COUNT": ILLEGAL_COUNT, "ILLEGAL_REPEATED": ILLEGAL_REPEATED,
                 "ILLEGAL_OFF_BOARD": ILLEGAL_OFF_BOARD, "ILLEGAL_COVERED": ILLEGAL_COVERED,
                 "ILLEGAL_CARD": ILLEGAL_CARD, "ILLEGAL_RACK": ILLEGAL_RACK, "ILLEGAL_SHAPE": ILLEGAL_SHAPE,
                 "ILLEGAL_GAP": ILLEGAL_GAP, "ILLEGAL_MELD": ILLEGAL_MELD, "ILLEGAL_SHORT": ILLEGAL_SHORT,
                 "ILLEGAL_CENTRE": ILLEGAL_CENTRE, "ILLEGAL_PLACE": ILLEGAL_PLACE, "ILLEGAL_AREAS": ILLEGAL_AREAS}
globals().update(CONSTANTS)     # module attributes (a cdef enum name cannot be assigned to)
globals().update(ILLEGAL_CODES)


cdef int _compare_plays(const void* a, const void* b) noexcept nogil:
    """qsort's order of two stored plays: the ranking."""
    cdef const PlayRecord* play = <const PlayRecord*>a
    return _rank_order(play.score, play.jokers, play.n, play.square, play.joker_at, play.card,
                       <const PlayRecord*>b)


cdef int _meld_count(const int* melds) noexcept nogil:
    """How many melds board_score wrote (they end with a direction of -1)."""
    cdef int n = 0
    while n < MELDS_BUFFER and melds[MELD_FIELDS * n] >= 0:
        n += 1
    return n


cdef int _melds_of(Board* board, const PlayRecord* play, int* melds) noexcept nogil:
    """The score of a play the generator made on ``board`` (so legal: only its
    lines are scored), or an ILLEGAL_* code; its melds go to ``melds`` (room for
    MELDS_BUFFER and the end mark) as :func:`_sort_melds` leaves them."""
    cdef unsigned char jokers[MAX_PLACED]
    cdef int i, result
    for i in range(play.n):
        jokers[i] = play_joker(play, i)
    result = score_lines(board, play.n, play.square, play.card, jokers, melds, MELDS_BUFFER)
    if result >= 0:
        _sort_melds(melds)
    return result


cdef void _sort_melds(int* melds) noexcept nogil:
    """board_score's melds in order of direction, then first square."""
    cdef int held[MELD_FIELDS]
    cdef int i, j, n = _meld_count(melds)
    for i in range(1, n):       # insertion sort: a play makes at most MAX_MELDS
        memcpy(held, &melds[MELD_FIELDS * i], sizeof(held))
        j = i
        while j > 0 and (melds[MELD_FIELDS * (j - 1)] > held[0] or
                         (melds[MELD_FIELDS * (j - 1)] == held[0] and melds[MELD_FIELDS * (j - 1) + 1] > held[1])):
            memcpy(&melds[MELD_FIELDS * j], &melds[MELD_FIELDS * (j - 1)], sizeof(held))
            j -= 1
        memcpy(&melds[MELD_FIELDS * j], held, sizeof(held))


cdef tuple _placements(const PlayRecord* record):
    """``((square, card, is_joker), ...)`` of a stored play."""
    cdef Py_ssize_t i
    cdef tuple placements = PyTuple_New(record.n)
    for i in range(record.n):
        placed = (record.square[i], record.card[i], play_joker(record, i) != 0)
        Py_INCREF(placed)
        PyTuple_SET_ITEM(placements, i, placed)
    return placements


cdef tuple _meld_tuples(const int* melds):
    """``((direction, first square, length, kind, score), ...)`` of board_score's melds."""
    cdef Py_ssize_t i, n = _meld_count(melds)
    cdef const int* meld
    cdef tuple result = PyTuple_New(n)
    for i in range(n):
        meld = &melds[MELD_FIELDS * i]
        item = (meld[0], meld[1], meld[2], meld[3], meld[4])
        Py_INCREF(item)
        PyTuple_SET_ITEM(result, i, item)
    return result


cdef tuple _NO_ARGS = ()


cdef inline object _instance(type cls):
    """A new instance of ``cls`` made by its ``tp_new`` alone, without calling
    ``__init__``: its fields are set with PyObject_GenericSetAttr, which is what
    a frozen dataclass's ``__init__`` does through ``object.__setattr__``, the
    slow part of building a play."""
    return (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)


cdef inline object _value(object built):
    """``built``, an immutable value of tuples, ints and strings (a play, a
    meld, their tuples), taken off the cycle collector's lists, as CPython
    takes a tuple of atoms off them: it can be in no cycle, and the collector
    would otherwise walk every play built (a third of the time of building them)."""
    PyObject_GC_UnTrack(<void*>built)
    return built


cdef class PlayMaker:
    """How a core hands plays to Python as the caller's objects, built in C with
    no Python call a play (``make=`` of ``Core.legal_plays`` and the others).

    ``PlayMaker(scored, play, meld, tile, kinds)``: a play is built as
    ``scored(play=play(placements=((square, tile(card, is_joker)), ...)),
    score=..., melds=(meld(kind=kinds[kind], squares=(...), score=...), ...))``,
    each field set as ``object.__setattr__`` sets it, without calling
    ``__init__`` (classes such as frozen dataclasses, whose ``__init__`` only
    stores its fields); ``kinds`` names the meld kinds 0 (none), 1 (set) and 2 (run).  Each
    ``(square, tile)`` pair is made once and shared: tiles must be immutable.
    """
    cdef type scored_type, play_type, meld_type
    cdef object tile_type
    cdef tuple kinds
    cdef list pairs     # by (square * NUM_CARDS + card) * 2 + is_joker: (square, tile), or None

    def __cinit__(self, scored, play, meld, tile, kinds):
        for name, cls in (("scored", scored), ("play", play), ("meld", meld)):
            if not isinstance(cls, type):
                raise TypeError(f"{name} must be a class, not {type(cls).__name__}")
        if not callable(tile):
            raise TypeError("tile must be callable")
        self.kinds = tuple(kinds)
        if len(self.kinds) != KIND_RUN + 1:
            raise ValueError(f"kinds needs {KIND_RUN + 1} names, got {len(self.kinds)}")
        self.scored_type, self.play_type, self.meld_type, self.tile_type = scored, play, meld, tile
        self.pairs = [None] * (MAX_SQUARES * NUM_CARDS * 2)

    cdef object _pair(self, int square, int card, int joker):
        """The shared ``(square, tile)`` of a placed tile (square and card in range)."""
        cdef Py_ssize_t index = (square * NUM_CARDS + card) * 2 + joker
        pair = self.pairs[index]
        if pair is None:
            pair = (square, self.tile_type(card, joker != 0))
            self.pairs[index] = pair
        return pair

    cdef object _meld(self, const int* meld, int width, dict shared):
        """One of board_score's melds (on a board ``width`` wide) as an object:
        the one in ``shared`` (when not None) if it holds it, else new and kept
        there (one position's plays share most of their melds)."""
        cdef Py_ssize_t j
        cdef int step = 1 if meld[0] == ACROSS else width
        cdef tuple squares
        cdef object square, key = None
        if shared is not None:
            key = ((<long long>meld[4] * 2 + meld[0]) * MAX_SQUARES + meld[1]) * (MAX_SIDE + 1) * 4 \
                + meld[2] * 4 + meld[3]
            built = shared.get(key)
            if built is not None:
                return built
        squares = PyTuple_New(meld[2])
        for j in range(meld[2]):
            square = meld[1] + j * step
            Py_INCREF(square)
            PyTuple_SET_ITEM(squares, j, square)
        built = _instance(self.meld_type)
        PyObject_GenericSetAttr(built, "kind", self.kinds[meld[3]])
        PyObject_GenericSetAttr(built, "squares", _value(squares))
        PyObject_GenericSetAttr(built, "score", meld[4])
        _value(built)
        if shared is not None:
            shared[key] = built
        return built

    cdef object _build(self, const PlayRecord* record, const int* melds, int width, dict shared):
        """A legal play and board_score's melds of it (on a board ``width`` wide)
        as objects; ``shared``: see :meth:`_meld`."""
        cdef Py_ssize_t i, n_melds = _meld_count(melds)
        cdef tuple placements = PyTuple_New(record.n)
        cdef tuple meld_objects = PyTuple_New(n_melds)
        for i in range(record.n):
            pair = self._pair(record.square[i], record.card[i], play_joker(record, i))
            Py_INCREF(pair)
            PyTuple_SET_ITEM(placements, i, pair)
        for i in range(n_melds):
            built = self._meld(&melds[MELD_FIELDS * i], width, shared)
            Py_INCREF(built)
            PyTuple_SET_ITEM(meld_objects, i, built)
        play = _instance(self.play_type)
        PyObject_GenericSetAttr(play, "placements", _value(placements))
        scored = _instance(self.scored_type)
        PyObject_GenericSetAttr(scored, "play", _value(play))
        PyObject_GenericSetAttr(scored, "score", record.score)
        PyObject_GenericSetAttr(scored, "melds", _value(meld_objects))
        return _value(scored)


cdef object _hand_back(Board* board, const PlayRecord* record, bint melds, PlayMaker make, dict shared):
    """A generated play as Python sees it: ``(score, placements)``; with
    ``melds`` ``(score, placements, melds)``; with ``make`` its objects, melds
    shared through ``shared`` (see PlayMaker._meld).  The melds are scored on
    ``board``, the position the play was generated on."""
    cdef int meld_buffer[MELD_FIELDS * MELDS_BUFFER + 1]
    if make is None and not melds:
        return (record.score, _placements(record))
    if _melds_of(board, record, meld_buffer) < 0:
        raise RuntimeError("the core cannot score a play it generated")     # pragma: no cover
    if make is None:
        return (record.score, _placements(record), _meld_tuples(meld_buffer))
    return make._build(record, meld_buffer, board.width, shared)


cdef list _stored(Core core, bint melds, PlayMaker make):
    """The plays stored in ``core``'s C array, handed back as :func:`_hand_back` does."""
    cdef long long i
    cdef dict shared = {} if make is not None else None
    claim(core)     # making the objects may run other threads (a collection's finalisers)
    try:
        return [_hand_back(core.board, &core.plays[i], melds, make, shared) for i in range(core.stored)]
    finally:
        release(core)


cdef int claim(Core core) except -1:
    """Mark ``core`` in use for the length of one call; RuntimeError when a call
    on another thread has it (two threads would write its board or plays at once).
    Callers hold the GIL from the test to the mark, so the two cannot interleave."""
    if core.busy:
        raise RuntimeError("this Core is in use by a call on another thread: a Core serves one call at a time")
    core.busy = 1
    return 0


cdef void release(Core core) noexcept:
    """End what :func:`claim` began."""
    core.busy = 0


cdef int thread_count(object threads) except 0:
    """``threads`` (a whole number, 1 or more, else TypeError or ValueError) as
    OpenMP threads to start: at most one a processor this process may run on,
    since more could only wait for one (and each costs a stack)."""
    threads = _whole_number(threads)
    if threads < 1:
        raise ValueError(f"threads must be 1 or more, not {threads}")
    return min(threads, max(omp_get_num_procs(), 1))


RANKED_BUFFER = 1 << 18      # RankedPlays' plays kept in C by default: 13.6 MB of records


cdef class Core:
    """One board and rack in C.  Load cards, then ask for plays.

    ``Core(width, height, kinds)`` with ``kinds`` the layout letters in square
    order (bytes).  ``load(cards, jokers, rack)``: ``cards`` has one byte a square
    (EMPTY_SQUARE, 255, empty, else the card 0..51), ``jokers`` one byte a
    square (1 for a joker), ``rack`` RACK_KINDS (53) counts (index JOKER = 52:
    jokers); or ``load_tiles`` from Python objects.
    A play is ``(score, ((square, card, is_joker), ...))``; calls that hand back
    plays take ``melds=True`` for ``(score, placements, melds)``, the melds as
    ``score_play`` gives them, by direction then first square, or a
    :class:`PlayMaker` as ``make`` for the caller's objects.

    A core serves one call at a time: a call while another thread's call has it
    raises RuntimeError (use a core a thread).
    """

    def __cinit__(self, int width, int height, bytes kinds not None):
        cdef int square
        if width < 1 or height < 1 or width > MAX_SIDE or height > MAX_SIDE:
            raise ValueError(f"board {width} x {height} is outside 1..{MAX_SIDE}")
        if len(kinds) != width * height:
            raise ValueError("kinds must have one letter a square")
        self.board = board_new(width, height)
        if self.board == NULL:
            raise MemoryError()
        self.plays = NULL
        self.capacity = 0
        self.stored = 0
        self.history = []
        self.board.centre = -1
        for square in range(width * height):
            kind = kinds[square]
            self.board.card[square] = EMPTY
            self.board.squares[square].tile_mult = 2 if kind == ord("Y") else 3 if kind == ord("G") else 1
            self.board.squares[square].meld_mult = 2 if kind == ord("R") else 3 if kind == ord("B") else 1
            self.board.squares[square].red = kind == ord("R")
            if kind == ord("R"):
                self.board.row_red[square // width] |= 1u << (square % width)
            if kind == ord("S"):
                self.board.centre = square
        board_prepare(self.board)

    def __dealloc__(self):
        free(self.board)
        free(self.plays)

    def load(self, const unsigned char[:] cards not None, const unsigned char[:] jokers not None,
             const unsigned char[:] rack not None):
        """Set the board and rack (see the class docstring) and recompute
        cross-checks; on bad input (ValueError) the core is left as it was."""
        cdef int square
        if cards.shape[0] != self.board.size or jokers.shape[0] != self.board.size:
            raise ValueError("cards and jokers need one byte a square")
        if rack.shape[0] != RACK_KINDS:
            raise ValueError("rack needs 53 counts")
        for square in range(self.board.size):
            if cards[square] != EMPTY_SQUARE and cards[square] >= NUM_CARDS:
                raise ValueError(f"card {cards[square]} on square {square}")
        claim(self)
        for square in range(self.board.size):
            self.board.card[square] = EMPTY if cards[square] == EMPTY_SQUARE else <signed char>cards[square]
            self.board.joker[square] = jokers[square] != 0
        for square in range(RACK_KINDS):
            self.board.rack[square] = rack[square]
        self.stored = 0
        with nogil:
            board_prepare(self.board)
        release(self)

    def load_tiles(self, tiles, rack):
        """Set the board and rack from Python objects, as ``load`` does from
        bytes: ``tiles`` maps each covered square to its ``(card, is_joker)``,
        ``rack`` holds the rack tiles (a card, or JOKER).  On bad input
        (ValueError) the core is left as it was."""
        cdef signed char cards[MAX_SQUARES]
        cdef unsigned char jokers[MAX_SQUARES]
        cdef unsigned char counts[RACK_KINDS]
        cdef long long square, card, tile
        cdef int size = self.board.size
        memset(cards, EMPTY, size)
        memset(jokers, 0, size)
        memset(counts, 0, RACK_KINDS)
        try:     # (unpacked, not indexed: indexing is unchecked in this module)
            for key, placed in tiles.items():
                square = key
                card, joker = placed
                if not 0 <= square < size:
                    raise ValueError(f"square {square} is off the board")
                if not 0 <= card < NUM_CARDS:
                    raise ValueError(f"card {card} on square {square}")
                cards[square] = <signed char>card
                jokers[square] = 1 if joker else 0
            for held in rack:
                tile = held
                if not 0 <= tile <= JOKER:
                    raise ValueError(f"rack tile {tile} is no card or joker")
                if counts[tile] == 255:
                    raise ValueError(f"more than 255 of rack tile {tile}")
                counts[tile] += 1
        except (TypeError, OverflowError, ValueError, AttributeError) as error:
            raise ValueError(f"tiles or rack: {error}") from None
        claim(self)
        memcpy(self.board.card, cards, size)
        memcpy(self.board.joker, jokers, size)
        memcpy(self.board.rack, counts, RACK_KINDS)
        self.stored = 0
        with nogil:
            board_prepare(self.board)
        release(self)

    cdef long long _generate(self, int mode, PlayRecord* best):
        """``board_generate`` on this core, storing the plays in its C array in
        GEN_ALL mode.  The GIL is released only with a joker on the rack: with
        none a position takes a microsecond or two, and handing the GIL to other
        threads and back would add about a tenth of that (Batch releases it
        once for all its positions)."""
        cdef long long count
        cdef PlayRecord** plays = &self.plays if mode == GEN_ALL else NULL
        cdef size_t* capacity = &self.capacity if mode == GEN_ALL else NULL
        claim(self)
        if self.board.rack[JOKER] == 0:
            count = board_generate(self.board, mode, best, plays, capacity)
        else:
            with nogil:
                count = board_generate(self.board, mode, best, plays, capacity)
        release(self)
        return count

    def count_plays(self):
        """How many legal plays there are (nothing is stored)."""
        return self._generate(GEN_COUNT, NULL)

    cdef long long _generate_all(self) except -1:
        """Every legal play into the core's C array; how many there are."""
        cdef long long count = self._generate(GEN_ALL, NULL)
        self.stored = max(count, 0)
        if count < 0:
            raise MemoryError()
        return count

    cdef list _stored_plays(self):
        return _stored(self, False, None)

    def generate_plays(self):
        """Generate every legal play, with its score, into the core's own C array
        (no Python objects are made); returns how many there are."""
        return self._generate_all()

    def legal_plays(self, melds=False, ranked=False, PlayMaker make=None):
        """Every legal play, in generation order; ``ranked``: in ranking order
        (sorted in C, and so stored).  ``melds`` and ``make``: see the class."""
        self._generate_all()
        if ranked:
            claim(self)
            qsort(self.plays, self.stored, sizeof(PlayRecord), _compare_plays)
            release(self)
        return _stored(self, melds, make)

    def stored_plays(self):
        """The plays the last generation stored in the core's C array
        (``generate_plays`` here or in a ``Cores`` call), as ``legal_plays``
        gives them; none after a load, apply or undo."""
        return self._stored_plays()

    def has_play(self):
        """Whether there is any legal play; generation stops at the first."""
        return self._generate(GEN_ANY, NULL) > 0

    def best_play(self, melds=False, PlayMaker make=None):
        """The first legal play in ranking order, or None.  ``melds`` and
        ``make``: see the class."""
        cdef PlayRecord best
        cdef long long count
        count = self._generate(GEN_BEST, &best)
        if not count:
            return None
        claim(self)
        try:
            return _hand_back(self.board, &best, melds, make, None)
        finally:
            release(self)

    def top_plays(self, n, melds=False, PlayMaker make=None):
        """The ``n`` first legal plays in ranking order (all of them when there
        are fewer), kept during generation in a heap of at most ``n`` records."""
        return list(self.ranked_plays(_positive_count(n, "n"), melds=melds, make=make))

    def ranked_plays(self, limit=None, buffer=RANKED_BUFFER, melds=False, PlayMaker make=None):
        """The legal plays in ranking order (at most ``limit``) as a
        :class:`RankedPlays` iterator holding at most ``buffer`` plays in C."""
        return RankedPlays(self, limit, buffer, melds, make)

    def score_play(self, squares, cards, jokers):
        """``(score, melds)`` of a play, melds as (direction, first square, length,
        kind, score); or ``(code, None)`` with a negative code when illegal."""
        cdef short square_array[MAX_PLACED]
        cdef signed char card_array[MAX_PLACED]
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int melds[5 * 2 * MAX_PLACED + 1]
        cdef int n = len(squares), i, result
        if n < 1 or n > MAX_PLACED or len(cards) != n or len(jokers) != n:
            return ILLEGAL_SHAPE, None
        for i in range(n):
            square_array[i] = squares[i]
            card_array[i] = cards[i]
            joker_array[i] = 1 if jokers[i] else 0
        claim(self)
        result = board_score(self.board, n, square_array, card_array, joker_array, melds, 2 * MAX_PLACED)
        release(self)
        if result < 0:
            return result, None
        out = []
        i = 0
        while i < 2 * MAX_PLACED and melds[5 * i] >= 0:
            out.append(tuple(melds[5 * i + j] for j in range(5)))
            i += 1
        return result, out

    def judge_play(self, squares, cards, jokers, PlayMaker make=None):
        """A given play checked and scored in one call (``squares`` in
        increasing order): ``(play, None)``, the play as ``legal_plays(melds=True)``
        gives it (or as ``make`` builds it); or, when it is illegal, ``(code,
        detail)``: the first rule it breaks as a negative ILLEGAL_* code and
        three ints that say where (see ILLEGAL_CODES; python/ginnyo/illegal.py
        words them).  ValueError when the three are not as long or a value is
        no int of C's short (squares) or signed char (cards)."""
        cdef PlayRecord record
        cdef unsigned char joker
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int melds[MELD_FIELDS * MELDS_BUFFER + 1]
        cdef int n, i, result
        squares, cards, jokers = tuple(squares), tuple(cards), tuple(jokers)   # indexing is unchecked here
        n = len(squares)
        if len(cards) != n or len(jokers) != n:
            raise ValueError("squares, cards and jokers must be as long")
        if n < 1 or n > MAX_PLACED:
            return ILLEGAL_COUNT, (n, 0, 0)
        record.n = n
        record.jokers = 0
        record.joker_at = 0
        try:
            for i in range(n):
                record.square[i] = squares[i]
                record.card[i] = cards[i]
                joker = 1 if jokers[i] else 0
                joker_array[i] = joker
                record.jokers += joker
                record.joker_at |= joker << i
        except (TypeError, OverflowError) as error:
            raise ValueError(f"squares or cards: {error}") from None
        claim(self)
        try:
            result = board_score(self.board, n, record.square, record.card, joker_array, melds, MELDS_BUFFER)
            if result < 0:
                return result, (melds[0], melds[1], melds[2])
            _sort_melds(melds)
            record.score = result
            if make is None:
                return (result, _placements(&record), _meld_tuples(melds)), None
            return make._build(&record, melds, self.board.width, None), None
        finally:
            release(self)

    def apply(self, squares, cards, jokers):
        """Play a legal play: its tiles leave the rack for the board, and only the
        lines through them are brought up to date.  Returns the score; raises
        ValueError (with the core's code) when the play is illegal."""
        cdef short square_array[MAX_PLACED]
        cdef signed char card_array[MAX_PLACED]
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int n = len(squares), i, result
        if n < 1 or n > MAX_PLACED or len(cards) != n or len(jokers) != n:
            raise ValueError(f"illegal play (code {ILLEGAL_SHAPE})")
        for i in range(n):
            square_array[i] = squares[i]
            card_array[i] = cards[i]
            joker_array[i] = 1 if jokers[i] else 0
        played = (tuple(squares), tuple(cards), tuple(bool(j) for j in jokers))
        claim(self)
        try:
            result = board_score(self.board, n, square_array, card_array, joker_array, NULL, 0)
            if result >= 0:
                self.history.append(played)
                board_place(self.board, n, square_array, card_array, joker_array, 0)
                self.stored = 0
                for i in range(n):
                    self.board.rack[JOKER if joker_array[i] else card_array[i]] -= 1
                self.board.rack_size -= n
        finally:
            release(self)
        if result < 0:
            raise ValueError(f"illegal play (code {result})")
        return result

    def undo(self):
        """Take back the last applied play: its tiles return to the rack."""
        cdef short square_array[MAX_PLACED]
        cdef signed char card_array[MAX_PLACED]
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int n, i
        if not self.history:
            raise ValueError("nothing to undo")
        last = len(self.history) - 1     # (no negative indices: wraparound is off)
        squares, cards, jokers = self.history[last]     # apply converted them once: they convert
        n = len(squares)
        for i in range(n):
            square_array[i] = squares[i]
            card_array[i] = cards[i]
            joker_array[i] = jokers[i]
        claim(self)
        del self.history[last]
        for i in range(n):
            self.board.rack[JOKER if joker_array[i] else card_array[i]] += 1
        self.board.rack_size += n
        board_place(self.board, n, square_array, card_array, joker_array, 1)
        self.stored = 0
        release(self)

    def state(self):
        """What generation reads (for tests of apply/undo): as bytes the cards,
        jokers, anchors, rack and cross lengths; the cross masks of squares that
        have one; and the list of live anchors, each as (square, row, column,
        fit, and its limit and the free squares before it across, then down),
        by square."""
        claim(self)     # making the objects may run other threads (a collection's finalisers)
        try:
            return self._state()
        finally:
            release(self)

    cdef tuple _state(self):
        cdef int direction, a
        cdef Anchor* anchor
        parts = [bytes([<unsigned char>self.board.card[s] for s in range(self.board.size)]),
                 bytes([self.board.joker[s] for s in range(self.board.size)]),
                 bytes([(self.board.row_anchor[s // self.board.width] >> (s % self.board.width)) & 1
                        for s in range(self.board.size)]),
                 bytes([self.board.rack[s] for s in range(RACK_KINDS)])]
        for direction in range(2):
            parts.append(bytes([self.board.squares[s].cross_len[direction] for s in range(self.board.size)]))
        masks = self._cross_masks()
        anchors = []
        for a in range(self.board.n_anchors):
            anchor = &self.board.anchors[a]
            anchors.append((anchor.row * self.board.width + anchor.col, anchor.row, anchor.col, anchor.fit,
                            anchor.limit[ACROSS], anchor.free[ACROSS], anchor.limit[DOWN], anchor.free[DOWN]))
        return b"".join(parts), masks, sorted(anchors)

    @property
    def nbytes(self):
        """Memory the board and rack take in C."""
        return self.board.bytes

    @property
    def cross_masks(self):
        """Per direction, the cross-check mask of every square (for tests)."""
        claim(self)
        try:
            return self._cross_masks()
        finally:
            release(self)

    cdef list _cross_masks(self):
        return [[0 if self.board.card[s] != EMPTY else ALL_CARDS if self.board.squares[s].cross_len[d] == 1
                 else self.board.squares[s].cross_mask[d] for s in range(self.board.size)] for d in range(2)]


def _positive_count(value, name):
    """``value`` as a count of at least 1, or ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


cdef class RankedPlays:
    """The legal plays of a core's position in ranking order (``Core.ranked_plays``),
    each ``(score, placements)`` as ``legal_plays`` gives them (with ``melds``
    or ``make``, as ``legal_plays`` then gives them).

    Plays are generated in passes that each keep, in a heap in C, the first
    ``buffer`` plays ranked after the last one given: memory stays O(buffer)
    however many plays there are, and a pass stops early on what cannot rank
    high enough.  The iterator works on its own copy of the board, so later
    loads, applies and undos of the core do not reach it."""

    cdef Board* board
    cdef Top top
    cdef size_t buffer
    cdef size_t index           # the next play of this pass to give
    cdef long long remaining    # plays still to give, -1 for every one
    cdef bint passed            # a pass has run: top.heap ends with the last play given
    cdef bint last_pass         # the pass kept fewer plays than it could: there are no more
    cdef bint busy              # a pass is running (without the GIL), or a play is being handed back
    cdef bint melds
    cdef PlayMaker make
    cdef dict shared            # the melds built this pass (see PlayMaker._meld)

    def __cinit__(self, Core core not None, limit, buffer, melds=False, PlayMaker make=None):
        self.melds = melds
        self.make = make
        self.board = NULL
        self.top.heap = NULL
        self.top.size = 0
        self.top.capacity = 0
        self.top.has_after = 0
        self.remaining = -1
        if limit is not None:
            self.remaining = min(_positive_count(limit, "limit"), 1 << 62)
        self.buffer = min(_positive_count(buffer, "buffer"), 1 << 40)
        claim(core)     # not while another thread changes the core's board
        self.board = board_clone(core.board)
        release(core)
        if self.board == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.board)
        free(self.top.heap)

    def __iter__(self):
        return self

    def __next__(self):
        cdef PlayRecord* record
        if self.busy:
            raise ValueError("these ranked plays are being generated in another thread")
        if self.remaining == 0:
            raise StopIteration
        if self.index == self.top.size:
            if self.last_pass:
                raise StopIteration
            self._pass()
            if self.top.size == 0:
                raise StopIteration
        record = &self.top.heap[self.index]
        self.index += 1
        if self.remaining > 0:
            self.remaining -= 1
        self.busy = True    # the melds are scored on self.board
        try:
            return _hand_back(self.board, record, self.melds, self.make, self.shared)
        finally:
            self.busy = False

    cdef int _pass(self) except -1:
        """Generate the next plays in ranking order into the heap, sorted."""
        cdef long long count
        if self.passed:
            self.top.after = self.top.heap[self.top.size - 1]
            self.top.has_after = 1
        self.top.size = 0
        self.shared = {} if self.make is not None else None
        self.top.limit = self.buffer
        if 0 < self.remaining < <long long>self.buffer:
            self.top.limit = <size_t>self.remaining
        self.busy = True
        with nogil:
            count = _generate_on(self.board, GEN_TOP, NULL, NULL, NULL, &self.top)
            if count >= 0:
                _heap_sort(&self.top)
        self.busy = False
        self.index = 0
        if count < 0:
            self.top.size = 0
            self.last_pass = True
            raise MemoryError("the ranked plays did not fit in memory")
        self.passed = self.top.size > 0
        self.last_pass = self.top.size < self.top.limit
        return 0


# -- many positions in one call ----------------------------------------------------

cdef inline void _load_row(Board* board, const unsigned char* row_cards, const unsigned char* row_rack) noexcept nogil:
    cdef int size = board.size
    memcpy(board.card, row_cards, size)             # EMPTY_SQUARE is EMPTY (-1) as a signed char
    memcpy(board.joker, row_cards + size, size)     # nonzero: a joker
    memcpy(board.rack, row_rack, RACK_KINDS)


cdef void _write_melds(Board* board, const PlayRecord* play, int* out) noexcept nogil:
    """The melds of a legal stored play into ``out``: MAX_MELDS rows of
    MELD_FIELDS (as ``score_play`` gives them, in order), the rows after the
    last filled with -1."""
    cdef int melds[MELD_FIELDS * MELDS_BUFFER + 1]
    cdef int i, n = 0
    for i in range(MAX_MELDS * MELD_FIELDS):
        out[i] = -1
    if _melds_of(board, play, melds) >= 0:
        n = min(_meld_count(melds), MAX_MELDS)
        memcpy(out, melds, n * MELD_FIELDS * sizeof(int))


cdef inline double _now() noexcept nogil:
    cdef timespec clock
    clock_gettime(CLOCK_MONOTONIC, &clock)
    return clock.tv_sec + clock.tv_nsec * 1e-9


def best_plays_batch(Core layout not None, const unsigned char[:, ::1] boards not None,
                     const unsigned char[:, ::1] racks not None, int[:] scores not None,
                     short[:, :] squares not None, signed char[:, :] cards not None,
                     unsigned char[:, :] jokers not None, threads=1, double[:] seconds=None,
                     int[:, :, ::1] melds=None):
    """Solve many positions of one layout; ``layout`` is a Core of that layout.

    ``boards`` holds a row per position: the cards of every square (255 empty)
    then the joker flags; ``racks`` 53 counts a row.  Each row's best play goes
    to ``scores`` (-1 when there is none; the placed count is the number of
    ``squares`` entries that are not -1), ``squares``, ``cards`` and ``jokers``
    (14 columns each).  ``threads`` > 1 spreads the rows over that many cores
    (at most one thread a processor is started).  With ``seconds``, each row's
    time (load, prepare and search) goes there.  With ``melds`` (int32, shape
    (n, MAX_MELDS, 5)), each row's best play's melds go there, as ``score_play``
    gives them in order, the rows after the last -1.  ``layout`` is in use for
    the length of the call.
    """
    cdef Py_ssize_t n = boards.shape[0], row
    cdef int i, size = layout.board.size, bad, workers = thread_count(threads)
    cdef const unsigned char* cells
    cdef Board* local
    cdef PlayRecord* best
    cdef long long found
    cdef int timed = seconds is not None, with_melds = melds is not None
    cdef double started = 0
    if timed and seconds.shape[0] < n:
        raise ValueError("seconds is too small")
    if with_melds and (melds.shape[0] < n or melds.shape[1] != MAX_MELDS or melds.shape[2] != MELD_FIELDS):
        raise ValueError(f"melds must be (n, {MAX_MELDS}, {MELD_FIELDS})")
    if boards.shape[1] != 2 * size or racks.shape[0] != n or racks.shape[1] != RACK_KINDS:
        raise ValueError("boards must be (n, 2 x squares) and racks (n, 53)")
    if scores.shape[0] < n or squares.shape[0] < n or cards.shape[0] < n or jokers.shape[0] < n \
            or squares.shape[1] < MAX_PLACED or cards.shape[1] < MAX_PLACED or jokers.shape[1] < MAX_PLACED:
        raise ValueError("output arrays are too small")
    for row in range(n):
        cells = &boards[row, 0]
        bad = 0
        for i in range(size):       # no early exit, so the compiler can vectorise it
            bad |= (cells[i] >= NUM_CARDS) & (cells[i] != EMPTY_SQUARE)
        if bad:
            for i in range(size):
                if cells[i] != EMPTY_SQUARE and cells[i] >= NUM_CARDS:
                    raise ValueError(f"row {row}: card {cells[i]} on square {i}")
    claim(layout)
    with nogil, parallel(num_threads=workers):
        # assigned in the parallel block, so private to each thread
        local = board_clone(layout.board)
        best = <PlayRecord*>malloc(sizeof(PlayRecord))
        for row in prange(n, schedule="dynamic", chunksize=64):
            if local == NULL or best == NULL:
                scores[row] = -2
                continue
            if timed:
                started = _now()
            _load_row(local, &boards[row, 0], &racks[row, 0])
            board_prepare(local)
            found = board_generate(local, GEN_BEST, best, NULL, NULL)
            if timed:
                seconds[row] = _now() - started
            for i in range(MAX_PLACED):
                squares[row, i] = -1
            if found == 0:
                scores[row] = -1
                continue
            scores[row] = best.score
            for i in range(best.n):
                squares[row, i] = best.square[i]
                cards[row, i] = best.card[i]
                jokers[row, i] = play_joker(best, i)
            if with_melds:
                _write_melds(local, best, &melds[row, 0, 0])
        free(local)
        free(best)
    release(layout)


cdef class Cores:
    """Many loaded cores, their plays generated or counted in one call, on one
    thread or several: what ``Core.generate_plays`` and ``Core.count_plays`` do
    for one core, without a Python call a core.  Each core keeps its plays in
    its own C array, as ``generate_plays`` leaves them.  A core may be listed
    only once (two threads would write its plays at once); a call refuses
    (RuntimeError) while another thread's call has one of the cores, and holds
    them all until it returns.  ``threads`` is at most one a processor.
    ``Cores(cores)`` keeps the cores alive.
    """
    cdef list cores
    cdef Board** boards
    cdef PlayRecord*** plays
    cdef size_t** capacities
    cdef long long** stored
    cdef Py_ssize_t n

    def __cinit__(self, cores):
        cdef Core core
        cdef Py_ssize_t i
        self.boards = NULL
        self.plays = NULL
        self.capacities = NULL
        self.stored = NULL
        self.cores = list(cores)
        self.n = len(self.cores)
        first = {}
        for i in range(self.n):
            if not isinstance(self.cores[i], Core):
                raise TypeError(f"cores[{i}] is a {type(self.cores[i]).__name__}, not a Core")
            if first.setdefault(id(self.cores[i]), i) != i:
                raise ValueError(f"cores[{i}] is cores[{first[id(self.cores[i])]}] again: "
                                 "a core may be listed only once")
        self.boards = <Board**>malloc(max(self.n, 1) * sizeof(Board*))
        self.plays = <PlayRecord***>malloc(max(self.n, 1) * sizeof(PlayRecord**))
        self.capacities = <size_t**>malloc(max(self.n, 1) * sizeof(size_t*))
        self.stored = <long long**>malloc(max(self.n, 1) * sizeof(long long*))
        if self.boards == NULL or self.plays == NULL or self.capacities == NULL or self.stored == NULL:
            raise MemoryError()
        for i in range(self.n):
            core = self.cores[i]
            self.boards[i] = core.board
            self.plays[i] = &core.plays
            self.capacities[i] = &core.capacity
            self.stored[i] = &core.stored

    def __dealloc__(self):
        free(self.boards)
        free(self.plays)
        free(self.capacities)
        free(self.stored)

    def __len__(self):
        return self.n

    cdef inline long long _generate_one(self, Py_ssize_t i, int mode) noexcept nogil:
        if mode == GEN_ALL:
            return board_generate(self.boards[i], GEN_ALL, NULL, self.plays[i], self.capacities[i])
        return board_generate(self.boards[i], mode, NULL, NULL, NULL)

    cdef object _run(self, int mode, object threads):
        """``board_generate`` in ``mode`` on every core: the counts, as an int64 array."""
        import numpy
        cdef Py_ssize_t i, n = self.n, claimed = 0
        cdef long long[::1] counts
        cdef int workers = thread_count(threads)
        result = numpy.empty(n, dtype=numpy.int64)
        counts = result
        try:
            while claimed < n:
                claim(<Core>self.cores[claimed])
                claimed += 1
        finally:
            if claimed < n:     # one was in use: let go of those taken
                for i in range(claimed):
                    release(<Core>self.cores[i])
        with nogil:
            if workers == 1:
                for i in range(n):
                    counts[i] = self._generate_one(i, mode)
            else:
                for i in prange(n, schedule="dynamic", chunksize=16, num_threads=workers):
                    counts[i] = self._generate_one(i, mode)
            if mode == GEN_ALL:
                for i in range(n):
                    self.stored[i][0] = max(counts[i], 0)
        for i in range(n):
            release(<Core>self.cores[i])
        for i in range(n):
            if counts[i] < 0:
                raise MemoryError(f"the plays of cores[{i}] did not fit in memory")
        return result

    def count_plays(self, threads=1):
        """How many legal plays each core has (nothing is stored), as an int64 array."""
        return self._run(GEN_COUNT, threads)

    def generate_plays(self, threads=1):
        """Generate every legal play of every core, with its score, into that
        core's own C array; how many each has, as an int64 array."""
        return self._run(GEN_ALL, threads)
