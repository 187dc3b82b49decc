# cython: language_level=3
"""The compiled Ginny-O core: cross-checks, meld enumeration, generation, scoring.

A play is generated along a row or a column: an interval of empty squares is
filled, the whole line it makes must be a meld, and each placed card must be
accepted by the cross-check of its square.  Instead of permuting rack tiles,
the generator enumerates the melds the whole line can be (a run: suit, first
rank, direction; a set: rank and suits) given the tiles already in it, then
the ways the rack can supply the placed cards (a real tile or a joker).

This file is the Python face (Core, RankedPlays; Cores and the batch solver in
batch.pxi); the C it calls is in rooms included below, one concern a file:
card tables (cards.pxi), board preparation (prepare.pxi), lanes and Feasible
(lanes.pxi), how found plays are kept (output.pxi), supplying melds from the
rack (supply.pxi), per-rack setup (rack.pxi), the walk from the anchors
(generate.pxi) and scoring a given play (score.pxi); constants and table-free
helpers in cards.pxd, the generator's state in gen.pxd.
"""

import os
import warnings
from operator import index as _whole_number

from cython.parallel cimport parallel, prange
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from openmp cimport omp_get_num_procs
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from ginnycore.board cimport board_clone, board_new
from ginnycore.cards cimport (ACE_HIGH, ACES, ALL_CARDS, ALL_LANES, EMPTY_BYTE, IN_LANE, LANE_BITS, LANE_MASK,
                              LANE_OF_BIT, LANE_STARTS, LITTLE_ENDIAN, MAX_SET, MELD_KINDS, MIN_MELD, POSITIONS,
                              RANK_MASK, RANK_SETS, RANKS, SET_TUPLES, SUIT_SETS, SUITS, __builtin_ctz,
                              __builtin_ctzll, __builtin_popcount, __builtin_popcountll, __builtin_prefetch,
                              card_lanes, every_suit, lanes_cards, nonzero_bytes, ones_above, ones_below,
                              position_cards, rank_position, rank_positions, ranks_of, suits_of_rank)
from ginnycore.gen cimport (BASE, NO_FLOOR, OUT_OF_MEMORY, OVER_LIMIT, Feasible, Gen, LineWalk, Output, RackTables,
                            Top)
from ginnycore.types cimport (ACROSS, DOWN, EMPTY, GEN_ALL, GEN_ANY, GEN_BEST, GEN_COUNT, GEN_TOP, JOKER, KIND_NONE,
                              KIND_RUN, KIND_SET,
                              MAX_PLACED, MAX_RUN, MAX_SIDE, MAX_SQUARES, NUM_CARDS,
                              NOT_LIVE, ALONE, ALONE_FAR, LIMITS, RACK_KINDS, Anchor, Board, PlayRecord, Square,
                              play_joker)

# The rooms of the core, in one C module so the generator's helpers inline
# across them and its tables stay at fixed addresses (docs/PERFORMANCE.md).
include "cards.pxi"
include "prepare.pxi"
include "lanes.pxi"
include "output.pxi"
include "supply.pxi"
include "rack.pxi"
include "generate.pxi"
include "score.pxi"


# -- the Python face ----------------------------------------------------------------

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdlib cimport qsort

cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object, object, object) except -1
    void PyObject_GC_UnTrack(void*)

cdef enum:
    EMPTY_SQUARE = EMPTY_BYTE       # an empty square in the bytes ``load`` and the batch take
    MAX_MELDS = MAX_PLACED + 1      # the melds a play makes at most: its line, one across each tile
    MELD_FIELDS = 5                 # a meld: direction, first square, length, kind, score
    MELDS_BUFFER = 2 * MAX_PLACED   # the melds board_score may be given room for

# The core's constants and illegal-play codes as Python ints (ginnycore exports them).
CONSTANTS = {"MAX_PLACED": MAX_PLACED, "MAX_MELDS": MAX_MELDS, "RACK_KINDS": RACK_KINDS, "JOKER": JOKER,
             "NUM_CARDS": NUM_CARDS, "EMPTY_SQUARE": EMPTY_SQUARE, "KIND_SET": KIND_SET, "KIND_RUN": KIND_RUN,
             "ACROSS": ACROSS, "DOWN": DOWN}
ILLEGAL_CODES = {"ILLEGAL_COUNT": ILLEGAL_COUNT, "ILLEGAL_REPEATED": ILLEGAL_REPEATED,
                 "ILLEGAL_OFF_BOARD": ILLEGAL_OFF_BOARD, "ILLEGAL_COVERED": ILLEGAL_COVERED,
                 "ILLEGAL_CARD": ILLEGAL_CARD, "ILLEGAL_RACK": ILLEGAL_RACK, "ILLEGAL_SHAPE": ILLEGAL_SHAPE,
                 "ILLEGAL_GAP": ILLEGAL_GAP, "ILLEGAL_MELD": ILLEGAL_MELD, "ILLEGAL_SHORT": ILLEGAL_SHORT,
                 "ILLEGAL_CENTRE": ILLEGAL_CENTRE, "ILLEGAL_PLACE": ILLEGAL_PLACE, "ILLEGAL_AREAS": ILLEGAL_AREAS}
globals().update(CONSTANTS)     # module attributes (a cdef enum name cannot be assigned to)
globals().update(ILLEGAL_CODES)


# Plays handed back to Python (tuples, melds, PlayMaker objects): plays.pxi.
include "plays.pxi"


cdef int claim(Core core) except -1:
    """Mark ``core`` in use for the length of one call; RuntimeError when a call
    on another thread has it (two threads would write its board or plays at once).
    Callers hold the GIL from the test to the mark, so the two cannot interleave."""
    if core.busy:
        raise RuntimeError("this Core is in use by a call on another thread: a Core serves one call at a time")
    core.busy = 1
    return 0


cdef void release(Core core) noexcept:
    """End what :func:`claim` began."""
    core.busy = 0


# GNU libgomp's thread pool does not survive a fork: a child forked after the
# parent ran a parallel region waits for ever on the parent's pool threads, which
# the child does not have.  So a process remembers whether it started threads,
# and its forked children run every threaded call on one thread (which needs no
# pool), with one RuntimeWarning (docs/API.md, "Threads and fork").
cdef bint _threads_started = 0      # this process ran a parallel region on 2 threads or more
cdef bint _forked_single = 0        # forked after that: every call runs on one thread
cdef bint _fork_warned = 0

FORK_WARNING = ("ginnyo: this process was forked after ginnyo ran on several threads, which the fork does "
                "not carry over (GNU OpenMP); its threaded calls run on one thread. Start worker processes "
                "with multiprocessing's 'spawn' or 'forkserver' method to use every core in them.")


def _after_fork_in_child():
    """os.register_at_fork's hook: a child of a process that started threads runs on one."""
    global _forked_single
    if _threads_started:
        _forked_single = 1


def forked_single_threaded():
    """True in a process forked after its parent ran ginnyo on several threads:
    there every threaded call runs on one thread."""
    return bool(_forked_single)


os.register_at_fork(after_in_child=_after_fork_in_child)


cdef int thread_count(object threads) except 0:
    """``threads`` (a whole number, 1 or more, else TypeError or ValueError) as
    OpenMP threads to start: at most one a processor this process may run on,
    since more could only wait for one (and each costs a stack); one in a
    process forked after threads were started (see ``_forked_single``)."""
    global _threads_started, _fork_warned
    threads = _whole_number(threads)
    if threads < 1:
        raise ValueError(f"threads must be 1 or more, not {threads}")
    count = min(threads, max(omp_get_num_procs(), 1))
    if count > 1 and _forked_single:
        if not _fork_warned:
            _fork_warned = 1
            warnings.warn(FORK_WARNING, RuntimeWarning, stacklevel=2)
        return 1
    if count > 1:
        _threads_started = 1
    return count


cdef enum:
    # A premium multiplies by at most this (docs/RULES.md §3: the layouts'
    # squares give 1, 2 or 3); larger ones could overflow a score.
    MAX_MULTIPLIER = 3

RANKED_BUFFER = 1 << 18      # RankedPlays' plays kept in C by default: 13.6 MB of records


cdef class Core:
    """One board and rack in C.  Load cards, then ask for plays.

    ``Core(width, height, tile_mults, meld_mults, reds, centre)``: per square in
    square order (one byte each) its tile and meld multipliers and whether it
    is red (a new area may start there), and the centre square, -1 for none;
    ``ginnyo.vocab.layout.core_premiums`` gives them for a layout's square kinds.
    ``load(cards, jokers, rack)``: ``cards`` has one byte a square
    (EMPTY_SQUARE, 255, empty, else the card 0..51), ``jokers`` one byte a
    square (1 for a joker), ``rack`` RACK_KINDS (53) counts (index JOKER = 52:
    jokers); or ``load_tiles`` from Python objects.
    A play is ``(score, ((square, card, is_joker), ...))``; calls that hand back
    plays take ``melds=True`` for ``(score, placements, melds)``, the melds as
    ``score_play`` gives them, by direction then first square, or a
    :class:`PlayMaker` as ``make`` for the caller's objects.

    A core serves one call at a time: a call while another thread's call has it
    raises RuntimeError (use a core a thread).
    """

    def __cinit__(self, int width, int height, const unsigned char[:] tile_mults not None,
                  const unsigned char[:] meld_mults not None, const unsigned char[:] reds not None, int centre):
        cdef int square, size = width * height
        if width < 1 or height < 1 or width > MAX_SIDE or height > MAX_SIDE:
            raise ValueError(f"board {width} x {height} is outside 1..{MAX_SIDE}")
        for name, values in (("tile_mults", tile_mults), ("meld_mults", meld_mults), ("reds", reds)):
            if values.shape[0] != size:
                raise ValueError(f"{name} must have one byte a square ({size}), not {values.shape[0]}")
        for square in range(size):
            if not (1 <= tile_mults[square] <= MAX_MULTIPLIER and 1 <= meld_mults[square] <= MAX_MULTIPLIER):
                raise ValueError(f"square {square}: multipliers must be 1..{MAX_MULTIPLIER}")
        if centre < -1 or centre >= size:
            raise ValueError(f"centre {centre} is not a square of the board (or -1)")
        self.board = board_new(width, height)
        if self.board == NULL:
            raise MemoryError()
        self.plays = NULL
        self.capacity = 0
        self.stored = 0
        self.history = []
        self.board.centre = centre
        for square in range(size):
            self.board.card[square] = EMPTY
            self.board.squares[square].tile_mult = tile_mults[square]
            self.board.squares[square].meld_mult = meld_mults[square]
            self.board.squares[square].red = reds[square] != 0
            if reds[square]:
                self.board.row_red[square // width] |= 1u << (square % width)
        board_prepare(self.board)

    def __dealloc__(self):
        free(self.board)
        free(self.plays)

    def load(self, const unsigned char[:] cards not None, const unsigned char[:] jokers not None,
             const unsigned char[:] rack not None):
        """Set the board and rack (see the class docstring) and recompute
        cross-checks; on bad input (ValueError) the core is left as it was."""
        cdef int square
        if cards.shape[0] != self.board.size or jokers.shape[0] != self.board.size:
            raise ValueError("cards and jokers need one byte a square")
        if rack.shape[0] != RACK_KINDS:
            raise ValueError("rack needs 53 counts")
        for square in range(self.board.size):
            if cards[square] != EMPTY_BYTE and cards[square] >= NUM_CARDS:
                raise ValueError(f"card {cards[square]} on square {square}")
        claim(self)
        for square in range(self.board.size):
            self.board.card[square] = EMPTY if cards[square] == EMPTY_BYTE else <signed char>cards[square]
            self.board.joker[square] = jokers[square] != 0
        for square in range(RACK_KINDS):
            self.board.rack[square] = rack[square]
        self.stored = 0
        with nogil:
            board_prepare(self.board)
        release(self)

    def load_tiles(self, tiles, rack):
        """Set the board and rack from Python objects, as ``load`` does from
        bytes: ``tiles`` maps each covered square to its ``(card, is_joker)``,
        ``rack`` holds the rack tiles (a card, or JOKER).  On bad input
        (ValueError) the core is left as it was."""
        cdef signed char cards[MAX_SQUARES]
        cdef unsigned char jokers[MAX_SQUARES]
        cdef unsigned char counts[RACK_KINDS]
        cdef long long square, card, tile
        cdef int size = self.board.size
        memset(cards, EMPTY, size)
        memset(jokers, 0, size)
        memset(counts, 0, RACK_KINDS)
        try:     # (unpacked, not indexed: indexing is unchecked in this module)
            for key, placed in tiles.items():
                square = key
                card, joker = placed
                if not 0 <= square < size:
                    raise ValueError(f"square {square} is off the board")
                if not 0 <= card < NUM_CARDS:
                    raise ValueError(f"card {card} on square {square}")
                cards[square] = <signed char>card
                jokers[square] = 1 if joker else 0
            for held in rack:
                tile = held
                if not 0 <= tile <= JOKER:
                    raise ValueError(f"rack tile {tile} is no card or joker")
                if counts[tile] == 255:
                    raise ValueError(f"more than 255 of rack tile {tile}")
                counts[tile] += 1
        except (TypeError, OverflowError, ValueError, AttributeError) as error:
            raise ValueError(f"tiles or rack: {error}") from None
        claim(self)
        memcpy(self.board.card, cards, size)
        memcpy(self.board.joker, jokers, size)
        memcpy(self.board.rack, counts, RACK_KINDS)
        self.stored = 0
        with nogil:
            board_prepare(self.board)
        release(self)

    cdef long long _generate(self, int mode, PlayRecord* best, size_t store_limit=0):
        """``board_generate`` on this core, storing the plays in its C array in
        GEN_ALL mode (at most ``store_limit``: see _generate_on).  The GIL is
        released only with a joker on the rack: with
        none a position takes a microsecond or two, and handing the GIL to other
        threads and back would add about a tenth of that (Batch releases it
        once for all its positions)."""
        cdef long long count
        cdef PlayRecord** plays = &self.plays if mode == GEN_ALL else NULL
        cdef size_t* capacity = &self.capacity if mode == GEN_ALL else NULL
        claim(self)
        if self.board.rack[JOKER] == 0:
            count = _generate_on(self.board, mode, best, plays, capacity, NULL, store_limit)
        else:
            with nogil:
                count = _generate_on(self.board, mode, best, plays, capacity, NULL, store_limit)
        release(self)
        return count

    def count_plays(self):
        """How many legal plays there are (nothing is stored)."""
        return self._generate(GEN_COUNT, NULL)

    cdef long long _generate_all(self) except -1:
        """Every legal play into the core's C array; how many there are."""
        cdef long long count = self._generate(GEN_ALL, NULL)
        self.stored = max(count, 0)
        if count < 0:
            raise MemoryError()
        return count

    cdef list _stored_plays(self):
        return _stored(self, False, None)

    def generate_plays(self):
        """Generate every legal play, with its score, into the core's own C array
        (no Python objects are made); returns how many there are."""
        return self._generate_all()

    def legal_plays(self, melds=False, ranked=False, PlayMaker make=None, *, limit=None):
        """Every legal play, in generation order; ``ranked``: in ranking order
        (sorted in C, and so stored).  ``melds`` and ``make``: see the class.
        With ``limit``, None when there are more plays than that: generation
        stops at the first one over, and memory stays O(limit)."""
        cdef long long count
        if limit is None:
            self._generate_all()
        else:
            count = self._generate(GEN_ALL, NULL, <size_t>min(_positive_count(limit, "limit"), 1 << 62))
            self.stored = max(count, 0)
            if count == -OVER_LIMIT:
                return None
            if count < 0:
                raise MemoryError()
        if ranked:
            claim(self)
            qsort(self.plays, self.stored, sizeof(PlayRecord), _compare_plays)
            release(self)
        return _stored(self, melds, make)

    def stored_plays(self):
        """The plays the last generation stored in the core's C array
        (``generate_plays`` here or in a ``Cores`` call), as ``legal_plays``
        gives them; none after a load, apply or undo."""
        return self._stored_plays()

    def has_play(self):
        """Whether there is any legal play; generation stops at the first."""
        return self._generate(GEN_ANY, NULL) > 0

    def best_play(self, melds=False, PlayMaker make=None):
        """The first legal play in ranking order, or None.  ``melds`` and
        ``make``: see the class."""
        cdef PlayRecord best
        cdef long long count
        count = self._generate(GEN_BEST, &best)
        if not count:
            return None
        claim(self)
        try:
            return _hand_back(self.board, &best, melds, make, None)
        finally:
            release(self)

    def top_plays(self, n, melds=False, PlayMaker make=None):
        """The ``n`` first legal plays in ranking order (all of them when there
        are fewer), kept during generation in a heap of at most ``n`` records."""
        return list(self.ranked_plays(_positive_count(n, "n"), melds=melds, make=make))

    def ranked_plays(self, limit=None, buffer=RANKED_BUFFER, melds=False, PlayMaker make=None):
        """The legal plays in ranking order (at most ``limit``) as a
        :class:`RankedPlays` iterator holding at most ``buffer`` plays in C."""
        return RankedPlays(self, limit, buffer, melds, make)

    def score_play(self, squares, cards, jokers):
        """``(score, melds)`` of a play, melds as (direction, first square, length,
        kind, score); or ``(code, None)`` with a negative code when illegal."""
        cdef short square_array[MAX_PLACED]
        cdef signed char card_array[MAX_PLACED]
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int melds[5 * 2 * MAX_PLACED + 1]
        cdef int n = len(squares), i, result
        if n < 1 or n > MAX_PLACED or len(cards) != n or len(jokers) != n:
            return ILLEGAL_SHAPE, None
        for i in range(n):
            square_array[i] = squares[i]
            card_array[i] = cards[i]
            joker_array[i] = 1 if jokers[i] else 0
        claim(self)
        result = board_score(self.board, n, square_array, card_array, joker_array, melds, 2 * MAX_PLACED)
        release(self)
        if result < 0:
            return result, None
        out = []
        i = 0
        while i < 2 * MAX_PLACED and melds[5 * i] >= 0:
            out.append(tuple(melds[5 * i + j] for j in range(5)))
            i += 1
        return result, out

    def judge_play(self, squares, cards, jokers, PlayMaker make=None):
        """A given play checked and scored in one call (``squares`` in
        increasing order): ``(play, None)``, the play as ``legal_plays(melds=True)``
        gives it (or as ``make`` builds it); or, when it is illegal, ``(code,
        detail)``: the first rule it breaks as a negative ILLEGAL_* code and
        three ints that say where (see ILLEGAL_CODES; python/ginnyo/vocab/illegal.py
        words them).  ValueError when the three are not as long or a value is
        no int of C's short (squares) or signed char (cards)."""
        cdef PlayRecord record
        cdef unsigned char joker
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int melds[MELD_FIELDS * MELDS_BUFFER + 1]
        cdef int n, i, result
        squares, cards, jokers = tuple(squares), tuple(cards), tuple(jokers)   # indexing is unchecked here
        n = len(squares)
        if len(cards) != n or len(jokers) != n:
            raise ValueError("squares, cards and jokers must be as long")
        if n < 1 or n > MAX_PLACED:
            return ILLEGAL_COUNT, (n, 0, 0)
        record.n = n
        record.jokers = 0
        record.joker_at = 0
        try:
            for i in range(n):
                record.square[i] = squares[i]
                record.card[i] = cards[i]
                joker = 1 if jokers[i] else 0
                joker_array[i] = joker
                record.jokers += joker
                record.joker_at |= joker << i
        except (TypeError, OverflowError) as error:
            raise ValueError(f"squares or cards: {error}") from None
        claim(self)
        try:
            result = board_score(self.board, n, record.square, record.card, joker_array, melds, MELDS_BUFFER)
            if result < 0:
                return result, (melds[0], melds[1], melds[2])
            _sort_melds(melds)
            record.score = result
            if make is None:
                return (result, _placements(&record), _meld_tuples(melds)), None
            return make._build(&record, melds, self.board.width, None), None
        finally:
            release(self)

    def apply(self, squares, cards, jokers):
        """Play a legal play: its tiles leave the rack for the board, and only the
        lines through them are brought up to date.  Returns the score; raises
        ValueError (with the core's code) when the play is illegal."""
        cdef short square_array[MAX_PLACED]
        cdef signed char card_array[MAX_PLACED]
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int n = len(squares), i, result
        if n < 1 or n > MAX_PLACED or len(cards) != n or len(jokers) != n:
            raise ValueError(f"illegal play (code {ILLEGAL_SHAPE})")
        for i in range(n):
            square_array[i] = squares[i]
            card_array[i] = cards[i]
            joker_array[i] = 1 if jokers[i] else 0
        played = (tuple(squares), tuple(cards), tuple(bool(j) for j in jokers))
        claim(self)
        try:
            result = board_score(self.board, n, square_array, card_array, joker_array, NULL, 0)
            if result >= 0:
                self.history.append(played)
                board_place(self.board, n, square_array, card_array, joker_array, 0)
                self.stored = 0
                for i in range(n):
                    self.board.rack[JOKER if joker_array[i] else card_array[i]] -= 1
                self.board.rack_size -= n
        finally:
            release(self)
        if result < 0:
            raise ValueError(f"illegal play (code {result})")
        return result

    def undo(self):
        """Take back the last applied play: its tiles return to the rack."""
        cdef short square_array[MAX_PLACED]
        cdef signed char card_array[MAX_PLACED]
        cdef unsigned char joker_array[MAX_PLACED]
        cdef int n, i
        if not self.history:
            raise ValueError("nothing to undo")
        last = len(self.history) - 1     # (no negative indices: wraparound is off)
        squares, cards, jokers = self.history[last]     # apply converted them once: they convert
        n = len(squares)
        for i in range(n):
            square_array[i] = squares[i]
            card_array[i] = cards[i]
            joker_array[i] = jokers[i]
        claim(self)
        del self.history[last]
        for i in range(n):
            self.board.rack[JOKER if joker_array[i] else card_array[i]] += 1
        self.board.rack_size += n
        board_place(self.board, n, square_array, card_array, joker_array, 1)
        self.stored = 0
        release(self)

    def state(self):
        """What generation reads (for tests of apply/undo): as bytes the cards,
        jokers, anchors, rack and cross lengths; the cross masks of squares that
        have one; and the list of live anchors, each as (square, row, column,
        fit, and its limit and the free squares before it across, then down),
        by square."""
        claim(self)     # making the objects may run other threads (a collection's finalisers)
        try:
            return self._state()
        finally:
            release(self)

    cdef tuple _state(self):
        cdef int direction, a
        cdef Anchor* anchor
        parts = [bytes([<unsigned char>self.board.card[s] for s in range(self.board.size)]),
                 bytes([self.board.joker[s] for s in range(self.board.size)]),
                 bytes([(self.board.row_anchor[s // self.board.width] >> (s % self.board.width)) & 1
                        for s in range(self.board.size)]),
                 bytes([self.board.rack[s] for s in range(RACK_KINDS)])]
        for direction in range(2):
            parts.append(bytes([self.board.squares[s].cross_len[direction] for s in range(self.board.size)]))
        masks = self._cross_masks()
        anchors = []
        for a in range(self.board.n_anchors):
            anchor = &self.board.anchors[a]
            anchors.append((anchor.row * self.board.width + anchor.col, anchor.row, anchor.col, anchor.fit,
                            anchor.limit[ACROSS], anchor.free[ACROSS], anchor.limit[DOWN], anchor.free[DOWN]))
        return b"".join(parts), masks, sorted(anchors)

    @property
    def nbytes(self):
        """Memory the board and rack take in C."""
        return self.board.bytes

    @property
    def cross_masks(self):
        """Per direction, the cross-check mask of every square (for tests)."""
        claim(self)
        try:
            return self._cross_masks()
        finally:
            release(self)

    cdef list _cross_masks(self):
        return [[0 if self.board.card[s] != EMPTY else ALL_CARDS if self.board.squares[s].cross_len[d] == 1
                 else self.board.squares[s].cross_mask[d] for s in range(self.board.size)] for d in range(2)]


def _positive_count(value, name):
    """``value`` as a count of at least 1, or ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


cdef class RankedPlays:
    """The legal plays of a core's position in ranking order (``Core.ranked_plays``),
    each ``(score, placements)`` as ``legal_plays`` gives them (with ``melds``
    or ``make``, as ``legal_plays`` then gives them).

    Plays are generated in passes that each keep, in a heap in C, the first
    ``buffer`` plays ranked after the last one given: memory stays O(buffer)
    however many plays there are, and a pass stops early on what cannot rank
    high enough.  The iterator works on its own copy of the board, so later
    loads, applies and undos of the core do not reach it."""

    cdef Board* board
    cdef Top top
    cdef size_t buffer
    cdef size_t index           # the next play of this pass to give
    cdef long long remaining    # plays still to give, -1 for every one
    cdef bint passed            # a pass has run: top.heap ends with the last play given
    cdef bint last_pass         # the pass kept fewer plays than it could: there are no more
    cdef bint busy              # a pass is running (without the GIL), or a play is being handed back
    cdef bint melds
    cdef PlayMaker make
    cdef dict shared            # the melds built this pass (see PlayMaker._meld)

    def __cinit__(self, Core core not None, limit, buffer, melds=False, PlayMaker make=None):
        self.melds = melds
        self.make = make
        self.board = NULL
        self.top.heap = NULL
        self.top.size = 0
        self.top.capacity = 0
        self.top.has_after = 0
        self.remaining = -1
        if limit is not None:
            self.remaining = min(_positive_count(limit, "limit"), 1 << 62)
        self.buffer = min(_positive_count(buffer, "buffer"), 1 << 40)
        claim(core)     # not while another thread changes the core's board
        self.board = board_clone(core.board)
        release(core)
        if self.board == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.board)
        free(self.top.heap)

    def __iter__(self):
        return self

    def __next__(self):
        cdef PlayRecord* record
        if self.busy:
            raise ValueError("these ranked plays are being generated in another thread")
        if self.remaining == 0:
            raise StopIteration
        if self.index == self.top.size:
            if self.last_pass:
                raise StopIteration
            self._pass()
            if self.top.size == 0:
                raise StopIteration
        record = &self.top.heap[self.index]
        self.index += 1
        if self.remaining > 0:
            self.remaining -= 1
        self.busy = True    # the melds are scored on self.board
        try:
            return _hand_back(self.board, record, self.melds, self.make, self.shared)
        finally:
            self.busy = False

    cdef int _pass(self) except -1:
        """Generate the next plays in ranking order into the heap, sorted."""
        cdef long long count
        if self.passed:
            self.top.after = self.top.heap[self.top.size - 1]
            self.top.has_after = 1
        self.top.size = 0
        self.shared = {} if self.make is not None else None
        self.top.limit = self.buffer
        if 0 < self.remaining < <long long>self.buffer:
            self.top.limit = <size_t>self.remaining
        self.busy = True
        with nogil:
            count = _generate_on(self.board, GEN_TOP, NULL, NULL, NULL, &self.top)
            if count >= 0:
                _heap_sort(&self.top)
        self.busy = False
        self.index = 0
        if count < 0:
            self.top.size = 0
            self.last_pass = True
            raise MemoryError("the ranked plays did not fit in memory")
        self.passed = self.top.size > 0
        self.last_pass = self.top.size < self.top.limit
        return 0


# -- many positions in one call ----------------------------------------------------

include "batch.pxi"
