"""ginnycore: the compiled Ginny-O move generator behind :mod:`ginnyo`."""

import os
import warnings


def _passive_openmp() -> None:
    """Let idle OpenMP threads sleep rather than spin, unless the user chose.

    libgomp reads ``OMP_WAIT_POLICY`` once, when it is loaded, which is when the
    first extension below is imported; spinning threads made a 2-thread batch
    28 times slower than 1 thread on a busy 2-core machine.  If another library
    loaded libgomp first, the setting comes too late: say so.
    """
    if "OMP_WAIT_POLICY" in os.environ:
        return
    os.environ["OMP_WAIT_POLICY"] = "passive"
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            started = "libgomp" in maps.read()
    except OSError:  # pragma: no cover - not Linux
        return
    if started:
        warnings.warn("OpenMP was started before ginnycore, so its idle threads will spin: "
                      "set OMP_WAIT_POLICY=passive in the environment", RuntimeWarning, stacklevel=2)


_passive_openmp()

try:
    from .core import (
        EMPTY_SQUARE, ILLEGAL_AREAS, ILLEGAL_CARD, ILLEGAL_CENTRE, ILLEGAL_CODES, ILLEGAL_COUNT, ILLEGAL_COVERED,
        ILLEGAL_GAP, ILLEGAL_MELD, ILLEGAL_OFF_BOARD, ILLEGAL_PLACE, ILLEGAL_RACK, ILLEGAL_REPEATED,
        ILLEGAL_SHAPE, ILLEGAL_SHORT, KIND_RUN, KIND_SET, MAX_MELDS, MAX_PLACED, RACK_KINDS, Core, Cores,
        PlayMaker)
except ImportError as error:  # pragma: no cover - only without a build
    raise ImportError(
        "ginnycore's compiled extension is not built: install the package with "
        "'pip install .' (needs a C compiler and Cython >= 3)") from error

__all__ = ["Core", "Cores", "PlayMaker", "EMPTY_SQUARE", "KIND_RUN", "KIND_SET", "MAX_MELDS", "MAX_PLACED",
           "RACK_KINDS", "ILLEGAL_CODES", "ILLEGAL_AREAS", "ILLEGAL_CARD", "ILLEGAL_CENTRE", "ILLEGAL_COUNT",
           "ILLEGAL_COVERED", "ILLEGAL_GAP", "ILLEGAL_MELD", "ILLEGAL_OFF_BOARD", "ILLEGAL_PLACE", "ILLEGAL_RACK",
           "ILLEGAL_REPEATED", "ILLEGAL_SHAPE", "ILLEGAL_SHORT"]
