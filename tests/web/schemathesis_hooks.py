"""Schemathesis hooks for the run of tests/web/test_openapi_schemathesis.py (``SCHEMATHESIS_HOOKS``):
the seat-name and chat-text formats' values, and each game's seat token sent as an explicit credential.

The document's links carry a made game's id (and seat 0's token) to the game endpoints; a token that
arrives by a link counts, for schemathesis, as a generated credential (so a 200 with it would read as
auth ignored). The token is set instead by an auth provider, from the games this run has made (any
person's seat of the game in the path), so the check probes the endpoint without it and with a bad one.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import schemathesis
from hypothesis import strategies as st

from ginnyo.errors import BadField
from ginnyo.web.http.api_schemas import NAME_FORMAT
from ginnyo.web.http.club_schemas import CHAT_FORMAT
from ginnyo.web.http.requests import MAX_NAME
from ginnyo.web.live.chat import MAX_TEXT, checked_text

_tokens: dict[str, str] = {}      # game id -> a person's seat token in it
_lock = threading.Lock()
#: a file to which every answer's operation and status is added, a line each (for the test to read)
ANSWERS_LOG = "GINNYO_SCHEMATHESIS_ANSWERS"   # tests/web/test_openapi_schemathesis.py reads it


def _a_name(text: str) -> bool:
    """The handler's rule for a seat's name (web/http/app.py's ``_names``)."""
    name = " ".join(text.split())
    return len(name) <= MAX_NAME and name.isprintable()


def _a_message(text: str) -> bool:
    """The chat's rule for a message's text (web/live/chat.py's ``checked_text``)."""
    try:
        checked_text(text)
    except BadField:
        return False
    return True


schemathesis.openapi.format(NAME_FORMAT, st.text(max_size=MAX_NAME * 2).filter(_a_name))
schemathesis.openapi.format(CHAT_FORMAT, st.text(min_size=1, max_size=MAX_TEXT).filter(_a_message))


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    """Note the answer; keep a person's token of every game made (or rematched) in this run."""
    log = os.environ.get(ANSWERS_LOG)
    if log:
        with _lock, open(log, "a", encoding="utf-8") as answers:
            answers.write(f"{case.method} {case.operation.path} {response.status_code}\n")
    if case.method != "POST" or response.status_code != 201 or "/api/games" not in case.path:
        return
    made = response.json()
    tokens = [seat["token"] for seat in made.get("seats", []) if "token" in seat]
    if tokens:
        with _lock:
            _tokens[made["id"]] = tokens[0]


@schemathesis.auth(refresh_interval=None).apply_to(path_regex="^/api/games/")
class SeatToken:
    """The seat token of the game in the path, when this run made it."""

    def get(self, case: Any, context: Any) -> str | None:
        with _lock:
            return _tokens.get(str((case.path_parameters or {}).get("game_id")))

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
