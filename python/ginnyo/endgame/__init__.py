"""The end of a game: the compiled endgame search on a loaded core (search), the exact 2-player
endgame solver (exact), the pre-endgame ranking (preendgame), the positions of seeded greedy games
they are tried on (greedy) and the choice among them that the commands and players make (choice).

The names below are those of :mod:`ginnyo.endgame.exact`, :mod:`ginnyo.endgame.search` and
:mod:`ginnyo.endgame.greedy`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .exact import (
    EndgameMove, EndgameResult, MAX_UNSEEN, PASS, SIDES, best_endgame_play, is_endgame, opponent_rack, solve)
    from .greedy import greedy_endgames, greedy_turns, position_between
    from .search import TABLE_BITS, solve_loaded

EXACT = ["EndgameMove", "EndgameResult", "MAX_UNSEEN", "PASS", "SIDES", "best_endgame_play", "is_endgame",
         "opponent_rack", "solve"]
SEARCH = ["TABLE_BITS", "solve_loaded"]
GREEDY = ["greedy_endgames", "greedy_turns", "position_between"]

__all__ = sorted(EXACT + SEARCH + GREEDY)

__getattr__ = lazy_names(__name__, {"exact": EXACT, "search": SEARCH, "greedy": GREEDY})
