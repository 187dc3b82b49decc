"""``ginnyo engine``: serve the engine line protocol (:mod:`ginnyo.engine`,
docs/PROTOCOL.md) on standard input and output."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def register(commands: Any) -> None:
    """Add ``engine`` to the main parser's commands."""
    engine = commands.add_parser("engine", help="serve the engine line protocol on stdin/stdout (docs/PROTOCOL.md)")
    engine.set_defaults(run=cmd_engine)


def cmd_engine(args: argparse.Namespace) -> int:
    """``ginnyo engine``: serve the protocol on standard input and output.  A
    closed output ends it like the end of input, with status 0 and no traceback."""
    from ..engine.server import serve
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False)
    # a reader of its own, not sys.stdin.buffer: go sim's reader thread may still wait in it at exit, and
    # the interpreter, closing sys.stdin on the way out, would wait for it and abort
    stdin = open(sys.stdin.fileno(), "rb", closefd=False)
    try:
        return serve(stdin, stdout)
    finally:
        try:
            stdout.flush()
        except OSError:
            _silence_stdout()


def _silence_stdout() -> None:
    """Point standard output at /dev/null once the reader has gone, so that the
    flushes at exit do not report the broken pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
