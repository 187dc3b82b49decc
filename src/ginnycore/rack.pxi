# Per-rack tables: what the rack can lay next to a board tile or on its own.
# Included in core.pyx.

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
    ``held``: the rack's real tiles as rank-position lanes (card_lanes).  All
    four suits at once, in lanes by rank position p of the board tile (an ace
    at 1 and 14): shifting by one or two moves no used bit into another suit's
    used bits 1..14, and ``exist`` clears what lands outside them."""
    cdef uint64_t exist = ALL_LANES, up, down, both
    both = _two_supplied(held << 1, exist << 1, held >> 1, exist >> 1, gen.jokers)
    up = (_two_supplied(held >> 1, exist >> 1, held >> 2, exist >> 2, gen.jokers) | both) & exist
    down = (_two_supplied(held << 2, exist << 2, held << 1, exist << 1, gen.jokers) | both) & exist
    # as cards: an ace lays the 2 from position 1 and the king from 14
    gen.pair_up = lanes_cards(up)
    gen.pair_down = lanes_cards(down)


cdef void _meld_cards(Gen* gen, uint64_t held) noexcept nogil:
    """``gen.meld_cards``: the cards the rack can lay in some meld of three made
    of its own tiles (each a real tile or a joker); ``held`` as in _pair_tables.
    Runs for all four suits at once, in rank-position lanes."""
    cdef unsigned int ranks = gen.set_ranks_for[3]
    cdef uint64_t a = held, b, c, starts
    cdef uint64_t cards = every_suit(ranks)
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
    cards |= lanes_cards(starts | (starts << 1) | (starts << 2))
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
