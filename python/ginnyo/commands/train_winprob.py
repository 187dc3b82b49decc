"""``ginnyo train-winprob``: fit the win-probability model on self-play, write its file and reliability plot."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import GinnyoError
from .arguments import FORCE_HELP, file_name, seed_number, whole_number, worker_count


def register(commands: Any) -> None:
    """Add ``train-winprob`` to the main parser's commands."""
    from ..odds.win_probability import DEFAULT_GAMES, DEFAULT_PER_GAME, DEFAULT_SEED
    train = commands.add_parser("train-winprob",
                                help="fit the win-probability model on self-play (docs/INFERENCE.md)")
    train.add_argument("--games", type=whole_number(10, 10**7), default=DEFAULT_GAMES, metavar="N",
                       help="equity games a player count (the first 80%% fit, the rest measure)")
    train.add_argument("--per-game", type=whole_number(1, 100), default=DEFAULT_PER_GAME, metavar="K",
                       help="positions taken from each game")
    train.add_argument("--seed", type=seed_number, default=DEFAULT_SEED, metavar="S", help="the seed of the games")
    train.add_argument("--out", type=file_name, required=True, metavar="FILE", help="the model file to write (JSON)")
    train.add_argument("--plot", type=file_name, metavar="SVG",
                       help="also write the reliability plot of the held-out games")
    train.add_argument("--workers", type=worker_count, metavar="W", help="threads (default: one a core)")
    train.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out and --plot"))
    train.set_defaults(run=cmd_train_winprob)


def cmd_train_winprob(args: argparse.Namespace) -> int:
    from ..support.files import check_new, write_new
    from ..odds.win_probability import calibration_svg, train
    from ..support.workers import default_workers
    targets = [Path(args.out)] + ([Path(args.plot)] if args.plot else [])
    for target, option in zip(targets, ("--out", "--plot")):
        if target.is_dir():
            raise GinnyoError(f"{option} {str(target)!r}: is a directory (give a file name)")
        check_new(target, force=args.force, option=option)
    training = train(args.games, args.seed, args.per_game, threads=args.workers or default_workers())
    write_new(args.out, json.dumps(training.model.to_json(), indent=1) + "\n", force=args.force, option="--out")
    if args.plot:
        write_new(args.plot, calibration_svg(training), force=args.force, option="--plot")
    for players, score in sorted(training.brier.items()):
        print(f"{players} players: Brier {score['model']:.4f} (spread only {score['spread_only']:.4f}) "
              f"on {score['test_positions']} held-out positions")
    return 0
