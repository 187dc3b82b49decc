"""The end of a game: the exact 2-player endgame solver (exact), the pre-endgame ranking (preendgame),
the solver's move as a decision (move) and the choice among them that the commands and players make
(choice).

The names below are those of :mod:`ginnyo.endgame.exact`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .exact import (
    EndgameMove, EndgameResult, MAX_UNSEEN, PASS, SIDES, TABLE_BITS, best_endgame_play,
    greedy_endgames, greedy_turns, is_endgame, opponent_rack, position_between, solve,
    solve_loaded)

__all__ = [
    "EndgameMove", "EndgameResult", "MAX_UNSEEN", "PASS", "SIDES", "TABLE_BITS",
    "best_endgame_play", "greedy_endgames", "greedy_turns", "is_endgame", "opponent_rack",
    "position_between", "solve", "solve_loaded"]

__getattr__ = lazy_names(__name__, {"exact": __all__})
