"""``ginnyo puzzles make``: puzzles proved from seeded games or game records, one JSON line each."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import GinnyoError
from .arguments import EXIT_OK, FORCE_HELP, file_name, game_count, seed_number, whole_number, worker_count


def _margin(text: str) -> float:
    """An argparse type: a margin of points, a whole number from 1."""
    return float(whole_number(1, 10**6)(text))


def register(commands: Any) -> None:
    """Add ``puzzles`` (and its ``make``) to the main parser's commands."""
    puzzles = commands.add_parser("puzzles", help="positions where one play is provably best (docs/PUZZLES.md)")
    actions = puzzles.add_subparsers(dest="puzzles_command", metavar="ACTION", parser_class=type(puzzles))
    actions.required = True
    make = actions.add_parser("make", help="find and prove puzzles in seeded games or game records")
    source = make.add_mutually_exclusive_group(required=True)
    source.add_argument("--games", type=game_count, metavar="N",
                        help="play N seeded 2-player games between endgame bots (game i dealt from seed S+i)")
    source.add_argument("--from-records", type=file_name, metavar="DIR",
                        help="the game records in DIR (*.jsonl, as selfplay --records and the web table write)")
    make.add_argument("--seed", type=seed_number, default=0, metavar="S",
                      help="the seed of the games and of every choice and simulation")
    make.add_argument("--out", type=file_name, required=True, metavar="FILE", help="the puzzles, one JSON line each")
    make.add_argument("--margin", type=_margin, default=10, metavar="M",
                      help="a score puzzle's least lead, in points, over every other play")
    make.add_argument("--endgame-margin", type=_margin, default=5, metavar="M",
                      help="an endgame puzzle's least lead, in points of spread, over every other first move")
    make.add_argument("--per-game", type=whole_number(0, 100), default=2, metavar="K",
                      help="score puzzles a game at most")
    make.add_argument("--rollouts", type=whole_number(0, 10**5), default=0, metavar="R",
                      help="rollouts a candidate of the equity puzzle tried in each game (0: none)")
    make.add_argument("--workers", type=worker_count, metavar="W",
                      help="local processes (default: one a core; 1 works in this process)")
    make.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    make.set_defaults(run=cmd_puzzles_make)


def cmd_puzzles_make(args: argparse.Namespace) -> int:
    """Find, prove and rate the puzzles, showing progress on stderr, and write them whole."""
    from pathlib import Path

    from .progress import progress_bar
    from ..puzzles.finding import Budget, make_puzzles, puzzle_lines, record_puzzles
    from ..support.files import check_new, write_new
    from ..support.workers import default_workers
    out = Path(args.out)
    check_new(out, force=args.force, option="--out")     # before the games, not after
    budget = Budget(args.margin, args.endgame_margin, args.per_game, args.rollouts)
    workers = args.workers or default_workers()
    if args.from_records is not None:
        folder = Path(args.from_records)
        if not folder.is_dir():
            raise GinnyoError(f"--from-records {str(folder)!r}: not a directory")
        paths = sorted(folder.glob("*.jsonl"))
        if not paths:
            raise GinnyoError(f"--from-records {str(folder)!r}: no game records (*.jsonl) in it")
        with progress_bar(len(paths), "record") as bar:
            puzzles = record_puzzles(paths, args.seed, budget, workers=workers, on_games=bar.update)
    else:
        with progress_bar(args.games, "game") as bar:
            puzzles = make_puzzles(args.games, args.seed, budget, workers=workers, on_games=bar.update)
    write_new(out, puzzle_lines(puzzles), force=args.force, option="--out")
    kinds = {kind: sum(1 for puzzle in puzzles if puzzle.kind == kind) for kind in ("score", "endgame", "equity")}
    print(f"wrote {len(puzzles)} puzzles to {out} ("
          + ", ".join(f"{count} {kind}" for kind, count in kinds.items()) + ")")
    return EXIT_OK
