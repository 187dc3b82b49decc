"""The equity player: the action of highest equity (:mod:`ginnyo.equity`), and
with ``endgame`` the exact endgame solver's move once a 2-player game's box is
empty (docs/ENDGAME.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..endgame.choice import endgame_action
from ..equity.leaves import LeaveModel, default_model
from ..equity.rank import best_action, leave_state

if TYPE_CHECKING:
    from ..game.actions import Action
    from ..game.game import View


class EquityPlayer:
    """Takes the action of highest equity: score plus leave value, returns included;
    with ``endgame``, the endgame solver's move once a 2-player game's box is
    empty (player kind ``endgame``: far slower there, see docs/PERFORMANCE.md)."""

    def __init__(self, model: LeaveModel | None = None, *, endgame: bool = False) -> None:
        self.model = model or default_model()
        self.endgame = endgame
        self.name = "endgame" if endgame else "equity"

    def choose(self, view: View) -> Action:
        if self.endgame:
            action = endgame_action(view)
            if action is not None:
                return action
        return best_action(view.core(), view.rack, view.box_size, self.model, leave_state(view)).action()


__all__ = ["EquityPlayer"]
