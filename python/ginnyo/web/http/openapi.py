"""The web API as an OpenAPI 3 document, made from the routes themselves (their paths, methods and
path parameters) and, for each operation, what :data:`OPERATIONS` says of it: its body, its answer,
the refusals it can give and whether it needs a seat's token (the schemas: :mod:`.api_schemas` and :mod:`.club_schemas`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from starlette.routing import BaseRoute, Route, WebSocketRoute

from ginnyo import __version__

from . import api_schemas as schemas
from . import club_schemas
from .requests import MAX_BODY, MAX_RECORD

JSON = "application/json"
PARAMETER = re.compile(r"{(\w+)(?::\w+)?}")
REFUSALS = {
    400: "a malformed body or field (the field named)",
    401: "no seat token (Authorization: Bearer TOKEN), a malformed one or none of a game here; not signed in, "
         "or a wrong name or password",
    403: "a seat token of another game, or a request from a foreign Origin (or, signed in by the cookie, none); "
         "the engine's analysis of a game people play",
    404: "no such game (or job, seek, player)",
    409: "not now: out of turn, a stale version, the game over or not yet over, too many jobs; a name taken; a "
         "seek that takes no one",
    413: f"a body over {MAX_BODY} bytes (read no further)",
    415: "a body that is not application/json",
    421: "a Host that is not this server's",
    422: "what the rules or the formats refuse, in their own words",
    429: "too many requests: try again after Retry-After seconds",
    503: "the server cannot store it now (the disk is full)",
}
#: what any operation may answer, besides its own refusals (the request guard, rate limits)
EVERY_OPERATION = (421, 429)
GAME = (401, 403, 404)
JSON_BODY = (400, 403, 413, 415)


@dataclass(frozen=True)
class Operation:
    """What the document says of one method on one path beyond the route itself."""

    summary: str
    answer: Callable[[], dict[str, Any]] | None      # the success's JSON schema (None: ``answer_type`` text)
    refusals: tuple[int, ...] = ()
    status: int = 200
    body: Callable[[], dict[str, Any]] | None = None
    seat: bool = False                               # needs a seat's token (``Authorization: Bearer``)
    session: bool = False                            # needs the session cookie (docs/CLUB.md)
    watcher: str | None = None                       # or, with ``seat``: "anyone" (no credential) or "session"
    answer_type: str = JSON
    body_type: str = JSON
    links: tuple[str, ...] = ()                      # the operations the answer leads to (their ids)


GAME_OPERATIONS = ("game_view", "game_preview", "game_action", "game_rematch", "game_resign", "game_abort", "game_record",
                   "review_game", "chat_post", "chat_read", "analyse_game")
JOB_OPERATIONS = ("simulation_status", "stop_simulation", "simulation_events")
OPERATIONS: dict[tuple[str, str], tuple[str, Operation]] = {
    ("get", "/api/health"): ("health", Operation("Whether the server answers", schemas.health_answer)),
    ("get", "/api/openapi.json"): ("openapi", Operation("This document", schemas.document_answer)),
    ("post", "/api/games"): ("create_game", Operation(
        "Make a game: its seats (people and bots), seed, names and think time; each person's token, only here",
        schemas.created_answer, JSON_BODY + (422, 503), 201, schemas.new_game_body, links=GAME_OPERATIONS)),
    ("get", "/api/games/{game_id}"): ("game_view", Operation(
        "The seat's view: its position (docs/FORMAT.md) and the game's state; with no credential, a watcher's "
        "view of a game open to watchers (no rack, no hand; 403 for another game)", schemas.seat_view, GAME,
        seat=True, watcher="anyone")),
    ("post", "/api/games/{game_id}/preview"): ("game_preview", Operation(
        "Judge a choice of the seat to move, changing nothing: Ginny-O placements, Crazy Rummy cards or a hint",
        schemas.preview_answer, GAME + JSON_BODY + (409, 422), body=schemas.preview_body, seat=True)),
    ("post", "/api/games/{game_id}/actions"): ("game_action", Operation(
        "Make the seat's move (committed before the answer); the new view",
        schemas.seat_view, GAME + JSON_BODY + (409, 422, 503), body=schemas.action_body, seat=True)),
    ("post", "/api/games/{game_id}/rematch"): ("game_rematch", Operation(
        "The rematch of a finished game (made by the first seat to ask): answered as a made game",
        schemas.created_answer, GAME + JSON_BODY + (409, 503), 201, schemas.empty_object, seat=True)),
    ("post", "/api/games/{game_id}/resign"): ("game_resign", Operation(
        "The seat resigns: Ginny-O's game ends, the others ranked by score, the seat last; in Crazy Rummy the seat "
        "is out, ranked below the seats still in, and one seat left wins (RULES, Resignation and abort); the view",
        schemas.seat_view, GAME + JSON_BODY + (409, 422, 503), body=schemas.empty_object, seat=True)),
    ("post", "/api/games/{game_id}/abort"): ("game_abort", Operation(
        "The seat ends the game before its first turn, with no result; 409 once it has moved; the view",
        schemas.seat_view, GAME + JSON_BODY + (409, 422, 503), body=schemas.empty_object, seat=True)),
    ("get", "/api/games/{game_id}/record"): ("game_record", Operation(
        "The finished game's record (JSON lines, as ginnyo replay reads it); 409 before the end",
        None, GAME + (409,), seat=True, answer_type="text/plain")),
    ("get", "/api/games/{game_id}/review"): ("review_game", Operation(
        "The review of a finished table game, for any of its seats; 409 while it is played",
        lambda: schemas.review_answer(of_table=True), GAME + (409, 422), seat=True)),
    ("post", "/api/review"): ("review_record", Operation(
        f"The review of an uploaded record (JSON lines, UTF-8, at most {MAX_RECORD} bytes)",
        schemas.review_answer, (400, 403, 413, 422), body=lambda: {"type": "string"}, body_type="text/plain")),
    ("post", "/api/analysis"): ("analyse", Operation(
        "Ranks a position's plays by score (one row for the orderings of one set of tiles) and by equity, and "
        "gives a 2-player endgame's or pre-endgame's solver move.",
        schemas.analysis_answer, JSON_BODY + (422,), body=schemas.analysis_body)),
    ("get", "/api/games/{game_id}/analysis"): ("analyse_game", Operation(
        "Hands the seat's own position to the analysis board; refused (403) while two or more people play the game "
        "or a rated one is played, and (422) for a Crazy Rummy game.",
        schemas.game_position_answer, GAME + (422,), seat=True)),
    ("post", "/api/analysis/simulations"): ("start_simulation", Operation(
        "Starts a simulation of a position's best candidates by equity as a background job and names its event stream.",
        lambda: schemas.job_answer(created=True), JSON_BODY + (409, 422), 201, schemas.simulation_body,
        links=JOB_OPERATIONS)),
    ("get", "/api/analysis/simulations/{job_id}"): ("simulation_status", Operation(
        "Tells a simulation job's state and its candidates so far, best first, each with its win chance.",
        schemas.job_answer, (404,))),
    ("post", "/api/analysis/simulations/{job_id}/stop"): ("stop_simulation", Operation(
        "Stops a simulation job where it is and answers the job as it stopped.", schemas.job_answer, (403, 404))),
    ("get", "/api/analysis/simulations/{job_id}/events"): ("simulation_events", Operation(
        "Streams a simulation job's progress as server-sent events, one after each block, then its end.",
        None, (404,), answer_type="text/event-stream")),
    # the puzzles (docs/PUZZLES.md): the player is the puzzle_guest cookie, made on a first request
    ("get", "/api/puzzles/next"): ("puzzles_next", Operation(
        "The next puzzle near the player's rating (?theme=: of that theme), never its solution",
        schemas.puzzle_answer, (400, 404))),
    ("get", "/api/puzzles/daily"): ("puzzles_daily", Operation(
        "The day's puzzle, the same for everyone through the UTC day", schemas.puzzle_answer)),
    ("get", "/api/puzzles/themes"): ("puzzles_themes", Operation(
        "The themes and how many puzzles hold each", schemas.puzzle_themes_answer)),
    ("post", "/api/puzzles/{puzzle_id}/attempt"): ("puzzles_attempt", Operation(
        "Answer a puzzle: whether it is a solution, the solutions and why, the new ratings",
        schemas.puzzle_attempt_answer, JSON_BODY + (404, 422, 503), body=schemas.puzzle_attempt_body)),
    ("post", "/api/puzzles/{puzzle_id}/preview"): ("puzzles_preview", Operation(
        "Judge placements on a puzzle's position, as a table's preview does", schemas.preview_answer,
        JSON_BODY + (404,), body=schemas.puzzle_placements_body)),
}
OPERATIONS.update({
    ("post", "/api/accounts"): ("sign_up", Operation(
        "Make an account (docs/CLUB.md): a name unique without regard to case and a password; signed in (the "
        "session cookie set)", club_schemas.account_answer, JSON_BODY + (409,), 201, club_schemas.account_body)),
    ("post", "/api/session"): ("sign_in", Operation(
        "Sign in: a new session cookie (the one sent, if any, ends); 401 for a wrong name or password, 429 "
        "after too many failures", club_schemas.account_answer, JSON_BODY + (401,),
        body=lambda: club_schemas.account_body(new=False))),
    ("delete", "/api/session"): ("sign_out", Operation(
        "Sign out: the session ends, its cookie is cleared (from this server's pages only: Origin)",
        None, (403,), 204, answer_type="text/plain")),
    ("get", "/api/me"): ("me", Operation("The account signed in", club_schemas.account_answer, (401,), session=True)),
    # the club's seeks and ratings (docs/CLUB.md, "Seeks and the lobby", "Ratings"); the lobby's socket:
    # /api/lobby/events, public
    ("post", "/api/seeks"): ("create_seek", Operation(
        "Ask for a game: kind, seats, clock, rated or not, bot levels; filled by bots alone, made at once (its "
        "game and the maker's seat in the answer)", club_schemas.seek_answer, JSON_BODY + (401, 503), 201,
        club_schemas.seek_body, session=True)),
    ("get", "/api/seeks"): ("list_seeks", Operation("The open seeks, the oldest first", club_schemas.seeks_answer)),
    ("post", "/api/seeks/{seek_id}/join"): ("join_seek", Operation(
        "Take a seat in a seek; once full, its game and the joiner's seat; 409 when it takes no one",
        club_schemas.seek_answer, JSON_BODY + (401, 404, 409, 503), body=schemas.empty_object, session=True)),
    ("delete", "/api/seeks/{seek_id}"): ("cancel_seek", Operation(
        "Withdraw an open seek (its maker alone)", None, (401, 403, 404, 409), 204, session=True,
        answer_type="text/plain")),
    ("post", "/api/seeks/{seek_id}/seat"): ("seek_seat", Operation(
        "A new token of the seat the signed-in account holds in the seek's game", club_schemas.seat_answer,
        JSON_BODY + (401, 404, 503), 201, schemas.empty_object, session=True)),
    ("get", "/api/players/{name}"): ("player", Operation(
        "A player's ratings by game kind (an account's name, or bot:KIND) and rated games, the latest first",
        club_schemas.player_answer, (404,))),
    ("get", "/api/leaderboard"): ("leaderboard", Operation(
        "The players of a game kind (?game=ginnyo|crazy), the best rating first (?limit=, at most 100)",
        club_schemas.leaderboard_answer, (400,))),
    # the tables' chat (docs/CLUB.md "Watching and chat")
    ("post", "/api/games/{game_id}/chat"): ("chat_post", Operation(
        "Write in a game's chat: a seat in the players' room, a signed-in watcher in the watchers' room (403 "
        "for the other room); at most 300 printable characters, 5 messages in 10 s a sender",
        club_schemas.chat_message, GAME + JSON_BODY + (503,), 201, club_schemas.chat_body, seat=True, watcher="session")),
    ("get", "/api/games/{game_id}/chat"): ("chat_read", Operation(
        "The last messages of the rooms the caller reads (a seat: the players' room until the game is over; a "
        "watcher: both)", club_schemas.chat_answer, GAME, seat=True, watcher="anyone")),
})
LINK_PARAMETERS = {
    # the game's id; the seat token (Authorization: Bearer TOKEN) is a person's seat's "token" in "seats"
    "create_game": {"game_id": "$response.body#/id"},
    "start_simulation": {"job_id": "$response.body#/id"},
}


def openapi_document(routes: Sequence[BaseRoute]) -> dict[str, Any]:
    """The document for ``routes`` (those under ``/api/``)."""
    paths: dict[str, Any] = {}
    sockets = []
    for route in routes:
        if isinstance(route, WebSocketRoute) and route.path.startswith("/api/"):
            sockets.append(route.path)
        if not isinstance(route, Route) or not route.path.startswith("/api/"):
            continue
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            paths.setdefault(route.path, {})[method.lower()] = _operation(method.lower(), route)
    description = ("The API of ginnyo serve: docs/WEB.md and docs/WEB-ANALYSIS.md. Live views: the websocket "
                   + ", ".join(sockets) + ', the seat\'s token in its first message, {"type": "auth", "token": TOKEN}.'
                   " A method a path does not take is answered 405 with the Allow header (components.responses.MethodNotAllowed).")
    return {"openapi": "3.0.3",
            "info": {"title": "ginnyo web table", "version": __version__, "description": description},
            "paths": paths,
            "components": {"securitySchemes": {"seat": {"type": "http", "scheme": "bearer",
                                                        "description": "a seat's token (POST /api/games gives them)"},
                                               "session": {"type": "apiKey", "in": "cookie", "name": "ginnyo_session",
                                                           "description": "the session of an account (POST "
                                                                          "/api/session)"}},
                           "schemas": {"Refusal": schemas.refusal()},
                           "responses": {"Refusal": _refusal("a refusal: one line of reason"),
                                         "MethodNotAllowed": _method_not_allowed()}}}


def _operation(method: str, route: Route) -> dict[str, Any]:
    operation_id, known = OPERATIONS.get((method, route.path), (route.name, None))
    operation: dict[str, Any] = {"operationId": operation_id}
    names = PARAMETER.findall(route.path)
    if names:
        operation["parameters"] = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                                   for name in names]
    if known is None:   # a route not described yet: its path and methods only (the document's test says so)
        operation["responses"] = {"default": {"$ref": "#/components/responses/Refusal"}}
        return operation
    operation["summary"] = known.summary
    if known.body is not None:
        operation["requestBody"] = {"required": known.body is not schemas.empty_object,
                                    "content": {known.body_type: {"schema": known.body()}}}
    answer_schema = known.answer() if known.answer is not None else {"type": "string"}
    success: dict[str, Any] = {"description": "done"}
    if known.status != 204:   # 204: no content
        success["content"] = {known.answer_type: {"schema": answer_schema}}
    if known.links:
        success["links"] = {target: {"operationId": target, "parameters": LINK_PARAMETERS[operation_id]}
                            for target in known.links}
    responses: dict[str, Any] = {str(known.status): success}
    for status in sorted(set(known.refusals + EVERY_OPERATION)):
        responses[str(status)] = _refusal(REFUSALS[status], retry_after=status == 429)
    responses["default"] = {"$ref": "#/components/responses/Refusal"}
    operation["responses"] = responses
    if known.seat:
        operation["security"] = [{"seat": []}]
        if known.watcher is not None:   # a watcher's request: no credential at all, or the session cookie
            operation["security"].append({} if known.watcher == "anyone" else {"session": []})
    if known.session:
        operation["security"] = [{"session": []}]
    return operation


def _refusal(description: str, retry_after: bool = False) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description,
                              "content": {JSON: {"schema": {"$ref": "#/components/schemas/Refusal"}}}}
    if retry_after:
        answer["headers"] = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    return answer


def _method_not_allowed() -> dict[str, Any]:
    answer = _refusal("a method the path does not take (RFC 9110 §15.5.6)")
    answer["headers"] = {"Allow": {"description": "the methods the path takes", "required": True,
                                   "schema": {"type": "string"}}}
    return answer


__all__ = ["openapi_document", "OPERATIONS"]
