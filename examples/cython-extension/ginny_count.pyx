# An example of calling the Ginny-O generator from another Cython extension
# through the .pxd files ginnycore ships, with no Python in the loop.
from ginnycore.core cimport Core, board_generate
from ginnycore.types cimport Board, PlayRecord, GEN_BEST, GEN_COUNT


def count_and_best(Core core):
    """``(count, score)`` of the position loaded in ``core``: how many legal
    plays there are and the best one's score (-1 when there is none)."""
    cdef long long count, found
    cdef PlayRecord best
    cdef Board* board = core.board
    with nogil:
        count = board_generate(board, GEN_COUNT, NULL, NULL, NULL)
        found = board_generate(board, GEN_BEST, &best, NULL, NULL)
    return count, (best.score if found else -1)
