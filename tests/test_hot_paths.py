"""The core's nogil functions compile to plain C: `cython -a` shows no line of
them touching the Python C-API (no yellow), with the build's directives."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parent.parent / "src"
MODULES = sorted(path.stem for path in (SOURCES / "ginnycore").glob("*.pyx"))
DIRECTIVES = ["boundscheck=False", "wraparound=False", "cdivision=True", "initializedcheck=False"]


def nogil_lines(source: list[str]) -> set[int]:
    """Line numbers inside module-level ``cdef ... nogil:`` functions (their
    signature may run over several lines)."""
    lines, inside, signature = set(), False, None
    for number, line in enumerate(source, 1):
        if line.startswith("cdef ") and "(" in line:
            inside, signature = False, ""
        elif line and not line[0].isspace() and not line.startswith("#"):
            inside, signature = False, None
        if signature is not None:
            signature += line
            if line.rstrip().endswith(":"):
                inside, signature = "nogil" in signature, None
        if inside:
            lines.add(number)
    return lines


def test_nogil_lines_take_in_signatures_over_several_lines() -> None:
    source = ["cdef int one(int a) noexcept nogil:", "    return a",
              "cdef int two(int a,", "             int b) noexcept nogil:", "    return a + b",
              "def three():", "    return 3",
              "cdef int four(int a):", "    return a"]
    assert nogil_lines(source) == {1, 2, 4, 5}


@pytest.mark.parametrize("module", MODULES)
def test_nogil_functions_are_white_in_cython_annotate(module: str, tmp_path: Path) -> None:
    pytest.importorskip("Cython")
    pyx = SOURCES / "ginnycore" / f"{module}.pyx"
    command = [sys.executable, "-m", "cython", "-3", "-a", "-I", str(SOURCES),
               "-o", str(tmp_path / f"{module}.c"), str(pyx)]
    for directive in DIRECTIVES:
        command += ["-X", directive]
    subprocess.run(command, check=True, capture_output=True)
    report = (tmp_path / f"{module}.html").read_text(encoding="utf-8")
    scores = {int(number): int(score) for score, number in
              re.findall(r'<pre class="cython line score-(\d+)"[^>]*>\+?<span class="">(\d+)</span>', report)}
    hot = nogil_lines(pyx.read_text(encoding="utf-8").splitlines())
    assert hot, "no nogil functions found"
    yellow = sorted(number for number in hot if scores.get(number, 0) > 0)
    assert not yellow, f"{module}.pyx lines touching Python in nogil code: {yellow}"
