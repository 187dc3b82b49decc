"""Equity: plays and returns ranked by score plus the value of the leave.

The equity of an action is its score plus the value (:mod:`ginnyo.leaves`) of
the tiles it keeps on the rack.  A return (the sheet's discard or exchange)
scores 0 and keeps the rest, so it is ranked on the same scale as the plays.
The returns considered are every return of one or two tiles and every return
that keeps at most three (129 with 8 different tiles: 8 + 28 of one or two,
56 + 28 + 8 + 1 keeping three to none); returns need a tile in the box.  With an empty box and
no play the only action is a pass, which keeps the whole rack.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .actions import PASS, Action, Place, Return
from .leaves import TILES, LeaveModel, counts_of, default_model
from .tiles import JOKER

if TYPE_CHECKING:
    from ginnycore import Core

    from .game import View
    from .position import Position

Placements = tuple[tuple[int, int, bool], ...]
PLAY, RETURN, PASS_KIND = "play", "return", "pass"
KEEP_AT_MOST = 3      # returns that keep at most this many tiles ...
RETURN_AT_MOST = 2    # ... or give back at most this many


@dataclass(frozen=True)
class Candidate:
    """One action with its equity: ``kind`` is ``play``, ``return`` or ``pass``;
    ``placements`` (a play's, as the core gives them) or ``returned`` tiles."""

    kind: str
    score: int
    leave: tuple[int, ...]
    leave_value: float
    placements: Placements = ()
    returned: tuple[int, ...] = ()

    @property
    def equity(self) -> float:
        return self.score + self.leave_value

    def action(self) -> Action:
        """The game action this candidate is."""
        if self.kind == PLAY:
            from .native import to_play
            return Place(to_play(self.placements))
        if self.kind == RETURN:
            return Return(self.returned)
        return PASS

    def sort_key(self) -> tuple[float, int, int, int, int, int, Any]:
        """Best first: higher equity (to 1e-9), then as best-move ranks plays (higher
        score, fewer jokers, more tiles, placements), plays before returns, and
        returns of fewer tiles first."""
        jokers = sum(1 for placement in self.placements if placement[2])
        return (-round(self.equity, 9), -self.score, self.kind != PLAY, jokers, -len(self.placements),
                len(self.returned), (self.placements, self.returned))


def rank_core_plays(plays: Sequence[tuple[int, Placements]], rack: Sequence[int], box_size: int,
                    model: LeaveModel) -> list[Candidate]:
    """The core's plays (``(score, placements)``) as candidates, best equity first."""
    if not plays:
        return []
    rack_counts = counts_of(rack)
    counts = np.repeat(rack_counts[None, :], len(plays), axis=0)
    rows, tiles = [], []
    for row, (_, placements) in enumerate(plays):
        for _, card, joker in placements:
            rows.append(row)
            tiles.append(JOKER if joker else card)
    np.subtract.at(counts, (np.array(rows), np.array(tiles)), 1)
    values = model.values(counts, box_size)
    candidates = []
    for row, (score, placements) in enumerate(plays):
        leave = list(rack)
        for _, card, joker in placements:
            leave.remove(JOKER if joker else card)
        candidates.append(Candidate(PLAY, score, tuple(leave), float(values[row]), placements))
    candidates.sort(key=Candidate.sort_key)
    return candidates


def return_candidates(rack: Sequence[int], box_size: int, model: LeaveModel) -> list[Candidate]:
    """The returns considered (see the module's doc), best equity first; none
    when the box is empty."""
    if box_size <= 0 or not rack:
        return []
    tiles = sorted(rack)
    size = len(tiles)
    returns: set[tuple[int, ...]] = set()
    for count in range(1, size + 1):
        if count <= RETURN_AT_MOST or size - count <= KEEP_AT_MOST:
            returns.update(combinations(tiles, count))
    ordered = sorted(returns)
    leaves: list[tuple[int, ...]] = []
    for returned in ordered:
        kept = list(tiles)
        for tile in returned:
            kept.remove(tile)
        leaves.append(tuple(kept))
    counts = np.zeros((len(ordered), TILES), dtype=np.int16)
    for row, leave in enumerate(leaves):
        for tile in leave:
            counts[row, tile] += 1
    values = model.values(counts, box_size) + model.return_value(box_size)
    candidates = [Candidate(RETURN, 0, leave, float(value), (), returned)
                  for returned, leave, value in zip(ordered, leaves, values)]
    candidates.sort(key=Candidate.sort_key)
    return candidates


def rank_actions(core: Core, rack: Sequence[int], box_size: int, model: LeaveModel | None = None,
                 *, returns: bool = True) -> list[Candidate]:
    """Every legal play and the returns considered, best equity first; a pass
    alone when there is neither (the box empty and no play)."""
    model = model or default_model()
    candidates = rank_core_plays(core.legal_plays(), rack, box_size, model)
    if returns:
        candidates += return_candidates(rack, box_size, model)
        candidates.sort(key=Candidate.sort_key)
    if not candidates and box_size > 0:   # returns were not asked for, but a player without a play must return
        candidates = return_candidates(rack, box_size, model)[:1]
    if not candidates:   # an empty box (or rack) and no play: pass
        candidates = [Candidate(PASS_KIND, 0, tuple(sorted(rack)), model.value(rack, box_size))]
    return candidates


def best_action(core: Core, rack: Sequence[int], box_size: int, model: LeaveModel | None = None) -> Candidate:
    """The action of highest equity."""
    return rank_actions(core, rack, box_size, model)[0]


def position_box_size(position: Position) -> int:
    """How many tiles the box holds in a static position: the unseen tiles
    (the ``unseen`` field, or all those not on the board or the rack) less the
    other players' racks (7 each).  See :func:`ginnyo.simulation.unseen_tiles`."""
    from .simulation import game_context
    return game_context(position).box_size


def rank_position(position: Position, model: LeaveModel | None = None) -> list[Candidate]:
    """The actions of a static position, best equity first."""
    from .native import core_of
    return rank_actions(core_of(position), position.rack, position_box_size(position), model)


class EquityPlayer:
    """Takes the action of highest equity: score plus leave value, returns included;
    the endgame solver's move once a 2-player game's box is empty."""

    name = "equity"

    def __init__(self, model: LeaveModel | None = None) -> None:
        self.model = model or default_model()

    def choose(self, view: View) -> Action:
        from .endgame_choice import endgame_action   # the exact endgame once the box is empty
        return endgame_action(view) or best_action(view.core(), view.rack, view.box_size, self.model).action()


# -- the command ----------------------------------------------------------------------------------

def candidate_notation(position: Position, candidate: Candidate) -> str:
    """A play in move notation, ``return AS 7H`` or ``pass``."""
    from .actions import action_notation
    return action_notation(position, candidate.action())


def candidate_json(position: Position, candidate: Candidate) -> dict[str, Any]:
    """One candidate for ``best-move --equity/--sim --json``: what it does, its
    score, the leave kept, the leave's value and the equity."""
    from .tiles import rack_code
    name = position.layout.square_name
    data: dict[str, Any] = {
        "kind": candidate.kind,
        "notation": candidate_notation(position, candidate),
        "score": candidate.score,
        "placements": {name(square): _tile_code(card, joker)
                       for square, card, joker in candidate.placements},
        "leave": [rack_code(tile) for tile in candidate.leave],
        "leave_value": round(candidate.leave_value, 3),
        "equity": round(candidate.equity, 3),
    }
    if candidate.kind == RETURN:
        data["return"] = [rack_code(tile) for tile in candidate.returned]
    return data


def _tile_code(card: int, joker: bool) -> str:
    from .tiles import tile_code
    return tile_code(card, joker)


def candidate_line(position: Position, candidate: Candidate) -> str:
    """One candidate for people: notation, score, leave, leave value, equity."""
    from .tiles import rack_code
    leave = " ".join(rack_code(tile) for tile in candidate.leave) or "-"
    return (f"{candidate_notation(position, candidate):<28} score {candidate.score:>4}  "
            f"leave {leave:<24} {candidate.leave_value:+6.1f}  equity {candidate.equity:+7.1f}")


def cmd_best_move_equity(args: Any, position: Position, model: LeaveModel) -> int:
    """``ginnyo best-move --equity``: the actions ranked by equity (``--candidates K`` shown)."""
    import json
    from .native import core_of
    box_size = position_box_size(position)
    ranked = rank_actions(core_of(position), position.rack, box_size, model)
    shown = ranked[:args.candidates]
    if args.json:
        print(json.dumps({"box": box_size, "best": candidate_json(position, ranked[0]),
                          "candidates": [candidate_json(position, candidate) for candidate in shown]}))
        return 0
    print(f"ranked by equity = score + leave value ({box_size} tiles in the box):")
    for rank, candidate in enumerate(shown, 1):
        print(f"{rank:>2}. {candidate_line(position, candidate)}")
    return 0


__all__ = ["Candidate", "EquityPlayer", "rank_actions", "rank_core_plays", "return_candidates", "best_action",
           "rank_position", "position_box_size", "PLAY", "RETURN", "PASS_KIND"]
