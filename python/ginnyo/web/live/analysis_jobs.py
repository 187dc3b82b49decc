"""The analysis board's simulations (docs/WEB-ANALYSIS.md), run as background jobs: they share
:data:`SIM_THREADS` threads, a block of :data:`ginnyo.simulation.BLOCK` rollouts of one job at a time in
turn, so that many jobs all move on while the work stays bounded (the threads run at niceness
:data:`SIM_NICENESS`, so requests are answered first); at most :data:`MAX_ACTIVE` jobs wait or run and at
most :data:`MAX_KEPT` finished ones are kept (each for :data:`KEEP_SECONDS`).  The blocks are the ones
``best-move --sim`` runs, so a finished job's ranking is the CLI's for the same settings.  What a job is
(its session, with each candidate's win chances) and how it is shown are the route's
(web/http/analysis.py); here the jobs are only run, kept and watched.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ...simulation.rollouts import Tally
from ...simulation.session import SimulationSession

SIM_THREADS = 2            # threads running every job's rollouts (the machine's cores, not one a job)
SIM_NICENESS = 10          # their niceness (Linux): the answers to requests go first
IDLE_SECONDS = 30.0        # a simulation thread with nothing to do this long ends (one starts with work)
MAX_ACTIVE = 32            # jobs waiting or running at once; one more is refused (409: not now)
MAX_KEPT = 64              # finished jobs kept for their answers
KEEP_SECONDS = 600.0       # how long a finished job is kept


@dataclass(eq=False)
class Job:
    """One simulation job: its session (:class:`ginnyo.simulation.session.SimulationSession`), how it is
    shown (``shown``: its progress and candidates as the API answers them), when it ended and who is watching."""

    id: str
    session: SimulationSession
    shown: Callable[[SimulationSession], dict[str, Any]]
    finished_at: float | None = None
    changed: int = 0                  # bumped at every change, for the watchers
    watchers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(default_factory=set)

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
        return {"id": self.id, "state": self.state, "error": self.session.error, **self.shown(self.session)}


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

    def start(self, session: SimulationSession, shown: Callable[[SimulationSession], dict[str, Any]]) -> Job | None:
        """A new job running ``session`` (shown by ``shown``), waiting for its turn; None when :data:`MAX_ACTIVE`
        jobs wait or run already."""
        n = len(session.setup.candidates)
        job = Job(secrets.token_urlsafe(12), session, shown)
        with self.lock:
            self._forget_old()
            active = sum(not other.finished for other in self.jobs.values())
            if active >= MAX_ACTIVE:
                return None
            self.jobs[job.id] = job
            if n:
                self.turns.append(job)
                self.lock.notify()
                self._more_threads()
            else:
                job.session.start()   # done: nothing to simulate
                self._ended(job)
        return job

    def find(self, job_id: str) -> Job | None:
        """The job ``job_id``, None if there is none (or it finished more than :data:`KEEP_SECONDS` ago)."""
        with self.lock:
            return self.jobs.get(job_id)

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


__all__ = ["Job", "Simulations", "SIM_THREADS", "MAX_ACTIVE", "KEEP_SECONDS"]
