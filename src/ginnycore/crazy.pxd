# The Crazy Rummy hand solver (docs/RULES.md §7): the table a hand is solved against,
# and the search.  Other Cython code may cimport these declarations.
from libc.stdint cimport uint64_t

cdef enum:
    CRAZY_RANKS = 13
    CRAZY_CARDS = 52
    CRAZY_MAX_NATURALS = 20     # naturals (cards not of the wild rank) in one hand
    CRAZY_MAX_OWN_RUNS = 16     # runs the player has on the table
    CRAZY_MAX_GROUPS = 20       # new sets (or new runs) one arrangement lays down
    CRAZY_WILD_VALUE = 25

# Where the search puts a natural card (arrangement() reports these codes).
cdef enum:
    PLACE_DEADWOOD = 0
    PLACE_NEW_SET = 1
    PLACE_NEW_RUN = 2
    PLACE_OWN_SET = 3
    PLACE_OWN_RUN = 4
    PLACE_SWAP = 5

ctypedef struct CrazyTable:
    int wild_rank                      # 1 (aces) .. 13 (kings)
    int has_melded                     # the player has melds on the table: lay-offs and swaps allowed
    int set_room[CRAZY_RANKS]          # cards the player's own sets of each rank can still take
    int n_runs                         # the player's own runs
    int run_suit[CRAZY_MAX_OWN_RUNS]
    int run_low[CRAZY_MAX_OWN_RUNS]    # ranks 1..13, ace low
    int run_high[CRAZY_MAX_OWN_RUNS]
    uint64_t swap_cards                # naturals that may replace a wild in a run on the table
    int swap_sets[CRAZY_RANKS]         # wilds in sets of each rank on the table (any real card of the rank replaces one)

cdef int crazy_deadwood(const CrazyTable* table, uint64_t hand, int* places, int* groups) noexcept nogil
cdef int crazy_best_discard(const CrazyTable* table, uint64_t hand, uint64_t keep, int* discard) noexcept nogil

cdef class Table:
    cdef CrazyTable table
