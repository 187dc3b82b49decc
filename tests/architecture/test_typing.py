"""The package is typed (issue 5): a bare ``python -m mypy`` passes, strict, over
``python/``, these tests and the benchmarks of ``bench/`` (issue 41), and the hand-written stubs
of the compiled core (src/ginnycore/*.pyi) match what the extension modules expose at run time
(mypy's stubtest).  Configuration: ``[tool.mypy]`` in pyproject.toml.  Needs mypy (in the
``test`` extra)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLOWLIST = Path(__file__).resolve().parents[1] / "stubtest_allowlist.txt"
COMPILED = ["ginnycore.core", "ginnycore.rules", "ginnycore.selfplay", "ginnycore.board", "ginnycore.crazy",
            "ginnycore.endgame", "ginnycore.equity", "ginnycore.simulate"]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install -e '.[test]')")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_a_bare_mypy_passes_over_the_package_the_tests_and_the_benchmarks() -> None:
    """What a contributor runs is what CI checks: every Python file of the three trees,
    under the strict settings of pyproject.toml."""
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
    checked = re.search(r"no issues found in (\d+) source files", result.stdout)
    files = [path for tree in ("python", "tests", "bench") for path in (ROOT / tree).rglob("*.py")]
    assert checked is not None and int(checked.group(1)) == len(files), result.stdout


def test_stubs_match_the_compiled_modules() -> None:
    options = ["--mypy-config-file", "pyproject.toml", "--allowlist", str(ALLOWLIST),
               "--ignore-unused-allowlist"]
    # PEP 800 disjoint bases: only newer stubtests check them, and a cdef class is one
    if "--ignore-disjoint-bases" in _run("mypy.stubtest", "--help").stdout:
        options.append("--ignore-disjoint-bases")
    result = _run("mypy.stubtest", *COMPILED, *options)
    assert result.returncode == 0, result.stdout + result.stderr


def test_stubs_and_markers_are_in_the_source_tree() -> None:
    core = ROOT / "src" / "ginnycore"
    for name in ("core.pyi", "selfplay.pyi", "board.pyi", "crazy.pyi", "py.typed"):
        assert (core / name).is_file(), name
    assert (ROOT / "python" / "ginnyo" / "py.typed").is_file()
    assert sorted(p.stem for p in core.glob("*.pyx")) == sorted(p.stem for p in core.glob("*.pyi"))
