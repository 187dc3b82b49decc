"""Win probability: the chance that the player who has just moved wins, learnt from self-play (docs/INFERENCE.md).

The position just after a turn is described by the mover's lead over each
other player (in points), how many tiles the box holds, whether a meld is down
and the mover's rack size.  For each player count (2 to 4) and each band of
box sizes (:data:`BOX_BANDS`) a logistic model maps these to the probability
of winning (a tie on top shares the win):

    logit p = w0 + w1 * mean lead / 10 + w2 * least lead / 10 + w3 * meld down + w4 * (rack - 7) / 7

(with 2 players the mean and the least lead are the one lead, so w2 is
fitted as 0).  The baseline it is judged against, ``spread only``, is the
same model with one band and the leads alone.  The weights are fitted by
Newton's method (iteratively reweighted least squares, a small ridge) in
numpy on positions of the compiled self-play (:func:`ginnycore.selfplay.snapshot_games`:
a few random turns of each game), the first :data:`TRAIN_SHARE` of the games
for fitting, the rest for the Brier score and the reliability plot.  The
shipped file (``data/winprob-v1.json``) is rebuilt by ``ginnyo train-winprob``
with the settings it records.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

if TYPE_CHECKING:
    from ..position.position import Position

FORMAT_VERSION = 1
KIND = "ginnyo win probability"
DATA_FILE = Path(__file__).resolve().parents[1] / "data" / f"winprob-v{FORMAT_VERSION}.json"
PLAYER_COUNTS = (2, 3, 4)
#: Box sizes (inclusive) of a band: each band has its own weights.
BOX_BANDS = ((0, 0), (1, 3), (4, 7), (8, 13), (14, 21), (22, 31), (32, 10**6))
FEATURES = ("bias", "mean lead / 10", "least lead / 10", "meld down", "(rack - 7) / 7")
BASELINE_FEATURES = 3           # the spread-only model: bias and the two leads
LEAD_SCALE = 10.0
RIDGE = 1e-3
NEWTON_STEPS = 25
TRAIN_SHARE = 0.8
DEFAULT_GAMES = 40000           # a player count
DEFAULT_PER_GAME = 8            # positions a game
DEFAULT_SEED = 29
CALIBRATION_BINS = 10
#: Player kind ``sim-wp`` ranks by win probability with at most this many tiles in the box.
SIM_CHANCE_BOX = 20


def band_of(box_size: int) -> int:
    """The band of :data:`BOX_BANDS` holding ``box_size``."""
    for band, (low, high) in enumerate(BOX_BANDS):
        if low <= box_size <= high:
            return band
    return len(BOX_BANDS) - 1


def features(leads: np.ndarray, box: np.ndarray, opened: np.ndarray, rack: np.ndarray) -> np.ndarray:
    """The model's features, a row a position (``leads`` a row of the leads over each other player)."""
    leads = np.asarray(leads, dtype=np.float64).reshape(len(box), -1)
    return np.column_stack([np.ones(len(box)), leads.mean(axis=1) / LEAD_SCALE, leads.min(axis=1) / LEAD_SCALE,
                            np.asarray(opened, dtype=np.float64), (np.asarray(rack, dtype=np.float64) - 7) / 7])


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40, 40))))


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Logistic weights of ``y`` (shares, 0 to 1) on ``x``, by Newton's method with a
    ridge on every weight but the first; zeros for an empty ``x``."""
    weights = np.zeros(x.shape[1])
    if not len(x):
        return weights
    penalty = np.full(x.shape[1], ridge * len(x))
    penalty[0] = 0.0
    for _ in range(NEWTON_STEPS):
        p = _sigmoid(x @ weights)
        gradient = x.T @ (y - p) - penalty * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if np.abs(step).max() < 1e-10:
            break
    return weights


@dataclass(frozen=True)
class WinModel:
    """The weights of every player count and band, and of the spread-only baseline."""

    weights: dict[int, tuple[tuple[float, ...], ...]]     # players -> a row of FEATURES a band
    baseline: dict[int, tuple[float, ...]]                # players -> BASELINE_FEATURES weights
    training: dict[str, Any]

    def probability(self, players: int, leads: Sequence[float], box_size: int, opened: bool = True,
                    rack: int = 7) -> float:
        """The chance that the player who just moved, ``leads`` ahead of each other
        player in turn order, wins."""
        row = features(np.array([leads], dtype=np.float64), np.array([box_size]), np.array([opened]),
                       np.array([rack]))[0]
        weights = np.array(self.weights[_players(players)][band_of(box_size)])
        return float(_sigmoid(row @ weights))

    def probabilities(self, players: int, leads: np.ndarray, box: np.ndarray, opened: np.ndarray,
                      rack: np.ndarray) -> np.ndarray:
        """:meth:`probability` of many positions of one player count."""
        x = features(leads, box, opened, rack)
        table = np.array(self.weights[_players(players)])
        bands = np.array([band_of(int(size)) for size in np.asarray(box)], dtype=np.int64)
        return _sigmoid(np.einsum("ij,ij->i", x, table[bands]))

    def baseline_probabilities(self, players: int, leads: np.ndarray) -> np.ndarray:
        """The spread-only baseline's chances."""
        count = len(leads)
        x = features(leads, np.zeros(count), np.ones(count), np.full(count, 7))[:, :BASELINE_FEATURES]
        return _sigmoid(x @ np.array(self.baseline[_players(players)]))

    def to_json(self) -> dict[str, Any]:
        return {"kind": KIND, "version": FORMAT_VERSION, "features": list(FEATURES),
                "box_bands": [list(band) for band in BOX_BANDS], "lead_scale": LEAD_SCALE,
                "weights": {str(players): [[round(w, 6) for w in row] for row in rows]
                            for players, rows in self.weights.items()},
                "baseline": {str(players): [round(w, 6) for w in row] for players, row in self.baseline.items()},
                "training": self.training}


def _players(players: int) -> int:
    return min(max(players, PLAYER_COUNTS[0]), PLAYER_COUNTS[-1])


def from_json(data: Any, where: str = "win-probability file") -> WinModel:
    """A model from its JSON; ValueError naming what is wrong."""
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("version") != FORMAT_VERSION:
        raise ValueError(f"{where}: not a {KIND} file of version {FORMAT_VERSION}")
    if data.get("box_bands") != [list(band) for band in BOX_BANDS] or data.get("features") != list(FEATURES):
        raise ValueError(f"{where}: its bands or features are not this version's")
    try:
        weights = {int(key): tuple(tuple(float(w) for w in row) for row in rows)
                   for key, rows in data["weights"].items()}
        baseline = {int(key): tuple(float(w) for w in row) for key, row in data["baseline"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ValueError(f"{where}: weights and baseline must be tables of numbers") from None
    for players in PLAYER_COUNTS:
        rows = weights.get(players)
        if rows is None or len(rows) != len(BOX_BANDS) or any(len(row) != len(FEATURES) for row in rows) \
                or len(baseline.get(players, ())) != BASELINE_FEATURES:
            raise ValueError(f"{where}: {players} players need {len(BOX_BANDS)} rows of {len(FEATURES)} weights")
        if not all(math.isfinite(w) for row in rows for w in row):
            raise ValueError(f"{where}: a weight is not a finite number")
    return WinModel(weights, baseline, dict(data.get("training", {})))


@lru_cache(maxsize=1)
def default_model() -> WinModel:
    """The shipped model, read once a process."""
    return from_json(json.loads(DATA_FILE.read_text()), str(DATA_FILE))


# -- the data and the fit ------------------------------------------------------------------------

@dataclass(frozen=True)
class Positions:
    """Snapshot rows of self-play of one player count (:func:`ginnycore.selfplay.snapshot_games`)."""

    players: int
    game: np.ndarray
    leads: np.ndarray
    box: np.ndarray
    opened: np.ndarray
    rack: np.ndarray
    wins: np.ndarray

    def part(self, mask: np.ndarray) -> Positions:
        return Positions(self.players, self.game[mask], self.leads[mask], self.box[mask], self.opened[mask],
                         self.rack[mask], self.wins[mask])


def self_play_positions(players: int, games: int, seed: int, per_game: int = DEFAULT_PER_GAME,
                        threads: int = 1) -> Positions:
    """``per_game`` positions of each of ``games`` equity games (the shipped leave values)."""
    from ..native.selfplay import snapshot_games

    from ..equity.rank import compiled_model
    from ..vocab.layout import Layout
    from ..equity.leaves import default_model as default_leaves
    from ..native import empty_core
    rows = np.zeros((games * per_game, 9), dtype=np.int32)
    wins = np.zeros(games * per_game)
    snapshot_games(empty_core(Layout.standard()), games, players, seed, compiled_model(default_leaves()), per_game,
                   rows, wins, 3, threads)
    used = rows[:, 0] >= 0
    rows, wins = rows[used], wins[used]
    return Positions(players, rows[:, 0], rows[:, 2:2 + players - 1].astype(np.float64), rows[:, 5],
                     rows[:, 6], rows[:, 8], wins)


def fit(positions: Positions) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """The band weights and the baseline weights of one player count."""
    x = features(positions.leads, positions.box, positions.opened, positions.rack)
    if positions.players == 2:
        x[:, 2] = 0.0          # the least lead is the lead: one weight for it
    bands = np.array([band_of(int(size)) for size in positions.box])
    rows = []
    for band in range(len(BOX_BANDS)):
        chosen = bands == band
        rows.append(tuple(float(w) for w in fit_logistic(x[chosen], positions.wins[chosen])))
    baseline = fit_logistic(x[:, :BASELINE_FEATURES], positions.wins)
    return tuple(rows), tuple(float(w) for w in baseline)


def brier(predicted: np.ndarray, wins: np.ndarray) -> float:
    return float(np.mean((predicted - wins) ** 2)) if len(wins) else math.nan


def calibration(predicted: np.ndarray, wins: np.ndarray,
                bins: int = CALIBRATION_BINS) -> list[tuple[float, float, int]]:
    """``(mean predicted, mean won, count)`` of each non-empty tenth of the predictions."""
    edges = np.minimum((predicted * bins).astype(np.int64), bins - 1)
    out = []
    for b in range(bins):
        chosen = edges == b
        if chosen.any():
            out.append((float(predicted[chosen].mean()), float(wins[chosen].mean()), int(chosen.sum())))
    return out


@dataclass(frozen=True)
class Training:
    """A trained model with its held-out measures, a player count each."""

    model: WinModel
    brier: dict[int, dict[str, float]]
    curves: dict[int, list[tuple[float, float, int]]]


def train(games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED, per_game: int = DEFAULT_PER_GAME,
          threads: int = 1, player_counts: Sequence[int] = PLAYER_COUNTS) -> Training:
    """Fit every player count on self-play and measure it on the held-out games."""
    weights, baseline, scores, curves = {}, {}, {}, {}
    for players in player_counts:
        positions = self_play_positions(players, games, seed + 1000003 * players, per_game, threads)
        train_mask = positions.game < int(games * TRAIN_SHARE)
        fitted, base = fit(positions.part(train_mask))
        weights[players], baseline[players] = fitted, base
        model = WinModel({players: fitted}, {players: base}, {})
        test = positions.part(~train_mask)
        predicted = model.probabilities(players, test.leads, test.box, test.opened, test.rack)
        scores[players] = {"model": round(brier(predicted, test.wins), 5),
                           "spread_only": round(brier(model.baseline_probabilities(players, test.leads), test.wins), 5),
                           "test_positions": int(len(test.wins))}
        curves[players] = calibration(predicted, test.wins)
    training = {"games": games, "seed": seed, "per_game": per_game, "train_share": TRAIN_SHARE,
                "players": list(player_counts), "brier": {str(k): v for k, v in scores.items()},
                "command": f"ginnyo train-winprob --games {games} --seed {seed} --per-game {per_game}"}
    return Training(WinModel(weights, baseline, training), scores, curves)


def calibration_svg(training: Training) -> str:
    """A reliability plot: the share won against the predicted chance, a line a player count."""
    from xml.sax.saxutils import escape as svg_escape
    colours = ("#1f6fb4", "#d9622b", "#2c9c4a")
    width, height, left, right, top, bottom = 560, 520, 70, 170, 50, 60
    size = min(width - left - right, height - top - bottom)

    def x_of(p: float) -> float:
        return left + size * p

    def y_of(p: float) -> float:
        return top + size * (1 - p)

    games = training.model.training.get("games")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left + size // 2}" y="24" text-anchor="middle" font-size="15">win probability: '
             f'reliability on held-out games ({svg_escape(str(games))} a player count)</text>',
             f'<rect x="{left}" y="{top}" width="{size}" height="{size}" fill="none" stroke="black"/>',
             f'<line x1="{x_of(0)}" y1="{y_of(0)}" x2="{x_of(1)}" y2="{y_of(1)}" stroke="gray" '
             f'stroke-dasharray="5,3"/>',
             f'<text x="{left + size // 2}" y="{top + size + 40}" text-anchor="middle">predicted chance of '
             f'winning</text>',
             f'<text x="18" y="{top + size // 2}" text-anchor="middle" '
             f'transform="rotate(-90 18 {top + size // 2})">share of games won</text>']
    for tick in range(0, 11, 2):
        p = tick / 10
        parts.append(f'<text x="{x_of(p):.1f}" y="{top + size + 18}" text-anchor="middle">{10 * tick}%</text>')
        parts.append(f'<text x="{left - 6}" y="{y_of(p) + 4:.1f}" text-anchor="end">{10 * tick}%</text>')
    for number, (players, curve) in enumerate(sorted(training.curves.items())):
        colour = colours[number % len(colours)]
        points = " ".join(f"{x_of(p):.1f},{y_of(won):.1f}" for p, won, _ in curve)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for p, won, _ in curve:
            parts.append(f'<circle cx="{x_of(p):.1f}" cy="{y_of(won):.1f}" r="3.5" fill="{colour}"/>')
        score = training.brier[players]
        y = top + 16 + 54 * number
        parts.append(f'<text x="{left + size + 14}" y="{y}" fill="{colour}">{players} players</text>')
        parts.append(f'<text x="{left + size + 14}" y="{y + 16}" font-size="11">Brier {score["model"]:.4f}</text>')
        parts.append(f'<text x="{left + size + 14}" y="{y + 31}" font-size="11">spread only '
                     f'{score["spread_only"]:.4f}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def outcome_chances(model: WinModel, players: int, leads: Sequence[float], box_size: int, plies: int
                    ) -> Callable[[np.ndarray], np.ndarray]:
    """The simulation's ``chance``: a block of rollout outcomes (our points less
    the opponents' mean, leaves valued) to win probabilities, the outcome added
    to our lead over every rival alike, the box taken to have lost a tile a
    turn (``plies`` + 1 turns), a meld down and a full rack."""
    box_after = max(box_size - (plies + 1), 0)
    base = np.asarray(leads, dtype=np.float64)

    def chances(block: np.ndarray) -> np.ndarray:
        flat = block.reshape(-1)
        count = len(flat)
        table = base[None, :] + flat[:, None]
        return model.probabilities(players, table, np.full(count, box_after), np.ones(count),
                                   np.full(count, 7)).reshape(block.shape)
    return chances


def win_chances(position: Position, plies: int) -> Callable[[np.ndarray], np.ndarray]:
    """What turns a block of rollouts' outcomes into the mover's win probabilities, for ``position``'s
    scores and box after ``plies`` (``best-move --sim`` prints their mean; so does the analysis board)."""
    context = position.game_context
    return outcome_chances(default_model(), context.players, leads_of(context.scores, context.to_move),
                           context.box_size, plies)


def leads_of(scores: Sequence[int], seat: int) -> list[float]:
    """``seat``'s lead over each other player in turn order after it."""
    players = len(scores)
    return [float(scores[seat] - scores[(seat + k) % players]) for k in range(1, players)]


__all__ = ["WinModel", "Training", "Positions", "default_model", "from_json", "train", "fit", "fit_logistic",
           "features", "band_of", "brier", "calibration", "calibration_svg", "self_play_positions", "BOX_BANDS",
           "FEATURES", "PLAYER_COUNTS", "DATA_FILE", "outcome_chances", "win_chances", "leads_of"]
