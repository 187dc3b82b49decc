"""Dask never hangs: ``--scheduler`` with an address Dask does not speak exits 2
at once; a port that accepts and never answers fails within the connect
timeout; a scheduler or the last worker lost in the middle of a run gives one
clear line (exit 1) within a bounded time.  Clusters are real ``dask
scheduler`` / ``dask worker`` processes on 127.0.0.1, killed mid-run; every wait
here has a subprocess timeout, so a regression fails instead of hanging."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_bad_input
from ginnyo.support import cluster
from helpers import child_environment

pytest.importorskip("distributed")

START_SECONDS = 120        # the most a scheduler or worker may take to start on a busy machine
RUN_SECONDS = 120          # the most a whole driver run may take before the test calls it a hang
SLACK_SECONDS = 30         # start-up and polling on top of a configured limit

# A run of run_batches on the cluster at argv[1], with short limits; it prints a
# line a result, and "lost <message>" (exit 3) when the cluster fails it.
DRIVER = """
import sys, time
import ginnyo.support.cluster as cluster
import ginnyo.support.workers as workers
cluster.POLL_SECONDS, cluster.ANSWER_SECONDS, cluster.WORKERLESS_SECONDS = 0.5, 5.0, float(sys.argv[2])
cluster.SILENT_SECONDS = float(sys.argv[3])
workers.CONNECT_TIMEOUT = 5
try:
    for _ in workers.run_batches(time.sleep, [0.25] * 2000, workers=1, scheduler=sys.argv[1]):
        print("result", flush=True)
except cluster.ClusterError as error:
    print("lost", error, flush=True)
    sys.exit(3)
print("done", flush=True)
"""

# ``ginnyo ARGS`` with short Dask limits (the CLI has no option for them).
CLI = """
import sys
import ginnyo.support.cluster as cluster
import ginnyo.support.workers as workers
cluster.POLL_SECONDS, cluster.WORKERLESS_SECONDS, workers.CONNECT_TIMEOUT = 0.5, 3.0, 3
from ginnyo.cli import main
sys.exit(main(sys.argv[1:]))
"""




def start(*module_and_args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", *module_and_args], env=child_environment(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=START_SECONDS)


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A ``dask scheduler`` on 127.0.0.1 (a free port) and its address."""
    address_file = tmp_path / "scheduler.json"
    process = start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--no-dashboard", "--scheduler-file", str(address_file))
    try:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and process.poll() is None:
            try:
                yield process, json.loads(address_file.read_text())["address"]
                break
            except (OSError, ValueError, KeyError):
                time.sleep(0.2)
        else:
            pytest.fail("the Dask scheduler did not start")
    finally:
        stop(process)


def start_worker(address: str) -> subprocess.Popen[bytes]:
    """One worker process, no nanny (so that killing it loses it for good)."""
    return start("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard")


def drive(address: str, workerless: float, silent: float = 30) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", DRIVER, address, str(workerless), str(silent)],
                            env=child_environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def first_result(driver: subprocess.Popen[str]) -> None:
    assert driver.stdout is not None
    line = driver.stdout.readline()  # bounded: the driver's own limits end it within RUN_SECONDS
    assert line == "result\n", (line, driver.stderr.read() if driver.stderr else "")


def ended(driver: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = driver.communicate(timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        driver.kill()
        driver.communicate()
        pytest.fail("the run hung after the cluster was lost")
    return driver.returncode, out, err


def ginnyo_with_short_limits(*argv: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CLI, *argv], env=child_environment(), capture_output=True,
                          text=True, timeout=RUN_SECONDS)
    return done, time.monotonic() - started


# -- addresses ----------------------------------------------------------------------

@pytest.mark.parametrize("address", ["http://127.0.0.1:8786", "foo://", "https://x", "file:///tmp/x"])
def test_an_unsupported_address_scheme_exits_2_with_one_line(address: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "selfplay", "--games", "1", "--scheduler", address,
                     message="unsupported address scheme")


def test_an_address_with_no_host_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "corpus", "--positions", "1", "--out", "x.jsonl", "--scheduler", "tcp://",
                     message="no host in the address")


def test_an_in_process_address_of_no_cluster_here_exits_2_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "selfplay", "--games", "1", "--scheduler", "inproc://192.0.2.9/1/1",
                     message="cannot connect")


def test_a_port_that_accepts_and_never_answers_fails_within_the_connect_timeout() -> None:
    with socket.socket() as silent:          # the kernel accepts connections into the backlog; nobody speaks
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        done, seconds = ginnyo_with_short_limits("selfplay", "--games", "1", "--scheduler", address)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"--scheduler {address}: cannot connect (no answer within 3 s)" in done.stderr
    assert seconds < 3 + SLACK_SECONDS


# -- a cluster lost in the middle of a run --------------------------------------------

def kill_mid_run(address: str, victim: str, scheduler: subprocess.Popen[bytes], workerless: float,
                 how: signal.Signals = signal.SIGKILL, silent: float = 30) -> tuple[int, str, str, float]:
    """Run the driver on a cluster of one worker, send ``victim`` (``"worker"`` or
    ``"scheduler"``) the signal ``how`` after the first result: the driver's
    status, output, errors, and the seconds it took to end after the signal."""
    worker = start_worker(address)
    try:
        driver = drive(address, workerless, silent)
        first_result(driver)
        (worker if victim == "worker" else scheduler).send_signal(how)
        killed = time.monotonic()
        code, out, err = ended(driver)
        return code, out, err, time.monotonic() - killed
    finally:
        stop(worker)


@pytest.mark.slow
def test_the_last_worker_killed_mid_run_ends_the_run_with_one_line(
        scheduler: tuple[subprocess.Popen[bytes], str]) -> None:
    process, address = scheduler
    code, out, err, seconds = kill_mid_run(address, "worker", process, workerless=3)
    assert code == 3 and "no worker on the cluster for 3 s" in out.splitlines()[-1], (code, out[-300:], err)
    assert seconds < 3 + SLACK_SECONDS and err == ""


@pytest.mark.slow
def test_the_last_worker_hung_mid_run_ends_the_run_with_one_line(
        scheduler: tuple[subprocess.Popen[bytes], str]) -> None:
    """A stopped worker stays on the scheduler's books for its worker-ttl (5
    minutes); its silence is what counts."""
    process, address = scheduler
    code, out, err, seconds = kill_mid_run(address, "worker", process, workerless=3, how=signal.SIGSTOP, silent=2)
    assert code == 3, (code, out[-300:], err)
    assert "no working worker on the cluster for 3 s (1 hung or stopped: no heartbeat for over 2 s)" \
        in out.splitlines()[-1], out[-300:]
    assert seconds < 2 + 3 + SLACK_SECONDS and err == ""


@pytest.mark.slow
def test_the_scheduler_killed_mid_run_ends_the_run_with_one_line(
        scheduler: tuple[subprocess.Popen[bytes], str]) -> None:
    process, address = scheduler
    code, out, err, seconds = kill_mid_run(address, "scheduler", process, workerless=60)
    assert code == 3 and "lost the connection to the scheduler" in out.splitlines()[-1], (code, out[-300:], err)
    assert seconds < SLACK_SECONDS and err == ""


@pytest.mark.slow
def test_a_scheduler_that_stops_answering_mid_run_ends_the_run_with_one_line(
        scheduler: tuple[subprocess.Popen[bytes], str]) -> None:
    process, address = scheduler
    try:
        code, out, err, seconds = kill_mid_run(address, "scheduler", process, workerless=60, how=signal.SIGSTOP)
    finally:
        process.send_signal(signal.SIGCONT)
    assert code == 3 and "the scheduler did not answer within 5 s" in out.splitlines()[-1], (code, out[-300:], err)
    assert seconds < 5 + SLACK_SECONDS and err == ""


@pytest.mark.slow
def test_a_cluster_without_workers_ends_the_command_with_one_line_and_exit_1(
        scheduler: tuple[subprocess.Popen[bytes], str]) -> None:
    _, address = scheduler
    done, seconds = ginnyo_with_short_limits("selfplay", "--games", "2", "--scheduler", address)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "no worker on the cluster for 3 s" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.startswith("ginnyo: error: "), done.stderr   # a run error, not an internal one
    assert seconds < 3 + SLACK_SECONDS + START_SECONDS / 4


# -- the watch over the workers, on a scripted scheduler ----------------------------------

class ScriptedClient:
    """A client whose scheduler answers with each worker's heartbeat as ``beats()`` gives it."""

    status = "running"

    def __init__(self, beats: Callable[[], dict[str, float]]) -> None:
        self.beats = beats
        self.scheduler = self

    def identity(self) -> None:   # the call the watch names; ``sync`` answers it
        raise AssertionError("called through sync only")

    def sync(self, call: Callable[..., Any], **_: Any) -> dict[str, Any]:
        assert call == self.identity
        return {"workers": {address: {"last_seen": beat} for address, beat in self.beats().items()}}


def test_one_hung_worker_among_working_ones_does_not_end_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "SILENT_SECONDS", 0.0)
    monkeypatch.setattr(cluster, "WORKERLESS_SECONDS", 0.0)
    client: Any = ScriptedClient(lambda: {"tcp://a:1": 5.0, "tcp://b:1": time.monotonic()})
    watch = cluster._Watch(client, "--scheduler x")
    for _ in range(5):
        watch.check()
        time.sleep(0.01)


def test_workers_whose_heartbeats_all_stopped_end_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "SILENT_SECONDS", 0.0)
    monkeypatch.setattr(cluster, "WORKERLESS_SECONDS", 0.0)
    client: Any = ScriptedClient(lambda: {"tcp://a:1": 5.0, "tcp://b:1": 7.0})
    watch = cluster._Watch(client, "--scheduler tcp://x:1")
    watch.check()   # the first look: every worker new, so heard from now
    time.sleep(0.01)
    with pytest.raises(cluster.ClusterError, match=r"^--scheduler tcp://x:1: no working worker on the cluster "
                                                   r"for 0 s \(2 hung or stopped: no heartbeat for over 0 s\)"):
        watch.check()
