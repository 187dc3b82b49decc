"""The engine protocol's ``go equity`` and ``go sim`` (docs/PROTOCOL.md): the analysis report's
rankings, the same as ``ginnyo best-move --equity`` and ``--sim`` give, ``stop`` ending a running
simulation with exactly one ``bestmove``, and bad settings answered with one error line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from ginnyo.engine.client import SimpleEngine, SimProgress, default_command
from ginnyo.engine.server import NO_MOVE, Engine

EXTEND = "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 5C8CKCKD8H5S8SKS"
NO_PLAY = "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 9CJC2DKDAS"
LONG_SIM = "go sim rollouts 100000 plies 8"   # far longer than the few blocks before the stop comes


@pytest.fixture
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen(timeout=60) as running:
        yield running


def best_move_json(*options: str) -> dict[str, object]:
    """``ginnyo best-move EXTEND --json`` with ``options``."""
    done = subprocess.run([sys.executable, "-m", "ginnyo", "best-move", EXTEND, "--json", *options],
                          capture_output=True, text=True, timeout=120, check=True)
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def answer_of(engine: Engine, line: str) -> list[str]:
    return list(engine.handle(line))


def test_the_hello_names_go_equity_and_go_sim(engine: SimpleEngine) -> None:
    assert {"go-equity", "go-sim", "stop"} <= engine.capabilities


def test_go_equity_ranks_as_best_move_equity(engine: SimpleEngine) -> None:
    engine.set_position(EXTEND)
    result = engine.go(top=5, equity=True)
    expected = best_move_json("--equity", "--candidates", "5")["candidates"]
    assert isinstance(expected, list)
    assert [(c.notation, c.score, c.equity) for c in result.candidates] == \
        [(e["notation"], e["score"], e["equity"]) for e in expected]
    assert result.bestmove == expected[0]["notation"]


def test_go_equity_whose_best_action_is_a_return_answers_bestmove_none_return() -> None:
    engine = Engine()
    engine.handle(f"position {NO_PLAY}")
    lines = answer_of(engine, "go equity top 2")
    first = lines[0].partition(" move ")[2]
    assert first.startswith("return ") and lines[-1] == f"bestmove none {first}"
    assert sum(line.startswith("bestmove") for line in lines) == 1


def test_go_sim_with_a_seed_ranks_as_best_move_sim_with_that_seed(engine: SimpleEngine) -> None:
    engine.set_position(EXTEND)
    result = engine.go(sim=True, top=3, rollouts=300, plies=2, seed=3)
    expected = best_move_json("--sim", "300", "--candidates", "3", "--plies", "2", "--seed", "3", "--workers", "1")
    candidates = expected["candidates"]
    assert isinstance(candidates, list)
    assert [(c.notation, c.mean, c.win) for c in result.candidates] == \
        [(e["notation"], e["mean"], e["win_probability"]) for e in candidates]
    assert result.bestmove == candidates[0]["notation"]
    assert (result.rollouts, result.stopped) == (300, False)


def test_go_sim_reports_its_progress_after_each_block(engine: SimpleEngine) -> None:
    engine.set_position(EXTEND)
    seen: list[SimProgress] = []
    result = engine.go(sim=True, top=2, rollouts=600, seed=1, on_progress=seen.append)
    assert [(p.rollouts, p.asked) for p in result.progress] == [(256, 600), (512, 600), (600, 600)]
    assert list(result.progress) == seen
    assert result.progress[-1].notation == result.bestmove
    assert result.progress[-1].mean == result.candidates[0].mean


def test_stop_ends_a_running_go_sim_with_exactly_one_bestmove() -> None:
    process = subprocess.Popen(default_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, bufsize=1)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    try:
        process.stdin.write(f"position {EXTEND}\n{LONG_SIM}\n")
        process.stdin.flush()
        first = process.stdout.readline()
        assert first.startswith("info sim rollouts "), first   # running, not refused
        process.stdin.write("isready\nstop\n")   # isready waits for the bestmove; stop ends the search
        process.stdin.flush()
        answer = [first.rstrip("\n")]
        while not answer[-1].startswith("bestmove"):
            answer.append(process.stdout.readline().rstrip("\n"))
        assert process.stdout.readline() == "readyok\n"
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(60) == 0
        assert process.stdout.read() == "" and process.stderr.read() == ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    stopped = [line.split() for line in answer if line.startswith("info sim stopped ")]
    assert len(stopped) == 1 and int(stopped[0][4]) < 100_000
    assert sum(line.startswith("bestmove") for line in answer) == 1 and answer[-1] != NO_MOVE
    ranked = [line for line in answer if line.startswith("info rank ")]
    assert len(ranked) == 5 and answer[-1] == "bestmove " + ranked[0].partition(" move ")[2]


def test_the_clients_stop_ends_its_go_sim_early(engine: SimpleEngine) -> None:
    engine.set_position(EXTEND)
    result = engine.go(sim=True, rollouts=100_000, plies=8, on_progress=lambda _: engine.stop())
    assert result.stopped and result.rollouts is not None and result.rollouts < 100_000
    assert result.bestmove == result.candidates[0].notation
    engine.is_ready()   # the engine serves on, with no second bestmove waiting


def test_stop_with_no_search_running_answers_nothing() -> None:
    engine = Engine()
    assert answer_of(engine, "stop") == []


@pytest.mark.parametrize("line", [
    "go sim rollouts 0", "go sim seconds -1", "go sim seconds 0", "go sim seconds nan", "go sim seconds 1e400",
    "go sim seconds 3601", "go sim rollouts 100001", "go sim rollouts 99999999999999999999999999",
    "go sim plies 9", "go sim top 0", "go sim top 11", "go sim seed -1", "go sim seed 1 seed 2",
    "go sim rollouts", "go sim speed 3", "go sim rollouts ten", "go equity top 0", "go equity bottom 3",
    "go equity top 1x",
])
def test_bad_go_equity_and_go_sim_settings_are_one_error_then_bestmove_none(line: str) -> None:
    engine = Engine()
    engine.handle(f"position {EXTEND}")
    lines = answer_of(engine, line)
    form = " ".join(line.split()[:2])
    assert len(lines) == 2 and lines[1] == NO_MOVE
    assert lines[0].startswith(f"info string error bad-argument {form}: "), lines[0]


def test_go_sim_before_a_position_is_no_position_then_bestmove_none() -> None:
    lines = answer_of(Engine(), "go sim rollouts 10")
    assert lines[0].startswith("info string error no-position") and lines[1:] == [NO_MOVE]
