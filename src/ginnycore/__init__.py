"""ginnycore: the compiled Ginny-O move generator behind :mod:`ginnyo`."""

try:
    from .core import Core, Cores
except ImportError as error:  # pragma: no cover - only without a build
    raise ImportError(
        "ginnycore's compiled extension is not built: install the package with "
        "'pip install .' (needs a C compiler and Cython >= 3)") from error

__all__ = ["Core", "Cores"]
