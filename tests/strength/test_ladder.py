"""The strength ladder: match results read back (every field checked, one line
naming the file, line and field), the table and the SVG, written whole and never
over an existing file without --force."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.errors import MatchResultError
from ginnyo.strength.ladder import MAX_RUNGS, Rung, ladder_svg, read_rungs, rung_of

RESULT = {"bots": ["equity", "greedy"], "players": 2, "games": 400, "wins": 290, "ties": 2, "losses": 108,
          "win_rate": 0.7275, "ci95": [0.68184, 0.76885], "mean_difference": 88.1,
          "difference_ci95": [80.0, 96.2], "mean_scores": [270.1, 182.0], "seed": 1, "seconds": 3.1}


def write_results(path: Path, *results: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(result) + "\n" for result in results), encoding="utf-8")
    return path


def test_a_rung_reads_the_match_json_and_names_both_leave_files() -> None:
    rung = rung_of(RESULT)
    assert rung == Rung("equity vs greedy", 2, 400, 0.7275, 0.68184, 0.76885) and rung.stronger
    assert rung_of({**RESULT, "leaves": ["new/leaves-v2.json", None]}).label == "equity (leaves-v2) vs greedy"
    assert rung_of({**RESULT, "label": "new equity vs old"}).label == "new equity vs old"
    assert rung_of({**RESULT, "endgame_deals": {"kept": 9, "played": 10}}).label == \
        "equity vs greedy, endgame deals"
    # a result from before --players: 2 players
    old = dict(RESULT)
    del old["players"]
    assert rung_of(old).players == 2


def test_a_three_player_rung_is_stronger_above_a_third_not_a_half() -> None:
    rung = rung_of({**RESULT, "players": 3, "win_rate": 0.4, "ci95": [0.36, 0.44]})
    assert rung.parity == pytest.approx(1 / 3) and rung.stronger
    assert not rung_of({**RESULT, "win_rate": 0.4, "ci95": [0.36, 0.44]}).stronger


@pytest.mark.parametrize("change, message", [
    ({"bots": ["equity"]}, "field 'bots'"),
    ({"bots": "equity,greedy"}, "field 'bots'"),
    ({"players": 5}, "field 'players': 5 is not one of 2, 3, 4"),
    ({"players": 3.0}, "field 'players'"),
    ({"games": 0}, "field 'games': 0 is not a positive number"),
    ({"games": "400"}, "field 'games'"),
    ({"win_rate": 1.5}, "field 'win_rate': 1.5 is not a share"),
    ({"win_rate": float("nan")}, "field 'win_rate'"),
    ({"win_rate": True}, "field 'win_rate'"),
    ({"ci95": [0.8, 0.9]}, "field 'ci95'"),
    ({"ci95": [0.7]}, "field 'ci95'"),
    ({"label": ""}, "field 'label'"),
    ({"label": "x" * 81}, "field 'label'"),
    ({"label": "two\nlines"}, "field 'label'"),
    ({"bots": ["equity", "gr\x1beedy"]}, "field 'bots'"),
])
def test_a_malformed_result_names_its_field(change: dict[str, object], message: str) -> None:
    with pytest.raises(MatchResultError, match="^here: .*" + message.replace("(", r"\(")):
        rung_of({**RESULT, **change}, "here")


def test_missing_fields_and_non_objects_are_refused() -> None:
    partial = dict(RESULT)
    del partial["ci95"]
    with pytest.raises(MatchResultError, match="field 'ci95': missing"):
        rung_of(partial)
    with pytest.raises(MatchResultError, match="must be a JSON object"):
        rung_of([RESULT])


def test_result_files_are_read_line_by_line_in_order(tmp_path: Path) -> None:
    first = write_results(tmp_path / "a.jsonl", RESULT, {**RESULT, "players": 4, "label": "four"})
    second = write_results(tmp_path / "b.jsonl", {**RESULT, "label": "last"})
    assert [rung.label for rung in read_rungs([str(first), str(second)])] == ["equity vs greedy", "four", "last"]


def test_a_bad_line_is_named_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(RESULT) + "\n\n{not json\n", encoding="utf-8")
    with pytest.raises(MatchResultError, match=r"r.jsonl' line 3: malformed JSON"):
        read_rungs([str(path)])
    path.write_text(json.dumps(RESULT) + "\n" + json.dumps({**RESULT, "games": -1}) + "\n", encoding="utf-8")
    with pytest.raises(MatchResultError, match=r"line 2: field 'games'"):
        read_rungs([str(path)])
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(MatchResultError, match="no match result"):
        read_rungs([str(path)])


def test_at_most_max_rungs_are_read(tmp_path: Path) -> None:
    path = write_results(tmp_path / "r.jsonl", *[RESULT] * (MAX_RUNGS + 1))
    with pytest.raises(MatchResultError, match=f"line {MAX_RUNGS + 1}: more than {MAX_RUNGS}"):
        read_rungs([str(path)])


def test_the_ladder_svg_has_a_row_a_rung_the_half_line_and_a_parity_mark_for_more_players() -> None:
    rungs = [rung_of({**RESULT, "label": "a <&> b"}), rung_of({**RESULT, "players": 3, "win_rate": 0.3,
                                                                "ci95": [0.25, 0.35]})]
    svg = ladder_svg(rungs, "ladder & co")
    root = ElementTree.fromstring(svg)
    texts = ["".join(element.itertext()) for element in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "ladder & co" in texts and "a <&> b" in texts and "equity vs greedy, 3 players" in texts
    circles = list(root.iter("{http://www.w3.org/2000/svg}circle"))
    assert len(circles) == 2
    assert [circle.get("fill") for circle in circles] == ["#1f6fb4", "#d9622b"]   # above parity, not above
    dashed = [line for line in root.iter("{http://www.w3.org/2000/svg}line") if line.get("stroke-dasharray")]
    assert len(dashed) == 2   # the 50% line across, the 3-player rung's 33% mark


def test_ladder_command_prints_the_table_and_writes_the_svg_once(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    results = write_results(tmp_path / "r.jsonl", RESULT, {**RESULT, "players": 4, "win_rate": 0.2,
                                                           "ci95": [0.17, 0.23]})
    out = tmp_path / "ladder.svg"
    code, text, _ = cli(capsys, "ladder", str(results), "--out", str(out))
    lines = text.splitlines()
    assert code == 0 and lines[1].split()[-2:] == ["yes", "(50%)"] and lines[2].split()[-2:] == ["no", "(25%)"]
    assert lines[-1] == f"wrote {out}"
    first = out.read_text(encoding="utf-8")
    ElementTree.fromstring(first)
    assert_bad_input(capsys, "ladder", str(results), "--out", str(out), "--title", "other",
                     message="exists; give --force")
    assert out.read_text(encoding="utf-8") == first
    code, _, _ = cli(capsys, "ladder", str(results), "--out", str(out), "--title", "other", "--force")
    assert code == 0 and "other" in out.read_text(encoding="utf-8")


def test_ladder_of_real_match_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    for argv in (["--bots", "equity,greedy"], ["--bots", "greedy,equity", "--players", "3", "--games", "3"]):
        code, out, _ = cli(capsys, "match", "--games", "2", "--workers", "1", "--json", *argv)
        with results.open("a", encoding="utf-8") as stream:
            stream.write(out)
    code, text, _ = cli(capsys, "ladder", str(results), "--out", str(tmp_path / "l.svg"))
    assert code == 0 and "greedy vs equity" in text.splitlines()[2]


def test_ladder_refuses_a_symbolic_link(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    results = write_results(tmp_path / "r.jsonl", RESULT)
    target = tmp_path / "target.svg"
    target.write_text("keep", encoding="utf-8")
    (tmp_path / "link.svg").symlink_to(target)
    assert_bad_input(capsys, "ladder", str(results), "--out", str(tmp_path / "link.svg"), "--force",
                     message="symbolic link")
    assert target.read_text(encoding="utf-8") == "keep"


@pytest.mark.parametrize("argv, message", [
    (["--out", "/no/such/dir/l.svg"], "--out '/no/such/dir/l.svg': no such directory"),
    (["--title", ""], "--title: give one line of 1 to 80 characters"),
    (["--title", "a\tb"], "--title: give one line"),
])
def test_ladder_bad_options_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                                   message: str) -> None:
    results = write_results(tmp_path / "r.jsonl", RESULT)
    argv = argv if "--out" in argv else [*argv, "--out", str(tmp_path / "l.svg")]
    assert_bad_input(capsys, "ladder", str(results), *argv, message=message)


def test_ladder_refuses_a_missing_or_bad_result_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "l.svg"
    assert_bad_input(capsys, "ladder", str(tmp_path / "none.jsonl"), "--out", str(out), message="cannot read")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe\n")
    assert_bad_input(capsys, "ladder", str(bad), "--out", str(out), message="not UTF-8")
    assert not out.exists()
