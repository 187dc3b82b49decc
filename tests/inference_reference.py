"""Rack inference in plain Python, the yardstick of the compiled one (ginnycore.infer).

Every multiset of the pool's tiles is listed with itertools, weighed by the
product of C(pool count, count taken), its rack ranked by the Python equity
yardstick (tests/equity_reference.py), and kept when the action's equity is
within the margin of the best (1e-9 of rounding slack): a play's score plus
its leave's value, the best return of as many tiles (ties to the lowest tiles
returned), or a pass keeping the rack."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

from equity_reference import reference_ranking
from ginnycore import EMPTY_SQUARE
from ginnyo.odds.inference import PASS, PLAY, RETURN, Observed
from ginnyo.equity.leaves import LeaveModel
from ginnyo.native import empty_core
from ginnyo.vocab.tiles import JOKER

SLACK = 1e-9


def reference_infer(observed: Observed, model: LeaveModel, margin: float) -> dict[tuple[int, ...], float]:
    """Every leave kept (sorted tiles) with its weight, summed over the racks that keep it."""
    pool = [tile for tile in range(53) for _ in range(observed.pool[tile])]
    placed = [JOKER if joker else card for _, card, joker in observed.placements]
    hidden = observed.rack_size - len(placed)
    core = empty_core(observed.layout)
    state = observed.state
    kept: dict[tuple[int, ...], float] = {}
    score = None
    for chosen in sorted(set(combinations(pool, hidden))):
        counts = Counter(chosen)
        weight = math.prod(math.comb(observed.pool[tile], count) for tile, count in counts.items())
        rack = sorted(chosen + tuple(placed))
        core.load_tiles(_board(observed), rack)
        if score is None and observed.kind == PLAY:
            score, _ = core.score_play([s for s, _, _ in observed.placements],
                                       [c for _, c, _ in observed.placements], [j for _, _, j in observed.placements])
        best = reference_ranking(core.legal_plays(), rack, observed.box_size, model, state=state)[0]
        if observed.kind == PLAY:
            assert score is not None
            leave = tuple(sorted(chosen))
            equity = score + model.value(leave, observed.box_size, state)
        elif observed.kind == RETURN:
            leave, value = (), -math.inf
            for returned in combinations(rack, observed.returned):
                rest = list(rack)
                for tile in returned:
                    rest.remove(tile)
                candidate = model.value(rest, observed.box_size, state)
                if round(candidate, 9) > round(value, 9):
                    leave, value = tuple(rest), candidate
            equity = value + model.return_value(observed.box_size, state)
        else:
            assert observed.kind == PASS
            leave = tuple(rack)
            equity = model.value(rack, observed.box_size, state)
        if equity >= best.equity - margin - SLACK:
            kept[leave] = kept.get(leave, 0.0) + weight
    return kept


def _board(observed: Observed) -> dict[int, tuple[int, bool]]:
    return {square: (observed.cards[square], bool(observed.jokers[square]))
            for square in range(observed.layout.size) if observed.cards[square] != EMPTY_SQUARE}


def reference_condition(observed: Observed, kept: list[tuple[bytes, float]]) -> dict[tuple[int, ...], float]:
    """The kept leaves (53 counts each, with their weights) summed by leave and
    conditioned on the tiles seen since (``pool - unseen_now``): each leave's
    weight times the ways those tiles could have been drawn from what it left."""
    pool, now = observed.pool, observed.unseen_now
    weights: dict[tuple[int, ...], float] = {}
    for counts, weight in kept:
        ways = weight
        for tile in range(53):
            seen = pool[tile] - now[tile]
            if seen > 0:
                ways *= math.comb(max(pool[tile] - counts[tile], 0), seen)
            elif counts[tile] > now[tile]:
                ways = 0.0
        if ways:
            leave = tuple(tile for tile in range(53) for _ in range(counts[tile]))
            weights[leave] = weights.get(leave, 0.0) + ways
    return weights
