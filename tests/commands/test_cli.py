"""The command line: best-move, moves, stdin, JSON shapes and exit codes."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ginnyo.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_best_move_on_every_shipped_example_prints_a_legal_play_or_a_return(capsys: pytest.CaptureFixture[str],
                                                                            example: str) -> None:
    code, out, err = run(capsys, "best-move", str(EXAMPLES / example))
    assert code == 0 and err == ""
    assert "points" in out or "Return" in out


def test_best_move_prints_notation_score_and_meld_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best-move", str(EXAMPLES / "extend.json"))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "D2 KCKDKS  60 points"
    assert "set" in lines[2] and "(10 + 10 + 10) x 2 = 60" in lines[2]


def test_best_move_json_has_the_contract_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best-move", "--json", str(EXAMPLES / "opening.json"))
    result = json.loads(out)
    assert code == 0
    assert result["score"] == 21
    assert set(result) >= {"notation", "score", "placements", "melds"}
    assert sorted(result["placements"].values()) == ["7C", "7H", "7S"]
    assert result["melds"] == [{"kind": "set", "squares": ["H6", "H7", "H8"], "score": 21}]


def test_best_move_without_a_legal_play_names_the_tile_to_return(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best-move", str(EXAMPLES / "no-play.json"))
    assert code == 0
    assert out.startswith("No legal play. Return AS to the box:")
    code, out, _ = run(capsys, "best-move", "--json", str(EXAMPLES / "no-play.json"))
    result = json.loads(out)
    assert result["notation"] is None and result["return"] == ["AS"] and result["reason"]


def test_moves_lists_best_first_and_limit_cuts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--json", str(EXAMPLES / "extend.json"))
    plays = json.loads(out)
    scores = [p["score"] for p in plays]
    assert code == 0 and scores == sorted(scores, reverse=True) and len(plays) > 100
    code, out, _ = run(capsys, "moves", "--limit", "3", str(EXAMPLES / "extend.json"))
    assert code == 0 and len(out.splitlines()) == 3


def test_moves_json_objects_are_shaped_like_best_move(capsys: pytest.CaptureFixture[str]) -> None:
    _, best, _ = run(capsys, "best-move", "--json", str(EXAMPLES / "midgame.json"))
    _, moves, _ = run(capsys, "moves", "--json", "--limit", "1", str(EXAMPLES / "midgame.json"))
    assert json.loads(moves) == [json.loads(best)]


def test_dash_reads_the_position_from_stdin(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    text = (EXAMPLES / "opening.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    code, out, _ = run(capsys, "best-move", "--json", "-")
    assert code == 0 and json.loads(out)["score"] == 21


def test_bad_option_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["moves", "--limit", "many", str(EXAMPLES / "opening.json")])
    assert exit_info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_installed_console_script_runs(tmp_path: Path) -> None:
    done = subprocess.run(["ginnyo", "best-move", str(EXAMPLES / "opening.json")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "21 points" in done.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    done = subprocess.run(["ginnyo", "best-move", str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_best_move_does_not_load_the_reference() -> None:
    """The plain-Python reference is the yardstick, not part of best-move's
    start-up (issue 3: best-move within 1.5x of ``import ginnyo``)."""
    code = ("import sys; from ginnyo.cli import main; "
            f"main(['best-move', {str(EXAMPLES / 'midgame.json')!r}]); "
            f"main(['best-move', '--json', {str(EXAMPLES / 'extend.json')!r}]); "
            "print('ginnyo.position.reference' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "False"


def test_the_parser_of_one_command_is_that_of_the_whole_line() -> None:
    """main builds only the parser of the command it runs; COMMANDS names them all."""
    from ginnyo.cli import COMMANDS, build_parser

    def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return dict(action.choices)

    whole = subcommands(build_parser())
    assert tuple(whole) == COMMANDS
    for command in COMMANDS:
        alone = subcommands(build_parser(command))
        assert list(alone) == [command]
        assert alone[command].format_help() == whole[command].format_help()


def test_an_unknown_command_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["best-moves", str(EXAMPLES / "opening.json")])
    err = capsys.readouterr().err
    assert raised.value.code == 2 and "invalid choice: 'best-moves'" in err and "engine" in err
