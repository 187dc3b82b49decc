"""Throughput of the compiled core against the plain-Python reference.

Run with ``python -m pytest bench``; the summary at the end gives per-position
and per-play figures and the speed-ups, all measured in the same run.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from pytest_benchmark.fixture import BenchmarkFixture

from conftest import FACTS, record
from ginnyo import native
from ginnyo.position import reference
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import JOKER

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "midgame.json")


def test_best_play_reference(benchmark: BenchmarkFixture, reference_slice: list[Position]) -> None:
    benchmark.pedantic(lambda: [reference.legal_plays(p) for p in reference_slice], rounds=1, iterations=1)
    record("best play, reference (slice)", benchmark, len(reference_slice))


def test_best_play_core_per_call(benchmark: BenchmarkFixture, reference_slice: list[Position]) -> None:
    cores = [native.core_of(p) for p in reference_slice]
    benchmark(lambda: [core.best_play() for core in cores])
    record("best play, core (slice)", benchmark, len(cores))


def test_best_play_core_batch_one_thread(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    batch = native.Batch(corpus)
    scores = benchmark(lambda: batch.best_plays(threads=1))[0]
    assert (scores >= -1).all()
    record("best play, core batch 1 thread", benchmark, len(corpus))


def test_best_play_core_batch_median_position(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    """Each position timed on its own inside the core (load, prepare, search):
    the median over the corpus, from the round with the lowest median."""
    import numpy as np
    batch = native.Batch(corpus)
    seconds = np.empty(len(corpus))
    medians = []

    def solve() -> None:
        batch.best_plays(threads=1, seconds=seconds)
        medians.append(float(np.median(seconds)))

    benchmark(solve)
    assert (seconds > 0).all()
    record("best play, core batch 1 thread, median position", (float(np.median(medians)), min(medians)), 1)


def test_best_play_core_batch_two_threads(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    batch = native.Batch(corpus)
    benchmark(lambda: batch.best_plays(threads=2))
    record("best play, core batch 2 threads", benchmark, len(corpus))


def test_all_plays_core(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    """Every legal play of every position, each with its score, written to the
    core's C array (``Core.generate_plays``)."""
    cores = [native.core_of(p) for p in corpus]
    plays = sum(core.count_plays() for core in cores)
    assert sum(core.generate_plays() for core in cores) == plays
    benchmark(lambda: [core.generate_plays() for core in cores])
    record("all plays, core (per generated play)", benchmark, plays)
    FACTS["legal plays a position, mid-game corpus"] = f"{plays / len(cores):10.1f}"
    plain = [core for core, position in zip(cores, corpus) if JOKER not in position.rack]
    FACTS["... positions with no joker on the rack"] = f"{len(plain):8d}"
    FACTS["... legal plays in each of those, on average"] = f"{sum(c.count_plays() for c in plain) / len(plain):10.1f}"
    FACTS["bytes a position takes in the core (15 x 15)"] = f"{cores[0].nbytes:8d}"


def test_all_plays_core_batch_one_thread(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    """The same work as test_all_plays_core, every core in one call
    (``native.Cores.generate_plays``): no Python call a position."""
    cores = native.Cores([native.core_of(p) for p in corpus])
    plays = int(cores.count_plays().sum())
    assert int(cores.generate_plays().sum()) == plays
    benchmark(cores.generate_plays)
    record("all plays, core batch 1 thread (per generated play)", benchmark, plays)


def test_all_plays_core_batch_two_threads(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    cores = native.Cores([native.core_of(p) for p in corpus])
    plays = int(cores.count_plays().sum())
    benchmark(lambda: cores.generate_plays(threads=2))
    record("all plays, core batch 2 threads (per generated play)", benchmark, plays)


def test_all_plays_core_as_python_objects(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    cores = [native.core_of(p) for p in corpus[:100]]
    plays = sum(core.count_plays() for core in cores)
    benchmark(lambda: [core.legal_plays() for core in cores])
    record("all plays, core as tuples (per play)", benchmark, plays)


def _run(argv: list[str]) -> None:
    subprocess.run(argv, check=True, capture_output=True)


def test_cli_best_move_end_to_end(benchmark: BenchmarkFixture) -> None:
    benchmark.pedantic(_run, args=(["ginnyo", "best-move", EXAMPLE],), rounds=15, iterations=1)
    record("ginnyo best-move FILE, end to end", benchmark, 1)


def test_python_import_ginnyo(benchmark: BenchmarkFixture) -> None:
    benchmark.pedantic(_run, args=([sys.executable, "-c", "import ginnyo"],), rounds=15, iterations=1)
    record("python -c 'import ginnyo'", benchmark, 1)


def test_a_million_positions_in_batches_do_not_grow_the_process(corpus: list[Position]) -> None:
    batch = native.Batch(corpus[:500])
    batch.best_plays(threads=2)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(2000):            # 2 000 x 500 = 1 000 000 positions
        batch.best_plays(threads=2)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert after - before < 1024, f"peak RSS grew by {after - before} KiB"


def test_greedy_two_player_games_in_c_one_thread(benchmark: BenchmarkFixture) -> None:
    from ginnyo.selfplay.compiled import greedy_games
    games = 500
    result = benchmark.pedantic(greedy_games, args=(games, 2, 2026), rounds=5, iterations=1)
    assert len(result) == games
    record("greedy 2-player games, C loop, 1 thread (per game)", benchmark, games)
