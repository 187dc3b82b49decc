"""Docs that cannot drift (issue 30 item 3): every example in README.md,
docs/*.md and examples/README.md that shows output is run and compared.

The convention, one kind of fenced block each:

- ```console: ``$ command`` lines, each followed by what it prints (standard
  output and error together), run from the checkout's top in bash and
  compared line by line; ``...`` in an expected line stands for any text, and
  times (``0.42 s``) match any time.
- ```python whose lines start ``>>>``: a doctest (docs/API.md's are run by
  tests/test_api_doc.py, the others here).
- ```sh: commands alone, no output (a ``# comment`` may say what they do).
- anything else (a file's JSON, a grammar, a board, a block with its output in
  comments) is preceded by ``<!-- illustrative -->``, or by
  ``<!-- checked by tests/test_x.py -->`` naming the test that checks it.
"""

from __future__ import annotations

import doctest
import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import child_environment

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "README.md"]
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```", re.S | re.M)
MARKER = re.compile(r"<!-- (illustrative|checked by (tests/[\w/]+\.py))[^>]*-->\s*$")
# the first word of a line of a sh block: a command, or an environment variable set for one
COMMAND_WORDS = ("ginnyo", "pip", "python", "python3", "cd", "bash", "cat", "git", "sudo", "apt-get", "curl")
SECONDS = re.compile(r"\b\d+(\.\d+)? s\b")


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int
    language: str
    body: str
    marker: str | None       # "illustrative", "checked by tests/..." or None

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def _blocks() -> list[Block]:
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = MARKER.search(before)
            found.append(Block(doc, text[:match.start()].count("\n") + 1, match.group(1), match.group(2),
                               marker.group(1) if marker else None))
    return found


BLOCKS = _blocks()
CONSOLE = [block for block in BLOCKS if block.language == "console"]
DOCTESTS = [block for block in BLOCKS if block.language == "python" and block.body.lstrip().startswith(">>>")
            and block.doc.name != "API.md"]


def _sessions(block: Block) -> list[tuple[str, list[str]]]:
    """A console block's ``(command, expected lines)``."""
    sessions: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        else:
            assert sessions, f"{block.name}: output before the first $ command"
            sessions[-1][1].append(line)
    return sessions


def _matches(expected: str, actual: str) -> bool:
    expected, actual = SECONDS.sub("T s", expected), SECONDS.sub("T s", actual)
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


@pytest.fixture(scope="module")
def shell_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PATH whose ``ginnyo`` is this interpreter's package (the tests' own)."""
    folder = tmp_path_factory.mktemp("bin")
    shim = folder / "ginnyo"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ginnyo "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"


def test_the_docs_have_console_examples() -> None:
    assert {block.doc.name for block in CONSOLE} >= {"README.md", "ENDGAME.md", "FORMAT.md"}


@pytest.mark.parametrize("block", CONSOLE, ids=[block.name for block in CONSOLE])
def test_a_console_example_prints_what_the_doc_shows(block: Block, shell_path: str) -> None:
    for command, expected in _sessions(block):
        result = subprocess.run(["bash", "-c", command], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, timeout=300, env=child_environment(PATH=shell_path))
        actual = result.stdout.rstrip("\n").split("\n") if result.stdout.strip() else []
        assert len(actual) == len(expected) and all(map(_matches, expected, actual)), (
            f"{block.name}: `{command}` printed\n" + result.stdout)


@pytest.mark.parametrize("block", DOCTESTS, ids=[block.name for block in DOCTESTS])
def test_a_python_example_runs_as_its_doctest(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = parser.get_doctest(block.body, {}, block.name, str(block.doc), block.line)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_every_block_is_checked_commands_alone_or_marked(block: Block) -> None:
    if block in CONSOLE or (block.language == "python" and block.body.lstrip().startswith(">>>")):
        return
    if block.language == "sh" and block.marker is None:
        for line in block.body.replace("\\\n", " ").splitlines():   # a line ending in \ goes on
            command = line.split("#")[0].strip()
            first = command.split()[0] if command else ""
            assert not command or first in COMMAND_WORDS or re.fullmatch(r"[A-Z_]+=\S*", first), (
                f"{block.name}: {line!r} is not a command: show output in a console block")
        return
    assert block.marker is not None, (f"{block.name}: a {block.language or 'plain'} block: make it a console "
                                      "block or a doctest, or mark it <!-- illustrative -->")
    if block.marker.startswith("checked by"):
        test = ROOT / block.marker.split()[-1]
        assert test.is_file() and block.doc.name in test.read_text(encoding="utf-8"), block.marker
