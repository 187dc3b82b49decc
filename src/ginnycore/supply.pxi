# The melds a line can be, and every way the rack supplies their cards (real
# tiles or jokers), scored.  Included in core.pyx.

cdef void _more_jokers(Gen* gen, unsigned int joker_at, unsigned int spare, int main_sum, int cross_sum,
                       int jokers, int budget) noexcept nogil:
    """Every supply that also puts a joker on 1 .. ``budget`` more of the placed
    indexes in ``spare`` (each set of them once, in increasing index order)."""
    cdef int i
    while spare and not gen.out.done:
        i = __builtin_ctz(spare)
        spare &= spare - 1u
        _emit(gen, joker_at | (1u << i),
              (main_sum - gen.line.real_main[i]) * gen.line.main_mult + cross_sum - gen.line.real_cross[i], jokers + 1)
        if budget > 1:
            _more_jokers(gen, joker_at | (1u << i), spare, main_sum - gen.line.real_main[i],
                         cross_sum - gen.line.real_cross[i], jokers + 1, budget - 1)


cdef void _supply_repeated(Gen* gen, unsigned int joker_at, int from_index, int main_sum, int cross_sum,
                           int jokers) noexcept nogil:
    """``_supply_from`` for a line that holds one card twice (a run of 14 has its
    suit's ace at both ends): try every joker placement and check the counts."""
    cdef int i, j, uses
    if gen.out.done:
        return
    for i in range(gen.line.k):
        if not (joker_at >> i) & 1u:
            uses = 0
            for j in range(gen.line.k):
                if gen.line.card[j] == gen.line.card[i] and not (joker_at >> j) & 1u:
                    uses += 1
            if uses > gen.board.rack[gen.line.card[i]]:
                break
    else:
        _emit(gen, joker_at, main_sum * gen.line.main_mult + cross_sum, jokers)
    if jokers == gen.rack.jokers:
        return
    for i in range(from_index, gen.line.k):
        _supply_repeated(gen, joker_at | (1u << i), i + 1, main_sum - gen.line.real_main[i],
                         cross_sum - gen.line.real_cross[i], jokers + 1)


cdef inline void _supply_from(Gen* gen, unsigned int needed, int main_sum, int cross_sum) noexcept nogil:
    """Every way the rack supplies the placed cards ``gen.line.card`` when it holds a
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
        main_sum -= gen.line.real_main[i]
        cross_sum -= gen.line.real_cross[i]
    _emit(gen, needed, main_sum * gen.line.main_mult + cross_sum, missing)
    if gen.out.mode == GEN_BEST:
        if missing == 0:
            gen.line.set_done = 1    # a set of this rank in other suits cannot rank higher
        return
    if missing < gen.rack.jokers:
        _more_jokers(gen, needed, ~needed & ((1u << gen.line.k) - 1u), main_sum, cross_sum, missing,
                     gen.rack.jokers - missing)


cdef inline void _placed_values(Gen* gen, int i, int suit, int rank_index, int kind) noexcept nogil:
    """Score placed index i as the card of ``suit`` and ``rank_index`` in a main line of ``kind``."""
    gen.line.card[i] = suit * RANKS + rank_index
    gen.line.real_main[i] = VALUE[kind][rank_index] * gen.line.placed_tile_mult[i]
    gen.line.real_cross[i] = VALUE[gen.line.placed_cross_kind[i]][rank_index] * gen.line.placed_cross_mult[i]


# A set's suits, placed index by placed index: the ordered tuples of k distinct
# suits (k <= 4), numbered in lexicographic order, as bit masks of tuple numbers.
# By k, placed index, suits: the tuples giving that index one of those suits
cdef unsigned int SET_TUPLES_WITH[MAX_SET + 1][MAX_SET][SUIT_SETS]
# By k, suits held, jokers (at most 4): the tuples the rack can supply
cdef unsigned int SET_TUPLES_HELD[MAX_SET + 1][SUIT_SETS][MAX_SET + 1]
# By k, tuple, suits held: the placed indexes whose suit is not held (each needs a joker)
cdef unsigned char SET_TUPLE_LACKS[MAX_SET + 1][SET_TUPLES][SUIT_SETS]
# By k, tuple: RANKS x its suits, the cards of its rank index 0
cdef unsigned char SET_TUPLE_CARDS[MAX_SET + 1][SET_TUPLES][MAX_SET]


cdef void _fill_set_tuples() noexcept nogil:
    cdef int k, t, i, held, jokers, code, used, lacks
    cdef int suits[SUITS]
    for k in range(1, MAX_SET + 1):
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
            for i in range(MAX_SET):
                SET_TUPLE_CARDS[k][t][i] = RANKS * suits[i] if i < k else 0
            for held in range(SUIT_SETS):
                for i in range(k):
                    if held & (1 << suits[i]):
                        SET_TUPLES_WITH[k][i][held] |= 1u << t
                lacks = 0
                for i in range(k):
                    if not held & (1 << suits[i]):
                        lacks |= 1 << i
                SET_TUPLE_LACKS[k][t][held] = lacks
                for jokers in range(MAX_SET + 1):
                    if __builtin_popcount(lacks) <= jokers:
                        SET_TUPLES_HELD[k][held][jokers] |= 1u << t
            t += 1


_fill_set_tuples()


cdef inline void _set_supplies(Gen* gen, unsigned int tuples, int rank_index, int held) noexcept nogil:
    """Supply the set of ``rank_index`` in each suit tuple of ``tuples`` (for
    gen.line.k placed tiles), in order, with ``held`` the suits of that rank the rack
    holds real tiles of.  A set's scores (``gen.line.set_main``, ``gen.line.set_cross``)
    do not depend on its suits.  The first four cards are written whole (bytes
    past gen.line.k are unused)."""
    cdef int t
    cdef unsigned int cards
    while tuples and not (gen.line.set_done or gen.out.done):
        t = __builtin_ctz(tuples)
        tuples &= tuples - 1u
        memcpy(&cards, SET_TUPLE_CARDS[gen.line.k][t], 4)
        cards += <unsigned int>rank_index * 0x01010101u      # no byte carries: 39 + 12 < 256
        memcpy(gen.line.card, &cards, 4)
        _supply_from(gen, SET_TUPLE_LACKS[gen.line.k][t][held], gen.line.set_main, gen.line.set_cross)


cdef void _run_candidate(Gen* gen, int suit, int first, int sign) noexcept nogil:
    """The line as a run of ``suit`` whose first square holds rank position
    ``first``, read upwards (``sign`` 1) or downwards (-1): score and supply it.
    The placed indexes whose card the rack holds no real tile of are read off
    gen.rack.lacking_lanes, without a branch."""
    cdef int i, position, main_sum = 0, cross_sum = 0
    cdef unsigned int needed = 0
    cdef uint64_t lacking = gen.rack.lacking_lanes >> (LANE_BITS * suit)
    for i in range(gen.line.k):
        position = first + sign * (gen.line.placed_index[i] - gen.line.origin)
        _placed_values(gen, i, suit, 0 if position == ACE_HIGH else position - 1, KIND_RUN)
        needed |= <unsigned int>((lacking >> position) & 1) << i
        main_sum += gen.line.real_main[i]
        cross_sum += gen.line.real_cross[i]
    if gen.out.floor != NO_FLOOR and main_sum * gen.line.main_mult + cross_sum < gen.out.floor:
        return
    if gen.line.length == MAX_RUN:       # the suit's ace at both ends
        _supply_repeated(gen, 0, 0, main_sum, cross_sum, 0)
        return
    _supply_from(gen, needed, main_sum, cross_sum)


cdef void _enumerate_line(Gen* gen, Feasible* feasible) noexcept nogil:
    """Every meld the whole line can be: sets by rank and suits, runs by suit,
    first position and direction, as ``feasible`` (indexed from the line's first
    square) narrowed them.  A run is skipped when it needs more cards the rack
    lacks than it has jokers."""
    cdef Board* board = gen.board
    cdef int length = gen.line.length, origin = gen.line.origin, i, rank_index, offset, square, bit, held
    cdef unsigned int placed_up = 0, placed_down = 0, ranks, fixed_suits, tuples
    cdef uint64_t lanes
    for i in range(gen.line.k):
        offset = gen.line.placed_index[i] - origin
        placed_up |= 1u << offset
        placed_down |= 1u << (length - 1 - offset)
        square = gen.line.line_square[gen.line.placed_index[i]]
        gen.line.placed_square[i] = square
        gen.line.placed_tile_mult[i] = board.squares[square].tile_mult
        if board.squares[square].cross_len[gen.line.direction] >= 3:
            gen.line.placed_cross_kind[i] = board.squares[square].cross_kind[gen.line.direction]
            gen.line.placed_cross_mult[i] = board.squares[square].tile_mult * board.squares[square].meld_mult
        else:
            gen.line.placed_cross_kind[i] = KIND_NONE
            gen.line.placed_cross_mult[i] = 0
    if length <= MAX_SET:
        fixed_suits = feasible.fixed_suits
        ranks = feasible.set_ranks
        while ranks and not gen.out.done:
            rank_index = __builtin_ctz(ranks)
            ranks &= ranks - 1u
            gen.line.set_main = 0
            gen.line.set_cross = 0
            held = suits_of_rank(gen.rack.rack_cards, rank_index)
            tuples = SET_TUPLES_HELD[gen.line.k][held][min(gen.rack.jokers, MAX_SET)]
            for i in range(gen.line.k):
                tuples &= SET_TUPLES_WITH[gen.line.k][i][
                    suits_of_rank(gen.line.allowed[gen.line.placed_index[i]], rank_index) & ~fixed_suits]
                gen.line.real_main[i] = VALUE[KIND_SET][rank_index] * gen.line.placed_tile_mult[i]
                gen.line.real_cross[i] = VALUE[gen.line.placed_cross_kind[i]][rank_index] * gen.line.placed_cross_mult[i]
                gen.line.set_main += gen.line.real_main[i]
                gen.line.set_cross += gen.line.real_cross[i]
            if gen.out.floor != NO_FLOOR and gen.line.set_main * gen.line.main_mult + gen.line.set_cross < gen.out.floor:
                continue        # a set's score does not depend on its suits
            gen.line.set_done = 0
            _set_supplies(gen, tuples, rank_index, held)
    # runs: bit 16 suit + first of the lanes, in one loop over all suits; the
    # rack lacks the cards of the placed positions in gen.rack.lacking_lanes
    lanes = feasible.up
    while lanes and not gen.out.done:
        bit = __builtin_ctzll(lanes)
        lanes &= lanes - 1
        if __builtin_popcountll((<uint64_t>placed_up << bit) & gen.rack.lacking_lanes
                                & (<uint64_t>LANE_MASK << (bit & ~IN_LANE))) <= gen.rack.jokers:
            _run_candidate(gen, bit >> LANE_OF_BIT, bit & IN_LANE, 1)
    lanes = feasible.down & LANE_HIGH[length - 1]      # read downwards from length - 1 or higher
    while lanes and not gen.out.done:
        bit = __builtin_ctzll(lanes)
        lanes &= lanes - 1
        if __builtin_popcountll((<uint64_t>placed_down << (bit - length + 1)) & gen.rack.lacking_lanes
                                & (<uint64_t>LANE_MASK << (bit & ~IN_LANE))) <= gen.rack.jokers:
            _run_candidate(gen, bit >> LANE_OF_BIT, bit & IN_LANE, -1)
