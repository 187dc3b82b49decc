"""The exact endgame solver's move as a decision (docs/ENDGAME.md): what
``best-move``, ``go endgame`` and the equity and sim players play once a
2-player game's box is empty.  The pre-endgame ranking sits above this, in
:mod:`ginnyo.endgame_choice`, so the players need not load it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..game.actions import PASS, Action, Place
from ..position.position import Position

if TYPE_CHECKING:
    from ..game.game import View

#: the budget of an endgame decision of a player in a game, in search nodes rather
#: than seconds so that a game replays the same from its seed on any machine
PLAYER_NODES = 500_000
ENDGAME, PREENDGAME = "endgame", "pre-endgame"


@dataclass(frozen=True)
class SolverMove:
    """The solver's choice: ``source`` (``endgame`` or ``pre-endgame``), the action,
    its notation and score, the spread (exact endgame) or expected spread
    (pre-endgame), whether it is proven, and what else the solver says."""

    source: str
    action: Action
    notation: str
    score: int
    spread: float
    proven: bool
    details: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "notation": self.notation, "score": self.score,
                "spread": self.spread, "proven": self.proven, **self.details}

    def lines(self) -> list[str]:
        """For people: the move, the spread and where the choice came from."""
        what = "spread" if self.source == ENDGAME else "expected spread"
        status = "proven" if self.proven else "NOT proven: the time ran out"
        lines = [f"{self.notation}  score {self.score}",
                 f"chosen by the {self.source} solver: {what} {self.spread:+g} for the player to move ({status})"]
        if self.source == ENDGAME:
            lines.append("line: " + " | ".join(self.details["line"]))
        else:
            lines.append(f"{self.details['box']} tiles in the box, {self.details['racks']} opponent racks, "
                         f"{self.details['solves']} endgame solves, {self.details['seconds']:.2f} s")
            for rank, choice in enumerate(self.details["candidates"], 1):
                value = ("not evaluated" if choice["expected_spread"] is None
                         else f"{choice['expected_spread']:+9.3f}")
                lines.append(f"{rank:>2}. {choice['notation']:<28} score {choice['score']:>4}  {value}"
                             f"{'' if choice['proven'] else '  (not proven)'}")
        return lines


def endgame_move(position: Position, seconds: float | None, quiet_turns: int,
                 nodes: int | None = None) -> SolverMove:
    """The endgame solver's first move as a :class:`SolverMove` (its line in the details)."""
    from .exact import solve
    from ..rules import quiet_turn_limit
    opened = bool(position.board)
    after_pass = quiet_turns + 1 >= quiet_turn_limit(2, opened)   # a pass now ends the game
    result = solve(position, seconds, after_pass=after_pass, nodes=nodes)
    first = result.moves[0]
    action: Action = PASS
    if first.notation != "pass":
        from ..solver import score_play
        action = Place(score_play(position, first.notation).play)
    details = {"kind": "play" if first.notation != "pass" else "pass", "line": list(result.line),
               "nodes": result.nodes, "seconds": round(result.seconds, 3)}
    return SolverMove(ENDGAME, action, first.notation, first.score, result.spread, result.proven, details)


def endgame_action(view: View, nodes: int = PLAYER_NODES) -> Action | None:
    """A player's action once a 2-player game's box is empty: the endgame solver's
    first move (within about ``nodes`` search nodes), or None when the game is no
    such endgame."""
    if view.players != 2 or view.box_size:
        return None
    from .exact import is_endgame
    position = view.position
    if not is_endgame(position):    # the box ran out on a first draw: 8 tiles on the other rack
        return None
    return endgame_move(position, None, view.quiet_turns, nodes).action


__all__ = ["ENDGAME", "PLAYER_NODES", "PREENDGAME", "SolverMove", "endgame_action", "endgame_move"]
