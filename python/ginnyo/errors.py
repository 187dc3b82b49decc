"""The errors ginnyo raises; all are ``ValueError`` subclasses with a one-line message."""


class GinnyoError(ValueError):
    """Base of every input error; ``str(error)`` is the one line shown to users."""


class PositionError(GinnyoError):
    """A position (JSON, dict, layout, board or rack) is malformed or not legal."""


class TileError(PositionError):
    """A tile code is not one docs/FORMAT.md knows."""


class InvalidMoveError(GinnyoError):
    """Move notation that cannot be parsed (bad syntax)."""


class IllegalMoveError(GinnyoError):
    """A well-formed play that the rules do not allow in this position."""


class RecordError(GinnyoError):
    """A game record is malformed, or a move in it breaks the rules."""


class RunError(RuntimeError):
    """A long run failed for a reason outside its input (a lost cluster): exit 1, one line."""
