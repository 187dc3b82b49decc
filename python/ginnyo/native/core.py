"""The door to ``ginnycore.core``, the generator, for the modules above the
bridge: the core class, its constants and the batch solver (the bridge proper,
a position in and its plays out, is this package's ``__init__``)."""

from __future__ import annotations

from ginnycore import EMPTY_SQUARE, MAX_PLACED, RACK_KINDS, Core
from ginnycore.core import RANKED_BUFFER, best_plays_batch

__all__ = ["EMPTY_SQUARE", "MAX_PLACED", "RACK_KINDS", "Core", "RANKED_BUFFER", "best_plays_batch"]
