"""Equity: plays and returns ranked by score plus the value of the leave (rank) and the leave values
themselves (leaves).

The names below are those of :mod:`ginnyo.equity.rank`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .rank import (
    Candidate, rank_actions, best_action, compiled_model, candidate_of, rank_position,
    rank_positions, leave_state, PLAY, RETURN, PASS_KIND)

__all__ = [
    "Candidate", "rank_actions", "best_action", "compiled_model", "candidate_of",
    "rank_position", "rank_positions", "leave_state",
    "PLAY", "RETURN", "PASS_KIND"]

#: moved to the players package; the old path warns for one release
__getattr__ = lazy_names(__name__, {"rank": __all__}, moved={"EquityPlayer": "ginnyo.players.equity"})
