"""``ginnyo match``: two players head to head in paired seeded games; the win
rate with its interval, the score difference, and a plot of the scores."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ..errors import GinnyoError
from .arguments import FORCE_HELP, game_count, ply_count, rollout_count, seed_number, whole_number, worker_count


def register(commands: Any) -> None:
    """Add ``match`` to the main parser's commands."""
    match = commands.add_parser("match", help="two players head to head: paired seeded games, win rate and CI")
    match.add_argument("--bots", required=True, metavar="A,B", help="the two players (greedy, random, equity, sim)")
    match.add_argument("--games", type=game_count, required=True, metavar="N",
                       help="games, an even number: N/2 deals, each played twice with the seats swapped")
    match.add_argument("--rollouts", type=rollout_count, default=32, metavar="N",
                       help="a sim player's rollouts a decision")
    match.add_argument("--leaves", metavar="A_FILE,B_FILE",
                       help="the leave files of A's and B's equity or sim player, comma-separated "
                            "(an empty part: the shipped file), e.g. to play new leaves against old")
    add_deal_options(match, "a sim player's")
    match.add_argument("--plot", metavar="FILE", help="write an SVG of the score distributions")
    match.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    match.add_argument("--force", action="store_true", help=FORCE_HELP.format("--plot"))
    match.set_defaults(run=cmd_match)


def add_deal_options(parser: argparse.ArgumentParser, sim_player: str) -> None:
    """The options ``match`` and ``plot-sim`` share: the seed of the deals, the
    sim player's search (``sim_player`` names it) and where the games are played."""
    parser.add_argument("--seed", type=seed_number, default=0, metavar="S", help="deal i is dealt from seed S+i")
    parser.add_argument("--candidates", type=whole_number(1), default=5, metavar="K",
                        help=f"{sim_player} candidates")
    parser.add_argument("--plies", type=ply_count, default=2, metavar="P",
                        help=f"{sim_player} turns after its own in a rollout")
    parser.add_argument("--workers", type=worker_count, metavar="W", help="local processes (default: one a core)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="play on this Dask cluster")


def parse_bots(text: str) -> tuple[str, str]:
    """``--bots A,B``: two known kinds of player."""
    from ..players import PLAYER_KINDS
    kinds = [kind.strip() for kind in text.split(",")]
    if len(kinds) != 2:
        raise GinnyoError(f"--bots: give two players, A,B (not {text!r})")
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise GinnyoError(f"--bots: unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    return kinds[0], kinds[1]


def parse_leaves(text: str) -> tuple[str | None, str | None]:
    """``--leaves A_FILE,B_FILE``: each side's leave file (empty: the shipped one),
    read now so that a bad file is one line before any game."""
    from ..leaves import load
    parts = text.split(",")
    if len(parts) != 2:
        raise GinnyoError(f"--leaves: give two leave files, A_FILE,B_FILE (one may be empty), not {text[:60]!r}")
    files = (parts[0].strip() or None, parts[1].strip() or None)
    for name in files:
        if name is not None:
            try:
                load(name)
            except GinnyoError as error:
                raise GinnyoError(f"--leaves: {error}") from None
    return files


def cmd_match(args: argparse.Namespace) -> int:
    """``ginnyo match``: play the paired games, print the summary, write the plot."""
    from ..files import check_new, write_new
    from ..progress import progress_bar
    from ..strength import SimSettings, run, scores_svg, summarise
    from ..workers import default_workers
    bots = parse_bots(args.bots)
    if args.games % 2:
        raise GinnyoError(f"--games: {args.games} is odd; every deal is played twice (give an even number)")
    if args.games == 0:
        raise GinnyoError("--games: give at least 2 games")
    leaves = parse_leaves(args.leaves) if args.leaves is not None else (None, None)
    plot = Path(args.plot) if args.plot else None
    if plot is not None and not plot.parent.is_dir():
        raise GinnyoError(f"--plot {str(plot)!r}: no such directory")
    if plot is not None:
        check_new(plot, force=args.force, option="--plot")   # before the games, not after
    sim = SimSettings(args.rollouts, args.candidates, args.plies)
    workers = args.workers or default_workers()
    where = f"Dask scheduler {args.scheduler}" if args.scheduler else \
        f"{workers} worker process{'es' if workers > 1 else ''}"
    bar = progress_bar(args.games)
    start = time.perf_counter()
    try:
        results = run(bots, args.games, args.seed, sim=sim, workers=workers, scheduler=args.scheduler,
                      on_results=lambda batch: bar.update(2 * len(batch)), leaves=leaves)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    summary = summarise(bots, results)
    if args.json:
        data = summary.to_json()
        data.update({"seed": args.seed, "seconds": round(seconds, 1)})
        if args.leaves is not None:
            data["leaves"] = list(leaves)
        if "sim" in bots:
            data["sim"] = {"rollouts": sim.rollouts, "candidates": sim.candidates, "plies": sim.plies}
        print(json.dumps(data))
    else:
        settings = f"; sim: {sim.rollouts} rollouts, {sim.candidates} candidates, {sim.plies} plies" \
            if "sim" in bots else ""
        lines = summary.lines(seconds, where)
        lines[0] += settings
        print("\n".join(lines))
    if plot is not None:
        write_new(plot, scores_svg(summary, results), force=args.force, option="--plot")
        if not args.json:
            print(f"wrote {plot}")
    return 0
