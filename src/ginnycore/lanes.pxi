# Cards as 16-bit rank-position lanes, one a suit, and the Feasible state of a line
# built from them.  Included in core.pyx.

cdef uint64_t LANE_LOW[32]     # by shift d: bits 0 .. 15 - d of every 16-bit lane
cdef uint64_t LANE_HIGH[32]    # ... bits d .. 15 of every lane
cdef void _fill_lane_masks() noexcept nogil:
    cdef int shift, suit
    for shift in range(32):
        LANE_LOW[shift] = 0
        LANE_HIGH[shift] = 0
        for suit in range(SUITS):
            if shift < 16:
                LANE_LOW[shift] |= <uint64_t>(LANE_MASK >> shift) << (LANE_BITS * suit)
                LANE_HIGH[shift] |= <uint64_t>((LANE_MASK << shift) & LANE_MASK) << (LANE_BITS * suit)


_fill_lane_masks()


cdef inline uint64_t _lanes_down(uint64_t lanes, int shift) noexcept nogil:
    """Every lane shifted towards bit 0 by ``shift``; nothing crosses into the next lane."""
    return (lanes >> shift) & LANE_LOW[shift]


cdef inline uint64_t _lanes_up(uint64_t lanes, int shift) noexcept nogil:
    """Every lane shifted away from bit 0 by ``shift``; nothing crosses into the next lane."""
    return (lanes << shift) & LANE_HIGH[shift]


cdef inline void _feasible_start(Feasible* feasible) noexcept nogil:
    feasible.up = ALL_LANES
    feasible.down = ALL_LANES
    feasible.set_ranks = RANK_MASK
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
    _feasible_add_lanes(feasible, card_lanes(allowed), ranks_of(allowed))


cdef inline void _feasible_fixed_suit(Feasible* feasible, int card) noexcept nogil:
    """Note the suit of a board tile ``card``: a set cannot hold two of one suit."""
    cdef unsigned int suit = 1u << CARD_SUIT[card]
    feasible.set_ranks &= -<unsigned int>((feasible.fixed_suits & suit) == 0)
    feasible.fixed_suits |= suit


cdef inline void _feasible_add_card(Feasible* feasible, int card) noexcept nogil:
    """Append an index holding ``card`` (a tile already on the board): only runs
    of its suit stay possible."""
    _feasible_add_lanes(feasible, <uint64_t>RANK_POSITION[card] << (LANE_BITS * CARD_SUIT[card]), 1u << CARD_RANK[card])
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
    _feasible_add_left(feasible, distance, <uint64_t>RANK_POSITION[card] << (LANE_BITS * CARD_SUIT[card]),
                       1u << CARD_RANK[card])
    _feasible_fixed_suit(feasible, card)


cdef inline int _feasible_runs(Feasible* feasible) noexcept nogil:
    return (feasible.up | feasible.down) != 0


cdef inline int _feasible_any(Feasible* feasible) noexcept nogil:
    return _feasible_runs(feasible) or (feasible.length <= 4 and feasible.set_ranks != 0)

