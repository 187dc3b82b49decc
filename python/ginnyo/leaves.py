"""Leave values: what the tiles kept on the rack after a turn are worth, learned from self-play.

A *leave* is the multiset of tiles a player keeps after playing or returning
(before drawing back up to 7).  Its value is a small linear model over leave
features (:data:`FEATURES`), one weight vector per stage of the game (the size
of the box at the decision, :data:`STAGES`), fitted by least squares to the
future score difference (my points from now to the end minus the opponent's)
in seeded self-play; the intercept is left out, so keeping nothing is worth 0.

The weights ship as a versioned data file, ``ginnyo/data/leaves-v1.json``;
:func:`load` reads it (or another file) and raises :class:`LeaveFileError`,
one line, when it is missing, corrupt or of another version.
``ginnyo train-leaves`` regenerates it (:func:`train`, :func:`cmd_train_leaves`).
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from numpy.typing import NDArray

from . import strict_json
from .errors import GinnyoError
from .files import LEAVES_BYTES, PATH_CHARS, quote, read_bounded
from .tiles import JOKER, rack_penalty

if TYPE_CHECKING:
    import argparse

    from .game import View

FORMAT_NAME = "ginnyo-leaves"
FORMAT_VERSION = 1
DATA_FILE = Path(__file__).resolve().parent / "data" / f"leaves-v{FORMAT_VERSION}.json"
TILES = JOKER + 1
RANKS_PER_SUIT = 13

#: The leave features, in the order of the weights.
FEATURES = (
    "tiles",            # tiles kept, jokers included
    "jokers",           # jokers kept
    "penalty",          # what the real tiles kept would cost left on the rack at the end
    "aces",             # aces kept (15 in a set, 1 in a run, -15 at the end)
    "high",             # tens and court cards kept
    "pairs",            # ranks held at least twice (a set open)
    "trips",            # ranks held at least three times (a set ready)
    "connected",        # same-suit neighbours (a run open), K-A included
    "gapped",           # same-suit cards two ranks apart (a run with a hole)
    "runs",             # three same-suit cards in sequence (a run ready)
    "duplicates",       # the same card twice (two sets only)
)
#: Stages by the size of the box at the decision: (lowest, highest) inclusive.
STAGES = ((0, 0), (1, 8), (9, 20), (21, 200))
STAGE_NAMES = ("box empty", "box 1-8", "box 9-20", "box 21+")


class LeaveFileError(GinnyoError):
    """The leave file is missing, corrupt or of a version this ginnyo does not read."""


def stage_of(box_size: int) -> int:
    """The stage index (into :data:`STAGES`) of a decision with ``box_size`` tiles in the box."""
    for index, (low, high) in enumerate(STAGES):
        if low <= box_size <= high:
            return index
    return len(STAGES) - 1


def features(counts: NDArray[np.integer[Any]]) -> NDArray[np.float64]:
    """The :data:`FEATURES` of many leaves at once: ``counts`` is (n, 53) tile
    counts (cards 0..51, then jokers), the result (n, len(FEATURES))."""
    counts = np.asarray(counts, dtype=np.int16).reshape(-1, TILES)
    cards = counts[:, :52].reshape(-1, 4, RANKS_PER_SUIT)
    held = cards > 0
    # ace high: the ace also sits above the king, so that K-A and Q-A count
    high_ace = np.concatenate([held, held[:, :, :1]], axis=2)
    by_rank = cards.sum(axis=1)
    out = np.empty((counts.shape[0], len(FEATURES)))
    out[:, 0] = counts.sum(axis=1)
    out[:, 1] = counts[:, JOKER]
    out[:, 2] = (by_rank * _PENALTY).sum(axis=1)
    out[:, 3] = by_rank[:, 0]
    out[:, 4] = by_rank[:, 9:].sum(axis=1)
    out[:, 5] = (by_rank >= 2).sum(axis=1)
    out[:, 6] = (by_rank >= 3).sum(axis=1)
    out[:, 7] = (high_ace[:, :, :-1] & high_ace[:, :, 1:]).sum(axis=(1, 2))
    out[:, 8] = (high_ace[:, :, :-2] & high_ace[:, :, 2:]).sum(axis=(1, 2))
    out[:, 9] = (high_ace[:, :, :-2] & high_ace[:, :, 1:-1] & high_ace[:, :, 2:]).sum(axis=(1, 2))
    out[:, 10] = np.maximum(cards - 1, 0).sum(axis=(1, 2))
    return out


PENALTY = tuple(rack_penalty(rank) for rank in range(RANKS_PER_SUIT))   # a real tile's end cost, by rank index
_PENALTY = np.array(PENALTY)


def counts_of(tiles: Sequence[int]) -> NDArray[np.int16]:
    """The (53,) count vector of a multiset of rack tiles."""
    counts = np.zeros(TILES, dtype=np.int16)
    for tile in tiles:
        counts[tile] += 1
    return counts


@dataclass(frozen=True)
class LeaveModel:
    """Weights (one row a stage, one column a feature) and how they were made."""

    weights: tuple[tuple[float, ...], ...]
    returns: tuple[float, ...] = ()      # a stage's value of returning rather than playing (the lost turn)
    intercepts: tuple[float, ...] = ()
    training: dict[str, Any] = field(default_factory=dict, compare=False)
    path: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_matrix", np.array(self.weights, dtype=np.float64))

    @property
    def matrix(self) -> NDArray[np.float64]:
        matrix: NDArray[np.float64] = self.__dict__["_matrix"]
        return matrix

    def values(self, counts: NDArray[np.integer[Any]], box_size: int) -> NDArray[np.float64]:
        """The value of each leave, (n, 53) counts in, (n,) values out."""
        result: NDArray[np.float64] = features(counts) @ self.matrix[stage_of(box_size)]
        return result

    def value(self, tiles: Sequence[int], box_size: int) -> float:
        """The value of one leave given as rack tiles."""
        return float(self.values(counts_of(tiles)[None, :], box_size)[0])

    def return_value(self, box_size: int) -> float:
        """What returning tiles (rather than playing) adds to the equity of what it keeps."""
        return self.returns[stage_of(box_size)] if self.returns else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "features": list(FEATURES),
            "stages": [{"name": name, "box_min": low, "box_max": high}
                       for name, (low, high) in zip(STAGE_NAMES, STAGES)],
            "weights": [[round(w, 4) for w in row] for row in self.weights],
            "returns": [round(r, 4) for r in self.returns],
            "intercepts": [round(b, 4) for b in self.intercepts],
            "training": self.training,
        }


def load(path: str | Path | None = None) -> LeaveModel:
    """The leave model of ``path`` (default: the file shipped with the package).
    Raises :class:`LeaveFileError`, one line naming the file and the field."""
    if path is None:
        return default_model()
    return _load(Path(path))


@lru_cache(maxsize=1)
def default_model() -> LeaveModel:
    """The shipped model, read once a process."""
    return _load(DATA_FILE)


def _load(path: Path) -> LeaveModel:
    """Read a leave file of at most :data:`files.LEAVES_BYTES` as strict JSON."""
    where = f"leave file {quote(str(path), PATH_CHARS)}"
    try:
        data = read_bounded(path, LEAVES_BYTES, what="leave file", error=LeaveFileError)
    except LeaveFileError as error:
        raise LeaveFileError(f"leave file {error}") from None
    return from_json(strict_json.loads(data, LeaveFileError, f"{where}: "), where)


def from_json(data: object, where: str = "leave file") -> LeaveModel:
    """A model from the decoded JSON of a leave file (see :meth:`LeaveModel.to_json`)."""
    if not isinstance(data, dict):
        raise LeaveFileError(f"{where}: must be a JSON object")
    if data.get("format") != FORMAT_NAME:
        raise LeaveFileError(f"{where}: field 'format': expected {FORMAT_NAME!r}, not {quote(data.get('format'))}")
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise LeaveFileError(f"{where}: field 'version': version {quote(version)}, "
                             f"this ginnyo reads version {FORMAT_VERSION}")
    if data.get("features") != list(FEATURES):
        raise LeaveFileError(f"{where}: field 'features': expected {', '.join(FEATURES)}")
    stages = data.get("stages")
    if not isinstance(stages, list) or len(stages) != len(STAGES) or not all(
            isinstance(s, dict) and (s.get("box_min"), s.get("box_max")) == stage
            for s, stage in zip(stages, STAGES)):
        raise LeaveFileError(f"{where}: field 'stages': expected the box ranges {list(STAGES)}")
    weights = data.get("weights")
    if (not isinstance(weights, list) or len(weights) != len(STAGES)
            or not all(isinstance(row, list) and len(row) == len(FEATURES) and all(_is_number(w) for w in row)
                       for row in weights)):
        raise LeaveFileError(f"{where}: field 'weights': must be {len(STAGES)} lists of "
                             f"{len(FEATURES)} finite numbers")
    returns = data.get("returns")
    if not isinstance(returns, list) or len(returns) != len(STAGES) or not all(_is_number(r) for r in returns):
        raise LeaveFileError(f"{where}: field 'returns': must be a list of {len(STAGES)} finite numbers")
    intercepts = data.get("intercepts", [])
    if not isinstance(intercepts, list) or not all(_is_number(b) for b in intercepts):
        raise LeaveFileError(f"{where}: field 'intercepts': must be a list of numbers")
    training = data.get("training", {})
    if not isinstance(training, dict):
        raise LeaveFileError(f"{where}: field 'training': must be an object")
    return LeaveModel(tuple(tuple(float(w) for w in row) for row in weights), tuple(float(r) for r in returns),
                      tuple(float(b) for b in intercepts), training, where)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


# -- training ---------------------------------------------------------------------------------

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
        from .actions import Place, Return
        from .native import to_play
        from .players import no_play_action
        rack = list(view.rack)
        stage = stage_of(view.box_size)
        action: Any
        if view.box_size and self.rng.random() < EXPLORE_RETURN:
            count = self.rng.randint(1, min(3, len(rack)))
            action = Return(tuple(sorted(self.rng.sample(rack, count))))
        elif self.model is not None:
            from .equity import PLAY, rank_actions
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
                by_score = [placements for _, placements in sorted(plays, key=_score_key)]
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


def _score_key(play: tuple[int, tuple[tuple[int, int, bool], ...]]) -> tuple[int, int, int, Any]:
    score, placements = play
    return (-score, sum(1 for p in placements if p[2]), -len(placements), placements)


def training_batch(seeds: Sequence[int], params: Params | None = None) -> Batch:
    """Play the explorer's 2-player games of ``seeds``: every decision's stage,
    whether it returned, the leave counts and the future score difference (the
    unit of work of a training run)."""
    from .game import Game, play_game
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


def cmd_train_leaves(args: argparse.Namespace) -> int:
    """``ginnyo train-leaves``: fit the leave model from seeded self-play and write the file."""
    from . import __version__
    from .files import check_new, write_new
    from .game import RULES_VERSION
    from .progress import progress_bar
    out = Path(args.out)
    if out.is_dir():
        raise GinnyoError(f"--out {str(out)!r}: is a directory (give a file name)")
    check_new(out, force=args.force, option="--out")   # before the games, not after
    start = time.perf_counter()
    bar = progress_bar(args.games * args.rounds)
    try:
        model = train(args.games, args.seed, rounds=args.rounds, workers=args.workers, scheduler=args.scheduler,
                      on_progress=bar.update)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    training = dict(model.training)
    training.update({"command": f"ginnyo train-leaves --games {args.games} --rounds {args.rounds} "
                                f"--seed {args.seed} --out {args.out}",
                     "target": "future score difference (mine minus the opponent's, rack penalties included) "
                               "after the decision, in 2-player self-play",
                     "rules": RULES_VERSION,   # the game-end rule of the self-play (game.RULES_VERSION)
                     "ginnyo": __version__, "seconds": round(seconds, 1)})
    model = LeaveModel(model.weights, model.returns, model.intercepts, training)
    text = json.dumps(model.to_json(), indent=1) + "\n"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GinnyoError(f"--out {str(out)!r}: cannot write ({error.strerror or error})") from None
    write_new(out, text, force=args.force, option="--out")
    print(f"wrote {out}: {args.games} games x {args.rounds} rounds in {seconds:.1f} s")
    for name, row, returns in zip(STAGE_NAMES, model.weights, model.returns):
        print(f"  {name:<10} " + " ".join(f"{feature}={weight:+.2f}" for feature, weight in zip(FEATURES, row))
              + f" return={returns:+.2f}")
    return 0


__all__ = ["FEATURES", "STAGES", "LeaveModel", "LeaveFileError", "load", "default_model", "features",
           "counts_of", "stage_of", "train", "fit", "training_batch", "cmd_train_leaves", "DATA_FILE"]
