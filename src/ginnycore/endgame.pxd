# The exact 2-player endgame search (docs/RULES.md §6 with an empty box).
# Other Cython code may cimport these declarations.
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t

from ginnycore.types cimport RACK_KINDS, Board, PlayRecord

cdef enum:
    ENDGAME_MAX_PLY = 48        # 21 tiles (14 + 7) at one a play, a pass between plays, the last pass
    ENDGAME_EXACT = 255         # TableEntry.depth of a value no search horizon touched
    ENDGAME_SMALL_CHECK = 64    # endgame_value looks at its node budget every this many nodes

ctypedef struct TableEntry:
    # One slot of the transposition table: 16 bytes.
    uint64_t key                # Zobrist hash of board, racks, side to move and a pass just made
    int32_t value               # from the side to move's view: exact, or a bound (``bound``)
    uint16_t best               # the best play's index in generation order; 0xFFFF: none
    uint8_t depth               # plies searched below, ENDGAME_EXACT when no horizon was reached
    uint8_t bound               # BOUND_EXACT, BOUND_LOWER or BOUND_UPPER

ctypedef struct Search:
    Board* board                # a clone of the position's board, played on and taken back
    unsigned char racks[2][RACK_KINDS]   # side 0 is the player to move at the root
    int rack_sizes[2]
    int penalties[2]            # what each rack would cost if the game ended now
    int side                    # to move at the current node
    uint64_t hash
    TableEntry* table
    uint64_t table_mask
    PlayRecord* plays[ENDGAME_MAX_PLY]   # per ply: the plays generated there (grown, never per node)
    size_t capacity[ENDGAME_MAX_PLY]
    uint64_t* order[ENDGAME_MAX_PLY]     # per ply: the plays' sort keys (score, then generation order)
    size_t order_capacity[ENDGAME_MAX_PLY]
    PlayRecord pv[ENDGAME_MAX_PLY][ENDGAME_MAX_PLY]   # triangular principal variation
    int pv_length[ENDGAME_MAX_PLY]
    long long nodes
    long long horizons          # horizon nodes met (or table values that depended on one)
    double deadline             # seconds on the monotonic clock; 0 = none
    long long max_nodes         # stop once this many nodes are searched; 0 = none
    long long check_mask        # the budgets are looked at when nodes & check_mask is 0
    int may_stop                # the first iteration always completes
    int stopped                 # out of time, or asked to stop
    int failed                  # the plays did not fit in memory
    volatile int stop_request   # set by another thread to stop the search


cdef class Endgame:
    cdef Search* search
    cdef int after_pass
    cdef int table_bits


# For other compiled modules (the simulation's rollouts): a reusable search
# and the value of one endgame within a node budget, all without the GIL.
cdef Search* endgame_search_new(const Board* board, int table_bits) noexcept nogil
cdef void endgame_search_free(Search* s) noexcept nogil
cdef int endgame_value(Search* s, const Board* board, const unsigned char* mover, const unsigned char* other,
                       int after_pass, long long nodes, int* proven) noexcept nogil
