"""The JSON schemas of the club's API (docs/CLUB.md): accounts, seeks, players and the leaderboard, and
a game's chat, for the OpenAPI document (:mod:`.openapi`), built from the limits the handlers check."""

from __future__ import annotations

from typing import Any

from ginnyo.accounts.rules import MAX_NAME as MAX_ACCOUNT_NAME
from ginnyo.accounts.rules import MAX_PASSWORD, MIN_PASSWORD
from ginnyo.accounts.rules import MIN_NAME as MIN_ACCOUNT_NAME
from ginnyo.accounts.rules import NAME_PATTERN as ACCOUNT_NAME_PATTERN

from ..store.chat import MAX_TEXT, ROOMS
from .json_schema import object_schema

#: a chat message's text: 1 to MAX_TEXT printable characters once trimmed (web/live/chat.py's checked_text)
CHAT_FORMAT = "chat-text"


def chat_body() -> dict[str, Any]:
    """``POST /api/games/{id}/chat``: the text, and the room (the sender's own; another is a 403)."""
    return object_schema({"text": {"type": "string", "format": CHAT_FORMAT, "minLength": 1,
                                   "description": f"1 to {MAX_TEXT} printable characters once trimmed"},
                          "room": {"type": "string", "enum": list(ROOMS)}}, ("text",))


def chat_message() -> dict[str, Any]:
    """A chat message: its room, its sender's name as shown, its text, when (seconds since the epoch)."""
    return object_schema({"id": {"type": "integer"}, "room": {"type": "string", "enum": list(ROOMS)},
                          "sender": {"type": "string"}, "text": {"type": "string"}, "created": {"type": "number"}},
                         ("id", "room", "sender", "text", "created"))


def chat_answer() -> dict[str, Any]:
    return object_schema({"messages": {"type": "array", "items": chat_message()}}, ("messages",))


def account_body(new: bool = True) -> dict[str, Any]:
    """``POST /api/accounts``'s body (``new``: the name's and the password's rules) or ``POST /api/session``'s."""
    name: dict[str, Any] = {"type": "string"}
    password: dict[str, Any] = {"type": "string"}
    if new:
        name.update(minLength=MIN_ACCOUNT_NAME, maxLength=MAX_ACCOUNT_NAME, pattern=ACCOUNT_NAME_PATTERN.pattern)
        password.update(minLength=MIN_PASSWORD, maxLength=MAX_PASSWORD)
    return object_schema({"name": name, "password": password}, ("name", "password"))


def account_answer() -> dict[str, Any]:
    """The account signed in: its name as first written, when it was made (seconds since the epoch)."""
    return object_schema({"name": {"type": "string"}, "created": {"type": "number"}}, ("name", "created"), closed=False)


def clock_schema() -> dict[str, Any]:
    return object_schema({"initial": {"type": "integer", "minimum": 1, "maximum": 3 * 3600},
                          "increment": {"type": "integer", "minimum": 0, "maximum": 600}}, ("initial", "increment"))


def seek_body() -> dict[str, Any]:
    """``POST /api/seeks``'s body (docs/CLUB.md, "Seeks and the lobby")."""
    return object_schema({"game": {"type": "string", "enum": ["ginnyo", "crazy"]},
                          "players": {"type": "integer", "minimum": 2, "maximum": 6}, "clock": clock_schema(),
                          "rated": {"type": "boolean"}, "bots": {"type": "array", "items": {"type": "string"}}},
                         ("players",))


def seat_answer() -> dict[str, Any]:
    """A seated account's seat in a seek's game: a new token of it, and its page."""
    return object_schema({"id": {"type": "string"}, "seat": {"type": "integer"}, "token": {"type": "string"},
                          "url": {"type": "string"}}, ("id", "seat", "token", "url"))


def seek_answer() -> dict[str, Any]:
    """A seek; once full, its game (``game_id``) and, in the answer of whoever filled it, their ``seat``."""
    return object_schema({"id": {"type": "string"}, "game": {"type": "string"}, "players": {"type": "integer"},
                          "clock": clock_schema(), "rated": {"type": "boolean"},
                          "bots": {"type": "array", "items": {"type": "string"}},
                          "seated": {"type": "array", "items": {"type": "string"}}, "maker": {"type": "string"},
                          "status": {"type": "string", "enum": ["open", "started", "cancelled"]},
                          "full": {"type": "boolean"}, "game_id": {"type": "string", "nullable": True},
                          "created": {"type": "number"}, "seat": seat_answer()},
                         ("id", "game", "players", "clock", "rated", "bots", "seated", "status", "full", "game_id"),
                         closed=False)


def seeks_answer() -> dict[str, Any]:
    return object_schema({"seeks": {"type": "array", "items": seek_answer()}}, ("seeks",))


def standing_schema() -> dict[str, Any]:
    return object_schema({"rating": {"type": "integer"}, "provisional": {"type": "boolean"},
                          "games": {"type": "integer"}},
                         ("rating", "provisional", "games"))


def player_answer() -> dict[str, Any]:
    """A player's ratings (by game kind) and rated games, the latest first."""
    game = object_schema({"id": {"type": "string"}, "game": {"type": "string"},
                          "result": {"type": "string", "enum": ["won", "drew", "lost"]}, "rank": {"type": "integer"},
                          "players": {"type": "integer"}, "rating_before": {"type": "integer"},
                          "rating_after": {"type": "integer"}, "rating_change": {"type": "integer"},
                          "created": {"type": "number"}}, ("id", "game", "result", "rating_change"), closed=False)
    return object_schema({"name": {"type": "string"},
                          "ratings": {"type": "object", "additionalProperties": standing_schema()},
                          "games": {"type": "array", "items": game}}, ("name", "ratings", "games"))


def leaderboard_answer() -> dict[str, Any]:
    entry = standing_schema()
    entry["properties"] = {"name": {"type": "string"}, **entry["properties"]}
    entry["required"] = ["name", *entry["required"]]
    return object_schema({"game": {"type": "string"}, "players": {"type": "array", "items": entry}},
                         ("game", "players"))


__all__ = ["CHAT_FORMAT", "chat_body", "chat_message", "chat_answer", "account_body", "account_answer", "clock_schema",
           "seek_body", "seat_answer", "seek_answer", "seeks_answer", "standing_schema", "player_answer",
           "leaderboard_answer"]
