"""Helpers of the command-line tests: run ``ginnyo`` in-process, check one-line bad-input errors."""

from __future__ import annotations

import pytest

from ginnyo.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``ginnyo argv...``: the exit status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_bad_input(capsys: pytest.CaptureFixture[str], *argv: str, message: str) -> None:
    """``ginnyo argv...`` exits 2 with one line on stderr that contains ``message``."""
    code: int | str | None
    try:
        code, _, err = cli(capsys, *argv)
    except SystemExit as exit_info:     # argparse errors
        code, err = exit_info.code, capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err and message in err, err
