"""Every command has a shipped example to run on (issue 30 item 4):
examples/README.md names every file in examples/ and every command, and each
command of its list runs on its example and succeeds."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ginnyo.cli import COMMANDS
from helpers import child_environment

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
README = (EXAMPLES / "README.md").read_text(encoding="utf-8")
CRAZY_COMMANDS = ("best-turn", "solve", "selfplay", "replay")


def _command_lines() -> list[str]:
    block = re.search(r"## One command a line\n.*?```sh\n(.*?)```", README, re.S)
    assert block, "examples/README.md has no list of commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


LINES = _command_lines()


def test_the_readme_names_every_shipped_example() -> None:
    shipped = {str(path.relative_to(EXAMPLES)) for path in EXAMPLES.rglob("*")
               if path.is_file() and "cython-extension" not in path.parts and path.name != "README.md"}
    assert shipped and all(f"`{name}`" in README for name in shipped), sorted(
        name for name in shipped if f"`{name}`" not in README)


def test_every_command_has_an_example_line() -> None:
    words = {tuple(shlex.split(line.split("<")[0])[1:3]) for line in LINES}
    commands = {first for first, *_ in words}
    assert set(COMMANDS) <= commands, set(COMMANDS) - commands
    assert {("crazy", name) for name in CRAZY_COMMANDS} <= words


def test_every_example_file_of_the_list_exists() -> None:
    for line in LINES:
        for word in shlex.split(line.replace("<", " ")):
            if word.startswith(("examples/", "docs/")):
                assert (ROOT / word).exists(), word


@pytest.mark.parametrize("line", LINES)
def test_the_example_command_runs(line: str, tmp_path: Path) -> None:
    for name in ("examples", "docs"):    # as the README says: a scratch folder with links
        (tmp_path / name).symlink_to(ROOT / name)
    argv, stdin = line, None
    if " < " in line:
        argv, source = line.split(" < ")
        stdin = (ROOT / source.strip()).read_bytes()
    words = shlex.split(argv)
    assert words[0] == "ginnyo"
    if words[1] in ("selfplay", "match", "plot-sim", "corpus", "analyze"):
        words += ["--workers", "1"] if "--workers" not in words else []
    if words[1] == "serve":     # it serves until stopped: its address line, then SIGTERM ends it as Ctrl-C would
        _serves(words, tmp_path)
        return
    result = subprocess.run([sys.executable, "-m", "ginnyo", *words[1:]], input=stdin, capture_output=True,
                            cwd=tmp_path, timeout=300, env=child_environment())
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.strip() and b"Traceback" not in result.stderr


def _serves(words: list[str], folder: Path) -> None:
    """``ginnyo serve ...`` prints the address it serves on, and SIGTERM stops it with exit 143."""
    server = subprocess.Popen([sys.executable, "-m", "ginnyo", *words[1:], "--port", "0"], cwd=folder,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_environment())
    try:
        assert server.stdout is not None
        assert server.stdout.readline().startswith(b"ginnyo: serving on http://127.0.0.1:")
    finally:
        server.terminate()
        _, err = server.communicate(timeout=60)
    assert server.returncode == 143 and b"Traceback" not in err, err.decode()


def test_the_endgame_example_is_an_endgame_and_the_preendgame_one_is_not() -> None:
    from ginnyo import Position
    from ginnyo.endgame.exact import is_endgame
    from ginnyo.endgame.preendgame import is_preendgame
    assert is_endgame(Position.load(EXAMPLES / "endgame.json"))
    assert is_endgame(Position.load(EXAMPLES / "endgame-short.json"))
    pre = Position.load(EXAMPLES / "preendgame.json")
    assert not is_endgame(pre) and is_preendgame(pre)
