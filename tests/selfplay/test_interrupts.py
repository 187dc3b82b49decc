"""Ctrl-C and SIGTERM stop self-play with one line, exit 130 / 143, no traceback
from any process, and only whole records, each of which replays; one process
writes each game's record as the game ends."""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Callable

import pytest

from ginnyo.support import interrupts
from ginnyo.cli import main
from ginnyo.crazy.game import read_record as read_crazy_record
from ginnyo.crazy.game import replay as replay_crazy
from ginnyo.support.files import write_new
from ginnyo.game.records import replay
from ginnyo.selfplay.games import run
from ginnyo.support.workers import run_batches
from helpers import child_environment

WAIT = 120   # seconds for the first record on a loaded machine


def start(tmp_path: Path, *argv: str, stdin: int | None = None) -> subprocess.Popen[str]:
    """``ginnyo ARGV`` in a session (and process group) of its own, its workers in
    it too, running the same ginnyo and compiled core as these tests."""
    return subprocess.Popen([sys.executable, "-m", "ginnyo", *argv], cwd=tmp_path, env=child_environment(),
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def wait_until(process: subprocess.Popen[str], ready: Callable[[], bool], what: str) -> None:
    """Wait until ``ready()``, failing if the process ends first or it takes too long."""
    deadline = time.monotonic() + WAIT
    while not ready():
        if process.poll() is not None:
            raise AssertionError(f"the command ended before {what}: {process.communicate()}")
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            raise AssertionError(f"not {what} after {WAIT} s")
        time.sleep(0.02)


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, session...)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def in_session(session: int) -> list[int]:
    """The live processes of the session led by ``session`` (zombies not counted)."""
    found = []
    for entry in os.listdir("/proc"):
        fields = _stat(int(entry)) if entry.isdigit() else []
        if len(fields) > 3 and fields[3] == str(session) and fields[0] != "Z":
            found.append(int(entry))
    return found


def children_of(pid: int) -> int:
    return sum(1 for other in in_session(pid) if _stat(other)[1:2] == [str(pid)])


def cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if len(fields) > 12 else 0.0


def assert_none_left(session: int) -> None:
    """No process of the session is left (the resource tracker goes when its
    pipe closes: give it a moment, as long as a loaded machine may take)."""
    deadline = time.monotonic() + WAIT
    while in_session(session) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = in_session(session)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in left if Path(f"/proc/{pid}").exists()]


def assert_one_line(code: int, out: str, err: str, signum: int) -> None:
    assert code == 128 + signum, (code, err)
    assert "Traceback" not in out + err, err
    assert err.count("\n") == 1 and err.startswith("ginnyo: interrupted"), err


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
    before = {signum: signal.getsignal(signum) for signum in interrupts.STOP_SIGNALS}
    for signum in interrupts.STOP_SIGNALS:
        with pytest.raises(interrupts.Interrupted) as raised:
            with interrupts.raising():
                os.kill(os.getpid(), signum)
                time.sleep(5)   # the handler raises in this thread at once
        assert raised.value.status == 128 + signum
    # put back after: Python's own handler, or SIG_IGN where the run was started in the background
    assert {signum: signal.getsignal(signum) for signum in interrupts.STOP_SIGNALS} == before


@pytest.mark.parametrize(("block", "signum"), [(interrupts.held, signal.SIGTERM),
                                               (interrupts.starting_workers, signal.SIGINT)],
                         ids=["a-held-write", "workers-starting"])
def test_a_stop_signal_waits_until_the_block_is_done(block: Callable[[], Any], signum: int) -> None:
    steps = []
    with pytest.raises(interrupts.Interrupted) as raised:
        with interrupts.raising():
            with block():
                os.kill(os.getpid(), signum)
                time.sleep(0.05)
                steps.append("finished the block")
            steps.append("after the block")
    assert steps == ["finished the block"] and raised.value.status == 128 + signum


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


def test_processes_started_while_workers_start_have_stop_signals_blocked() -> None:
    code = "import signal; print(sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))"
    with interrupts.starting_workers():
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert child.stdout.strip() == str(sorted(interrupts.STOP_SIGNALS))
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == set()


def test_a_write_under_way_finishes_before_the_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    link = os.link

    def stopped_while_linking(source: str, target: Path) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
        link(source, target)

    monkeypatch.setattr(os, "link", stopped_while_linking)
    with pytest.raises(interrupts.Interrupted):
        with interrupts.raising():
            write_new(tmp_path / "out.json", "{}\n")
    assert [(path.name, path.read_text()) for path in tmp_path.iterdir()] == [("out.json", "{}\n")]


# -- the local worker processes --------------------------------------------------------------------

def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    with pytest.raises(RuntimeError, match="a worker process stopped .exit status 3."):
        list(run_batches(os._exit, [3, 3, 3], workers=2))


def test_an_error_in_a_worker_is_raised_in_the_caller() -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        list(run_batches(int, ["1", "x", "2"], workers=2))
    assert sorted(run_batches(int, ["1", "2", "3", "4", "5"], workers=2)) == [1, 2, 3, 4, 5]


#: a run of two workers stopped by a signal just after the first worker process is
#: made, before it is known to the pool or has its preparation data
STOPPED_WHILE_STARTING = """
import os, signal, sys
from multiprocessing import util
from ginnyo.support import interrupts
from ginnyo.support.process_pool import imap_unordered

signum, group = int(sys.argv[1]), sys.argv[2] == "group"
spawn = util.spawnv_passfds

def spawn_then_stop(path, args, passfds):
    pid = spawn(path, args, passfds)
    if any("spawn_main" in str(arg) for arg in args):
        os.killpg(0, signum) if group else os.kill(os.getpid(), signum)
    return pid

util.spawnv_passfds = spawn_then_stop
try:
    with interrupts.raising():
        print(sorted(imap_unordered(abs, list(range(-40, 0)), 2)))
except interrupts.Interrupted as stop:
    print("stopped", stop.status)
"""


@pytest.mark.parametrize(("signum", "group"), [(signal.SIGINT, True), (signal.SIGTERM, False),
                                               (signal.SIGTERM, True)],
                         ids=["ctrl-c-to-the-group", "sigterm-to-the-command", "sigterm-to-the-group"])
def test_a_stop_while_workers_start_ends_them_all_quietly(signum: int, group: bool) -> None:
    process = subprocess.Popen([sys.executable, "-c", STOPPED_WHILE_STARTING, str(int(signum)),
                                "group" if group else "self"], env=child_environment(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=WAIT)
    finally:
        assert_none_left(process.pid)
    assert (process.returncode, out, err) == (0, f"stopped {128 + signum}\n", "")


def test_closing_a_run_early_ends_its_workers() -> None:
    before = set(multiprocessing.active_children())
    results = run_batches(abs, list(range(-50, 0)), workers=2)
    assert next(results) > 0
    results.close()
    assert set(multiprocessing.active_children()) == before


# -- every command stops on SIGTERM as on Ctrl-C -----------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_sigterm_stops_a_match_and_ends_its_workers(tmp_path: Path) -> None:
    process = start(tmp_path, "match", "--bots", "greedy,greedy", "--games", "100000", "--workers", "2")
    wait_until(process, lambda: children_of(process.pid) >= 3, "its two workers ran")   # and the resource tracker
    code, out, err = stop(process, signal.SIGTERM, group=False)
    assert_one_line(code, out, err, signal.SIGTERM)
    assert re.fullmatch(r"ginnyo: interrupted: after \d+ games?\n", err), err
    assert_none_left(process.pid)


def test_sigterm_stops_a_simulation_on_one_process(tmp_path: Path) -> None:
    process = start(tmp_path, "best-move", "--sim", "1000000", "--workers", "1", str(EXAMPLES / "midgame.json"))
    wait_until(process, lambda: cpu_seconds(process.pid) > 1.5, "the rollouts ran")
    assert_one_line(*stop(process, signal.SIGTERM, group=False), signal.SIGTERM)


def test_sigterm_ends_the_engine_waiting_on_its_input(tmp_path: Path) -> None:
    process = start(tmp_path, "engine", stdin=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("isready\n")
    process.stdin.flush()
    assert process.stdout.readline() == "readyok\n"    # it has read a line and waits for the next
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    err = process.stderr.read() if process.stderr else ""
    process.stdin.close()
    assert_one_line(code, "", err, signal.SIGTERM)


def test_sigterm_during_train_leaves_leaves_no_file(tmp_path: Path) -> None:
    process = start(tmp_path, "train-leaves", "--games", "100000", "--workers", "2", "--out", "leaves.json")
    wait_until(process, lambda: children_of(process.pid) >= 3, "its two workers ran")
    assert_one_line(*stop(process, signal.SIGTERM, group=False), signal.SIGTERM)
    assert_none_left(process.pid)
    assert list(tmp_path.iterdir()) == []   # no leave file, no part of one


# -- a second signal -------------------------------------------------------------------------------

def test_a_second_signal_while_the_workers_are_ended_waits_until_they_all_are(
        monkeypatch: pytest.MonkeyPatch) -> None:
    joined: list[BaseProcess] = []
    join = BaseProcess.join

    def pressed_again(process: BaseProcess, timeout: float | None = None) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        join(process, timeout)
        joined.append(process)

    with interrupts.raising():
        results = run_batches(abs, list(range(-50, 0)), workers=2)
        assert next(results) > 0
        monkeypatch.setattr(BaseProcess, "join", pressed_again)
        with pytest.raises(interrupts.Interrupted):
            results.close()
    assert len(joined) == 2 and not any(process.is_alive() for process in joined)


def test_a_second_signal_while_the_last_line_is_written_does_not_break_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.commands import engine

    def stopped(args: object) -> int:
        raise interrupts.Interrupted(signal.SIGTERM)

    class PressedAgain(io.StringIO):
        def write(self, text: str) -> int:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            return super().write(text)

    monkeypatch.setattr(engine, "cmd_engine", stopped)
    stderr = PressedAgain()
    monkeypatch.setattr(sys, "stderr", stderr)
    try:
        status = main(["engine"])
    except KeyboardInterrupt:   # caught here, so that a regression fails this test, not the whole session
        pytest.fail("the second signal escaped main() while the line was written")
    assert status == 143
    assert stderr.getvalue() == "ginnyo: interrupted\n"
