"""JSON as ginnyo's files use it: a key given twice is an error, not a silent
overwrite, and a number field takes a whole number only (not ``true`` or ``13.0``).

Every decoder of a position, a state, a leave file or a record uses
:func:`loads`, so the same input gets the same one-line error everywhere.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from ..errors import GinnyoError
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


def no_duplicate_keys(error: Callable[[str], Exception] = GinnyoError,
                      where: str = "") -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """An ``object_pairs_hook`` that refuses a key given twice in one object (raising ``error``, a
    :class:`GinnyoError` unless the reader has its own, as the web's 400)."""
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


def field(data: dict[str, Any], key: str, kind: type | tuple[type, ...],
          error: type[GinnyoError] = GinnyoError) -> Any:
    """``data[key]``, which must be of ``kind`` (``int``: a whole number only);
    else ``error`` naming the field: ``field 'score': 13.0 is not a whole number``."""
    if key not in data:
        raise error(f"field {key!r}: missing")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not any(is_whole_number(value) if one is int else isinstance(value, one) for one in kinds):
        raise error(f"field {key!r}: {quote(value)} is not {kind_name(kind)}")
    return value


def known_fields(data: dict[str, Any], fields: tuple[str, ...], what: str,
                 error: type[GinnyoError] = GinnyoError) -> None:
    """Refuse with ``error`` a key of ``data`` not among ``fields``, naming it and ``what``
    the object is: ``field 'bonus': unknown in a turn line (known: turn, player, ...)``."""
    for key in data:
        if key not in fields:
            raise error(f"field {quote(key)}: unknown in {what} (known: {', '.join(fields)})")


def whole_numbers(data: dict[str, Any], key: str, error: type[GinnyoError] = GinnyoError) -> list[int]:
    """``data[key]``, a list of whole numbers; else ``error`` naming the field."""
    values: list[int] = field(data, key, list, error)
    if not all(is_whole_number(value) for value in values):
        raise error(f"field {key!r}: {quote(values)} is not a list of whole numbers")
    return values


def kind_name(kind: type | tuple[type, ...]) -> str:
    """``a whole number``, ``a string or null``: what a field must be, in words."""
    names = {int: "a whole number", str: "a string", list: "a list", dict: "an object",
             bool: "true or false", type(None): "null"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


__all__ = ["loads", "no_duplicate_keys", "json_error", "is_whole_number", "field", "known_fields", "whole_numbers",
           "kind_name"]
