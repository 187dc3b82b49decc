"""The club's games rated (docs/CLUB.md, "Ratings"): a finished game of 2 to 6 players moves each
player's skill in its game kind by OpenSkill's Plackett–Luce (:mod:`.skill`) from its final order,
players of equal final scores ranked equal.  A bot level is a player like any other
(``bot:level3``), so the ladder of levels shows in rating points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .skill import NEWCOMER, SIGMA, Skill, display_rating, rate_order

PROVISIONAL_GAMES = 10            # a rating is provisional until its player has finished this many rated games ...
PROVISIONAL_SIGMA = SIGMA * 0.6   # ... or while its sigma is still above this (60% of a newcomer's)
BOT_PREFIX = "bot:"               # a bot's player name: bot:level3 (account names hold no colon)


def bot_player(kind: str) -> str:
    """The rated player a bot of seat kind ``kind`` is."""
    return BOT_PREFIX + kind


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game kind: the skill and the rated games finished."""

    skill: Skill = NEWCOMER
    games: int = 0

    @property
    def rating(self) -> int:
        return display_rating(self.skill)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.skill.sigma > PROVISIONAL_SIGMA


def ranks_of(scores: Sequence[float], lower_wins: bool = False) -> list[int]:
    """Each seat's rank (1 the best) from the final scores: higher wins (Ginny-O) or lower wins
    (Crazy Rummy's penalty points); equal scores share the rank (standard competition ranking)."""
    sign = -1 if lower_wins else 1
    return [1 + sum(1 for other in scores if sign * other > sign * score) for score in scores]


def rate_game(players: Sequence[str], ranks: Sequence[int], current: Mapping[str, Standing]) -> dict[str, Standing]:
    """Every player's standing after a game of ``players`` (seat order, each once) finishing in ``ranks``,
    from their ``current`` standings (a newcomer's when absent).  ValueError for a player named twice
    or a count outside 2 to 6."""
    if len(set(players)) != len(players):
        raise ValueError("a rated game names each player once")
    before = [current.get(player, Standing()) for player in players]
    after = rate_order([standing.skill for standing in before], ranks)
    return {player: Standing(skill, standing.games + 1) for player, standing, skill in zip(players, before, after)}


__all__ = ["Standing", "ranks_of", "rate_game", "bot_player", "BOT_PREFIX", "PROVISIONAL_GAMES", "PROVISIONAL_SIGMA"]
