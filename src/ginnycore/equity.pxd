# Equity in C: leave values, every return subset and one ranking of plays and
# returns on the score + leave scale (docs/EQUITY.md).  Other Cython code (a
# compiled game loop) may cimport these declarations.
from ginnycore.types cimport Board, PlayRecord

cdef enum:
    FEATURE_COUNT = 11          # leaves.FEATURES
    STAGE_COUNT = 4             # leaves.STAGES
    RANK_COUNT = 13
    ACTION_PLAY = 0             # Ranked.kind, in the order actions tie (plays first)
    ACTION_RETURN = 1
    ACTION_PASS = 2

ctypedef struct LeaveTable:
    # A leave model as leaves.LeaveModel holds it, with the constants it needs.
    double weight[STAGE_COUNT][FEATURE_COUNT]
    double returns[STAGE_COUNT]         # a stage's return term
    int stage_low[STAGE_COUNT]          # box sizes of a stage, inclusive
    int stage_high[STAGE_COUNT]
    int penalty[RANK_COUNT]             # a real tile's end-of-game cost by rank index

ctypedef struct Ranked:
    # One action: a play (``play`` as generated), a return (``play.n`` tiles
    # in ``play.card``, ascending, a joker as 52; ``play.score`` 0) or a pass.
    long long key               # the equity to 1e-9 (see _equity_key)
    double value                # the leave value, a return's term included
    int kind                    # ACTION_*
    PlayRecord play

cdef int stage_index(const LeaveTable* table, int box_size) noexcept nogil
cdef double leave_value(const LeaveTable* table, int stage, const unsigned char* counts) noexcept nogil
cdef long long rank_actions(Board* board, const LeaveTable* table, int box_size, int returns, long long limit,
                            PlayRecord** plays, size_t* capacity, Ranked** ranked, size_t* ranked_capacity) noexcept nogil

cdef class LeaveModel:
    cdef LeaveTable table
