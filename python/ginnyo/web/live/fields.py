"""A request body's fields checked against those a step knows: the one check the table's steps and the
HTTP layer share (light: it imports nothing of the game, so that reading a request loads no player)."""

from __future__ import annotations

import json
from typing import Any

from ...errors import BadField


def only_fields(body: dict[str, Any], known: tuple[str, ...]) -> None:
    """:class:`BadField` for a field of a request's body not in ``known``."""
    for key in body:
        if key not in known:
            raise BadField(f"field {json.dumps(key)[:40]}: unknown field (known: {', '.join(known) or 'none'})")


__all__ = ["only_fields"]
