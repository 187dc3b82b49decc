# The Ginny-O core: board state, cross-checks, generation and scoring.
# Other Cython code may cimport these declarations.
from ginnycore.types cimport Board, PlayRecord

cdef int line_kind(const signed char* cards, int length) noexcept nogil
cdef int tile_value(int card, int kind) noexcept nogil
cdef void board_prepare(Board* board) noexcept nogil
cdef void board_place(Board* board, int n, const short* squares, const signed char* cards,
                      const unsigned char* jokers, int remove) noexcept nogil
cdef long long board_generate(Board* board, int mode, PlayRecord* best,
                              PlayRecord** plays, size_t* capacity) noexcept nogil
cdef int board_score(Board* board, int n, const short* squares, const signed char* cards,
                     const unsigned char* jokers, int* melds, int max_melds) noexcept nogil

cdef class Core:
    cdef Board* board
    cdef PlayRecord* plays
    cdef size_t capacity
    cdef long long stored       # plays the last generation left in ``plays``
    cdef list history
    cdef int busy               # a call has the core (see claim)
    cdef long long _generate(self, int mode, PlayRecord* best, size_t store_limit=*)
    cdef long long _generate_all(self) except -1
    cdef list _stored_plays(self)
    cdef tuple _state(self)
    cdef list _cross_masks(self)

cdef int claim(Core core) except -1
cdef void release(Core core) noexcept
cdef int thread_count(object threads) except 0
