"""The public operations on a position: legal plays, best play, score, apply.

This is the layer the CLI and engines call; it chooses the generator behind it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import native
from .errors import IllegalMoveError, PositionError
from .notation import parse_notation, play_notation
from .play import Play, ScoredPlay
from .position import Position
from .position_string import from_line, looks_like_json
from .tiles import JOKER, rack_code, rack_penalty


def load_position(source: Position | dict[str, Any] | str | Path) -> Position:
    """A position from a :class:`Position`, a dict, a file path or ``'-'`` (stdin),
    JSON text or a one-line position string.

    A str is JSON text when it starts with ``{``, ``[`` or ``"``; else a file
    when it is ``'-'`` or names an existing file; else a position string when it
    holds a blank (a line always does, between board and rack); else a file path.
    A file holds JSON or a position string (docs/POSITION-STRING.md)."""
    if isinstance(source, Position):
        return source
    if isinstance(source, dict):
        return Position.from_dict(source)
    if isinstance(source, Path):
        return Position.from_file(source)
    if isinstance(source, str):
        if looks_like_json(source) and source.strip():
            return Position.from_json(source)
        if source != "-" and any(ch.isspace() for ch in source.strip()) and not Path(source).is_file():
            return from_line(source)
        return Position.from_file(source)
    raise PositionError(f"position: cannot load from {type(source).__name__}")


def ranked(position: Position, plays: list[ScoredPlay]) -> list[ScoredPlay]:
    """Plays best first (see :meth:`ScoredPlay.sort_key`)."""
    return sorted(plays, key=ScoredPlay.sort_key)


def legal_plays(position: Position) -> list[ScoredPlay]:
    """Every legal play, best first."""
    return ranked(position, native.legal_plays(position))


def top_plays(position: Position, n: int) -> list[ScoredPlay]:
    """The ``n`` best legal plays, best first (ranked as :func:`ranked`; fewer
    when there are fewer): the core keeps only ``n`` during generation, so this
    stays fast and small however many plays there are.  ``n`` < 1 raises ValueError."""
    return native.top_plays(position, n)


def best_play(position: Position) -> ScoredPlay | None:
    """The highest-scoring legal play (ties broken as in :func:`ranked`), or None."""
    return native.best_play(position)


def as_play(position: Position, move: Play | str) -> Play:
    return parse_notation(position, move) if isinstance(move, str) else move


def score_play(position: Position, move: Play | str) -> ScoredPlay:
    """Validate and score a play given as a :class:`Play` or in notation; raises
    :class:`IllegalMoveError` saying which rule it breaks."""
    play = as_play(position, move)
    scored = native.score(native.core_of(position), position, play)
    if scored is None:
        from . import reference     # only here: the CLI's start-up need not load it
        reference.check_play(position, play)  # names the rule broken
        raise IllegalMoveError("illegal play")  # pragma: no cover - core and reference disagree
    return scored


def apply_play(position: Position, move: Play | str) -> Position:
    """The position after a legal play: tiles moved from the rack to the board
    (no tiles are drawn: the box is not part of a static position)."""
    play = score_play(position, move).play
    board = dict(position.board)
    board.update(play.placements)
    rack = list(position.rack)
    for tile in play.tiles_used:
        rack.remove(tile)
    return Position(position.layout, position.sets, board, rack, position.context, validate=False)


def tiles_to_return(position: Position) -> tuple[list[int], str]:
    """With no legal play: the tile to return to the box and why.

    Returns the real tile that would cost most if left on the rack at the end
    (an ace before a king, ties to the lowest card); jokers are kept, as they
    cost nothing and fit any meld.  An empty or all-joker rack returns nothing.
    """
    candidates = [tile for tile in position.rack if tile != JOKER]
    if not candidates:
        if not position.rack:
            return [], "the rack is empty: pass"
        return [], "only jokers on the rack, which cost nothing and fit any meld: pass"
    worst = max(candidates, key=lambda tile: (rack_penalty(tile), -tile))
    reason = (f"{rack_code(worst)} costs the most if left on the rack at the end "
              f"(-{rack_penalty(worst)}); jokers are kept")
    return [worst], reason


__all__ = ["load_position", "legal_plays", "top_plays", "best_play", "score_play", "apply_play",
           "tiles_to_return", "ranked", "play_notation", "parse_notation", "IllegalMoveError"]
