"""The benchmarks of bench/ keep up with the package under them: every module
imports and every script answers ``--help`` (a name moved or removed in ginnyo
broke ``bench/sim_policy_match.py`` unseen).  Their own runs take minutes
(docs/PERFORMANCE.md); ``python -m pytest bench --benchmark-disable`` runs the
pytest ones once, untimed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
MODULES = sorted(path.stem for path in BENCH.glob("*.py"))
SCRIPTS = sorted(path.name for path in BENCH.glob("*.py") if "__main__" in path.read_text(encoding="utf-8"))

# each module imported on its own, its failure named; bench/ first on the path, as
# when a script runs or pytest collects the benchmarks (they import conftest by name)
IMPORT_EACH = """
import importlib, sys, traceback
failed = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ": " + traceback.format_exc().strip().splitlines()[-1])
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=BENCH, capture_output=True, text=True, timeout=300)


def test_every_bench_module_imports() -> None:
    assert "conftest" in MODULES and "sim_policy_match" in MODULES
    result = _python("-c", IMPORT_EACH, *MODULES)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_bench_script_answers_help(script: str) -> None:
    result = _python(script, "--help")
    assert result.returncode == 0 and result.stdout.startswith("usage:"), result.stdout + result.stderr
