"""The web's refusals: an HTTP status and one line of reason, answered as ``{"error": line}``."""

from __future__ import annotations


class WebError(Exception):
    """A request refused with ``status`` (4xx) and a one-line ``message``; nothing changed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))
        self.message = str(self)


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


class Illegal(WebError):
    """An action the rules refuse (or notation that does not read), in the rules' words."""
    status = 422


__all__ = ["WebError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "Illegal"]
