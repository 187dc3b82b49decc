"""The error Crazy Rummy input raises (defined with every other error in
:mod:`ginnyo.errors`): one line naming the field or the card."""

from __future__ import annotations

from ..errors import CrazyError

__all__ = ["CrazyError"]
