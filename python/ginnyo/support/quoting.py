"""Bad values quoted short in error lines: whatever the input, the line stays one
short line.  The vocabulary (tiles, layouts, rules, plays, notation) quotes with
it, without the file I/O and signal handling of :mod:`ginnyo.support.files`."""

from __future__ import annotations

import reprlib

#: the most characters of a bad value quoted in an error line
QUOTE_CHARS = 40


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """``repr(value)``, cut to about ``limit`` characters with the full length named,
    so that an error line stays one short line whatever the input.  Only a prefix
    of a long string, and the first few items of a container, are ever written
    out; a value whose repr fails (an int of thousands of digits) is named by its type."""
    if isinstance(value, (str, bytes)):
        text = repr(value[:limit])
        return text if len(value) <= limit and len(text) <= limit else f"{text[:limit]}... ({len(value)} long)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<a whole number of {value.bit_length()} bits>"
    try:
        text = _SHORT_REPR.repr(value)
    except Exception:  # noqa: BLE001 - a user's object may fail its repr any way it likes
        return f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    length = len(value) if isinstance(value, (list, tuple, dict)) else len(text)
    return f"{text[:limit]}... ({length} long)"


_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = _SHORT_REPR.maxlong = QUOTE_CHARS


__all__ = ["QUOTE_CHARS", "quote"]
