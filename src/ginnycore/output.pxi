# What generation hands out: the ranking of plays, and a found play kept by mode
# (all, best, the first N in a heap).  Included in core.pyx.

cdef inline int _rank_order(int score, int jokers, int n, const short* square, unsigned int joker_at,
                            const signed char* card, const PlayRecord* other) noexcept nogil:
    """The ranking of plays, defined once: -1 when the play of the fields (a
    joker on placed index i when bit i of ``joker_at`` is set) comes before
    ``other``, 1 when after, 0 when it is the same play.  First the higher
    score, then fewer jokers, more tiles, then the placements (square, joker?,
    card) in order: ScoredPlay.sort_key in python/ginnyo/vocab/play.py."""
    cdef int i, joker, other_joker
    if score != other.score:
        return -1 if score > other.score else 1
    if jokers != other.jokers:
        return -1 if jokers < other.jokers else 1
    if n != other.n:
        return -1 if n > other.n else 1
    for i in range(n):
        if square[i] != other.square[i]:
            return -1 if square[i] < other.square[i] else 1
        joker = (joker_at >> i) & 1u
        other_joker = play_joker(other, i)
        if joker != other_joker:
            return -1 if joker < other_joker else 1
        if card[i] != other.card[i]:
            return -1 if card[i] < other.card[i] else 1
    return 0


cdef inline int _better(Gen* gen, unsigned int joker_at, int score, int jokers, const PlayRecord* best) noexcept nogil:
    """Is the play in ``gen`` ahead of ``best`` in the ranking?"""
    return _rank_order(score, jokers, gen.line.k, gen.line.placed_square, joker_at, gen.line.card, best) < 0


cdef inline int _ranks_after(const PlayRecord* play, const PlayRecord* other) noexcept nogil:
    """Does the stored ``play`` come after ``other`` in the ranking?"""
    return _rank_order(play.score, play.jokers, play.n, play.square, play.joker_at, play.card, other) > 0


cdef inline void _record(Gen* gen, PlayRecord* record, unsigned int joker_at, int score, int jokers) noexcept nogil:
    """Write the play to ``record``: whole fixed-size arrays, which compile to a
    few moves with no loop over the placed tiles (entries past ``n`` are unused)."""
    record.score = score
    record.n = gen.line.k
    record.jokers = jokers
    record.joker_at = joker_at
    memcpy(record.square, gen.line.placed_square, sizeof(record.square))
    memcpy(record.card, gen.line.card, sizeof(record.card))


cdef int _grow_plays(Gen* gen) noexcept nogil:
    """Double the capacity of the plays array (GEN_ALL), up to the store limit;
    0 when out of memory or over the limit, which also stops generation."""
    cdef size_t new_capacity = gen.out.capacity[0] * 2 if gen.out.capacity[0] else 1024
    cdef PlayRecord* grown
    if gen.out.store_limit and new_capacity > gen.out.store_limit:
        new_capacity = gen.out.store_limit
        if new_capacity <= gen.out.capacity[0]:
            gen.out.failed = OVER_LIMIT
            gen.out.done = 1
            return 0
    grown = <PlayRecord*>realloc(gen.out.plays[0], new_capacity * sizeof(PlayRecord))
    if grown == NULL:
        gen.out.failed = OUT_OF_MEMORY
        gen.out.done = 1
        return 0
    gen.out.plays[0] = grown
    gen.out.capacity[0] = new_capacity
    return 1


cdef void _heap_up(PlayRecord* heap, size_t i) noexcept nogil:
    """Move heap[i] towards the root while it ranks after its parent."""
    cdef PlayRecord moving = heap[i]
    cdef size_t parent
    while i > 0:
        parent = (i - 1) >> 1
        if not _ranks_after(&moving, &heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = moving


cdef void _heap_down(PlayRecord* heap, size_t size, size_t i) noexcept nogil:
    """Move heap[i] away from the root while a child ranks after it."""
    cdef PlayRecord moving = heap[i]
    cdef size_t child
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _ranks_after(&heap[child + 1], &heap[child]):
            child += 1
        if not _ranks_after(&heap[child], &moving):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = moving


cdef void _heap_sort(Top* top) noexcept nogil:
    """Turn the heap into the kept plays in ranking order, first first."""
    cdef size_t end = top.size
    cdef PlayRecord last
    while end > 1:
        end -= 1
        last = top.heap[0]
        top.heap[0] = top.heap[end]
        top.heap[end] = last
        _heap_down(top.heap, end, 0)


cdef int _grow_top(Gen* gen) noexcept nogil:
    """Double the heap's array, to at most its limit; 0 when out of memory,
    which also stops generation."""
    cdef Top* top = gen.out.top
    cdef size_t new_capacity = top.capacity * 2 if top.capacity else 1024
    cdef PlayRecord* grown
    if new_capacity > top.limit:
        new_capacity = top.limit
    grown = <PlayRecord*>realloc(top.heap, new_capacity * sizeof(PlayRecord))
    if grown == NULL:
        gen.out.failed = 1
        gen.out.done = 1
        return 0
    top.heap = grown
    top.capacity = new_capacity
    return 1


cdef void _keep_top(Gen* gen, unsigned int joker_at, int score, int jokers) noexcept nogil:
    """GEN_TOP: keep the play in ``gen`` when it ranks after ``top.after`` and
    among the first ``top.limit``; once the heap is full its root's score is
    the floor, below which generation prunes."""
    cdef Top* top = gen.out.top
    if score < gen.out.floor:
        return
    if top.has_after and _rank_order(score, jokers, gen.line.k, gen.line.placed_square, joker_at, gen.line.card,
                                      &top.after) <= 0:
        return
    if top.size < top.limit:
        if top.size == top.capacity and not _grow_top(gen):
            return
        _record(gen, &top.heap[top.size], joker_at, score, jokers)
        _heap_up(top.heap, top.size)
        top.size += 1
        if top.size == top.limit:
            gen.out.floor = top.heap[0].score
    elif _better(gen, joker_at, score, jokers, &top.heap[0]):
        _record(gen, &top.heap[0], joker_at, score, jokers)
        _heap_down(top.heap, top.size, 0)
        gen.out.floor = top.heap[0].score


cdef inline void _emit(Gen* gen, unsigned int joker_at, int score, int jokers) noexcept nogil:
    """A play found: the placed cards ``gen.line.card``, a joker on placed index i
    when bit i of ``joker_at`` is set, scoring ``score``."""
    if gen.out.mode == GEN_ALL:
        if <size_t>gen.out.count >= gen.out.capacity[0] and not _grow_plays(gen):
            return
        _record(gen, &gen.out.plays[0][gen.out.count], joker_at, score, jokers)
    elif gen.out.mode == GEN_BEST:
        if not gen.out.have_best or _better(gen, joker_at, score, jokers, gen.out.best):
            _record(gen, gen.out.best, joker_at, score, jokers)
            gen.out.have_best = 1
            gen.out.floor = score
    elif gen.out.mode >= GEN_ANY:      # one test on the way to counting, as with no GEN_TOP
        if gen.out.mode == GEN_ANY:
            gen.out.done = 1
        else:
            _keep_top(gen, joker_at, score, jokers)
    gen.out.count += 1
