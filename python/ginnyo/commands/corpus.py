"""``ginnyo corpus``: positions drawn from seeded games, written as files or one JSON line each."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import GinnyoError
from .arguments import (EXIT_OK, FORCE_HELP, MAX_POSITIONS, file_name, scheduler_address, seed_number, whole_number,
                        worker_count)


def register(commands: Any) -> None:
    """Add ``corpus`` to the main parser's commands."""
    corpus = commands.add_parser("corpus", help="positions drawn from seeded games")
    corpus.add_argument("--positions", type=whole_number(0, MAX_POSITIONS), required=True, metavar="N",
                        help="how many positions to draw")
    corpus.add_argument("--stage", choices=("early", "mid", "late"),
                        help="only positions of this stage (default: any)")
    corpus.add_argument("--seed", type=seed_number, default=0, metavar="S", help="the seed of the games")
    corpus.add_argument("--out", type=file_name, required=True, metavar="PATH",
                        help="a directory of position files, or a .jsonl file (one position a line)")
    corpus.add_argument("--workers", type=worker_count, metavar="W",
                        help="local processes to play the games on (default: one a core)")
    corpus.add_argument("--scheduler", type=scheduler_address, metavar="ADDRESS",
                        help="play the games on this Dask cluster")
    corpus.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    corpus.set_defaults(run=cmd_corpus)


def cmd_corpus(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..selfplay.corpus import sample_texts
    from ..support.files import check_new, write_new
    from ..support.workers import default_workers
    out = Path(args.out)
    if out.suffix == ".jsonl":
        check_new(out, force=args.force, option="--out")   # before the games, not after
    positions = sample_texts(args.positions, args.seed, args.stage,
                             workers=args.workers or default_workers(), scheduler=args.scheduler)
    if out.suffix == ".jsonl":
        write_new(out, "".join(text + "\n" for text in positions), force=args.force, option="--out")
    else:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise GinnyoError(f"--out {str(out)!r}: cannot create ({error.strerror or error})") from None
        width = len(str(len(positions)))
        files = [(out / f"position-{index:0{width}d}.json", text) for index, text in enumerate(positions, 1)]
        for path, _ in files:
            check_new(path, force=args.force, option="--out")
        for path, text in files:
            write_new(path, text + "\n", force=args.force, option="--out")
    print(f"wrote {len(positions)} positions to {out}")
    return EXIT_OK
