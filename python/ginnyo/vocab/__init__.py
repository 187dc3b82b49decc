"""The game's words, one room: tile codes (tiles), layouts and their premiums
(layout), meld kinds and values (melds), the rules' numbers, read from the
compiled ``ginnycore.rules`` (rules), board geometry (board), the
:class:`Play` and :class:`ScoredPlay` values (play), move notation (notation),
the words for an illegal play (illegal) and :class:`PositionFields`, the fields
the floors below ``Position`` read from any position (fields).

The names below load on first use; the package's own code imports the modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .fields import GameFields, PositionFields
    from .layout import Layout, column_letter
    from .notation import parse_notation, play_notation
    from .play import MeldScore, Play, ScoredPlay
    from .tiles import JOKER, PlacedTile, card_code, parse_card, parse_rack_tile, rack_code, tile_code

__all__ = [
    "PlacedTile", "JOKER", "card_code", "tile_code", "rack_code", "parse_card", "parse_rack_tile",
    "Layout", "column_letter", "Play", "MeldScore", "ScoredPlay", "parse_notation", "play_notation",
    "PositionFields", "GameFields"]

__getattr__ = lazy_names(__name__, {
    "tiles": __all__[:7], "layout": ["Layout", "column_letter"], "play": ["Play", "MeldScore", "ScoredPlay"],
    "notation": ["parse_notation", "play_notation"], "fields": ["PositionFields", "GameFields"]})
