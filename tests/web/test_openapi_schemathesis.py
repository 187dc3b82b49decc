"""schemathesis against a real ``ginnyo serve``, from its own ``/api/openapi.json``: every phase
(the coverage of each schema's edges, fuzzing, and the stateful phase, which follows the document's
links from a made game to the game endpoints with its id and a person's seat token), every check, no
failure. Its settings: tests/web/schemathesis.toml; its hooks: tests/web/schemathesis_hooks.py."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from browser_table import Server

HERE = Path(__file__).resolve().parent
MAX_EXAMPLES = 5         # cases an operation and phase: about a minute on 2 cores
SEED = 1                 # the same cases every run (a failure found is found again)
RUN_TIMEOUT = 600        # seconds: a guard against a hung run, not a measurement
ANSWERS_LOG = "GINNYO_SCHEMATHESIS_ANSWERS"   # where the hooks note each answer (schemathesis_hooks.py)

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # no per-minute limits: how many games the run could make would hang on how fast the machine is,
    # and a run that had used its minute's games could not reach the game endpoints (a flaky failure)
    served = Server(tmp_path / "data", options=("--games-per-minute", "0", "--simulations-per-minute", "0"))
    try:
        yield served
    finally:
        served.stop()


def test_schemathesis_finds_no_failure_against_the_served_document(server: Server, tmp_path: Path) -> None:
    if importlib.util.find_spec("schemathesis") is None:
        if os.environ.get("CI"):
            pytest.fail("schemathesis is not installed, and CI is set (pip install -e '.[test]')")
        pytest.skip("schemathesis is not installed (pip install -e '.[test]')")
    answers = tmp_path / "answers.txt"
    path = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(HERE / "schemathesis.toml"), "run",
         f"{server.url}api/openapi.json", "--checks", "all", "--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED),
         "--workers", "1", "--no-color"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": path, ANSWERS_LOG: str(answers)},
        capture_output=True, text=True, timeout=RUN_TIMEOUT)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    seen = set(answers.read_text(encoding="utf-8").splitlines())
    # the game endpoints were reached with a made game's id and a seat's token, not only 401s and 404s
    assert "GET /api/games/{game_id} 200" in seen, sorted(seen)
    for operation in ("POST /api/games/{game_id}/preview", "POST /api/games/{game_id}/actions"):
        statuses = {line.rsplit(" ", 1)[1] for line in seen if line.startswith(operation + " ")}
        assert statuses - {"401", "404"}, (operation, sorted(statuses))
