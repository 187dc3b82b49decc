"""``ginnyo ladder``: match results (``ginnyo match --json`` lines) as a table
and an SVG of the strength ladder."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import GinnyoError
from .arguments import FORCE_HELP, file_name

DEFAULT_TITLE = "Strength ladder"


def register(commands: Any) -> None:
    """Add ``ladder`` to the main parser's commands."""
    ladder = commands.add_parser("ladder", help="match results (match --json lines) as a table and an SVG ladder")
    ladder.add_argument("results", nargs="+", metavar="RESULTS",
                        help="files of 'ginnyo match --json' lines, one a match (ginnyo match ... --json >> FILE)")
    ladder.add_argument("--out", type=file_name, required=True, metavar="FILE", help="the SVG to write")
    ladder.add_argument("--title", default=DEFAULT_TITLE, metavar="TEXT", help="the picture's title")
    ladder.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    ladder.set_defaults(run=cmd_ladder)


def cmd_ladder(args: argparse.Namespace) -> int:
    """``ginnyo ladder``: read the results, print the table, write the SVG."""
    from ..support.files import check_new, write_new
    from ..strength.ladder import LABEL_CHARS, is_label, ladder_lines, ladder_svg, read_rungs
    if not is_label(args.title):
        raise GinnyoError(f"--title: give one line of 1 to {LABEL_CHARS} characters")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise GinnyoError(f"--out {str(out)!r}: no such directory")
    check_new(out, force=args.force, option="--out")
    rungs = read_rungs(args.results)
    print("\n".join(ladder_lines(rungs)))
    write_new(out, ladder_svg(rungs, args.title), force=args.force, option="--out")
    print(f"wrote {out}")
    return 0
