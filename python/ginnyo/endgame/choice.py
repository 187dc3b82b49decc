"""The endgame solvers' move as a decision (docs/ENDGAME.md): what the equity and
sim players play once a 2-player game's box is empty (:func:`endgame_action`),
and the exact endgame and the pre-endgame in the decisions of ``best-move
--endgame`` (and ``--equity``/``--sim`` in such positions) and the engine's ``go
endgame [S]`` (:func:`solver_move`, :func:`go_endgame`).  The pre-endgame
ranking loads only when a decision needs it, so the players need not load it.
Plain ``best-move`` and ``go`` stay the highest-scoring play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import GinnyoError
from ..support.number_text import number
from ..game.actions import PASS, Action, Place, Return, action_notation
from ..position.position import Position
from ..support.files import quote

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
                 f"chosen by the {self.source} solver: {what} {number(self.spread, '+g')} for the player to move ({status})"]
        if self.source == ENDGAME:
            lines.append("line: " + " | ".join(self.details["line"]))
        else:
            lines.append(f"{self.details['box']} tiles in the box, {self.details['racks']} opponent racks, "
                         f"{self.details['solves']} endgame solves, {self.details['seconds']:.2f} s")
            for rank, choice in enumerate(self.details["candidates"], 1):
                value = ("not evaluated" if choice["expected_spread"] is None
                         else number(choice['expected_spread'], "+9.3f"))
                lines.append(f"{rank:>2}. {choice['notation']:<28} score {choice['score']:>4}  {value}"
                             f"{'' if choice['proven'] else '  (not proven)'}")
        return lines


def endgame_move(position: Position, seconds: float | None, quiet_turns: int,
                 nodes: int | None = None) -> SolverMove:
    """The endgame solver's first move as a :class:`SolverMove` (its line in the details)."""
    from .exact import solve
    from ..vocab.rules import quiet_turn_limit
    opened = bool(position.board)
    after_pass = quiet_turns + 1 >= quiet_turn_limit(2, opened)   # a pass now ends the game
    result = solve(position, seconds, after_pass=after_pass, nodes=nodes)
    first = result.moves[0]
    action: Action = PASS if first.play is None else Place(first.play)
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


#: the budget of a decision in ``best-move`` and ``go endgame`` (seconds)
COMMAND_SECONDS = 10.0


def solver_move(position: Position, seconds: float | None = None, *, quiet_turns: int = 0,
                preendgame: bool = True) -> SolverMove | None:
    """The solver's move when ``position`` is a 2-player endgame (empty box) or,
    with ``preendgame``, a pre-endgame (1 to :data:`ginnyo.preendgame.MAX_BOX`
    tiles in the box); None for any other position.  ``quiet_turns``: turns in a
    row without a play before this one (the stall clock of docs/RULES.md §6)."""
    from .exact import is_endgame
    if is_endgame(position):
        return endgame_move(position, seconds, quiet_turns)
    from .preendgame import is_preendgame, rank
    if not preendgame or not is_preendgame(position):
        return None
    result = rank(position, seconds, quiet_turns=quiet_turns)
    best = result.best
    spread = 0.0 if best.expected is None else round(best.expected, 4)
    details = {"kind": best.candidate.kind, "box": result.box, "racks": result.racks, "solves": result.solves,
               "seconds": round(result.seconds, 3), "candidates": [choice.to_json() for choice in result.choices]}
    return SolverMove(PREENDGAME, best.candidate.action(), best.notation, best.candidate.score, spread,
                      result.proven, details)


# -- the engine ------------------------------------------------------------------------------------

def go_endgame(position: Position, argument: str) -> list[str]:
    """The engine's ``go endgame [S]``: ``info string`` lines and the ``bestmove`` of
    the solver in an endgame or pre-endgame; else one ``info string`` line saying
    so, after which the engine answers as plain ``go``."""
    move = solver_move(position, _go_seconds(argument))
    if move is None:
        return ["info string not an endgame or pre-endgame: the highest-scoring play"]
    status = "proven" if move.proven else "not-proven"
    lines = [f"info string {move.source} spread {number(move.spread, '+g')} {status}"]
    if isinstance(move.action, Place):
        lines.append(f"bestmove {move.notation}")
    elif isinstance(move.action, Return):
        lines.append("bestmove none " + action_notation(position, move.action))
    else:
        lines.append("bestmove none pass")
    return lines


def _go_seconds(argument: str) -> float:
    import math
    words = argument.split()
    if len(words) == 1:
        return COMMAND_SECONDS
    if len(words) == 2:
        try:
            seconds = float(words[1])
        except ValueError:
            seconds = math.nan
        if math.isfinite(seconds) and 0 < seconds <= 3600:
            return seconds
    raise GinnyoError(f"go endgame: expected 'go endgame' or 'go endgame S' (0 < S <= 3600 seconds), "
                      f"got {quote(argument)}")


__all__ = ["COMMAND_SECONDS", "ENDGAME", "PLAYER_NODES", "PREENDGAME", "SolverMove", "endgame_action", "endgame_move",
           "go_endgame", "solver_move"]
