"""Strength: head-to-head matches (match), what their deals came to (results), their
pictures (plots), and the ladder of match results (ladder).

The names below are those of :mod:`ginnyo.strength.match`, :mod:`ginnyo.strength.results`
and :mod:`ginnyo.strength.plots`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .match import LEAVE_KINDS, SimSettings, play_deal, run, seatings
    from .results import MATCH_PLAYERS, DealResult, MatchSummary, game_point, summarise, wilson
    from .plots import scores_svg, svg_escape, win_rate_svg

__all__ = ["SimSettings", "play_deal", "run", "seatings", "LEAVE_KINDS",
           "DealResult", "MatchSummary", "summarise", "wilson", "game_point", "MATCH_PLAYERS",
           "scores_svg", "win_rate_svg", "svg_escape"]

__getattr__ = lazy_names(__name__, {"match": __all__[:5], "results": __all__[5:11], "plots": __all__[11:]})
