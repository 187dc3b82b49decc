"""``ginnyo best-move``: the highest-scoring legal play, or with ``--equity`` /
``--sim N`` the actions ranked by equity or by simulation (docs/EQUITY.md)."""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any

from ..endgame.choice import COMMAND_SECONDS as SOLVER_SECONDS
from ..position.position import Position
from ..simulation.choices import DEFAULT_POLICY, LATE_BOX, POLICIES, ROLLOUT_ENDGAME_NODES, STOP_LEVELS
from .arguments import (EXIT_OK, POSITION_HELP, file_name, ply_count, positive_seconds, rollout_count,
                        scheduler_address, seed_number, whole_number, worker_count)

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel

#: The options that mean something only beside one of the rankings named: given
#: without, they are refused rather than silently left unused.
RANKINGS_NEEDED = {
    **dict.fromkeys(("--plies", "--seed", "--workers", "--scheduler", "--policy", "--stop", "--late-box",
                     "--rollout-endgame-nodes", "--infer"), ("--sim",)),
    "--candidates": ("--equity", "--sim"),
    "--leaves": ("--equity", "--sim"),
    "--time": ("--endgame", "--equity", "--sim"),
}


class _StoreNoted(argparse.Action):
    """argparse's ``store``, also noting the option in ``given``: an option whose
    default is a value (``--plies 2``) cannot otherwise be told from one left out."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.given = (*getattr(namespace, "given", ()), self.option_strings[0])


def register(commands: Any) -> None:
    """Add ``best-move`` to the main parser's commands."""
    best = commands.add_parser("best-move", help="the highest-scoring legal play")
    best.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    best.add_argument("--json", action="store_true", help="print one JSON object")
    ranking = best.add_mutually_exclusive_group()
    ranking.add_argument("--equity", action="store_true",
                         help="rank plays and returns by score + leave value (docs/EQUITY.md)")
    ranking.add_argument("--sim", type=rollout_count, metavar="N",
                         help="simulate the top equity candidates N times each against sampled racks")
    best.add_argument("--candidates", action=_StoreNoted, type=whole_number(1), default=5, metavar="K",
                      help="with --equity: show K; with --sim: simulate the top K")
    best.add_argument("--plies", action=_StoreNoted, type=ply_count, default=2, metavar="P",
                      help="with --sim: turns played after ours in each rollout")
    best.add_argument("--seed", action=_StoreNoted, type=seed_number, default=0, metavar="S",
                      help="with --sim: the seed of the deals")
    best.add_argument("--workers", action=_StoreNoted, type=worker_count, metavar="W",
                      help="with --sim: threads (default: one a core)")
    best.add_argument("--scheduler", action=_StoreNoted, type=scheduler_address, metavar="ADDRESS",
                      help="with --sim: run the rollouts on this Dask cluster")
    best.add_argument("--policy", action=_StoreNoted, choices=POLICIES, default=DEFAULT_POLICY,
                      help="with --sim: how the players of the rollouts choose (equity: the core's equity ranking)")
    best.add_argument("--stop", action=_StoreNoted, type=int, choices=sorted(STOP_LEVELS), metavar="LEVEL",
                      help="with --sim: stop once the best candidate leads every other at this confidence "
                           f"(one of {', '.join(map(str, STOP_LEVELS))}; default: run all N)")
    best.add_argument("--late-box", action=_StoreNoted, type=whole_number(-1, 10**6), default=LATE_BOX,
                      metavar="B", help="with --sim: with at most B tiles in the box, play the rollouts to the "
                                        "game's end and rank by wins first (-1: never)")
    best.add_argument("--rollout-endgame-nodes", action=_StoreNoted, type=whole_number(0, 10**9),
                      default=ROLLOUT_ENDGAME_NODES, metavar="N",
                      help="with --sim, 2 players: finish a rollout whose box runs empty with the endgame solver "
                           "when it proves the rest within N nodes (0: never)")
    best.add_argument("--turn", type=whole_number(1), metavar="T",
                      help="POSITION is a game record: take the decision of its turn T as its player saw it")
    best.add_argument("--infer", action="store_true",
                      help="with --sim and --turn: deal each opponent's rack from what its last action says of "
                           "the tiles it kept (docs/INFERENCE.md)")
    best.add_argument("--leaves", action=_StoreNoted, type=file_name, metavar="FILE",
                      help="with --equity/--sim: another leave file (default: the shipped one)")
    ranking.add_argument("--endgame", action="store_true",
                         help="the endgame or pre-endgame solver's move and spread (docs/ENDGAME.md)")
    best.add_argument("--time", action=_StoreNoted, type=positive_seconds, metavar="S",
                      help=f"with --endgame/--equity/--sim: the solver's budget (default {SOLVER_SECONDS:g}); "
                           f"with --sim: also stop the rollouts after S seconds (default: no limit)")
    best.set_defaults(run=cmd_best_move, given=())


def cmd_best_move(args: argparse.Namespace) -> int:
    _refuse_options_unused(args)
    args.observed = None
    if args.turn is not None:
        from ..odds.records import record_decision
        decision = record_decision(args.position, args.turn)
        position, args.observed = decision.position, decision.observed
    else:
        if args.infer:
            from ..errors import GinnyoError
            raise GinnyoError("--infer needs --turn T and a game record: inference reads the opponents' last actions")
        position = Position.load(args.position)
    if (args.endgame or args.equity or args.sim is not None) and _best_move_from_solver(args, position):
        return EXIT_OK
    if args.equity or args.sim is not None:
        return _best_move_by_equity(args, position)
    from ..analysis.report import best_play_json, best_play_lines
    print(json.dumps(best_play_json(position)) if args.json else "\n".join(best_play_lines(position)))
    return EXIT_OK


def _refuse_options_unused(args: argparse.Namespace) -> None:
    """Refuse an option given without the ranking it belongs to (``--plies`` without
    ``--sim``): one line naming it, rather than a ranking made without it."""
    from ..errors import GinnyoError
    chosen = {"--sim": args.sim is not None, "--equity": args.equity, "--endgame": args.endgame}
    for option in (*args.given, *(("--infer",) if args.infer else ())):
        needed = RANKINGS_NEEDED[option]
        if not any(chosen[ranking] for ranking in needed):
            words = needed[0] if len(needed) == 1 else f"{', '.join(needed[:-1])} or {needed[-1]}"
            raise GinnyoError(f"{option} needs {words}")


def _best_move_by_equity(args: argparse.Namespace, position: Position) -> int:
    """``best-move --equity`` / ``--sim N`` (docs/EQUITY.md); their modules load only here."""
    from ..equity.leaves import load
    position.game_context   # checks the game fields (unseen, players, scores, to_move) first
    model = load(args.leaves)
    if args.sim is not None:
        return cmd_best_move_sim(args, position, model)
    return cmd_best_move_equity(args, position, model)


def cmd_best_move_equity(args: argparse.Namespace, position: Position, model: LeaveModel) -> int:
    """``ginnyo best-move --equity``: the actions ranked by equity (``--candidates K`` shown)."""
    from ..analysis.report import equity_json, equity_lines, equity_ranking
    shown = equity_ranking(position, args.candidates, model)
    print(json.dumps(equity_json(position, shown)) if args.json else "\n".join(equity_lines(position, shown, model)))
    return EXIT_OK


def cmd_best_move_sim(args: argparse.Namespace, position: Position, model: LeaveModel) -> int:
    """``ginnyo best-move --sim N``: simulate the top candidates and print them ranked."""
    from ..analysis.report import simulation_json, simulation_lines, stop_z
    from ..players.simulation import simulate_with_odds
    from ..support.workers import default_workers
    from .progress import progress_bar
    bar = progress_bar(args.sim, "rollout", leave=False)
    start = time.perf_counter()
    try:
        setup, results, inferred = simulate_with_odds(
            position, args.sim, model, observed=args.observed if args.infer else None, plies=args.plies,
            seed=args.seed, threads=args.workers or default_workers(), candidates=args.candidates,
            policy=args.policy, late_box=args.late_box, endgame_nodes=args.rollout_endgame_nodes,
            scheduler=args.scheduler, stop=args.stop, seconds=args.time, on_progress=bar.update)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(simulation_json(position, setup, results, args.sim, inferred)))
    else:
        print("\n".join(simulation_lines(position, setup, results, args.sim, args.stop, seconds, stop_z(args.stop))))
    return EXIT_OK


def _best_move_from_solver(args: argparse.Namespace, position: Position) -> bool:
    """``best-move --endgame`` (and ``--equity``/``--sim`` in an endgame or
    pre-endgame): print the solver's choice and return True; False when the
    ranking asked for is by equity or simulation and the position is neither.
    ``--endgame`` on any other position raises :class:`PositionError`."""
    from ..endgame.choice import solver_move
    from ..errors import PositionError
    position.game_context   # checks the game fields first
    move = solver_move(position, args.time or SOLVER_SECONDS)
    if move is None:
        if args.endgame:
            from ..endgame.exact import MAX_UNSEEN
            from ..endgame.preendgame import MAX_BOX
            raise PositionError(f"field 'unseen': --endgame needs a 2-player endgame or pre-endgame "
                                f"(at most {MAX_UNSEEN + MAX_BOX} tiles unseen)")
        return False
    print(json.dumps(move.to_json()) if args.json else "\n".join(move.lines()))
    return True
