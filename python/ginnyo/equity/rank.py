"""Equity: plays and returns ranked by score plus the value of the leave.

The equity of an action is its score plus the value (:mod:`ginnyo.leaves`) of
the tiles it keeps on the rack.  A return (the sheet's discard or exchange)
scores 0 and keeps the rest, so it is ranked on the same scale as the plays.
Every return is considered: each distinct non-empty multiset of the rack's
tiles (255 of 8 different tiles); returns need a tile in the box.  With an
empty box and no play the only action is a pass, which keeps the whole rack.
The leave values see the game state (:class:`ginnyo.leaves.LeaveState`: the
player count, a meld down or not, the stall clock): :func:`leave_state` gives
it for a static position and a game's view alike.  The ranking runs in C (:mod:`ginnycore.equity`, its doc gives the tie-break).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..game.actions import PASS, Action, Place, Return
from .leaves import PENALTY, PLAYER_COUNTS, STAGES, LeaveModel, LeaveState, default_model
from ..vocab.play import play_rank_key
from ..vocab.tiles import JOKER

if TYPE_CHECKING:
    from ..native.core import Core
    from ..native.equity import LeaveModel as CompiledLeaves

    from ..position.context import Decision

Placements = tuple[tuple[int, int, bool], ...]
PLAY, RETURN, PASS_KIND = "play", "return", "pass"
COMPILED_PLAY, COMPILED_RETURN, COMPILED_PASS = 0, 1, 2    # the compiled ranking's kinds (ginnycore.equity)


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
            from ..native import to_play
            return Place(to_play(self.placements))
        if self.kind == RETURN:
            return Return(self.returned)
        return PASS

    def sort_key(self) -> tuple[float, bool, tuple[int, int, int, Any], int, tuple[int, ...]]:
        """Best first: higher equity (to 1e-9), plays before returns, plays as
        best-move ranks them (:func:`ginnyo.vocab.play.play_rank_key`: score, jokers,
        tiles, placements), and returns of fewer tiles first."""
        return (-round(self.equity, 9), self.kind != PLAY, play_rank_key(self.score, self.placements),
                len(self.returned), self.returned)


def compiled_model(model: LeaveModel) -> CompiledLeaves:
    """``model`` in C (ginnycore.equity.LeaveModel), made once a model."""
    compiled: CompiledLeaves | None = model.__dict__.get("_compiled")
    if compiled is None:
        from ginnyo.native.equity import LeaveModel as Compiled
        def parts(one: LeaveModel) -> tuple[Any, Any, Any]:
            return one.weights, one.returns, one.state_weights
        compiled = Compiled(*parts(model)[:2], STAGES, PENALTY, parts(model)[2],
                            {players: parts(model.of(players)) for players in PLAYER_COUNTS[1:]}, model.open_first)
        object.__setattr__(model, "_compiled", compiled)
    return compiled


def candidate_of(action: tuple[int, int, float, Placements, tuple[int, ...]], rack: Sequence[int]) -> Candidate:
    """A :class:`Candidate` from the compiled ranking's ``(kind, score, leave
    value, placements, returned)``, its leave taken from ``rack``."""
    kind, score, value, placements, returned = action
    if kind == COMPILED_PLAY:
        leave = list(rack)
        for _, card, joker in placements:
            leave.remove(JOKER if joker else card)
        return Candidate(PLAY, score, tuple(leave), value, placements)
    kept = sorted(rack)
    for tile in returned:
        kept.remove(tile)
    return Candidate(RETURN if kind == COMPILED_RETURN else PASS_KIND, score, tuple(kept), value, (), returned)


def rank_actions(core: Core, rack: Sequence[int], box_size: int, model: LeaveModel | None = None,
                 *, returns: bool = True, limit: int | None = None, state: LeaveState | None = None
                 ) -> list[Candidate]:
    """The first ``limit`` actions (all when None) by equity, best first, ranked
    in C (ginnycore.equity) in the game ``state`` (None: 2 players, a meld down,
    the clock at 0): every legal play of the core's position (its rack is
    ``rack``) and, with ``returns``, every return; the best return alone for a
    player without a play otherwise; a pass alone when there is neither (the
    box empty and no play)."""
    from ginnyo.native.equity import rank_core
    ranked = rank_core(core, compiled_model(model or default_model()), box_size, returns, limit,
                       state.as_tuple() if state is not None else None)
    return [candidate_of(action, rack) for action in ranked]


def best_action(core: Core, rack: Sequence[int], box_size: int, model: LeaveModel | None = None,
                state: LeaveState | None = None) -> Candidate:
    """The action of highest equity."""
    return rank_actions(core, rack, box_size, model, limit=1, state=state)[0]


def leave_state(decision: Decision) -> LeaveState:
    """The game state the leave model sees in a decision, a static position or a
    game's view alike (:class:`LeaveState`, from ``decision.game_context``): its
    players, a meld down or not, the stall clock (0 for a static position)."""
    context = decision.game_context
    return LeaveState(context.players, context.opened, context.quiet_turns, context.quiet_limit)


def rank_position(position: Decision, model: LeaveModel | None = None, limit: int | None = None
                  ) -> list[Candidate]:
    """The first ``limit`` actions (all when None) of a static position, best
    equity first, in its game context."""
    from ..native import core_of
    return rank_actions(core_of(position), position.rack, position.game_context.box_size, model, limit=limit,
                        state=leave_state(position))


def rank_positions(positions: Sequence[Decision], model: LeaveModel | None = None, limit: int = 5,
                   threads: int = 1) -> list[list[Candidate]]:
    """The first ``limit`` actions of each static position (of one layout), best
    equity first, ranked in one call of the compiled core on ``threads`` threads."""
    from ginnyo.native.equity import rank_batch

    from ..native import Batch
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a whole number of at least 1, not {limit!r}")
    batch = Batch(list(positions))
    n = len(batch)
    box_sizes = np.array([position.game_context.box_size for position in positions], dtype=np.int32)
    states = np.array([leave_state(position).as_tuple() for position in positions], dtype=np.int64).reshape(n, 4)
    kinds = np.empty((n, limit), dtype=np.int8)
    scores = np.empty((n, limit), dtype=np.int32)
    values = np.empty((n, limit), dtype=np.float64)
    squares = np.empty((n, limit, 14), dtype=np.int16)
    cards = np.empty((n, limit, 14), dtype=np.int8)
    jokers = np.empty((n, limit, 14), dtype=np.uint8)
    counts = np.empty(n, dtype=np.int32)
    rank_batch(batch._core, compiled_model(model or default_model()), batch.boards, batch.racks, box_sizes,
               kinds, scores, values, squares, cards, jokers, counts, True, threads, states)
    if (counts < 0).any():
        raise MemoryError("the equity ranking did not fit in memory")
    result = []
    for row, position in enumerate(positions):
        ranked = []
        for index in range(int(counts[row])):
            placed = squares[row, index] >= 0
            placements = tuple((int(square), int(card), bool(joker)) for square, card, joker
                               in zip(squares[row, index][placed], cards[row, index][placed],
                                      jokers[row, index][placed]))
            returned = tuple(int(card) for card in cards[row, index][~placed] if card >= 0)
            ranked.append(candidate_of((int(kinds[row, index]), int(scores[row, index]),
                                        float(values[row, index]), placements, returned), position.rack))
        result.append(ranked)
    return result


# -- candidates for people and as JSON (best-move --equity/--sim) ---------------------------------

def candidate_notation(position: Decision, candidate: Candidate) -> str:
    """A play in move notation, ``return AS 7H`` or ``pass``."""
    from ..game.actions import action_notation
    return action_notation(position, candidate.action())


def candidate_json(position: Decision, candidate: Candidate) -> dict[str, Any]:
    """One candidate for ``best-move --equity/--sim --json``: what it does, its
    score, the leave kept, the leave's value and the equity."""
    from ..vocab.tiles import rack_code
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
    from ..vocab.tiles import tile_code
    return tile_code(card, joker)


def candidate_line(position: Decision, candidate: Candidate) -> str:
    """One candidate for people: notation, score, leave, leave value, equity."""
    from ..support.number_text import number
    from ..vocab.tiles import rack_code
    leave = " ".join(rack_code(tile) for tile in candidate.leave) or "-"
    return (f"{candidate_notation(position, candidate):<28} score {candidate.score:>4}  "
            f"leave {leave:<24} {number(candidate.leave_value, '+6.1f')}  equity {number(candidate.equity, '+7.1f')}")


__all__ = ["Candidate", "rank_actions", "best_action", "compiled_model", "candidate_of",
           "rank_position", "rank_positions", "leave_state", "PLAY", "RETURN",
           "PASS_KIND"]
