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
``ginnyo train-leaves`` regenerates it (:mod:`ginnyo.leave_training`, :mod:`ginnyo.commands.train_leaves`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from . import strict_json
from .errors import LeaveFileError
from .files import LEAVES_BYTES, PATH_CHARS, quote, read_bounded
from .tiles import JOKER, rack_penalty

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


__all__ = ["FEATURES", "STAGES", "STAGE_NAMES", "LeaveModel", "LeaveFileError", "load", "default_model",
           "features", "counts_of", "stage_of", "from_json", "DATA_FILE", "TILES"]
