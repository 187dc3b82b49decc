"""Strength: head-to-head matches and their score plots (match), and the ladder of match results
(ladder).

The names below are those of :mod:`ginnyo.strength.match`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .match import (
    DealResult, SimSettings, MatchSummary, play_deal, run, summarise, wilson, game_point,
    seatings, MATCH_PLAYERS, LEAVE_KINDS, scores_svg, win_rate_svg, svg_escape)

__all__ = [
    "DealResult", "SimSettings", "MatchSummary", "play_deal", "run", "summarise", "wilson",
    "game_point", "seatings", "MATCH_PLAYERS", "LEAVE_KINDS", "scores_svg", "win_rate_svg",
    "svg_escape"]

__getattr__ = lazy_names(__name__, {"match": __all__})
