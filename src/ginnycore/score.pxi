# Scoring a given play: the checks of docs/RULES.md §4 and the score of §5,
# apart from generation.  Included in core.pyx.

cdef enum:
    # board_score's verdict on an illegal play, checked in this order, and the
    # detail it writes to ``melds[0..]`` (python/ginnyo/vocab/illegal.py words them)
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
