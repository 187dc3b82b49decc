"""The core's nogil functions compile to plain C: `cython -a` shows no line of
them touching the Python C-API (no yellow), with the build's directives.

Every room is checked: each ``.pyx`` module, each ``.pxi`` file included into
one (Cython writes its annotation beside the module's), and each ``.pxd`` with
inline function bodies (annotated through a probe module that includes it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SOURCES / "ginnycore"
MODULES = sorted(path.name for path in PACKAGE.glob("*.pyx"))
INCLUDED = sorted(path.name for path in PACKAGE.glob("*.pxi"))
INLINE_DECLARATIONS = sorted(path.name for path in PACKAGE.glob("*.pxd")
                             if "cdef inline" in path.read_text(encoding="utf-8"))
DIRECTIVES = ["boundscheck=False", "wraparound=False", "cdivision=True", "initializedcheck=False"]
INCLUDE = re.compile(r'^include "([^"]+)"', re.M)


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


def including_module(name: str) -> str:
    """The ``.pyx`` module that includes the ``.pxi`` file ``name``."""
    hosts = [module for module in MODULES
             if name in INCLUDE.findall((PACKAGE / module).read_text(encoding="utf-8"))]
    assert len(hosts) == 1, f"{name} is included by {hosts or 'no module'}: it must be by exactly one"
    return hosts[0]


def annotate(pyx: Path, out: Path) -> None:
    """``cython -a`` of ``pyx`` into the directory ``out`` (HTML beside the C)."""
    command = [sys.executable, "-m", "cython", "-3", "-a", "-I", str(SOURCES), "-I", str(PACKAGE),
               "-o", str(out / (pyx.stem + ".c")), str(pyx)]
    for directive in DIRECTIVES:
        command += ["-X", directive]
    subprocess.run(command, check=True, capture_output=True)


def yellow_lines(source: Path, report: Path) -> list[int]:
    """The lines of ``source``'s nogil functions that ``report`` scores above 0."""
    scores = {int(number): int(score) for score, number in
              re.findall(r'<pre class="cython line score-(\d+)"[^>]*>\+?<span class="">(\d+)</span>',
                         report.read_text(encoding="utf-8"))}
    text = source.read_text(encoding="utf-8")
    hot = nogil_lines(text.splitlines())
    assert hot or INCLUDE.search(text), f"no nogil functions found in {source.name}"
    return sorted(number for number in hot if scores.get(number, 0) > 0)


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per module, the directory of its annotation, made on first use."""
    pytest.importorskip("Cython")
    made: dict[str, Path] = {}

    def directory(module: str) -> Path:
        if module not in made:
            made[module] = tmp_path_factory.mktemp(Path(module).stem)
            annotate(PACKAGE / module, made[module])
        return made[module]
    return directory  # type: ignore[return-value]


@pytest.mark.parametrize("module", MODULES)
def test_nogil_functions_are_white_in_cython_annotate(module: str, annotated) -> None:  # type: ignore[no-untyped-def]
    out = annotated(module)
    yellow = yellow_lines(PACKAGE / module, out / (Path(module).stem + ".html"))
    assert not yellow, f"{module} lines touching Python in nogil code: {yellow}"


@pytest.mark.parametrize("name", INCLUDED)
def test_nogil_functions_of_included_rooms_are_white(name: str, annotated) -> None:  # type: ignore[no-untyped-def]
    out = annotated(including_module(name))
    yellow = yellow_lines(PACKAGE / name, out / (Path(name).stem + ".html"))
    assert not yellow, f"{name} lines touching Python in nogil code: {yellow}"


@pytest.mark.parametrize("name", INLINE_DECLARATIONS)
def test_inline_functions_of_declarations_are_white(name: str, tmp_path: Path) -> None:
    pytest.importorskip("Cython")
    probe = tmp_path / "probe.pyx"
    probe.write_text(f'include "{name}"\n', encoding="utf-8")  # found through -I
    annotate(probe, tmp_path)
    yellow = yellow_lines(PACKAGE / name, tmp_path / (Path(name).stem + ".html"))
    assert not yellow, f"{name} lines touching Python in nogil code: {yellow}"


def test_every_room_is_checked() -> None:
    """The rooms of the core are found: a file moved or renamed is not silently skipped."""
    assert {"core.pyx", "selfplay.pyx", "endgame.pyx", "crazy.pyx"} <= set(MODULES)
    assert {"generate.pxi", "prepare.pxi", "score.pxi", "supply.pxi"} <= set(INCLUDED)
    assert "types.pxd" in INLINE_DECLARATIONS
