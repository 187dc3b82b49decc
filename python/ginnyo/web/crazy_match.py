"""The web table's Crazy Rummy game: :class:`ginnyo.crazy.match.CrazyMatch`, whose steps the
table's requests take (the game logic is the crazy package's)."""

from __future__ import annotations

from ginnyo.crazy.match import MAX_STEPS, CrazyMatch, can_end_turn, normal_step

__all__ = ["CrazyMatch", "normal_step", "can_end_turn", "MAX_STEPS"]
