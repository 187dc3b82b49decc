"""The analysis API under load: how long ``POST /api/analysis`` (plays by score and by equity)
takes for mid-game positions of the committed corpus, alone and with 20 simulations in progress
on the same ``ginnyo serve`` (a real subprocess, requests over one kept-alive HTTP connection).

The issue's target is 20 ms at the 99th percentile with 20 simulations running; the percentiles
and their ratio to the quiet server go to the summary, nothing is asserted about time (the
simulations share the server's :data:`ginnyo.web.live.analysis_jobs.SIM_THREADS` threads, a block each in turn).
"""

from __future__ import annotations

import http.client
import json
import os
import select
import statistics
import subprocess
import sys
import time
from typing import Any

from conftest import FACTS, HERE
from ginnyo.web.http.requests import MAX_ROLLOUTS
from ginnyo.web.live.analysis_jobs import SIM_THREADS

REQUESTS = 1000         # analyses timed in each phase
POSITIONS = 30          # distinct corpus positions, in turn
SIMULATIONS = 20
START_TIMEOUT = 60.0    # seconds for the server to print its address (a guard)


def _serve(data: str) -> tuple[subprocess.Popen[str], str, int]:
    process = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", data,
                                "--analyses-per-minute", "0", "--simulations-per-address", "0"],   # all from one address
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None       # stdout=PIPE
    ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT)
    line = process.stdout.readline() if ready else ""
    assert "serving on http://" in line, line
    address = line.split("serving on http://", 1)[1].split("/", 1)[0]
    host, port = address.rsplit(":", 1)
    return process, host, int(port)


def _call(connection: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    payload = None if body is None else json.dumps(body)
    connection.request(method, path, body=payload, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    return answer.status, json.loads(answer.read())


def _timed(connection: http.client.HTTPConnection, positions: list[dict[str, Any]]) -> list[float]:
    """Milliseconds of each of :data:`REQUESTS` analyses, every answer checked to be one."""
    times = []
    for index in range(REQUESTS):
        started = time.perf_counter()
        status, answer = _call(connection, "POST", "/api/analysis", {"position": positions[index % len(positions)]})
        times.append(1000 * (time.perf_counter() - started))
        assert status == 200 and answer["by_equity"], answer
    return times


def _percentiles(times: list[float]) -> str:
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return f"p50 {cuts[49]:6.1f} ms  p90 {cuts[89]:6.1f} ms  p99 {cuts[98]:6.1f} ms  max {max(times):6.1f} ms"


def test_analysis_percentiles_with_20_simulations_running(tmp_path: Any) -> None:
    lines = (HERE / "corpus-mid.jsonl").read_text(encoding="utf-8").splitlines()[:POSITIONS]
    positions = [json.loads(line) for line in lines]
    process, host, port = _serve(str(tmp_path))
    connection = http.client.HTTPConnection(host, port, timeout=60)
    try:
        _timed(connection, positions[:5])            # warm: the leave model, the cores
        quiet = _timed(connection, positions)
        jobs = []
        for index in range(SIMULATIONS):
            status, job = _call(connection, "POST", "/api/analysis/simulations",
                                {"position": positions[index % len(positions)], "rollouts": MAX_ROLLOUTS,
                                 "seed": index})
            assert status == 201, job
            jobs.append(job["id"])
        busy = _timed(connection, positions)
        states = [_call(connection, "GET", f"/api/analysis/simulations/{job}")[1] for job in jobs]
        assert all(state["state"] in ("waiting", "running") for state in states), "a simulation ended early"
        rollouts = sum(state["rollouts"] for state in states)
        for job in jobs:
            _call(connection, "POST", f"/api/analysis/simulations/{job}/stop")
    finally:
        connection.close()
        process.terminate()
        process.wait(30)
    ratio = statistics.quantiles(busy, n=100)[98] / statistics.quantiles(quiet, n=100)[98]
    FACTS["web analysis, quiet server"] = _percentiles(quiet)
    FACTS[f"web analysis, {SIMULATIONS} simulations in progress"] = _percentiles(busy)
    FACTS["... p99 busy over quiet"] = f"{ratio:6.2f}x  ({rollouts:,} rollouts done meanwhile on "\
                                       f"{SIM_THREADS} simulation threads)"
    print()
    for name in ("web analysis, quiet server", f"web analysis, {SIMULATIONS} simulations in progress",
                 "... p99 busy over quiet"):
        print(f"{name:<48} {FACTS[name]}")
