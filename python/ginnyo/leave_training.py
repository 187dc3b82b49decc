"""Training the leave values (:mod:`ginnyo.leaves`) by seeded self-play: ``ginnyo train-leaves``.

Explorer players (:class:`_Explorer`) play 2-player games; every decision's
stage, leave and future score difference is a sample, and :func:`fit` solves
ridge least squares a stage (docs/EQUITY.md).  Kept apart from the model so
that equity and simulation, which read the model, do not import the players
and the equity ranking this module plays with.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from .actions import Place, Return
from .equity import PLAY, rank_actions
from .game import Game, View, play_game
from .leaves import STAGES, TILES, LeaveModel, counts_of, features, stage_of
from .native import to_play
from .players import no_play_action
from .rules import play_rank_key

DEFAULT_TRAIN_GAMES = 20000
EXPLORE_PLAY = 0.3      # share of decisions that take a random play of the top few
EXPLORE_TOP = 6
EXPLORE_RETURN = 0.08   # share of decisions that return 1 to 3 random tiles instead
RIDGE = 1.0


Batch = tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int16], NDArray[np.float64]]
Params = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]


class _Explorer:
    """The self-play policy that makes training data: mostly the best action (by
    equity when a model is given, returns included; else the best-scoring play),
    sometimes a random one of the top few plays or a random return of 1 to 3
    tiles, so that many kinds of leave, and returns, are seen.  It records every
    decision's stage, leave and whether it was a return."""

    name = "explorer"

    def __init__(self, rng: random.Random, model: LeaveModel | None,
                 log: list[tuple[int, int, int, tuple[int, ...], bool]]) -> None:
        self.rng = rng
        self.model = model
        self.log = log   # (turn, player, stage, leave, returned)

    def choose(self, view: View) -> Any:
        rack = list(view.rack)
        stage = stage_of(view.box_size)
        action: Any
        if view.box_size and self.rng.random() < EXPLORE_RETURN:
            count = self.rng.randint(1, min(3, len(rack)))
            action = Return(tuple(sorted(self.rng.sample(rack, count))))
        elif self.model is not None:
            ranked = rank_actions(view.core(), rack, view.box_size, self.model)
            action = ranked[0].action()
            if self.rng.random() < EXPLORE_PLAY:
                top = [candidate for candidate in ranked if candidate.kind == PLAY][:EXPLORE_TOP]
                if top:
                    action = self.rng.choice(top).action()
        else:
            plays = view.core().legal_plays()
            if not plays:
                action = no_play_action(view)
            else:
                by_score = [placements for _, placements in sorted(plays, key=lambda play: play_rank_key(*play))]
                chosen = self.rng.choice(by_score[:EXPLORE_TOP]) if self.rng.random() < EXPLORE_PLAY else by_score[0]
                action = Place(to_play(chosen))
        kept = list(rack)
        if isinstance(action, Place):
            for tile in action.play.tiles_used:
                kept.remove(tile)
        elif isinstance(action, Return):
            for tile in action.tiles:
                kept.remove(tile)
        self.log.append((view.turn, view.player, stage, tuple(kept), isinstance(action, Return)))
        return action


def training_batch(seeds: Sequence[int], params: Params | None = None) -> Batch:
    """Play the explorer's 2-player games of ``seeds``: every decision's stage,
    whether it returned, the leave counts and the future score difference (the
    unit of work of a training run)."""
    model = LeaveModel(params[0], params[1]) if params is not None else None
    stages: list[int] = []
    returned: list[bool] = []
    leaves: list[NDArray[np.int16]] = []
    targets: list[float] = []
    for seed in seeds:
        log: list[tuple[int, int, int, tuple[int, ...], bool]] = []
        players = [_Explorer(random.Random(f"ginnyo leaves {seed} {seat}"), model, log) for seat in range(2)]
        game = play_game(Game.deal(2, seed), players)
        # running scores after each turn, to take the future part of the final scores
        running = [0, 0]
        after: list[tuple[int, int]] = []
        for turn in game.history:
            running[turn.player] += turn.score
            after.append((running[0], running[1]))
        final = game.scores
        for turn_number, player, stage, kept, was_return in log:
            now = after[turn_number - 1]
            mine = final[player] - now[player]
            theirs = final[1 - player] - now[1 - player]
            stages.append(stage)
            returned.append(was_return)
            leaves.append(counts_of(kept))
            targets.append(float(mine - theirs))
    return (np.array(stages, dtype=np.int8), np.array(returned, dtype=np.int8),
            np.array(leaves, dtype=np.int16).reshape(-1, TILES), np.array(targets))


def fit(stages: NDArray[np.int8], returned: NDArray[np.int8], leaves: NDArray[np.int16],
        targets: NDArray[np.float64], ridge: float = RIDGE) -> tuple[LeaveModel, list[int]]:
    """Ridge least squares, one fit a stage, of the target on the leave features,
    a return indicator and an intercept: the model and the samples a stage."""
    x_all = features(leaves)
    weights, returns, intercepts, samples = [], [], [], []
    for stage in range(len(STAGES)):
        mask = stages == stage
        count = int(mask.sum())
        x = np.hstack([x_all[mask], returned[mask, None].astype(np.float64), np.ones((count, 1))])
        penalty = ridge * np.eye(x.shape[1])
        penalty[-1, -1] = 0.0
        solution = np.linalg.solve(x.T @ x + penalty, x.T @ targets[mask]) if count else np.zeros(x.shape[1])
        weights.append(tuple(float(w) for w in solution[:-2]))
        returns.append(float(solution[-2]))
        intercepts.append(float(solution[-1]))
        samples.append(count)
    return LeaveModel(tuple(weights), tuple(returns), tuple(intercepts)), samples


def train(games: int, seed: int, *, rounds: int = 2, workers: int | None = None, scheduler: str | None = None,
          on_progress: Any = None) -> LeaveModel:
    """Fit the model from ``games`` seeded 2-player games a round: the first round
    explores around greedy play, each later one around the previous round's
    equity play.  Deterministic for a seed, whatever the workers."""
    from functools import partial

    from .workers import cut, default_workers, run_batches
    workers = workers or default_workers()
    model: LeaveModel | None = None
    samples: list[int] = []
    for round_index in range(rounds):
        first = seed + round_index * games
        parts = cut(range(first, first + games), workers)
        params = (model.weights, model.returns) if model is not None else None
        results: dict[int, Batch] = {}
        for index, batch in run_batches(partial(_indexed_batch, params=params), list(enumerate(parts)),
                                        workers=workers, scheduler=scheduler):
            results[index] = batch
            if on_progress is not None:
                on_progress(len(parts[index]))
        ordered = [results[index] for index in range(len(parts))]
        model, samples = fit(np.concatenate([part[0] for part in ordered]),
                             np.concatenate([part[1] for part in ordered]),
                             np.concatenate([part[2] for part in ordered]),
                             np.concatenate([part[3] for part in ordered]))
    assert model is not None
    return LeaveModel(model.weights, model.returns, model.intercepts,
                      {"games_per_round": games, "rounds": rounds, "seed": seed, "samples_last_round": samples})


def _indexed_batch(part: tuple[int, list[int]], params: Params | None) -> tuple[int, Batch]:
    return part[0], training_batch(part[1], params)


__all__ = ["train", "fit", "training_batch", "DEFAULT_TRAIN_GAMES"]
