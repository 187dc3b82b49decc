"""The exact endgame and the pre-endgame in the decisions of ``best-move
--endgame`` (and ``--equity``/``--sim`` in such positions) and the engine's ``go
endgame [S]`` (docs/ENDGAME.md); the players' endgame move is
:mod:`ginnyo.endgame_move`.  Plain ``best-move`` and ``go`` stay the
highest-scoring play.
"""

from __future__ import annotations

from ..game.actions import Place, Return, action_notation
from ..errors import GinnyoError
from ..support.files import quote
from .move import PREENDGAME, SolverMove, endgame_move
from ..position.position import Position

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
    lines = [f"info string {move.source} spread {move.spread:+g} {status}"]
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


__all__ = ["COMMAND_SECONDS", "go_endgame", "solver_move"]
