# Allocation of Board blocks sized to the board.
from ginnycore.types cimport Board

cdef Board* board_new(int width, int height) noexcept nogil
cdef Board* board_clone(const Board* source) noexcept nogil
cdef void board_copy(Board* target, const Board* source) noexcept nogil
