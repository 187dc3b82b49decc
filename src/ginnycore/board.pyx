# cython: language_level=3
"""Board blocks: one allocation per board, its arrays sized to the layout.

A 15 x 15 board takes about 12 KB, so a thread's working set stays in cache.
"""

from libc.string cimport memcpy, memset

from ginnycore.types cimport Anchor, Board, Square


cdef extern from "<stdlib.h>" nogil:
    void* aligned_alloc(size_t alignment, size_t size)


cdef inline size_t _round(size_t value, size_t unit) noexcept nogil:
    return (value + unit - 1) & ~(unit - 1)


cdef size_t _block_bytes(int size) noexcept nogil:
    """Header, then the squares (32 bytes each), the list of anchors (16 bytes an
    entry), the cards and the joker flags, in whole cache lines."""
    return _round(_round(sizeof(Board), 64) + size * (sizeof(Square) + sizeof(Anchor))
                  + 2 * _round(size, 8), 64)


cdef void _bind(Board* board) noexcept nogil:
    """Point the array fields into the block that starts at ``board``."""
    cdef char* at = <char*>board + _round(sizeof(Board), 64)
    cdef int size = board.size
    board.squares = <Square*>at
    at += size * sizeof(Square)
    board.anchors = <Anchor*>at
    at += size * sizeof(Anchor)
    board.card = <signed char*>at
    at += _round(size, 8)
    board.joker = <unsigned char*>at


cdef Board* board_new(int width, int height) noexcept nogil:
    """A zeroed board of ``width`` x ``height`` squares, or NULL when out of memory."""
    cdef size_t bytes = _block_bytes(width * height)
    cdef Board* board = <Board*>aligned_alloc(64, bytes)
    if board == NULL:
        return NULL
    memset(board, 0, bytes)
    board.bytes = bytes
    board.width = width
    board.height = height
    board.size = width * height
    _bind(board)
    return board


cdef Board* board_clone(const Board* source) noexcept nogil:
    """A new block holding the same board, or NULL when out of memory."""
    cdef Board* board = <Board*>aligned_alloc(64, source.bytes)
    if board != NULL:
        memcpy(board, source, source.bytes)
        _bind(board)
    return board


cdef void board_copy(Board* target, const Board* source) noexcept nogil:
    """Overwrite ``target`` (a block of the same size) with ``source``."""
    memcpy(target, source, source.bytes)
    _bind(target)
