"""``ginnyo crazy``: the Crazy Rummy commands (best-turn, solve, selfplay, replay).

Only argparse is imported here; each command imports what it needs when it runs.
Exit status as for every ginnyo command: 0 done, 2 bad input, 1 anything else.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable

STATE_HELP = "a state file (docs/CRAZY-RUMMY.md), JSON text, or - for stdin"


def register(commands: Any) -> argparse.ArgumentParser:
    """Add ``crazy`` and its subcommands to the main parser's subcommands."""
    from ..cli import FORCE_HELP, MAX_GAMES, MAX_WORKERS, _command_in, _seed, _whole_number
    crazy: argparse.ArgumentParser = commands.add_parser(
        "crazy", help="Crazy Rummy: best turn, hand solver, self-play",
        description="Crazy Rummy (docs/RULES.md §7, docs/CRAZY-RUMMY.md).")
    sub = crazy.add_subparsers(dest="crazy_command", metavar="COMMAND", parser_class=type(crazy))
    sub.required = True

    best = sub.add_parser("best-turn", help="the draw and play that leave the fewest points expected")
    best.add_argument("state", metavar="STATE", help=STATE_HELP)
    best.add_argument("--json", action="store_true", help="print one JSON object")
    best.set_defaults(run=_command_in(".crazy.cli", "cmd_best_turn"))

    solve = sub.add_parser("solve", help="meld a hand (the turn's card drawn) best: deadwood, "
                                         "discard, going out")
    solve.add_argument("state", metavar="STATE", help=STATE_HELP + "; its hand is solved as it is")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(run=_command_in(".crazy.cli", "cmd_solve"))

    selfplay = sub.add_parser("selfplay", help="play many seeded 13-round games and summarise them")
    selfplay.add_argument("--games", type=_whole_number(0, MAX_GAMES), required=True, metavar="N")
    selfplay.add_argument("--players", type=_whole_number(3, 6), default=4, metavar="K",
                          help="3 to 6 (default 4)")
    selfplay.add_argument("--seed", type=_seed, default=0, metavar="S", help="game i is the game of seed S+i")
    selfplay.add_argument("--bots", metavar="KIND[,KIND...]",
                          help="advisor (default) or stock (always draws from the stock): "
                               "one for every seat, or one a seat")
    selfplay.add_argument("--workers", type=_whole_number(1, MAX_WORKERS), metavar="W",
                          help="local processes (default: one a core; 1 plays in this process)")
    selfplay.add_argument("--records", metavar="DIR", help="write each game's record to DIR/crazy-SEED.jsonl")
    selfplay.add_argument("--force", action="store_true", help=FORCE_HELP.format("--records"))
    selfplay.set_defaults(run=_command_in(".crazy.selfplay", "cmd_selfplay"))

    replay = sub.add_parser("replay", help="re-check a game record against the rules")
    replay.add_argument("record", metavar="RECORD", help="a record written by selfplay --records")
    replay.add_argument("--quiet", action="store_true", help="print only the verdict")
    replay.set_defaults(run=_command_in(".crazy.cli", "cmd_replay"))
    return crazy


def cmd_crazy(args: argparse.Namespace) -> int:
    """The main parser hands ``ginnyo crazy ...`` here untouched, so that the crazy
    commands are built only when asked for."""
    from ..cli import _Parser
    parser = _Parser(prog="ginnyo")
    register(parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser))
    inner = parser.parse_args(["crazy", *args.crazy_args])
    run: Callable[[argparse.Namespace], int] = inner.run
    return int(run(inner))


def cmd_best_turn(args: argparse.Namespace) -> int:
    from .advisor import advice_json, advice_lines, best_turn
    from .state import load_state
    state = load_state(args.state)
    advice = best_turn(state)
    if args.json:
        print(json.dumps(advice_json(state, advice)))
    else:
        print("\n".join(advice_lines(state, advice)))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from .advisor import line_json
    from .cards import cards_text
    from .solver import solve_hand
    from .state import load_state
    state = load_state(args.state)
    result = solve_hand(list(state.hand), state.wild, state.melds, state.others)
    if args.json:
        print(json.dumps({"hand": cards_text(state.hand), "deadwood": result.deadwood, "held": result.held,
                          "can_go_out": result.can_go_out, "line": line_json(result.line, state.wild)}))
        return 0
    print(f"hand {cards_text(state.hand)}: deadwood {result.deadwood}, {result.held} points held after "
          f"the discard; {'can' if result.can_go_out else 'cannot'} go out")
    for action in result.line.actions:
        print("  " + action.text(state.wild))
    if result.line.discard is not None:
        print(f"  discard {cards_text([result.line.discard])}")
    print(f"  keeps {cards_text(result.line.hand_after) or 'nothing'}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .game import read_record, replay
    lines = read_record(args.record)
    game = replay(lines, source=args.record)
    if not args.quiet:
        for result in game.rounds:
            how = f"player {result.out} went out" if result.out is not None else result.end
            print(f"round {result.round:>2}: {len(result.turns):>3} turns, {how:<20} "
                  f"points {' '.join(f'{p:>3}' for p in result.points)}   "
                  f"totals {' '.join(f'{s:>4}' for s in result.scores)}")
    winners = ", ".join(str(seat) for seat in game.winners)
    print(f"ok: {len(lines)} lines, 13 rounds legal; final scores {list(game.scores)}, "
          f"won by player{'s' if len(game.winners) > 1 else ''} {winners}")
    return 0
