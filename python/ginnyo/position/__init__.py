"""A position and what is asked of it: the :class:`Position` value (position), the game around it
(context: :class:`GameContext`, which a game's view fills too), its one-line string (line), a play
judged and scored and the lazy legal plays (legal), plays as JSON (plays_json), its pictures (render) and
the plain-Python rules reference (reference).

The names below are those of :mod:`ginnyo.position.position` and :mod:`ginnyo.position.context`; each
loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .position import (
    MAX_RACK, CONTEXT_FIELDS, KNOWN_FIELDS, Position, READER)
    from .context import GameContext, parse_tile_codes

__all__ = [
    "MAX_RACK", "CONTEXT_FIELDS", "KNOWN_FIELDS", "Position", "READER", "GameContext", "parse_tile_codes"]

__getattr__ = lazy_names(__name__, {"position": __all__[:5], "context": __all__[5:]})
