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
:func:`ginnyo.rules.quiet_turn_limit` (the stall clock once the first meld is
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
:data:`BLOCK`; after each block a simulation may stop early: on a time budget,
or when the best candidate's lead is significant (:func:`leader_is_significant`).
The Python rollouts of old are the tests' yardstick (tests/simulation_reference.py).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

import numpy as np
from ginnycore import EMPTY_SQUARE

from .actions import Action
from .context import GameContext, game_context, view_context
from .equity import COMPILED_PLAY, COMPILED_RETURN, PLAY, RETURN, Candidate, compiled_model, rank_actions, view_state
from .leaves import LeaveModel, default_model
from .sim_choices import DEFAULT_POLICY, LATE_BOX, POLICIES, ROLLOUT_ENDGAME_NODES, STOP_LEVELS

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ginnycore.simulate import Rollouts

    from .game import View
    from .position import Position

DEFAULT_ROLLOUTS = 32
DEFAULT_CANDIDATES = 5
DEFAULT_PLIES = 2
DEFAULT_MARGIN = 25.0   # candidates further than this below the best equity are not simulated
Z95 = 1.959964
BLOCK = 256             # rollouts between two looks at the stopping rules; the sums are made a block at a time
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
    # an alias table an opponent seat (ginnyo.inference.deal_tables), or None
    inferred: tuple[tuple[bytes, tuple[float, ...], tuple[int, ...]] | None, ...] | None = None

    def __getstate__(self) -> dict[str, object]:
        """What pickles: the fields, not the compiled rollouts kept by :func:`rollouts_of`."""
        state = dict(self.__dict__)
        state.pop(COMPILED, None)
        return state


@dataclass(frozen=True)
class SimResult:
    """A candidate's simulated outcome: mean, spread and its 95% confidence
    interval, and its share of wins when the rollouts played to the game's end."""

    candidate: Candidate
    rollouts: int
    mean: float
    stdev: float
    wins: float | None = None
    chance: float | None = None         # the win probability (ginnyo.win_probability) of its outcomes, when asked

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
    from ginnycore.simulate import deal as compiled_deal
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
    from ginnycore import Core
    from ginnycore.simulate import POLICY_EQUITY, POLICY_GREEDY, Rollouts

    from .layout import core_premiums
    if setup.policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {setup.policy!r}")
    core = Core(setup.width, setup.height, *core_premiums(setup.kinds))
    counts = bytearray(53)
    for tile in setup.rack:
        counts[tile] += 1
    core.load(setup.cards, setup.jokers, counts)
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


def _outcome_part(part: tuple[int, int], setup: Setup
                  ) -> tuple[int, tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """One part of a Dask run: ``(start, (outcomes, wins))``."""
    start, count = part
    return start, rollout_results(setup, start, count)


class Tally:
    """The running sums of every candidate's outcomes, made a block at a time
    (so the same whatever ran the blocks), shifted by the first rollout's
    outcomes for accuracy: means, spreads and the paired leads."""

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
    best = ranking(tally, wins)[0]
    for other in range(len(tally.sums)):
        if other == best:
            continue
        judged = wins if wins is not None and _rounded(wins, best) != _rounded(wins, other) else tally
        lead = judged.mean(best) - judged.mean(other)
        spread = math.sqrt(judged.variance_of_difference(best, other) / judged.count)
        if not lead > z * spread:
            return False
    return True


def _rounded(tally: Tally, row: int) -> float:
    return round(tally.mean(row), 9)


def ranking(tally: Tally, wins: Tally | None = None) -> list[int]:
    """The candidates' rows best first: by mean outcome, or by wins and then
    mean outcome; ties to the equity order."""
    rows = range(len(tally.sums))
    if wins is None:
        return sorted(rows, key=lambda row: -_rounded(tally, row))
    return sorted(rows, key=lambda row: (-_rounded(wins, row), -_rounded(tally, row)))


# -- the simulation ---------------------------------------------------------------------------

def simulate(setup: Setup, rollouts: int, *, threads: int = 1, scheduler: str | None = None,
             stop: int | None = None, seconds: float | None = None,
             on_progress: Callable[[int], None] | None = None,
             chance: Callable[[NDArray[np.float64]], NDArray[np.float64]] | None = None,
             rank_by_chance: bool = False) -> list[SimResult]:
    """Run up to ``rollouts`` rollouts of every candidate of ``setup`` over
    ``threads`` threads (or on the Dask cluster at ``scheduler``); the results
    best mean first (ties to the equity order), the same for a seed whatever
    ``threads`` or ``scheduler``.  After each :data:`BLOCK` it stops early when
    ``stop`` (a level of :data:`STOP_LEVELS`) finds the leader significant, or
    when ``seconds`` have passed (a budget: where it stops depends on the machine).
    With ``chance`` (a block of outcomes to their win probabilities,
    :func:`ginnyo.win_probability.outcome_chances`) each result gets its mean
    win probability (its share of wins when the rollouts play to the end), and
    with ``rank_by_chance`` the results are ranked by it first."""
    if not setup.candidates:
        return []
    if stop is not None and stop not in STOP_LEVELS:
        raise ValueError(f"stop must be one of {', '.join(map(str, STOP_LEVELS))}, not {stop!r}")
    rollouts_of(setup)   # checks the setup here, not in a worker
    deadline = None if seconds is None else time.monotonic() + seconds
    tally = Tally(len(setup.candidates))
    wins = Tally(len(setup.candidates)) if setup.to_end else None
    chances = Tally(len(setup.candidates)) if chance is not None and not setup.to_end else None
    for block, won in _blocks(setup, rollouts, threads, scheduler):
        tally.add(block)
        if wins is not None:
            wins.add(won)
        if chances is not None and chance is not None:
            chances.add(chance(block))
        if on_progress is not None:
            on_progress(len(block))
        if tally.count < rollouts and (
                (stop is not None and leader_is_significant(tally, STOP_LEVELS[stop],
                                                            chances if rank_by_chance and chances else wins))
                or (deadline is not None and time.monotonic() >= deadline)):
            break
    judged = wins if wins is not None else chances if rank_by_chance else None
    return [SimResult(setup.candidates[row], tally.count, tally.mean(row), tally.stdev(row),
                      None if wins is None else wins.mean(row),
                      wins.mean(row) if wins is not None and chance is not None
                      else None if chances is None else chances.mean(row))
            for row in ranking(tally, judged)]


Block = tuple["NDArray[np.float64]", "NDArray[np.float64]"]


def _blocks(setup: Setup, rollouts: int, threads: int, scheduler: str | None) -> Iterator[Block]:
    """The outcomes and wins of rollouts 0 to ``rollouts - 1``, a block at a time, in order."""
    starts = range(0, rollouts, BLOCK)
    if scheduler is None:
        for start in starts:
            yield rollout_results(setup, start, min(BLOCK, rollouts - start), threads)
        return
    from .workers import run_batches
    parts = [(start, min(BLOCK, rollouts - start)) for start in starts]
    waiting: dict[int, Block] = {}
    for start, block in run_batches(partial(_outcome_part, setup=setup), parts, workers=1, scheduler=scheduler):
        waiting[start] = block
        while parts and parts[0][0] in waiting:
            yield waiting.pop(parts.pop(0)[0])


def top_candidates(ranked: Sequence[Candidate], count: int, margin: float = math.inf) -> tuple[Candidate, ...]:
    """The first ``count`` candidates of an equity ranking within ``margin`` of the best."""
    if not ranked:
        return ()
    best = ranked[0].equity
    return tuple(candidate for candidate in ranked[:count] if candidate.equity >= best - margin)


def setup_for(position: Position, candidates: Sequence[Candidate], plies: int, seed: int,
              model: LeaveModel, context: GameContext | None = None, policy: str = DEFAULT_POLICY,
              late_box: int = LATE_BOX, endgame_nodes: int = ROLLOUT_ENDGAME_NODES) -> Setup:
    """The rollout setup of a static position: to the game's end when its box
    holds at most ``late_box`` tiles (see :func:`is_late`)."""
    from .native import _kinds, encode
    cards, jokers, _ = encode(position)
    layout = position.layout
    context = context or game_context(position)
    return Setup(layout.width, layout.height, _kinds(layout), cards, jokers, position.rack, context,
                 tuple(candidates), plies, seed, model, policy, is_late(context.box_size, late_box), endgame_nodes)


def view_setup(view: View, candidates: Sequence[Candidate], plies: int, seed: int, model: LeaveModel,
               policy: str = DEFAULT_POLICY, late_box: int = LATE_BOX,
               endgame_nodes: int = ROLLOUT_ENDGAME_NODES) -> Setup:
    """The rollout setup of a player's decision in a game (what it sees of it)."""
    from .native import _kinds
    layout = view.layout
    cards = bytearray([EMPTY_SQUARE]) * layout.size
    jokers = bytearray(layout.size)
    for square, tile in view.board.items():
        cards[square] = tile[0]
        jokers[square] = 1 if tile[1] else 0
    return Setup(layout.width, layout.height, _kinds(layout), bytes(cards), bytes(jokers), view.rack,
                 view_context(view), tuple(candidates), plies, seed, model, policy,
                 is_late(view.box_size, late_box), endgame_nodes)


def is_late(box_size: int, late_box: int = LATE_BOX) -> bool:
    """Whether rollouts play to the game's end and rank by wins: at most
    ``late_box`` tiles in the box (a negative ``late_box``: never)."""
    return 0 <= box_size <= late_box


class SimPlayer:
    """Simulates the top equity candidates and takes the best mean outcome.

    ``rollouts`` deals a decision, ``candidates`` at most, within ``margin``
    points of equity of the best (a lone candidate is taken without simulating),
    ``plies`` turns after ours, the rollout players choosing by ``policy``;
    with at most ``late_box`` tiles in the box (negative: never) the rollouts
    play to the game's end and the candidates are ranked by wins, and a
    2-player rollout whose box runs empty is finished by the endgame solver
    within ``endgame_nodes`` nodes (0: played on by the policy).  Once a
    2-player game's box is empty it plays the endgame solver's move instead.
    With ``infer``, each opponent's rack is dealt from what its last action
    says of the tiles it kept (:mod:`ginnyo.inference`, ``infer_samples``
    racks judged when there are too many to judge all).  With at most
    ``chance_box`` tiles in the box (negative: never) and a fixed horizon, the
    candidates are ranked by the win probability of their outcomes
    (:func:`ginnyo.win_probability.outcome_chances`) instead of the mean.
    Decision ``t`` of a game is seeded from ``(seed, t)``, so a game is
    reproducible."""

    name = "sim"

    def __init__(self, seed: int = 0, rollouts: int = DEFAULT_ROLLOUTS, candidates: int = DEFAULT_CANDIDATES,
                 plies: int = DEFAULT_PLIES, margin: float = DEFAULT_MARGIN, model: LeaveModel | None = None,
                 policy: str = DEFAULT_POLICY, late_box: int = LATE_BOX,
                 endgame_nodes: int = ROLLOUT_ENDGAME_NODES, infer: bool = False, infer_samples: int = 400,
                 chance_box: int = -1) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        self.seed = seed
        self.rollouts = rollouts
        self.candidates = candidates
        self.plies = plies
        self.margin = margin
        self.model = model or default_model()
        self.policy = policy
        self.late_box = late_box
        self.endgame_nodes = endgame_nodes
        self.infer = infer
        self.infer_samples = infer_samples
        self.chance_box = chance_box

    def choose(self, view: View) -> Action:
        from .endgame_move import endgame_action   # the exact endgame once the box is empty
        solved = endgame_action(view)
        if solved is not None:
            return solved
        core = view.core()
        ranked = rank_actions(core, view.rack, view.box_size, self.model, limit=max(self.candidates, 1),
                              state=view_state(view))
        chosen = top_candidates(ranked, self.candidates, self.margin)
        if len(chosen) <= 1 or self.rollouts < 1:
            return ranked[0].action()
        setup = view_setup(view, chosen, self.plies, self.seed * 1000 + view.turn, self.model, self.policy,
                           self.late_box, self.endgame_nodes)
        if self.infer:
            from dataclasses import replace

            from .inference import deal_tables, infer, view_observations
            found = view_observations(view)
            tables = deal_tables([None if observed is None else
                                  infer(observed, self.model, samples=self.infer_samples, seed=setup.seed)
                                  for observed in found])
            setup = replace(setup, inferred=tables)
        chance = None
        if 0 <= view.box_size <= self.chance_box and not setup.to_end:
            from .win_probability import default_model as win_model, leads_of, outcome_chances
            chance = outcome_chances(win_model(), view.players, leads_of(view.scores, view.player), view.box_size,
                                     self.plies)
        return simulate(setup, self.rollouts, chance=chance, rank_by_chance=chance is not None)[0].candidate.action()


__all__ = ["GameContext", "game_context", "view_context", "Setup", "SimResult", "SimPlayer", "simulate",
           "rollout_outcomes", "rollout_results", "rollouts_of", "ranking", "is_late", "view_setup", "top_candidates",
           "setup_for", "deal", "Tally", "leader_is_significant", "POLICIES", "STOP_LEVELS", "LATE_BOX", "BLOCK"]
