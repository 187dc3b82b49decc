"""Solving puzzles: the shipped set read (docs/PUZZLES.md), an answer judged against a puzzle's
solutions, the next puzzle chosen near a player's rating, and the day's puzzle.

An answer is judged by its play, not its text: it is read in the puzzle's position and compared,
as a set of tiles placed on squares (or of tiles returned), with each solution read the same way,
so any ordering the puzzle lists, and any spelling of it, is the solution.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..errors import IllegalMoveError, InvalidMoveError
from ..game.actions import Pass, Place, Return, parse_action
from ..position.position import Position
from .themes import THEMES

SHIPPED = Path(__file__).parent.parent / "data" / "puzzles.jsonl"
NEAREST = 12        # the next puzzle is drawn from this many of those rated nearest the player


@dataclass(frozen=True)
class ShippedPuzzle:
    """A puzzle's line as docs/PUZZLES.md writes it (``line``: the whole object)."""

    line: Mapping[str, Any]

    @property
    def id(self) -> str:
        return str(self.line["id"])

    @property
    def rating(self) -> int:
        """The starting rating (the file's)."""
        return int(self.line["rating"])

    @property
    def themes(self) -> tuple[str, ...]:
        return tuple(self.line["themes"])

    @cached_property
    def position(self) -> Position:
        return Position.from_dict(self.line["position"])

    @cached_property
    def solved_by(self) -> frozenset[object]:
        """Each solution as :func:`answer_key` reads it."""
        return frozenset(answer_key(self.position, notation) for notation in self.line["solution"])

    def question(self) -> dict[str, Any]:
        """What a player sees before answering: everything but the solution and what gives it away."""
        return {"id": self.id, "kind": self.line["kind"], "position": self.line["position"],
                "themes": list(self.themes), "rating": self.rating}

    def answer(self) -> dict[str, Any]:
        """What a player sees after answering: the solutions, the margin and the second best."""
        shown = {"solution": list(self.line["solution"]), "margin": self.line["margin"],
                 "second": self.line.get("second")}
        shown.update((key, self.line[key]) for key in ("score", "spread", "mean", "interval") if key in self.line)
        return shown

    def solves(self, notation: str) -> bool:
        """Whether ``notation`` (a play, or ``return TILES``) is a solution; InvalidMoveError when it
        does not read, IllegalMoveError when it reads but is not legal in the position."""
        return answer_key(self.position, notation) in self.solved_by


def answer_key(position: Position, notation: str) -> object:
    """What an action is, whatever its spelling: a play's set of (square, tile) placed, or the
    tiles of a return counted; InvalidMoveError or IllegalMoveError (one line) when it is none."""
    action = parse_action(position, notation)
    if isinstance(action, Place):
        if not position.is_legal(action.play):
            position.score(action.play)   # raises the rule it breaks, in words
            raise IllegalMoveError(f"move {notation!r}: not legal here")
        return frozenset(action.play.placements)
    if isinstance(action, Return):
        held = Counter(position.rack)   # rack tiles, a joker as JOKER, as a return names them
        if Counter(action.tiles) - held:
            raise IllegalMoveError(f"action {notation!r}: returns a tile the rack does not hold")
        if position.game_context.box_size == 0:
            raise IllegalMoveError(f"action {notation!r}: the box is empty; there is nothing to draw")
        return ("return", tuple(sorted(action.tiles)))
    assert isinstance(action, Pass)
    raise IllegalMoveError("pass: a puzzle has a play; pass only when there is none")


@cache
def shipped_puzzles(path: Path = SHIPPED) -> dict[str, ShippedPuzzle]:
    """The puzzles of ``path`` (a JSON-lines file of docs/PUZZLES.md), by id, in the file's order."""
    with path.open(encoding="utf-8") as lines:
        return {puzzle.id: puzzle for puzzle in (ShippedPuzzle(json.loads(line)) for line in lines if line.strip())}


def theme_counts(puzzles: Iterable[ShippedPuzzle]) -> dict[str, int]:
    """How many puzzles hold each theme, every theme of the vocabulary listed in its order."""
    counts = Counter(theme for puzzle in puzzles for theme in puzzle.themes)
    return {theme: counts[theme] for theme in THEMES}


def daily_puzzle(puzzles: Mapping[str, ShippedPuzzle], day: datetime.date) -> ShippedPuzzle:
    """The puzzle of ``day``: the same for everyone, drawn from a hash of the date."""
    ids = sorted(puzzles)
    digest = hashlib.sha256(day.isoformat().encode("ascii")).digest()
    return puzzles[ids[int.from_bytes(digest[:8], "big") % len(ids)]]


def next_puzzle(puzzles: Sequence[ShippedPuzzle], ratings: Mapping[str, int], player_rating: int,
                recent: Iterable[str], chance: random.Random) -> ShippedPuzzle | None:
    """A puzzle of ``puzzles`` (their current ``ratings``, by id; the file's when missing) near
    ``player_rating``: drawn by ``chance`` among the :data:`NEAREST` nearest in rating, those of
    ``recent`` left out while others remain.  None when ``puzzles`` is empty."""
    seen = set(recent)
    fresh = [puzzle for puzzle in puzzles if puzzle.id not in seen] or list(puzzles)
    if not fresh:
        return None
    fresh.sort(key=lambda puzzle: (abs(ratings.get(puzzle.id, puzzle.rating) - player_rating), puzzle.id))
    return chance.choice(fresh[:NEAREST])


__all__ = ["SHIPPED", "NEAREST", "ShippedPuzzle", "answer_key", "shipped_puzzles", "theme_counts", "daily_puzzle",
           "next_puzzle", "InvalidMoveError", "IllegalMoveError"]
