"""Bot levels: players of graded strength that miss plays as people do (docs/INFERENCE.md).

A level player ranks its actions (:func:`ginnyo.equity.rank_actions`, at most
:data:`CONSIDERED` of them) and "finds" each play on its own with a chance
that falls with the play's length and its jokers, as Macondo's levels do with
findability: ``find ** (tiles - 1) * joker ** jokers`` (a one-tile play with
no joker is always found).  Returns and a pass are always found.  It takes
the best found action by its own measure: the score alone for levels 1 to 3
(they do not value what they keep), equity (score plus leave value) for 4
and 5.  Level 3 finds everything and plays the best score (the greedy
player's choice of play; without one it returns by equity); level 5 finds
everything by equity and solves a 2-player endgame exactly: it is the
``endgame`` player (measured, missing long plays costs an equity player
little, so the exact endgame is what sets level 5 above level 4).  Its
choices are seeded from the game's seed and its seat, so a game replays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..game.actions import Action
from ..equity.rank import PLAY, Candidate, leave_state, rank_actions
from ..game.game import View
from ..equity.leaves import LeaveModel, default_model

#: The actions a level player looks among, best equity first.
CONSIDERED = 400


@dataclass(frozen=True)
class Level:
    """How a level finds and judges its plays."""

    find: float         # the chance of finding each tile past the first of a play
    joker: float        # the chance of seeing each joker's use
    by_equity: bool     # judge by equity (else by score alone)
    endgame: bool = False   # solve a 2-player endgame exactly (the endgame player's move once the box is empty)


LEVELS = {
    1: Level(find=0.3, joker=0.3, by_equity=False),
    2: Level(find=0.65, joker=0.5, by_equity=False),
    3: Level(find=1.0, joker=1.0, by_equity=False),
    4: Level(find=0.8, joker=0.7, by_equity=True),
    5: Level(find=1.0, joker=1.0, by_equity=True, endgame=True),
}
LEVEL_KINDS = tuple(f"level{number}" for number in LEVELS)


def found_chance(level: Level, candidate: Candidate) -> float:
    """The chance that ``level`` finds ``candidate``."""
    if candidate.kind != PLAY:
        return 1.0
    jokers = sum(1 for placement in candidate.placements if placement[2])
    return level.find ** (len(candidate.placements) - 1) * level.joker ** jokers


class LevelPlayer:
    """A player of one of :data:`LEVELS` (kind ``level1`` to ``level5``)."""

    def __init__(self, number: int, rng: random.Random, model: LeaveModel | None = None) -> None:
        if number not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}, not {number!r}")
        self.level = LEVELS[number]
        self.rng = rng
        self.model = model or default_model()
        self.name = f"level{number}"

    def choose(self, view: View) -> Action:
        if self.level.endgame:
            from ..endgame.choice import endgame_action
            solved = endgame_action(view)
            if solved is not None:
                return solved
        ranked = rank_actions(view.core(), view.rack, view.box_size, self.model, limit=CONSIDERED,
                              state=leave_state(view))
        found = [candidate for candidate in ranked
                 if candidate.kind != PLAY or self.rng.random() < found_chance(self.level, candidate)]
        if not found:                   # only plays, none found: the simplest play there is
            found = [min(ranked, key=lambda candidate: (len(candidate.placements), -candidate.score))]
        if self.level.by_equity:
            return found[0].action()    # the ranking is best equity first
        plays = [candidate for candidate in found if candidate.kind == PLAY]
        return (max(plays, key=lambda candidate: candidate.score) if plays else found[0]).action()


def make_level(kind: str, seed: int, seat: int) -> LevelPlayer:
    """The player of ``kind`` (``level1`` to ``level5``) for ``seat`` of the game dealt from ``seed``."""
    return LevelPlayer(int(kind.removeprefix("level")), random.Random(f"ginnyo {kind} {seed} {seat}"))


__all__ = ["Level", "LevelPlayer", "LEVELS", "LEVEL_KINDS", "CONSIDERED", "found_chance", "make_level"]
