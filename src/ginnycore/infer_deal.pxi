# Rollout deals against inferred racks (ginnycore.simulate's optional hook; docs/INFERENCE.md).
#
# When a seat's kept tiles were inferred (ginnyo.inference), its rack in a
# rollout is one of the inferred leaves, drawn by Walker's alias table with the
# rollout's generator, topped up from the shuffled rest; the other seats and
# the box are dealt from what is left, as _deal does.  A leave that no longer
# fits the tiles left (another seat's took one) is drawn again, at most
# LEAVE_TRIES times, and the seat is then dealt at random.

cdef enum:
    LEAVE_TRIES = 8

ctypedef struct InferredDeal:
    # A seat's inferred leaves (seat 0 unused): n of them, RACK_KINDS counts
    # each, and the alias table (the probability of keeping a column, the other).
    int n[MAX_PLAYERS]
    unsigned char* leaves[MAX_PLAYERS]
    double* keep[MAX_PLAYERS]
    int* alias[MAX_PLAYERS]


cdef inline double _uniform(uint64_t* state) noexcept nogil:
    """A number in [0, 1) of 53 random bits."""
    return <double>(splitmix_next(state) >> 11) * (1.0 / 9007199254740992.0)


cdef int _take_leave(signed char* tiles, int at, int n_tiles, const unsigned char* leave) noexcept nogil:
    """Move the tiles of ``leave`` among ``tiles[at:n_tiles]`` to the front of
    that range; the new ``at``, or -1 (the range unchanged as a multiset) when
    they are not all there."""
    cdef int tile, copies, i, start = at
    cdef signed char moved
    for tile in range(RACK_KINDS):
        copies = leave[tile]
        i = at
        while copies > 0 and i < n_tiles:
            if tiles[i] == tile:
                moved = tiles[at]
                tiles[at] = tiles[i]
                tiles[i] = moved
                at += 1
                copies -= 1
            i += 1
        if copies > 0:
            return -1
    return at if at >= start else -1


cdef void _deal_inferred(const Sim* sim, const InferredDeal* inferred, long long index, Deal* deal) noexcept nogil:
    """Rollout ``index``'s deal with the inferred seats' leaves drawn first."""
    cdef uint64_t state = rollout_state(sim.seed, index)
    cdef signed char tiles[MAX_TILES]
    cdef signed char tile
    cdef int kept_at[MAX_PLAYERS]
    cdef int kept_n[MAX_PLAYERS]
    cdef int i, j, seat, try_, pick, at = 0, taken, fill
    memcpy(tiles, sim.unseen, sim.n_unseen)
    for seat in range(1, sim.players):
        kept_at[seat] = at
        kept_n[seat] = 0
        if inferred.n[seat] <= 0:
            continue
        for try_ in range(LEAVE_TRIES):
            pick = splitmix_below(&state, inferred.n[seat])
            if _uniform(&state) >= inferred.keep[seat][pick]:
                pick = inferred.alias[seat][pick]
            taken = _take_leave(tiles, at, sim.n_unseen, &inferred.leaves[seat][pick * RACK_KINDS])
            if taken >= 0 and taken - at <= sim.hand[seat]:
                kept_n[seat] = taken - at
                at = taken
                break
    for i in range(sim.n_unseen - 1, at, -1):
        j = at + splitmix_below(&state, i - at + 1)
        tile = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = tile
    memset(deal.hands, 0, sizeof(deal.hands))
    for seat in range(1, sim.players):
        deal.hand_size[seat] = sim.hand[seat]
        for i in range(kept_n[seat]):
            deal.hands[seat][tiles[kept_at[seat] + i]] += 1
        for fill in range(sim.hand[seat] - kept_n[seat]):
            deal.hands[seat][tiles[at]] += 1
            at += 1
    deal.n_box = sim.n_unseen - at
    memcpy(deal.box, &tiles[at], deal.n_box)
    deal.returns_seed = splitmix_next(&state)


cdef int _set_inferred(Sim* sim, InferredDeal* inferred, object given) except -1:
    """Check and copy ``given``: one entry an opponent seat, None or
    ``(leaves, keep, alias)`` (leaves a bytes of 53 counts each, the alias
    table's columns); ``sim.inferred`` points at ``inferred`` when any is set."""
    cdef int seat, n, i, size
    given = list(given)
    if len(given) != sim.players - 1:
        raise ValueError(f"inferred: one entry an opponent ({sim.players - 1}), not {len(given)}")
    for seat in range(1, sim.players):
        entry = given[seat - 1]
        if entry is None:
            continue
        leaves, keep, alias = entry
        leaves = bytes(leaves)
        keep = [float(value) for value in keep]
        alias = [int(value) for value in alias]
        n = len(keep)
        if n < 1 or len(alias) != n or len(leaves) != n * RACK_KINDS:
            raise ValueError(f"inferred seat {seat}: {n} leaves need {n} alias columns and {n * RACK_KINDS} counts")
        for i in range(n):
            if not 0 <= alias[i] < n:
                raise ValueError(f"inferred seat {seat}: alias {alias[i]} is not a leave")
            size = sum(leaves[i * RACK_KINDS:(i + 1) * RACK_KINDS])
            if size > sim.hand[seat]:
                raise ValueError(f"inferred seat {seat}: a leave of {size} tiles, more than its rack")
        inferred.leaves[seat] = <unsigned char*>malloc(n * RACK_KINDS)
        inferred.keep[seat] = <double*>malloc(n * sizeof(double))
        inferred.alias[seat] = <int*>malloc(n * sizeof(int))
        if inferred.leaves[seat] == NULL or inferred.keep[seat] == NULL or inferred.alias[seat] == NULL:
            raise MemoryError()
        inferred.n[seat] = n
        for i in range(n * RACK_KINDS):
            inferred.leaves[seat][i] = leaves[i]
        for i in range(n):
            inferred.keep[seat][i] = keep[i]
            inferred.alias[seat][i] = alias[i]
        sim.inferred = <void*>inferred
    return 0


cdef void _free_inferred(InferredDeal* inferred) noexcept:
    cdef int seat
    for seat in range(MAX_PLAYERS):
        free(inferred.leaves[seat])
        free(inferred.keep[seat])
        free(inferred.alias[seat])


def inferred_deal(unseen, opponent_racks, seed, long long index, inferred):
    """Rollout ``index``'s deal (as :func:`deal`) with the opponents' leaves of
    ``inferred`` (as :class:`Rollouts` takes it) drawn first."""
    cdef Sim sim
    cdef InferredDeal tables
    cdef Deal dealt
    cdef int seat, tile
    memset(&sim, 0, sizeof(Sim))
    memset(&tables, 0, sizeof(InferredDeal))
    _set_tiles(&sim, unseen, opponent_racks, seed)
    if index < 0 or index >= (1 << 62):
        raise ValueError(f"index must be from 0 to 2**62 - 1, not {index}")
    try:
        _set_inferred(&sim, &tables, inferred)
        if sim.inferred != NULL:
            _deal_inferred(&sim, &tables, index, &dealt)
        else:
            _deal(&sim, index, &dealt)
    finally:
        _free_inferred(&tables)
    hands = [[tile for tile in range(RACK_KINDS) for _ in range(dealt.hands[seat][tile])]
             for seat in range(1, sim.players)]
    return hands, [dealt.box[tile] for tile in range(dealt.n_box)], dealt.returns_seed
