"""The module functions of the API before :class:`ginnyo.Position` had methods:
deprecated aliases, kept for one release (docs/API.md, "Deprecated names").

Each is a thin call of the method that replaces it; :func:`ranked` sorts plays
by :meth:`ScoredPlay.sort_key`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import native
from .errors import IllegalMoveError
from .vocab.notation import parse_notation, play_notation
from .vocab.play import ScoredPlay
from .position.position import Position
from .position.scoring import Move, as_play


def load_position(source: Position | dict[str, Any] | str | Path) -> Position:
    """Deprecated: :meth:`Position.load`."""
    return Position.load(source)


def ranked(position: Position, plays: list[ScoredPlay]) -> list[ScoredPlay]:
    """Plays best first (see :meth:`ScoredPlay.sort_key`)."""
    return sorted(plays, key=ScoredPlay.sort_key)


def legal_plays(position: Position) -> list[ScoredPlay]:
    """Deprecated: ``list(position.legal_plays)``, every legal play, best first
    (ranked in C)."""
    return native.legal_plays(position)


def top_plays(position: Position, n: int) -> list[ScoredPlay]:
    """Deprecated: :meth:`Position.top_plays`."""
    return position.top_plays(n)


def best_play(position: Position) -> ScoredPlay | None:
    """Deprecated: :meth:`Position.best_play`."""
    return position.best_play()


def score_play(position: Position, move: Move) -> ScoredPlay:
    """Deprecated: :meth:`Position.score`."""
    return position.score(move)


def apply_play(position: Position, move: Move) -> Position:
    """Deprecated: :meth:`Position.apply`."""
    return position.apply(move)


def tiles_to_return(position: Position) -> tuple[list[int], str]:
    """Deprecated: :meth:`Position.return_advice`."""
    return position.return_advice()


__all__ = ["load_position", "legal_plays", "top_plays", "best_play", "score_play", "apply_play",
           "tiles_to_return", "ranked", "as_play", "play_notation", "parse_notation", "IllegalMoveError"]
