"""A process forked after ginnyo ran on several threads does not hang.

GNU libgomp's thread pool does not survive a fork; the core makes a forked
child run its threaded calls on one thread, with one RuntimeWarning
(docs/API.md, "Threads and fork").  Each probe runs in a fresh interpreter
under a timeout, so that a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import child_environment

ROOT = Path(__file__).resolve().parents[2]
PROBE_TIMEOUT = 120     # seconds; each probe takes well under 5 on an idle machine

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the fork start method is Linux's default")

# The threaded entry points, each on 2 threads; the same answers whatever the threads.
THREADED_CALLS = '''
import json, os, sys, warnings
from ginnyo import Position, native
from ginnyo.equity import rank_positions
from ginnyo.selfplay.compiled import greedy_games
from ginnycore import core as ginny_core

def forked_single_threaded():
    return ginny_core.forked_single_threaded()

POSITIONS = [Position.load(f"examples/{name}.json") for name in ("opening", "midgame", "late", "extend")]

def threaded_answers():
    scores = native.Batch(POSITIONS).best_plays(threads=2)[0].tolist()
    counts = native.Cores([native.core_of(p) for p in POSITIONS]).count_plays(threads=2).tolist()
    games = greedy_games(8, 2, 1, threads=2).scores.tolist()
    equity = [[round(c.score + c.leave_value, 9) for c in row[:3]] for row in rank_positions(POSITIONS, threads=2)]
    return {"batch": scores, "cores": counts, "games": games, "equity": equity}
'''


def run_probe(body: str) -> dict[str, object]:
    """Run ``THREADED_CALLS`` then ``body`` (which prints one JSON line) in a fresh interpreter."""
    script = THREADED_CALLS + textwrap.dedent(body)
    try:
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=child_environment(), capture_output=True, text=True,
                              timeout=PROBE_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the forked probe did not finish within {PROBE_TIMEOUT} s (a hang)")
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_child_forked_after_threaded_calls_runs_them_again_and_gets_the_same_answers() -> None:
    result = run_probe('''
        parent = threaded_answers()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                child = threaded_answers()
                again = threaded_answers()
            report = {"same": child == parent and again == parent, "single": forked_single_threaded(),
                      "warnings": [str(w.message) for w in caught if w.category is RuntimeWarning]}
            os.write(write, json.dumps(report).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as pipe:
            report = json.loads(pipe.read())
        _, status = os.waitpid(pid, 0)
        report["status"] = status
        print(json.dumps(report))
    ''')
    assert result["status"] == 0
    assert result["same"] is True
    assert result["single"] is True
    warnings = result["warnings"]
    assert isinstance(warnings, list) and len(warnings) == 1    # one warning, however many calls
    assert "forked after ginnyo ran on several threads" in warnings[0]


def test_a_fork_pool_after_threaded_calls_runs_them_in_its_workers() -> None:
    result = run_probe('''
        import multiprocessing

        def in_worker(_):
            warnings.simplefilter("ignore")
            return threaded_answers()

        parent = threaded_answers()
        with multiprocessing.get_context("fork").Pool(2) as pool:
            answers = pool.map(in_worker, range(4))
        print(json.dumps({"same": all(answer == parent for answer in answers), "count": len(answers)}))
    ''')
    assert result == {"same": True, "count": 4}


def test_a_child_forked_before_any_threaded_call_keeps_its_threads() -> None:
    result = run_probe('''
        pid = os.fork()
        if pid == 0:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                threaded_answers()
            os._exit(0 if not forked_single_threaded() and not caught else 3)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"status": status, "parent_single": forked_single_threaded()}))
    ''')
    assert result == {"status": 0, "parent_single": False}


def test_the_parent_keeps_its_threads_after_forking() -> None:
    result = run_probe('''
        first = threaded_answers()
        pid = os.fork()
        if pid == 0:
            warnings.simplefilter("ignore")
            threaded_answers()
            os._exit(0)
        os.waitpid(pid, 0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            again = threaded_answers()
        print(json.dumps({"same": again == first, "single": forked_single_threaded(), "warned": bool(caught)}))
    ''')
    assert result == {"same": True, "single": False, "warned": False}
