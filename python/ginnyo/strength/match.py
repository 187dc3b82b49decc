"""Head-to-head matches: player A against B (2 players) or against a field of
B's (3 or 4 players) in seeded deals, each played once with A in every seat;
A's win share with its 95% confidence interval, the mean score difference, and
a plot of the scores.

``ginnyo match --bots A,B --games N --seed S --players K`` plays N/K deals
(seeds S, S+1, …), each K times with the seats rotated: in game s of a deal A
sits in seat s and B's fill the other seats, so that A gets every rack and every
seat of the deal and the luck of the deal cancels (with 2 players: each deal
twice, the seats swapped).  A game's point for A is 1 when A alone has the top
score, 1/t when A is one of t players tied for it, and 0 otherwise (with 2
players: a tie counts half); the win share is A's points over the games, with
the Wilson score interval.  A player as strong as the field wins 1/K of the
games (the parity: 50% with 2 players).  The score difference is A's final
score minus the mean of the field's, with a normal interval over the deals (the
K games of a deal averaged first, as they are not independent).  docs/EQUITY.md
("Proof of strength") states the objective for users.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Sequence

from ..game.game import Game, play_game
from ..players.players import PLAYER_KINDS, SIM_KINDS, Player, hash_seed, make_player, sim_extras, sim_options
from ..support.workers import cut, default_workers, run_batches

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel

Z95 = 1.959964
#: the player counts a match is played at
MATCH_PLAYERS = (2, 3, 4)
#: the player kinds that play by leave values (``--leaves-a``/``--leaves-b``)
LEAVE_KINDS = ("equity", "endgame", *SIM_KINDS)


@dataclass(frozen=True)
class SimSettings:
    """How a ``sim`` player of a match simulates."""

    rollouts: int = 32
    candidates: int = 5
    plies: int = 2
    margin: float = 25.0


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


def seatings(bots: tuple[str, str], players: int) -> list[tuple[str, ...]]:
    """The kinds seat by seat in each game of a deal: A in seat s of game s, B elsewhere."""
    return [tuple(bots[0] if seat == a_seat else bots[1] for seat in range(players)) for a_seat in range(players)]


def build_player(kind: str, seed: int, seat: int, sim: SimSettings, model: LeaveModel | None = None) -> Player:
    """A player of ``kind`` for ``seat`` of the game dealt from ``seed``; ``model``,
    the leave values of an equity, endgame or sim player (default: the shipped ones)."""
    if kind in SIM_KINDS:
        from ..players.simulation import SimPlayer
        late_box, endgame_nodes = sim_options(kind)
        infer, chance_box = sim_extras(kind)
        return SimPlayer(seed=hash_seed(f"ginnyo sim {seed} {seat}"), rollouts=sim.rollouts,
                         candidates=sim.candidates, plies=sim.plies, margin=sim.margin, model=model,
                         late_box=late_box, endgame_nodes=endgame_nodes, infer=infer, chance_box=chance_box)
    if model is not None and kind in ("equity", "endgame"):
        from ..players.equity import EquityPlayer
        return EquityPlayer(model, endgame=kind == "endgame")
    return make_player(kind, seed, seat)


def play_deal(seed: int, bots: tuple[str, str], sim: SimSettings, players: int = 2,
              models: tuple[LeaveModel | None, LeaveModel | None] = (None, None)) -> DealResult:
    """Deal ``seed`` for ``players`` and play it once with A in each seat in turn."""
    scores, turns, emptied = [], [], []
    for a_seat, kinds in enumerate(seatings(bots, players)):
        seated = [build_player(kind, seed, seat, sim, models[0] if seat == a_seat else models[1])
                  for seat, kind in enumerate(kinds)]
        game = play_game(Game.deal(players, seed), seated)
        scores.append(tuple(game.scores))
        turns.append(game.turns_played)
        emptied.append(len(game.box) == 0)
    return DealResult(seed, tuple(scores), tuple(turns), tuple(emptied))


def play_deals(seeds: Sequence[int], bots: tuple[str, str], sim: SimSettings, players: int = 2,
               models: tuple[LeaveModel | None, LeaveModel | None] = (None, None)) -> list[DealResult]:
    """Several deals: the unit of work sent to a process or a Dask worker."""
    return [play_deal(seed, bots, sim, players, models) for seed in seeds]


def run(bots: tuple[str, str], games: int, seed: int = 0, *, players: int = 2, sim: SimSettings = SimSettings(),
        models: tuple[LeaveModel | None, LeaveModel | None] = (None, None),
        workers: int | None = None, scheduler: str | None = None,
        on_results: Any = None) -> list[DealResult]:
    """Play ``games`` games of ``players`` (``games // players`` deals from seeds
    ``seed, seed + 1, …``); the results in seed order, the same whatever the workers.
    ``models`` are A's and B's leave values (None: the shipped ones)."""
    for kind in bots:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    if players not in MATCH_PLAYERS:
        raise ValueError(f"players: {players!r} is not one of {', '.join(map(str, MATCH_PLAYERS))}")
    workers = workers or default_workers()
    seeds = list(range(seed, seed + games // players))
    results: list[DealResult] = []
    # fresh copies: a model that has played carries compiled tables (ginnyo.equity) that do not pickle
    sent = (_unplayed(models[0]), _unplayed(models[1]))
    work = partial(play_deals, bots=bots, sim=sim, players=players, models=sent)
    for batch in run_batches(work, cut(seeds, workers, largest=20), workers=workers, scheduler=scheduler):
        if on_results is not None:
            on_results(batch)
        results.extend(batch)
    return sorted(results, key=lambda result: result.seed)


def _unplayed(model: LeaveModel | None) -> LeaveModel | None:
    """A copy of ``model`` with its values only, which pickles for a worker process."""
    return None if model is None else dataclasses.replace(model)


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


__all__ = ["DealResult", "SimSettings", "MatchSummary", "play_deal", "run", "summarise", "wilson", "game_point",
           "seatings", "MATCH_PLAYERS", "LEAVE_KINDS"]
