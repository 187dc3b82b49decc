"""The analysis board's API (docs/WEB-ANALYSIS.md): a position's plays ranked by score and by
equity (in a 2-player endgame with the endgame solver's move, as ``best-move --equity`` gives it),
and its simulation run as a background job whose progress streams as server-sent events.

A position is read from FORMAT.md's JSON object, or from text holding JSON or a position line (never
from a file), and
checked as ``ginnyo best-move --equity`` checks a file: a refusal is a 422 whose reason is the line
the CLI prints after ``ginnyo: error:``.  Simulations share :data:`SIM_THREADS` threads, a block
of :data:`ginnyo.simulation.BLOCK` rollouts of one job at a time in turn, so that many jobs all
move on while the work stays bounded (the threads run at niceness :data:`SIM_NICENESS`, so requests
are answered first); at most :data:`MAX_ACTIVE` jobs wait or run and at most
:data:`MAX_KEPT` finished ones are kept (each for :data:`KEEP_SECONDS`).  The blocks are the
ones ``best-move --sim`` runs, so a finished job's ranking is the CLI's for the same settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ginnyo.errors import AnalysisInPlay, GinnyoError
from ginnyo.position.position import Position
from ginnyo.analysis.report import described_candidates, position_report, session_json, solver_json
from ginnyo.equity.leaves import default_model
from ginnyo.position.context import GameContext
from ginnyo.simulation.choices import DEFAULT_POLICY, POLICIES, STOP_LEVELS
from ginnyo.simulation.rollouts import Setup, Tally
from ginnyo.players.simulation import win_chances
from ginnyo.simulation.session import SimulationSession, position_setup

from .http import requests as fields
from .http.pages import page_response
from .http.errors import BadRequest, Conflict, Illegal, NotFound
from .http.limits import SIMULATIONS, limited

if TYPE_CHECKING:
    from .live.table import SeatTable

DEFAULT_LIMIT, MAX_LIMIT = 10, 50          # plays shown in each ranking
DEFAULT_ROLLOUTS, MAX_ROLLOUTS = 1000, 100_000
DEFAULT_CANDIDATES, MAX_CANDIDATES = 5, 10
DEFAULT_PLIES, MAX_PLIES = 2, 8
MAX_SEED = 2 ** 63 - 1
SIM_THREADS = 2            # threads running every job's rollouts (the machine's cores, not one a job)
SIM_NICENESS = 10          # their niceness (Linux): the answers to requests go first
IDLE_SECONDS = 30.0        # a simulation thread with nothing to do this long ends (one starts with work)
MAX_ACTIVE = 32            # jobs waiting or running at once; one more is refused (409: not now)
MAX_KEPT = 64              # finished jobs kept for their answers
KEEP_SECONDS = 600.0       # how long a finished job is kept
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

@dataclass(eq=False)
class Job:
    """One simulation job: its session (:class:`ginnyo.simulation.session.SimulationSession`),
    when it ended and who is watching."""

    id: str
    position: Position
    session: SimulationSession
    finished_at: float | None = None
    changed: int = 0                  # bumped at every change, for the watchers
    watchers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(default_factory=set)
    described: dict[Any, dict[str, Any]] = field(default_factory=dict)   # each candidate's JSON, made once

    def __post_init__(self) -> None:
        self.described = described_candidates(self.position, self.session.setup)

    @property
    def state(self) -> str:
        """waiting, running, done, stopped or failed."""
        return self.session.state

    @property
    def finished(self) -> bool:
        return self.session.finished

    @property
    def tally(self) -> Tally:
        return self.session.tally

    def snapshot(self) -> dict[str, Any]:
        """The job as the API shows it: progress and every candidate's mean, 95% interval and wins."""
        return {"id": self.id, "state": self.state, "error": self.session.error,
                **session_json(self.session, self.described)}


class Simulations:
    """Every simulation job of the server, run a block at a time by at most :data:`SIM_THREADS`
    threads, started as jobs come and ended after :data:`IDLE_SECONDS` without work."""

    def __init__(self, threads: int = SIM_THREADS) -> None:
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.turns: deque[Job] = deque()          # the jobs waiting for their next block, in turn
        self.lock = threading.Condition()
        self.closing = False
        self.most_threads = threads
        self.threads = 0                          # running now: started with work, ended when idle

    def _more_threads(self) -> None:
        """Under the lock: a thread more while jobs wait and fewer than the most run."""
        if self.threads < min(self.most_threads, len(self.turns)):
            self.threads += 1
            threading.Thread(target=self._work, name=f"ginnyo-sim-{self.threads}", daemon=True).start()

    def start(self, position: Position, setup: Setup, asked: int, stop_level: int | None) -> Job:
        n = len(setup.candidates)
        # each candidate's win probability as best-move --sim gives it (a game played to its end ranks by wins)
        session = SimulationSession(setup, asked, stop=stop_level, chance=win_chances(position, setup.plies))
        job = Job(secrets.token_urlsafe(12), position, session)
        with self.lock:
            self._forget_old()
            active = sum(not other.finished for other in self.jobs.values())
            if active >= MAX_ACTIVE:
                raise Conflict(f"too many simulations at once (at most {MAX_ACTIVE}): stop one or wait")
            self.jobs[job.id] = job
            if n:
                self.turns.append(job)
                self.lock.notify()
                self._more_threads()
            else:
                job.session.start()   # done: nothing to simulate
                self._ended(job)
        return job

    def get(self, job_id: str) -> Job:
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None:
            raise NotFound("no simulation of that id (finished ones are kept for "
                           f"{KEEP_SECONDS / 60:g} minutes)")
        return job

    def stop(self, job: Job) -> None:
        with self.lock:
            if not job.finished:
                job.session.stop()   # a block under way is thrown away when it ends
                self._ended(job)

    def close(self) -> None:
        with self.lock:
            self.closing = True
            for job in self.jobs.values():
                if not job.finished:
                    job.session.stop()
                    self._ended(job)
            self.lock.notify_all()

    def watch(self, job: Job, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
        with self.lock:
            job.watchers.add((loop, event))

    def unwatch(self, job: Job, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
        with self.lock:
            job.watchers.discard((loop, event))

    def snapshot(self, job: Job) -> tuple[int, dict[str, Any]]:
        with self.lock:
            return job.changed, job.snapshot()

    # -- under the lock ---------------------------------------------------------------------
    def _changed(self, job: Job) -> None:
        job.changed += 1
        for loop, event in list(job.watchers):
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:      # the watcher's loop has closed
                job.watchers.discard((loop, event))

    def _ended(self, job: Job) -> None:
        job.finished_at = time.monotonic()
        self._changed(job)

    def _forget_old(self) -> None:
        now = time.monotonic()
        done = [job for job in self.jobs.values() if job.finished]
        for index, job in enumerate(done):
            assert job.finished_at is not None
            if now - job.finished_at > KEEP_SECONDS or index < len(done) - MAX_KEPT:
                del self.jobs[job.id]

    # -- the threads ------------------------------------------------------------------------
    def _work(self) -> None:
        with contextlib.suppress(AttributeError, OSError):   # Linux: a thread's own niceness
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SIM_NICENESS)
        while True:
            with self.lock:
                idle_since = time.monotonic()
                while not self.turns and not self.closing and time.monotonic() - idle_since < IDLE_SECONDS:
                    self.lock.wait(IDLE_SECONDS)
                if self.closing or not self.turns:
                    self.threads -= 1
                    return
                job = self.turns.popleft()
                if job.finished:
                    continue
                start, count = job.session.next_block()
            try:
                with self.lock:
                    job.session.start()      # waiting -> running (the setup checked, once)
                block = job.session.run_block(start, count)   # outside the lock: the other jobs go on
            except Exception as error:   # a failure of the core: the job fails, the server goes on
                with self.lock:
                    job.session.fail(f"the simulation failed: {type(error).__name__}")
                    self._ended(job)
                continue
            with self.lock:
                if job.finished:
                    continue
                job.session.add(block)
                if job.finished:
                    self._ended(job)
                else:
                    self._changed(job)
                    self.turns.append(job)
                    self.lock.notify()
                    self._more_threads()


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
    seed = _number(body, "seed", 0, 0, MAX_SEED)
    policy = body.get("policy", DEFAULT_POLICY)
    if policy not in POLICIES or not isinstance(policy, str):
        raise BadRequest(f"field 'policy': must be one of {', '.join(POLICIES)}")
    stop = body.get("stop")
    if stop is not None and (type(stop) is not int or stop not in STOP_LEVELS):
        raise BadRequest(f"field 'stop': must be one of {', '.join(map(str, STOP_LEVELS))}")
    position, _ = read_position(body.get("position"))
    setup = position_setup(position, default_model(), candidates=count, plies=plies, seed=seed, policy=policy)
    return position, setup, rollouts, stop


async def start_simulation(request: Request) -> Response:
    limited(request, SIMULATIONS)
    body = await fields.json_body(request)
    fields.only_fields(body, ("position", "rollouts", "candidates", "plies", "seed", "policy", "stop"))
    position, setup, rollouts, stop = await run_in_threadpool(simulation_setup, body)
    simulations = simulations_of(request)
    job = simulations.start(position, setup, rollouts, stop)
    answer = simulations.snapshot(job)[1]
    answer["events"] = f"/api/analysis/simulations/{job.id}/events"
    return JSONResponse(answer, status_code=201)


async def simulation_status(request: Request) -> Response:
    simulations = simulations_of(request)
    job = simulations.get(request.path_params["job_id"])
    return JSONResponse(await run_in_threadpool(lambda: simulations.snapshot(job)[1]))


async def stop_simulation(request: Request) -> Response:
    simulations = simulations_of(request)
    job = simulations.get(request.path_params["job_id"])
    simulations.stop(job)
    return JSONResponse(await run_in_threadpool(lambda: simulations.snapshot(job)[1]))


async def simulation_events(request: Request) -> Response:
    """Server-sent events: ``progress`` with the job's snapshot after every block, then one
    ``end`` (done, stopped or failed) and the stream closes."""
    simulations = simulations_of(request)
    job = simulations.get(request.path_params["job_id"])

    async def stream() -> AsyncIterator[str]:
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
    return page_response("analysis")


routes = [
    Route("/analysis", analysis_page),
    Route("/api/analysis", analyse, methods=["POST"]),
    Route("/api/games/{game_id}/analysis", analyse_game),
    Route("/api/analysis/simulations", start_simulation, methods=["POST"]),
    Route("/api/analysis/simulations/{job_id}", simulation_status),
    Route("/api/analysis/simulations/{job_id}/stop", stop_simulation, methods=["POST"]),
    Route("/api/analysis/simulations/{job_id}/events", simulation_events),
]

__all__ = ["routes", "read_position", "analysis", "game_position", "analysable", "Simulations", "Job", "endgame_json", "simulation_setup", "MAX_ACTIVE",
           "SIM_THREADS", "MAX_ROLLOUTS", "ENDGAME_SECONDS",
           "PREENDGAME_SECONDS"]
