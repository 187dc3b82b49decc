"""The compiled simulation (ginnycore.simulate) against the compiled game loop, ratios within one run.

Issue 19's targets, measured, never asserted (a shared machine's wall clock):
- a rollout ply (a turn a rollout player plays: the greedy policy's best play,
  drawing, refilling, the stall clock) against a turn of the compiled greedy
  game loop (``selfplay --engine c``): the target is at most 2x;
- ``ginnyo best-move --sim 20000 --workers 1 examples/midgame.json`` against
  ``ginnyo selfplay --engine c --games 20000 --workers 1``, whole commands:
  the target is at most 1x;
- the same rollouts on 2 threads against 1: the target is at least 1.8x (beside
  the compiled game loop's own figure, and the CPU time the 2 threads take
  together against 1: on a busy machine that says whether they scale).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
from pytest_benchmark.fixture import BenchmarkFixture

from conftest import FACTS, FASTEST, HERE, record
from ginnyo.equity.rank import rank_position
from ginnyo.equity.leaves import default_model
from ginnyo.position.position import Position
from ginnyo.simulation.rollouts import rollout_outcomes, setup_for, top_candidates

C_GAMES = 400
POSITIONS = 20          # corpus positions simulated
ROLLOUTS = 100          # rollouts of each, 5 candidates, 2 plies after ours
LATE_ROLLOUTS = 6       # rollouts of each late position's candidates (a late rollout costs hundreds of 2-ply ones)
PLIES = 2
EXAMPLE = HERE.parent / "examples" / "midgame.json"
TURN = "C loop self-play turns, greedy (per turn)"
PLY = "rollout plies, greedy policy (per ply)"


def test_rollout_ply_against_a_compiled_self_play_turn(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    from ginnyo.selfplay.compiled import loop_games
    model = default_model()
    setups = [setup_for(p, top_candidates(rank_position(p, model, limit=5), 5), PLIES, 1, model, late_box=-1,
                        endgame_nodes=0) for p in corpus[:POSITIONS]]   # plies alone, whatever the box
    plies = sum(ROLLOUTS * len(setup.candidates) * PLIES for setup in setups)
    for setup in setups:   # the compiled rollouts made once (cached), as a simulation makes them
        rollout_outcomes(setup, 0, 1)

    def rollouts() -> None:
        for setup in setups:
            rollout_outcomes(setup, 0, ROLLOUTS)

    turns = int(loop_games(C_GAMES, ["greedy", "greedy"], 2026).turns.sum())
    game_times = []
    for _ in range(5):
        start = time.perf_counter()
        loop_games(C_GAMES, ["greedy", "greedy"], 2026)
        game_times.append(time.perf_counter() - start)
    record(TURN, (float(np.median(game_times)), min(game_times)), turns)
    benchmark.pedantic(rollouts, rounds=5, iterations=1, warmup_rounds=1)
    record(PLY, benchmark, plies)
    if PLY in FASTEST:
        ratio = (FASTEST[PLY] / plies) / (min(game_times) / turns)
        FACTS["rollout ply / compiled self-play turn"] = f"{ratio:10.2f} x   (target <= 2, fastest rounds)"


def test_late_rollouts_against_fixed_horizon_rollouts(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    """What the late game costs: the corpus positions with at most LATE_BOX tiles
    in the box, their rollouts played to the game's end (the endgame solver
    finishing the 2-player ones) against 2 plies on the same deals."""
    from dataclasses import replace
    from ginnyo.simulation.rollouts import LATE_BOX
    model = default_model()
    late = [p for p in corpus if setup_for(p, (), PLIES, 1, model).to_end]
    setups = [setup_for(p, top_candidates(rank_position(p, model, limit=5), 5), PLIES, 1, model) for p in late]
    fixed = [replace(setup, to_end=False, endgame_nodes=0) for setup in setups]
    count = LATE_ROLLOUTS * sum(len(setup.candidates) for setup in setups)
    for setup in setups + fixed:
        rollout_outcomes(setup, 0, 1)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        for setup in fixed:
            rollout_outcomes(setup, 0, LATE_ROLLOUTS)
        times.append(time.perf_counter() - start)
    record(f"rollouts of {PLIES} plies, late positions (per rollout)", (float(np.median(times)), min(times)), count)
    benchmark.pedantic(lambda: [rollout_outcomes(setup, 0, LATE_ROLLOUTS) for setup in setups],
                       rounds=3, iterations=1, warmup_rounds=1)
    to_end = f"rollouts to the game's end, box <= {LATE_BOX} (per rollout)"
    record(to_end, benchmark, count)
    if to_end in FASTEST:
        FACTS[f"late rollouts ({len(late)} positions) / {PLIES}-ply rollouts"] = \
            f"{FASTEST[to_end] / min(times):10.2f} x   (no target: the price of playing to the end)"


def _command_seconds(*argv: str) -> float:
    """The fastest of three runs of a ginnyo command, start-up included."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ginnyo", *argv], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def test_best_move_sim_against_selfplay_commands() -> None:
    sim = _command_seconds("best-move", "--sim", "20000", "--workers", "1", str(EXAMPLE))
    games = _command_seconds("selfplay", "--engine", "c", "--games", "20000", "--workers", "1")
    FACTS["best-move --sim 20000 --workers 1 (midgame)"] = f"{sim:10.2f} s"
    FACTS["selfplay --engine c --games 20000 --workers 1"] = f"{games:10.2f} s"
    FACTS["best-move --sim 20000 / selfplay --games 20000"] = f"{sim / games:10.2f} x   (target <= 1)"


def _fastest_by_threads(work: Callable[[int], object],
                        clock: Callable[[], float] = time.perf_counter) -> dict[int, float]:
    """The fastest of three runs of ``work(threads)`` on 1 and on 2 threads, interleaved."""
    best: dict[int, float] = {}
    for threads in (1, 2, 1, 2, 1, 2):
        start = clock()
        work(threads)
        seconds = clock() - start
        best[threads] = min(best.get(threads, seconds), seconds)
    return best


def test_rollouts_on_two_threads_against_one() -> None:
    """Beside the compiled game loop's own 2-thread speed-up in the same run: on
    a shared machine that says how much of a second core there was to have."""
    from ginnyo.selfplay.compiled import loop_games
    model = default_model()
    pos = Position.from_json(EXAMPLE.read_text(encoding="utf-8"))
    setup = setup_for(pos, top_candidates(rank_position(pos, model, limit=5), 5), PLIES, 0, model)
    rollout_outcomes(setup, 0, 1)
    sim = _fastest_by_threads(lambda threads: rollout_outcomes(setup, 0, 8192, threads))
    games = _fastest_by_threads(lambda threads: loop_games(2000, ["greedy", "greedy"], 7, threads=threads))
    cpu = _fastest_by_threads(lambda threads: rollout_outcomes(setup, 0, 8192, threads), time.process_time)
    record("midgame rollouts of 5 candidates, 2 threads (per position)", (sim[2], sim[2]), 8192)
    FACTS["rollouts: 2 threads / 1 thread (midgame)"] = f"{sim[1] / sim[2]:10.2f} x   (target >= 1.8)"
    FACTS["C loop games: 2 threads / 1 thread (same run)"] = f"{games[1] / games[2]:10.2f} x"
    # CPU time, all threads: about 1 when the threads do not get in each other's way,
    # so that two idle cores would run the rollouts about twice as fast
    FACTS["rollouts' CPU time: 2 threads / 1 thread"] = f"{cpu[2] / cpu[1]:10.2f} x"
