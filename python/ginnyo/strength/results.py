"""What a match's deals came to (:mod:`ginnyo.strength.match` plays them): each deal's
scores, A's point in a game, the Wilson interval of A's win share and the match's summary;
apart from the players, so that the pictures (:mod:`ginnyo.strength.plots`) and the ladder
(:mod:`ginnyo.strength.ladder`) read results without the players that made them.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Sequence

Z95 = 1.959964
#: the player counts a match is played at
MATCH_PLAYERS = (2, 3, 4)


@dataclass(frozen=True)
class DealResult:
    """One deal played once with A in each seat: ``scores[s]`` holds the final
    scores, seat by seat, of the game in which A sat in seat ``s`` (the other
    seats B's), ``turns[s]`` its turns and ``box_emptied[s]`` whether its box
    ran empty (the endgame was reached: no tile goes back to an empty box)."""

    seed: int
    scores: tuple[tuple[int, ...], ...]
    turns: tuple[int, ...]
    box_emptied: tuple[bool, ...] = ()

    @property
    def reached_endgame(self) -> bool:
        """Whether the box ran empty in a game of the deal."""
        return any(self.box_emptied)

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def a_scores(self) -> tuple[int, ...]:
        """A's final score in each game of the deal."""
        return tuple(game[seat] for seat, game in enumerate(self.scores))

    @property
    def field_scores(self) -> tuple[tuple[int, ...], ...]:
        """The B's final scores in each game of the deal."""
        return tuple(game[:seat] + game[seat + 1:] for seat, game in enumerate(self.scores))

    def points(self) -> list[float]:
        """A's result in each game: 1 alone on top, 1/t tied on top with t - 1 others, else 0."""
        return [game_point(game, seat) for seat, game in enumerate(self.scores)]

    def differences(self) -> list[float]:
        """A's score minus the field's mean in each game."""
        return [a - statistics.fmean(field) for a, field in zip(self.a_scores, self.field_scores)]


def game_point(scores: Sequence[int], seat: int) -> float:
    """The point of the player in ``seat`` of a game that ended on ``scores``: the
    top score's share, split evenly among the players tied for it."""
    top = max(scores)
    return 1.0 / sum(1 for score in scores if score == top) if scores[seat] == top else 0.0


# -- the statistics -------------------------------------------------------------------------------

def wilson(share: float, count: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``share`` out of ``count``."""
    if count == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    return centre - half, centre + half


@dataclass(frozen=True)
class MatchSummary:
    """A match's result: A's wins, ties for first and losses, A's win share with
    its Wilson interval, the mean score difference (A minus the field's mean)
    with its half width, both sides' mean scores and the players a game."""

    bots: tuple[str, str]
    games: int
    wins: int
    ties: int
    losses: int
    win_rate: float
    low: float
    high: float
    mean_difference: float
    difference_half_width: float
    a_mean: float
    b_mean: float
    players: int = 2

    @property
    def parity(self) -> float:
        """The win share of a player as strong as the field: 1 / players."""
        return 1.0 / self.players

    def lines(self, seconds: float, where: str, played: int | None = None) -> list[str]:
        """The summary for people; ``played``, the games played when only some are summarised."""
        from ..support.number_text import number
        a, b = self.bots
        if self.players == 2:
            dealt, ties, rate, field = "seats swapped", "ties", f"win rate of {a}", b
            how = "Wilson, ties half"
        else:
            dealt = f"each played {self.players} times, {a} in every seat"
            ties, rate, field = "ties for first", f"win share of {a} against the field", f"the field ({b})"
            how = f"Wilson, ties for first split; parity {100 * self.parity:.2f}%"
        bound = f"{'above' if self.low > self.parity else 'NOT above'} {_percent(self.parity)}"
        return [
            f"{a} vs {b if self.players == 2 else f'{self.players - 1} x {b}'}: {self.games} games "
            f"({_deals(self.games // self.players)}, {dealt}), {where}: "
            f"{seconds:.1f} s, {(played or self.games) / seconds:.1f} games/s",
            f"{a} wins {self.wins}, {ties} {self.ties}, loses {self.losses}",
            f"{rate}: {100 * self.win_rate:.2f}%  95% CI [{100 * self.low:.2f}%, {100 * self.high:.2f}%] "
            f"({how})",
            f"mean score: {a} {self.a_mean:.1f}, {field} {self.b_mean:.1f}; difference {number(self.mean_difference, '+.2f')} "
            f"+/- {self.difference_half_width:.2f} (95%, over deals)",
            f"95% lower bound of the win {'rate' if self.players == 2 else 'share'} {bound}",
        ]

    def to_json(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "players": self.players, "games": self.games, "wins": self.wins,
                "ties": self.ties, "losses": self.losses, "win_rate": round(self.win_rate, 5),
                "ci95": [round(self.low, 5), round(self.high, 5)],
                "mean_difference": round(self.mean_difference, 3),
                "difference_ci95": [round(self.mean_difference - self.difference_half_width, 3),
                                    round(self.mean_difference + self.difference_half_width, 3)]
                if math.isfinite(self.difference_half_width) else None,   # one deal: no interval
                "mean_scores": [round(self.a_mean, 3), round(self.b_mean, 3)]}


def _deals(count: int) -> str:
    return f"{count} deal{'' if count == 1 else 's'}"


def _percent(share: float) -> str:
    """50%, 33.33%: a parity as the summary writes it."""
    return f"{100 * share:.2f}".rstrip("0").rstrip(".") + "%"


def summarise(bots: tuple[str, str], results: Sequence[DealResult]) -> MatchSummary:
    """The summary of a match's deals (all of one player count)."""
    players = results[0].players if results else 2
    points = [point for result in results for point in result.points()]
    games = len(points)
    wins = sum(1 for point in points if point == 1.0)
    ties = sum(1 for point in points if 0.0 < point < 1.0)
    share = sum(points) / games if games else 0.0
    low, high = wilson(share, games)
    per_deal = [statistics.fmean(result.differences()) for result in results]
    mean = statistics.fmean(per_deal) if per_deal else 0.0
    half = Z95 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else math.inf
    a_scores = [score for result in results for score in result.a_scores]
    b_scores = [score for result in results for field in result.field_scores for score in field]
    return MatchSummary(bots, games, wins, ties, games - wins - ties, share, low, high, mean, half,
                        statistics.fmean(a_scores) if a_scores else 0.0,
                        statistics.fmean(b_scores) if b_scores else 0.0, players)


__all__ = ["DealResult", "MatchSummary", "summarise", "wilson", "game_point", "MATCH_PLAYERS", "Z95"]
