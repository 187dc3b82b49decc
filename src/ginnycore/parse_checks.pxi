# The board's checks of ginnycore.parse, as ginnyo.position makes them: tile
# copies, the centre, every line a meld (the core's line_kind), every tile in
# one, every group on a start square.  Included in parse.pyx.

# -- the board's rules -------------------------------------------------------------------------

cdef class _Geometry:
    """What the checks need of a layout: its size, centre and start squares."""
    cdef object layout
    cdef int width, height, size, centre
    cdef unsigned char start[MAX_SQUARES]       # 1 on the centre and the red squares

    def __cinit__(self, layout):
        cdef int square
        self.layout = layout
        self.width, self.height = layout.width, layout.height
        self.size = self.width * self.height
        _, _, red, centre = layout.core_premiums
        self.centre = centre
        for square in range(self.size):
            self.start[square] = red[square] != 0 or square == centre


cdef int _legal(const Parsed* p, int width, int height, int centre, const unsigned char* start) noexcept nogil:
    """1 when the board and rack break none of ginnyo.position's checks (tile
    copies, the centre, every line a meld, every tile in one, every group on a
    start square), else 0; ``start`` flags the centre and the red squares."""
    cdef int counts[RACK_KINDS]
    cdef unsigned char in_meld[MAX_SQUARES]
    cdef unsigned char seen[MAX_SQUARES]
    cdef short stack[MAX_SQUARES]
    cdef signed char line[MAX_SQUARES]
    cdef int i, square, tile, direction, outer, inner, first, length, step, top, found, row, col
    cdef int size = width * height
    for tile in range(RACK_KINDS):
        counts[tile] = p.rack[tile]
    for i in range(p.n_board):
        square = p.order[i]
        counts[JOKER if p.joker[square] else p.card[square]] += 1
    for tile in range(NUM_CARDS):
        if counts[tile] > p.sets:
            return 0
    if counts[JOKER] > JOKERS_PER_SET * p.sets:
        return 0
    if p.n_board == 0:
        return 1
    if p.card[centre] == EMPTY_BYTE:
        return 0
    memset(in_meld, 0, size)
    for direction in range(2):          # rows, then columns: every maximal line of two or more
        for outer in range(height if direction == 0 else width):
            inner = 0
            while inner < (width if direction == 0 else height):
                square = outer * width + inner if direction == 0 else inner * width + outer
                if p.card[square] == EMPTY_BYTE:
                    inner += 1
                    continue
                first, length = square, 0
                step = 1 if direction == 0 else width
                while inner < (width if direction == 0 else height) and p.card[square] != EMPTY_BYTE:
                    line[length] = <signed char>p.card[square]
                    length += 1
                    inner += 1
                    square += step
                if length >= 2:
                    if line_kind(line, length) == KIND_NONE:
                        return 0
                    for i in range(length):
                        in_meld[first + i * step] = 1
    for i in range(p.n_board):
        if not in_meld[p.order[i]]:
            return 0
    memset(seen, 0, size)
    for i in range(p.n_board):
        if seen[p.order[i]]:
            continue
        top, found = 0, 0
        stack[top] = p.order[i]
        top += 1
        seen[p.order[i]] = 1
        while top:
            top -= 1
            square = stack[top]
            found |= start[square]
            row, col = square // width, square % width
            for tile in range(4):       # the four neighbours
                if tile == 0 and row > 0:
                    outer = square - width
                elif tile == 1 and row < height - 1:
                    outer = square + width
                elif tile == 2 and col > 0:
                    outer = square - 1
                elif tile == 3 and col < width - 1:
                    outer = square + 1
                else:
                    continue
                if p.card[outer] != EMPTY_BYTE and not seen[outer]:
                    seen[outer] = 1
                    stack[top] = outer
                    top += 1
        if not found:
            return 0
    return 1


cdef inline int _place(Parsed* p, int square, int tile) noexcept nogil:
    """Put a parsed tile (card * 2 + is_joker) on ``square``: 0 when the square is taken."""
    if p.card[square] != EMPTY_BYTE:
        return 0
    p.card[square] = tile >> 1
    p.joker[square] = tile & 1
    p.order[p.n_board] = square
    p.n_board += 1
    return 1


cdef int _square(const unsigned char* name, Py_ssize_t n, int width, int height) noexcept nogil:
    """A square name as ``Layout.parse_square`` reads it, or -1."""
    cdef int row = 0, col
    cdef Py_ssize_t i
    if n < 2 or n > 4 or not _letter(name[0]) or name[1] == DIGIT_0:
        return -1
    for i in range(1, n):
        if not _digit(name[i]):
            return -1
        row = row * 10 + name[i] - 48
    col = _upper(name[0]) - 65
    row -= 1
    if col >= width or row >= height:
        return -1
    return row * width + col
