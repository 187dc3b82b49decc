"""``ginnyo plot-sim``: the sim player's win rate against another at several
rollout counts, on the same deals each time, as a table and an SVG."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from ..errors import GinnyoError
from .arguments import FORCE_HELP, MAX_ROLLOUTS, add_deal_options, file_name, game_count, parse_bots


def register(commands: Any) -> None:
    """Add ``plot-sim`` to the main parser's commands."""
    from ..players.kinds import PLAYER_KINDS
    plot_sim = commands.add_parser("plot-sim", help="the sim player's win rate against its rollouts, as an SVG")
    plot_sim.add_argument("--rollouts", default="2,4,8,16,32", metavar="N,N,...",
                          help="rollout counts, increasing")
    plot_sim.add_argument("--against", default="equity", metavar="KIND",
                          help=f"the opponent: {', '.join(PLAYER_KINDS)} (as in match --bots)")
    plot_sim.add_argument("--games", type=game_count, default=800, metavar="N", help="games a point, even")
    add_deal_options(plot_sim, "the sim player's")
    plot_sim.add_argument("--out", type=file_name, required=True, metavar="FILE", help="the SVG to write")
    plot_sim.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    plot_sim.set_defaults(run=cmd_plot_sim)


def rollout_counts(text: str) -> list[int]:
    """``--rollouts 2,4,8``: whole numbers from 1 to ``MAX_ROLLOUTS``, in increasing order."""
    try:
        counts = [int(word) for word in text.split(",")]
    except ValueError:
        raise GinnyoError(f"--rollouts: {text!r} is not a list of whole numbers (2,4,8)") from None
    if not counts or min(counts) < 1 or counts != sorted(set(counts)):
        raise GinnyoError(f"--rollouts: {text!r} must be increasing whole numbers from 1")
    if counts[-1] > MAX_ROLLOUTS:
        raise GinnyoError(f"--rollouts: {counts[-1]} is out of range (from 1 to {MAX_ROLLOUTS})")
    return counts


def cmd_plot_sim(args: argparse.Namespace) -> int:
    """``ginnyo plot-sim``: the sim player against another at several rollout
    counts, the same deals each time; a table and an SVG of the win rates."""
    from ..support.files import check_new, write_new
    from ..players.players import make_player
    from ..strength.match import SimSettings, run
    from ..strength.results import summarise
    from ..strength.plots import win_rate_svg
    counts = rollout_counts(args.rollouts)
    if "," in args.against:
        raise GinnyoError(f"--against: give one player, not {args.against!r}")
    opponent = parse_bots(f"sim,{args.against}", option="--against")[1]
    if args.games % 2 or args.games == 0:
        raise GinnyoError(f"--games: {args.games} is not a positive even number (each deal is played twice)")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise GinnyoError(f"--out {str(out)!r}: no such directory")
    check_new(out, force=args.force, option="--out")   # before the games, not after
    rows = []
    start = time.perf_counter()
    print(f"sim vs {opponent}, {args.games} games a point, seed {args.seed}, {args.candidates} candidates, "
          f"{args.plies} plies")
    print(f"{'rollouts':>8} {'win rate':>9} {'95% CI':>17} {'difference':>11} {'seconds':>8}")
    for count in counts:
        begun = time.perf_counter()
        results = run(("sim", opponent), args.games, args.seed,
                      sim=SimSettings(count, args.candidates, args.plies), workers=args.workers,
                      scheduler=args.scheduler, make_player=make_player)
        summary = summarise(("sim", opponent), results)
        rows.append((count, summary))
        print(f"{count:>8} {100 * summary.win_rate:>8.2f}% [{100 * summary.low:6.2f}%, {100 * summary.high:6.2f}%] "
              f"{summary.mean_difference:>+11.2f} {time.perf_counter() - begun:>8.1f}", flush=True)
    write_new(out, win_rate_svg(rows, opponent), force=args.force, option="--out")
    print(f"wrote {out} ({time.perf_counter() - start:.1f} s)")
    return 0
