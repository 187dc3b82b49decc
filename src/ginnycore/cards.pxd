# Card constants and the card and lane helpers that need no table, for every
# module that cimports them (cdef inline functions in a .pxd are compiled into
# each such module).  A card is suit * RANKS + rank index (0 = ace .. 12 =
# king); a card mask has bit ``card`` set.  A "lane" is 16 bits of a 64-bit
# word, one a suit, holding rank positions 1..14 (an ace at 1 and at 14).
from libc.stdint cimport uint64_t

cdef enum:
    RANKS = 13                  # ranks in a suit: card % RANKS is its rank index
    SUITS = 4
    RANK_MASK = 0x1FFF          # bits 0..12: every rank index
    RANK_SETS = 8192            # 1 << RANKS: the masks of ranks
    ACE_HIGH = 14               # rank position of an ace above the king (1 below the 2)
    POSITIONS = 0x7FFE          # rank positions 1..14
    LANE_BITS = 16              # bits a suit's lane
    LANE_MASK = 0xFFFF          # one lane
    LANE_OF_BIT = 4             # bit >> LANE_OF_BIT: the lane (suit) of a bit of a lane word
    IN_LANE = 15                # bit & IN_LANE: its rank position in that lane
    SUIT_MASK = 0xF             # one bit a suit
    SUIT_SETS = 16              # 1 << SUITS: the masks of suits
    MIN_MELD = 3                # cards in the shortest meld
    MAX_SET = 4                 # cards in the longest set: one a suit
    MELD_KINDS = 3              # KIND_NONE, KIND_SET, KIND_RUN: rows of the value table
    SET_TUPLES = 24             # ordered tuples of distinct suits, at most 4! of them
    EMPTY_BYTE = 255            # EMPTY (-1) as an unsigned byte of the core's input

# 64-bit constants, compiled as literals
cdef extern from *:
    """
    #define GINNYO_ALL_CARDS 0x000FFFFFFFFFFFFFULL
    #define GINNYO_ACES 0x0000008004002001ULL
    #define GINNYO_ALL_LANES 0x7FFE7FFE7FFE7FFEULL
    #define GINNYO_LANE_BIT0 0x0001000100010001ULL
    #define GINNYO_LANE_RANKS 0x1FFF1FFF1FFF1FFFULL
    #define GINNYO_LANE_STARTS 0x1FFE1FFE1FFE1FFEULL
    #define GINNYO_GATHER_SUITS 0x0000008008008008ULL
    #define GINNYO_LOW7 0x7F7F7F7F7F7F7F7FULL
    #define GINNYO_HIGH1 0x8080808080808080ULL
    #define GINNYO_GATHER_BYTES 0x0102040810204080ULL
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define GINNYO_LITTLE_ENDIAN 1
    #else
    #define GINNYO_LITTLE_ENDIAN 0
    #endif
    """
    const uint64_t ALL_CARDS "GINNYO_ALL_CARDS"         # the 52 cards
    const uint64_t ACES "GINNYO_ACES"                   # the ace of each suit: bits 0, 13, 26, 39
    const uint64_t ALL_LANES "GINNYO_ALL_LANES"         # every rank position of every suit
    const uint64_t LANE_BIT0 "GINNYO_LANE_BIT0"         # bit 0 of every lane
    const uint64_t LANE_RANKS "GINNYO_LANE_RANKS"       # bits 0..12 of every lane
    const uint64_t LANE_STARTS "GINNYO_LANE_STARTS"     # rank positions 1..12: where a run of three starts
    const uint64_t GATHER_SUITS "GINNYO_GATHER_SUITS"   # times it, bit 13 s moves to bit 39 + s
    const uint64_t LOW7 "GINNYO_LOW7"                   # the low seven bits of every byte
    const uint64_t HIGH1 "GINNYO_HIGH1"                 # the high bit of every byte
    const uint64_t GATHER_BYTES "GINNYO_GATHER_BYTES"   # times it, bit 8 j moves to bit 56 + j
    const bint LITTLE_ENDIAN "GINNYO_LITTLE_ENDIAN"     # memory holds a word's low byte first
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
    void __builtin_prefetch(const void*, ...) nogil


cdef inline int rank_position(int card) noexcept nogil:
    """Rank 1..13 of a card (ace 1)."""
    return card % RANKS + 1


cdef inline uint64_t position_cards(unsigned int positions, int suit) noexcept nogil:
    """The cards of ``suit`` at the rank positions ``positions`` (bits 1..14:
    position p is rank index p - 1, and 14 the ace again)."""
    return <uint64_t>(((positions >> 1) & RANK_MASK) | ((positions >> ACE_HIGH) & 1)) << (RANKS * suit)


cdef inline unsigned int rank_positions(uint64_t mask, int suit) noexcept nogil:
    """Bits 1..14: the positions in rank order of the cards of ``suit`` in ``mask``
    (an ace sits at 1 and at 14)."""
    cdef unsigned int ranks = <unsigned int>((mask >> (RANKS * suit)) & RANK_MASK)
    return (ranks << 1) | ((ranks & 1) << ACE_HIGH)


cdef inline unsigned int ranks_of(uint64_t mask) noexcept nogil:
    """The ranks (bits 0..12) of the cards in ``mask``, whatever their suit."""
    return <unsigned int>((mask | (mask >> RANKS) | (mask >> (2 * RANKS)) | (mask >> (3 * RANKS))) & RANK_MASK)


cdef inline int suits_of_rank(uint64_t mask, int rank_index) noexcept nogil:
    """4-bit mask of the suits whose card of ``rank_index`` is in ``mask``."""
    return <int>(((((mask >> rank_index) & ACES) * GATHER_SUITS) >> (3 * RANKS)) & SUIT_MASK)


cdef inline uint64_t every_suit(unsigned int ranks) noexcept nogil:
    """The cards of the ranks ``ranks`` (bits 0..12) in every suit."""
    return <uint64_t>ranks * ACES       # bits 0, 13, 26, 39: one a suit


cdef inline uint64_t card_lanes(uint64_t cards) noexcept nogil:
    """The rank positions of a card mask, 16 bits a suit (an ace at 1 and 14)."""
    cdef uint64_t ranks = ((cards & RANK_MASK) | ((cards & (<uint64_t>RANK_MASK << RANKS)) << 3)
                           | ((cards & (<uint64_t>RANK_MASK << (2 * RANKS))) << 6)
                           | ((cards & (<uint64_t>RANK_MASK << (3 * RANKS))) << 9))
    return (ranks << 1) | ((ranks & LANE_BIT0) << ACE_HIGH)


cdef inline uint64_t lanes_cards(uint64_t lanes) noexcept nogil:
    """The cards at the rank positions of ``lanes`` (16 bits a suit; position p
    is rank index p - 1, and 14 the ace again): the inverse of card_lanes."""
    cdef uint64_t ranks = ((lanes >> 1) | ((lanes >> ACE_HIGH) & LANE_BIT0)) & LANE_RANKS
    return ((ranks & RANK_MASK) | ((ranks >> 3) & (<uint64_t>RANK_MASK << RANKS))
            | ((ranks >> 6) & (<uint64_t>RANK_MASK << (2 * RANKS)))
            | ((ranks >> 9) & (<uint64_t>RANK_MASK << (3 * RANKS))))


cdef inline unsigned int nonzero_bytes(uint64_t word) noexcept nogil:
    """Bit j: byte j of ``word``, read from memory on a little-endian machine, is
    not 0.  A byte's low seven bits plus 0x7F carry into its high bit unless all
    are 0; one multiplication gathers the eight high bits."""
    word = (((word & LOW7) + LOW7) | word) & HIGH1
    return <unsigned int>(((word >> 7) * GATHER_BYTES) >> 56)


cdef inline int ones_below(unsigned int word, int position) noexcept nogil:
    """How many set bits stand unbroken just below bit ``position`` of ``word``."""
    cdef unsigned int gaps = ~word & ((1u << position) - 1u)
    if gaps == 0:
        return position
    return position - 1 - (31 - __builtin_clz(gaps))


cdef inline int ones_above(unsigned int word, int position) noexcept nogil:
    """How many set bits stand unbroken just above bit ``position`` of ``word``
    (``position`` < 31, so the complement always has a bit above it)."""
    return __builtin_ctz(~(word >> (position + 1)))
