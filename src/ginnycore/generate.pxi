# Move generation: the walk from each live anchor along its line.
# Included in core.pyx.

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
            ranks = ranks_of(allowed)
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
        m_first = max(MIN_MELD - length, 0)
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
                if length <= MAX_SET and line_state.set_ranks:
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
            gen.available |= <uint64_t>nonzero_bytes(counts) << held
            held += 8
    while held < NUM_CARDS:
        gen.available |= <uint64_t>(board.rack[held] != 0) << held
        held += 1
    gen.rack_cards = gen.available
    gen.jokers = board.rack[JOKER]
    if board.rack[JOKER]:
        gen.available = ALL_CARDS
    gen.free_lanes = card_lanes(gen.available)
    rack_lanes = card_lanes(gen.rack_cards)
    gen.lacking_lanes = ~rack_lanes
    gen.free_ranks = ranks_of(gen.available)
    # the ranks (suits) whose real tiles and jokers can fill k squares of a set (run);
    # ranks_held[c]: the ranks the rack holds in c suits or more
    memset(lanes_by_supply, 0, sizeof(lanes_by_supply))
    for suit in range(4):
        suit_ranks[suit] = <unsigned int>(gen.rack_cards >> (RANKS * suit)) & RANK_MASK
        # rank positions, so an ace counts twice: an upper bound is enough here
        held = __builtin_popcount(rank_positions(gen.rack_cards, suit)) + gen.jokers
        lanes_by_supply[min(held, MAX_PLACED)] |= <uint64_t>LANE_MASK << (LANE_BITS * suit)
    ranks_held[0] = RANK_MASK
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
        near = (lanes_cards(((gen.free_lanes << 1) | (gen.free_lanes >> 1)) & ALL_LANES)
                | (every_suit(ranks_held[1]) & ~(gen.available & every_suit(ranks_held[1] & ~ranks_held[2]))))
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
