# The generator's state (core.pyx: generate.pxi and the rooms it calls), split
# by lifetime: what a generation call keeps (Output), what a rack allows
# (RackTables, filled once a call by _load_rack), and the line being walked
# from an anchor (LineWalk).  Types only: other Cython code may cimport them.
from libc.stdint cimport uint64_t

from ginnycore.types cimport LIMITS, MAX_PLACED, MAX_SIDE, Board, PlayRecord

cdef enum:
    BASE = MAX_PLACED           # array index of an anchor in LineWalk's arrays
    NO_FLOOR = -0x7FFFFFFF - 1  # Output.floor while every play may still be kept (INT_MIN)
    OUT_OF_MEMORY = 1           # Output.failed: the plays did not fit in memory,
    OVER_LIMIT = 2              # ... or there were more than Output.store_limit

ctypedef struct Feasible:
    # What the line from its first square up to the current one can still be.
    # Runs are kept as 16-bit lanes, one a suit (suit s in bits 16 s .. 16 s + 15).
    uint64_t up                 # per suit: first positions (bits 1..14) of a run read upwards
    uint64_t down               # ... of a run read downwards
    unsigned int set_ranks      # ranks (bits 0..12) every index can take in a set
    unsigned int fixed_suits    # the suits of the board's tiles among the indexes (with two
                                # of one suit, set_ranks is 0)
    int length
    int set_bound               # upper bounds of the placed tiles' values x tile multiplier
    int run_bound
    int cross_bound             # ... and of the crossing melds they make


ctypedef struct Top:
    # GEN_TOP: the first ``limit`` plays in ranking order ranked after ``after``
    # (all plays without has_after), kept in a heap of records whose root heap[0]
    # ranks last; the array grows by doubling up to ``limit``.
    PlayRecord* heap
    size_t size
    size_t capacity
    size_t limit
    PlayRecord after
    int has_after


ctypedef struct Output:
    # One generation call: how the plays found are kept, and when it stops.
    int mode                        # GEN_COUNT, GEN_ALL, GEN_BEST, GEN_ANY or GEN_TOP
    PlayRecord* best                # best mode: the play kept
    int have_best
    PlayRecord** plays              # all mode: the array of plays, grown with realloc
    size_t* capacity
    long long count                 # plays found (scored, in best and top modes)
    int done                        # generation stops: a play was found (any mode), or ...
    int failed                      # ... the plays did not fit in memory (all mode), or there
                                    # were more than store_limit (OVER_LIMIT)
    size_t store_limit              # all mode: store at most this many plays (0: no limit)
    int floor                       # best and top modes: a play scoring less cannot be kept
                                    # (NO_FLOOR until one can be passed over)
    Top* top                        # top mode: the plays kept
    int bounded                     # best and top modes: walks add up bounds of the scores


ctypedef struct RackTables:
    # One rack: what it can supply, filled once a generation call by _load_rack.
    uint64_t available              # cards the rack can supply (all 52 with a joker)
    uint64_t rack_cards             # cards the rack holds as real tiles
    int jokers                      # jokers on the rack
    Feasible free_left[MAX_PLACED + 1]  # what m squares left of an anchor that touch nothing allow
    uint64_t free_lanes             # the rank positions of ``available`` in suit lanes
    uint64_t lacking_lanes          # ... of the cards the rack holds no real tile of
    unsigned int free_ranks         # the ranks of ``available``
    unsigned int set_ranks_for[MAX_PLACED + 1]  # ranks whose real tiles and jokers can fill k squares of a set
    uint64_t run_lanes_for[MAX_PLACED + 1]      # the lanes of the suits whose ... of a run
    uint64_t meld_cards             # see _meld_cards
    uint64_t pair_up                # see _pair_tables
    uint64_t pair_down
    uint64_t limit_of[LIMITS]       # by Anchor.limit: the _pair_cards of the board's lone
                                    # neighbours (unset for those with no meld neighbour on the
                                    # rack: their anchors' fit takes none of its cards); with
                                    # none, all cards when the next tile is in the rack's reach,
                                    # else meld_cards; none when not live


ctypedef struct LineWalk:
    # The line of a play being walked from an anchor, and the meld being supplied.
    int direction
    int length
    int origin                      # where the line starts in the arrays below
    # The arrays below are indexed from BASE - (squares left of the anchor):
    # the anchor sits at BASE, so the walk to its right is shared by every
    # start to its left.
    short line_square[BASE + MAX_SIDE]
    int k
    int* placed_index               # into placed_all: m squares left of the anchor, then those from it on
    int placed_all[2 * MAX_PLACED]  # [MAX_PLACED - j] = BASE - j, the j-th free square left of the anchor
    int main_mult
    signed char card[MAX_PLACED]
    short placed_square[MAX_PLACED]     # per placed index: its square
    int real_main[MAX_PLACED]
    int real_cross[MAX_PLACED]
    int placed_tile_mult[MAX_PLACED]    # per placed index: its square's tile multiplier,
    int placed_cross_mult[MAX_PLACED]   # ... tile x meld multiplier when it makes a crossing meld (else 0)
    int placed_cross_kind[MAX_PLACED]   # ... and that meld's kind (KIND_NONE when none)
    int set_main                    # a set candidate's scores with every card real
    int set_cross
    uint64_t allowed[BASE + MAX_SIDE]   # per empty square of the line: the cards that may go there
    int set_done                    # best mode: a set's all-real supply was found, so its rank's
                                    # other suits cannot rank higher


ctypedef struct Gen:
    Board* board
    Output out
    LineWalk line
    RackTables rack
