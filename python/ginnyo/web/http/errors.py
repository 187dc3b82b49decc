"""The web's refusals as HTTP answers: its own (a request that does not read, a guard's, a
limit's), each an HTTP status and one line of reason, answered as ``{"error": line}``; and the one
place a status is decided for the live tables' refusals (:class:`~ginnyo.errors.TableRefusal`).
Every refusal has a stable code too (its class's name in kebab case, or the rule's own code) and its
arguments, answered beside the line (``"code"``, ``"args"``) for a page to say it in its reader's words."""

from __future__ import annotations

import re
from typing import Any

from ...errors import (AnalysisInPlay, BadCredential, BadField, ChatTooFast, GameNotOver, GameOver, NoCredential,
                       NotForWatchers, NotNow, NotYourTurn, RuleRefusal, StaleVersion, TableRefusal, TablesBusy,
                       TablesFull, TooManySockets, UnknownGame)


class WebError(Exception):
    """A request refused with ``status`` (4xx) and a one-line ``message``; nothing changed."""

    status = 400

    def __init__(self, message: str, **arguments: Any) -> None:
        super().__init__(" ".join(str(message).split()))
        self.message = str(self)
        self.arguments = arguments


class BadRequest(WebError):
    """Malformed JSON, a field missing or of the wrong type or value."""
    status = 400


class Unauthorized(WebError):
    """No seat token, or one that is no token of any game."""
    status = 401


class Forbidden(WebError):
    """A token of another game."""
    status = 403


class NotFound(WebError):
    """No game of that id."""
    status = 404


class Conflict(WebError):
    """Not now: out of turn, a stale version, the game over (or not yet over)."""
    status = 409


class TooLarge(WebError):
    """A request body over the limit."""
    status = 413


class UnsupportedType(WebError):
    """A body that is not sent as the type the endpoint reads (``Content-Type: application/json``)."""
    status = 415


class Illegal(WebError):
    """An action the rules refuse (or notation that does not read), in the rules' words."""
    status = 422


class Busy(WebError):
    """Refused for now, not for what was asked: ``retry_after`` seconds until it may be taken
    (answered in a ``Retry-After`` header)."""
    status = 503

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after


class TooManyRequests(Busy):
    """One client's requests of a kind faster than the server takes them."""
    status = 429


class ServerFull(Busy):
    """The server holds as many games in play as it is allowed to."""
    status = 503


#: The status of each of the tables' refusals (the most derived class that matches wins).
TABLE_STATUSES: dict[type[TableRefusal], int] = {
    TableRefusal: 400,
    BadField: 400,
    NoCredential: 401,
    BadCredential: 403,
    AnalysisInPlay: 403,
    UnknownGame: 404,
    NotForWatchers: 403,
    NotNow: 409,
    GameOver: 409,
    GameNotOver: 409,
    NotYourTurn: 409,
    StaleVersion: 409,
    RuleRefusal: 422,
    TablesBusy: 503,
    TablesFull: 503,
    TooManySockets: 429,
    ChatTooFast: 429,
}


def status_of(error: WebError | TableRefusal) -> int:
    """The HTTP status of a refusal."""
    if isinstance(error, WebError):
        return error.status
    return next(TABLE_STATUSES[kind] for kind in type(error).__mro__ if kind in TABLE_STATUSES)


def class_code(kind: type[Exception]) -> str:
    """A refusal class's code: its name in kebab case (``NotYourTurn`` -> ``not-your-turn``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", kind.__name__).lower()


#: the codes of the refusals Starlette makes itself (an unknown path, a method not served), by status
HTTP_CODES = {404: "not-found", 405: "method-not-allowed"}
REFUSED_CODE = "refused"   # of any other status Starlette answers
#: the code of a failure of the server itself (a 500)
INTERNAL_CODE = "internal-error"


def code_of(error: WebError | TableRefusal) -> str:
    """A refusal's code: the rule's own (a :class:`~ginnyo.errors.Reason`'s), else its class's."""
    return (error.code if isinstance(error, TableRefusal) else None) or class_code(type(error))


def refusal_json(error: WebError | TableRefusal) -> dict[str, Any]:
    """The answer of a refusal: ``{"error": line, "code": code, "args": {...}}``."""
    return {"error": error.message, "code": code_of(error), "args": error.arguments}


def retry_after_of(error: WebError | TableRefusal) -> int | None:
    """The seconds a refusal for now asks the client to wait (its ``Retry-After``), else None."""
    return error.retry_after if isinstance(error, (Busy, TablesBusy)) else None


__all__ = ["WebError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "UnsupportedType",
           "Illegal", "Busy", "TooManyRequests", "ServerFull", "TABLE_STATUSES", "status_of", "retry_after_of",
           "class_code", "code_of", "refusal_json", "HTTP_CODES", "REFUSED_CODE", "INTERNAL_CODE"]
