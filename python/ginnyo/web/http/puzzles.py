"""The puzzle page and its API (docs/PUZZLES.md, "The page and its API"): the next puzzle near the
player's rating, an answer judged and rated, a placement previewed, the day's puzzle and the themes.

The player (:func:`puzzle_player`) is the account signed in, else the browser of a guest: a random id
in the HttpOnly ``puzzle_guest`` cookie, made on the first visit.  The judging is :mod:`ginnyo.puzzles.solving`'s,
the rating :mod:`ginnyo.ratings.skill`'s; the store keeps both ratings and the attempts.
"""

from __future__ import annotations

import datetime
import random
import re
import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...accounts.rules import name_key
from ...errors import GinnyoError
from ...game.actions import Place, parse_action
from ...puzzles.solving import ShippedPuzzle, daily_puzzle, next_puzzle, shipped_puzzles, theme_counts
from ...puzzles.themes import THEMES
from ...ratings.skill import Skill, display_rating, skill_of_rating
from . import requests as fields
from .accounts import SESSION_COOKIE, signed_in
from .errors import BadRequest, Illegal, NotFound, Unauthorized
from .limits import ANSWERS, PREVIEWS, limited
from .pages import page_response
from ..games.ginnyo import placement_preview
from .requests import MAX_ACTION
from ..store import Store

GUEST_COOKIE = "puzzle_guest"
GUEST_COOKIE_SECONDS = 365 * 24 * 3600
GUEST_ID = re.compile(r"[A-Za-z0-9_-]{22}")   # secrets.token_urlsafe(16)
RECENT = 50          # a player's last attempts whose puzzles are not offered again (nor rated again)
_chance = random.SystemRandom()


async def puzzle_player(request: Request) -> str:
    """The key a player's puzzle rating is kept under: the account signed in (``account:NAME``; an answer
    it sends must come from this server's pages, as every write signed in by the cookie), else the guest
    of the browser (``guest:ID``, its ``puzzle_guest`` cookie, made now when missing or malformed: see
    :func:`_answer`)."""
    if request.cookies.get(SESSION_COOKIE):
        try:
            account = await signed_in(request, write=request.method == "POST")
        except Unauthorized:   # a session that ended: the browser's guest plays on
            pass
        else:
            return f"account:{name_key(account.name)}"
    guest = request.cookies.get(GUEST_COOKIE, "")
    if not GUEST_ID.fullmatch(guest):
        guest = request.state.new_guest = getattr(request.state, "new_guest", None) or secrets.token_urlsafe(16)
    return f"guest:{guest}"


def _answer(request: Request, response: Response) -> Response:
    """``response`` with the guest's cookie set when :func:`puzzle_player` made one."""
    guest = getattr(request.state, "new_guest", None)
    if guest is not None:
        response.set_cookie(GUEST_COOKIE, guest, max_age=GUEST_COOKIE_SECONDS, httponly=True, samesite="lax",
                            path="/")
    response.headers["Cache-Control"] = "no-store"
    return response


def _store(request: Request) -> Store:
    store: Store = request.app.state.tables.store
    return store


def _puzzle(request: Request) -> ShippedPuzzle:
    puzzle = shipped_puzzles().get(request.path_params["puzzle_id"])
    if puzzle is None:
        raise NotFound(f"no puzzle {request.path_params['puzzle_id'][:40]!r}")
    return puzzle


def _current_rating(puzzle: ShippedPuzzle, skills: dict[str, Skill]) -> int:
    skill = skills.get(puzzle.id)
    return puzzle.rating if skill is None else display_rating(skill)


def _question(puzzle: ShippedPuzzle, rating: int, player_rating: int, daily: bool = False) -> dict[str, Any]:
    return dict(puzzle.question(), rating=rating, player_rating=player_rating, daily=daily,
                layout_grid=list(puzzle.position.layout.rows))


def _solution_placements(puzzle: ShippedPuzzle) -> dict[str, str]:
    """The first solution's tiles, square name -> tile code, to be drawn (none for a return)."""
    action = parse_action(puzzle.position, puzzle.line["solution"][0])
    name = puzzle.position.layout.square_name
    return {name(square): tile.code for square, tile in action.play.placements} if isinstance(action, Place) else {}


# -- the API ------------------------------------------------------------------------------------------

def next_question(store: Store, player: str, theme: str | None) -> dict[str, Any]:
    """The next puzzle for ``player`` (of ``theme`` when given); 404 when no puzzle holds it."""
    puzzles = [puzzle for puzzle in shipped_puzzles().values() if theme is None or theme in puzzle.themes]
    skills = store.puzzle_skills()
    player_rating = display_rating(store.player_skill(player))
    ratings = {puzzle.id: _current_rating(puzzle, skills) for puzzle in puzzles}
    chosen = next_puzzle(puzzles, ratings, player_rating, store.recent_puzzles(player, RECENT), _chance)
    if chosen is None:
        raise NotFound(f"no puzzle of theme {theme!r}")
    return _question(chosen, ratings[chosen.id], player_rating)


async def puzzles_next(request: Request) -> Response:
    """The next puzzle near the player's rating (``?theme=``: of that theme), never its solution."""
    theme = request.query_params.get("theme") or None
    if theme is not None and theme not in THEMES:
        raise BadRequest(f"field 'theme': must be one of {', '.join(THEMES)}")
    player = await puzzle_player(request)
    return _answer(request, JSONResponse(await run_in_threadpool(next_question, _store(request), player, theme)))


def _daily(store: Store, player: str) -> dict[str, Any]:
    puzzle = daily_puzzle(shipped_puzzles(), datetime.datetime.now(datetime.timezone.utc).date())
    return _question(puzzle, _current_rating(puzzle, store.puzzle_skills()), display_rating(store.player_skill(player)),
                     daily=True)


async def puzzles_daily(request: Request) -> Response:
    """The day's puzzle: the same for everyone through the UTC day."""
    player = await puzzle_player(request)
    return _answer(request, JSONResponse(await run_in_threadpool(_daily, _store(request), player)))


async def puzzles_themes(request: Request) -> Response:
    """The themes, in the vocabulary's order, and how many puzzles hold each."""
    return JSONResponse({"themes": theme_counts(shipped_puzzles().values())})


def attempt(store: Store, player: str, puzzle: ShippedPuzzle, action: str) -> dict[str, Any]:
    """Judge ``action`` on ``puzzle`` and rate it (player against puzzle); 422 when it does not read
    or is not legal (no attempt then).  A puzzle among the player's recent attempts is judged, not
    rated again: its solution was shown."""
    try:
        correct = puzzle.solves(action)
    except GinnyoError as error:
        raise Illegal(" ".join(str(error).split())) from None
    skills = store.puzzle_skills()
    if puzzle.id in store.recent_puzzles(player, RECENT):
        player_skill, puzzle_skill, rated = store.player_skill(player), skills.get(puzzle.id), False
    else:
        start = skill_of_rating(puzzle.rating)
        player_skill, puzzle_skill = store.rate_puzzle_attempt(player, puzzle.id, start, action, correct)
        rated = True
    puzzle_rating = puzzle.rating if puzzle_skill is None else display_rating(puzzle_skill)
    return dict(puzzle.answer(), id=puzzle.id, correct=correct, rated=rated, rating=display_rating(player_skill),
                puzzle_rating=puzzle_rating, solution_placements=_solution_placements(puzzle))


async def puzzles_attempt(request: Request) -> Response:
    """Answer a puzzle: ``{"action": NOTATION}``; whether it is a solution, the solutions, the
    margin and the second best, the player's new rating and the puzzle's."""
    puzzle = _puzzle(request)
    limited(request, ANSWERS)   # each answer stores a rating (a guest's new one): bounded a client
    body = await fields.json_body(request)
    fields.only_fields(body, ("action",))
    action = fields.text(body, "action", MAX_ACTION)
    player = await puzzle_player(request)
    return _answer(request, JSONResponse(await run_in_threadpool(attempt, _store(request), player, puzzle, action)))


async def puzzles_preview(request: Request) -> Response:
    """Judge placements on a puzzle's position as the table's preview does (legality, the reason,
    the score meld by meld), saying nothing of the solution."""
    puzzle = _puzzle(request)
    limited(request, PREVIEWS)
    body = await fields.json_body(request)
    fields.only_fields(body, ("placements",))
    return JSONResponse(await run_in_threadpool(placement_preview, puzzle.position, body.get("placements")))


async def puzzles_page(request: Request) -> Response:
    """The puzzle page, in the language the request chooses; the guest's cookie made on a first visit."""
    await puzzle_player(request)
    return _answer(request, page_response("puzzles", request))


routes = [
    Route("/puzzles", puzzles_page),
    Route("/api/puzzles/next", puzzles_next),
    Route("/api/puzzles/daily", puzzles_daily),
    Route("/api/puzzles/themes", puzzles_themes),
    Route("/api/puzzles/{puzzle_id}/attempt", puzzles_attempt, methods=["POST"]),
    Route("/api/puzzles/{puzzle_id}/preview", puzzles_preview, methods=["POST"]),
]

__all__ = ["routes", "puzzle_player", "next_question", "attempt", "GUEST_COOKIE", "RECENT"]
