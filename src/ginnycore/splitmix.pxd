# SplitMix64: the core's fast seeded generator, one 64-bit word of state.
# ginnycore.simulate deals and mixes its rollouts with it, ginnycore.selfplay
# shuffles its games' boxes (tests port it to Python as their yardstick; the
# sequence must not change).
from libc.stdint cimport uint64_t


cdef inline uint64_t splitmix_next(uint64_t* state) noexcept nogil:
    """The next 64 random bits of ``state``."""
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int splitmix_below(uint64_t* state, int n) noexcept nogil:
    """A number from 0 to ``n - 1`` (``n`` >= 1)."""
    return <int>(splitmix_next(state) % <uint64_t>n)
