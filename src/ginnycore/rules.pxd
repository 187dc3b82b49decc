# The rules of Ginny-O that both the compiled game loops and Python play by, in
# one place (docs/RULES.md §1, §6).  ginnycore.rules (rules.pyx) defines the
# functions; Python reads the numbers and calls the functions through
# ginnyo.vocab.rules, so there is no second copy of any of them.

cpdef enum:
    RACK_SIZE = 7               # §6: racks are drawn up to 7 tiles
    STALL_ROUNDS = 3            # §6: once the first meld is down, full rounds without a play that end the game
    OPENING_GUARD_ROUNDS = 20   # §6: before it, full rounds with an empty board that end the game
    RULES_VERSION = 2           # §6 as amended 2026-12-01 (version 1: the stall clock ran from the first turn)
    MIN_PLAYERS = 2             # §1
    MAX_PLAYERS = 4
    JOKERS_PER_SET = 2          # §1: a set is the 52 cards and 2 jokers
    MAX_STALL_ROUNDS = 1000000  # the largest stall clock a game takes (its turn counts stay C ints)

cpdef int sets_for(int players) noexcept nogil
cpdef int rack_penalty(int tile) noexcept nogil
cpdef int draw_strength(int tile) noexcept nogil
cpdef long long quiet_turn_limit(int players, bint opened, int stall_rounds) noexcept nogil
cdef int rack_tile_to_return(const unsigned char* counts) noexcept nogil
