"""Benchmark fixtures and the summary: throughput, ratios to the reference, and
the CI guard on the best-play speed-up (see bench/baseline.json)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from ginnyo.position.position import Position

HERE = Path(__file__).resolve().parent
RESULTS: dict[str, float] = {}
FASTEST: dict[str, float] = {}
COUNTS: dict[str, int] = {}
FACTS: dict[str, str] = {}      # other figures of the run, printed with the summary
REFERENCE_SLICE = 25     # the reference is slow: ratios are taken on these positions
ROUNDS = 15              # rounds of fastest_rounds


@pytest.fixture(scope="session")
def corpus() -> list[Position]:
    """The committed mid-game corpus (``ginnyo corpus --positions 500 --stage mid
    --seed 2026 --out bench/corpus-mid.jsonl``)."""
    lines = (HERE / "corpus-mid.jsonl").read_text(encoding="utf-8").splitlines()
    return [Position.from_json(line) for line in lines]


@pytest.fixture(scope="session")
def reference_slice(corpus: list[Position]) -> list[Position]:
    return corpus[:REFERENCE_SLICE]


def record(name: str, timing: BenchmarkFixture | tuple[float, float], count: int) -> None:
    """Keep a benchmark's median and fastest round (from pytest-benchmark's fixture
    once it ran, or a ``(median, fastest)`` pair) and how many items one round
    handled.  On a shared machine other work only slows a round down, so the
    fastest round is the closer estimate of the code's own speed.  Under
    ``--benchmark-disable`` the fixture runs its work once, untimed: nothing is kept."""
    if isinstance(timing, tuple):
        RESULTS[name], FASTEST[name] = timing
    elif timing.stats is not None:
        RESULTS[name], FASTEST[name] = timing.stats.stats.median, timing.stats.stats.min
    else:
        return
    COUNTS[name] = count


def fastest_rounds(work: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The fastest of ROUNDS rounds of each piece of work, the pieces taking
    turns, so a busy spell on a shared machine slows them alike."""
    fastest = {name: float("inf") for name in work}
    for _ in range(ROUNDS):
        for name, piece in work.items():
            started = time.perf_counter()
            piece()
            fastest[name] = min(fastest[name], time.perf_counter() - started)
    return fastest


def _per_item(name: str) -> float | None:
    return RESULTS[name] / COUNTS[name] if name in RESULTS else None


def _rows() -> list[tuple[str, str]]:
    rows = []
    for name in sorted(RESULTS):
        per = RESULTS[name] / COUNTS[name]
        fastest = FASTEST[name] / COUNTS[name]
        unit = "game" if "games" in name else "play" if "plays" in name else "position"
        # a play takes tens of nanoseconds: in ns, with a decimal, as the README gives it
        scale, prefix = (1e9, "ns") if unit == "play" else (1e6, "us")
        rows.append((name, f"{per * scale:10.2f} {prefix}/{unit} {1 / per:12,.0f}/s   "
                           f"fastest {fastest * scale:10.2f} {prefix} {1 / fastest:12,.0f}/s"))
    ratios = speedups()
    for name, value in ratios.items():
        rows.append((name, f"{value:10,.0f} x"))
    return rows


def speedups() -> dict[str, float]:
    """Core against reference on the same positions, in this run."""
    result = {}
    reference = _per_item("best play, reference (slice)")
    for core in ("best play, core (slice)", "best play, core batch 1 thread"):
        per = _per_item(core)
        if reference and per:
            result[f"speed-up of {core} over the reference"] = reference / per
    return result


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not RESULTS:
        return
    terminalreporter.section("ginnyo throughput (median of rounds, and the fastest round)")
    for name, text in _rows():
        terminalreporter.write_line(f"{name:<56} {text}")
    for name, text in FACTS.items():
        terminalreporter.write_line(f"{name:<56} {text}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
    """Fail the run when the best-play speed-up fell below half the baseline."""
    baseline = json.loads((HERE / "baseline.json").read_text(encoding="utf-8"))
    measured = speedups().get("speed-up of best play, core (slice) over the reference")
    if measured is None:
        return
    floor = baseline["best_play_speedup_over_reference"] / 2
    if measured < floor:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:       # none under -p no:terminal
            reporter.write_line(f"FAILED: best-play speed-up {measured:,.0f}x is below half the baseline ({floor:,.0f}x)")
        session.exitstatus = 1
