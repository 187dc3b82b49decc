"""``ginnyo match``: player A against B (or against a field of B's at 3 or 4
players) in seeded deals played with A in every seat; the win share with its
interval, the score difference, and a plot of the scores."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ..errors import GinnyoError, RunError
from ..players.kinds import SIM_KINDS
from .arguments import FORCE_HELP, add_deal_options, file_name, game_count, parse_bots, rollout_count, whole_number


def register(commands: Any) -> None:
    """Add ``match`` to the main parser's commands."""
    from ..players.kinds import kinds_help
    match = commands.add_parser("match", help="player A against B (or a field of B's): seeded deals played with A "
                                "in every seat, win rate and CI")
    match.add_argument("--bots", required=True, metavar="A,B", help=f"the two players: {kinds_help()}")
    match.add_argument("--players", type=whole_number(2, 4), default=2, metavar="K",
                       help="players a game: A against K-1 B's; each deal is played K times, A in each seat")
    match.add_argument("--games", type=game_count, required=True, metavar="N",
                       help="games, a multiple of K: N/K deals, each played K times with the seats rotated "
                            "(2 players: the seats swapped)")
    match.add_argument("--rollouts", type=rollout_count, default=32, metavar="N",
                       help="a sim player's rollouts a decision")
    match.add_argument("--leaves-a", type=file_name, metavar="FILE",
                       help="A's leave file (A an equity, endgame or sim player; default: the shipped one)")
    match.add_argument("--leaves-b", type=file_name, metavar="FILE", help="B's leave file, as --leaves-a")
    match.add_argument("--endgame-deals", action="store_true",
                       help="summarise only the deals in which a game's box ran empty (where the endgame "
                            "player differs from equity)")
    match.add_argument("--label", metavar="TEXT", help="a name for the match in --json, which 'ginnyo ladder' shows")
    add_deal_options(match, "a sim player's")
    match.add_argument("--plot", type=file_name, metavar="FILE", help="write an SVG of the score distributions")
    match.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    match.add_argument("--force", action="store_true", help=FORCE_HELP.format("--plot"))
    match.set_defaults(run=cmd_match)


def check_games(games: int, players: int) -> None:
    """``--games``: a positive multiple of the players, as every deal is played once with A in each seat."""
    if games == 0:
        raise GinnyoError(f"--games: give at least {players} games")
    if games % players:
        if players == 2:
            raise GinnyoError(f"--games: {games} is odd; every deal is played twice (give an even number)")
        raise GinnyoError(f"--games: {games} is not a multiple of {players}; every deal is played "
                          f"{players} times, A in each seat")


def leave_models(args: argparse.Namespace, bots: tuple[str, str]) -> tuple[Any, Any]:
    """A's and B's leave models from ``--leaves-a``/``--leaves-b`` (None: the shipped ones)."""
    from ..equity.leaves import LeaveFileError, load
    from ..strength.match import LEAVE_KINDS
    models = []
    for side, kind, path in (("a", bots[0], args.leaves_a), ("b", bots[1], args.leaves_b)):
        if path is not None and kind not in LEAVE_KINDS:
            raise GinnyoError(f"--leaves-{side}: {kind} plays without leave values "
                              f"(only {', '.join(LEAVE_KINDS)} do)")
        try:
            models.append(None if path is None else load(path))
        except LeaveFileError as error:
            raise LeaveFileError(f"--leaves-{side}: {error}") from None
    return models[0], models[1]


def cmd_match(args: argparse.Namespace) -> int:
    """``ginnyo match``: play the deals, print the summary, write the plot."""
    from ..support import interrupts
    from ..support.files import check_new, write_new
    from ..strength.ladder import LABEL_CHARS, is_label
    from .progress import progress_bar
    from ..players.players import make_player
    from ..strength.match import SimSettings, run
    from ..strength.results import summarise
    from ..strength.plots import scores_svg
    from ..support.workers import default_workers
    bots = parse_bots(args.bots)
    check_games(args.games, args.players)
    if args.label is not None and not is_label(args.label):
        raise GinnyoError(f"--label: give one line of 1 to {LABEL_CHARS} characters")
    plot = Path(args.plot) if args.plot else None
    if plot is not None and not plot.parent.is_dir():
        raise GinnyoError(f"--plot {str(plot)!r}: no such directory")
    if plot is not None:
        check_new(plot, force=args.force, option="--plot")   # before the games, not after
    models = leave_models(args, bots)
    sim = SimSettings(args.rollouts, args.candidates, args.plies)
    workers = args.workers or default_workers()
    where = f"Dask scheduler {args.scheduler}" if args.scheduler is not None else \
        f"{workers} worker process{'es' if workers > 1 else ''}"
    bar = progress_bar(args.games)
    start = time.perf_counter()
    games = [0]   # played so far

    def count_games(batch: list[Any]) -> None:
        games[0] += args.players * len(batch)
        bar.update(args.players * len(batch))

    try:
        with interrupts.reporting(lambda: f"after {games[0]} game{'s' if games[0] != 1 else ''}"):
            results = run(bots, args.games, args.seed, players=args.players, sim=sim, models=models,
                          workers=workers, scheduler=args.scheduler, on_results=count_games, make_player=make_player)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    played = len(results)
    if args.endgame_deals:
        results = [result for result in results if result.reached_endgame]
        if not results:
            raise RunError(f"--endgame-deals: the box ran empty in none of the {played} deals")
    summary = summarise(bots, results)
    leaves = [args.leaves_a, args.leaves_b]
    if args.json:
        data = summary.to_json()
        data.update({"seed": args.seed, "seconds": round(seconds, 1)})
        if any(bot in SIM_KINDS for bot in bots):
            data["sim"] = {"rollouts": sim.rollouts, "candidates": sim.candidates, "plies": sim.plies}
        if leaves != [None, None]:
            data["leaves"] = leaves
        if args.endgame_deals:
            data["endgame_deals"] = {"kept": len(results), "played": played}
        if args.label is not None:
            data["label"] = args.label
        print(json.dumps(data))
    else:
        settings = f"; sim: {sim.rollouts} rollouts, {sim.candidates} candidates, {sim.plies} plies" \
            if any(bot in SIM_KINDS for bot in bots) else ""
        settings += "".join(f"; {side}'s leaves: {path}" for side, path in zip(bots, leaves) if path is not None)
        if args.endgame_deals:
            settings += f"; only the {len(results)} of {played} deals whose box ran empty"
        lines = summary.lines(seconds, where, played * args.players)
        lines[0] += settings
        print("\n".join(lines))
    if plot is not None:
        write_new(plot, scores_svg(summary, results), force=args.force, option="--plot")
        if not args.json:
            print(f"wrote {plot}")
    return 0
