"""``--force`` overwrites regular files only: every output path of every command
that is a device, a named pipe or a folder is refused with one line (exit 2)
and left as it was, forced or not."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Callable

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.errors import GinnyoError
from ginnyo.support.files import check_new, write_new

ROOT = Path(__file__).resolve().parents[2]
LATE = str(ROOT / "examples" / "late.json")
CORPUS = str(ROOT / "bench" / "corpus-mid.jsonl")


OUT = "out.jsonl"    # the output's name: corpus writes one file only when its name ends .jsonl


def _character_device(folder: Path) -> Path:
    """A character device node like /dev/null's, made in ``folder`` (root may make one)."""
    path = folder / OUT
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path


def _named_pipe(folder: Path) -> Path:
    path = folder / OUT
    os.mkfifo(path)
    return path


def _folder(folder: Path) -> Path:
    path = folder / OUT
    path.mkdir()
    return path


SPECIAL_FILES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a character device": (_character_device, "is a character device"),
    "a named pipe": (_named_pipe, "is a named pipe"),
    "a folder": (_folder, "folder|directory"),
}


def _ladder_results(folder: Path) -> str:
    path = folder / "results.jsonl"
    path.write_text(json.dumps({"bots": ["greedy", "random"], "players": 2, "games": 2, "wins": 2,
                                "win_share": 1.0, "ci95": [0.2, 1.0], "mean_difference": 50.0,
                                "difference_ci95": [10.0, 90.0]}) + "\n", encoding="utf-8")
    return str(path)


# Each command with its output option; {out} is the path, {dir} the test's folder.
COMMANDS: dict[str, list[str]] = {
    "show --svg": ["show", LATE, "--svg", "{out}", "--force"],
    "analyze --out": ["analyze", CORPUS, "--out", "{out}", "--force", "--workers", "1"],
    "train-leaves --out": ["train-leaves", "--games", "2", "--out", "{out}", "--force", "--workers", "1"],
    "match --plot": ["match", "--bots", "greedy,random", "--games", "2", "--plot", "{out}", "--force",
                     "--workers", "1"],
    "ladder --out": ["ladder", "{results}", "--out", "{out}", "--force"],
    "plot-sim --out": ["plot-sim", "--rollouts", "4", "--games", "2", "--out", "{out}", "--force",
                       "--workers", "1"],
    "corpus --out": ["corpus", "--positions", "2", "--out", "{out}", "--force", "--workers", "1"],
    "puzzles make --out": ["puzzles", "make", "--games", "1", "--out", "{out}", "--force", "--workers", "1"],
}


def _argv(command: list[str], out: Path, folder: Path) -> list[str]:
    results = _ladder_results(folder) if "{results}" in command else ""
    return [word.replace("{out}", str(out)).replace("{results}", results) for word in command]


@pytest.mark.parametrize("make, words", SPECIAL_FILES.values(), ids=SPECIAL_FILES.keys())
@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_force_refuses_an_output_path_that_is_not_a_regular_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str],
        make: Callable[[Path], Path], words: str) -> None:
    target = make(tmp_path)
    kind = stat.S_IFMT(os.lstat(target).st_mode)
    code, _, err = cli(capsys, *_argv(command, target, tmp_path))
    assert code == 2 and err.count("\n") == 1 and re.search(words, err), err
    assert stat.S_IFMT(os.lstat(target).st_mode) == kind      # left as it was
    assert [entry.name for entry in tmp_path.iterdir() if entry.name.endswith(".part")] == []


def test_selfplay_force_refuses_a_record_name_that_is_a_named_pipe(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game-5.jsonl")
    assert_bad_input(capsys, "selfplay", "--games", "1", "--seed", "5", "--records", str(tmp_path), "--force",
                     "--workers", "1", message="is a named pipe")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "game-5.jsonl").st_mode)


def test_force_still_overwrites_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "out.svg"
    path.write_text("old", encoding="utf-8")
    write_new(path, "new", force=True)
    assert path.read_text(encoding="utf-8") == "new"


def test_write_new_refuses_a_device_that_appears_after_the_check(tmp_path: Path) -> None:
    path = tmp_path / "late"
    check_new(path, force=True)
    os.mkfifo(path)       # comes between the check and the write
    with pytest.raises(GinnyoError, match="is a named pipe"):
        write_new(path, "data", force=True)
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert [entry.name for entry in tmp_path.iterdir()] == ["late"]    # no temporary file left


def test_crazy_selfplay_force_refuses_a_record_name_that_is_a_named_pipe(capsys: pytest.CaptureFixture[str],
                                                                        tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "crazy-5.jsonl")
    assert_bad_input(capsys, "crazy", "selfplay", "--games", "1", "--seed", "5", "--records", str(tmp_path),
                     "--force", message="is a named pipe")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "crazy-5.jsonl").st_mode)
