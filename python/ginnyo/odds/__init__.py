"""The odds: what an opponent likely kept, read from its last action (inference), a game record's
turn as its player saw it and those inferences there (records), and the probability that the player
to move wins (win_probability).

The names below are those of :mod:`ginnyo.odds.inference`, :mod:`ginnyo.odds.records` and
:mod:`ginnyo.odds.win_probability`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .inference import Inference, Observed, deal_tables, infer, infer_opponents, view_observations
    from .records import record_inferences
    from .win_probability import WinModel, default_model, leads_of, outcome_chances

__all__ = ["Inference", "Observed", "infer", "infer_opponents", "deal_tables", "view_observations",
           "record_inferences", "WinModel", "default_model", "leads_of", "outcome_chances"]

__getattr__ = lazy_names(__name__, {"inference": __all__[:6], "records": __all__[6:7],
                                     "win_probability": __all__[7:]})
