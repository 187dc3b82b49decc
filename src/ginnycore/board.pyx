# cython: language_level=3
"""Board blocks: one allocation per board, its arrays sized to the layout.

A 15 x 15 board takes about 11 KB, so a thread's working set stays in cache.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from ginnycore.types cimport Anchor, Board


cdef inline size_t _round8(size_t value) noexcept nogil:
    return (value + 7) & ~(<size_t>7)


cdef size_t _block_bytes(int size) noexcept nogil:
    """Header, then two 8-byte arrays, the list of anchors (16 bytes an entry),
    three 2-byte arrays and nine 1-byte ones."""
    return (_round8(sizeof(Board)) + 2 * size * sizeof(uint64_t) + size * sizeof(Anchor)
            + 3 * _round8(size * sizeof(short)) + 9 * _round8(size))


cdef void _bind(Board* board) noexcept nogil:
    """Point the array fields into the block that starts at ``board``."""
    cdef char* at = <char*>board + _round8(sizeof(Board))
    cdef int size = board.size, direction
    for direction in range(2):
        board.cross_mask[direction] = <uint64_t*>at
        at += size * sizeof(uint64_t)
    board.anchors = <Anchor*>at
    at += size * sizeof(Anchor)
    board.group = <short*>at
    at += _round8(size * sizeof(short))
    for direction in range(2):
        board.cross_group[direction] = <short*>at
        at += _round8(size * sizeof(short))
    board.card = <signed char*>at
    at += _round8(size)
    board.joker = <unsigned char*>at
    at += _round8(size)
    board.tile_mult = <unsigned char*>at
    at += _round8(size)
    board.meld_mult = <unsigned char*>at
    at += _round8(size)
    board.red = <unsigned char*>at
    at += _round8(size)
    for direction in range(2):
        board.cross_len[direction] = <unsigned char*>at
        at += _round8(size)
        board.cross_kind[direction] = <unsigned char*>at
        at += _round8(size)


cdef Board* board_new(int width, int height) noexcept nogil:
    """A zeroed board of ``width`` x ``height`` squares, or NULL when out of memory."""
    cdef size_t bytes = _block_bytes(width * height)
    cdef Board* board = <Board*>malloc(bytes)
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
    cdef Board* board = <Board*>malloc(source.bytes)
    if board != NULL:
        memcpy(board, source, source.bytes)
        _bind(board)
    return board


cdef void board_copy(Board* target, const Board* source) noexcept nogil:
    """Overwrite ``target`` (a block of the same size) with ``source``."""
    memcpy(target, source, source.bytes)
    _bind(target)
