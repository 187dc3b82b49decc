"""Timed play and its ends at the web table (docs/WEB.md "Clocks, resigning, aborting"): the ``clock``
field of a new game, and a seat's resignation and abort.  Thin handlers over :class:`~..live.registry.Tables`."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ginnyo.game.clock import INCREMENT_BOUNDS, INITIAL_BOUNDS, ClockSettings

from . import requests as fields
from .errors import BadRequest
from ..live.registry import Tables
from ..store.rows import GINNYO


def read_clock(value: object, game: str) -> ClockSettings | None:
    """The ``clock`` field of a new game: ``{"initial": SECONDS, "increment": SECONDS}`` or null."""
    if value is None:
        return None
    if game != GINNYO:
        raise BadRequest("field 'clock': Crazy Rummy is played untimed (docs/RULES.md, \"Timed play\")")
    if not isinstance(value, dict):
        raise BadRequest("field 'clock': must be {\"initial\": SECONDS, \"increment\": SECONDS}")
    fields.only_fields(value, ("initial", "increment"))
    initial = fields.whole_number(value, "initial", *INITIAL_BOUNDS)
    increment = fields.whole_number(value, "increment", *INCREMENT_BOUNDS)
    if initial is None:
        raise BadRequest(f"field 'clock': 'initial' is required ({INITIAL_BOUNDS[0]} to {INITIAL_BOUNDS[1]} seconds)")
    return ClockSettings(initial, increment or 0)


async def _seat(request: Request) -> tuple[Tables, Any, int, str]:
    tables: Tables = request.app.state.tables
    table = tables.get(request.path_params["game_id"])
    token = fields.bearer_token(request)
    seat = tables.seat_of(table, token)
    assert token is not None
    fields.only_fields(await fields.json_body(request, empty_ok=True), ())
    return tables, table, seat, token


async def game_resign(request: Request) -> Response:
    """The seat resigns: the game ends, the others ranked by score; the new view."""
    tables, table, seat, token = await _seat(request)
    return Response(await run_in_threadpool(tables.resign, table, seat, token), media_type="application/json")


async def game_abort(request: Request) -> Response:
    """The seat ends the game before its first turn, with no result (409 once it has moved); the new view."""
    tables, table, seat, token = await _seat(request)
    return Response(await run_in_threadpool(tables.abort, table, seat, token), media_type="application/json")


routes = [
    Route("/api/games/{game_id}/resign", game_resign, methods=["POST"]),
    Route("/api/games/{game_id}/abort", game_abort, methods=["POST"]),
]

__all__ = ["read_clock", "routes"]
