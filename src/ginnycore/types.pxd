# Shared C types and limits of the Ginny-O core.
from libc.stdint cimport uint64_t

cdef enum:
    MAX_SIDE = 26
    MAX_SQUARES = 676          # 26 x 26
    MAX_PLACED = 14            # a rack holds at most 14 tiles
    MAX_RUN = 14               # A 2 ... K A
    NUM_CARDS = 52
    JOKER = 52                 # rack tile index of a joker
    RACK_KINDS = 53
    EMPTY = -1
    KIND_NONE = 0
    KIND_SET = 1
    KIND_RUN = 2
    ACROSS = 0
    DOWN = 1
    GEN_COUNT = 0              # board_generate modes: count the legal plays,
    GEN_ALL = 1                # ... store them all,
    GEN_BEST = 2               # ... keep the first in ranking order

ctypedef struct PlayRecord:
    int score
    int n                       # tiles placed
    int jokers                  # of them jokers
    short square[MAX_PLACED]    # in increasing square order
    signed char card[MAX_PLACED]
    unsigned char joker[MAX_PLACED]

ctypedef struct Board:
    int width
    int height
    int size
    int centre
    int n_tiles
    signed char card[MAX_SQUARES]         # EMPTY or the card (a joker's identity)
    unsigned char joker[MAX_SQUARES]
    unsigned char tile_mult[MAX_SQUARES]
    unsigned char meld_mult[MAX_SQUARES]
    unsigned char red[MAX_SQUARES]        # an R square: may start a new area
    short group[MAX_SQUARES]              # connected group of an occupied square, else -1
    int n_groups                          # group ids handed out so far
    unsigned char anchor[MAX_SQUARES]     # empty and next to a tile, or red, or the centre of an empty board
    unsigned char rack[RACK_KINDS]        # counts per card, JOKER last
    int rack_size
    # Cross-checks, indexed [direction of the play][square]: what the
    # perpendicular line through an empty square accepts.  Only cross_len is
    # kept for every square; the rest only for empty squares with cross_len > 1.
    uint64_t cross_mask[2][MAX_SQUARES]   # cards allowed; 0 = nothing can go here
    unsigned char cross_len[2][MAX_SQUARES]   # length of that line with the square (1 = alone)
    unsigned char cross_kind[2][MAX_SQUARES]  # KIND_SET / KIND_RUN when cross_len >= 3
    short cross_group[2][MAX_SQUARES]     # group the perpendicular neighbours belong to, or -1
    unsigned char run_before[2][MAX_SQUARES]  # tiles in an unbroken line above ([ACROSS]) or left ([DOWN])
    unsigned char run_after[2][MAX_SQUARES]   # ... below or right
