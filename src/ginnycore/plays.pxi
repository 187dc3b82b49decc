# Plays handed back to Python: placements and melds as tuples, sorted in C,
# or built as the caller's objects by a PlayMaker.  Included in core.pyx.

cdef int _compare_plays(const void* a, const void* b) noexcept nogil:
    """qsort's order of two stored plays: the ranking."""
    cdef const PlayRecord* play = <const PlayRecord*>a
    return _rank_order(play.score, play.jokers, play.n, play.square, play.joker_at, play.card,
                       <const PlayRecord*>b)


cdef int _meld_count(const int* melds) noexcept nogil:
    """How many melds board_score wrote (they end with a direction of -1)."""
    cdef int n = 0
    while n < MELDS_BUFFER and melds[MELD_FIELDS * n] >= 0:
        n += 1
    return n


cdef enum:
    CROSS_ALONE = -1        # _crossing_meld: the tile is alone on that line
    CROSS_UNKNOWN = -2      # ... the cross-check knows no meld there (score_lines decides)


cdef int _melds_of(Board* board, const PlayRecord* play, int* melds) noexcept nogil:
    """The score of a play the generator made on ``board`` (so legal: only its
    lines are scored), or an ILLEGAL_* code; its melds go to ``melds`` (room for
    MELDS_BUFFER and the end mark) as :func:`_sort_melds` leaves them.  The
    lines crossing the play are read from board_prepare's cross-checks, and
    only the play's own line is walked (score_lines, which walks every line
    through every tile, when a crossing line is not a meld the checks know)."""
    cdef unsigned char jokers[MAX_PLACED]
    cdef int i, result, count = 0, total = 0, along
    for i in range(play.n):
        jokers[i] = play_joker(play, i)
    if play.n == 1:         # the tile crosses both lines through it
        for i in range(2):
            along = DOWN if i == 0 else ACROSS      # the row's meld, then the column's
            result = _crossing_meld(board, play.square[0], play.card[0], jokers[0], along,
                                    &melds[MELD_FIELDS * count])
            if result == CROSS_UNKNOWN:
                return _scored_lines(board, play, jokers, melds)
            count += result != CROSS_ALONE
            total += result if result != CROSS_ALONE else 0
    else:
        along = ACROSS if play.square[0] // board.width == play.square[play.n - 1] // board.width else DOWN
        result = _own_line(board, play, jokers, along, melds)
        if result < 0:
            return _scored_lines(board, play, jokers, melds)
        total = result
        count = 1
        for i in range(play.n):
            result = _crossing_meld(board, play.square[i], play.card[i], jokers[i], along,
                                    &melds[MELD_FIELDS * count])
            if result == CROSS_UNKNOWN:
                return _scored_lines(board, play, jokers, melds)
            count += result != CROSS_ALONE
            total += result if result != CROSS_ALONE else 0
    melds[MELD_FIELDS * count] = -1
    _sort_melds(melds)
    return total


cdef int _scored_lines(Board* board, const PlayRecord* play, const unsigned char* jokers,
                       int* melds) noexcept nogil:
    """_melds_of by score_lines: every line through every tile walked."""
    cdef int result = score_lines(board, play.n, play.square, play.card, jokers, melds, MELDS_BUFFER)
    if result >= 0:
        _sort_melds(melds)
    return result


cdef int _crossing_meld(Board* board, int square, int card, int joker, int along, int* meld) noexcept nogil:
    """The meld a tile put on ``square`` makes on the line across a play along
    ``along`` (board_prepare's cross-check for such plays: its length and
    kind, the other tiles already on the board): written to ``meld``, its
    score returned; or CROSS_ALONE or CROSS_UNKNOWN."""
    cdef int width = board.width, row = square // width, col = square % width
    cdef int length = board.squares[square].cross_len[along], kind, value
    if length == 1:
        return CROSS_ALONE
    kind = board.squares[square].cross_kind[along]
    if length < 3 or kind == KIND_NONE:
        return CROSS_UNKNOWN
    value = 0 if joker else tile_value(card, kind) * board.squares[square].tile_mult
    meld[0] = DOWN if along == ACROSS else ACROSS
    meld[1] = square - ones_below(board.col_occ[col], row) * width if along == ACROSS \
        else square - ones_below(board.row_occ[row], col)
    meld[2] = length
    meld[3] = kind
    meld[4] = value * board.squares[square].meld_mult
    return meld[4]


cdef int _own_line(Board* board, const PlayRecord* play, const unsigned char* jokers, int along,
                   int* meld) noexcept nogil:
    """The meld of the line a play of two or more tiles lies on (``along``):
    written to ``meld``, its score returned; -1 when that line is no meld."""
    cdef int i, first, length, kind, tile_sum = 0, mult = 1
    cdef int step = 1 if along == ACROSS else board.width
    cdef signed char line[MAX_SIDE]
    for i in range(play.n):
        board.card[play.square[i]] = play.card[i]
    line[0] = EMPTY         # (read only when the line has a tile: this tells the compiler)
    length = min(_line_bounds(board, play.square[0], along, &first), MAX_SIDE + 1)
    for i in range(min(length, MAX_SIDE)):
        line[i] = board.card[first + i * step]
    for i in range(play.n):
        board.card[play.square[i]] = EMPTY
    kind = line_kind(line, length) if length <= MAX_SIDE else KIND_NONE
    if kind == KIND_NONE:
        return -1
    for i in range(play.n):
        if not jokers[i]:
            tile_sum += tile_value(play.card[i], kind) * board.squares[play.square[i]].tile_mult
        mult *= board.squares[play.square[i]].meld_mult
    meld[0] = along
    meld[1] = first
    meld[2] = length
    meld[3] = kind
    meld[4] = tile_sum * mult
    return meld[4]


cdef void _sort_melds(int* melds) noexcept nogil:
    """board_score's melds in order of direction, then first square."""
    cdef int held[MELD_FIELDS]
    cdef int i, j, n = _meld_count(melds)
    for i in range(1, n):       # insertion sort: a play makes at most MAX_MELDS
        memcpy(held, &melds[MELD_FIELDS * i], sizeof(held))
        j = i
        while j > 0 and (melds[MELD_FIELDS * (j - 1)] > held[0] or
                         (melds[MELD_FIELDS * (j - 1)] == held[0] and melds[MELD_FIELDS * (j - 1) + 1] > held[1])):
            memcpy(&melds[MELD_FIELDS * j], &melds[MELD_FIELDS * (j - 1)], sizeof(held))
            j -= 1
        memcpy(&melds[MELD_FIELDS * j], held, sizeof(held))


cdef tuple _placements(const PlayRecord* record):
    """``((square, card, is_joker), ...)`` of a stored play."""
    cdef Py_ssize_t i
    cdef tuple placements = PyTuple_New(record.n)
    for i in range(record.n):
        placed = (record.square[i], record.card[i], play_joker(record, i) != 0)
        Py_INCREF(placed)
        PyTuple_SET_ITEM(placements, i, placed)
    return placements


cdef tuple _meld_tuples(const int* melds):
    """``((direction, first square, length, kind, score), ...)`` of board_score's melds."""
    cdef Py_ssize_t i, n = _meld_count(melds)
    cdef const int* meld
    cdef tuple result = PyTuple_New(n)
    for i in range(n):
        meld = &melds[MELD_FIELDS * i]
        item = (meld[0], meld[1], meld[2], meld[3], meld[4])
        Py_INCREF(item)
        PyTuple_SET_ITEM(result, i, item)
    return result


cdef tuple _NO_ARGS = ()


cdef inline object _instance(type cls):
    """A new instance of ``cls`` made by its ``tp_new`` alone, without calling
    ``__init__``: its fields are set with PyObject_GenericSetAttr, which is what
    a frozen dataclass's ``__init__`` does through ``object.__setattr__``, the
    slow part of building a play."""
    return (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)


cdef inline object _value(object built):
    """``built``, an immutable value of tuples, ints and strings (a play, a
    meld, their tuples), taken off the cycle collector's lists, as CPython
    takes a tuple of atoms off them: it can be in no cycle, and the collector
    would otherwise walk every play built (a third of the time of building them)."""
    PyObject_GC_UnTrack(<void*>built)
    return built


cdef class PlayMaker:
    """How a core hands plays to Python as the caller's objects, built in C with
    no Python call a play (``make=`` of ``Core.legal_plays`` and the others).

    ``PlayMaker(scored, play, meld, tile, kinds)``: a play is built as
    ``scored(play=play(placements=((square, tile(card, is_joker)), ...)),
    score=..., melds=(meld(kind=kinds[kind], squares=(...), score=...), ...))``,
    each field set as ``object.__setattr__`` sets it, without calling
    ``__init__`` (classes such as frozen dataclasses, whose ``__init__`` only
    stores its fields); ``kinds`` names the meld kinds 0 (none), 1 (set) and 2 (run).  Each
    ``(square, tile)`` pair is made once and shared: tiles must be immutable.
    """
    cdef type scored_type, play_type, meld_type
    cdef object tile_type
    cdef tuple kinds
    cdef list pairs     # by (square * NUM_CARDS + card) * 2 + is_joker: (square, tile), or None

    def __cinit__(self, scored, play, meld, tile, kinds):
        for name, cls in (("scored", scored), ("play", play), ("meld", meld)):
            if not isinstance(cls, type):
                raise TypeError(f"{name} must be a class, not {type(cls).__name__}")
        if not callable(tile):
            raise TypeError("tile must be callable")
        self.kinds = tuple(kinds)
        if len(self.kinds) != KIND_RUN + 1:
            raise ValueError(f"kinds needs {KIND_RUN + 1} names, got {len(self.kinds)}")
        self.scored_type, self.play_type, self.meld_type, self.tile_type = scored, play, meld, tile
        self.pairs = [None] * (MAX_SQUARES * NUM_CARDS * 2)

    cdef object _pair(self, int square, int card, int joker):
        """The shared ``(square, tile)`` of a placed tile (square and card in range)."""
        cdef Py_ssize_t index = (square * NUM_CARDS + card) * 2 + joker
        pair = self.pairs[index]
        if pair is None:
            pair = (square, self.tile_type(card, joker != 0))
            self.pairs[index] = pair
        return pair

    cdef object _meld(self, const int* meld, int width, dict shared):
        """One of board_score's melds (on a board ``width`` wide) as an object:
        the one in ``shared`` (when not None) if it holds it, else new and kept
        there (one position's plays share most of their melds)."""
        cdef Py_ssize_t j
        cdef int step = 1 if meld[0] == ACROSS else width
        cdef tuple squares
        cdef object square, key = None
        if shared is not None:
            key = ((<long long>meld[4] * 2 + meld[0]) * MAX_SQUARES + meld[1]) * (MAX_SIDE + 1) * 4 \
                + meld[2] * 4 + meld[3]
            built = shared.get(key)
            if built is not None:
                return built
        squares = PyTuple_New(meld[2])
        for j in range(meld[2]):
            square = meld[1] + j * step
            Py_INCREF(square)
            PyTuple_SET_ITEM(squares, j, square)
        built = _instance(self.meld_type)
        PyObject_GenericSetAttr(built, "kind", self.kinds[meld[3]])
        PyObject_GenericSetAttr(built, "squares", _value(squares))
        PyObject_GenericSetAttr(built, "score", meld[4])
        _value(built)
        if shared is not None:
            shared[key] = built
        return built

    cdef object _build(self, const PlayRecord* record, const int* melds, int width, dict shared):
        """A legal play and board_score's melds of it (on a board ``width`` wide)
        as objects; ``shared``: see :meth:`_meld`."""
        cdef Py_ssize_t i, n_melds = _meld_count(melds)
        cdef tuple placements = PyTuple_New(record.n)
        cdef tuple meld_objects = PyTuple_New(n_melds)
        for i in range(record.n):
            pair = self._pair(record.square[i], record.card[i], play_joker(record, i))
            Py_INCREF(pair)
            PyTuple_SET_ITEM(placements, i, pair)
        for i in range(n_melds):
            built = self._meld(&melds[MELD_FIELDS * i], width, shared)
            Py_INCREF(built)
            PyTuple_SET_ITEM(meld_objects, i, built)
        play = _instance(self.play_type)
        PyObject_GenericSetAttr(play, "placements", _value(placements))
        scored = _instance(self.scored_type)
        PyObject_GenericSetAttr(scored, "play", _value(play))
        PyObject_GenericSetAttr(scored, "score", record.score)
        PyObject_GenericSetAttr(scored, "melds", _value(meld_objects))
        return _value(scored)


cdef object _hand_back(Board* board, const PlayRecord* record, bint melds, PlayMaker make, dict shared):
    """A generated play as Python sees it: ``(score, placements)``; with
    ``melds`` ``(score, placements, melds)``; with ``make`` its objects, melds
    shared through ``shared`` (see PlayMaker._meld).  The melds are scored on
    ``board``, the position the play was generated on."""
    cdef int meld_buffer[MELD_FIELDS * MELDS_BUFFER + 1]
    if make is None and not melds:
        return (record.score, _placements(record))
    if _melds_of(board, record, meld_buffer) < 0:
        raise RuntimeError("the core cannot score a play it generated")     # pragma: no cover
    if make is None:
        return (record.score, _placements(record), _meld_tuples(meld_buffer))
    return make._build(record, meld_buffer, board.width, shared)


cdef list _stored(Core core, bint melds, PlayMaker make):
    """The plays stored in ``core``'s C array, handed back as :func:`_hand_back` does."""
    cdef long long i
    cdef dict shared = {} if make is not None else None
    claim(core)     # making the objects may run other threads (a collection's finalisers)
    try:
        return [_hand_back(core.board, &core.plays[i], melds, make, shared) for i in range(core.stored)]
    finally:
        release(core)
