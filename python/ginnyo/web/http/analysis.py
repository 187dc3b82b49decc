"""The analysis board's API (docs/WEB-ANALYSIS.md): a position's plays ranked by score and by
equity (in a 2-player endgame with the endgame solver's move, as ``best-move --equity`` gives it),
and its simulation run as a background job (:mod:`ginnyo.web.live.analysis_jobs`) whose progress
streams as server-sent events.

A position is read from FORMAT.md's JSON object, or from text holding JSON or a position line (never
from a file), and checked as ``ginnyo best-move --equity`` checks a file: a refusal is a 422 whose
reason is the line the CLI prints after ``ginnyo: error:``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ...errors import AnalysisInPlay, GinnyoError
from ...position.position import Position
from ...analysis.report import described_candidates, position_report, session_json, solver_json
from ...equity.leaves import default_model
from ...position.context import GameContext
from ...simulation.choices import DEFAULT_POLICY, POLICIES, STOP_LEVELS
from ...simulation.rollouts import Setup
from ...simulation.session import Chance, SimulationSession, position_setup

from . import requests as fields
from .requests import (DEFAULT_CANDIDATES, DEFAULT_LIMIT, DEFAULT_PLIES, DEFAULT_ROLLOUTS, MAX_CANDIDATES, MAX_LIMIT,
                       MAX_PLIES, MAX_ROLLOUTS, MAX_SIMULATION_SEED)
from .pages import page_response
from .errors import BadRequest, Conflict, Illegal, NotFound
from .limits import ANALYSES, SIMULATIONS, limited
from .sockets import held_open, room_for
from ..live.analysis_jobs import KEEP_SECONDS, MAX_ACTIVE, Job, Simulations

if TYPE_CHECKING:
    from ..live.table import SeatTable

#: What gives a position's win chances after ``plies`` (:func:`ginnyo.players.simulation.win_chances`, handed in
#: by ``ginnyo serve``): each simulated candidate's win probability as ``best-move --sim`` gives it
WinChances = Callable[[Position, int], Chance]

KEEPALIVE_SECONDS = 15.0   # a comment line on a quiet event stream
ENDGAME_SECONDS = 1.0      # the endgame solver's budget in an analysis: the answer stays prompt
PREENDGAME_SECONDS = 5.0   # the pre-endgame solver's: it solves every opponent rack and draw (seconds)


# -- reading a position -------------------------------------------------------------------------

def read_position(value: object) -> tuple[Position, GameContext]:
    """The position of a request's ``position`` field (an object, or text: JSON or a position
    line, read as ``best-move`` reads a file's content, never as a file name) and its game
    context, checked as ``best-move --equity`` checks a file: 400 for a field of the wrong type,
    422 with the CLI's line for a position the format or the rules refuse."""
    if value is None:
        raise BadRequest("field 'position': missing")
    if not isinstance(value, (dict, str)):
        raise BadRequest("field 'position': must be a position object (docs/FORMAT.md), JSON text or a position line")
    try:
        position = Position.from_dict(value) if isinstance(value, dict) else Position.from_text(value)
        return position, position.game_context
    except GinnyoError as error:
        raise Illegal(" ".join(str(error).split("\n"))) from None


def _number(body: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = fields.whole_number(body, key, low, high)
    return default if value is None else value


# -- the analysis ------------------------------------------------------------------------------

def analysis(position: Position, context: GameContext, limit: int) -> dict[str, Any]:
    """The answer of POST /api/analysis: :func:`ginnyo.analysis.report.position_report`, the
    solvers within this server's budgets."""
    return position_report(position, context, limit, (ENDGAME_SECONDS, PREENDGAME_SECONDS))


def endgame_json(position: Position, context: GameContext, board: dict[str, str]) -> dict[str, Any] | None:
    """The solver's move of an analysis (:func:`ginnyo.analysis.report.solver_json`), within this
    server's budgets."""
    return solver_json(position, context, board, (ENDGAME_SECONDS, PREENDGAME_SECONDS))


async def analyse(request: Request) -> Response:
    limited(request, ANALYSES)
    body = await fields.json_body(request)
    fields.only_fields(body, ("position", "limit"))
    limit = _number(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)   # the request's fields before the position's
    position, context = read_position(body.get("position"))
    return JSONResponse(await run_in_threadpool(analysis, position, context, limit))


# -- a game's position, handed to the analysis board ------------------------------------------

def analysable(table: SeatTable, rated: Callable[[], bool] = lambda: False) -> None:
    """Fair play: refuse (:class:`~ginnyo.errors.AnalysisInPlay`) a game in play that two or more people sit
    at, or a rated one (against bots too: the engine's help would be rated): :meth:`SeatTable.fair_to_analyse`."""
    if not table.fair_to_analyse(rated):
        raise AnalysisInPlay("no engine analysis of a game in play between people, or of a rated one: "
                             "the analysis board opens once the game is over")


def game_position(view_text: str) -> dict[str, Any]:
    """What the analysis board opens from a game: of the seat's own view (JSON text), its position (never
    another rack) and who it is."""
    seen = json.loads(view_text)
    if "position" not in seen:
        raise Illegal("the analysis board reads Ginny-O games only")   # a well-formed request: 422
    return {key: seen[key] for key in ("id", "seat", "names", "finished", "position")}


async def analyse_game(request: Request) -> Response:
    """GET /api/games/{game_id}/analysis: the seat's position for the analysis board (403 while people play it)."""
    tables = request.app.state.tables
    table = tables.get(request.path_params["game_id"])
    token = fields.bearer_token(request)
    seat = tables.seat_of(table, token)
    rated = await run_in_threadpool(tables.store.rated_kind, table.id) is not None
    analysable(table, lambda: rated)
    return JSONResponse(game_position(await run_in_threadpool(tables.view, table, seat, token)))


# -- simulations --------------------------------------------------------------------------------

def simulations_of(request: Request) -> Simulations:
    """The app's simulations, made on the first request that needs them."""
    state = request.app.state
    with _MADE:
        made: Simulations | None = getattr(state, "simulations", None)
        if made is None:
            made = state.simulations = Simulations()
    return made


_MADE = threading.Lock()


def simulation_setup(body: dict[str, Any]) -> tuple[Position, Setup, int, int | None]:
    """The position, rollout setup, rollouts asked and stopping level of a request, checked."""
    rollouts = _number(body, "rollouts", DEFAULT_ROLLOUTS, 1, MAX_ROLLOUTS)
    count = _number(body, "candidates", DEFAULT_CANDIDATES, 1, MAX_CANDIDATES)
    plies = _number(body, "plies", DEFAULT_PLIES, 0, MAX_PLIES)
    seed = _number(body, "seed", 0, 0, MAX_SIMULATION_SEED)
    policy = body.get("policy", DEFAULT_POLICY)
    if policy not in POLICIES or not isinstance(policy, str):
        raise BadRequest(f"field 'policy': must be one of {', '.join(POLICIES)}")
    stop = body.get("stop")
    if stop is not None and (type(stop) is not int or stop not in STOP_LEVELS):
        raise BadRequest(f"field 'stop': must be one of {', '.join(map(str, STOP_LEVELS))}")
    position, _ = read_position(body.get("position"))
    setup = position_setup(position, default_model(), candidates=count, plies=plies, seed=seed, policy=policy)
    return position, setup, rollouts, stop


def simulation_job(body: dict[str, Any], win_chances: WinChances
                   ) -> tuple[SimulationSession, Callable[[SimulationSession], dict[str, Any]]]:
    """A request's simulation, checked: its session (each candidate's win probability by ``win_chances``; a
    game played to its end ranks by wins) and how the board shows it (each candidate described once)."""
    position, setup, rollouts, stop = simulation_setup(body)
    session = SimulationSession(setup, rollouts, stop=stop, chance=win_chances(position, setup.plies))
    described = described_candidates(position, setup)
    return session, lambda shown: session_json(shown, described)


async def start_simulation(request: Request) -> Response:
    limited(request, SIMULATIONS)
    body = await fields.json_body(request)
    fields.only_fields(body, ("position", "rollouts", "candidates", "plies", "seed", "policy", "stop"))
    session, shown = await run_in_threadpool(simulation_job, body, request.app.state.win_chances)
    simulations = simulations_of(request)
    with _MADE:   # counted and started at once: two requests of one address never both pass the bound
        held = _unfinished_by_client(request.app.state)
        client = request.client.host if request.client is not None else ""
        most = request.app.state.simulations_per_address
        if most > 0 and len(held.get(client, ())) >= most:
            raise Conflict(f"this address has {most} simulations waiting or running, the most: "
                           "stop one or wait")
        job = simulations.start(session, shown)
        if job is not None:
            held.setdefault(client, []).append(job)
    if job is None:
        raise Conflict(f"too many simulations at once (at most {MAX_ACTIVE}): stop one or wait")
    answer = simulations.snapshot(job)[1]
    answer["events"] = f"/api/analysis/simulations/{job.id}/events"
    return JSONResponse(answer, status_code=201)


def _unfinished_by_client(state: Any) -> dict[str, list[Job]]:
    """Under ``_MADE``: the simulations each address has waiting or running (so that one stranger never
    holds every one the server runs), those finished let go."""
    kept: dict[str, list[Job]] = getattr(state, "simulations_by_client", {})
    state.simulations_by_client = held = {client: unfinished for client, jobs in kept.items()
                                          if (unfinished := [job for job in jobs if not job.finished])}
    return held


def simulation(simulations: Simulations, request: Request) -> Job:
    """The job the request's path names (404 if there is none)."""
    job = simulations.find(request.path_params["job_id"])
    if job is None:
        raise NotFound(f"no simulation of that id (finished ones are kept for {KEEP_SECONDS / 60:g} minutes)")
    return job


async def simulation_status(request: Request) -> Response:
    simulations = simulations_of(request)
    job = simulation(simulations, request)
    return JSONResponse(await run_in_threadpool(lambda: simulations.snapshot(job)[1]))


async def stop_simulation(request: Request) -> Response:
    simulations = simulations_of(request)
    job = simulation(simulations, request)
    simulations.stop(job)
    return JSONResponse(await run_in_threadpool(lambda: simulations.snapshot(job)[1]))


async def simulation_events(request: Request) -> Response:
    """Server-sent events: ``progress`` with the job's snapshot after every block, then one
    ``end`` (done, stopped or failed) and the stream closes."""
    simulations = simulations_of(request)
    job = simulation(simulations, request)
    room_for(request)   # a stream is held open as a socket is: counted among its address's

    async def stream() -> AsyncIterator[str]:
        with held_open(request):
            loop, event = asyncio.get_running_loop(), asyncio.Event()
            simulations.watch(job, loop, event)
            try:
                seen = -1
                while True:
                    event.clear()
                    changed, snapshot = await run_in_threadpool(simulations.snapshot, job)
                    if changed != seen:
                        seen = changed
                        kind = "end" if snapshot["state"] in ("done", "stopped", "failed") else "progress"
                        yield f"event: {kind}\ndata: {json.dumps(snapshot)}\n\n"
                        if kind == "end":
                            return
                    try:
                        await asyncio.wait_for(event.wait(), KEEPALIVE_SECONDS)
                    except asyncio.TimeoutError:
                        yield ": still running\n\n"
            finally:
                simulations.unwatch(job, loop, event)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def analysis_page(request: Request) -> Response:
    return page_response("analysis", request)


routes = [
    Route("/analysis", analysis_page),
    Route("/api/analysis", analyse, methods=["POST"]),
    Route("/api/games/{game_id}/analysis", analyse_game),
    Route("/api/analysis/simulations", start_simulation, methods=["POST"]),
    Route("/api/analysis/simulations/{job_id}", simulation_status),
    Route("/api/analysis/simulations/{job_id}/stop", stop_simulation, methods=["POST"]),
    Route("/api/analysis/simulations/{job_id}/events", simulation_events),
]

__all__ = ["routes", "read_position", "analysis", "game_position", "analysable", "endgame_json", "simulation_setup",
           "simulations_of", "simulation_job", "WinChances", "ENDGAME_SECONDS", "PREENDGAME_SECONDS"]
