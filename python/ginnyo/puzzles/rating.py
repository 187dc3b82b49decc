"""A puzzle's starting difficulty: how many of the engine's bot levels miss its
solution (docs/PUZZLES.md).

Each level of :mod:`ginnyo.players.levels` (``level1`` to ``level5``, the
players ``ginnyo match`` seats) decides the puzzle's position :data:`TRIALS`
times, each from its own seeded generator; a level misses the puzzle when
fewer than half of its decisions are a solution.  The rating is
:data:`BASE_RATING` plus :data:`STEP` for every level that misses.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from .. import native
from ..game.actions import action_notation
from ..players.levels import LEVELS, LevelPlayer
from ..position.position import Position

if TYPE_CHECKING:
    from ..game.game import View
    from ..native.core import Core
    from .proving import Puzzle

BASE_RATING = 1500
STEP = 100
TRIALS = 5


class PositionDecision:
    """A static position as the decision a level player reads (the parts of a
    game's :class:`~ginnyo.game.game.View` it uses), the stall clock at 0."""

    quiet_turns = 0

    def __init__(self, position: Position) -> None:
        self.position = position
        self.rack = tuple(sorted(position.rack))
        self.game_context = position.game_context
        self.players = self.game_context.players
        self.box_size = self.game_context.box_size
        self.board = position.board
        self.layout = position.layout

    def core(self) -> Core:
        return native.core_of(self.position)


def level_hits(puzzle: Puzzle, number: int, trials: int = TRIALS) -> int:
    """How many of ``trials`` decisions of level ``number`` solve ``puzzle``."""
    decision = cast("View", PositionDecision(puzzle.position))
    solutions = set(puzzle.solution)
    hits = 0
    for trial in range(trials):
        player = LevelPlayer(number, random.Random(f"ginnyo puzzle {puzzle.id} level{number} {trial}"))
        hits += action_notation(puzzle.position, player.choose(decision)) in solutions
    return hits


def levels_missing(puzzle: Puzzle, trials: int = TRIALS) -> list[int]:
    """The levels that solve ``puzzle`` in fewer than half of ``trials`` decisions."""
    return [number for number in LEVELS if 2 * level_hits(puzzle, number, trials) < trials]


def rating(puzzle: Puzzle, trials: int = TRIALS) -> int:
    """``puzzle``'s starting rating: :data:`BASE_RATING` plus :data:`STEP` a level that misses it."""
    return BASE_RATING + STEP * len(levels_missing(puzzle, trials))


__all__ = ["BASE_RATING", "STEP", "TRIALS", "PositionDecision", "level_hits", "levels_missing", "rating"]
