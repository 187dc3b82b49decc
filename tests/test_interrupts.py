"""Ctrl-C and SIGTERM stop self-play with one line, exit 130 / 143, no traceback
from any process, and only whole records, each of which replays; one process
writes each game's record as the game ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ginnyo import interrupts
from ginnyo.crazy.game import read_record as read_crazy_record
from ginnyo.crazy.game import replay as replay_crazy
from ginnyo.records import replay
from ginnyo.selfplay import run
from ginnyo.workers import run_batches
from helpers import child_environment

WAIT = 120   # seconds for the first record on a loaded machine


def start(tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    """``ginnyo ARGV`` in a process group of its own (its workers in it too),
    running the same ginnyo and compiled core as these tests."""
    return subprocess.Popen([sys.executable, "-m", "ginnyo", *argv], cwd=tmp_path, env=child_environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def wait_for_records(process: subprocess.Popen[str], folder: Path, count: int = 1) -> int:
    """Wait until ``folder`` holds ``count`` records; how many it holds then."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = len(list(folder.glob("*.jsonl"))) if folder.is_dir() else 0
        if found >= count:
            return found
        if process.poll() is not None:
            raise AssertionError(f"the run ended first: {process.communicate()}")
        time.sleep(0.02)
    process.kill()
    raise AssertionError(f"no {count} records after {WAIT} s")


def stop(process: subprocess.Popen[str], signum: int, group: bool) -> tuple[int, str, str]:
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    try:
        out, err = process.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    return process.returncode, out, err


def assert_stopped_cleanly(code: int, out: str, err: str, signum: int, folder: Path, prefix: str) -> list[Path]:
    """Exit 128 + signal, one line on stderr naming the records, no traceback,
    nothing in the folder but whole records; the records."""
    assert code == 128 + signum, (code, err)
    assert "Traceback" not in out + err, err
    assert err.count("\n") == 1 and err.startswith("ginnyo: interrupted: wrote "), err
    records = sorted(folder.iterdir())
    assert all(path.name.startswith(prefix) and path.suffix == ".jsonl" for path in records), \
        [path.name for path in records]
    assert f"wrote {len(records)} record" in err and str(folder) in err, err
    assert records
    return records


@pytest.mark.parametrize(("signum", "group"), [(signal.SIGINT, True), (signal.SIGTERM, False),
                                               (signal.SIGTERM, True)],
                         ids=["ctrl-c-to-the-group", "sigterm-to-the-command", "sigterm-to-the-group"])
def test_an_interrupted_selfplay_leaves_only_whole_records_that_replay(tmp_path: Path, signum: int,
                                                                       group: bool) -> None:
    folder = tmp_path / "records"
    process = start(tmp_path, "selfplay", "--games", "1000000", "--workers", "2", "--records", str(folder))
    wait_for_records(process, folder)
    code, out, err = stop(process, signum, group)
    for path in assert_stopped_cleanly(code, out, err, signum, folder, "game-"):
        replay(path)


def test_an_interrupted_crazy_selfplay_leaves_only_whole_records_that_replay(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    process = start(tmp_path, "crazy", "selfplay", "--games", "100000", "--players", "3", "--workers", "2",
                    "--records", str(folder))
    wait_for_records(process, folder)
    code, out, err = stop(process, signal.SIGINT, group=True)
    for path in assert_stopped_cleanly(code, out, err, signal.SIGINT, folder, "crazy-"):
        replay_crazy(read_crazy_record(path), str(path))


def test_one_process_writes_each_record_as_its_game_ends(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    process = start(tmp_path, "selfplay", "--games", "1000000", "--workers", "1", "--records", str(folder))
    first = wait_for_records(process, folder)
    assert process.poll() is None and first < 100     # not a batch (of 200 games, before)
    code, out, err = stop(process, signal.SIGINT, group=True)
    for path in assert_stopped_cleanly(code, out, err, signal.SIGINT, folder, "game-"):
        replay(path)


def test_one_process_hands_over_each_game_as_it_ends() -> None:
    sizes: list[int] = []
    results = run(40, 2, seed=3, workers=1, on_results=lambda batch: sizes.append(len(batch)))
    assert sizes == [1] * 40 and [result.seed for result in results] == list(range(3, 43))


# -- the signal handling itself ------------------------------------------------------------------

def test_a_stop_signal_raises_interrupted_with_the_exit_status() -> None:
    for signum in interrupts.STOP_SIGNALS:
        with pytest.raises(interrupts.Interrupted) as raised:
            with interrupts.raising():
                os.kill(os.getpid(), signum)
                time.sleep(5)   # the handler raises in this thread at once
        assert raised.value.status == 128 + signum
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # put back after


def test_a_stop_signal_waits_until_the_held_block_is_done() -> None:
    steps = []
    with pytest.raises(interrupts.Interrupted) as raised:
        with interrupts.raising():
            with interrupts.held():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.05)
                steps.append("finished the write")
            steps.append("after the block")
    assert steps == ["finished the write"] and raised.value.status == 143


def test_a_stop_signal_during_a_failing_held_block_still_stops() -> None:
    with pytest.raises(interrupts.Interrupted):
        with interrupts.raising():
            with interrupts.held():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
                raise OSError("disk full")
    with interrupts.raising():
        with interrupts.held():
            pass   # nothing left pending from before


def test_processes_started_while_sigint_is_ignored_ignore_it() -> None:
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"
    with interrupts.sigint_ignored():
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "True"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# -- the local worker processes --------------------------------------------------------------------

def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    with pytest.raises(RuntimeError, match="a worker process stopped .exit status 3."):
        list(run_batches(os._exit, [3, 3, 3], workers=2))


def test_an_error_in_a_worker_is_raised_in_the_caller() -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        list(run_batches(int, ["1", "x", "2"], workers=2))
    assert sorted(run_batches(int, ["1", "2", "3", "4", "5"], workers=2)) == [1, 2, 3, 4, 5]


def test_closing_a_run_early_ends_its_workers() -> None:
    before = set(multiprocessing.active_children())
    results = run_batches(abs, list(range(-50, 0)), workers=2)
    assert next(results) > 0
    results.close()
    assert set(multiprocessing.active_children()) == before
