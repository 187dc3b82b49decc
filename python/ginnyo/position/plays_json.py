"""Plays as JSON objects: what ``best-move --json`` and ``moves --json`` print and the web table's
analysis board serves, made here once for all of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..vocab.notation import play_notation
from ..vocab.play import ScoredPlay
from ..vocab.tiles import rack_code, rack_penalty

if TYPE_CHECKING:
    from .position import Position


def play_to_json(position: Position, scored: ScoredPlay) -> dict[str, Any]:
    """One play: its notation, score, the tiles placed and each meld it makes with its score."""
    name = position.layout.square_name
    return {
        "notation": play_notation(position, scored.play),
        "score": scored.score,
        "placements": {name(square): tile.code for square, tile in scored.play.placements},
        "melds": [{"kind": meld.kind, "squares": [name(square) for square in meld.squares], "score": meld.score}
                  for meld in scored.melds],
    }


def no_play_json(position: Position) -> dict[str, Any]:
    """A position without a legal play: no notation, and the tiles to return with the reason, also
    as a code and its values (``reason_code``, ``reason_args``) for a reader's own words."""
    tiles, reason = position.return_advice()
    if tiles:
        code, args = "return-costliest", {"tile": rack_code(tiles[0]), "penalty": rack_penalty(tiles[0])}
    else:
        code, args = ("only-jokers" if position.rack else "empty-rack"), {}
    return {"notation": None, "score": 0, "placements": {}, "melds": [],
            "return": [rack_code(tile) for tile in tiles], "reason": reason, "reason_code": code, "reason_args": args}


__all__ = ["play_to_json", "no_play_json"]
