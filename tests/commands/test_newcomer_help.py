"""The help and usage errors a newcomer meets first (issue 30 item 2): the player
kinds from their one list, each default shown once and as typed, and a usage
error pointing to the help of the command that was mistyped."""

from __future__ import annotations

import argparse

import pytest

from cli_helpers import assert_bad_input
from ginnyo.cli import build_parser
from ginnyo.commands.crazy import crazy_parser
from ginnyo.players.kinds import KIND_HELP, PLAYER_KINDS
from ginnyo.players import PLAYER_KINDS as PLAYERS_PLAYER_KINDS
from test_command_help import OPTIONS, _shown_help


def _help_of(parser: argparse.ArgumentParser, command: str) -> str:
    """``ginnyo COMMAND --help`` as printed, on one line."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return " ".join(action.choices[command].format_help().split())
    raise AssertionError("no commands")


def test_the_player_kinds_are_one_list() -> None:
    assert PLAYERS_PLAYER_KINDS is PLAYER_KINDS and set(PLAYER_KINDS) == set(KIND_HELP)


@pytest.mark.parametrize("command", ["selfplay", "match"])
def test_bots_help_names_every_player_kind(command: str) -> None:
    shown = _help_of(build_parser(command), command)
    for kind, words in KIND_HELP.items():
        assert f"{kind} (" in shown and " ".join(words.split()) in shown, (command, kind)


def test_selfplay_help_names_sim_spread() -> None:
    assert "sim-spread (" in _help_of(build_parser("selfplay"), "selfplay")


@pytest.mark.parametrize("name, parser, action", OPTIONS, ids=[name for name, _, _ in OPTIONS])
def test_no_option_shows_its_default_twice(name: str, parser: argparse.ArgumentParser,
                                            action: argparse.Action) -> None:
    assert _shown_help(parser, action).count("(default:") <= 1, name


def test_train_leaves_players_default_is_shown_as_typed() -> None:
    shown = _help_of(build_parser("train-leaves"), "train-leaves")
    assert "(default: 2,3,4)" in shown and "(2, 3, 4)" not in shown


@pytest.mark.parametrize("argv, help_command", [
    (["moves", "--limit", "x", "examples/opening.json"], "ginnyo moves --help"),
    (["best-move"], "ginnyo best-move --help"),
    (["selfplay", "--games", "-1"], "ginnyo selfplay --help"),
    (["crazy", "solve"], "ginnyo crazy solve --help"),
    (["bogus"], "ginnyo --help"),
])
def test_a_usage_error_names_the_help_of_its_command(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                     help_command: str) -> None:
    assert_bad_input(capsys, *argv, message=f"(see '{help_command}')")


def test_crazy_commands_usage_errors_name_their_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        crazy_parser().parse_args(["crazy", "selfplay", "--games", "x"])
    assert "(see 'ginnyo crazy selfplay --help')" in capsys.readouterr().err


def test_plot_sim_against_help_names_every_player_kind() -> None:
    shown = _help_of(build_parser("plot-sim"), "plot-sim")
    assert all(kind in shown for kind in PLAYER_KINDS)


def test_words_left_over_are_the_error_of_their_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "best-move", "examples/opening.json", "extra",
                     message="unrecognized arguments: extra (see 'ginnyo best-move --help')")


def test_format_md_names_every_player_kind() -> None:
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    kinds = text[text.index("Player kinds (here and in `selfplay --bots`)"):].split("\n", 1)[0]
    assert all(f"`{kind}`" in kinds for kind in PLAYER_KINDS)
