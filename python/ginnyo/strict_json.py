"""JSON as ginnyo's files use it: a key given twice is an error, not a silent
overwrite, and a number field takes a whole number only (not ``true`` or ``13.0``).

Every decoder of a position, a state, a leave file or a record uses
:func:`loads`, so the same input gets the same one-line error everywhere.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .errors import GinnyoError
from .files import quote


def loads(text: str | bytes, error: type[GinnyoError] = GinnyoError, where: str = "") -> Any:
    """Decode ``text``; malformed JSON, a repeated key or nesting too deep raise
    ``error`` with one line (prefixed by ``where``, e.g. ``"record line 3: "``)."""
    try:
        return json.loads(text, object_pairs_hook=no_duplicate_keys(error, where))
    except GinnyoError:
        raise
    except (ValueError, UnicodeDecodeError) as problem:
        raise error(f"{where}malformed JSON: {json_error(problem)}") from None
    except RecursionError:
        raise error(f"{where}malformed JSON: nested too deeply") from None


def no_duplicate_keys(error: type[GinnyoError] = GinnyoError,
                      where: str = "") -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """An ``object_pairs_hook`` that refuses a key given twice in one object."""
    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise error(f"{where}malformed JSON: key {quote(key)} appears twice")
            result[key] = value
        return result
    return build


def json_error(problem: Exception) -> str:
    """The decoder's complaint in one line, with its line and column."""
    if isinstance(problem, json.JSONDecodeError):
        return f"{problem.msg} at line {problem.lineno} column {problem.colno}"
    text = str(problem)
    return text.splitlines()[0][:200] if text else type(problem).__name__


def is_whole_number(value: object) -> bool:
    """True for a JSON whole number: an int that is not a bool (``13.0`` and ``true`` are not)."""
    return type(value) is int


__all__ = ["loads", "no_duplicate_keys", "json_error", "is_whole_number"]
