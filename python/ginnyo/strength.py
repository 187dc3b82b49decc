"""Head-to-head matches between two players: paired seeded games, win rate with
its 95% confidence interval, mean score difference, and a plot of the scores.

``ginnyo match --bots A,B --games N --seed S`` plays N/2 deals (seeds S, S+1, …),
each twice with the seats swapped, so that both players get every rack and the
luck of the deal cancels.  The win rate is A's share of the games, a tie
counting half, with the Wilson score interval; the score difference is A's
final score minus B's, with a normal interval over the deals (the two games of
a deal averaged first, as they are not independent).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, Optional, Sequence

from .game import Game, play_game
from .players import PLAYER_KINDS, Player, hash_seed, make_player
from .workers import cut, default_workers, run_batches

Z95 = 1.959964


@dataclass(frozen=True)
class SimSettings:
    """How a ``sim`` player of a match simulates."""

    rollouts: int = 32
    candidates: int = 5
    plies: int = 2
    margin: float = 25.0


@dataclass(frozen=True)
class PairResult:
    """One deal played twice: A's and B's final scores with A in seat 0, then in seat 1."""

    seed: int
    a_scores: tuple[int, int]
    b_scores: tuple[int, int]
    turns: tuple[int, int]

    def points(self) -> list[float]:
        """A's result in each game: 1 a win, 0.5 a tie, 0 a loss."""
        return [1.0 if a > b else 0.5 if a == b else 0.0 for a, b in zip(self.a_scores, self.b_scores)]


Leaves = tuple[Optional[str], Optional[str]]   # A's and B's leave files (None: the shipped one)


def build_player(kind: str, seed: int, seat: int, sim: SimSettings, leaves: str | None = None) -> Player:
    """A player of ``kind`` for ``seat`` of the game dealt from ``seed``; an
    equity or sim player values leaves by the file ``leaves`` (None: the shipped one)."""
    if kind == "sim":
        from .simulation import SimPlayer
        return SimPlayer(seed=hash_seed(f"ginnyo sim {seed} {seat}"), rollouts=sim.rollouts,
                         candidates=sim.candidates, plies=sim.plies, margin=sim.margin,
                         model=_leave_model(leaves) if leaves else None)
    if kind == "equity" and leaves:
        from .equity import EquityPlayer
        return EquityPlayer(_leave_model(leaves))
    return make_player(kind, seed, seat)


@lru_cache(maxsize=4)
def _leave_model(path: str) -> Any:
    """A leave file read once a process."""
    from .leaves import load
    return load(path)


def play_pair(seed: int, bots: tuple[str, str], sim: SimSettings, leaves: Leaves = (None, None)) -> PairResult:
    """Deal ``seed`` and play it twice: A in seat 0, then A in seat 1."""
    a_scores, b_scores, turns = [], [], []
    for a_seat in (0, 1):
        kinds = (bots[0], bots[1]) if a_seat == 0 else (bots[1], bots[0])
        files = leaves if a_seat == 0 else (leaves[1], leaves[0])
        players = [build_player(kind, seed, seat, sim, files[seat]) for seat, kind in enumerate(kinds)]
        game = play_game(Game.deal(2, seed), players)
        a_scores.append(game.scores[a_seat])
        b_scores.append(game.scores[1 - a_seat])
        turns.append(game.turns_played)
    return PairResult(seed, (a_scores[0], a_scores[1]), (b_scores[0], b_scores[1]), (turns[0], turns[1]))


def play_pairs(seeds: Sequence[int], bots: tuple[str, str], sim: SimSettings,
               leaves: Leaves = (None, None)) -> list[PairResult]:
    """Several deals: the unit of work sent to a process or a Dask worker."""
    return [play_pair(seed, bots, sim, leaves) for seed in seeds]


def run(bots: tuple[str, str], games: int, seed: int = 0, *, sim: SimSettings = SimSettings(),
        workers: int | None = None, scheduler: str | None = None,
        on_results: Any = None, leaves: Leaves = (None, None)) -> list[PairResult]:
    """Play ``games`` games (``games // 2`` deals from seeds ``seed, seed + 1, …``);
    the results in seed order, the same whatever the workers.  ``leaves``: A's
    and B's leave files (None: the shipped one)."""
    for kind in bots:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    workers = workers or default_workers()
    seeds = list(range(seed, seed + games // 2))
    results: list[PairResult] = []
    for batch in run_batches(partial(play_pairs, bots=bots, sim=sim, leaves=leaves), cut(seeds, workers, largest=20),
                             workers=workers, scheduler=scheduler):
        if on_results is not None:
            on_results(batch)
        results.extend(batch)
    return sorted(results, key=lambda result: result.seed)


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

    def lines(self, seconds: float, where: str) -> list[str]:
        a, b = self.bots
        return [
            f"{a} vs {b}: {self.games} games ({self.games // 2} deals, seats swapped), {where}: "
            f"{seconds:.1f} s, {self.games / seconds:.1f} games/s",
            f"{a} wins {self.wins}, ties {self.ties}, loses {self.losses}",
            f"win rate of {a}: {100 * self.win_rate:.2f}%  95% CI [{100 * self.low:.2f}%, {100 * self.high:.2f}%] "
            f"(Wilson, ties half)",
            f"mean score: {a} {self.a_mean:.1f}, {b} {self.b_mean:.1f}; difference {self.mean_difference:+.2f} "
            f"+/- {self.difference_half_width:.2f} (95%, over deals)",
            f"95% lower bound of the win rate {'above' if self.low > 0.5 else 'NOT above'} 50%",
        ]

    def to_json(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "games": self.games, "wins": self.wins, "ties": self.ties,
                "losses": self.losses, "win_rate": round(self.win_rate, 5), "ci95": [round(self.low, 5),
                                                                                       round(self.high, 5)],
                "mean_difference": round(self.mean_difference, 3),
                "difference_ci95": [round(self.mean_difference - self.difference_half_width, 3),
                                    round(self.mean_difference + self.difference_half_width, 3)],
                "mean_scores": [round(self.a_mean, 3), round(self.b_mean, 3)]}


def summarise(bots: tuple[str, str], results: Sequence[PairResult]) -> MatchSummary:
    points = [point for result in results for point in result.points()]
    games = len(points)
    wins = sum(1 for point in points if point == 1.0)
    ties = sum(1 for point in points if point == 0.5)
    share = sum(points) / games if games else 0.0
    low, high = wilson(share, games)
    per_deal = [sum(a - b for a, b in zip(result.a_scores, result.b_scores)) / 2 for result in results]
    mean = statistics.fmean(per_deal) if per_deal else 0.0
    half = Z95 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else math.inf
    a_scores = [score for result in results for score in result.a_scores]
    b_scores = [score for result in results for score in result.b_scores]
    return MatchSummary(bots, games, wins, ties, games - wins - ties, share, low, high, mean, half,
                        statistics.fmean(a_scores) if a_scores else 0.0,
                        statistics.fmean(b_scores) if b_scores else 0.0)


# -- the plot -------------------------------------------------------------------------------------

PLOT_COLOURS = ("#1f6fb4", "#d9622b")


def scores_svg(summary: MatchSummary, results: Sequence[PairResult], bins: int = 40) -> str:
    """An SVG picture: the distributions of both players' final scores (left)
    and of the score difference A − B (right), with their means."""
    a_scores = [score for result in results for score in result.a_scores]
    b_scores = [score for result in results for score in result.b_scores]
    differences = [a - b for result in results for a, b in zip(result.a_scores, result.b_scores)]
    width, height, margin = 980, 380, 48
    panel = (width - 3 * margin) // 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width // 2}" y="20" text-anchor="middle" font-size="15">'
             f'{_escape(summary.bots[0])} vs {_escape(summary.bots[1])}: {summary.games} games, win rate '
             f'{100 * summary.win_rate:.1f}% [{100 * summary.low:.1f}%, {100 * summary.high:.1f}%]</text>']
    parts += _histogram(margin, 40, panel, height - 90, [a_scores, b_scores], bins,
                        [f"{summary.bots[0]} (mean {statistics.fmean(a_scores):.1f})",
                         f"{summary.bots[1]} (mean {statistics.fmean(b_scores):.1f})"],
                        "final score")
    parts += _histogram(2 * margin + panel, 40, panel, height - 90, [differences], bins,
                        [f"{summary.bots[0]} - {summary.bots[1]} (mean {statistics.fmean(differences):+.1f})"],
                        "score difference")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _histogram(left: int, top: int, width: int, height: int, series: list[list[int]], bins: int,
               labels: list[str], axis: str) -> list[str]:
    low = min(min(values) for values in series)
    high = max(max(values) for values in series)
    step = max(1.0, (high - low + 1) / bins)
    counts = []
    for values in series:
        row = [0] * bins
        for value in values:
            row[min(bins - 1, int((value - low) / step))] += 1
        counts.append(row)
    peak = max(max(row) for row in counts) or 1
    bottom = top + height
    legend_top, top = top, top + 20 * len(series) + 6   # the legend above the bars
    height = bottom - top
    parts = [f'<line x1="{left}" y1="{bottom}" x2="{left + width}" y2="{bottom}" stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="black"/>',
             f'<text x="{left + width // 2}" y="{bottom + 34}" text-anchor="middle">{axis}</text>']
    bar = width / bins
    for number, row in enumerate(counts):
        colour = PLOT_COLOURS[number % len(PLOT_COLOURS)]
        for index, count in enumerate(row):
            if count:
                bar_height = height * count / peak
                parts.append(f'<rect x="{left + index * bar:.1f}" y="{bottom - bar_height:.1f}" '
                             f'width="{bar:.1f}" height="{bar_height:.1f}" fill="{colour}" fill-opacity="0.5"/>')
        mean = statistics.fmean(series[number])
        x = left + (mean - low) / step * bar
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="{colour}" '
                     f'stroke-width="2" stroke-dasharray="5,3"/>')
        parts.append(f'<rect x="{left + 10}" y="{legend_top + 2 + 20 * number}" width="12" height="12" '
                     f'fill="{colour}" fill-opacity="0.6"/><text x="{left + 28}" y="{legend_top + 12 + 20 * number}">'
                     f'{_escape(labels[number])}</text>')
    for tick in range(5):
        tick_value = low + step * bins * tick / 4
        x = left + width * tick / 4
        parts.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{tick_value:.0f}</text>')
    parts.append(f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{peak}</text>')
    parts.append(f'<text x="{left - 6}" y="{bottom}" text-anchor="end">0</text>')
    return parts


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- the plot of plot-sim -------------------------------------------------------------------------

def win_rate_svg(rows: Sequence[tuple[int, MatchSummary]], opponent: str) -> str:
    """An SVG picture: the sim player's win rate (with its 95% interval) against
    the rollouts a decision, on a log scale."""
    width, height, left, right, top, bottom = 640, 400, 70, 30, 50, 60
    plot_width, plot_height = width - left - right, height - top - bottom
    low = min(0.45, min(summary.low for _, summary in rows) - 0.02)
    high = max(0.55, max(summary.high for _, summary in rows) + 0.02)
    first, last = math.log2(rows[0][0]), math.log2(rows[-1][0])
    span = (last - first) or 1.0

    def x_of(count: int) -> float:   # 24 px in from both ends of the axis
        return left + 24 + (plot_width - 48) * ((math.log2(count) - first) / span if len(rows) > 1 else 0.5)

    def y_of(rate: float) -> float:
        return top + plot_height * (high - rate) / (high - low)

    games = rows[0][1].games
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width // 2}" y="24" text-anchor="middle" font-size="15">sim vs {_escape(opponent)}: '
             f'win rate against rollouts a decision ({games} games each)</text>',
             f'<line x1="{left}" y1="{top + plot_height}" x2="{left + plot_width}" y2="{top + plot_height}" '
             f'stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_height}" stroke="black"/>',
             f'<line x1="{left}" y1="{y_of(0.5):.1f}" x2="{left + plot_width}" y2="{y_of(0.5):.1f}" stroke="gray" '
             f'stroke-dasharray="5,3"/>',
             f'<text x="{left + plot_width // 2}" y="{height - 16}" text-anchor="middle">rollouts a decision</text>',
             f'<text x="18" y="{top + plot_height // 2}" text-anchor="middle" '
             f'transform="rotate(-90 18 {top + plot_height // 2})">win rate (95% CI)</text>']
    for tick in range(math.ceil(low * 20), math.floor(high * 20) + 1):   # every 5%
        rate = tick / 20
        parts.append(f'<text x="{left - 6}" y="{y_of(rate) + 4:.1f}" text-anchor="end">{5 * tick}%</text>')
    points = []
    for count, summary in rows:
        x = x_of(count)
        points.append(f"{x:.1f},{y_of(summary.win_rate):.1f}")
        parts.append(f'<line x1="{x:.1f}" y1="{y_of(summary.low):.1f}" x2="{x:.1f}" y2="{y_of(summary.high):.1f}" '
                     f'stroke="{PLOT_COLOURS[0]}" stroke-width="2"/>')
        parts.append(f'<circle cx="{x:.1f}" cy="{y_of(summary.win_rate):.1f}" r="4" fill="{PLOT_COLOURS[0]}"/>')
        parts.append(f'<text x="{x:.1f}" y="{top + plot_height + 18}" text-anchor="middle">{count}</text>')
    parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{PLOT_COLOURS[0]}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


__all__ = ["PairResult", "SimSettings", "MatchSummary", "play_pair", "run", "summarise", "wilson",
           "scores_svg", "win_rate_svg"]
