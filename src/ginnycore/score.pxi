# Scoring a given play: the checks of docs/RULES.md §4 and the score of §5,
# apart from generation.  Included in core.pyx.

cdef enum:
    ILLEGAL_SHAPE = -1      # placement breaks §4.1 (or squares off/occupied/repeated)
    ILLEGAL_RACK = -2       # the rack does not hold the tiles
    ILLEGAL_MELD = -3       # §4.2 / §4.3
    ILLEGAL_PLACE = -4      # §4.4
    ILLEGAL_AREAS = -5      # §4.5


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


cdef int board_score(Board* board, int n, const short* squares, const signed char* cards,
                     const unsigned char* jokers, int* melds, int max_melds) noexcept nogil:
    """Check a play against §4 and score it (§5) without changing the board.

    ``squares`` must be in increasing order.  Returns the score (>= 0) and
    writes up to ``max_melds`` melds as (direction, first square, length, kind,
    score) quintuples into ``melds``, ending with -1; or returns a negative
    ILLEGAL_* code.
    """
    cdef int i, j, square, width = board.width, direction, first, length, kind, total = 0
    cdef int n_melds = 0, tile_sum, mult, touched_group = -1, touch = 0, red = 0, centre = 0
    cdef int longest, step, other, row, col, result = 0, seen
    cdef int meld_first[2 * MAX_PLACED]
    cdef int meld_direction[2 * MAX_PLACED]
    cdef signed char line[MAX_SIDE]
    cdef unsigned char need[RACK_KINDS]
    if n < 1 or n > MAX_PLACED:
        return ILLEGAL_SHAPE
    memset(need, 0, RACK_KINDS)
    for i in range(n):
        square = squares[i]
        if square < 0 or square >= board.size or board.card[square] != EMPTY:
            return ILLEGAL_SHAPE
        if i > 0 and square <= squares[i - 1]:
            return ILLEGAL_SHAPE
        if cards[i] < 0 or cards[i] >= NUM_CARDS:
            return ILLEGAL_SHAPE
        need[JOKER if jokers[i] else cards[i]] += 1
    for i in range(RACK_KINDS):
        if need[i] > board.rack[i]:
            return ILLEGAL_RACK
    if n > 1:
        if squares[0] // width == squares[n - 1] // width:
            step = 1
        elif squares[0] % width == squares[n - 1] % width:
            step = width
        else:
            return ILLEGAL_SHAPE
        for i in range(1, n):
            if (squares[i] - squares[0]) % step != 0:
                return ILLEGAL_SHAPE
        square = squares[0]
        while square <= squares[n - 1]:
            if board.card[square] == EMPTY:
                seen = 0
                for i in range(n):
                    if squares[i] == square:
                        seen = 1
                if not seen:
                    return ILLEGAL_SHAPE
            square += step
    # §4.4 / §4.5 against the board before the play
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
                if touched_group < 0:
                    touched_group = board.squares[other].group
                elif board.squares[other].group != touched_group:
                    return ILLEGAL_AREAS
    if board.n_tiles == 0:
        if not centre:
            return ILLEGAL_PLACE
    elif not touch and not red:
        return ILLEGAL_PLACE
    # put the tiles down, check and score every line through them, take them up
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
                result = ILLEGAL_MELD
                break
            for j in range(length):
                line[j] = board.card[first + j * step]
            kind = line_kind(line, length)
            if kind == KIND_NONE:
                result = ILLEGAL_MELD
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
            result = ILLEGAL_MELD
            break
    for i in range(n):
        board.card[squares[i]] = EMPTY
    if result != 0:
        return result
    if melds != NULL and n_melds < max_melds:
        melds[5 * n_melds] = -1
    return total
