"""Monte Carlo simulation: the top equity candidates played forward against sampled racks.

For each rollout the tiles we cannot see (the position's ``unseen`` field, or
every tile not on the board or our rack) are shuffled by a seeded generator
and dealt: the other players' racks first, the rest is the box.  Every
candidate is then played forward on that same deal (common random numbers, so
that the differences between candidates are not drowned in the luck of the
deal): our candidate, then ``plies`` more turns, each player drawing, choosing
by the rollout policy and drawing back up to 7.  The policies: ``greedy``, the
best-scoring play (without one, returning the tile best-move names, a joker
from a rack of only jokers, or passing when the box is empty), and ``equity``,
the first action of the core's equity ranking (returns of any tiles
included), each in the rollout's own game state (players, a meld down, the
stall clock).  The game ends inside a rollout as docs/RULES.md §6 says: every
player in turn passing on an empty box, or the quiet turns reaching
:func:`ginnyo.vocab.rules.quiet_turn_limit` (the stall clock once the first meld is
down, the opening guard before it), counted on from the game's own clock when
the rollout starts from a game's view (a static position's clock is taken to
start at 0).  With 2 players, once a rollout's box is empty both racks are
known and the endgame solver (:mod:`ginnycore.endgame`, within a node budget)
plays the rest.  A rollout's outcome is the points we made minus the
opponents' mean, plus the leave value (:mod:`ginnyo.leaves`) of what each
side kept on its last turn, valued in the state it was kept in (or, when the
game ends inside the horizon, the final difference with the rack penalties).
Candidates are the top ones by equity (:mod:`ginnyo.equity`); they are ranked
by the mean outcome, with a normal 95% confidence interval.

Late in the game (``to_end``: the players ask for it at most
:data:`LATE_BOX` tiles in the box) the rollouts play on to the game's end and
the candidates are ranked by their share of wins first (the game's scores plus
the rollout's points; 1/t for a t-way tie on top), then by the mean outcome:
what wins the game, not the biggest spread (MAGPIE's win-percentage ranking).

The rollouts run in C (:mod:`ginnycore.simulate`), without the GIL, over
threads; rollout ``i`` is dealt from ``(seed, i)`` alone, so the result is the
same on one thread, many, or a Dask cluster.  They run in blocks of
:data:`BLOCK` (the block loop is :mod:`ginnyo.simulation.session`'s); after each block a simulation may stop early when the best
candidate's lead is significant (:func:`leader_is_significant`).  A block runs
in pieces sized by the rollouts' measured cost (:data:`PIECE_SECONDS`), so that
a time budget, looked at between pieces, holds at every stage of the game, a
rollout played to the game's end included.
The Python rollouts of old are the tests' yardstick (tests/simulation_reference.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..position.context import Decision, GameContext
from ..equity.rank import COMPILED_PLAY, COMPILED_RETURN, PLAY, RETURN, Candidate, compiled_model
from ..equity.leaves import LeaveModel
from .choices import DEFAULT_POLICY, LATE_BOX, POLICIES, ROLLOUT_ENDGAME_NODES, STOP_LEVELS
from ..vocab.layout import core_premiums
from ..native.core import Core
from ..native.encoding import encode_rack
from ..native.simulate import POLICY_EQUITY, POLICY_GREEDY, Rollouts   # a rollout compiles its setup: no import a call

if TYPE_CHECKING:
    from numpy.typing import NDArray

DEFAULT_ROLLOUTS = 32
DEFAULT_CANDIDATES = 5
DEFAULT_PLIES = 2
DEFAULT_MARGIN = 25.0   # candidates further than this below the best equity are not simulated
Z95 = 1.959964
BLOCK = 256             # rollouts between two looks at the stopping rules; the sums are made a block at a time
PIECE_SECONDS = 0.1     # a block runs in pieces of about this long at most (a quarter of a shorter time
                        # budget), sized by the rollouts' measured cost: the budget is looked at between them
SEED_MODULUS = 2 ** 64  # the compiled generator's seeds
COMPILED = "_rollouts"  # where a Setup keeps its compiled rollouts


# -- rollouts ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """Everything a batch of rollouts needs (it travels to worker processes)."""

    width: int
    height: int
    kinds: bytes
    cards: bytes
    jokers: bytes
    rack: tuple[int, ...]
    context: GameContext
    candidates: tuple[Candidate, ...]
    plies: int
    seed: int
    model: LeaveModel
    policy: str = DEFAULT_POLICY        # the rollout players' (POLICIES)
    to_end: bool = False                # rollouts play on to the game's end; ranked by wins first
    endgame_nodes: int = 0              # 2 players: the rollouts' endgame solver's node budget (0: none)
    # an alias table an opponent seat (ginnyo.odds.inference.deal_tables), or None
    inferred: tuple[tuple[bytes, tuple[float, ...], tuple[int, ...]] | None, ...] | None = None

    def __getstate__(self) -> dict[str, object]:
        """What pickles: the fields, not the compiled rollouts kept by :func:`rollouts_of`."""
        state = dict(self.__dict__)
        state.pop(COMPILED, None)
        return state


@dataclass(frozen=True)
class PairedLead:
    """The leader's lead over one other candidate on the same deals: its mean
    ``lead`` and that mean's standard ``error``, in win share when ``by_wins``
    (the two differ in wins), else in points of outcome: what ``--stop`` tests."""

    lead: float
    error: float
    by_wins: bool

    def clear_at(self, z: float) -> bool:
        """Whether the lead is above ``z`` standard errors (one-sided)."""
        return self.lead > z * self.error


@dataclass(frozen=True)
class SimResult:
    """A candidate's simulated outcome: mean, standard deviation (sd) and the
    mean's 95% confidence interval, its share of wins when the rollouts played
    to the game's end, and the leader's paired lead over it (None for the leader)."""

    candidate: Candidate
    rollouts: int
    mean: float
    stdev: float
    wins: float | None = None
    paired: PairedLead | None = None
    chance: float | None = None         # the win probability (ginnyo.odds.win_probability) of its outcomes, when asked

    @property
    def half_width(self) -> float:
        return Z95 * self.stdev / math.sqrt(self.rollouts) if self.rollouts > 1 else math.inf

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def deal(unseen: Sequence[int], racks: Sequence[int], seed: int, index: int
         ) -> tuple[list[list[int]], list[int], int]:
    """Rollout ``index``'s deal: the other players' racks, the box (front to
    end: we draw from its end, the others from its front) and the seed of where
    returned tiles go (:mod:`ginnycore.simulate`)."""
    from ginnyo.native.simulate import deal as compiled_deal
    return compiled_deal(unseen, racks, seed % SEED_MODULUS, index)


def compiled_candidate(candidate: Candidate) -> tuple[int, tuple[tuple[int, int, bool], ...], tuple[int, ...]]:
    """A candidate as :class:`ginnycore.simulate.Rollouts` takes it."""
    kind = COMPILED_PLAY if candidate.kind == PLAY else COMPILED_RETURN if candidate.kind == RETURN else 2
    return kind, candidate.placements, candidate.returned


def rollouts_of(setup: Setup) -> Rollouts:
    """The compiled rollouts of ``setup``, made once a setup and kept on it."""
    made: Rollouts | None = setup.__dict__.get(COMPILED)
    if made is None:
        made = _compile(setup)
        object.__setattr__(setup, COMPILED, made)
    return made


@lru_cache(maxsize=4)
def _compile(setup: Setup) -> Rollouts:
    """The compiled rollouts of ``setup`` (the last few kept: Dask sends a copy
    of the setup with every block)."""
    if setup.policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {setup.policy!r}")
    core = Core(setup.width, setup.height, *core_premiums(setup.kinds))
    core.load(setup.cards, setup.jokers, encode_rack(setup.rack))
    context = setup.context
    players = context.players
    scores = [context.scores[(context.to_move + offset) % players] for offset in range(players)]
    return Rollouts(core, compiled_model(setup.model), context.unseen, context.opponent_racks,
                    [compiled_candidate(candidate) for candidate in setup.candidates], setup.plies,
                    setup.seed % SEED_MODULUS, POLICY_EQUITY if setup.policy == "equity" else POLICY_GREEDY,
                    context.quiet_turns, context.stall_rounds, context.rules, scores, setup.to_end,
                    setup.endgame_nodes, setup.inferred)


def rollout_outcomes(setup: Setup, start: int, count: int, threads: int = 1) -> NDArray[np.float64]:
    """The outcomes of rollouts ``start`` to ``start + count - 1``: a row a
    rollout, a column a candidate; the same whatever ``threads``."""
    return rollout_results(setup, start, count, threads)[0]


def rollout_results(setup: Setup, start: int, count: int, threads: int = 1
                    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The outcomes and our shares of the win (:class:`ginnycore.simulate.Rollouts`'s
    ``run``) of rollouts ``start`` to ``start + count - 1``, a row a rollout."""
    out = np.empty((count, len(setup.candidates)), dtype=np.float64)
    wins = np.empty_like(out)
    rollouts_of(setup).run(start, out, threads, wins)
    return out, wins


class Tally:
    """The running sums of every candidate's outcomes, made a block at a time
    (so the same whatever ran the blocks), shifted by the first rollout's
    outcomes for accuracy: means, standard deviations and the paired leads."""

    def __init__(self, candidates: int) -> None:
        self.count = 0
        self.shift = np.zeros(candidates)
        self.sums = np.zeros(candidates)
        self.products = np.zeros((candidates, candidates))   # sum of y_j * y_k

    def add(self, block: NDArray[np.float64]) -> None:
        if not self.count and len(block):
            self.shift = block[0].copy()
        shifted = block - self.shift
        self.count += len(block)
        self.sums += shifted.sum(axis=0)
        for column in range(shifted.shape[1]):
            self.products[column] += (shifted * shifted[:, column:column + 1]).sum(axis=0)

    def mean(self, row: int) -> float:
        return float(self.shift[row] + self.sums[row] / self.count) if self.count else 0.0

    def variance_of_difference(self, first: int, second: int) -> float:
        """The sample variance of ``outcome[first] - outcome[second]`` (second -1: of ``first`` alone)."""
        if self.count < 2:
            return math.inf
        if second < 0:
            total, squares = self.sums[first], self.products[first, first]
        else:
            total = self.sums[first] - self.sums[second]
            squares = (self.products[first, first] - 2 * self.products[first, second]
                       + self.products[second, second])
        return max(float(squares - total * total / self.count) / (self.count - 1), 0.0)

    def stdev(self, row: int) -> float:
        return math.sqrt(self.variance_of_difference(row, -1)) if self.count > 1 else 0.0


def leader_is_significant(tally: Tally, z: float, wins: Tally | None = None) -> bool:
    """The stopping rule of ``--stop``: the leader's paired lead over every other
    candidate (the difference of their outcomes on the same deals) has a mean
    above ``z`` standard errors: one-sided at the level of ``z``, each pair.
    With ``wins`` (ranked by wins first), a lead in wins is tested on the
    wins, a tie in wins on the outcomes."""
    return all(lead.clear_at(z) for lead in paired_leads(tally, wins).values())


def paired_leads(tally: Tally, wins: Tally | None = None) -> dict[int, PairedLead]:
    """The leader's paired lead over every other candidate, by row: in wins
    when the two differ in wins (``wins`` given), else in outcome."""
    best = ranking(tally, wins)[0]
    leads = {}
    for other in range(len(tally.sums)):
        if other == best:
            continue
        by_wins = wins is not None and _rounded(wins, best) != _rounded(wins, other)
        judged = wins if by_wins and wins is not None else tally
        lead = judged.mean(best) - judged.mean(other)
        error = math.sqrt(judged.variance_of_difference(best, other) / judged.count) if judged.count else math.inf
        leads[other] = PairedLead(lead, error, by_wins)
    return leads


def _rounded(tally: Tally, row: int) -> float:
    return round(tally.mean(row), 9)


def ranking(tally: Tally, wins: Tally | None = None) -> list[int]:
    """The candidates' rows best first: by mean outcome, or by wins and then
    mean outcome; ties to the equity order."""
    rows = range(len(tally.sums))
    if wins is None:
        return sorted(rows, key=lambda row: -_rounded(tally, row))
    return sorted(rows, key=lambda row: (-_rounded(wins, row), -_rounded(tally, row)))


def top_candidates(ranked: Sequence[Candidate], count: int, margin: float = math.inf) -> tuple[Candidate, ...]:
    """The first ``count`` candidates of an equity ranking within ``margin`` of the best."""
    if not ranked:
        return ()
    best = ranked[0].equity
    return tuple(candidate for candidate in ranked[:count] if candidate.equity >= best - margin)


def setup_for(decision: Decision, candidates: Sequence[Candidate], plies: int, seed: int, model: LeaveModel,
              policy: str = DEFAULT_POLICY, late_box: int = LATE_BOX,
              endgame_nodes: int = ROLLOUT_ENDGAME_NODES) -> Setup:
    """The rollout setup of a decision, a static position or a game's view alike
    (what its player knows: the board, the rack, ``decision.game_context``): to
    the game's end when its box holds at most ``late_box`` tiles (see :func:`is_late`)."""
    from ..native import _kinds
    from ginnyo.native.encoding import encode_board
    layout = decision.layout
    context = decision.game_context
    cards, jokers = encode_board(layout.size, decision.board)
    return Setup(layout.width, layout.height, _kinds(layout), cards, jokers, decision.rack, context,
                 tuple(candidates), plies, seed, model, policy, is_late(context.box_size, late_box), endgame_nodes)


def is_late(box_size: int, late_box: int = LATE_BOX) -> bool:
    """Whether rollouts play to the game's end and rank by wins: at most
    ``late_box`` tiles in the box (a negative ``late_box``: never)."""
    return 0 <= box_size <= late_box


__all__ = ["GameContext", "Setup", "SimResult",
           "rollout_outcomes", "rollout_results", "rollouts_of", "ranking", "is_late", "top_candidates",
           "setup_for", "deal", "Tally", "leader_is_significant", "paired_leads", "PairedLead",
           "POLICIES", "STOP_LEVELS", "LATE_BOX", "BLOCK"]
