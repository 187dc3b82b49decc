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
    # Anchor.limit: which cards a play along a direction may put on the anchor,
    # as an index into the generator's table (core.pyx: board_generate)
    ALONE = 52                 # no lone neighbour: ALONE + the squares to the next tile
                               # further along (ALONE_FAR: none within 15)
    ALONE_FAR = 67
    NOT_LIVE = 68              # the anchor is not live in that direction
    LIMITS = 69
    KIND_NONE = 0
    KIND_SET = 1
    KIND_RUN = 2
    ACROSS = 0
    DOWN = 1
    GEN_COUNT = 0              # board_generate modes: count the legal plays,
    GEN_ALL = 1                # ... store them all,
    GEN_BEST = 2               # ... keep the first in ranking order,
    GEN_ANY = 3                # ... stop at the first one found,
    GEN_TOP = 4                # ... keep the first N in ranking order (core.pyx: Top)

ctypedef struct PlayRecord:
    # 52 bytes: generation writes one a play
    int score
    unsigned char n             # tiles placed
    unsigned char jokers        # of them jokers
    unsigned short joker_at     # bit i: placed tile i is a joker
    short square[MAX_PLACED]    # in increasing square order
    signed char card[MAX_PLACED]


cdef inline int play_joker(const PlayRecord* play, int i) noexcept nogil:
    """1 when placed tile i of ``play`` is a joker, else 0."""
    return (play.joker_at >> i) & 1

ctypedef struct Anchor:
    # An anchor live in a direction or both, with what the generator's first
    # tests need (see core.pyx: _add_anchor).  16 bytes.
    uint64_t fit                # the cards both lines through it accept, a lone neighbour
                                # taking any card it can stand beside in a meld (a line the
                                # play runs along may grow past it); all 52 away from tiles
    unsigned char row
    unsigned char col
    unsigned char free[2]       # per direction of the play: the empty squares just before
                                # it on that line that are no anchors (a play may start there)
    unsigned char limit[2]      # per direction of the play: the card of its lone neighbour
                                # on that line, else ALONE + the squares to the next tile
                                # further along (at most ALONE_FAR), else NOT_LIVE

ctypedef struct Square:
    # What the generator reads of one square, in half a cache line (32 bytes):
    # a walk down a column touches one line a square, not one per field.
    # Cross-checks, indexed by the direction of the play: what the line through
    # an empty square across that direction accepts.  Only cross_len is kept
    # for every square; the rest only for empty squares with cross_len > 1.
    uint64_t cross_mask[2]      # cards allowed; 0 = nothing can go here
    short group                 # connected group of an occupied square, else -1
    short cross_group[2]        # group the perpendicular neighbours belong to, or -1
    unsigned char cross_len[2]  # length of that line with the square (1 = alone)
    unsigned char cross_kind[2] # KIND_SET / KIND_RUN when cross_len >= 3
    unsigned char tile_mult
    unsigned char meld_mult
    unsigned char red           # an R square: may start a new area

ctypedef struct Board:
    # One block aligned to a cache line: this header, then the arrays sized to
    # the board (see board.pyx: board_new, board_clone, board_copy).  The
    # fields generation reads come first, in the first two cache lines.
    int width
    int height
    int size
    int centre
    int n_tiles
    int n_groups                # group ids handed out so far
    int rack_size
    int n_anchors
    Square* squares
    signed char* card           # EMPTY or the card (a joker's identity), by square
    # The anchors live in a direction or both (core.pyx: _add_anchor) as a list
    # in square order, rebuilt whenever the cross-checks change; the generator
    # reads only this.
    Anchor* anchors
    unsigned char* joker        # by square: nonzero when its tile is a joker
    uint64_t lone_neighbours    # the cards that are some listed anchor's lone neighbour
    unsigned char rack[RACK_KINDS]        # counts per card, JOKER last
    size_t bytes                # of the whole block
    # Bitboards: bit c of row_occ[r] and bit r of col_occ[c] when square (r, c)
    # holds a tile; the same for anchors (an empty square next to a tile, a red
    # square, or the centre of an empty board) and for the layout's red squares.
    unsigned int row_occ[MAX_SIDE]
    unsigned int col_occ[MAX_SIDE]
    unsigned int row_anchor[MAX_SIDE]
    unsigned int col_anchor[MAX_SIDE]
    unsigned int row_red[MAX_SIDE]
