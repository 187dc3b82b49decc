"""``ginnyo moves``: every legal play, best first, streamed as the core ranks them."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from typing import Any, Iterator

from ..vocab.notation import play_notation
from ..position.position import Position
from .arguments import EXIT_OK, POSITION_HELP, whole_number
from ..position.plays_json import play_to_json

LISTED_BEFORE_COUNTING = 4096   # moves: with fewer plays the list itself says how many


def register(commands: Any) -> None:
    """Add ``moves`` to the main parser's commands."""
    moves = commands.add_parser("moves", help="every legal play, best first")
    moves.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    moves.add_argument("--limit", type=whole_number(1), metavar="N",
                       help="print at most N plays (N >= 1; default: all)")
    moves.add_argument("--json", action="store_true", help="print a JSON array")
    moves.add_argument("--group", action="store_true",
                       help="one line for the plays that put the same tiles on the same squares for the same "
                            "score in another order, with their count (--limit then counts lines)")
    moves.set_defaults(run=cmd_moves)


def cmd_moves(args: argparse.Namespace) -> int:
    """The plays stream from the core best first, in bounded passes, and are
    printed as they come: memory stays bounded however many there are."""
    from .. import native
    position = Position.load(args.position)
    if args.group:
        return _grouped_moves(args, position)
    if args.json:
        _write_lines(_json_array(play_to_json(position, scored)
                                 for scored in native.ranked_plays(position, args.limit)))
        return EXIT_OK
    moves = native.ranked_moves(position, args.limit)
    first = list(itertools.islice(moves, LISTED_BEFORE_COUNTING))
    if not first:
        from ..analysis.report import return_line
        print(return_line(position))
        return EXIT_OK
    total = len(first)
    if total == LISTED_BEFORE_COUNTING:     # the numbers' width needs how many there are
        total = native.core_of(position).count_plays()
        if args.limit is not None:
            total = min(total, args.limit)
    width = len(str(total))
    _write_lines(f"{index:>{width}}. {play_notation(position, play):<28} {score:>4}\n"
                 for index, (score, play) in enumerate(itertools.chain(first, moves), 1))
    return EXIT_OK


def _grouped_moves(args: argparse.Namespace, position: Any) -> int:
    """``moves --group``: a line (or JSON object, with ``orderings``) a group of orderings."""
    from .. import native
    from ..position.play_groups import grouped
    groups = grouped(native.ranked_moves(position), args.limit)
    if args.json:
        _write_lines(_json_array(dict(play_to_json(position, position.score(play)), orderings=count)
                                 for _, play, count in groups))
        return EXIT_OK
    first = list(groups)
    if not first:
        from ..analysis.report import return_line
        print(return_line(position))
        return EXIT_OK
    width = len(str(len(first)))
    _write_lines(f"{index:>{width}}. {play_notation(position, play):<28} {score:>4}"
                 f"{f'  ({count} orderings)' if count > 1 else ''}\n"
                 for index, (score, play, count) in enumerate(first, 1))
    return EXIT_OK


def _json_array(items: Iterator[dict[str, Any]]) -> Iterator[str]:
    """The text ``print(json.dumps(list(items)))`` prints, a piece an item."""
    yield "["
    for index, item in enumerate(items):
        yield (", " if index else "") + json.dumps(item)
    yield "]\n"


def _write_lines(texts: Iterator[str], batch: int = 4096) -> None:
    """Write ``texts`` to stdout as they come, ``batch`` at a time."""
    pending: list[str] = []
    for text in texts:
        pending.append(text)
        if len(pending) == batch:
            sys.stdout.write("".join(pending))
            pending.clear()
    sys.stdout.write("".join(pending))
