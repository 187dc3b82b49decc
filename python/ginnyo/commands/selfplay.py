"""``ginnyo selfplay``: many seeded games over local processes, a Dask cluster or
the compiled game loop, their records written as they end, and the summary."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..errors import GinnyoError
from .arguments import FORCE_HELP, file_name, game_count, scheduler_address, seed_number, whole_number, worker_count


def register(commands: Any) -> None:
    """Add ``selfplay`` to the main parser's commands."""
    selfplay = commands.add_parser("selfplay", help="play many seeded games and summarise them")
    selfplay.add_argument("--games", type=game_count, required=True, metavar="N", help="how many games to play")
    selfplay.add_argument("--players", type=whole_number(2, 4), default=2, metavar="K", help="players a game, 2 to 4")
    selfplay.add_argument("--seed", type=seed_number, default=0, metavar="S", help="game i is dealt from seed S+i")
    from ..players.kinds import kinds_help
    selfplay.add_argument("--bots", metavar="KIND[,KIND...]",
                          help=f"one kind for every seat, or one a seat: {kinds_help(default='greedy')}")
    selfplay.add_argument("--workers", type=worker_count, metavar="W",
                          help="local processes (default: one a core; 1 plays in this process)")
    selfplay.add_argument("--scheduler", type=scheduler_address, metavar="ADDRESS",
                          help="play on the Dask cluster of this scheduler (tcp://host:8786)")
    selfplay.add_argument("--records", type=file_name, metavar="DIR",
                          help="write each game's record to DIR/game-SEED.jsonl")
    selfplay.add_argument("--engine", choices=("python", "c"), default="python",
                          help="python, or c: the compiled game loop, greedy and equity seats only, several "
                               "times faster (its own shuffles, so other deals than python's)")
    selfplay.add_argument("--force", action="store_true", help=FORCE_HELP.format("--records"))
    selfplay.set_defaults(run=cmd_selfplay)


def cmd_selfplay(args: argparse.Namespace) -> int:
    """``ginnyo selfplay``: play, show progress on stderr, write records, print the summary.
    Ctrl-C or SIGTERM stops it with one line naming the records written, all whole."""
    from .progress import progress_bar
    from ..selfplay.compiled import LOOP_BOTS
    from ..selfplay.games import (RECORD_PREFIX, RecordWriter, player_kinds, records_folder, run, run_in_c,
                            summary_text)
    from ..support.workers import default_workers
    try:
        kinds = player_kinds(args.players, args.bots.split(",") if args.bots else None)
    except ValueError as error:
        raise GinnyoError(f"--bots: {error}") from None
    records = records_folder(args.records)
    workers = args.workers or default_workers()
    where = f"Dask scheduler {args.scheduler}" if args.scheduler is not None else \
        f"{workers} worker process{'es' if workers > 1 else ''}" if workers > 1 else "1 process"
    if args.engine == "c":
        if not set(kinds) <= set(LOOP_BOTS) or records is not None or args.scheduler is not None:
            raise GinnyoError("--engine c plays greedy and equity seats only, in this process, without --records")
        threads = min(workers, default_workers())   # the loop starts at most one a processor
        where = f"C game loop on {threads} thread{'s' if threads > 1 else ''}"
    writer = RecordWriter(progress_bar(args.games), records, RECORD_PREFIX, force=args.force)
    writer.refuse_existing(range(args.seed, args.seed + args.games))
    start = time.perf_counter()
    with writer.running():
        if args.engine == "c":
            results = run_in_c(args.games, args.players, args.seed, kinds, workers=workers, on_results=writer)
        else:
            results = run(args.games, args.players, args.seed, kinds, workers=workers,
                          scheduler=args.scheduler, keep_records=records is not None, on_results=writer)
    seconds = time.perf_counter() - start
    print(summary_text(results, seconds, where))
    if records is not None:
        print(f"\nwrote {len(results)} records to {records}")
    return 0
