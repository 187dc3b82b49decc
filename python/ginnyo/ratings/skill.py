"""A skill rated with OpenSkill's Plackett–Luce model (Weng and Lin, 2011): each participant's
``mu`` (the skill believed) and ``sigma`` (how unsure), moved by every finished order of 2 to 6
participants, the winner first.  The puzzles rate a player against a puzzle with it; the club's
games rate their players with it.

The number shown is :func:`display_rating`: ``1500 + 40 × (mu − 3 sigma)``, OpenSkill's
ordinal (a skill the participant is very likely above) on the scale of Elo-like ratings, so a
newcomer (``mu`` 25, ``sigma`` 25/3: ordinal 0) shows 1500, and a skill ``mu`` 12.5 above the
newcomer's (as sure) 2000.  :func:`skill_of_rating` is its inverse at a newcomer's ``sigma``: the
skill a shipped puzzle starts with from its rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Sequence

from openskill.models import PlackettLuce

MU = 25.0                 # OpenSkill's defaults: a newcomer's skill ...
SIGMA = MU / 3            # ... and its uncertainty
DISPLAY_BASE = 1500       # the rating shown for an ordinal of 0 (a newcomer)
DISPLAY_SCALE = 40.0      # rating points a unit of ordinal
MIN_PARTICIPANTS, MAX_PARTICIPANTS = 2, 6


@dataclass(frozen=True)
class Skill:
    """A participant's skill: ``mu`` and ``sigma``, OpenSkill's."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """``mu − 3 sigma``: a skill the participant is very likely above."""
        return self.mu - 3 * self.sigma


NEWCOMER = Skill()


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate_order(order: Sequence[Skill], ranks: Sequence[int] | None = None) -> list[Skill]:
    """The skills after a finished order (first the winner, then second...; 2 to 6 participants,
    each alone), in the same order; ``ranks`` (1 the best, equal ranks a tie) when some placed
    equal.  ValueError for another count."""
    if not MIN_PARTICIPANTS <= len(order) <= MAX_PARTICIPANTS:
        raise ValueError(f"an order rates {MIN_PARTICIPANTS} to {MAX_PARTICIPANTS} participants, not {len(order)}")
    if ranks is not None and len(ranks) != len(order):
        raise ValueError(f"{len(ranks)} ranks for {len(order)} participants")
    model = _model()
    teams = [[model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in order]
    rated = model.rate(teams, ranks=list(ranks) if ranks is not None else list(range(1, len(order) + 1)))
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]


def rate_match(winner: Skill, loser: Skill) -> tuple[Skill, Skill]:
    """The two skills after ``winner`` beat ``loser``: (the winner's, the loser's)."""
    won, lost = rate_order([winner, loser])
    return won, lost


def display_rating(skill: Skill) -> int:
    """The rating shown: ``1500 + 40 × ordinal``, rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * skill.ordinal)


def skill_of_rating(rating: float) -> Skill:
    """The skill of a newcomer's ``sigma`` that :func:`display_rating` shows as ``rating``."""
    return Skill(MU + (rating - DISPLAY_BASE) / DISPLAY_SCALE, SIGMA)


__all__ = ["Skill", "NEWCOMER", "MU", "SIGMA", "rate_order", "rate_match", "display_rating", "skill_of_rating"]
