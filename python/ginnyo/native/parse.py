"""The door to ``ginnycore.parse``, the C reader of positions and of .jsonl
corpora: what ginnyo uses of it, imported here alone."""

from __future__ import annotations

from ginnycore.parse import DONE, FULL, MORE, OTHER_LAYOUT, SLOW, PositionReader

__all__ = ["DONE", "FULL", "MORE", "OTHER_LAYOUT", "SLOW", "PositionReader"]
