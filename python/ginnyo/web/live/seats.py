"""Seats and their credentials: a human seat's token (given once, stored as its SHA-256), the
rematch seat's token derived from it, which seat a token holds, and the seats' links."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any, Protocol

from ...errors import BadCredential, NoCredential

TOKEN_BYTES = 32          # secrets.token_urlsafe(32): 43 url-safe characters
TOKEN_CHARS = 43
WATCHER = -1              # the "seat" of a watcher's socket and view: it holds none


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def rematch_token(token: str, game_id: str) -> str:
    """The token of a rematch seat, derived from the seat's token in the finished game:
    only its holder can work it out, and nobody need store it."""
    digest = hmac.new(token.encode("utf-8"), f"ginnyo rematch {game_id}".encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def well_formed_token(token: object) -> bool:
    """Whether ``token`` has a seat token's shape (43 url-safe characters)."""
    return (isinstance(token, str) and len(token) == TOKEN_CHARS
            and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in token))


def seat_holding(token_hashes: dict[str, int], known: dict[str, Any], token: str | None) -> int:
    """The seat ``token`` holds among a game's ``token_hashes``: :class:`NoCredential` without a token of any
    game (``known``: every game's token hashes), :class:`BadCredential` for another game's."""
    if not token:
        raise NoCredential("a seat token is needed: Authorization: Bearer TOKEN")
    if not well_formed_token(token):
        raise NoCredential("the seat token is malformed")
    digest = token_hash(token)
    for stored, seat in list(token_hashes.items()):
        if hmac.compare_digest(stored, digest):
            return seat
    if digest in known:   # a hash looked up: it tells nothing of the tokens
        raise BadCredential("the seat token is not for this game")
    raise NoCredential("the seat token is no token of a game here")


class Seats(Protocol):
    """A table of any game kind, as far as its seats go."""

    id: str
    kinds: tuple[str, ...]
    names: tuple[str, ...]


def created_answer(table: Seats, tokens: dict[int, str]) -> dict[str, Any]:
    """The answer to whoever made a game: every seat, and the tokens of the human
    seats given (to this caller only: they are stored hashed, never shown again)."""
    seats = []
    for seat, kind in enumerate(table.kinds):
        entry: dict[str, Any] = {"seat": seat, "kind": kind, "name": table.names[seat]}
        if seat in tokens:
            entry["token"] = tokens[seat]
            entry["url"] = seat_url(table.id, seat, tokens[seat])
        seats.append(entry)
    answer: dict[str, Any] = {"id": table.id, "seats": seats}
    if len(tokens) >= 2:
        answer["hotseat_url"] = hotseat_url(table.id, tokens)
    return answer


def seat_url(game_id: str, seat: int, token: str) -> str:
    """The table's page for one seat (the token in the fragment, which no server log sees)."""
    return f"/play/{game_id}#seat={seat}&token={token}"


def hotseat_url(game_id: str, tokens: dict[int, str]) -> str:
    """The table's page for several seats on one screen."""
    return f"/play/{game_id}#hotseat=" + ",".join(f"{seat}:{token}" for seat, token in sorted(tokens.items()))


__all__ = ["token_hash", "rematch_token", "well_formed_token", "seat_holding", "created_answer", "seat_url",
           "hotseat_url", "TOKEN_BYTES", "TOKEN_CHARS", "WATCHER"]
