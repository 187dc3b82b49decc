"""Session tokens: a random token in the browser's cookie, only its SHA-256 kept by the server; a
session lasts :data:`SESSION_DAYS` from its last use (sliding), at most once a day moved on."""

from __future__ import annotations

import hashlib
import secrets

SESSION_DAYS = 30
SESSION_SECONDS = SESSION_DAYS * 86400
SLIDE_SECONDS = 86400   # a session's expiry is moved on when it was last moved more than this ago


def new_token() -> str:
    """A new session token: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the server keeps of ``token``: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def expiry(now: float) -> float:
    """When a session used at ``now`` expires."""
    return now + SESSION_SECONDS


def slides(expires: float, now: float) -> bool:
    """Whether a session expiring at ``expires``, used at ``now``, is to be given a new expiry."""
    return expiry(now) - expires > SLIDE_SECONDS


__all__ = ["SESSION_DAYS", "SESSION_SECONDS", "new_token", "token_hash", "expiry", "slides"]
