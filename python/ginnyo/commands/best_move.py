"""``ginnyo best-move``: the highest-scoring legal play, or with ``--equity`` /
``--sim N`` the actions ranked by equity or by simulation (docs/EQUITY.md)."""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any

from ..endgame.choice import COMMAND_SECONDS as SOLVER_SECONDS
from ..vocab.melds import tile_value
from ..vocab.play import MeldScore, ScoredPlay
from ..position.plays_json import no_play_json, play_to_json
from ..position.position import Position
from ..simulation.choices import DEFAULT_POLICY, LATE_BOX, POLICIES, ROLLOUT_ENDGAME_NODES, STOP_LEVELS
from ..vocab.notation import play_notation
from ..vocab.tiles import rack_code
from .arguments import (EXIT_OK, POSITION_HELP, ply_count, positive_seconds, rollout_count, seed_number, whole_number,
                        worker_count)

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel, LeaveState
    from ..equity.rank import Candidate
    from ..simulation.rollouts import PairedLead, SimResult


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
    best.add_argument("--candidates", type=whole_number(1), default=5, metavar="K",
                      help="with --equity: show K; with --sim: simulate the top K")
    best.add_argument("--plies", type=ply_count, default=2, metavar="P",
                      help="with --sim: turns played after ours in each rollout")
    best.add_argument("--seed", type=seed_number, default=0, metavar="S", help="with --sim: the seed of the deals")
    best.add_argument("--workers", type=worker_count, metavar="W",
                      help="with --sim: threads (default: one a core)")
    best.add_argument("--scheduler", metavar="ADDRESS",
                      help="with --sim: run the rollouts on this Dask cluster")
    best.add_argument("--policy", choices=POLICIES, default=DEFAULT_POLICY,
                      help="with --sim: how the players of the rollouts choose (equity: the core's equity ranking)")
    best.add_argument("--stop", type=int, choices=sorted(STOP_LEVELS), metavar="LEVEL",
                      help="with --sim: stop once the best candidate leads every other at this confidence "
                           f"(one of {', '.join(map(str, STOP_LEVELS))}; default: run all N)")
    best.add_argument("--late-box", type=whole_number(-1, 10**6), default=LATE_BOX, metavar="B",
                      help="with --sim: with at most B tiles in the box, play the rollouts to the game's end and "
                           "rank by wins first (-1: never)")
    best.add_argument("--rollout-endgame-nodes", type=whole_number(0, 10**9), default=ROLLOUT_ENDGAME_NODES,
                      metavar="N", help="with --sim, 2 players: finish a rollout whose box runs empty with the "
                                        "endgame solver when it proves the rest within N nodes (0: never)")
    best.add_argument("--turn", type=whole_number(1), metavar="T",
                      help="POSITION is a game record: take the decision of its turn T as its player saw it")
    best.add_argument("--infer", action="store_true",
                      help="with --sim and --turn: deal each opponent's rack from what its last action says of "
                           "the tiles it kept (docs/INFERENCE.md)")
    best.add_argument("--leaves", metavar="FILE",
                      help="with --equity/--sim: another leave file (default: the shipped one)")
    ranking.add_argument("--endgame", action="store_true",
                         help="the endgame or pre-endgame solver's move and spread (docs/ENDGAME.md)")
    best.add_argument("--time", type=positive_seconds, metavar="S",
                      help=f"with --endgame/--equity/--sim: the solver's budget (default {SOLVER_SECONDS:g}); "
                           f"with --sim: also stop the rollouts after S seconds (default: no limit)")
    best.set_defaults(run=cmd_best_move)


def meld_formula(position: Position, scored: ScoredPlay, meld: MeldScore) -> str:
    """``(8 + 8 + 8x3) x 2`` — how a meld's score was made."""
    layout = position.layout
    placed = dict(scored.play.placements)
    terms, multiplier = [], 1
    for square in meld.squares:
        if square in placed:
            value = tile_value(placed[square], meld.kind)
            factor = layout.tile_multiplier(square)
            terms.append(f"{value}x{factor}" if factor > 1 else str(value))
            multiplier *= layout.meld_multiplier(square)
    text = " + ".join(terms)
    return f"({text}) x {multiplier}" if multiplier > 1 else text


def describe_play(position: Position, scored: ScoredPlay) -> list[str]:
    """Lines for people: notation, score, then one line per meld touched."""
    name = position.layout.square_name
    lines = [f"{play_notation(position, scored.play)}  {scored.score} points"]
    placements = ", ".join(f"{name(s)} {t.code}" for s, t in scored.play.placements)
    lines.append(f"  places  {placements}")
    for meld in scored.melds:
        tiles = " ".join(_tile_on(position, scored, s) for s in meld.squares)
        span = f"{name(meld.squares[0])}-{name(meld.squares[-1])}"
        lines.append(f"  {meld.kind:<4} {span:<8} {tiles:<24} {meld_formula(position, scored, meld)}"
                     f" = {meld.score}")
    return lines


def _tile_on(position: Position, scored: ScoredPlay, square: int) -> str:
    placed = dict(scored.play.placements)
    if square in placed:
        return placed[square].code
    return position.board[square].code


def cmd_best_move(args: argparse.Namespace) -> int:
    args.observed = None
    if args.turn is not None:
        from ..odds.inference import record_decision
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
    best = position.best_play()
    if args.json:
        print(json.dumps(play_to_json(position, best) if best else no_play_json(position)))
    elif best:
        print("\n".join(describe_play(position, best)))
    else:
        print(return_line(position))
    return EXIT_OK


def _best_move_by_equity(args: argparse.Namespace, position: Position) -> int:
    """``best-move --equity`` / ``--sim N`` (docs/EQUITY.md); their modules load only here."""
    from ..equity.leaves import load
    position.game_context   # checks the game fields (unseen, players, scores, to_move) first
    model = load(args.leaves)
    if args.sim is not None:
        return cmd_best_move_sim(args, position, model)
    return cmd_best_move_equity(args, position, model)


def return_line(position: Position) -> str:
    """What a position without a legal play prints: the tiles to return and why."""
    tiles, reason = position.return_advice()
    if not tiles:
        return f"No legal play: {reason}."
    return f"No legal play. Return {' '.join(rack_code(t) for t in tiles)} to the box: {reason}."


def cmd_best_move_equity(args: argparse.Namespace, position: Position, model: LeaveModel) -> int:
    """``ginnyo best-move --equity``: the actions ranked by equity (``--candidates K`` shown)."""
    from ..equity.rank import candidate_json, candidate_line, leave_state, rank_position
    box_size = position.game_context.box_size
    shown = rank_position(position, model, limit=args.candidates)
    if args.json:
        print(json.dumps({"box": box_size, "best": candidate_json(position, shown[0]),
                          "candidates": [candidate_json(position, candidate) for candidate in shown]}))
        return 0
    print(f"ranked by equity = score + leave value ({box_size} tiles in the box):")
    for rank, candidate in enumerate(shown, 1):
        print(f"{rank:>2}. {candidate_line(position, candidate)}")
    why = _why_not_the_top_score(position, shown[0], model, box_size, leave_state(position))
    if why:
        print(why)
    return 0


def _why_not_the_top_score(position: Position, first: Candidate, model: LeaveModel, box_size: int,
                           state: LeaveState) -> str:
    """Why the first by equity beats the highest-scoring play: what each keeps and
    what that is worth (empty when the first is that play or an ordering of it, or
    there is no play)."""
    from ..support.number_text import number
    from ..vocab.tiles import rack_code
    top = position.best_play()
    if top is None or (first.kind == "play" and first.score == top.score
                       and tuple(sorted(placed[0] for placed in first.placements)) == top.play.squares):
        return ""
    leave = list(position.rack)
    for tile in top.play.tiles_used:
        leave.remove(tile)
    value = model.value(leave, box_size, state)
    kept = " ".join(rack_code(tile) for tile in leave) or "nothing"
    first_kept = " ".join(rack_code(tile) for tile in first.leave) or "nothing"
    how = "returns tiles for new ones and" if first.kind == "return" else f"scores {first.score} and"
    return (f"#1 beats the highest-scoring play, {position.notation(top)} for {top.score}: that would keep "
            f"{kept}, worth {number(value, '+.1f')}, equity {number(top.score + value, '+.1f')}; "
            f"#1 {how} keeps {first_kept}, worth {number(first.leave_value, '+.1f')}")


def cmd_best_move_sim(args: argparse.Namespace, position: Position, model: LeaveModel) -> int:
    """``ginnyo best-move --sim N``: simulate the top candidates and print them ranked."""
    from ..equity.rank import candidate_json, candidate_line
    from .progress import progress_bar
    from ..players.simulation import simulate_with_odds
    from ..simulation.rollouts import Z95
    from ..support.workers import default_workers
    context = position.game_context
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
    rollouts = results[0].rollouts if results else 0
    if args.json:
        print(json.dumps({"rollouts": rollouts, "asked": args.sim, "plies": args.plies, "seed": args.seed,
                          "policy": args.policy, "box": context.box_size, "unseen": len(context.unseen),
                          "to_end": setup.to_end, "endgame_nodes": setup.endgame_nodes,
                          **({} if inferred is None else {"inferred": [
                              None if inference is None or not inference.leaves else len(inference.leaves)
                              for inference in inferred]}),
                          "candidates": [dict(candidate_json(position, result.candidate),
                                              mean=round(result.mean, 3), stdev=round(result.stdev, 3),
                                              ci95=[round(result.low, 3), round(result.high, 3)],
                                              **({} if result.wins is None else {"wins": round(result.wins, 4)}),
                                              win_probability=round(_chance(result), 4),
                                              **({} if result.paired is None or rollouts < 2 else {"paired_lead": {
                                                  "lead": round(result.paired.lead, 4),
                                                  "se": round(result.paired.error, 4),
                                                  "by": "wins" if result.paired.by_wins else "outcome"}}))
                                         for result in results]}))
        return 0
    stopped = f" (stopped early of {args.sim})" if rollouts < args.sim else ""
    horizon = "played to the game's end, ranked by wins" if setup.to_end else f"{args.plies} plies after ours"
    print(f"{len(results)} candidates x {rollouts} rollouts{stopped}, {horizon} ({args.policy}), "
          f"seed {args.seed}: {len(context.unseen)} tiles unseen, {context.box_size} in the box ({seconds:.2f} s)"
          + ("" if setup.inferred is None else "; opponents' racks dealt from their inferred leaves"))
    from ..support.number_text import number
    z = STOP_LEVELS[args.stop] if args.stop else Z95
    for rank, result in enumerate(results, 1):
        wins = f"  {'wins' if result.wins is not None else 'win '} {100 * _chance(result):5.1f}%"
        interval = f"[{number(result.low, '+.1f')}, {number(result.high, '+.1f')}]"
        print(f"{rank:>2}. {candidate_line(position, result.candidate)} {wins} "
              f"sim {number(result.mean, '+7.1f')}  95% CI {interval}{_lead_text(result.paired, z)}")
    if len(results) > 1 and rollouts > 1:
        test = f"; --stop {args.stop} stops once every low end is above 0" if args.stop else " (95%)"
        print(f"lead: #1's paired lead over each on the same deals (in win share where their wins differ) "
              f"± {z:.2f} standard errors{test}")
    return 0


def _lead_text(paired: PairedLead | None, z: float) -> str:
    """A non-leader's column: the leader's paired lead over it and its interval (``z`` standard errors)."""
    import math
    from ..support.number_text import number
    if paired is None or not math.isfinite(paired.error):
        return ""
    scale, unit = (100, "%") if paired.by_wins else (1, "")
    lead, half = scale * paired.lead, scale * z * paired.error
    low, high = (number(value, "+.1f") + unit for value in (lead - half, lead + half))
    return f"  lead {number(lead, '+.1f')}{unit} [{low}, {high}]"


def _chance(result: SimResult) -> float:
    """A result's win probability (the simulation was asked for it)."""
    if result.chance is None:
        raise RuntimeError("the simulation gave no win probability")
    return result.chance


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
