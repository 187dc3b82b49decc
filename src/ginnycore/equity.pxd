# Equity in C: leave values, every return subset and one ranking of plays and
# returns on the score + leave scale (docs/EQUITY.md).  Other Cython code (a
# compiled game loop) may cimport these declarations.
from ginnycore.types cimport Board, PlayRecord

cdef enum:
    FEATURE_COUNT = 11          # leaves.FEATURES
    STATE_COUNT = 7             # leaves.STATE_FEATURES
    STAGE_COUNT = 4             # leaves.STAGES
    PLAYER_MODELS = 3           # one model a player count, 2 to 4 (leaves.PLAYER_COUNTS)
    RANK_COUNT = 13
    ACTION_PLAY = 0             # Ranked.kind, in the order actions tie (plays first)
    ACTION_RETURN = 1
    ACTION_PASS = 2

ctypedef struct LeaveTable:
    # A leave model as leaves.LeaveModel holds it, with the constants it needs:
    # one set of weights a player count (index players - 2).
    double weight[PLAYER_MODELS][STAGE_COUNT][FEATURE_COUNT]
    double returns[PLAYER_MODELS][STAGE_COUNT]          # a stage's return term
    double state[PLAYER_MODELS][STAGE_COUNT][STATE_COUNT]   # the weights of leaves.STATE_FEATURES
    int stage_low[STAGE_COUNT]          # box sizes of a stage, inclusive
    int stage_high[STAGE_COUNT]
    int penalty[RANK_COUNT]             # a real tile's end-of-game cost by rank index
    int open_first                      # while no meld is down, a player with a play plays (no returns)

ctypedef struct GameState:
    # What the leave model sees of the game besides the box and the rack
    # (leaves.LeaveState): rank_actions takes NULL for the default one (2
    # players, a meld on the board, the stall clock at 0).
    int players                 # 2 to 4 (others are clamped)
    int opened                  # a meld is on the board
    long long quiet_turns       # turns in a row without a play so far (the game-end clock)
    long long quiet_limit       # how many end the game (rules.quiet_turn_limit); 0 or less: no clock

ctypedef struct LeaveRow:
    # One decision's weights: a stage's row with the game state folded in.
    double weight[FEATURE_COUNT]
    double returns                      # the return term

ctypedef struct Ranked:
    # One action: a play (``play`` as generated), a return (``play.n`` tiles
    # in ``play.card``, ascending, a joker as 52; ``play.score`` 0) or a pass.
    long long key               # the equity to 1e-9 (see _equity_key)
    double value                # the leave value, a return's term included
    int kind                    # ACTION_*
    PlayRecord play

cdef int stage_index(const LeaveTable* table, int box_size) noexcept nogil
cdef void leave_row(LeaveRow* row, const LeaveTable* table, int box_size, const GameState* state) noexcept nogil
cdef double leave_value(const LeaveTable* table, const LeaveRow* row, const unsigned char* counts) noexcept nogil
cdef long long rank_actions(Board* board, const LeaveTable* table, int box_size, const GameState* state,
                            int returns, long long limit,
                            PlayRecord** plays, size_t* capacity, Ranked** ranked, size_t* ranked_capacity) noexcept nogil

cdef class LeaveModel:
    cdef LeaveTable table
