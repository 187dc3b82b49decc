# Board preparation: bitboards, groups, cross-checks and the list of anchors.
# Included in core.pyx.

cdef enum:
    FLAT_WORDS = 12             # 64-square words for MAX_SQUARES (676), and one spare


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
    cdef unsigned int up = POSITIONS, down = POSITIONS, positions, ranks = 0, suits = 0
    cdef uint64_t mask = 0
    for i in range(length):
        if i == hole:
            continue
        card = board.card[first + i * step]
        ranks |= 1u << (card % RANKS)
        suits |= 1u << (card // RANKS)
        positions = RANK_POSITION[card]
        up &= positions >> i
        down &= positions << i
    if length <= MAX_SET and __builtin_popcount(ranks) == 1 and __builtin_popcount(suits) == length - 1:
        # a set: one rank, every suit different; the hole takes a missing suit
        rank_index = __builtin_ctz(ranks)
        for suit in range(SUITS):
            if not suits & (1u << suit):
                mask |= <uint64_t>1 << (suit * RANKS + rank_index)
        kind[0] = KIND_SET
        return mask
    if __builtin_popcount(suits) != 1:
        return 0
    suit = __builtin_ctz(suits)
    # the hole's rank positions: first + hole for runs up, first - hole for runs down
    positions = (((up << hole) | (down >> hole)) & POSITIONS)
    kind[0] = KIND_RUN
    return position_cards(positions, suit)


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
    count_before = ones_below(word, position)
    count_after = ones_above(word, position)
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
            flat[i >> 6] |= <uint64_t>nonzero_bytes(~word) << (i & 63)
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
    entry.free[direction] = ones_below(~(word | anchors), position)
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
