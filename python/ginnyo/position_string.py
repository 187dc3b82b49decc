"""The one-line position string's functions before :class:`ginnyo.Position` had
methods: deprecated aliases, kept for one release (docs/API.md, "Deprecated names").
The string itself is read and written in :mod:`ginnyo.position_line`."""

from __future__ import annotations

from .position.position import Position
from .position.line import looks_like_json, to_line


def from_line(text: str) -> Position:
    """Deprecated: :meth:`Position.from_line`."""
    return Position.from_line(text)


def from_text(text: str | bytes) -> Position:
    """Deprecated: :meth:`Position.from_text`."""
    return Position.from_text(text)


__all__ = ["from_line", "from_text", "looks_like_json", "to_line"]
