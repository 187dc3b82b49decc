"""``ginnyo crazy``: the Crazy Rummy commands (best-turn, solve, selfplay, replay).

The main parser hands ``ginnyo crazy ...`` here untouched (:func:`cmd_crazy`), so
that neither this module nor Crazy Rummy's are imported by the Ginny-O commands;
each command imports what it needs when it runs.  Exit status as for every
ginnyo command: 0 done, 2 bad input, 1 anything else.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Callable

from .arguments import FORCE_HELP, MAX_WORKERS, CommandParser, file_name, game_count, seed_number, whole_number

STATE_HELP = "a state file (docs/CRAZY-RUMMY.md), JSON text, or - for stdin"


def register(commands: Any) -> argparse.ArgumentParser:
    """Add ``crazy`` and its subcommands to the main parser's subcommands."""
    crazy: argparse.ArgumentParser = commands.add_parser(
        "crazy", help="Crazy Rummy: best turn, hand solver, self-play",
        description="Crazy Rummy (docs/RULES.md §7, docs/CRAZY-RUMMY.md).")
    sub = crazy.add_subparsers(dest="crazy_command", metavar="COMMAND", parser_class=type(crazy))
    sub.required = True

    best = sub.add_parser("best-turn", help="the draw and play that leave the fewest points expected")
    best.add_argument("state", metavar="STATE", help=STATE_HELP)
    best.add_argument("--json", action="store_true", help="print one JSON object")
    best.set_defaults(run=cmd_best_turn)

    solve = sub.add_parser("solve", help="meld a hand (the turn's card drawn) best: deadwood, "
                                         "discard, going out")
    solve.add_argument("state", metavar="STATE", help=STATE_HELP + "; its hand is solved as it is")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(run=cmd_solve)

    selfplay = sub.add_parser("selfplay", help="play many seeded 13-round games and summarise them")
    selfplay.add_argument("--games", type=game_count, required=True, metavar="N", help="how many games to play")
    selfplay.add_argument("--players", type=whole_number(3, 6), default=4, metavar="K",
                          help="players a game, 3 to 6")
    selfplay.add_argument("--seed", type=seed_number, default=0, metavar="S", help="game i is the game of seed S+i")
    selfplay.add_argument("--bots", metavar="KIND[,KIND...]",
                          help="advisor (default) or stock (always draws from the stock): "
                               "one for every seat, or one a seat")
    selfplay.add_argument("--workers", type=whole_number(1, MAX_WORKERS), metavar="W",
                          help="local processes (default: one a core, and one for every 4 games at most; "
                               "1 plays in this process)")
    selfplay.add_argument("--records", type=file_name, metavar="DIR",
                          help="write each game's record to DIR/crazy-SEED.jsonl")
    selfplay.add_argument("--force", action="store_true", help=FORCE_HELP.format("--records"))
    selfplay.set_defaults(run=cmd_selfplay)

    replay = sub.add_parser("replay", help="re-check a game record against the rules")
    replay.add_argument("record", metavar="RECORD", help="a record written by selfplay --records")
    replay.add_argument("--quiet", action="store_true", help="print only the verdict")
    replay.set_defaults(run=cmd_replay)
    return crazy


def crazy_parser() -> CommandParser:
    """A parser of ``ginnyo crazy ...`` alone."""
    parser = CommandParser(prog="ginnyo")
    register(parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser))
    return parser


def cmd_crazy(args: argparse.Namespace) -> int:
    """The main parser hands ``ginnyo crazy ...`` here untouched, so that the crazy
    commands are built only when asked for."""
    inner = crazy_parser().parse_args(["crazy", *args.crazy_args])
    run: Callable[[argparse.Namespace], int] = inner.run
    return int(run(inner))


def cmd_best_turn(args: argparse.Namespace) -> int:
    from ..crazy.advisor import advice_json, advice_lines, best_turn
    from ..crazy.state import load_state
    state = load_state(args.state)
    advice = best_turn(state)
    if args.json:
        print(json.dumps(advice_json(state, advice)))
    else:
        print("\n".join(advice_lines(state, advice)))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from ..crazy.advisor import line_json
    from ..crazy.cards import cards_text
    from ..crazy.solver import solve_hand
    from ..crazy.state import load_state
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
    from ..crazy.game import read_record, replay
    from ..game.events import RESIGN, TIMEOUT
    lines = read_record(args.record)
    game = replay(lines, source=args.record)
    if not args.quiet:
        for result in game.rounds:
            how = f"player {result.out} went out" if result.out is not None else result.end
            print(f"round {result.round:>2}: {len(result.turns):>3} turns, {how:<20} "
                  f"points {' '.join(f'{p:>3}' for p in result.points)}   "
                  f"totals {' '.join(f'{s:>4}' for s in result.scores)}")
        if game.unfinished is not None:
            print(f"round {game.unfinished.round:>2}: {len(game.unfinished.turns):>3} turns, "
                  "not scored (the game ended before its last round)")
    winners = ", ".join(str(seat) for seat in game.winners)
    clock = ""
    if any(game.overtime):
        clock += f"; overtime charged {game.overtime}"
    for kind, words in ((TIMEOUT, "out on time"), (RESIGN, "resigned")):
        seats = game.out_by(kind)
        if seats:
            clock += f"; {words}: player{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}"
    if game.out:
        clock += f" (ranking {game.ranking})"
    won = f"won by player{'s' if len(game.winners) > 1 else ''} {winners}" if not game.aborted \
        else "aborted: no result"
    print(f"ok: {len(lines)} lines, {len(game.rounds)} rounds legal; final scores {list(game.scores)}, {won}{clock}")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    """``ginnyo crazy selfplay``: play, show progress on stderr, write records, print the summary.
    Ctrl-C or SIGTERM stops it with one line naming the records written, all whole."""
    from ..crazy.rounds import player_kinds
    from ..crazy.selfplay import RECORD_PREFIX, run, summary_text
    from .progress import progress_bar
    from ..support.tally import RecordWriter, records_folder
    from ..support.workers import default_workers
    kinds = player_kinds(args.players, args.bots.split(",") if args.bots else None)
    records = records_folder(args.records)
    workers = args.workers or min(default_workers(), max(1, args.games // 4))
    where = f"{workers} worker processes" if workers > 1 else "1 process"
    writer = RecordWriter(progress_bar(args.games), records, RECORD_PREFIX, force=args.force)
    writer.refuse_existing(range(args.seed, args.seed + args.games))
    start = time.perf_counter()
    with writer.running():
        results = run(args.games, args.players, args.seed, kinds, workers=workers,
                      keep_records=records is not None, on_results=writer)
    print(summary_text(results, time.perf_counter() - start, where))
    if records is not None:
        print(f"\nwrote {len(results)} records to {records}")
    return 0
