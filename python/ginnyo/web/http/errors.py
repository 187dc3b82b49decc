"""The web's refusals (defined with every other error in :mod:`ginnyo.errors`): an HTTP status
and one line of reason, answered as ``{"error": line}``."""

from __future__ import annotations

from ...errors import (BadRequest, Busy, Conflict, Forbidden, Illegal, NotFound, ServerFull, TooLarge, TooManyRequests,
                      Unauthorized, UnsupportedType, WebError)

__all__ = ["WebError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "UnsupportedType",
           "Illegal", "Busy", "TooManyRequests", "ServerFull"]
