# Move generation: the walk from each live anchor along its line.
# Included in core.pyx.

cdef inline int _take_left_tiles(LineWalk* line, const signed char* cards, int start, int step, int x,
                                 Feasible* right) noexcept nogil:
    """The tiles standing just left of the anchor at ``x`` join the line: their
    squares go to ``line.line_square``, their cards to ``right``.  How many."""
    cdef int low_fixed = 0, square
    while x - low_fixed - 1 >= 0 and cards[start + (x - low_fixed - 1) * step] != EMPTY:
        low_fixed += 1
        square = start + (x - low_fixed) * step
        line.line_square[BASE - low_fixed] = square
        _feasible_add_left_card(right, low_fixed, cards[square])
    return low_fixed


cdef inline bint _same_area(int group, int* touched_group) noexcept nogil:
    """Whether a play touching area ``group`` still touches one area only (the
    first it touches is kept in ``touched_group``, -1 until then)."""
    if touched_group[0] < 0:
        touched_group[0] = group
        return True
    return group == touched_group[0]


cdef inline void _add_bounds(Feasible* right, const Square* square, int direction, uint64_t allowed) noexcept nogil:
    """Best and top modes: the highest values the cards ``allowed`` may score on
    ``square``, in the main line as a set or a run and in the line across it."""
    cdef int tile_mult = square.tile_mult
    cdef unsigned int ranks = ranks_of(allowed)
    right.set_bound += SET_MAX[ranks] * tile_mult
    right.run_bound += RUN_MAX[ranks] * tile_mult
    if square.cross_len[direction] >= MIN_MELD:
        right.cross_bound += tile_mult * square.meld_mult * (
            SET_MAX[ranks] if square.cross_kind[direction] == KIND_SET else RUN_MAX[ranks])


cdef inline bint _take_right_tiles(LineWalk* line, const signed char* cards, int start, int step, int line_length,
                                   int x, int low_fixed, int* high, Feasible* whole) noexcept nogil:
    """The tiles standing just right of the placed square ``high[0]`` join the
    line (their cards go to ``whole``, the last square to ``high[0]``); False
    when the line would be longer than any meld."""
    while high[0] + 1 < line_length and cards[start + (high[0] + 1) * step] != EMPTY \
            and low_fixed + high[0] + 1 - x < MAX_RUN:
        high[0] += 1
        line.line_square[BASE + high[0] - x] = start + high[0] * step
        _feasible_add_card(whole, cards[start + high[0] * step])
    return not (high[0] + 1 < line_length and cards[start + (high[0] + 1) * step] != EMPTY)


cdef inline bint _narrow_to_start(const RackTables* rack, Feasible* line_state, int m, int placed) noexcept nogil:
    """Narrow ``line_state`` by ``m`` free squares left of the anchor and the
    rack's supply for ``placed`` tiles; whether some meld is left."""
    line_state.up &= rack.free_left[m].up & rack.run_lanes_for[placed]
    line_state.down &= rack.free_left[m].down & rack.run_lanes_for[placed]
    line_state.set_ranks &= rack.free_left[m].set_ranks & rack.set_ranks_for[placed]
    return _feasible_any(line_state)


cdef inline int _fill_free_squares(LineWalk* line, const Square* squares, int start, int step, int x,
                                   int filled, int m, uint64_t available, int* left_tile_mult,
                                   int* left_meld_mult) noexcept nogil:
    """The free squares left of the anchor from ``filled`` + 1 to ``m`` join
    the line arrays (squares, cards allowed, placed indexes), and the sums of
    their multipliers; returns ``m``."""
    cdef int left_square
    while filled < m:
        filled += 1
        left_square = start + (x - filled) * step
        line.line_square[BASE - filled] = left_square
        line.allowed[BASE - filled] = available
        line.placed_all[MAX_PLACED - filled] = BASE - filled
        left_tile_mult[filled] = left_tile_mult[filled - 1] + squares[left_square].tile_mult
        left_meld_mult[filled] = left_meld_mult[filled - 1] * squares[left_square].meld_mult
    return filled


cdef inline bint _below_floor(const Gen* gen, const Feasible* whole, Feasible* line_state, int length,
                              int left_tile_mult, int meld_mult) noexcept nogil:
    """Best and top modes: whether no meld of the line can score the floor, by
    the bounds of its squares right of the start (``whole``) and of the free
    squares left of the anchor (``left_tile_mult``)."""
    cdef int set_bound, run_bound, main_bound = 0
    if gen.out.floor == NO_FLOOR:      # set only where the bounds are kept
        return False
    set_bound = whole.set_bound + SET_MAX[gen.rack.free_ranks] * left_tile_mult
    run_bound = whole.run_bound + RUN_MAX[gen.rack.free_ranks] * left_tile_mult
    if length <= MAX_SET and line_state.set_ranks:
        main_bound = set_bound
    if _feasible_runs(line_state) and run_bound > main_bound:
        main_bound = run_bound
    return main_bound * meld_mult + whole.cross_bound < gen.out.floor


cdef inline void _enumerate_from(Gen* gen, Feasible* line_state, int start_index, int length, int placed,
                                 int m, int main_mult) noexcept nogil:
    """Enumerate the melds of the line that starts ``start_index`` squares
    left of the anchor, ``m`` of them free, with ``placed`` tiles placed."""
    # from the anchor's positions to the first square's
    line_state.up = _lanes_down(line_state.up, start_index)
    line_state.down = _lanes_up(line_state.down, start_index)
    gen.line.origin = BASE - start_index
    gen.line.length = length
    gen.line.k = placed
    gen.line.main_mult = main_mult
    gen.line.placed_index = &gen.line.placed_all[MAX_PLACED - m]
    _enumerate_line(gen, line_state)


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
    cdef int touched_group, touch, red, centre, k, right_touch, high, length, main_mult, free_filled
    cdef int left_tile_mult[MAX_PLACED + 1]
    cdef int left_meld_mult[MAX_PLACED + 1]
    cdef uint64_t allowed
    cdef Feasible right, whole, line_state
    # in locals: the compiler cannot keep fields read through a pointer across
    # the stores to gen's int arrays, which might alias them
    cdef const Square* squares = board.squares
    cdef const signed char* cards = board.card
    cdef int rack_size = board.rack_size, n_tiles = board.n_tiles, centre_square = board.centre
    cdef uint64_t available = gen.rack.available
    cdef bint best_mode = gen.out.bounded
    gen.line.direction = direction
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
        low_fixed = _take_left_tiles(&gen.line, cards, start, step, x, &right)
        if low_fixed >= MAX_RUN:
            return
        touched_group = squares[start + (x - 1) * step].group
        touch = 1
    else:
        # the empty squares just left of x that are no anchors (filled in below when used)
        free_max = min(free_before, max(rack_size - 1, 0))
    free_filled = 0
    red = 0
    centre = 0
    k = 0
    main_mult = 1
    square = start + (x - 1) * step
    for b in range(x, min(line_length, x + MAX_RUN - low_fixed)):     # no longer than a run
        i = b - x
        square += step
        gen.line.line_square[BASE + i] = square
        if cards[square] != EMPTY:
            touch = 1
            if not _same_area(squares[square].group, &touched_group):
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
            touch = 1
            if not _same_area(squares[square].cross_group[direction], &touched_group):
                break
        if b == x:
            allowed = anchor_cards
        if allowed == available:
            _feasible_add_lanes(&right, gen.rack.free_lanes, gen.rack.free_ranks)
        else:
            _feasible_add(&right, allowed)
        gen.line.allowed[BASE + i] = allowed
        if not _feasible_any(&right):
            break
        if best_mode:
            _add_bounds(&right, &squares[square], direction, allowed)
        red |= squares[square].red
        centre |= square == centre_square
        main_mult *= squares[square].meld_mult
        gen.line.placed_all[MAX_PLACED + k] = BASE + i
        k += 1
        right.set_ranks &= gen.rack.set_ranks_for[k]
        right.up &= gen.rack.run_lanes_for[k]
        right.down &= gen.rack.run_lanes_for[k]
        if not _feasible_any(&right):
            break
        # the tiles just right of b belong to the line too
        whole = right
        high = b
        right_touch = touch
        if b + 1 < line_length and cards[square + step] != EMPTY:
            right_touch = 1
            if touched_group >= 0 and squares[square + step].group != touched_group:
                continue
            if not _take_right_tiles(&gen.line, cards, start, step, line_length, x, low_fixed, &high, &whole):
                break       # the line would be longer than any meld
        if n_tiles == 0:
            if not centre:
                continue
        elif not right_touch and not red:
            continue
        # m from m_first to m_last: within the rack, no longer than a meld and at
        # least three long; a lone tile with a row neighbour is found across
        length = low_fixed + high - x + 1
        m_first = max(MIN_MELD - length, 0)
        if m_first == 0 and k == 1 and direction == DOWN and squares[square].cross_len[DOWN] > 1:
            m_first = 1
        m_last = min(free_max, rack_size - k, MAX_RUN - length)
        for m in range(m_first, m_last + 1):
            length = low_fixed + m + high - x + 1
            line_state = whole
            line_state.length = length
            if not _narrow_to_start(&gen.rack, &line_state, m, k + m):
                break       # more squares to the left only narrow it further
            free_filled = _fill_free_squares(&gen.line, squares, start, step, x, free_filled, m, available,
                                             left_tile_mult, left_meld_mult)
            if _below_floor(gen, &whole, &line_state, length, left_tile_mult[m], main_mult * left_meld_mult[m]):
                continue
            _enumerate_from(gen, &line_state, low_fixed + m, length, k + m, m, main_mult * left_meld_mult[m])
            if gen.out.done:
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
    cdef uint64_t cards, across, down, available = gen.rack.available
    # no branch until some card can go on the anchor: a branch a direction was
    # mispredicted about once an anchor
    while anchor < end:
        cards = anchor.fit & available
        across = cards & gen.rack.limit_of[anchor.limit[ACROSS]]
        down = cards & gen.rack.limit_of[anchor.limit[DOWN]]
        if across | down:
            if across:
                _walk_anchor(gen, ACROSS, anchor.row, anchor.col, anchor.free[ACROSS], across)
                if gen.out.done:
                    return
            if down:
                _walk_anchor(gen, DOWN, anchor.col, anchor.row, anchor.free[DOWN], down)
                if gen.out.done:
                    return
        anchor += 1


cdef long long board_generate(Board* board, int mode, PlayRecord* best,
                              PlayRecord** plays, size_t* capacity) noexcept nogil:
    """Generate every legal play: count them, keep the best in ``best``, store
    all in ``plays[0]`` (grown with realloc), or stop at the first.  Returns how
    many there are (in best and any mode: how many were scored, which is 0 only
    when there is none), or -1 when the plays did not fit in memory."""
    return _generate_on(board, mode, best, plays, capacity, NULL)


cdef inline void _prefetch(const Board* board, int mode, PlayRecord** plays, size_t* capacity) noexcept nogil:
    """Ask for the lines generation reads in order, and for the first lines of
    the plays it writes: with many positions they are out of the nearest
    caches, and the per-rack setup runs while they arrive."""
    cdef int i
    cdef const char* block = <const char*>board.anchors
    for i in range(0, board.n_anchors * <int>sizeof(Anchor), 64):
        __builtin_prefetch(block + i)
    for i in range(0, board.size, 64):
        __builtin_prefetch(board.card + i)
    if mode == GEN_ALL and plays[0] != NULL:
        block = <const char*>plays[0]
        for i in range(0, min(<int>capacity[0], 8) * <int>sizeof(PlayRecord), 64):
            __builtin_prefetch(block + i, 1)


cdef inline void _start_output(Output* out, int mode, PlayRecord* best, PlayRecord** plays, size_t* capacity,
                               Top* top) noexcept nogil:
    """A generation call's Output: nothing found yet, no floor."""
    out.mode = mode
    out.best = best
    out.have_best = 0
    out.floor = NO_FLOOR
    out.top = top
    out.bounded = mode == GEN_BEST or mode == GEN_TOP
    out.plays = plays
    out.capacity = capacity
    out.count = 0
    out.done = 0
    out.failed = 0
    out.store_limit = 0


cdef long long _generate_on(Board* board, int mode, PlayRecord* best,
                            PlayRecord** plays, size_t* capacity, Top* top,
                            size_t store_limit=0) noexcept nogil:
    """board_generate, and in GEN_TOP mode the first plays in ranking order
    into ``top`` (see Top), how many were scored (-OUT_OF_MEMORY: out of
    memory); in GEN_ALL mode with a ``store_limit``, -OVER_LIMIT when there
    are more plays than that (generation stops at the first one over)."""
    cdef Gen gen
    cdef size_t usable      # with a store limit: the array's room up to the limit
    _prefetch(board, mode, plays, capacity)
    gen.board = board
    _start_output(&gen.out, mode, best, plays, capacity, top)
    if store_limit and mode == GEN_ALL:
        usable = min(capacity[0], store_limit)
        gen.out.capacity = &usable
        gen.out.store_limit = store_limit
    _load_rack(&gen.rack, board)
    _generate_anchors(&gen)
    if store_limit and mode == GEN_ALL and usable > capacity[0]:
        capacity[0] = usable    # grown (never shrunk: it grows only past the array's room)
    return -gen.out.failed if gen.out.failed else gen.out.count
