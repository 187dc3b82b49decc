"""The placement preview's request: the ``placements`` field read; the judging is
:func:`ginnyo.position.preview.preview`'s."""

from __future__ import annotations

from typing import Any

from ginnyo.position.position import Position
from ginnyo.position.preview import MAX_OPEN_JOKERS, RepeatedSquare
from ginnyo.position.preview import preview as judged_preview

from .http.errors import BadRequest


def read_placements(value: object) -> dict[str, str]:
    """The ``placements`` field: an object of square name -> tile code, else 400."""
    if not isinstance(value, dict):
        raise BadRequest("field 'placements': must be an object of square -> tile code, e.g. {\"H8\": \"7C\"}")
    for name, code in value.items():
        if not isinstance(code, str):
            raise BadRequest(f"field 'placements': square {name}: the tile must be a string")
    return value


def preview(position: Position, placements: dict[str, str]) -> dict[str, Any]:
    """The answer to a preview of ``placements`` on ``position`` (the seat's board and rack)."""
    try:
        return judged_preview(position, placements)
    except RepeatedSquare as error:
        raise BadRequest(f"field 'placements': {error}") from None


__all__ = ["preview", "read_placements", "MAX_OPEN_JOKERS"]
