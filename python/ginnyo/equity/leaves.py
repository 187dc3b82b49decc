"""Leave values: what the tiles kept on the rack after a turn are worth, learned from self-play.

A *leave* is the multiset of tiles a player keeps after playing or returning
(before drawing back up to 7).  Its value is a small linear model over leave
features (:data:`FEATURES`), one weight vector per stage of the game (the size
of the box at the decision, :data:`STAGES`) and per player count (2, 3 or 4),
fitted by least squares to the future score difference (my points from now to
the end minus the others' mean) in seeded self-play; the intercept is left
out, so keeping nothing is worth 0.  The game state beyond the box
(:class:`LeaveState`: no meld yet, the stall clock, the box's share of its size
after the deal) enters through :data:`STATE_FEATURES`, products of a state and
a leave feature or the return indicator, folded into one decision's weights
(:meth:`LeaveModel.row`).

The weights ship as a versioned data file, ``ginnyo/data/leaves-v2.json``
(version 1 files, without the state and one model for every player count,
still load); :func:`load` reads it (or another file) and raises
:class:`LeaveFileError`, one line, when it is missing, corrupt or of another
version.
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

from ..support import strict_json
from ..errors import LeaveFileError
from ..support.files import LEAVES_BYTES, PATH_CHARS, quote, read_bounded
from ..vocab.rules import JOKERS_PER_SET, MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, sets_for
from ..vocab.tiles import JOKER, NUM_CARDS, rack_penalty

FORMAT_NAME = "ginnyo-leaves"
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)      # the versions load reads (1: no state, one model for every player count)
DATA_FILE = Path(__file__).resolve().parents[1] / "data" / f"leaves-v{FORMAT_VERSION}.json"
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
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
#: The state features, in the order of the state weights: what the game state
#: adds to the weight of a leave feature (the first four) or to the return term.
STATE_FEATURES = (
    "penalty_clock",    # penalty x the stall clock (quiet turns / the turns that end the game)
    "tiles_clock",      # tiles x the stall clock
    "tiles_unopened",   # tiles x no meld on the board yet
    "jokers_unopened",  # jokers x no meld on the board yet
    "return_unopened",  # a return x no meld on the board yet
    "return_clock",     # a return x the stall clock
    "return_box",       # a return x the box's share of its size after the deal
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


@dataclass(frozen=True)
class LeaveState:
    """What the leave model sees of the game besides the box and the rack: the
    player count, whether a meld is on the board and the stall clock
    (``quiet_turns`` in a row without a play; ``quiet_limit`` end the game, see
    :func:`ginnyo.vocab.rules.quiet_turn_limit`; 0: no clock).  The default is what
    version 1 assumed: 2 players, a meld down, the clock at 0."""

    players: int = 2
    opened: bool = True
    quiet_turns: int = 0
    quiet_limit: int = 0

    def model_index(self) -> int:
        """The player count's model, 0 for 2 players (counts outside 2-4 clamped)."""
        return min(max(self.players, MIN_PLAYERS), MAX_PLAYERS) - MIN_PLAYERS

    def clock(self) -> float:
        """The stall clock's share run, 0 to 1."""
        if self.quiet_limit <= 0 or self.quiet_turns <= 0:
            return 0.0
        return min(self.quiet_turns, self.quiet_limit) / self.quiet_limit

    def box_share(self, box_size: int) -> float:
        """The box's share of its size after the deal, 0 to 1."""
        players = MIN_PLAYERS + self.model_index()
        full = sets_for(players) * (NUM_CARDS + JOKERS_PER_SET) - RACK_SIZE * players
        return min(max(box_size, 0), full) / full

    def as_tuple(self) -> tuple[int, bool, int, int]:
        """``(players, opened, quiet_turns, quiet_limit)``, as ginnycore.equity takes it."""
        return self.players, self.opened, self.quiet_turns, self.quiet_limit


DEFAULT_STATE = LeaveState()


def counts_of(tiles: Sequence[int]) -> NDArray[np.int16]:
    """The (53,) count vector of a multiset of rack tiles."""
    counts = np.zeros(TILES, dtype=np.int16)
    for tile in tiles:
        counts[tile] += 1
    return counts


@dataclass(frozen=True)
class LeaveModel:
    """Weights (one row a stage, one column a feature), the return term a stage,
    the state weights (one row a stage, one column a :data:`STATE_FEATURES`;
    empty: zeros) and how they were made, for 2 players; ``others`` maps 3 and
    4 players to their own model (a count not there uses this one)."""

    weights: tuple[tuple[float, ...], ...]
    returns: tuple[float, ...] = ()      # a stage's value of returning rather than playing (the lost turn)
    intercepts: tuple[float, ...] = ()
    training: dict[str, Any] = field(default_factory=dict, compare=False)
    path: str | None = field(default=None, compare=False)
    state_weights: tuple[tuple[float, ...], ...] = ()
    others: dict[int, LeaveModel] = field(default_factory=dict)
    open_first: bool = False    # while no meld is down, a player with a play plays (version 2 files: true)

    def __post_init__(self) -> None:
        if not self.returns:
            object.__setattr__(self, "returns", (0.0,) * len(self.weights))
        if not self.state_weights:      # no state: zeros, the values of version 1
            object.__setattr__(self, "state_weights", tuple((0.0,) * len(STATE_FEATURES) for _ in self.weights))
        object.__setattr__(self, "_matrix", np.array(self.weights, dtype=np.float64))

    def __getstate__(self) -> dict[str, object]:
        """What pickles: the fields, not the compiled model that
        :func:`ginnyo.equity.rank.compiled_model` keeps on it (a simulation's
        setup goes to Dask workers while a worker of this process compiles it)."""
        state = dict(self.__dict__)
        state.pop("_compiled", None)
        return state

    def __hash__(self) -> int:
        """A hash of what the values depend on (a simulation's setup, which holds
        the model, is a cache key)."""
        return hash((self.weights, self.returns, self.state_weights, self.open_first,
                     tuple(sorted(self.others.items()))))

    @property
    def matrix(self) -> NDArray[np.float64]:
        matrix: NDArray[np.float64] = self.__dict__["_matrix"]
        return matrix

    def of(self, players: int) -> LeaveModel:
        """The model of a player count (counts outside 2-4 clamped)."""
        return self.others.get(MIN_PLAYERS + LeaveState(players).model_index(), self)

    def row(self, box_size: int, state: LeaveState | None = None) -> tuple[NDArray[np.float64], float]:
        """One decision's leave weights and return term: the stage's row of the
        player count's model with the state folded in (as ginnycore.equity's
        leave_row computes it, operation for operation)."""
        state = state or DEFAULT_STATE
        model = self.of(state.players)
        stage = stage_of(box_size)
        weights = model.matrix[stage].copy()
        term = model.returns[stage]
        if model.state_weights:      # folded in even when zero: the same operations as C
            s = model.state_weights[stage]
            clock = state.clock()
            unopened = 0.0 if state.opened else 1.0
            weights[0] = weights[0] + (clock * s[1] + unopened * s[2])
            weights[1] = weights[1] + unopened * s[3]
            weights[2] = weights[2] + clock * s[0]
            term = term + ((unopened * s[4] + clock * s[5]) + state.box_share(box_size) * s[6])
        return weights, term

    def values(self, counts: NDArray[np.integer[Any]], box_size: int,
               state: LeaveState | None = None) -> NDArray[np.float64]:
        """The value of each leave, (n, 53) counts in, (n,) values out."""
        result: NDArray[np.float64] = features(counts) @ self.row(box_size, state)[0]
        return result

    def value(self, tiles: Sequence[int], box_size: int, state: LeaveState | None = None) -> float:
        """The value of one leave given as rack tiles."""
        return float(self.values(counts_of(tiles)[None, :], box_size, state)[0])

    def return_value(self, box_size: int, state: LeaveState | None = None) -> float:
        """What returning tiles (rather than playing) adds to the equity of what it keeps."""
        return self.row(box_size, state)[1]

    def _fields_json(self) -> dict[str, Any]:
        return {
            "weights": [[round(w, 4) for w in row] for row in self.weights],
            "state_weights": [[round(w, 4) for w in row] for row in self.state_weights],
            "returns": [round(r, 4) for r in self.returns],
            "intercepts": [round(b, 4) for b in self.intercepts],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "features": list(FEATURES),
            "state_features": list(STATE_FEATURES),
            "stages": [{"name": name, "box_min": low, "box_max": high}
                       for name, (low, high) in zip(STAGE_NAMES, STAGES)],
            "players": {str(players): self.of(players)._fields_json() for players in PLAYER_COUNTS},
            "open_first": self.open_first,
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
    """A model from the decoded JSON of a leave file (see :meth:`LeaveModel.to_json`;
    version 1 files hold one model, without state weights, for every player count)."""
    if not isinstance(data, dict):
        raise LeaveFileError(f"{where}: must be a JSON object")
    if data.get("format") != FORMAT_NAME:
        raise LeaveFileError(f"{where}: field 'format': expected {FORMAT_NAME!r}, not {quote(data.get('format'))}")
    version = data.get("version")
    if version not in READ_VERSIONS:
        raise LeaveFileError(f"{where}: field 'version': version {quote(version)}, "
                             f"this ginnyo reads versions {', '.join(map(str, READ_VERSIONS))}")
    if data.get("features") != list(FEATURES):
        raise LeaveFileError(f"{where}: field 'features': expected {', '.join(FEATURES)}")
    stages = data.get("stages")
    if not isinstance(stages, list) or len(stages) != len(STAGES) or not all(
            isinstance(s, dict) and (s.get("box_min"), s.get("box_max")) == stage
            for s, stage in zip(stages, STAGES)):
        raise LeaveFileError(f"{where}: field 'stages': expected the box ranges {list(STAGES)}")
    training = data.get("training", {})
    if not isinstance(training, dict):
        raise LeaveFileError(f"{where}: field 'training': must be an object")
    if version == 1:
        return _model_of(data, where, training, where, state=False)
    if data.get("state_features") != list(STATE_FEATURES):
        raise LeaveFileError(f"{where}: field 'state_features': expected {', '.join(STATE_FEATURES)}")
    models = data.get("players")
    if not isinstance(models, dict) or sorted(models) != sorted(str(p) for p in PLAYER_COUNTS) \
            or not all(isinstance(m, dict) for m in models.values()):
        raise LeaveFileError(f"{where}: field 'players': must map "
                             f"{', '.join(repr(str(p)) for p in PLAYER_COUNTS)} to models")
    open_first = data.get("open_first")
    if not isinstance(open_first, bool):
        raise LeaveFileError(f"{where}: field 'open_first': must be true or false")
    first = str(PLAYER_COUNTS[0])
    others = {players: _model_of(models[str(players)], f"{where}: field 'players' {str(players)!r}", {}, None)
              for players in PLAYER_COUNTS[1:]}
    model = _model_of(models[first], f"{where}: field 'players' {first!r}", training, where)
    others = {players: other for players, other in others.items()   # a copy of the first is the first
              if (other.weights, other.returns, other.intercepts, other.state_weights)
              != (model.weights, model.returns, model.intercepts, model.state_weights)}
    return LeaveModel(model.weights, model.returns, model.intercepts, training, where, model.state_weights, others,
                      open_first)


def _model_of(data: dict[str, Any], where: str, training: dict[str, Any], path: str | None,
              state: bool = True) -> LeaveModel:
    """One player count's model: its weights, returns, intercepts and (``state``) state weights."""
    weights = _rows(data.get("weights"), len(FEATURES), where, "weights")
    state_weights = _rows(data.get("state_weights"), len(STATE_FEATURES), where, "state_weights") if state else ()
    returns = data.get("returns")
    if not isinstance(returns, list) or len(returns) != len(STAGES) or not all(_is_number(r) for r in returns):
        raise LeaveFileError(f"{where}: field 'returns': must be a list of {len(STAGES)} finite numbers")
    intercepts = data.get("intercepts", [])
    if not isinstance(intercepts, list) or not all(_is_number(b) for b in intercepts):
        raise LeaveFileError(f"{where}: field 'intercepts': must be a list of numbers")
    return LeaveModel(weights, tuple(float(r) for r in returns), tuple(float(b) for b in intercepts), training,
                      path, state_weights)


def _rows(rows: object, width: int, where: str, name: str) -> tuple[tuple[float, ...], ...]:
    """A stage's row of ``width`` finite numbers for every stage, or LeaveFileError naming ``name``."""
    if (not isinstance(rows, list) or len(rows) != len(STAGES)
            or not all(isinstance(row, list) and len(row) == width and all(_is_number(w) for w in row)
                       for row in rows)):
        raise LeaveFileError(f"{where}: field {name!r}: must be {len(STAGES)} lists of {width} finite numbers")
    return tuple(tuple(float(w) for w in row) for row in rows)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


__all__ = ["FEATURES", "STATE_FEATURES", "STAGES", "STAGE_NAMES", "PLAYER_COUNTS", "LeaveModel", "LeaveState",
           "DEFAULT_STATE", "LeaveFileError", "load", "default_model", "features", "counts_of", "stage_of",
           "from_json", "DATA_FILE", "TILES"]
