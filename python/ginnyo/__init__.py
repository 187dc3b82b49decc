"""ginnyo: move generator and best-play solver for Ginny-O."""

from .errors import GinnyoError, IllegalMoveError, InvalidMoveError, PositionError, TileError
from .layout import Layout
from .legal import LegalPlays
from .play import MeldScore, Play, ScoredPlay
from .position import Position
from .tiles import JOKER, PlacedTile

__version__ = "0.1.0"

__all__ = ["GinnyoError", "IllegalMoveError", "InvalidMoveError", "PositionError", "TileError", "Layout",
           "LegalPlays", "MeldScore", "Play", "ScoredPlay", "Position", "JOKER", "PlacedTile", "__version__"]
