"""The error Crazy Rummy input raises: one line naming the field or the card."""

from __future__ import annotations

from ..errors import GinnyoError


class CrazyError(GinnyoError):
    """A Crazy Rummy state, hand, meld, game record or action is malformed or not legal."""
