"""Files read bounded and written whole, never over a file without --force and
never through a symbolic link (files.py); JSON refusing repeated keys and
numbers that are not whole (strict_json.py); and every command that writes a
file the user names keeps to that."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from ginnyo.support import files, strict_json
from ginnyo.cli import main
from ginnyo.errors import GinnyoError, RecordError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def leftovers(folder: Path) -> list[str]:
    """Temporary files left in ``folder``."""
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".part"))


# -- read_bounded -------------------------------------------------------------------------------

def test_a_bounded_read_of_an_endless_device_stops_at_the_limit() -> None:
    with pytest.raises(RecordError, match="larger than a game record may be .1 MiB at most."):
        files.read_bounded("/dev/zero", files.MIB, what="game record", error=RecordError)


def test_a_bounded_read_returns_a_file_at_the_limit_whole(tmp_path: Path) -> None:
    path = tmp_path / "exact"
    path.write_bytes(b"x" * 100)
    assert files.read_bounded(path, 100) == b"x" * 100
    with pytest.raises(GinnyoError, match="larger than a file may be .99 bytes at most."):
        files.read_bounded(path, 99)


def test_a_bounded_read_of_standard_input() -> None:
    assert files.read_bounded("-", 10, stdin=io.BytesIO(b"abc")) == b"abc"
    with pytest.raises(GinnyoError, match="standard input: larger than"):
        files.read_bounded("-", 2, stdin=io.BytesIO(b"abc"))


def test_a_bounded_read_of_a_missing_file_or_a_folder_is_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / "nope", tmp_path):
        with pytest.raises(GinnyoError, match="cannot read") as raised:
            files.read_bounded(path, 10)
        assert "\n" not in str(raised.value)


# -- write_new ------------------------------------------------------------------------------------

def test_write_new_writes_a_new_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    files.write_new(path, "hello\n")
    assert path.read_text() == "hello\n" and leftovers(tmp_path) == []
    assert oct(path.stat().st_mode & 0o777) == oct(0o644 & ~_umask())


def test_write_new_never_clobbers_without_force(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("mine\n")
    with pytest.raises(RecordError, match=r"--out '.*out.txt': exists; give --force to overwrite it"):
        files.write_new(path, "theirs\n", error=RecordError, option="--out")
    assert path.read_text() == "mine\n" and leftovers(tmp_path) == []
    files.write_new(path, "theirs\n", force=True)
    assert path.read_text() == "theirs\n" and leftovers(tmp_path) == []


def test_write_new_never_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("keep\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    for path in (link, dangling):
        for force in (False, True):
            with pytest.raises(GinnyoError, match="is a symbolic link"):
                files.write_new(path, "new\n", force=force)
    assert target.read_text() == "keep\n" and not (tmp_path / "nowhere.txt").exists()
    assert link.is_symlink() and leftovers(tmp_path) == []


def test_write_new_cleans_its_temporary_file_when_the_write_fails(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "link", refuse)
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(GinnyoError, match="cannot write .No space left on device."):
        files.write_new(tmp_path / "out.txt", "data")
    assert sorted(os.listdir(tmp_path)) == []


def test_write_new_cleans_its_temporary_file_when_interrupted(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "chmod", interrupt)
    with pytest.raises(KeyboardInterrupt):
        files.write_new(tmp_path / "out.txt", "data")
    assert sorted(os.listdir(tmp_path)) == []


def test_write_new_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(GinnyoError, match="cannot write"):
        files.write_new(tmp_path / "no" / "such" / "out.txt", "data", option="--svg")


def test_check_new_refuses_what_write_new_would(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    assert files.check_new(path, option="--out") == f"--out {str(path)!r}"
    path.write_text("x")
    with pytest.raises(GinnyoError, match="exists"):
        files.check_new(path)
    files.check_new(path, force=True)


def test_quote_cuts_a_long_value_and_names_its_length() -> None:
    assert files.quote("short") == "'short'"
    assert files.quote("x" * 1000).endswith("... (1000 long)") and len(files.quote("x" * 1000)) < 60


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- strict_json ----------------------------------------------------------------------------------

def test_strict_json_refuses_a_key_given_twice_with_where() -> None:
    with pytest.raises(RecordError, match="^game line 4: malformed JSON: key 'a' appears twice$"):
        strict_json.loads('{"a": 1, "b": {"c": 2}, "a": 3}', RecordError, "game line 4: ")
    with pytest.raises(GinnyoError, match="key 'c' appears twice"):
        strict_json.loads('{"b": {"c": 2, "c": 2}}')


def test_strict_json_reports_malformed_json_on_one_line() -> None:
    with pytest.raises(GinnyoError, match="^x: malformed JSON: Expecting .* at line 1 column"):
        strict_json.loads('{"a": }', where="x: ")
    with pytest.raises(GinnyoError, match="nested too deeply"):
        strict_json.loads("[" * 100000 + "]" * 100000)


def test_whole_numbers_are_ints_only() -> None:
    assert strict_json.is_whole_number(13) and strict_json.is_whole_number(-2)
    assert not any(strict_json.is_whole_number(value) for value in (13.0, True, False, "13", None))


@pytest.mark.parametrize(("value", "kind", "message"), [
    (13.0, int, "field 'n': 13.0 is not a whole number"),
    (True, int, "field 'n': True is not a whole number"),
    (True, (int, type(None)), "field 'n': True is not a whole number or null"),
    (3, str, "field 'n': 3 is not a string"),
])
def test_field_names_the_field_and_what_it_must_be(value: object, kind: type, message: str) -> None:
    with pytest.raises(RecordError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        strict_json.field({"n": value}, "n", kind, RecordError)


def test_field_takes_what_it_asks_for() -> None:
    assert strict_json.field({"n": 3}, "n", int) == 3
    assert strict_json.field({"n": None}, "n", (int, type(None))) is None
    assert strict_json.whole_numbers({"n": [1, 2]}, "n") == [1, 2]
    with pytest.raises(GinnyoError, match="field 'n': missing"):
        strict_json.field({}, "n", int)
    with pytest.raises(GinnyoError, match=r"field 'n': \[1, 2.0\] is not a list of whole numbers"):
        strict_json.whole_numbers({"n": [1, 2.0]}, "n")


# -- every command that writes a file the user names ------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(capsys: pytest.CaptureFixture[str], argv: list[str], path: Path, message: str) -> None:
    before = path.read_bytes() if not path.is_symlink() else None
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and message in err and str(path) in err, err
    if before is not None:
        assert path.read_bytes() == before
    assert leftovers(path.parent) == []


def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"board": {"H8": "7H", "I8": "7C", "J8": "7S"}, "rack": "7D 8H 9H"}))
    return path


def test_show_svg_never_clobbers_without_force(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    position = position_file(tmp_path)
    svg = tmp_path / "board.svg"
    svg.write_text("mine")
    assert_refused(capsys, ["show", str(position), "--svg", str(svg)], svg, "--svg")
    code, out, _ = run(capsys, "show", str(position), "--svg", str(svg), "--force")
    assert code == 0 and svg.read_text().startswith("<svg") and leftovers(tmp_path) == []


def test_show_svg_never_writes_through_a_link(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    position = position_file(tmp_path)
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep")
    link = tmp_path / "board.svg"
    link.symlink_to(target)
    assert_refused(capsys, ["show", str(position), "--svg", str(link), "--force"], link, "symbolic link")
    assert target.read_text() == "keep"


def test_corpus_out_never_clobbers_without_force(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "corpus.jsonl"
    out.write_text("mine\n")
    assert_refused(capsys, ["corpus", "--positions", "2", "--out", str(out), "--workers", "1"], out, "--out")
    folder = tmp_path / "positions"
    folder.mkdir()
    taken = folder / "position-1.json"
    taken.write_text("mine\n")
    assert_refused(capsys, ["corpus", "--positions", "2", "--out", str(folder), "--workers", "1"], taken, "--out")
    assert sorted(os.listdir(folder)) == ["position-1.json"]      # nothing written when one is refused
    code, _, err = run(capsys, "corpus", "--positions", "2", "--out", str(folder), "--workers", "1", "--force")
    assert code == 0 and taken.read_text() != "mine\n", err


def test_train_leaves_refuses_an_existing_out_before_training(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    out = tmp_path / "leaves.json"
    out.write_text("{}")
    assert_refused(capsys, ["train-leaves", "--games", "1000000", "--out", str(out)], out, "--out")


def test_match_plot_and_plot_sim_out_are_refused_before_playing(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    svg = tmp_path / "plot.svg"
    svg.write_text("mine")
    assert_refused(capsys, ["match", "--bots", "greedy,random", "--games", "1000000", "--plot", str(svg)],
                   svg, "--plot")
    assert_refused(capsys, ["plot-sim", "--games", "1000000", "--out", str(svg)], svg, "--out")


def test_selfplay_records_never_clobber_without_force(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    taken = tmp_path / "game-3.jsonl"
    taken.write_text("mine\n")
    argv = ["selfplay", "--games", "3", "--seed", "2", "--workers", "1", "--records", str(tmp_path)]
    assert_refused(capsys, argv, taken, "--records")
    assert sorted(os.listdir(tmp_path)) == ["game-3.jsonl"]        # refused before the first game
    code, out, err = run(capsys, *argv, "--force")
    assert code == 0 and "wrote 3 records" in out, err
    assert sorted(os.listdir(tmp_path)) == ["game-2.jsonl", "game-3.jsonl", "game-4.jsonl"]
    assert main(["replay", "--quiet", str(taken)]) == 0
    capsys.readouterr()


def test_selfplay_records_never_go_through_a_link(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep")
    records = tmp_path / "records"
    records.mkdir()
    (records / "game-1.jsonl").symlink_to(target)
    argv = ["selfplay", "--games", "2", "--workers", "1", "--records", str(records), "--force"]
    assert_refused(capsys, argv, records / "game-1.jsonl", "symbolic link")
    assert target.read_text() == "keep"


def test_selfplay_ignores_records_of_other_seeds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("game-9.jsonl", "game-01.jsonl", "crazy-0.jsonl", "notes.txt"):
        (tmp_path / name).write_text("mine\n")
    code, out, err = run(capsys, "selfplay", "--games", "2", "--workers", "1", "--records", str(tmp_path))
    assert code == 0 and "wrote 2 records" in out, err


def test_crazy_selfplay_records_never_clobber_without_force(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    taken = tmp_path / "crazy-0.jsonl"
    taken.write_text("mine\n")
    argv = ["crazy", "selfplay", "--games", "1", "--players", "3", "--workers", "1", "--records", str(tmp_path)]
    assert_refused(capsys, argv, taken, "--records")
    code, out, err = run(capsys, *argv, "--force")
    assert code == 0 and "wrote 1 records" in out, err
    assert main(["crazy", "replay", "--quiet", str(taken)]) == 0
    capsys.readouterr()
