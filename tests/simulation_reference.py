"""The simulation's rollouts in Python, the yardstick of the compiled ones (ginnycore.simulate).

This is what ginnyo.simulation did before the rollouts moved into C, on the
same deals: each rollout's racks and box come from :func:`ginnyo.simulation.deal`,
and where a returned tile goes from :class:`SplitMix64`, a port of the core's
generator (src/ginnycore/splitmix.pxd).  Every turn is the compiled core's
best play (greedy) or the first action of :func:`ginnyo.equity.rank_actions`
(equity); leaves are valued with numpy (ginnyo.leaves.features)."""

from __future__ import annotations

from functools import partial
from typing import Sequence

import numpy as np

from ginnycore import EMPTY_SQUARE, MAX_PLACED, Core
from ginnyo.equity import PLAY, RETURN, Candidate, rank_actions
from ginnyo.layout import core_premiums
from ginnyo.leaves import TILES, LeaveModel, features, stage_of
from ginnyo.rules import RACK_SIZE, quiet_turn_limit, tile_to_return
from ginnyo.simulation import Setup, deal
from ginnyo.tiles import JOKER, rack_penalty

MASK = (1 << 64) - 1


class SplitMix64:
    """src/ginnycore/splitmix.pxd in Python: the same numbers from the same seed."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def reference_outcomes(setup: Setup, indices: Sequence[int]) -> list[list[float]]:
    """The outcome of every candidate (a column each) in rollouts ``indices`` (a row each)."""
    core = Core(setup.width, setup.height, *core_premiums(setup.kinds))
    model = LeaveModel(setup.weights, setup.returns)
    rows = []
    for index in indices:
        hands, box, returns_seed = deal(setup.context.unseen, setup.context.opponent_racks, setup.seed, index)
        row = []
        for candidate in setup.candidates:
            points, ended, leaves = play_out(core, setup, model, candidate, [list(h) for h in hands], list(box),
                                             SplitMix64(returns_seed))
            if candidate.kind == RETURN and not setup.plies:   # no turn played after: count the lost one
                points += model.return_value(setup.context.box_size)
            if not ended and leaves:
                counts = np.zeros((len(leaves), TILES), dtype=np.int16)
                for line, (tiles, _, _) in enumerate(leaves):
                    for tile in tiles:
                        counts[line, tile] += 1
                weights = model.matrix[[stage_of(box_size) for _, box_size, _ in leaves]]
                values = (features(counts) * weights).sum(axis=1)
                for line, (_, _, sign) in enumerate(leaves):
                    points += sign * float(values[line])
            row.append(points)
        rows.append(row)
    return rows


def play_out(core: Core, setup: Setup, model: LeaveModel, candidate: Candidate, hands: list[list[int]],
             box: list[int], rng: SplitMix64) -> tuple[float, bool, list[tuple[list[int], int, float]]]:
    """One candidate on one deal: (points difference, whether the game ended,
    the leaves to value with their sign)."""
    context = setup.context
    players = context.players
    opponents = players - 1
    cards = bytearray(setup.cards)
    jokers = bytearray(setup.jokers)
    racks = [list(setup.rack)] + hands          # racks[0] is ours, then in turn order
    points = [0.0] * players
    last_leave: list[tuple[list[int], int] | None] = [None] * players
    passes = 0
    quiet_limit = partial(quiet_turn_limit, players, rules=context.rules, stall_rounds=context.stall_rounds)
    quiet = context.quiet_turns + (candidate.kind != PLAY)   # the game-end clock (docs/RULES.md §6)
    opened = candidate.kind == PLAY or cards.count(EMPTY_SQUARE) < len(cards)
    rack = racks[0]
    if candidate.kind == PLAY:
        for square, card, joker in candidate.placements:
            cards[square] = card
            jokers[square] = 1 if joker else 0
            rack.remove(JOKER if joker else card)
        points[0] += candidate.score
    elif candidate.kind == RETURN:
        give_back(rack, box, candidate.returned, rng)
    else:
        passes = 1
    last_leave[0] = (list(rack), context.box_size)
    refill(rack, box, True)
    ended = quiet >= quiet_limit(opened)
    for ply in range(0 if ended else setup.plies):
        seat = (ply + 1) % players
        rack = racks[seat]
        ours = seat == 0
        if box and len(rack) < MAX_PLACED:
            rack.append(box.pop() if ours else box.pop(0))
        counts = bytearray(TILES)
        for tile in rack:
            counts[tile] += 1
        core.load(cards, jokers, counts)
        score, placements, returned = choose(core, rack, len(box), setup.policy, model)
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
            give_back(rack, box, returned, rng)
            passes = 0
        else:
            passes += 1
        if not placements:
            quiet += 1
        last_leave[seat] = (list(rack), len(box))
        refill(rack, box, ours)
        if passes >= players or quiet >= quiet_limit(opened):
            ended = True
            break
    if ended:
        for seat in range(players):
            points[seat] -= sum(rack_penalty(tile) for tile in racks[seat])
        return points[0] - sum(points[1:]) / opponents, True, []
    leaves = [(leave[0], leave[1], 1.0 if seat == 0 else -1.0 / opponents)
              for seat, leave in enumerate(last_leave) if leave is not None]
    return points[0] - sum(points[1:]) / opponents, False, leaves


def give_back(rack: list[int], box: list[int], returned: Sequence[int], rng: SplitMix64) -> None:
    """Returned tiles leave the rack and go into the box one by one, each at a random place."""
    for tile in returned:
        rack.remove(tile)
    for tile in returned:
        box.insert(rng.below(len(box) + 1), tile)


def refill(rack: list[int], box: list[int], ours: bool) -> None:
    """Draw up to 7: we from the end of the box, the others from the front."""
    while len(rack) < RACK_SIZE and box:
        rack.append(box.pop() if ours else box.pop(0))


def choose(core: Core, rack: list[int], box_size: int, policy: str, model: LeaveModel
           ) -> tuple[int, tuple[tuple[int, int, bool], ...], tuple[int, ...]]:
    """A rollout turn: ``(score, placements, returned)``, all empty for a pass."""
    if policy == "equity":
        best = rank_actions(core, rack, box_size, model, limit=1)[0]
        return best.score, best.placements, best.returned
    found = core.best_play()
    if found is not None:
        return found[0], found[1], ()
    returned = tile_to_return(rack) if box_size else None
    return 0, (), (() if returned is None else (returned,))
