"""The equity ranking in Python, the yardstick of the compiled one (ginnycore.equity).

This is what ginnyo.equity did before the ranking moved into C: the core's
plays valued with numpy leave features (ginnyo.equity.leaves.LeaveModel.values), the
returns built as tuples.  ``every_subset`` chooses the returns: all distinct
non-empty multisets of the rack (what the compiled ranking considers), or the
old rule (one or two tiles, or keeping at most three: 129 of 8 different tiles).
Ranked with :func:`reference_key`, the core's play order (square, joker?, card).
The leave values are those of the game ``state`` (ginnyo.equity.leaves.LeaveState;
None: the default one)."""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

import numpy as np

from ginnyo.equity.rank import PASS_KIND, PLAY, RETURN, Candidate
from ginnyo.equity.leaves import TILES, LeaveModel, LeaveState, counts_of
from ginnyo.vocab.tiles import JOKER

OLD_KEEP_AT_MOST = 3      # the old rule: returns that keep at most this many tiles ...
OLD_RETURN_AT_MOST = 2    # ... or give back at most this many


def reference_key(candidate: Candidate) -> tuple[Any, ...]:
    """Best first: equity to 1e-9, score, plays before returns before a pass, then
    a play as the core ranks it (ScoredPlay.sort_key), a return by size and tiles."""
    kind = (PLAY, RETURN, PASS_KIND).index(candidate.kind)
    jokers = sum(1 for placement in candidate.placements if placement[2])
    placements = tuple((square, joker, card) for square, card, joker in candidate.placements)
    return (-round(candidate.equity, 9), -candidate.score, kind, jokers, -len(candidate.placements),
            len(candidate.returned), placements, candidate.returned)


def plays_ranked(plays: Sequence[tuple[int, Any]], rack: Sequence[int], box_size: int,
                 model: LeaveModel, state: LeaveState | None = None) -> list[Candidate]:
    """The core's plays (``(score, placements)``) as candidates."""
    if not plays:
        return []
    counts = np.repeat(counts_of(rack)[None, :], len(plays), axis=0)
    rows, tiles = [], []
    for row, (_, placements) in enumerate(plays):
        for _, card, joker in placements:
            rows.append(row)
            tiles.append(JOKER if joker else card)
    np.subtract.at(counts, (np.array(rows), np.array(tiles)), 1)
    values = model.values(counts, box_size, state)
    candidates = []
    for row, (score, placements) in enumerate(plays):
        leave = list(rack)
        for _, card, joker in placements:
            leave.remove(JOKER if joker else card)
        candidates.append(Candidate(PLAY, score, tuple(leave), float(values[row]), placements))
    return candidates


def returns_ranked(rack: Sequence[int], box_size: int, model: LeaveModel, every_subset: bool = True,
                   state: LeaveState | None = None) -> list[Candidate]:
    """The returns considered, none when the box or the rack is empty."""
    if box_size <= 0 or not rack:
        return []
    tiles = sorted(rack)
    size = len(tiles)
    returns: set[tuple[int, ...]] = set()
    for count in range(1, size + 1):
        if every_subset or count <= OLD_RETURN_AT_MOST or size - count <= OLD_KEEP_AT_MOST:
            returns.update(combinations(tiles, count))
    ordered = sorted(returns)
    leaves = []
    for returned in ordered:
        kept = list(tiles)
        for tile in returned:
            kept.remove(tile)
        leaves.append(tuple(kept))
    counts = np.zeros((len(ordered), TILES), dtype=np.int16)
    for row, leave in enumerate(leaves):
        for tile in leave:
            counts[row, tile] += 1
    values = model.values(counts, box_size, state) + model.return_value(box_size, state)
    return sorted((Candidate(RETURN, 0, leave, float(value), (), returned)
                   for returned, leave, value in zip(ordered, leaves, values)), key=reference_key)


def reference_ranking(plays: Sequence[tuple[int, Any]], rack: Sequence[int], box_size: int, model: LeaveModel,
                      *, returns: bool = True, every_subset: bool = True, state: LeaveState | None = None
                      ) -> list[Candidate]:
    """Every play and the returns considered, best first; the best return alone
    for a player without a play when returns are not asked for; else a pass."""
    candidates = plays_ranked(plays, rack, box_size, model, state)
    if model.open_first and state is not None and not state.opened and plays:
        returns = False     # an opening is never declined
    if returns:
        candidates += returns_ranked(rack, box_size, model, every_subset, state)
    candidates.sort(key=reference_key)
    if not candidates and box_size > 0:
        candidates = returns_ranked(rack, box_size, model, every_subset, state)[:1]
    if not candidates:
        candidates = [Candidate(PASS_KIND, 0, tuple(sorted(rack)), model.value(rack, box_size, state))]
    return candidates
