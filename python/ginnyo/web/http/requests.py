"""Reading a request: a bearer token, a body of bounded size, and a JSON body of at most
:data:`MAX_BODY` bytes, sent as ``application/json``, whose fields are checked one by one (each refusal
a 400, 413 or 415 naming the field or the header)."""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

from starlette.requests import ClientDisconnect, Request

from ...support.strict_json import no_duplicate_keys
from ..live.fields import only_fields
from .errors import BadRequest, TooLarge, UnsupportedType

MAX_BODY = 64 * 1024
MAX_NAME = 40               # characters of a seat's name
DEFAULT_THINK, MAX_THINK = 1.0, 10.0   # a sim bot's seconds a move
MAX_ACTION = 200            # characters of an action's notation
MAX_RECORD = 1024 * 1024    # bytes of an uploaded record to review (a 4-player game's is about 20 KB)
# the analysis board's (web/http/analysis.py), which the OpenAPI document states too
DEFAULT_LIMIT, MAX_LIMIT = 10, 50          # plays shown in each ranking
DEFAULT_ROLLOUTS, MAX_ROLLOUTS = 1000, 100_000
DEFAULT_CANDIDATES, MAX_CANDIDATES = 5, 10
DEFAULT_PLIES, MAX_PLIES = 2, 8
MAX_SIMULATION_SEED = 2 ** 63 - 1
BEARER = "bearer "


def bearer_token(request: Request) -> str | None:
    """The token of ``Authorization: Bearer TOKEN`` (None without one)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    if header[:len(BEARER)].lower() != BEARER:
        return ""
    return header[len(BEARER):].strip()


async def bounded_body(request: Request, limit: int, what: str = "the body") -> bytes:
    """The body's bytes: 413 (``what`` holds more than ``limit`` bytes) as soon as its length says so
    or the bytes read pass the limit, reading no further."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise TooLarge(f"{what} holds {length} bytes, more than {limit}")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise TooLarge(f"{what} holds more than {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:   # closed before the body came whole (by the client, or by the server's deadline)
        raise BadRequest(f"{what} did not come whole: the connection closed") from None
    return b"".join(chunks)


async def json_body(request: Request, *, empty_ok: bool = False) -> dict[str, Any]:
    """The body as a JSON object: 415 unless sent as ``application/json`` (an empty body where
    ``empty_ok`` may come without a type), 413 over :data:`MAX_BODY` bytes (read no further),
    400 for malformed JSON, a key given twice, a number of more digits than Python reads, a lone
    surrogate in a string or no object."""
    media_type = request.headers.get("content-type")
    if media_type is not None and not _is_json(media_type):
        raise UnsupportedType(_NOT_JSON)
    data = await bounded_body(request, MAX_BODY)
    if not data.strip() and empty_ok:
        return {}
    if media_type is None:
        raise UnsupportedType(_NOT_JSON)
    try:
        text = data.decode("utf-8-sig")   # a byte order mark is let through, as json.loads(bytes) does
        value = json.loads(text, object_pairs_hook=_NO_REPEATED_KEYS, parse_constant=_no_constant)
    except BadRequest:
        raise
    except RecursionError:
        raise BadRequest("malformed JSON: nested too deeply") from None
    except UnicodeDecodeError:
        raise BadRequest("malformed JSON: not UTF-8") from None
    except json.JSONDecodeError as error:
        raise BadRequest(f"malformed JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except ValueError:   # int() refuses a number of more than sys.get_int_max_str_digits() digits
        raise BadRequest(f"malformed JSON: a number of more than {sys.get_int_max_str_digits()} digits") from None
    if _SURROGATE_ESCAPE.search(text):
        no_lone_surrogate(value, "malformed JSON")
    if not isinstance(value, dict):
        raise BadRequest("the body must be a JSON object")
    return value


_NOT_JSON = "header 'Content-Type': the body must be sent as application/json"
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_NO_REPEATED_KEYS = no_duplicate_keys(BadRequest)   # a key twice in one object: 400


def _is_json(media_type: str) -> bool:
    """Whether a Content-Type is ``application/json`` (its charset, if given, UTF-8)."""
    kind, *parameters = media_type.split(";")
    if kind.strip().lower() != "application/json":
        return False
    for parameter in parameters:
        name, _, given = parameter.partition("=")
        if name.strip().lower() == "charset" and given.strip().strip('"').lower() not in ("utf-8", "utf8"):
            return False
    return True


def no_lone_surrogate(value: Any, what: str) -> None:
    """400 (``what``: the reason's start) when a string of parsed JSON (a key or a value, at any depth)
    holds a surrogate no pair made a character of (``"\\ud800"``): Python's parser lets it through,
    and it would break every UTF-8 encoding of it later (an answer, a name stored)."""
    if _holds_lone_surrogate(value):
        raise BadRequest(f"{what}: a string holds a lone surrogate (\\ud800 to \\udfff), which is no character")


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether a string of ``value`` holds a lone surrogate. A loop, not a recursion: the value may be
    nested as deeply as the parser allows."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _no_constant(name: str) -> None:
    raise BadRequest(f"malformed JSON: {name} is no JSON number")


def whole_number(body: dict[str, Any], key: str, low: int, high: int) -> int | None:
    """An optional whole-number field within ``low`` .. ``high`` (not a bool, not 3.0)."""
    value = body.get(key)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise BadRequest(f"field '{key}': must be a whole number from {low} to {high}")
    return value


def seconds(body: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    """An optional number of seconds, more than ``low`` and at most ``high``."""
    value = body.get(key)
    if value is None:
        return default
    if type(value) not in (int, float) or not math.isfinite(value) or not low < value <= high:
        raise BadRequest(f"field '{key}': must be a number of seconds more than {low:g} and at most {high:g}")
    return float(value)


def text(body: dict[str, Any], key: str, limit: int) -> str:
    """A required string field of at most ``limit`` characters."""
    value = body.get(key)
    if value is None:
        raise BadRequest(f"field '{key}': missing")
    if not isinstance(value, str):
        raise BadRequest(f"field '{key}': must be a string")
    if len(value) > limit:
        raise BadRequest(f"field '{key}': longer than {limit} characters")
    return value


__all__ = ["MAX_BODY", "MAX_NAME", "DEFAULT_THINK", "MAX_THINK", "MAX_ACTION", "MAX_RECORD", "DEFAULT_LIMIT", "MAX_LIMIT", "DEFAULT_ROLLOUTS", "MAX_ROLLOUTS",
           "DEFAULT_CANDIDATES", "MAX_CANDIDATES", "DEFAULT_PLIES", "MAX_PLIES", "MAX_SIMULATION_SEED", "bearer_token", "bounded_body", "json_body",
           "no_lone_surrogate", "only_fields", "whole_number", "seconds", "text"]
