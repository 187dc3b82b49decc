# The characters and JSON scanning of ginnycore.parse: tile codes as
# ginnyo.vocab.tiles reads them, and the spans of JSON values.  Included in parse.pyx.

# -- characters --------------------------------------------------------------------------------

cdef enum:                      # the ASCII codes the reader compares bytes with
    TAB = 9
    NEWLINE = 10
    CARRIAGE_RETURN = 13
    SPACE = 32
    QUOTE = 34
    COMMA = 44
    DIGIT_0 = 48
    DIGIT_1 = 49
    DIGIT_2 = 50
    DIGIT_9 = 57
    COLON = 58
    UPPER_A = 65
    UPPER_Z = 90
    OPEN_BRACKET = 91
    BACKSLASH = 92
    CLOSE_BRACKET = 93
    LOWER_A = 97
    LOWER_Z = 122
    OPEN_BRACE = 123
    CLOSE_BRACE = 125

cdef inline bint _blank(unsigned char c) noexcept nogil:
    """JSON's whitespace."""
    return c == SPACE or c == TAB or c == NEWLINE or c == CARRIAGE_RETURN


cdef inline int _upper(unsigned char c) noexcept nogil:
    return c - (LOWER_A - UPPER_A) if LOWER_A <= c <= LOWER_Z else c


cdef inline bint _letter(unsigned char c) noexcept nogil:
    return UPPER_A <= _upper(c) <= UPPER_Z


cdef inline bint _digit(unsigned char c) noexcept nogil:
    return DIGIT_0 <= c <= DIGIT_9


cdef inline int _find(const char* codes, int n, int c) noexcept nogil:
    cdef int i
    for i in range(n):
        if codes[i] == c:
            return i
    return -1


cdef inline int _rank(int c) noexcept nogil:
    """The rank index of an upper-case rank letter or digit, else -1."""
    return _find(RANK_CODES, RANKS, c)


cdef inline int _suit(int c) noexcept nogil:
    return _find(SUIT_CODES, 4, c)


cdef int _board_tile(const unsigned char* code, Py_ssize_t n) noexcept nogil:
    """A board tile code as ``parse_card(code, lower_is_joker=True)`` reads it:
    ``card * 2 + is_joker``, or -1 for any code it refuses."""
    cdef int rank_char, rank, suit
    cdef unsigned char suit_char
    if n == 3 and code[0] == DIGIT_1 and code[1] == DIGIT_0:      # "10"
        rank_char, suit_char = 48, code[2]
        rank = RANKS - 4                                # T
    elif n == 2:
        rank_char, suit_char = code[0], code[1]
        rank = _rank(_upper(rank_char))
    else:
        return -1
    if rank < 0:
        return -1
    if LOWER_A <= suit_char <= LOWER_Z:                        # a joker: wholly lower case
        if UPPER_A <= rank_char <= UPPER_Z:
            return -1
        suit = _suit(_upper(suit_char))
        return -1 if suit < 0 else (suit * RANKS + rank) * 2 + 1
    if LOWER_A <= rank_char <= LOWER_Z:
        return -1
    suit = _suit(suit_char)
    return -1 if suit < 0 else (suit * RANKS + rank) * 2


cdef int _rack_tile(const unsigned char* code, Py_ssize_t n) noexcept nogil:
    """A rack code as ``parse_rack_tile`` reads it (case does not matter), spaces
    around it ignored: the tile (JOKER for ``*``), or -1."""
    cdef int rank, suit
    while n and code[0] == SPACE:
        code += 1
        n -= 1
    while n and code[n - 1] == SPACE:
        n -= 1
    if n == 1 and code[0] == 42:
        return JOKER
    if n == 3 and code[0] == DIGIT_1 and code[1] == DIGIT_0:
        rank, suit = RANKS - 4, _suit(_upper(code[2]))
    elif n == 2:
        rank, suit = _rank(_upper(code[0])), _suit(_upper(code[1]))
    else:
        return -1
    return -1 if rank < 0 or suit < 0 else suit * RANKS + rank


# -- JSON scanning -----------------------------------------------------------------------------

cdef inline Py_ssize_t _skip_blanks(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    while i < n and _blank(s[i]):
        i += 1
    return i


cdef Py_ssize_t _string_end(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, bint plain) noexcept nogil:
    """Past the closing quote of the string opening at ``s[i]``; -1 for a control
    character, a byte outside ASCII, no closing quote, or (``plain``) an escape."""
    cdef unsigned char c
    i += 1
    while i < n:
        c = s[i]
        if c == QUOTE:
            return i + 1
        if c < SPACE or c >= 128:
            return -1
        if c == BACKSLASH:
            if plain:
                return -1
            i += 1
        i += 1
    return -1


cdef Py_ssize_t _value_end(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Roughly past the JSON value at ``s[i]`` (a string, a bracketed value or a
    scalar), -1 when it cannot be one; json.loads checks the span itself."""
    cdef unsigned char c = s[i]
    cdef int depth = 0
    cdef Py_ssize_t start = i
    if c == QUOTE:
        return _string_end(s, i, n, 0)
    if c == OPEN_BRACKET or c == OPEN_BRACE:
        while i < n:
            c = s[i]
            if c == QUOTE:
                i = _string_end(s, i, n, 0)
                if i < 0:
                    return -1
                continue
            if c >= 128 or (c < SPACE and not _blank(c)):
                return -1
            if c == OPEN_BRACKET or c == OPEN_BRACE:
                depth += 1
            elif c == CLOSE_BRACKET or c == CLOSE_BRACE:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return -1
    while i < n:
        c = s[i]
        if c == COMMA or c == CLOSE_BRACKET or c == CLOSE_BRACE or _blank(c):
            break
        if c < SPACE or c >= 128:
            return -1
        i += 1
    return i if i > start else -1


cdef enum:
    LAST_ITEM = -1              # _next_item: the closer ends the value
    BAD_ITEM = -2               # ... something else follows the item


cdef inline Py_ssize_t _skip_blank_end(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    """``n`` less the blanks that end ``s[:n]``."""
    while n and _blank(s[n - 1]):
        n -= 1
    return n


cdef Py_ssize_t _next_item(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, unsigned char closer) noexcept nogil:
    """After an item of an object or array that ends at ``i``, in a value that
    ends at ``n``: the start of the next item (past a comma), LAST_ITEM when
    ``closer`` is the value's last byte, else BAD_ITEM."""
    i = _skip_blanks(s, i, n)
    if i < n and s[i] == COMMA:
        return _skip_blanks(s, i + 1, n)
    return LAST_ITEM if i == n - 1 and s[i] == closer else BAD_ITEM
