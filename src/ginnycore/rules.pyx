# cython: language_level=3
"""The rules of Ginny-O shared by the compiled loops and Python (docs/RULES.md §1, §6).

The numbers are the ``cpdef enum`` of rules.pxd, the functions are defined
here once: the C loops (selfplay.pyx, endgame.pyx) call them in C, and
``ginnyo.vocab.rules`` exports them to Python.  Arguments are not checked here
(``ginnyo.vocab.rules`` does that): every input gives a number, none crashes.
"""

from ginnycore.core cimport tile_value
from ginnycore.types cimport JOKER, KIND_SET, NUM_CARDS, RACK_KINDS


cpdef int sets_for(int players) noexcept nogil:
    """Tile sets in play (§1): one for 2 players, two for 3 or 4."""
    return 1 if players == 2 else 2


cpdef int rack_penalty(int tile) noexcept nogil:
    """What a tile left on the rack at the end costs (§1, last column), as a
    positive number: a card's value in a set, a joker 0."""
    if not 0 <= tile < NUM_CARDS:
        return 0
    return tile_value(tile, KIND_SET)


cpdef int draw_strength(int tile) noexcept nogil:
    """A tile's rank in the first-player draw (§6): ace highest (14), king 13 … 2,
    a joker lowest (0)."""
    if not 0 <= tile < NUM_CARDS:
        return 0
    return 14 if tile % 13 == 0 else tile % 13 + 1


cpdef long long quiet_turn_limit(int players, bint opened, int stall_rounds) noexcept nogil:
    """Turns in a row without a play that end the game (§6): ``stall_rounds`` full
    rounds once the first meld is down (``opened``), OPENING_GUARD_ROUNDS before.
    (A long long: no product of two ints overflows it.)"""
    return <long long>(stall_rounds if opened else OPENING_GUARD_ROUNDS) * players


cdef int rack_tile_to_return(const unsigned char* counts) noexcept nogil:
    """The tile a player without a play returns while the box has tiles (§6, the
    built-in players): the real tile costing most on the rack (ties: the lowest
    card), a joker when the rack holds only jokers, -1 for an empty rack."""
    cdef int tile, best = -1
    for tile in range(NUM_CARDS):
        if counts[tile] and (best < 0 or rack_penalty(tile) > rack_penalty(best)):
            best = tile
    if best < 0 and counts[JOKER]:
        best = JOKER
    return best


def tile_to_return(const unsigned char[:] counts not None):
    """:c:func:`rack_tile_to_return` of rack ``counts`` (53 counts, 52 = joker)."""
    if counts.shape[0] != RACK_KINDS:
        raise ValueError(f"counts: {counts.shape[0]} counts, not {RACK_KINDS}")
    return rack_tile_to_return(&counts[0])
