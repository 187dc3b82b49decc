"""The door to ``ginnycore.endgame``, the compiled exact endgame search: what
ginnyo uses of it, imported here alone."""

from __future__ import annotations

from ginnycore.endgame import Endgame

__all__ = ["Endgame"]
