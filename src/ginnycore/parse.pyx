# cython: language_level=3
"""Positions read in C: a position's JSON text (docs/FORMAT.md) or its line
(docs/POSITION-STRING.md) parsed and checked with no Python object a field,
for ``ginnyo.position`` (one position) and ``ginnyo.bulk`` (a .jsonl corpus
into the batch arrays).

A reader takes only what it can be sure of: ASCII input, strings without
escapes, and a legal position.  For anything else (an escape, a float, a bad
field, an illegal board) it answers None (or, in bulk, stops at that line) and
the caller takes the checked Python path, which gives the position or the one
line naming the field, square or tile.  So a reader writes no error message
and never takes what the checked path refuses; tests/test_fast_load.py holds
the two to the same answers.  The board's rules are the core's: a line is a
meld when ``line_kind`` says so (cards.pxi).
"""

from cpython.object cimport PyObject, PyObject_GenericSetAttr, PyTypeObject
from libc.string cimport memchr, memcmp, memset

from ginnycore.cards cimport EMPTY_BYTE, RANKS
from ginnycore.core cimport line_kind
from ginnycore.rules cimport JOKERS_PER_SET, RACK_SIZE
from ginnycore.types cimport JOKER, KIND_NONE, MAX_SQUARES, NUM_CARDS, RACK_KINDS

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    object PyDictProxy_New(object)

cdef enum:
    FIELD_LAYOUT = 0            # the first four known fields, in ginnyo.position.KNOWN_FIELDS's order
    FIELD_SETS = 1
    FIELD_BOARD = 2
    FIELD_RACK = 3
    MAX_FIELDS = 16
    MAX_LAYOUTS = 64            # custom layouts kept
    TILES = 2 * NUM_CARDS       # placed tiles: card * 2 + is_joker

# what fill_jsonl stopped at
DONE = 0            # the data is used up
FULL = 1            # the arrays are full
SLOW = 2            # a line this reader does not take: the caller reads it the checked way
MORE = 3            # an unfinished last line: more data is needed
OTHER_LAYOUT = 4    # a position of another layout than the arrays'

cdef const char* RANK_CODES = b"A23456789TJQK"
cdef const char* SUIT_CODES = b"CDHS"


ctypedef struct Parsed:
    int sets
    int n_board
    int n_rack
    int has_context
    short order[MAX_SQUARES]                # the squares in the order the text gives them
    unsigned char card[MAX_SQUARES]         # EMPTY_BYTE where empty
    unsigned char joker[MAX_SQUARES]
    unsigned char rack[RACK_KINDS]


cdef tuple _NO_ARGS = ()


cdef inline object _instance(type cls):
    """A new ``cls`` made by its ``tp_new`` alone (its slots are set with
    PyObject_GenericSetAttr, as ``object.__setattr__`` sets them)."""
    return (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)


include "parse_text.pxi"
include "parse_checks.pxi"


cdef class PositionReader:
    """Reads positions in C and builds them as ``position`` objects without
    calling ``__init__``: ``PositionReader(position, tile, standard, layout_of,
    loads, fields, limit, max_rack)``.  ``tile(card, is_joker)`` makes a board
    tile (made once each and shared); ``standard`` is the standard layout and
    ``layout_of(rows)`` makes a checked layout of a list of rows (raising for a
    bad one); ``loads`` decodes a JSON value (game fields are kept as it gives
    them); ``fields`` are the known fields, layout, sets, board and rack first,
    then the game fields in the order the context keeps them; ``limit`` the
    most characters a position takes, ``max_rack`` the most rack tiles.
    Each call parses into its own buffer, so threads may share a reader.
    """
    cdef type position_type
    cdef list tiles
    cdef _Geometry standard
    cdef object layout_of, loads
    cdef tuple fields
    cdef list field_names          # as bytes, for comparing keys
    cdef dict layouts              # tuple of rows -> _Geometry
    cdef Py_ssize_t limit
    cdef int max_rack

    def __cinit__(self, position, tile, standard, layout_of, loads, fields, Py_ssize_t limit, int max_rack):
        cdef int i
        if not isinstance(position, type):
            raise TypeError("position must be a class")
        self.position_type = position
        self.tiles = [tile(i >> 1, (i & 1) != 0) for i in range(TILES)]
        self.standard = _Geometry(standard)
        self.layout_of, self.loads = layout_of, loads
        self.fields = tuple(fields)
        if self.fields[:4] != ("layout", "sets", "board", "rack") or len(self.fields) > MAX_FIELDS:
            raise ValueError("fields must begin layout, sets, board, rack")
        self.field_names = [name.encode("ascii") for name in self.fields]
        self.layouts = {}
        self.limit, self.max_rack = limit, max_rack

    cdef _Geometry _layout(self, object rows):
        """The geometry of a layout given as a list of rows, or None when it is not a good one."""
        cdef _Geometry found
        if type(rows) is not list or not all(type(row) is str for row in rows):
            return None
        key = tuple(rows)
        found = self.layouts.get(key)
        if found is None:
            try:
                found = _Geometry(self.layout_of(rows))
            except ValueError:
                return None
            if len(self.layouts) >= MAX_LAYOUTS:
                self.layouts.clear()
            self.layouts[key] = found
        return found

    cdef void _clear(self, Parsed* p) noexcept:
        memset(p.card, EMPTY_BYTE, MAX_SQUARES)
        memset(p.joker, 0, MAX_SQUARES)
        memset(p.rack, 0, RACK_KINDS)
        p.n_board = p.n_rack = p.has_context = 0
        p.sets = 1

    cdef int _add_rack_tile(self, Parsed* p, int tile) noexcept:
        if tile < 0 or p.n_rack >= self.max_rack:
            return 0
        p.rack[tile] += 1
        p.n_rack += 1
        return 1

    # -- JSON ----------------------------------------------------------------------------------

    cdef _Geometry _json(self, Parsed* p, object text, Py_ssize_t base, const unsigned char* s, Py_ssize_t n,
                         list context):
        """Parse the JSON position ``s`` (``text`` from byte ``base`` on) into
        ``self.parsed``: its layout's geometry, or None.  The game fields' values go to ``context`` as
        ``(name, value)`` when ``context`` is not None; with None, a position
        that has any is not taken."""
        cdef Py_ssize_t starts[MAX_FIELDS]
        cdef Py_ssize_t ends[MAX_FIELDS]
        cdef Py_ssize_t i, key, end, a, b
        cdef int field, tile, square, n_fields = len(self.fields)
        cdef bytes name
        cdef _Geometry g
        for field in range(n_fields):
            starts[field] = -1
        self._clear(p)
        i = _skip_blanks(s, 0, n)
        if i >= n or s[i] != OPEN_BRACE:
            return None
        i = _skip_blanks(s, i + 1, n)
        if i < n and s[i] == CLOSE_BRACE:
            return None                 # no board, no rack
        while True:
            if i >= n or s[i] != QUOTE:
                return None
            end = _string_end(s, i, n, 1)
            if end < 0:
                return None
            key = end - i - 2
            field = -1
            for tile in range(n_fields):
                name = <bytes>self.field_names[tile]
                if len(name) == key and memcmp(<const char*>name, &s[i + 1], key) == 0:
                    field = tile
                    break
            if field < 0 or starts[field] >= 0:
                return None             # an unknown field, or a key given twice
            i = _skip_blanks(s, end, n)
            if i >= n or s[i] != COLON:
                return None
            i = _skip_blanks(s, i + 1, n)
            if i >= n:
                return None
            end = _value_end(s, i, n)
            if end < 0:
                return None
            starts[field], ends[field] = i, end
            i = _next_item(s, end, _skip_blank_end(s, n), CLOSE_BRACE)
            if i == LAST_ITEM:
                break
            if i < 0:
                return None
        if starts[FIELD_BOARD] < 0 or starts[FIELD_RACK] < 0:
            return None
        g = self.standard
        a, b = starts[FIELD_LAYOUT], ends[FIELD_LAYOUT]
        if a >= 0 and not (b - a == 10 and (<const char*>s)[a:b] == b'"standard"'):
            if s[a] != OPEN_BRACKET:
                return None
            g = self._layout(self._decoded(text, base + a, base + b))
            if g is None:
                return None
        a, b = starts[FIELD_SETS], ends[FIELD_SETS]
        if a >= 0:
            if b - a != 1 or not (s[a] == DIGIT_1 or s[a] == DIGIT_2):
                return None
            p.sets = s[a] - 48
        if not self._json_board(p, s, starts[FIELD_BOARD], ends[FIELD_BOARD], g):
            return None
        if not self._json_rack(p, s, starts[FIELD_RACK], ends[FIELD_RACK]):
            return None
        for field in range(4, n_fields):
            if starts[field] < 0:
                continue
            p.has_context = 1
            if context is None:
                return None
            if memchr(&s[starts[field]], OPEN_BRACE, ends[field] - starts[field]) != NULL:
                return None             # an object: its keys would go unchecked for repeats
            value = self._decoded(text, base + starts[field], base + ends[field])
            if value is _FAILED:
                return None
            context.append((self.fields[field], value))
        return g

    cdef object _decoded(self, object text, Py_ssize_t a, Py_ssize_t b):
        """``loads`` of the value ``text[a:b]``, or _FAILED."""
        try:
            return self.loads(text[a:b])
        except (ValueError, RecursionError):
            return _FAILED

    cdef int _json_board(self, Parsed* p, const unsigned char* s, Py_ssize_t i, Py_ssize_t n, _Geometry g) noexcept:
        cdef Py_ssize_t end, code
        cdef int square, tile
        if s[i] != OPEN_BRACE:
            return 0
        i = _skip_blanks(s, i + 1, n)
        if i < n and s[i] == CLOSE_BRACE:
            return 1
        while True:
            if i >= n or s[i] != QUOTE:
                return 0
            end = _string_end(s, i, n, 1)
            if end < 0:
                return 0
            square = _square(&s[i + 1], end - i - 2, g.width, g.height)
            if square < 0:
                return 0
            i = _skip_blanks(s, end, n)
            if i >= n or s[i] != COLON:
                return 0
            i = _skip_blanks(s, i + 1, n)
            if i >= n or s[i] != QUOTE:
                return 0
            end = _string_end(s, i, n, 1)
            if end < 0:
                return 0
            tile = _board_tile(&s[i + 1], end - i - 2)
            if tile < 0 or not _place(p, square, tile):
                return 0
            i = _next_item(s, end, n, CLOSE_BRACE)
            if i < 0:
                return i == LAST_ITEM

    cdef int _json_rack(self, Parsed* p, const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept:
        cdef Py_ssize_t end, token
        if s[i] == QUOTE:
            end = _string_end(s, i, n, 1)
            if end != n:
                return 0
            i += 1
            while True:
                while i < end - 1 and s[i] == SPACE:
                    i += 1
                if i >= end - 1:
                    return 1
                token = i
                while i < end - 1 and s[i] != SPACE:
                    i += 1
                if not self._add_rack_tile(p, _rack_tile(&s[token], i - token)):
                    return 0
        if s[i] != OPEN_BRACKET:
            return 0
        i = _skip_blanks(s, i + 1, n)
        if i < n and s[i] == CLOSE_BRACKET:
            return 1
        while True:
            if i >= n or s[i] != QUOTE:
                return 0
            end = _string_end(s, i, n, 1)
            if end < 0 or not self._add_rack_tile(p, _rack_tile(&s[i + 1], end - i - 2)):
                return 0
            i = _next_item(s, end, n, CLOSE_BRACKET)
            if i < 0:
                return i == LAST_ITEM

    # -- the position string -------------------------------------------------------------------

    cdef _Geometry _line(self, Parsed* p, const unsigned char* s, Py_ssize_t n):
        """Parse the position string ``s`` into ``p``: its layout's geometry, or None."""
        cdef Py_ssize_t i, start, end, board_start, board_end, rack_start, rack_end, eq
        cdef int fields = 0, seen_sets = 0, seen_layout = 0
        cdef _Geometry g = self.standard
        self._clear(p)
        while n and (s[n - 1] == SPACE or s[n - 1] == TAB or s[n - 1] == NEWLINE or s[n - 1] == CARRIAGE_RETURN):
            n -= 1
        i = 0
        while i < n and (s[i] == SPACE or s[i] == TAB or s[i] == NEWLINE or s[i] == CARRIAGE_RETURN):
            i += 1
        board_start = board_end = rack_start = rack_end = -1
        while i < n:
            start = i
            while i < n and s[i] != SPACE and s[i] != TAB:
                if s[i] < 33 or s[i] >= 127:
                    return None
                i += 1
            end = i
            while i < n and (s[i] == SPACE or s[i] == TAB):
                i += 1
            if fields == 0:
                board_start, board_end = start, end
            elif fields == 1:
                rack_start, rack_end = start, end
            else:
                eq = start
                while eq < end and s[eq] != 61:
                    eq += 1
                if eq - start == 4 and (<const char*>s)[start:eq] == b"sets" and not seen_sets:
                    seen_sets = 1
                    if end - eq != 2 or not (s[eq + 1] == DIGIT_1 or s[eq + 1] == DIGIT_2):
                        return None
                    p.sets = s[eq + 1] - 48
                elif eq - start == 6 and (<const char*>s)[start:eq] == b"layout" and not seen_layout:
                    seen_layout = 1
                    rows = (<const char*>s)[eq + 1:end].decode("ascii")
                    if rows != "standard":
                        g = self._layout(rows.split("/"))
                        if g is None:
                            return None
                else:
                    return None
            fields += 1
        if fields < 2:
            return None
        if not self._line_board(p, s, board_start, board_end, g):
            return None
        if rack_end - rack_start == 1 and s[rack_start] == 45:
            return g
        i = rack_start
        while i < rack_end:
            if s[i] == 42:
                end = i + 1
            elif i + 1 < rack_end and _rank(s[i]) >= 0 and _suit(s[i + 1]) >= 0:
                end = i + 2
            else:
                return None
            if not self._add_rack_tile(p, _rack_tile(&s[i], end - i)):
                return None
            i = end
        return g

    cdef int _line_board(self, Parsed* p, const unsigned char* s, Py_ssize_t i, Py_ssize_t n, _Geometry g) noexcept:
        """The board rows as ``position_line._row_items`` splits them."""
        cdef int row = 0, col, gap, digits, tile
        cdef unsigned char c
        while True:
            if row >= g.height or i >= n or s[i] == 47:
                return 0                # too many rows, or an empty one
            col = 0
            while i < n and s[i] != 47:
                c = s[i]
                if _digit(c) and not (i + 1 < n and _suit(_upper(s[i + 1])) >= 0):
                    gap = digits = 0
                    while i < n and _digit(s[i]) and not (i + 1 < n and _suit(_upper(s[i + 1])) >= 0):
                        gap = gap * 10 + s[i] - 48
                        digits += 1
                        i += 1
                    if digits > 2 or c == DIGIT_0:
                        return 0
                    col += gap
                    continue
                if i + 1 >= n or not (_letter(c) or _digit(c)) or not _letter(s[i + 1]) or col >= g.width:
                    return 0
                tile = _board_tile(&s[i], 2)
                if tile < 0 or not _place(p, row * g.width + col, tile):
                    return 0
                col += 1
                i += 2
            if col != g.width:
                return 0
            row += 1
            if i >= n:
                return row == g.height
            i += 1                      # past the '/'

    # -- the position object -------------------------------------------------------------------

    cdef object _position(self, const Parsed* p, _Geometry g, dict context):
        cdef dict board = {}
        cdef int k, square, tile
        cdef Py_ssize_t count
        cdef list rack = []
        for k in range(p.n_board):
            square = p.order[k]
            board[square] = self.tiles[p.card[square] * 2 + p.joker[square]]
        for tile in range(RACK_KINDS):
            for count in range(p.rack[tile]):
                rack.append(tile)
        position = _instance(self.position_type)
        PyObject_GenericSetAttr(position, "layout", g.layout)
        PyObject_GenericSetAttr(position, "sets", p.sets)
        PyObject_GenericSetAttr(position, "board", PyDictProxy_New(board))
        PyObject_GenericSetAttr(position, "rack", tuple(rack))
        PyObject_GenericSetAttr(position, "context", context)
        return position

    def read_json(self, text):
        """The position of JSON text (str or bytes), or None when the checked path must read it."""
        cdef Parsed parsed
        cdef Parsed* p = &parsed
        cdef const unsigned char* s
        cdef Py_ssize_t n
        cdef _Geometry g
        cdef list context = []
        cdef dict fields = {}
        if type(text) is str:
            if not PyUnicode_IS_ASCII(text):
                return None
            s, n = <const unsigned char*>PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)
        elif type(text) is bytes:
            s, n = <const unsigned char*><const char*>text, len(<bytes>text)
        else:
            return None
        if n > self.limit:
            return None
        g = self._json(&parsed, text, 0, s, n, context)
        if g is None or not _legal(p, g.width, g.height, g.centre, g.start):
            return None
        for name, value in context:     # in the order of the fields
            fields[name] = value
        return self._position(p, g, fields)

    def read_line(self, text):
        """The position of a position string, or None when the checked path must read it."""
        cdef Parsed parsed
        cdef Parsed* p = &parsed
        cdef _Geometry g
        if type(text) is not str or not PyUnicode_IS_ASCII(text) or PyUnicode_GET_LENGTH(text) > self.limit:
            return None
        g = self._line(&parsed, <const unsigned char*>PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text))
        if g is None or not _legal(p, g.width, g.height, g.centre, g.start):
            return None
        return self._position(p, g, {})

    # -- a .jsonl corpus -----------------------------------------------------------------------

    def fill_jsonl(self, bytes data not None, Py_ssize_t offset, bint final, layout,
                   unsigned char[:, ::1] cards not None, unsigned char[:, ::1] jokers not None,
                   unsigned char[:, ::1] racks not None, unsigned char[::1] sets not None,
                   int[::1] box_sizes not None, long long[::1] lines not None,
                   Py_ssize_t row, long long line, tuple players not None):
        """Read the positions of ``data`` from byte ``offset`` on (its line
        number ``line``), one a line, blank lines skipped, into the arrays from
        ``row`` on: board cards and joker flags (``layout``'s squares), rack
        counts, sets, the box size (the unseen tiles less the other players'
        racks, as ``ginnyo.context.game_context`` counts them without game
        fields: ``players[sets - 1]`` players), and the line number.
        Stops at the end of the data (DONE), when the arrays are full (FULL),
        at a line it does not take (SLOW: a bad one, one with game fields, one
        of another layout than ``layout`` is OTHER_LAYOUT) or, unless ``final``,
        at an unfinished last line (MORE).  Returns ``(status, row, offset,
        line)``: where it stopped (the line not read, for SLOW, OTHER_LAYOUT and MORE)."""
        cdef const unsigned char* s = <const unsigned char*><const char*>data
        cdef Py_ssize_t n = len(data), end, next_offset, k
        cdef Py_ssize_t capacity = cards.shape[0]
        cdef _Geometry g
        cdef int size, others, unseen, square
        cdef int others_one = players[0] - 1, others_two = players[1] - 1
        cdef const unsigned char* found
        cdef Parsed parsed
        cdef Parsed* p = &parsed
        if offset < 0 or offset > n or row < 0 or row > capacity:
            raise ValueError("offset or row is outside the data or the arrays")
        if jokers.shape[0] < capacity or racks.shape[0] < capacity or sets.shape[0] < capacity \
                or box_sizes.shape[0] < capacity or lines.shape[0] < capacity \
                or racks.shape[1] != RACK_KINDS or jokers.shape[1] != cards.shape[1]:
            raise ValueError("the arrays do not match")
        while True:
            if offset >= n:
                return DONE, row, offset, line
            found = <const unsigned char*>memchr(&s[offset], 10, n - offset)
            if found == NULL:
                if not final:
                    return MORE, row, offset, line
                end = next_offset = n
            else:
                end = found - s
                next_offset = end + 1
            k = offset
            while k < end and (_blank(s[k]) or s[k] == 11 or s[k] == 12):
                k += 1
            if k == end:
                offset = next_offset
                line += 1
                continue
            if row >= capacity:
                return FULL, row, offset, line
            g = None if end - offset > self.limit else self._json(&parsed, data, offset, &s[offset], end - offset, None)
            if g is None or not _legal(p, g.width, g.height, g.centre, g.start):
                return SLOW, row, offset, line
            if g.layout is not layout and g.layout != layout:
                return OTHER_LAYOUT, row, offset, line
            size = g.size
            if cards.shape[1] != size:
                raise ValueError("the arrays do not match the layout")
            for square in range(size):
                cards[row, square] = p.card[square]
                jokers[row, square] = p.joker[square]
            for square in range(RACK_KINDS):
                racks[row, square] = p.rack[square]
            others = others_one if p.sets == 1 else others_two
            unseen = (NUM_CARDS + JOKERS_PER_SET) * p.sets - p.n_board - p.n_rack
            sets[row] = p.sets
            box_sizes[row] = max(unseen - RACK_SIZE * others, 0)
            lines[row] = line
            row += 1
            offset = next_offset
            line += 1


cdef object _FAILED = object()
