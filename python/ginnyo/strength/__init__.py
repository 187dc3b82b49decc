"""Strength: head-to-head matches (match), their pictures (plots), and the
ladder of match results (ladder).

The names below are those of :mod:`ginnyo.strength.match` and
:mod:`ginnyo.strength.plots`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .match import (LEAVE_KINDS, MATCH_PLAYERS, DealResult, MatchSummary, SimSettings, game_point, play_deal,
                        run, seatings, summarise, wilson)
    from .plots import scores_svg, svg_escape, win_rate_svg

__all__ = ["DealResult", "SimSettings", "MatchSummary", "play_deal", "run", "summarise", "wilson", "game_point",
           "seatings", "MATCH_PLAYERS", "LEAVE_KINDS", "scores_svg", "win_rate_svg", "svg_escape"]

__getattr__ = lazy_names(__name__, {"match": __all__[:11], "plots": __all__[11:]})
