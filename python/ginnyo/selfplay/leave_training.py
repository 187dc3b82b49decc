"""Training the leave values (:mod:`ginnyo.leaves`) by seeded self-play: ``ginnyo train-leaves``.

Explorer players (:class:`_Explorer`) play 2-, 3- and 4-player games (one set
for 2, two for 3 or 4, :func:`ginnyo.vocab.rules.sets_for`); every decision's stage,
game state, leave and future score difference (mine minus the others' mean) is
a sample, and :func:`fit` solves ridge least squares a stage (docs/EQUITY.md),
one model a player count.  Kept apart from the model so that equity and
simulation, which read the model, do not import the players and the equity
ranking this module plays with.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from ..game.actions import Place, Return
from ..equity.rank import PLAY, leave_state, rank_actions
from ..game.game import Game, View, play_game
from ..equity.leaves import PLAYER_COUNTS, STAGES, TILES, LeaveModel, counts_of, features, stage_of
from ..native import to_play
from ..players.players import no_play_action
from ..vocab.play import play_rank_key

DEFAULT_TRAIN_GAMES = 20000
EXPLORE_PLAY = 0.3      # share of decisions that take a random play of the top few
EXPLORE_TOP = 6
EXPLORE_RETURN = 0.08   # share of decisions that return 1 to 3 random tiles instead
RIDGE = 1.0
STATE_COLUMNS = 3       # a sample's state: no meld yet (0/1), the stall clock, the box's share


# stages, returned?, leave counts, states (STATE_COLUMNS a row), targets
Batch = tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int16], NDArray[np.float64], NDArray[np.float64]]
# one player count's weights, returns and state weights
Params = tuple[tuple[tuple[float, ...], ...], tuple[float, ...], tuple[tuple[float, ...], ...]]
Decision = tuple[int, int, int, tuple[int, ...], bool, tuple[float, float, float]]


class _Explorer:
    """The self-play policy that makes training data: mostly the best action (by
    equity when a model is given, returns included; else the best-scoring play),
    sometimes a random one of the top few plays or a random return of 1 to 3
    tiles, so that many kinds of leave, and returns, are seen.  It records every
    decision's stage, leave, whether it was a return and the game state."""

    name = "explorer"

    def __init__(self, rng: random.Random, model: LeaveModel | None,
                 log: list[Decision]) -> None:
        self.rng = rng
        self.model = model
        self.log = log   # (turn, player, stage, leave, returned, (unopened, clock, box share))

    def choose(self, view: View) -> Any:
        rack = list(view.rack)
        stage = stage_of(view.box_size)
        state = leave_state(view)
        action: Any
        if view.box_size and self.rng.random() < EXPLORE_RETURN:
            count = self.rng.randint(1, min(3, len(rack)))
            action = Return(tuple(sorted(self.rng.sample(rack, count))))
        elif self.model is not None:
            ranked = rank_actions(view.core(), rack, view.box_size, self.model, state=state)
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
        self.log.append((view.turn, view.player, stage, tuple(kept), isinstance(action, Return),
                         (0.0 if state.opened else 1.0, state.clock(), state.box_share(view.box_size))))
        return action


def training_batch(seeds: Sequence[int], params: Params | None = None, players: int = 2) -> Batch:
    """Play the explorer's ``players``-player games of ``seeds``: every decision's
    stage, whether it returned, the leave counts, the state and the future
    score difference, mine minus the others' mean (the unit of work of a
    training run)."""
    model = LeaveModel(params[0], params[1], state_weights=params[2]) if params is not None else None
    stages: list[int] = []
    returned: list[bool] = []
    leaves: list[NDArray[np.int16]] = []
    states: list[tuple[float, float, float]] = []
    targets: list[float] = []
    for seed in seeds:
        log: list[Decision] = []
        explorers = [_Explorer(random.Random(f"ginnyo leaves {players} {seed} {seat}"), model, log)
                     for seat in range(players)]
        game = play_game(Game.deal(players, seed), explorers)
        # running scores after each turn, to take the future part of the final scores
        running = [0] * players
        after: list[tuple[int, ...]] = []
        for turn in game.history:
            running[turn.player] += turn.score
            after.append(tuple(running))
        final = game.scores
        for turn_number, player, stage, kept, was_return, state in log:
            now = after[turn_number - 1]
            future = [final[seat] - now[seat] for seat in range(players)]
            others = (sum(future) - future[player]) / (players - 1)
            stages.append(stage)
            returned.append(was_return)
            leaves.append(counts_of(kept))
            states.append(state)
            targets.append(float(future[player] - others))
    return (np.array(stages, dtype=np.int8), np.array(returned, dtype=np.int8),
            np.array(leaves, dtype=np.int16).reshape(-1, TILES), np.array(states, dtype=np.float64).reshape(-1, 3),
            np.array(targets))


def design(leaves: NDArray[np.int16], returned: NDArray[np.int8], states: NDArray[np.float64]
           ) -> NDArray[np.float64]:
    """The regressors of the samples: the leave features (leaves.FEATURES), the
    state features (leaves.STATE_FEATURES), the return indicator and an intercept."""
    x = features(leaves)
    unopened, clock, share = states[:, 0], states[:, 1], states[:, 2]
    back = returned.astype(np.float64)
    return np.column_stack([x, x[:, 2] * clock, x[:, 0] * clock, x[:, 0] * unopened, x[:, 1] * unopened,
                            back * unopened, back * clock, back * share, back, np.ones(len(x))])


def fit(stages: NDArray[np.int8], returned: NDArray[np.int8], leaves: NDArray[np.int16],
        states: NDArray[np.float64], targets: NDArray[np.float64], ridge: float = RIDGE
        ) -> tuple[LeaveModel, list[int]]:
    """Ridge least squares, one fit a stage, of the target on :func:`design`'s
    regressors: the model and the samples a stage."""
    from ..equity.leaves import FEATURES, STATE_FEATURES
    x_all = design(leaves, returned, states)
    weights, state_weights, returns, intercepts, samples = [], [], [], [], []
    leave_end = len(FEATURES)
    state_end = leave_end + len(STATE_FEATURES)
    for stage in range(len(STAGES)):
        mask = stages == stage
        count = int(mask.sum())
        x = x_all[mask]
        penalty = ridge * np.eye(x.shape[1])
        penalty[-1, -1] = 0.0
        solution = np.linalg.solve(x.T @ x + penalty, x.T @ targets[mask]) if count else np.zeros(x.shape[1])
        weights.append(tuple(float(w) for w in solution[:leave_end]))
        state_weights.append(tuple(float(w) for w in solution[leave_end:state_end]))
        returns.append(float(solution[state_end]))
        intercepts.append(float(solution[-1]))
        samples.append(count)
    return LeaveModel(tuple(weights), tuple(returns), tuple(intercepts), state_weights=tuple(state_weights)), samples


def train(games: int, seed: int, *, rounds: int = 2, workers: int | None = None, scheduler: str | None = None,
          on_progress: Any = None, players: Sequence[int] = PLAYER_COUNTS) -> LeaveModel:
    """Fit a model for each player count of ``players`` from ``games`` seeded
    games a round: the first round explores around greedy play, each later one
    around the previous round's equity play.  The first count's model is the
    model, the others go to its ``others``.  Deterministic for a seed,
    whatever the workers."""
    models = {count: train_players(count, games, seed, rounds=rounds, workers=workers, scheduler=scheduler,
                                   on_progress=on_progress) for count in players}
    first = models[players[0]]
    others = {count: model for count, model in models.items() if count != players[0]}
    training: dict[str, Any] = {"games_per_round": games, "rounds": rounds, "seed": seed,
                                "players": list(players),
                                "samples_last_round": {str(count): model.training["samples_last_round"]
                                                       for count, model in models.items()}}
    return LeaveModel(first.weights, first.returns, first.intercepts, training, None, first.state_weights, others)


def train_players(players: int, games: int, seed: int, *, rounds: int = 2, workers: int | None = None,
                  scheduler: str | None = None, on_progress: Any = None) -> LeaveModel:
    """The model of one player count (see :func:`train`)."""
    from functools import partial

    from ..support.workers import cut, default_workers, run_batches
    workers = workers or default_workers()
    model: LeaveModel | None = None
    samples: list[int] = []
    for round_index in range(rounds):
        first = seed + round_index * games
        parts = cut(range(first, first + games), workers)
        params = (model.weights, model.returns, model.state_weights) if model is not None else None
        results: dict[int, Batch] = {}
        for index, batch in run_batches(partial(_indexed_batch, params=params, players=players),
                                        list(enumerate(parts)), workers=workers, scheduler=scheduler):
            results[index] = batch
            if on_progress is not None:
                on_progress(len(parts[index]))
        ordered = [results[index] for index in range(len(parts))]
        model, samples = fit(np.concatenate([part[0] for part in ordered]),
                             np.concatenate([part[1] for part in ordered]),
                             np.concatenate([part[2] for part in ordered]),
                             np.concatenate([part[3] for part in ordered]),
                             np.concatenate([part[4] for part in ordered]))
    assert model is not None
    return LeaveModel(model.weights, model.returns, model.intercepts, {"samples_last_round": samples},
                      state_weights=model.state_weights)


def _indexed_batch(part: tuple[int, list[int]], params: Params | None, players: int) -> tuple[int, Batch]:
    return part[0], training_batch(part[1], params, players)


__all__ = ["train", "train_players", "fit", "design", "training_batch", "DEFAULT_TRAIN_GAMES"]
