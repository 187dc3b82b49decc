"""One stoppable simulation: the block loop of ``best-move --sim``, of the simulating players
and of the analysis board's background jobs, in one place.

A :class:`SimulationSession` holds a setup's running sums (:class:`~ginnyo.simulation.rollouts.Tally`)
and its stopping rules.  A driver asks for the next block (:meth:`~SimulationSession.next_block`),
has it run (:meth:`~SimulationSession.run_block`, here, or elsewhere: on a Dask cluster), and adds
it (:meth:`~SimulationSession.add`), which ends the session once the rollouts asked are made,
the leader is significant at the ``stop`` level or the time budget has passed;
:meth:`~SimulationSession.step` does all three.  :func:`simulate` drives one session to its end.
Rollout ``i`` is dealt from ``(seed, i)`` alone, so whoever runs the blocks, the sums are the same.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from ..equity.leaves import LeaveModel
from .choices import DEFAULT_POLICY, LATE_BOX, ROLLOUT_ENDGAME_NODES, STOP_LEVELS
from .rollouts import (BLOCK, DEFAULT_CANDIDATES, DEFAULT_PLIES, PIECE_SECONDS, Setup, SimResult, Tally,
                       leader_is_significant, paired_leads, ranking, rollout_results, rollouts_of, setup_for,
                       top_candidates)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ..position.position import Position

Block = tuple["NDArray[np.float64]", "NDArray[np.float64]"]   # a block's outcomes and wins, a row a rollout
Chance = Callable[["NDArray[np.float64]"], "NDArray[np.float64]"]
WAITING, RUNNING, DONE, STOPPED, FAILED = "waiting", "running", "done", "stopped", "failed"
FINISHED = (DONE, STOPPED, FAILED)


class SimulationSession:
    """Up to ``rollouts`` rollouts of every candidate of ``setup``, a block at a time.

    ``stop``: a level of :data:`STOP_LEVELS` at which a significant leader ends the session;
    ``seconds``: a time budget from :meth:`start`; ``chance`` (a block of outcomes to their win
    probabilities) gives each result its mean win probability, and ``rank_by_chance`` ranks by it.
    ``state`` is one of waiting, running, done, stopped (by :meth:`stop`) and failed (:meth:`fail`)."""

    def __init__(self, setup: Setup, rollouts: int, *, stop: int | None = None, seconds: float | None = None,
                 chance: Chance | None = None, rank_by_chance: bool = False) -> None:
        if stop is not None and stop not in STOP_LEVELS:
            raise ValueError(f"stop must be one of {', '.join(map(str, STOP_LEVELS))}, not {stop!r}")
        n = len(setup.candidates)
        self.setup, self.asked, self.stop_level, self.seconds = setup, rollouts, stop, seconds
        self.chance, self.rank_by_chance = chance, rank_by_chance
        self.tally = Tally(n)
        self.wins = Tally(n) if setup.to_end else None
        self.chances = Tally(n) if chance is not None and not setup.to_end else None
        self.deadline: float | None = None
        self.state = WAITING
        self.error: str | None = None

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    @property
    def progress(self) -> tuple[int, int]:
        """The rollouts made and the rollouts asked."""
        return self.tally.count, self.asked

    def start(self) -> SimulationSession:
        """Check the setup (here, not in a worker), start the time budget; a setup without
        candidates is done at once."""
        if self.state == WAITING:
            if self.setup.candidates:
                rollouts_of(self.setup)
                self.deadline = None if self.seconds is None else time.monotonic() + self.seconds
                self.state = RUNNING
            else:
                self.state = DONE
        return self

    def next_block(self) -> tuple[int, int]:
        """The first rollout and the count of the next block (a count of 0 once finished)."""
        start = self.tally.count
        return start, 0 if self.finished else min(BLOCK, self.asked - start)

    def run_block(self, start: int, count: int, threads: int = 1) -> Block:
        """The outcomes and wins of rollouts ``start`` to ``start + count - 1``; changes nothing
        (a driver may run it outside its lock and throw it away)."""
        return rollout_results(self.setup, start, count, threads)

    def add(self, block: Block) -> None:
        """Count the next block in, then end the session when the rollouts asked are made, the
        leader is significant at the ``stop`` level or the budget has passed."""
        outcomes, won = block
        self.tally.add(outcomes)
        if self.wins is not None:
            self.wins.add(won)
        if self.chances is not None and self.chance is not None:
            self.chances.add(self.chance(outcomes))
        if self.tally.count >= self.asked or self._stops_early():
            self.state = DONE

    def _stops_early(self) -> bool:
        judged = self.chances if self.rank_by_chance and self.chances else self.wins
        return ((self.stop_level is not None
                 and leader_is_significant(self.tally, STOP_LEVELS[self.stop_level], judged))
                or (self.deadline is not None and time.monotonic() >= self.deadline))

    def step(self, threads: int = 1) -> int:
        """Run and add the next block here; the rollouts it made."""
        start, count = self.next_block()
        if not count:
            return 0
        block = self.run_block(start, count, threads)
        self.add(block)
        return len(block[0])

    def stop(self) -> None:
        """End the session where it is (a block under way is not counted in)."""
        if not self.finished:
            self.state = STOPPED

    def fail(self, reason: str) -> None:
        self.state, self.error = FAILED, reason

    def results(self) -> list[SimResult]:
        """Every candidate's result, best first (ties to the equity order); before the first
        block, each candidate with no rollouts, in the equity order."""
        tally, wins, candidates = self.tally, self.wins, self.setup.candidates
        if not tally.count:
            return [SimResult(candidate, 0, 0.0, 0.0) for candidate in candidates]
        leads = paired_leads(tally, wins)
        judged = wins if wins is not None else self.chances if self.rank_by_chance else None
        return [SimResult(candidates[row], tally.count, tally.mean(row), tally.stdev(row),
                          None if wins is None else wins.mean(row), leads.get(row),
                          wins.mean(row) if wins is not None and self.chance is not None
                          else None if self.chances is None else self.chances.mean(row))
                for row in ranking(tally, judged)]


def simulate(setup: Setup, rollouts: int, *, threads: int = 1, scheduler: str | None = None,
             stop: int | None = None, seconds: float | None = None,
             on_progress: Callable[[int], None] | None = None,
             chance: Chance | None = None, rank_by_chance: bool = False) -> list[SimResult]:
    """Run up to ``rollouts`` rollouts of every candidate of ``setup`` over
    ``threads`` threads (or on the Dask cluster at ``scheduler``); the results
    best mean first (ties to the equity order), the same for a seed whatever
    ``threads`` or ``scheduler``.  After each :data:`BLOCK` it stops early when
    ``stop`` (a level of :data:`STOP_LEVELS`) finds the leader significant, or
    when ``seconds`` have passed (a budget: where it stops depends on the machine).
    With ``chance`` (a block of outcomes to their win probabilities,
    :func:`ginnyo.odds.win_probability.outcome_chances`) each result gets its mean
    win probability (its share of wins when the rollouts play to the end), and
    with ``rank_by_chance`` the results are ranked by it first."""
    if not setup.candidates:
        return []
    session = SimulationSession(setup, rollouts, stop=stop, seconds=seconds, chance=chance,
                                rank_by_chance=rank_by_chance).start()
    for block in _blocks(setup, rollouts, threads, scheduler, session.deadline, seconds):
        session.add(block)
        if on_progress is not None:
            on_progress(len(block[0]))
        if session.finished:
            break
    return session.results()


def _blocks(setup: Setup, rollouts: int, threads: int, scheduler: str | None, deadline: float | None = None,
            seconds: float | None = None) -> Iterator[Block]:
    """The outcomes and wins of rollouts 0 to ``rollouts - 1``, a block at a time, in order;
    a block cut short where the ``deadline`` (of a budget of ``seconds``) passed, on
    the threads here or on the Dask cluster at ``scheduler`` alike (see :func:`_outcome_part`)."""
    starts = range(0, rollouts, BLOCK)
    piece_seconds = PIECE_SECONDS if seconds is None else min(PIECE_SECONDS, seconds / 4)
    if scheduler is None:
        piece = max(threads, 1)      # the first piece: one rollout a thread
        for start in starts:
            block, piece = _block_in_pieces(setup, start, min(BLOCK, rollouts - start), threads, deadline,
                                            piece_seconds, piece)
            yield block
        return
    from ..support.workers import run_batches
    parts = [(start, min(BLOCK, rollouts - start)) for start in starts]
    budget = None if deadline is None else (time.time() + deadline - time.monotonic(), piece_seconds)
    waiting: dict[int, Block] = {}
    for start, block in run_batches(partial(_outcome_part, setup=setup, budget=budget), parts, workers=1,
                                    scheduler=scheduler):
        waiting[start] = block
        while parts and parts[0][0] in waiting:
            yield waiting.pop(parts.pop(0)[0])


def _outcome_part(part: tuple[int, int], setup: Setup, budget: tuple[float, float] | None = None
                  ) -> tuple[int, Block]:
    """One part of a Dask run: ``(start, (outcomes, wins))``.  With a ``budget``
    (the deadline on the wall clock, which the machines share, and the pieces'
    length) the part runs in pieces and is cut short once the deadline passes."""
    start, count = part
    if budget is None:
        return start, rollout_results(setup, start, count)
    wall_deadline, piece_seconds = budget
    deadline = time.monotonic() + (wall_deadline - time.time())
    return start, _block_in_pieces(setup, start, count, 1, deadline, piece_seconds, 1)[0]


def _block_in_pieces(setup: Setup, start: int, count: int, threads: int, deadline: float | None,
                     piece_seconds: float, size: int) -> tuple[Block, int]:
    """Rollouts ``start`` to ``start + count - 1`` (one block) in pieces, the
    first of ``size`` rollouts, each next one sized from the last one's cost per
    rollout to take about ``piece_seconds`` (at most 4 times the last, at least
    one rollout a thread); those run when the ``deadline`` passes, if it does.
    The same rollouts whatever the pieces; returns the block and the next piece's size."""
    outcomes, wins = [], []
    done = 0
    while done < count:
        take = min(size, count - done)
        began = time.monotonic()
        piece = rollout_results(setup, start + done, take, threads)
        ended = time.monotonic()
        outcomes.append(piece[0])
        wins.append(piece[1])
        done += take
        if deadline is not None and ended >= deadline:
            break
        fits = int(piece_seconds * take / (ended - began)) if ended > began else 4 * size
        size = max(threads, 1, min(4 * size, fits))
    if len(outcomes) == 1:
        return (outcomes[0], wins[0]), size
    return (np.concatenate(outcomes), np.concatenate(wins)), size


def position_setup(position: Position, model: LeaveModel, *, candidates: int = DEFAULT_CANDIDATES,
                   plies: int = DEFAULT_PLIES, seed: int = 0, policy: str = DEFAULT_POLICY,
                   late_box: int = LATE_BOX, endgame_nodes: int = ROLLOUT_ENDGAME_NODES) -> Setup:
    """The rollout setup of a static position: the top ``candidates`` of its equity ranking
    (see :func:`setup_for`)."""
    from ..equity.rank import rank_position
    ranked = rank_position(position, model, limit=candidates)
    return setup_for(position, top_candidates(ranked, candidates), plies, seed, model, policy, late_box,
                     endgame_nodes)


def simulate_position(position: Position, rollouts: int, model: LeaveModel, *, candidates: int = DEFAULT_CANDIDATES,
                      plies: int = DEFAULT_PLIES, seed: int = 0, policy: str = DEFAULT_POLICY,
                      late_box: int = LATE_BOX, endgame_nodes: int = ROLLOUT_ENDGAME_NODES, threads: int = 1,
                      scheduler: str | None = None, stop: int | None = None, seconds: float | None = None,
                      on_progress: Callable[[int], None] | None = None,
                      inferred: Any = None, chance: Chance | None = None) -> tuple[Setup, list[SimResult]]:
    """``best-move --sim``: the top ``candidates`` of a static position's equity
    ranking simulated ``rollouts`` times each (see :func:`position_setup` and
    :func:`simulate`); the setup and the results, best first.  ``inferred``:
    the opponents' deal tables (:func:`ginnyo.odds.inference.deal_tables`), dealt
    from instead of uniformly; ``chance``: each candidate's win probability
    reported (:func:`ginnyo.odds.win_probability.outcome_chances`)."""
    setup = position_setup(position, model, candidates=candidates, plies=plies, seed=seed, policy=policy,
                           late_box=late_box, endgame_nodes=endgame_nodes)
    if inferred is not None:
        setup = replace(setup, inferred=inferred)
    results = simulate(setup, rollouts, threads=threads, scheduler=scheduler, stop=stop, seconds=seconds,
                       on_progress=on_progress, chance=chance)
    return setup, results


__all__ = ["SimulationSession", "simulate", "simulate_position", "position_setup", "Block",
           "WAITING", "RUNNING", "DONE", "STOPPED", "FAILED"]
