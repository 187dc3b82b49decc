"""Monte Carlo simulation: the top equity candidates played forward against sampled racks.

For each rollout the tiles we cannot see (the position's ``unseen`` field, or
every tile not on the board or our rack) are shuffled from a seeded generator
and dealt: the other players' racks first, the rest is the box.  Every
candidate is then played forward on that same deal (common random numbers, so
that the differences between candidates are not drowned in the luck of the
deal): our candidate, then ``plies`` more turns, each player drawing, making
the best-scoring play (the compiled core's best play: cheap, so that many
rollouts fit in a turn; without a play, returning the tile best-move names (a
joker from a rack of only jokers), or passing when the box is empty) and
drawing back up to 7.  The game ends inside a rollout as docs/RULES.md §6 says:
every player in turn passing on an empty box, or the quiet turns reaching
:func:`ginnyo.rules.quiet_turn_limit` (the stall clock once the first meld is
down, the opening guard before it), counted on from the game's own clock when
the rollout starts from a game's view (a static position's clock is taken to
start at 0).  A rollout's outcome is the points we made
minus the opponents' mean, plus the leave value (:mod:`ginnyo.leaves`) of what
each side kept on its last turn (or, when the game ends inside the horizon,
the final difference with the rack penalties).  Candidates are the top ones by
equity (:mod:`ginnyo.equity`); they are ranked by the mean outcome, with a
normal 95% confidence interval.

Rollout ``i`` is dealt from ``(seed, i)`` alone, so the result is the same on one
process, many, or a Dask cluster.  The compiled core answers every turn.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np
from ginnycore import EMPTY_SQUARE

from .actions import Action
from .context import GameContext, game_context, view_context
from .equity import PLAY, RETURN, Candidate, rank_actions
from .leaves import TILES, LeaveModel, default_model, features, stage_of
from .rules import RACK_SIZE, quiet_turn_limit, tile_to_return
from .tiles import JOKER, rack_penalty

if TYPE_CHECKING:
    from ginnycore import Core

    from .game import View
    from .position import Position

DEFAULT_ROLLOUTS = 32
DEFAULT_CANDIDATES = 5
DEFAULT_PLIES = 2
DEFAULT_MARGIN = 25.0   # candidates further than this below the best equity are not simulated
Z95 = 1.959964


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
    weights: tuple[tuple[float, ...], ...]
    returns: tuple[float, ...] = ()


@dataclass(frozen=True)
class SimResult:
    """A candidate's simulated outcome: mean, spread and its 95% confidence interval."""

    candidate: Candidate
    rollouts: int
    mean: float
    stdev: float

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
         ) -> tuple[list[list[int]], list[int], random.Random]:
    """Rollout ``index``'s deal: the other players' racks, the box (drawn from
    the end) and the generator for the rest of the rollout."""
    rng = random.Random(f"ginnyo sim {seed} {index}")
    tiles = list(unseen)
    rng.shuffle(tiles)
    hands = []
    for size in racks:
        hands.append(tiles[:size])
        del tiles[:size]
    return hands, tiles, rng


def rollout_batch(indices: Sequence[int], setup: Setup) -> list[tuple[int, list[float]]]:
    """The outcomes of rollouts ``indices`` for every candidate: ``(index, outcomes)``."""
    from ginnycore import Core

    from .layout import core_premiums
    core = Core(setup.width, setup.height, *core_premiums(setup.kinds))
    model = LeaveModel(setup.weights, setup.returns)
    outcomes: list[list[float]] = []
    pending: list[tuple[list[int], int, int, int]] = []   # leaves to value: (tiles, box size, rollout, candidate)
    signs: list[float] = []
    for position, index in enumerate(indices):
        hands, box, rng = deal(setup.context.unseen, setup.context.opponent_racks, setup.seed, index)
        return_seed = rng.getrandbits(64)
        row_outcomes = []
        for row, candidate in enumerate(setup.candidates):
            points, ended, leaves = _play_out(core, setup, candidate, [list(h) for h in hands], list(box),
                                              random.Random(return_seed))
            if candidate.kind == RETURN and not setup.plies:   # no turn played after: count the lost one
                points += model.return_value(setup.context.box_size)
            row_outcomes.append(points)
            if not ended:
                for tiles, box_size, sign in leaves:
                    pending.append((tiles, box_size, position, row))
                    signs.append(sign)
        outcomes.append(row_outcomes)
    if pending:   # every leave of the batch valued in one call
        counts = np.zeros((len(pending), TILES), dtype=np.int16)
        for line, (tiles, _, _, _) in enumerate(pending):
            for tile in tiles:
                counts[line, tile] += 1
        weights = model.matrix[[stage_of(box_size) for _, box_size, _, _ in pending]]
        values = (features(counts) * weights).sum(axis=1)
        for line, (_, _, position, row) in enumerate(pending):
            outcomes[position][row] += signs[line] * float(values[line])
    return list(zip(indices, outcomes))


def _play_out(core: Core, setup: Setup, candidate: Candidate, hands: list[list[int]], box: list[int],
              rng: random.Random) -> tuple[float, bool, list[tuple[list[int], int, float]]]:
    """One candidate on one deal: (points difference, whether the game ended,
    the leaves to value with their sign)."""
    players = setup.context.players
    opponents = players - 1
    cards = bytearray(setup.cards)
    jokers = bytearray(setup.jokers)
    racks = [list(setup.rack)] + hands          # racks[0] is ours, then in turn order
    points = [0.0] * players
    last_leave: list[tuple[list[int], int] | None] = [None] * players
    passes = 0
    context = setup.context
    quiet_limit = partial(quiet_turn_limit, players, rules=context.rules, stall_rounds=context.stall_rounds)
    quiet = context.quiet_turns + (candidate.kind != PLAY)   # the game-end clock (docs/RULES.md §6)
    opened = candidate.kind == PLAY or cards.count(EMPTY_SQUARE) < len(cards)
    # our candidate
    box_size = setup.context.box_size
    rack = racks[0]
    if candidate.kind == PLAY:
        for square, card, joker in candidate.placements:
            cards[square] = card
            jokers[square] = 1 if joker else 0
            rack.remove(JOKER if joker else card)
        points[0] += candidate.score
    elif candidate.kind == RETURN:
        for tile in candidate.returned:
            rack.remove(tile)
        for tile in candidate.returned:
            box.insert(rng.randrange(len(box) + 1), tile)
    else:
        passes = 1
    last_leave[0] = (list(rack), box_size)
    _refill(rack, box, True)
    ended = quiet >= quiet_limit(opened)
    for ply in range(0 if ended else setup.plies):
        seat = (ply + 1) % players
        rack = racks[seat]
        ours = seat == 0
        if box:
            rack.append(box.pop() if ours else box.pop(0))
        counts = bytearray(TILES)
        for tile in rack:
            counts[tile] += 1
        core.load(cards, jokers, counts)
        score, placements, returned = _choose(core, rack, len(box))
        if placements:
            for square, card, joker in placements:
                cards[square] = card
                jokers[square] = 1 if joker else 0
                rack.remove(JOKER if joker else card)
            points[seat] += score
            passes = 0
            quiet = 0
            opened = True
        elif returned:
            for tile in returned:
                rack.remove(tile)
            for tile in returned:
                box.insert(rng.randrange(len(box) + 1), tile)
            passes = 0
        else:
            passes += 1
        if not placements:
            quiet += 1
        last_leave[seat] = (list(rack), len(box))
        _refill(rack, box, ours)
        if passes >= players or quiet >= quiet_limit(opened):
            ended = True
            break
    if ended:
        for seat in range(players):
            points[seat] -= sum(rack_penalty(tile) for tile in racks[seat])
        return points[0] - sum(points[1:]) / opponents, True, []
    leaves: list[tuple[list[int], int, float]] = []
    for seat, leave in enumerate(last_leave):
        if leave is not None:
            leaves.append((leave[0], leave[1], 1.0 if seat == 0 else -1.0 / opponents))
    return points[0] - sum(points[1:]) / opponents, False, leaves


def _refill(rack: list[int], box: list[int], ours: bool) -> None:
    """Draw up to 7: we draw from the end of the box, the others from the front,
    so that the opponents' tiles do not depend on how many we drew (any fixed
    order of a shuffled box is as random as any other)."""
    while len(rack) < RACK_SIZE and box:
        rack.append(box.pop() if ours else box.pop(0))


def _choose(core: Core, rack: list[int], box_size: int) -> tuple[int, tuple[tuple[int, int, bool], ...],
                                                                  tuple[int, ...]]:
    """A rollout turn: the best-scoring play (the compiled core's best play, cheap);
    without one, the tile best-move would return (a joker from a rack of only
    jokers: a pass is only for an empty box), or a pass when the box is empty."""
    found = core.best_play()
    if found is not None:
        return found[0], found[1], ()
    returned = tile_to_return(rack) if box_size else None
    return 0, (), (() if returned is None else (returned,))


# -- the simulation ---------------------------------------------------------------------------

def simulate(setup: Setup, rollouts: int, *, workers: int = 1, scheduler: str | None = None,
             on_progress: Callable[[int], None] | None = None) -> list[SimResult]:
    """Run ``rollouts`` rollouts of every candidate of ``setup``; the results best
    mean first (ties to the equity order).  The same whatever ``workers``/``scheduler``."""
    from .workers import run_batches
    if not setup.candidates:
        return []
    outcomes: dict[int, list[float]] = {}
    indices = list(range(rollouts))
    size = max(1, min(64, -(-rollouts // (4 * max(1, workers)))))
    parts = [indices[i:i + size] for i in range(0, rollouts, size)]
    for batch in run_batches(partial(rollout_batch, setup=setup), parts, workers=workers, scheduler=scheduler):
        for index, values in batch:
            outcomes[index] = values
        if on_progress is not None:
            on_progress(len(batch))
    results = []
    for row, candidate in enumerate(setup.candidates):
        values = [outcomes[index][row] for index in indices]
        results.append(SimResult(candidate, rollouts, statistics.fmean(values) if values else 0.0,
                                 statistics.stdev(values) if len(values) > 1 else 0.0))
    order = {id(result): row for row, result in enumerate(results)}
    results.sort(key=lambda result: (-round(result.mean, 9), order[id(result)]))
    return results


def top_candidates(ranked: Sequence[Candidate], count: int, margin: float = math.inf) -> tuple[Candidate, ...]:
    """The first ``count`` candidates of an equity ranking within ``margin`` of the best."""
    if not ranked:
        return ()
    best = ranked[0].equity
    return tuple(candidate for candidate in ranked[:count] if candidate.equity >= best - margin)


def setup_for(position: Position, candidates: Sequence[Candidate], plies: int, seed: int,
              model: LeaveModel, context: GameContext | None = None) -> Setup:
    """The rollout setup of a static position."""
    from .native import _kinds, encode
    cards, jokers, _ = encode(position)
    layout = position.layout
    return Setup(layout.width, layout.height, _kinds(layout), cards, jokers, position.rack,
                 context or game_context(position), tuple(candidates), plies, seed, model.weights, model.returns)


class SimPlayer:
    """Simulates the top equity candidates and takes the best mean outcome.

    ``rollouts`` deals a decision, ``candidates`` at most, within ``margin``
    points of equity of the best (a lone candidate is taken without simulating),
    ``plies`` turns after ours.  Once a 2-player game's box is empty it plays the
    endgame solver's move instead.  Decision ``t`` of a game is seeded from
    ``(seed, t)``, so a game is reproducible."""

    name = "sim"

    def __init__(self, seed: int = 0, rollouts: int = DEFAULT_ROLLOUTS, candidates: int = DEFAULT_CANDIDATES,
                 plies: int = DEFAULT_PLIES, margin: float = DEFAULT_MARGIN, model: LeaveModel | None = None) -> None:
        self.seed = seed
        self.rollouts = rollouts
        self.candidates = candidates
        self.plies = plies
        self.margin = margin
        self.model = model or default_model()

    def choose(self, view: View) -> Action:
        from .endgame_move import endgame_action   # the exact endgame once the box is empty
        solved = endgame_action(view)
        if solved is not None:
            return solved
        core = view.core()
        ranked = rank_actions(core, view.rack, view.box_size, self.model, limit=max(self.candidates, 1))
        chosen = top_candidates(ranked, self.candidates, self.margin)
        if len(chosen) <= 1 or self.rollouts < 1:
            return ranked[0].action()
        from .native import _kinds
        layout = view.layout
        cards = bytearray([EMPTY_SQUARE]) * layout.size
        jokers = bytearray(layout.size)
        for square, tile in view.board.items():
            cards[square] = tile[0]
            jokers[square] = 1 if tile[1] else 0
        setup = Setup(layout.width, layout.height, _kinds(layout), bytes(cards), bytes(jokers), view.rack,
                      view_context(view), chosen, self.plies, self.seed * 1000 + view.turn, self.model.weights,
                      self.model.returns)
        return simulate(setup, self.rollouts)[0].candidate.action()


__all__ = ["GameContext", "game_context", "view_context", "Setup", "SimResult", "SimPlayer", "simulate",
           "rollout_batch", "top_candidates", "setup_for", "deal"]
