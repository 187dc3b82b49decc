"""The ``ginnyo`` command line's entry point (docs/FORMAT.md "The command line"):
the parser, assembled from the commands of :mod:`ginnyo.commands`, and ``main``.

Exit status: 0 done, 2 bad input, 130 interrupted by Ctrl-C (143 by SIGTERM,
whichever the command), 1 anything else.  A file a command writes is written
whole or not at all, and never over an existing file without ``--force`` or
through a symbolic link.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import sys
from typing import Any, Sequence

from . import __version__
from .support import interrupts
from .commands.arguments import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_INTERRUPTED, CommandParser
from .errors import GinnyoError, RunError

#: Every command, in the order ``ginnyo --help`` lists them.  Each is held by the
#: module of :mod:`ginnyo.commands` of its name (``plot-sim``: ``plot_sim``).
COMMANDS = ("best-move", "moves", "show", "corpus", "analyze", "replay", "selfplay", "train-leaves", "match", "crazy",
            "plot-sim", "ladder", "engine", "endgame", "serve", "db", "infer", "train-winprob", "puzzles")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command`` (one of ``COMMANDS``), only
    that command's part, which is all ``main`` needs to run it: building every
    command's parser is about a tenth of best-move's start-up."""
    parser = CommandParser(prog="ginnyo", description="Move generator and best-play solver for Ginny-O.")
    parser.add_argument("--version", action="version", version=f"ginnyo {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    commands.required = True
    for name in COMMANDS:
        if command in (None, name):
            _register(commands, name)
    return parser


def _register(commands: Any, name: str) -> None:
    """Add command ``name``: its module's parser, imported now (and only now)."""
    if name == "crazy":   # passed on whole, so that its parsers and Crazy Rummy load only when it runs
        crazy = commands.add_parser("crazy", help="Crazy Rummy, the second game: best-turn, solve, selfplay, "
                                    "replay (ginnyo crazy --help)", add_help=False, prefix_chars="\0")
        crazy.add_argument("crazy_args", nargs=argparse.REMAINDER, help="a Crazy Rummy command and its arguments")
        crazy.set_defaults(run=_run_crazy)
        return
    importlib.import_module(f".commands.{name.replace('-', '_')}", __package__).register(commands)


def _run_crazy(args: argparse.Namespace) -> int:
    from .commands.crazy import cmd_crazy
    return cmd_crazy(args)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _hold_closed_streams()
    # the command is the first word that is no option (ginnyo's own are --help and --version)
    command = next((word for word in argv if not word.startswith("-")), None)
    args = build_parser(command if command in COMMANDS else None).parse_args(argv)
    try:
        with interrupts.raising():   # SIGTERM stops every command as Ctrl-C does
            return int(args.run(args))
    except (Exception, KeyboardInterrupt) as error:
        with interrupts.ignoring():   # the command is over: a second signal cannot break its last line
            return _failed(error)


def _failed(error: Exception | KeyboardInterrupt) -> int:
    """The one line for how a command failed or was stopped; the exit status."""
    if isinstance(error, BrokenPipeError):
        return EXIT_FAILURE
    if isinstance(error, KeyboardInterrupt):   # Ctrl-C; interrupts.Interrupted also for SIGTERM
        done = getattr(error, "done", "")
        print(f"ginnyo: interrupted{': ' + done if done else ''}", file=sys.stderr)
        return int(getattr(error, "status", EXIT_INTERRUPTED))
    if isinstance(error, (GinnyoError, RunError)):
        print(f"ginnyo: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT if isinstance(error, GinnyoError) else EXIT_FAILURE
    if isinstance(error, OSError):   # the system's, not ours: standard output on a full disk, a closed stream
        where = f" ({error.filename})" if error.filename else ""
        print(f"ginnyo: error: cannot read or write{where}: {error.strerror or _one_line(error)}", file=sys.stderr)
        return EXIT_FAILURE
    # the contract is one line, never a traceback
    print(f"ginnyo: internal error: {type(error).__name__}: {_one_line(error)}", file=sys.stderr)
    return EXIT_FAILURE


def _hold_closed_streams() -> None:
    """Standard input or output closed by the shell (``<&-``, ``>&-``): Python leaves
    None in its place, which no command expects, and the next file opened would take
    its descriptor (a worker's output landing in it).  Hold each descriptor on
    /dev/null: input reads as empty, and every write to output fails."""
    if sys.stdin is None:
        sys.stdin = open(os.open(os.devnull, os.O_RDONLY), encoding="utf-8")
    if sys.stdout is None:
        os.open(os.devnull, os.O_RDONLY)
        sys.stdout = _ClosedOutput()


class _ClosedOutput(io.TextIOBase):
    """Standard output that the shell closed: every write fails, as on a closed descriptor."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split("\n"))


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
