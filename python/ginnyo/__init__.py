"""ginnyo: move generator and best-play solver for Ginny-O.

:class:`Position` is the centre of the API: ``Position.load(source)``, then
``position.legal_plays``, ``best_play()``, ``score(play)``, ``apply(play)``...
(docs/API.md).
"""

from .errors import (GinnyoError, IllegalMoveError, InvalidMoveError, PositionError, RecordError, RunError,
                     TileError)
from .vocab.layout import Layout
from .position.legal import LegalPlays
from .vocab.play import MeldScore, Play, ScoredPlay
from .position.position import Position
from .vocab.tiles import JOKER, PlacedTile, card_code, parse_rack_tile, rack_code

__version__ = "0.1.0"

__all__ = ["Position", "Play", "ScoredPlay", "MeldScore", "LegalPlays", "Layout", "PlacedTile", "JOKER",
           "card_code", "rack_code", "parse_rack_tile",
           "GinnyoError", "PositionError", "TileError", "InvalidMoveError", "IllegalMoveError", "RecordError",
           "RunError", "__version__"]
