"""``ginnyo show``: the board as a terminal picture, an SVG file or a position string."""

from __future__ import annotations

import argparse
from typing import Any

from ..position.position import Position
from .arguments import COLOR_CHOICES, COLOR_HELP, EXIT_OK, FORCE_HELP, POSITION_HELP, color_wanted, file_name


def register(commands: Any) -> None:
    """Add ``show`` to the main parser's commands."""
    show = commands.add_parser("show", help="the board as a picture")
    show.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    show_output = show.add_mutually_exclusive_group()
    show_output.add_argument("--svg", type=file_name, metavar="FILE", help="write an SVG image instead")
    show_output.add_argument("--line", action="store_true",
                             help="print the one-line position string instead (docs/POSITION-STRING.md)")
    show.add_argument("--color", choices=COLOR_CHOICES, default="auto", help=COLOR_HELP.format("terminal picture"))
    show.add_argument("--force", action="store_true", help=FORCE_HELP.format("--svg"))
    show.set_defaults(run=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from ..position import render
    position = Position.load(args.position)
    if args.line:
        from ..position.line import to_line
        print(to_line(position))
        return EXIT_OK
    if args.svg:
        from ..support.files import write_new
        write_new(args.svg, render.board_svg(position), force=args.force, option="--svg")
        print(f"wrote {args.svg}")
        return EXIT_OK
    print(render.board_text(position, color=color_wanted(args.color)))
    return EXIT_OK
