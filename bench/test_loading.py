"""What loading a position costs against solving it (issue 19 item 3: at most
10 times its best play): ``Position.from_json`` and ``Position.from_line`` of
one position, a .jsonl corpus loaded in bulk (``ginnyo.analysis.bulk.load_jsonl``) and
the checked Python path, each over the best play of the same mid-game
positions by the core (``Core.best_play`` of a loaded core), in the same run.

The ratios go to the summary; nothing is asserted about time.
"""

from __future__ import annotations

from pytest_benchmark.fixture import BenchmarkFixture

from conftest import FACTS, HERE, fastest_rounds, record
from ginnyo import native
from ginnyo.analysis.bulk import load_jsonl
from ginnyo.position.position import Position

POSITIONS = 200
CHECKED = 20        # the checked path is slow: its ratio is taken on these positions


def test_loading_against_best_play(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    data = (HERE / "corpus-mid.jsonl").read_bytes()
    texts = [line.decode("utf-8") for line in data.splitlines()[:POSITIONS]]
    positions = corpus[:POSITIONS]
    lines = [position.to_line() for position in positions]
    cores = [native.core_of(position) for position in positions]
    chunk = b"\n".join(data.splitlines()[:POSITIONS])
    fastest = fastest_rounds({
        "best play": lambda: [core.best_play() for core in cores],
        "best play objects": lambda: [native.best_play(position) for position in positions],
        "json": lambda: [Position.from_json(text) for text in texts],
        "line": lambda: [Position.from_line(line) for line in lines],
        "bulk": lambda: load_jsonl(chunk),
        "checked": lambda: [Position.checked_json(text) for text in texts[:CHECKED]],
    })
    per = {name: seconds / (CHECKED if name == "checked" else POSITIONS) for name, seconds in fastest.items()}
    benchmark(lambda: [Position.from_json(text) for text in texts])
    record("load a position from JSON (Position.from_json)", benchmark, POSITIONS)
    for name, what in (("json", "Position.from_json"), ("line", "Position.from_line"),
                       ("bulk", "bulk.load_jsonl, per position"), ("checked", "Position.checked_json")):
        FACTS[f"{what} over Core.best_play"] = f"{per[name] / per['best play']:10.2f} x"
    FACTS["Position.from_json over native.best_play (objects)"] = \
        f"{per['json'] / per['best play objects']:10.2f} x"
    FACTS["Core.best_play, fastest round, per position"] = f"{per['best play'] * 1e6:10.2f} us"
