"""``ginnyo endgame POSITION [--json] [--time S]``: the exact 2-player endgame
(docs/ENDGAME.md), its spread and principal variation, for people or as JSON."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from .arguments import POSITION_HELP, positive_seconds

if TYPE_CHECKING:
    from ..endgame.exact import EndgameResult


def register(commands: Any) -> None:
    """Add ``endgame`` to the main parser's commands."""
    parser = commands.add_parser("endgame", help="the exact 2-player endgame: spread and best line")
    parser.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--time", type=positive_seconds, metavar="S",
                        help="stop after S seconds with the best line found so far (default: search to the end)")
    parser.add_argument("--after-pass", action="store_true",
                        help="the opponent's last turn was a pass: a pass now ends the game")
    parser.set_defaults(run=cmd_endgame)


def cmd_endgame(args: argparse.Namespace) -> int:
    """``ginnyo endgame POSITION [--json] [--time S]``."""
    from ..endgame.exact import solve
    from ..position.position import Position
    position = Position.load(args.position)
    result = solve(position, args.time, after_pass=args.after_pass)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print("\n".join(describe(result)))
    return 0


def describe(result: EndgameResult) -> list[str]:
    """Lines for people: the spread, whether it is proven, the line, the racks left."""
    from ..endgame.exact import PASS, SIDES
    status = ("proven" if result.proven
              else f"NOT proven: the best line found in {result.depth} plies before the time ran out")
    lines = [f"spread {result.spread:+d} for the player to move ({status}; "
             f"{result.nodes} nodes, {result.seconds:.2f} s)"]
    width = len(str(len(result.moves)))
    for number, move in enumerate(result.moves, 1):
        score = f"{move.score:>4}" if move.notation != PASS else ""
        lines.append(f"{number:>{width}}. {SIDES[move.player]:<8} {move.notation:<28} {score}".rstrip())
    ending = "end of game" if result.proven else "horizon"
    cost = [f"-{penalty}" if penalty else "0" for penalty in result.penalties]   # never -0
    lines.append(f"{ending}: racks left cost {cost[0]} (to move), {cost[1]} (opponent)")
    return lines


__all__ = ["register", "cmd_endgame", "describe", "positive_seconds"]
