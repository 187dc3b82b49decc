# Leave values in C: a leave's features and value by the model of
# python/ginnyo/leaves.py, and a rack as bits so that every sub-multiset's
# value comes from masks and nibble tables.  Included in equity.pyx.


cdef int stage_index(const LeaveTable* table, int box_size) noexcept nogil:
    """The stage of a decision with ``box_size`` tiles in the box: leaves.stage_of."""
    cdef int stage
    for stage in range(STAGE_COUNT):
        if table.stage_low[stage] <= box_size <= table.stage_high[stage]:
            return stage
    return STAGE_COUNT - 1


cdef GameState DEFAULT_STATE
DEFAULT_STATE.players = 2
DEFAULT_STATE.opened = 1
DEFAULT_STATE.quiet_turns = 0
DEFAULT_STATE.quiet_limit = 0


cdef void leave_row(LeaveRow* row, const LeaveTable* table, int box_size, const GameState* state) noexcept nogil:
    """The weights of one decision (leaves.LeaveModel.row): the stage's row of
    the player count's model with the state folded in.  The state features
    (leaves.STATE_FEATURES) are the end penalty and the tiles kept by the stall
    clock, the tiles and jokers kept while no meld is down, and the return term
    by no meld, by the clock and by the box's share of its size after the deal."""
    cdef int players, model, stage = stage_index(table, box_size), full, box, f
    cdef double clock = 0.0, unopened, share
    cdef const double* s
    if state == NULL:
        state = &DEFAULT_STATE
    players = state.players
    if players < MIN_PLAYERS:
        players = MIN_PLAYERS
    elif players > MAX_PLAYERS:
        players = MAX_PLAYERS
    model = players - MIN_PLAYERS
    s = table.state[model][stage]
    unopened = 0.0 if state.opened else 1.0
    if state.quiet_limit > 0 and state.quiet_turns > 0:
        clock = (<double>(state.quiet_turns if state.quiet_turns < state.quiet_limit else state.quiet_limit)
                 / <double>state.quiet_limit)
    full = sets_for(players) * (NUM_CARDS + JOKERS_PER_SET) - RACK_SIZE * players
    box = box_size if box_size > 0 else 0
    share = <double>(box if box < full else full) / <double>full
    for f in range(FEATURE_COUNT):
        row.weight[f] = table.weight[model][stage][f]
    row.weight[0] = row.weight[0] + (clock * s[1] + unopened * s[2])
    row.weight[1] = row.weight[1] + unopened * s[3]
    row.weight[2] = row.weight[2] + clock * s[0]
    row.returns = table.returns[model][stage] + ((unopened * s[4] + clock * s[5]) + share * s[6])


cdef inline double _dot(const int* f, const LeaveRow* row) noexcept nogil:
    """The leave value: the features by the decision's weights, summed in a fixed
    order (the same features give the same value, bit for bit)."""
    cdef const double* w = &row.weight[0]   # not row.weight: Cython's temporary for the array drops const
    return ((((<double>f[0] * w[0] + <double>f[1] * w[1]) + (<double>f[2] * w[2] + <double>f[3] * w[3]))
             + ((<double>f[4] * w[4] + <double>f[5] * w[5]) + (<double>f[6] * w[6] + <double>f[7] * w[7])))
            + ((<double>f[8] * w[8] + <double>f[9] * w[9]) + <double>f[10] * w[10]))


cdef double _value_of(const LeaveTable* table, const LeaveRow* row, const unsigned char* counts,
                      const unsigned char* kinds, int n_kinds, double* out) noexcept nogil:
    """The leave value of ``counts`` (53 tile counts) looking only at the tile
    kinds listed in ``kinds``; the features go to ``out`` when it is not NULL.
    The features are leaves.features: tiles, jokers, penalty, aces, high,
    pairs, trips, connected, gapped, runs (the ace also above the king, never
    K A 2) and duplicates."""
    cdef int by_rank[RANK_COUNT]
    cdef unsigned int held[4]
    cdef unsigned int line
    cdef int i, kind, count, rank
    cdef int feature[FEATURE_COUNT]
    memset(by_rank, 0, sizeof(by_rank))
    memset(held, 0, sizeof(held))
    memset(feature, 0, sizeof(feature))
    for i in range(n_kinds):
        kind = kinds[i]
        count = counts[kind]
        if count == 0:
            continue
        feature[0] += count
        if kind == JOKER:
            feature[1] += count
            continue
        rank = kind % RANK_COUNT
        by_rank[rank] += count
        held[kind // RANK_COUNT] |= 1u << rank
        feature[10] += count - 1
    for rank in range(RANK_COUNT):
        feature[2] += by_rank[rank] * table.penalty[rank]
        feature[5] += by_rank[rank] >= 2
        feature[6] += by_rank[rank] >= 3
        if rank >= 9:
            feature[4] += by_rank[rank]
    feature[3] = by_rank[0]
    for i in range(4):
        line = held[i] | ((held[i] & 1u) << RANK_COUNT)       # the ace again above the king
        feature[7] += __builtin_popcount(line & (line >> 1))
        feature[8] += __builtin_popcount(line & (line >> 2))
        feature[9] += __builtin_popcount(line & (line >> 1) & (line >> 2))
    if out != NULL:
        for i in range(FEATURE_COUNT):
            out[i] = feature[i]
    return _dot(feature, row)


cdef unsigned char ALL_KINDS[RACK_KINDS]
cdef int _kind
for _kind in range(RACK_KINDS):
    ALL_KINDS[_kind] = _kind


cdef double leave_value(const LeaveTable* table, const LeaveRow* row, const unsigned char* counts) noexcept nogil:
    """The value of the leave ``counts`` (53 tile counts) by the decision's weights ``row``."""
    return _value_of(table, row, counts, ALL_KINDS, RACK_KINDS, NULL)


ctypedef struct Rack:
    # The rack's tiles one a bit, ascending by kind, and masks and nibble
    # tables that give a leave's features from the bits it keeps.  A leave
    # of the same tiles is always the same mask: of the copies of a kind, the
    # lowest bits are kept (``L & follows & ~(L << 1)`` is 0).
    int n
    unsigned char kind[MAX_PLACED]      # by bit
    int n_kinds
    unsigned char kinds[MAX_PLACED]     # the kinds held, each once
    int first[RACK_KINDS]               # per kind: its lowest bit
    unsigned int full
    unsigned int follows                # bits whose tile is the kind of the bit below
    unsigned int card_follows           # ... for cards only (duplicates)
    unsigned int jokers
    unsigned int aces
    unsigned int high
    int n_multi                         # ranks held twice or more
    unsigned int rank_bits[RANK_COUNT]  # ... their bits
    int penalty[4][16]                  # by nibble k of a mask: the penalty of its bits
    uint64_t held[4][16]                # ... the ranks held, a 16-bit lane a suit


cdef void _rack_of(Rack* rack, const LeaveTable* table, const unsigned char* counts) noexcept nogil:
    cdef int kind, copy, bit, k, m, rank
    cdef int by_rank[RANK_COUNT]
    memset(rack, 0, sizeof(Rack))
    memset(by_rank, 0, sizeof(by_rank))
    for kind in range(RACK_KINDS):
        rack.first[kind] = rack.n
        if counts[kind]:
            rack.kinds[rack.n_kinds] = <unsigned char>kind
            rack.n_kinds += 1
        for copy in range(counts[kind]):
            bit = rack.n
            rack.kind[bit] = <unsigned char>kind
            rack.n += 1
            if copy:
                rack.follows |= 1u << bit
                if kind != JOKER:
                    rack.card_follows |= 1u << bit
            if kind == JOKER:
                rack.jokers |= 1u << bit
                continue
            rank = kind % RANK_COUNT
            by_rank[rank] += 1
            if rank == 0:
                rack.aces |= 1u << bit
            elif rank >= 9:
                rack.high |= 1u << bit
    rack.full = (1u << rack.n) - 1u
    for rank in range(RANK_COUNT):
        if by_rank[rank] >= 2:
            for bit in range(rack.n):
                if rack.kind[bit] != JOKER and rack.kind[bit] % RANK_COUNT == rank:
                    rack.rank_bits[rack.n_multi] |= 1u << bit
            rack.n_multi += 1
    for k in range(4):
        for m in range(1, 16):
            bit = 4 * k + __builtin_ctz(m)
            rack.penalty[k][m] = rack.penalty[k][m & (m - 1)]
            rack.held[k][m] = rack.held[k][m & (m - 1)]
            if bit < rack.n and rack.kind[bit] != JOKER:
                kind = rack.kind[bit]
                rack.penalty[k][m] += table.penalty[kind % RANK_COUNT]
                rack.held[k][m] |= (<uint64_t>1) << (16 * (kind // RANK_COUNT) + kind % RANK_COUNT)


cdef inline double _mask_value(const Rack* rack, const LeaveRow* row, unsigned int kept) noexcept nogil:
    """The value of the leave that keeps the rack's bits ``kept``: _value_of's
    features (so the same value) from popcounts and nibble tables."""
    cdef int feature[FEATURE_COUNT]
    cdef int j, count
    cdef uint64_t held = (rack.held[0][kept & 15] | rack.held[1][(kept >> 4) & 15]
                          | rack.held[2][(kept >> 8) & 15] | rack.held[3][(kept >> 12) & 15])
    held |= (held & ACE_LANES) << RANK_COUNT        # the ace again above the king, in every suit
    feature[0] = __builtin_popcount(kept)
    feature[1] = __builtin_popcount(kept & rack.jokers)
    feature[2] = (rack.penalty[0][kept & 15] + rack.penalty[1][(kept >> 4) & 15]
                  + rack.penalty[2][(kept >> 8) & 15] + rack.penalty[3][(kept >> 12) & 15])
    feature[3] = __builtin_popcount(kept & rack.aces)
    feature[4] = __builtin_popcount(kept & rack.high)
    feature[5] = 0
    feature[6] = 0
    for j in range(rack.n_multi):
        count = __builtin_popcount(kept & rack.rank_bits[j])
        feature[5] += count >= 2
        feature[6] += count >= 3
    feature[7] = __builtin_popcountll(held & (held >> 1))
    feature[8] = __builtin_popcountll(held & (held >> 2))
    feature[9] = __builtin_popcountll(held & (held >> 1) & (held >> 2))
    feature[10] = __builtin_popcount(kept & rack.card_follows)
    return _dot(feature, row)
