# The card tables and what a meld is: filled once when the core is imported.
# Included in core.pyx (one C module: see docs/PERFORMANCE.md, rooms of the core).

cdef unsigned short RANK_POSITION[NUM_CARDS]   # bits 1..14: a card's place in rank order (an ace at 1 and 14)


cdef int VALUE[MELD_KINDS][RANKS]               # by kind (none, set, run) and rank index: a real tile's value
cdef unsigned char CARD_SUIT[NUM_CARDS]     # card // RANKS
cdef unsigned char CARD_RANK[NUM_CARDS]     # card % RANKS
cdef uint64_t NEXT_UP[NUM_CARDS]     # the card one rank up in the suit (a king's: the ace), as a mask
cdef uint64_t NEXT_DOWN[NUM_CARDS]   # ... one rank down (an ace's: the king)
cdef uint64_t SAME_RANK[NUM_CARDS]   # the cards of its rank in the other suits
cdef uint64_t NEIGHBOURS[NUM_CARDS]  # the cards that may stand next to a card in a meld


cdef void _fill_rank_positions() noexcept nogil:
    cdef int card
    for card in range(NUM_CARDS):
        RANK_POSITION[card] = (1u << (card % RANKS + 1)) | ((1u << ACE_HIGH) if card % RANKS == 0 else 0u)
        CARD_SUIT[card] = card // RANKS
        CARD_RANK[card] = card % RANKS
        NEXT_UP[card] = <uint64_t>1 << (card - (RANKS - 1) if card % RANKS == RANKS - 1 else card + 1)
        NEXT_DOWN[card] = <uint64_t>1 << (card + (RANKS - 1) if card % RANKS == 0 else card - 1)
    # next to a card in a meld: the same rank in another suit (a set), or the
    # same suit one rank away (a run; an ace is next to the 2 and to the king)
    for card in range(NUM_CARDS):
        SAME_RANK[card] = (ACES << (card % RANKS)) & ~(<uint64_t>1 << card)
        NEIGHBOURS[card] = SAME_RANK[card] | NEXT_UP[card] | NEXT_DOWN[card]


_fill_rank_positions()


cdef int tile_value(int card, int kind) noexcept nogil:
    """A real card's value in a meld of ``kind``: ace 1 in a run, 15 in a set."""
    cdef int rank = card % RANKS + 1
    if rank == 1:
        return 15 if kind == KIND_SET else 1
    return 10 if rank > 10 else rank


cdef int line_kind(const signed char* cards, int length) noexcept nogil:
    """KIND_SET, KIND_RUN or KIND_NONE for a whole line of cards."""
    cdef int i, suit, rank, used, step, first, position, ok, ace_high
    if length < 3:
        return KIND_NONE
    if length <= 4:
        rank = cards[0] % RANKS
        used = 0
        ok = 1
        for i in range(length):
            if cards[i] % RANKS != rank or used & (1 << (cards[i] // RANKS)):
                ok = 0
                break
            used |= 1 << (cards[i] // RANKS)
        if ok:
            return KIND_SET
    if length > MAX_RUN:
        return KIND_NONE
    suit = cards[0] // RANKS
    for i in range(length):
        if cards[i] // RANKS != suit:
            return KIND_NONE
    for step in range(1, -2, -2):
        for ace_high in range(2):
            first = rank_position(cards[0])
            if ace_high:
                if first != 1:
                    continue
                first = ACE_HIGH
            ok = 1
            for i in range(length):
                position = first + step * i
                if position < 1 or position > ACE_HIGH or (position % RANKS) != (rank_position(cards[i]) % RANKS):
                    ok = 0
                    break
            if ok:
                return KIND_RUN
    return KIND_NONE


cdef unsigned char SET_MAX[RANK_SETS]    # by 13-bit rank mask: the highest set value among them
cdef unsigned char RUN_MAX[RANK_SETS]    # ... the highest run value


cdef void _fill_value_tables() noexcept nogil:
    cdef int ranks, rank_index, set_best, run_best, value
    for rank_index in range(RANKS):
        VALUE[KIND_NONE][rank_index] = 0
        VALUE[KIND_SET][rank_index] = tile_value(rank_index, KIND_SET)
        VALUE[KIND_RUN][rank_index] = tile_value(rank_index, KIND_RUN)
    for ranks in range(RANK_SETS):
        set_best = 0
        run_best = 0
        for rank_index in range(RANKS):
            if ranks & (1 << rank_index):
                value = tile_value(rank_index, KIND_SET)
                if value > set_best:
                    set_best = value
                value = tile_value(rank_index, KIND_RUN)
                if value > run_best:
                    run_best = value
        SET_MAX[ranks] = set_best
        RUN_MAX[ranks] = run_best


_fill_value_tables()
