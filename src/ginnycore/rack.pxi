# Per-rack setup (MAGPIE's gen_load_position): the RackTables of a rack on a
# board, what it can lay next to a board tile or on its own, filled once a
# generation call before any anchor is walked.  Included in core.pyx.

cdef inline uint64_t _two_supplied(uint64_t held_a, uint64_t exist_a, uint64_t held_b, uint64_t exist_b,
                                   int jokers) noexcept nogil:
    """Bitwise over rank positions: can the rack supply a card at position a and
    another at position b (each a real tile or a joker)?"""
    if jokers >= 2:
        return exist_a & exist_b
    if jokers == 1:
        return exist_a & exist_b & (held_a | held_b)
    return held_a & held_b


cdef void _pair_tables(RackTables* rack, uint64_t held) noexcept nogil:
    """The cards (``pair_up``) of a board tile next to which the rack can lay the
    card one rank up and still have a third card for a run of three, the card one
    rank below or two above; ``pair_down`` the same for the card one rank down.
    ``held``: the rack's real tiles as rank-position lanes (card_lanes).  All
    four suits at once, in lanes by rank position p of the board tile (an ace
    at 1 and 14): shifting by one or two moves no used bit into another suit's
    used bits 1..14, and ``exist`` clears what lands outside them."""
    cdef uint64_t exist = ALL_LANES, up, down, both
    both = _two_supplied(held << 1, exist << 1, held >> 1, exist >> 1, rack.jokers)
    up = (_two_supplied(held >> 1, exist >> 1, held >> 2, exist >> 2, rack.jokers) | both) & exist
    down = (_two_supplied(held << 2, exist << 2, held << 1, exist << 1, rack.jokers) | both) & exist
    # as cards: an ace lays the 2 from position 1 and the king from 14
    rack.pair_up = lanes_cards(up)
    rack.pair_down = lanes_cards(down)


cdef void _meld_cards(RackTables* rack, uint64_t held) noexcept nogil:
    """``rack.meld_cards``: the cards the rack can lay in some meld of three made
    of its own tiles (each a real tile or a joker); ``held`` as in _pair_tables.
    Runs for all four suits at once, in rank-position lanes."""
    cdef unsigned int ranks = rack.set_ranks_for[MIN_MELD]
    cdef uint64_t a = held, b, c, starts
    cdef uint64_t cards = every_suit(ranks)
    b = a >> 1
    c = a >> 2          # bit w: the rack holds position w, w + 1, w + 2
    if rack.jokers >= 3:
        starts = LANE_STARTS
    elif rack.jokers == 2:
        starts = a | b | c
    elif rack.jokers == 1:
        starts = (a & b) | (a & c) | (b & c)
    else:
        starts = a & b & c
    starts &= LANE_STARTS    # runs of three start at positions 1 .. 12
    cards |= lanes_cards(starts | (starts << 1) | (starts << 2))
    rack.meld_cards = cards & rack.available


cdef inline uint64_t _pair_cards(const RackTables* rack, int card) noexcept nogil:
    """The cards the rack can lay next to a lone board tile ``card`` with a
    third card left for a meld of three (a set or a run)."""
    cdef uint64_t others = SAME_RANK[card], held = rack.rack_cards & others, in_set
    cdef uint64_t run = ((NEXT_UP[card] & -((rack.pair_up >> card) & 1))
                         | (NEXT_DOWN[card] & -((rack.pair_down >> card) & 1)))
    # a set: two more cards of the rank in other suits, real tiles or jokers
    # (without a branch: it would be mispredicted about once a rack)
    in_set = -<uint64_t>(__builtin_popcountll(held) + rack.jokers >= 2)
    return run | ((held | (others & -<uint64_t>(rack.jokers != 0))) & in_set)


cdef inline uint64_t _held_cards(const Board* board) noexcept nogil:
    """The cards of which the rack holds a real tile, eight counts at a time."""
    cdef uint64_t cards = 0, counts
    cdef int held = 0
    if LITTLE_ENDIAN:
        while held + 8 <= NUM_CARDS:
            memcpy(&counts, &board.rack[held], 8)
            cards |= <uint64_t>nonzero_bytes(counts) << held
            held += 8
    while held < NUM_CARDS:
        cards |= <uint64_t>(board.rack[held] != 0) << held
        held += 1
    return cards


cdef inline void _supply_tables(RackTables* rack, unsigned int* ranks_held) noexcept nogil:
    """``run_lanes_for`` and ``set_ranks_for``: the suits (ranks) whose real tiles
    and jokers can fill k squares of a run (set); ``ranks_held[c]`` gets the
    ranks the rack holds in c suits or more (c = 0 .. MAX_SET)."""
    cdef int i, held, suit
    cdef uint64_t lanes_by_supply[MAX_PLACED + 1]
    cdef unsigned int suit_ranks[SUITS]
    memset(lanes_by_supply, 0, sizeof(lanes_by_supply))
    for suit in range(SUITS):
        suit_ranks[suit] = <unsigned int>(rack.rack_cards >> (RANKS * suit)) & RANK_MASK
        # rank positions, so an ace counts twice: an upper bound is enough here
        held = __builtin_popcount(rank_positions(rack.rack_cards, suit)) + rack.jokers
        lanes_by_supply[min(held, MAX_PLACED)] |= <uint64_t>LANE_MASK << (LANE_BITS * suit)
    ranks_held[0] = RANK_MASK
    ranks_held[1] = suit_ranks[0] | suit_ranks[1] | suit_ranks[2] | suit_ranks[3]
    ranks_held[2] = ((suit_ranks[0] & (suit_ranks[1] | suit_ranks[2] | suit_ranks[3]))
                     | (suit_ranks[1] & (suit_ranks[2] | suit_ranks[3])) | (suit_ranks[2] & suit_ranks[3]))
    ranks_held[3] = ((suit_ranks[0] & suit_ranks[1] & (suit_ranks[2] | suit_ranks[3]))
                     | ((suit_ranks[0] | suit_ranks[1]) & suit_ranks[2] & suit_ranks[3]))
    ranks_held[4] = suit_ranks[0] & suit_ranks[1] & suit_ranks[2] & suit_ranks[3]
    rack.run_lanes_for[MAX_PLACED] = lanes_by_supply[MAX_PLACED]
    for i in range(MAX_PLACED - 1, -1, -1):
        rack.run_lanes_for[i] = rack.run_lanes_for[i + 1] | lanes_by_supply[i]
    memset(rack.set_ranks_for, 0, sizeof(rack.set_ranks_for))
    for i in range(min(rack.jokers + MAX_SET, MAX_PLACED) + 1):
        rack.set_ranks_for[i] = ranks_held[max(i - rack.jokers, 0)]


cdef inline void _limit_tables(RackTables* rack, const Board* board, const unsigned int* ranks_held) noexcept nogil:
    """``limit_of``: what may go on an anchor beyond its fit (Anchor.limit); a
    tile's neighbours on both sides share its pair cards.  An anchor's fit holds
    only cards that may stand beside its lone neighbours, so a neighbour none of
    whose cards the rack has needs no entry: the anchor's cards are none anyway."""
    cdef int i, card
    cdef uint64_t near = ALL_CARDS, neighbours
    if not rack.jokers:
        # NEIGHBOURS of each rack card: the same suit one rank away, and the
        # same rank in another suit (but for a card whose rank it holds in one suit)
        near = (lanes_cards(((rack.free_lanes << 1) | (rack.free_lanes >> 1)) & ALL_LANES)
                | (every_suit(ranks_held[1]) & ~(rack.available & every_suit(ranks_held[1] & ~ranks_held[2]))))
    neighbours = board.lone_neighbours & near
    while neighbours:
        card = __builtin_ctzll(neighbours)
        neighbours &= neighbours - 1
        rack.limit_of[card] = _pair_cards(rack, card)
    for i in range(ALONE, ALONE_FAR):
        rack.limit_of[i] = ALL_CARDS if i - ALONE <= board.rack_size else rack.meld_cards
    rack.limit_of[ALONE_FAR] = rack.meld_cards     # beyond any rack's reach
    rack.limit_of[NOT_LIVE] = 0


cdef inline void _free_left_tables(RackTables* rack, int reach) noexcept nogil:
    """``free_left[m]``: what m empty squares left of an anchor that touch
    nothing allow, for m up to ``reach`` (no play puts more than the rack's
    tiles but the anchor's left of an anchor).  Built in a local: copying the
    entry just stored would wait for the stores."""
    cdef int i
    cdef Feasible left
    _feasible_start(&left)
    rack.free_left[0] = left
    for i in range(1, reach + 1):
        _feasible_add_left(&left, i, rack.free_lanes, rack.free_ranks)
        rack.free_left[i] = left


cdef void _load_rack(RackTables* rack, const Board* board) noexcept nogil:
    """Fill ``rack`` for the rack of ``board`` (its lone neighbours too): every
    table the walks from the anchors read, whatever the anchor."""
    cdef unsigned int ranks_held[MAX_SET + 1]
    cdef uint64_t rack_lanes
    rack.rack_cards = _held_cards(board)
    rack.available = rack.rack_cards
    rack.jokers = board.rack[JOKER]
    if board.rack[JOKER]:
        rack.available = ALL_CARDS
    rack.free_lanes = card_lanes(rack.available)
    rack_lanes = card_lanes(rack.rack_cards)
    rack.lacking_lanes = ~rack_lanes
    rack.free_ranks = ranks_of(rack.available)
    _supply_tables(rack, ranks_held)
    _pair_tables(rack, rack_lanes)
    _meld_cards(rack, rack_lanes)
    _limit_tables(rack, board, ranks_held)
    _free_left_tables(rack, min(board.rack_size - 1, MAX_PLACED))
