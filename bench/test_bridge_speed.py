"""What the bridge to the core costs: every legal play as ranked ScoredPlay
objects with melds (``native.legal_plays``, and ``list(position.legal_plays)``) against the core's own tuple call
(``Core.legal_plays()``), on the same mid-game positions in the same run.

The ratios go to the summary; nothing is asserted about time.
"""

from __future__ import annotations

from pytest_benchmark.fixture import BenchmarkFixture

from conftest import FACTS, fastest_rounds, record
from ginnyo import native
from ginnyo.position.position import Position

POSITIONS = 100


def test_legal_plays_as_objects_against_the_cores_tuples(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    positions = corpus[:POSITIONS]
    cores = [native.core_of(position) for position in positions]
    plays = sum(core.count_plays() for core in cores)
    reused = native.empty_core(positions[0].layout)

    def load_and_tuples(ranked: bool = False) -> list[object]:
        result: list[object] = []
        for position in positions:
            reused.load_tiles(position.board, position.rack)
            result.append(reused.legal_plays(ranked=ranked))
        return result

    fastest = fastest_rounds({
        "tuples": lambda: [core.legal_plays() for core in cores],
        "load and tuples": load_and_tuples,
        "load and ranked tuples": lambda: load_and_tuples(ranked=True),
        "objects": lambda: [native.legal_plays(position) for position in positions],
        "view": lambda: [list(position.legal_plays) for position in positions],
    })
    benchmark(lambda: [native.legal_plays(position) for position in positions])
    record("all plays, ranked ScoredPlay objects with melds (per play)", benchmark, plays)
    FACTS["native.legal_plays over Core.legal_plays() tuples"] = \
        f"{fastest['objects'] / fastest['tuples']:10.2f} x"
    FACTS["... over loading the position and Core.legal_plays()"] = \
        f"{fastest['objects'] / fastest['load and tuples']:10.2f} x"
    FACTS["list(Position.legal_plays) over Core.legal_plays() tuples"] = \
        f"{fastest['view'] / fastest['tuples']:10.2f} x"
    # the same task both ways: a position in, its plays out in ranking order
    FACTS["list(Position.legal_plays) over loading and ranked tuples"] = \
        f"{fastest['view'] / fastest['load and ranked tuples']:10.2f} x"
