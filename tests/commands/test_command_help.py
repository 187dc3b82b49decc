"""Every option of every command says what it is for and shows its default
(issue 18 item 5), found by walking the parsers themselves."""

from __future__ import annotations

import argparse
from typing import Iterator

import pytest

from ginnyo.cli import COMMANDS, build_parser
from ginnyo.commands.arguments import default_text, has_default
from ginnyo.commands.crazy import crazy_parser

UNDOCUMENTED = (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every parser below it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                yield from _parsers(child)


def _options() -> list[tuple[str, argparse.ArgumentParser, argparse.Action]]:
    found = []
    for top in (build_parser(), crazy_parser()):
        for parser in _parsers(top):
            for action in parser._actions:
                if not isinstance(action, UNDOCUMENTED):
                    name = "/".join(action.option_strings) or str(action.dest)
                    found.append((f"{parser.prog} {name}", parser, action))
    return found


OPTIONS = _options()


def _shown_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help of ``action`` as ``--help`` prints it, on one line."""
    formatter = parser._get_formatter()
    return " ".join(formatter._expand_help(action).split())


def test_every_command_and_crazy_command_is_walked() -> None:
    progs = {parser.prog for top in (build_parser(), crazy_parser()) for parser in _parsers(top)}
    assert {f"ginnyo {command}" for command in COMMANDS} <= progs
    assert {"ginnyo crazy best-turn", "ginnyo crazy solve", "ginnyo crazy selfplay", "ginnyo crazy replay"} <= progs
    assert len(OPTIONS) > 60


def test_every_command_is_listed_with_a_help_text() -> None:
    for top in (build_parser(), crazy_parser()):
        for parser in _parsers(top):
            for action in parser._actions:
                if isinstance(action, argparse._SubParsersAction):
                    for choice in action._choices_actions:
                        assert (choice.help or "").strip(), f"{parser.prog} {choice.dest} has no help"


@pytest.mark.parametrize("name, parser, action", OPTIONS, ids=[name for name, _, _ in OPTIONS])
def test_every_option_has_a_help_text(name: str, parser: argparse.ArgumentParser, action: argparse.Action) -> None:
    assert (action.help or "").strip(), f"{name} has no help"


@pytest.mark.parametrize("name, parser, action", OPTIONS, ids=[name for name, _, _ in OPTIONS])
def test_every_option_with_a_default_shows_it(name: str, parser: argparse.ArgumentParser,
                                              action: argparse.Action) -> None:
    shown = _shown_help(parser, action)
    if has_default(action):
        assert default_text(action.default) in shown, f"{name}: {shown!r} does not show its default {action.default!r}"
    assert "(default: None)" not in shown and "(default: False)" not in shown, f"{name}: {shown!r}"


def test_a_default_is_shown_once_in_the_printed_help() -> None:
    parser = next(p for p in _parsers(build_parser("match")) if p.prog == "ginnyo match")
    printed = " ".join(parser.format_help().split())
    assert "a sim player's rollouts a decision (default: 32)" in printed
    assert printed.count("(default: 32)") == 1 and "(default: False)" not in printed
