# Many positions in one call: the batch best-play solver and Cores.
# Included in core.pyx.

cdef inline void _load_row(Board* board, const unsigned char* row_cards, const unsigned char* row_rack) noexcept nogil:
    cdef int size = board.size
    memcpy(board.card, row_cards, size)             # EMPTY_BYTE is EMPTY (-1) as a signed char
    memcpy(board.joker, row_cards + size, size)     # nonzero: a joker
    memcpy(board.rack, row_rack, RACK_KINDS)


cdef void _write_melds(Board* board, const PlayRecord* play, int* out) noexcept nogil:
    """The melds of a legal stored play into ``out``: MAX_MELDS rows of
    MELD_FIELDS (as ``score_play`` gives them, in order), the rows after the
    last filled with -1."""
    cdef int melds[MELD_FIELDS * MELDS_BUFFER + 1]
    cdef int i, n = 0
    for i in range(MAX_MELDS * MELD_FIELDS):
        out[i] = -1
    if _melds_of(board, play, melds) >= 0:
        n = min(_meld_count(melds), MAX_MELDS)
        memcpy(out, melds, n * MELD_FIELDS * sizeof(int))


cdef inline double _now() noexcept nogil:
    cdef timespec clock
    clock_gettime(CLOCK_MONOTONIC, &clock)
    return clock.tv_sec + clock.tv_nsec * 1e-9


def best_plays_batch(Core layout not None, const unsigned char[:, ::1] boards not None,
                     const unsigned char[:, ::1] racks not None, int[:] scores not None,
                     short[:, :] squares not None, signed char[:, :] cards not None,
                     unsigned char[:, :] jokers not None, threads=1, double[:] seconds=None,
                     int[:, :, ::1] melds=None):
    """Solve many positions of one layout; ``layout`` is a Core of that layout.

    ``boards`` holds a row per position: the cards of every square (255 empty)
    then the joker flags; ``racks`` 53 counts a row.  Each row's best play goes
    to ``scores`` (-1 when there is none; the placed count is the number of
    ``squares`` entries that are not -1), ``squares``, ``cards`` and ``jokers``
    (14 columns each).  ``threads`` > 1 spreads the rows over that many cores
    (at most one thread a processor is started).  With ``seconds``, each row's
    time (load, prepare and search) goes there.  With ``melds`` (int32, shape
    (n, MAX_MELDS, 5)), each row's best play's melds go there, as ``score_play``
    gives them in order, the rows after the last -1.  ``layout`` is in use for
    the length of the call.
    """
    cdef Py_ssize_t n = boards.shape[0], row
    cdef int i, size = layout.board.size, bad, workers = thread_count(threads)
    cdef const unsigned char* cells
    # each thread's own, set first thing in the parallel block: NULL here so that the
    # copy OpenMP makes of them (firstprivate) is of a set value
    cdef Board* local = NULL
    cdef PlayRecord* best = NULL
    cdef long long found
    cdef int timed = seconds is not None, with_melds = melds is not None
    cdef double started = 0
    if timed and seconds.shape[0] < n:
        raise ValueError("seconds is too small")
    if with_melds and (melds.shape[0] < n or melds.shape[1] != MAX_MELDS or melds.shape[2] != MELD_FIELDS):
        raise ValueError(f"melds must be (n, {MAX_MELDS}, {MELD_FIELDS})")
    if boards.shape[1] != 2 * size or racks.shape[0] != n or racks.shape[1] != RACK_KINDS:
        raise ValueError("boards must be (n, 2 x squares) and racks (n, 53)")
    if scores.shape[0] < n or squares.shape[0] < n or cards.shape[0] < n or jokers.shape[0] < n \
            or squares.shape[1] < MAX_PLACED or cards.shape[1] < MAX_PLACED or jokers.shape[1] < MAX_PLACED:
        raise ValueError("output arrays are too small")
    for row in range(n):
        cells = &boards[row, 0]
        bad = 0
        for i in range(size):       # no early exit, so the compiler can vectorise it
            bad |= (cells[i] >= NUM_CARDS) & (cells[i] != EMPTY_BYTE)
        if bad:
            for i in range(size):
                if cells[i] != EMPTY_BYTE and cells[i] >= NUM_CARDS:
                    raise ValueError(f"row {row}: card {cells[i]} on square {i}")
    claim(layout)
    with nogil, parallel(num_threads=workers):
        # assigned in the parallel block, so private to each thread
        local = board_clone(layout.board)
        best = <PlayRecord*>malloc(sizeof(PlayRecord))
        for row in prange(n, schedule="dynamic", chunksize=64):
            if local == NULL or best == NULL:
                scores[row] = -2
                continue
            if timed:
                started = _now()
            _load_row(local, &boards[row, 0], &racks[row, 0])
            board_prepare(local)
            found = board_generate(local, GEN_BEST, best, NULL, NULL)
            if timed:
                seconds[row] = _now() - started
            for i in range(MAX_PLACED):
                squares[row, i] = -1
            if found == 0:
                scores[row] = -1
                continue
            scores[row] = best.score
            for i in range(best.n):
                squares[row, i] = best.square[i]
                cards[row, i] = best.card[i]
                jokers[row, i] = play_joker(best, i)
            if with_melds:
                _write_melds(local, best, &melds[row, 0, 0])
        free(local)
        free(best)
    release(layout)


cdef class Cores:
    """Many loaded cores, their plays generated or counted in one call, on one
    thread or several: what ``Core.generate_plays`` and ``Core.count_plays`` do
    for one core, without a Python call a core.  Each core keeps its plays in
    its own C array, as ``generate_plays`` leaves them.  A core may be listed
    only once (two threads would write its plays at once); a call refuses
    (RuntimeError) while another thread's call has one of the cores, and holds
    them all until it returns.  ``threads`` is at most one a processor.
    ``Cores(cores)`` keeps the cores alive.
    """
    cdef list cores
    cdef Board** boards
    cdef PlayRecord*** plays
    cdef size_t** capacities
    cdef long long** stored
    cdef Py_ssize_t n

    def __cinit__(self, cores):
        cdef Core core
        cdef Py_ssize_t i
        self.boards = NULL
        self.plays = NULL
        self.capacities = NULL
        self.stored = NULL
        self.cores = list(cores)
        self.n = len(self.cores)
        first = {}
        for i in range(self.n):
            if not isinstance(self.cores[i], Core):
                raise TypeError(f"cores[{i}] is a {type(self.cores[i]).__name__}, not a Core")
            if first.setdefault(id(self.cores[i]), i) != i:
                raise ValueError(f"cores[{i}] is cores[{first[id(self.cores[i])]}] again: "
                                 "a core may be listed only once")
        self.boards = <Board**>malloc(max(self.n, 1) * sizeof(Board*))
        self.plays = <PlayRecord***>malloc(max(self.n, 1) * sizeof(PlayRecord**))
        self.capacities = <size_t**>malloc(max(self.n, 1) * sizeof(size_t*))
        self.stored = <long long**>malloc(max(self.n, 1) * sizeof(long long*))
        if self.boards == NULL or self.plays == NULL or self.capacities == NULL or self.stored == NULL:
            raise MemoryError()
        for i in range(self.n):
            core = self.cores[i]
            self.boards[i] = core.board
            self.plays[i] = &core.plays
            self.capacities[i] = &core.capacity
            self.stored[i] = &core.stored

    def __dealloc__(self):
        free(self.boards)
        free(self.plays)
        free(self.capacities)
        free(self.stored)

    def __len__(self):
        return self.n

    cdef inline long long _generate_one(self, Py_ssize_t i, int mode) noexcept nogil:
        if mode == GEN_ALL:
            return board_generate(self.boards[i], GEN_ALL, NULL, self.plays[i], self.capacities[i])
        return board_generate(self.boards[i], mode, NULL, NULL, NULL)

    cdef object _run(self, int mode, object threads):
        """``board_generate`` in ``mode`` on every core: the counts, as an int64 array."""
        import numpy
        cdef Py_ssize_t i, n = self.n, claimed = 0
        cdef long long[::1] counts
        cdef int workers = thread_count(threads)
        result = numpy.empty(n, dtype=numpy.int64)
        counts = result
        try:
            while claimed < n:
                claim(<Core>self.cores[claimed])
                claimed += 1
        finally:
            if claimed < n:     # one was in use: let go of those taken
                for i in range(claimed):
                    release(<Core>self.cores[i])
        with nogil:
            if workers == 1:
                for i in range(n):
                    counts[i] = self._generate_one(i, mode)
            else:
                for i in prange(n, schedule="dynamic", chunksize=16, num_threads=workers):
                    counts[i] = self._generate_one(i, mode)
            if mode == GEN_ALL:
                for i in range(n):
                    self.stored[i][0] = max(counts[i], 0)
        for i in range(n):
            release(<Core>self.cores[i])
        for i in range(n):
            if counts[i] < 0:
                raise MemoryError(f"the plays of cores[{i}] did not fit in memory")
        return result

    def count_plays(self, threads=1):
        """How many legal plays each core has (nothing is stored), as an int64 array."""
        return self._run(GEN_COUNT, threads)

    def generate_plays(self, threads=1):
        """Generate every legal play of every core, with its score, into that
        core's own C array; how many each has, as an int64 array."""
        return self._run(GEN_ALL, threads)
