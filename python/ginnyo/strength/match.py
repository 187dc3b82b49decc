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

The players come from the ``make_player`` a match is given (``ginnyo.players.players.make_player``:
every kind), but for the sim players and the leave values' players, which it builds itself.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Sequence

from ..game.game import Game, play_game
from ..players.kinds import PLAYER_KINDS, SIM_KINDS, PlayerMaker
from ..support.workers import cut, default_workers, run_batches
from .results import MATCH_PLAYERS, DealResult

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel

#: the player kinds that play by leave values (``--leaves-a``/``--leaves-b``)
LEAVE_KINDS = ("equity", "endgame", *SIM_KINDS)


@dataclass(frozen=True)
class SimSettings:
    """How a ``sim`` player of a match simulates."""

    rollouts: int = 32
    candidates: int = 5
    plies: int = 2
    margin: float = 25.0


def seatings(bots: tuple[str, str], players: int) -> list[tuple[str, ...]]:
    """The kinds seat by seat in each game of a deal: A in seat s of game s, B elsewhere."""
    return [tuple(bots[0] if seat == a_seat else bots[1] for seat in range(players)) for a_seat in range(players)]


def build_player(kind: str, seed: int, seat: int, sim: SimSettings, model: LeaveModel | None = None, *,
                 make_player: PlayerMaker) -> object:
    """A player of ``kind`` for ``seat`` of the game dealt from ``seed``; ``model``,
    the leave values of an equity, endgame or sim player (default: the shipped ones);
    any other kind as ``make_player`` builds it."""
    if kind in SIM_KINDS:
        from ..players.simulation import SimPlayer, hash_seed, sim_extras, sim_options
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
              models: tuple[LeaveModel | None, LeaveModel | None] = (None, None), *,
              make_player: PlayerMaker) -> DealResult:
    """Deal ``seed`` for ``players`` and play it once with A in each seat in turn."""
    scores, turns, emptied = [], [], []
    for a_seat, kinds in enumerate(seatings(bots, players)):
        seated = [build_player(kind, seed, seat, sim, models[0] if seat == a_seat else models[1],
                               make_player=make_player)
                  for seat, kind in enumerate(kinds)]
        game = play_game(Game.deal(players, seed), seated)
        scores.append(tuple(game.scores))
        turns.append(game.turns_played)
        emptied.append(len(game.box) == 0)
    return DealResult(seed, tuple(scores), tuple(turns), tuple(emptied))


def play_deals(seeds: Sequence[int], bots: tuple[str, str], sim: SimSettings, players: int = 2,
               models: tuple[LeaveModel | None, LeaveModel | None] = (None, None), *,
               make_player: PlayerMaker) -> list[DealResult]:
    """Several deals: the unit of work sent to a process or a Dask worker."""
    return [play_deal(seed, bots, sim, players, models, make_player=make_player) for seed in seeds]


def run(bots: tuple[str, str], games: int, seed: int = 0, *, players: int = 2, sim: SimSettings = SimSettings(),
        models: tuple[LeaveModel | None, LeaveModel | None] = (None, None),
        workers: int | None = None, scheduler: str | None = None,
        on_results: Any = None, make_player: PlayerMaker) -> list[DealResult]:
    """Play ``games`` games of ``players`` (``games // players`` deals from seeds
    ``seed, seed + 1, …``); the results in seed order, the same whatever the workers.
    ``models`` are A's and B's leave values (None: the shipped ones); ``make_player``
    builds the other players by kind (``ginnyo.players.players.make_player``, which a
    worker process must be able to import: a module's function)."""
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
    work = partial(play_deals, bots=bots, sim=sim, players=players, models=sent, make_player=make_player)
    for batch in run_batches(work, cut(seeds, workers, largest=20), workers=workers, scheduler=scheduler):
        if on_results is not None:
            on_results(batch)
        results.extend(batch)
    return sorted(results, key=lambda result: result.seed)


def _unplayed(model: LeaveModel | None) -> LeaveModel | None:
    """A copy of ``model`` with its values only, which pickles for a worker process."""
    return None if model is None else dataclasses.replace(model)


__all__ = ["SimSettings", "play_deal", "play_deals", "run", "seatings", "LEAVE_KINDS"]
