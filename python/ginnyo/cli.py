"""The ``ginnyo`` command line (docs/FORMAT.md "The command line").

Exit status: 0 done, 2 bad input, 130 interrupted by Ctrl-C (143 by SIGTERM),
1 anything else.  A file a command writes is written whole or not at all, and
never over an existing file without ``--force`` or through a symbolic link.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import sys
from typing import Any, Callable, Iterator, NoReturn, Sequence

from . import __version__
from .errors import GinnyoError, RunError
from .melds import tile_value
from .play import MeldScore, ScoredPlay
from .position import Position
from .solver import best_play, load_position, play_notation, tiles_to_return
from .tiles import rack_code

EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130   # 128 + SIGINT; SIGTERM gives 143


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        self.exit(EXIT_BAD_INPUT, f"ginnyo: error: {message} (see 'ginnyo --help')\n")


def play_to_json(position: Position, scored: ScoredPlay) -> dict[str, Any]:
    """The JSON object of one play, as ``best-move --json`` and ``moves --json`` print it."""
    name = position.layout.square_name
    return {
        "notation": play_notation(position, scored.play),
        "score": scored.score,
        "placements": {name(square): tile.code for square, tile in scored.play.placements},
        "melds": [{"kind": meld.kind, "squares": [name(s) for s in meld.squares],
                   "score": meld.score} for meld in scored.melds],
    }


def no_play_json(position: Position) -> dict[str, Any]:
    tiles, reason = tiles_to_return(position)
    return {"notation": None, "score": 0, "placements": {}, "melds": [],
            "return": [rack_code(tile) for tile in tiles], "reason": reason}


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
    position = load_position(args.position)
    if args.endgame or args.equity or args.sim is not None:
        from .endgame_choice import best_move_from_solver   # the solver's move in an endgame or pre-endgame
        if best_move_from_solver(args, position):
            return EXIT_OK
    if args.equity or args.sim is not None:
        return _best_move_by_equity(args, position)
    best = best_play(position)
    if args.json:
        print(json.dumps(play_to_json(position, best) if best else no_play_json(position)))
    elif best:
        print("\n".join(describe_play(position, best)))
    else:
        print(_return_line(position))
    return EXIT_OK


def _best_move_by_equity(args: argparse.Namespace, position: Position) -> int:
    """``best-move --equity`` / ``--sim N`` (docs/EQUITY.md); their modules load only here."""
    from .leaves import load
    from .simulation import game_context
    game_context(position)   # checks the game fields (unseen, players, scores, to_move) first
    model = load(args.leaves)
    if args.sim is not None:
        from .simulation import cmd_best_move_sim
        return cmd_best_move_sim(args, position, model)
    from .equity import cmd_best_move_equity
    return cmd_best_move_equity(args, position, model)


def _return_line(position: Position) -> str:
    tiles, reason = tiles_to_return(position)
    if not tiles:
        return f"No legal play: {reason}."
    return f"No legal play. Return {' '.join(rack_code(t) for t in tiles)} to the box: {reason}."


def cmd_moves(args: argparse.Namespace) -> int:
    """The plays stream from the core best first, in bounded passes, and are
    printed as they come: memory stays bounded however many there are."""
    from . import native
    position = load_position(args.position)
    if args.json:
        _write_lines(_json_array(play_to_json(position, scored)
                                 for scored in native.ranked_plays(position, args.limit)))
        return EXIT_OK
    moves = native.ranked_moves(position, args.limit)
    first = list(itertools.islice(moves, LISTED_BEFORE_COUNTING))
    if not first:
        print(_return_line(position))
        return EXIT_OK
    total = len(first)
    if total == LISTED_BEFORE_COUNTING:     # the numbers' width needs how many there are
        total = native.core_of(position).count_plays()
        if args.limit is not None:
            total = min(total, args.limit)
    width = len(str(total))
    _write_lines(f"{index:>{width}}. {play_notation(position, play):<28} {score:>4}\n"
                 for index, (score, play) in enumerate(itertools.chain(first, moves), 1))
    return EXIT_OK


LISTED_BEFORE_COUNTING = 4096   # moves: with fewer plays the list itself says how many


def _json_array(items: Iterator[dict[str, Any]]) -> Iterator[str]:
    """The text ``print(json.dumps(list(items)))`` prints, a piece an item."""
    yield "["
    for index, item in enumerate(items):
        yield (", " if index else "") + json.dumps(item)
    yield "]\n"


def _write_lines(texts: Iterator[str], batch: int = 4096) -> None:
    """Write ``texts`` to stdout as they come, ``batch`` at a time."""
    pending: list[str] = []
    for text in texts:
        pending.append(text)
        if len(pending) == batch:
            sys.stdout.write("".join(pending))
            pending.clear()
    sys.stdout.write("".join(pending))


def cmd_show(args: argparse.Namespace) -> int:
    from . import render
    position = load_position(args.position)
    if args.line:
        from .position_string import to_line
        print(to_line(position))
        return EXIT_OK
    if args.svg:
        from .files import write_new
        write_new(args.svg, render.board_svg(position), force=args.force, option="--svg")
        print(f"wrote {args.svg}")
        return EXIT_OK
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print(render.board_text(position, color=color))
    return EXIT_OK


def cmd_corpus(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .corpus import sample_texts
    from .files import check_new, write_new
    from .workers import default_workers
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


COMMANDS = ("best-move", "moves", "show", "corpus", "replay", "selfplay", "train-leaves", "match", "crazy",
            "plot-sim", "engine", "endgame")
POSITION_HELP = "position file (JSON or a position string), or - for stdin"
FORCE_HELP = "overwrite the files of {} that exist (never a symbolic link)"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command`` (one of ``COMMANDS``), only
    that command's part, which is all ``main`` needs to run it: building every
    command's parser is about a tenth of best-move's start-up."""
    parser = _Parser(prog="ginnyo", description="Move generator and best-play solver for Ginny-O.")
    parser.add_argument("--version", action="version", version=f"ginnyo {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    if command in (None, "best-move"):
        best = commands.add_parser("best-move", help="the highest-scoring legal play")
        best.add_argument("position", metavar="POSITION", help=POSITION_HELP)
        best.add_argument("--json", action="store_true", help="print one JSON object")
        ranking = best.add_mutually_exclusive_group()
        ranking.add_argument("--equity", action="store_true",
                             help="rank plays and returns by score + leave value (docs/EQUITY.md)")
        ranking.add_argument("--sim", type=_rollouts, metavar="N",
                             help="simulate the top equity candidates N times each against sampled racks")
        best.add_argument("--candidates", type=_whole_number(1), default=5, metavar="K",
                          help="with --equity: show K; with --sim: simulate the top K (default 5)")
        best.add_argument("--plies", type=_plies, default=2, metavar="P",
                          help="with --sim: turns played after ours in each rollout (default 2)")
        best.add_argument("--seed", type=_seed, default=0, metavar="S", help="with --sim: the seed of the deals")
        best.add_argument("--workers", type=_workers, metavar="W",
                          help="with --sim: local processes (default: one a core; 1 runs in this process)")
        best.add_argument("--scheduler", metavar="ADDRESS",
                          help="with --sim: run the rollouts on this Dask cluster")
        best.add_argument("--leaves", metavar="FILE",
                          help="with --equity/--sim: another leave file (default: the shipped one)")
        from .endgame_choice import add_best_move_options
        add_best_move_options(best, ranking)
        best.set_defaults(run=cmd_best_move)

    if command in (None, "moves"):
        moves = commands.add_parser("moves", help="every legal play, best first")
        moves.add_argument("position", metavar="POSITION", help=POSITION_HELP)
        moves.add_argument("--limit", type=_whole_number(1), metavar="N", help="print at most N plays (N >= 1)")
        moves.add_argument("--json", action="store_true", help="print a JSON array")
        moves.set_defaults(run=cmd_moves)

    if command in (None, "show"):
        show = commands.add_parser("show", help="the board as a picture")
        show.add_argument("position", metavar="POSITION", help=POSITION_HELP)
        show_output = show.add_mutually_exclusive_group()
        show_output.add_argument("--svg", metavar="FILE", help="write an SVG image instead")
        show_output.add_argument("--line", action="store_true",
                                 help="print the one-line position string instead (docs/POSITION-STRING.md)")
        show.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                          help="colour the terminal picture (default: when stdout is a terminal)")
        show.add_argument("--force", action="store_true", help=FORCE_HELP.format("--svg"))
        show.set_defaults(run=cmd_show)

    if command in (None, "corpus"):
        corpus = commands.add_parser("corpus", help="positions drawn from seeded games")
        corpus.add_argument("--positions", type=_whole_number(0, MAX_POSITIONS), required=True, metavar="N")
        corpus.add_argument("--stage", choices=("early", "mid", "late"), help="only positions of this stage")
        corpus.add_argument("--seed", type=_seed, default=0, metavar="S")
        corpus.add_argument("--out", required=True, metavar="PATH",
                            help="a directory of position files, or a .jsonl file (one position a line)")
        corpus.add_argument("--workers", type=_workers, metavar="W",
                            help="local processes to play the games on (default: one a core)")
        corpus.add_argument("--scheduler", metavar="ADDRESS", help="play the games on this Dask cluster")
        corpus.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
        corpus.set_defaults(run=cmd_corpus)

    if command in (None, "replay"):
        replay = commands.add_parser("replay", help="re-check a game record move by move and show it")
        replay.add_argument("record", metavar="RECORD", help="a game record (JSON lines)")
        replay.add_argument("--quiet", action="store_true", help="print only the verdict")
        replay.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                            help="colour the boards (default: when stdout is a terminal)")
        replay.set_defaults(run=_command_in(".records", "cmd_replay"))

    if command in (None, "selfplay"):
        selfplay = commands.add_parser("selfplay", help="play many seeded games and summarise them")
        selfplay.add_argument("--games", type=_games, required=True, metavar="N")
        selfplay.add_argument("--players", type=_whole_number(2, 4), default=2, metavar="K", help="2 to 4 (default 2)")
        selfplay.add_argument("--seed", type=_seed, default=0, metavar="S", help="game i is dealt from seed S+i")
        selfplay.add_argument("--bots", metavar="KIND[,KIND...]",
                              help="greedy (default), random, equity or sim: one for every seat, or one a seat")
        selfplay.add_argument("--workers", type=_workers, metavar="W",
                              help="local processes (default: one a core; 1 plays in this process)")
        selfplay.add_argument("--scheduler", metavar="ADDRESS",
                              help="play on the Dask cluster of this scheduler (tcp://host:8786)")
        selfplay.add_argument("--records", metavar="DIR", help="write each game's record to DIR/game-SEED.jsonl")
        selfplay.add_argument("--engine", choices=("python", "c"), default="python",
                              help="c: greedy games in the compiled game loop, several times faster "
                                   "(its own shuffles, so other deals than python's)")
        selfplay.add_argument("--force", action="store_true", help=FORCE_HELP.format("--records"))
        selfplay.set_defaults(run=_command_in(".selfplay", "cmd_selfplay"))

    if command in (None, "train-leaves"):
        train = commands.add_parser("train-leaves", help="fit the leave values from seeded self-play (docs/EQUITY.md)")
        train.add_argument("--games", type=_whole_number(1, MAX_GAMES), default=20000, metavar="N",
                           help="2-player games a round (default 20000)")
        train.add_argument("--rounds", type=_whole_number(1), default=2, metavar="R",
                           help="rounds: the first explores around greedy play, later ones around equity play")
        train.add_argument("--seed", type=_seed, default=0, metavar="S")
        train.add_argument("--out", required=True, metavar="FILE", help="the leave file to write (JSON)")
        train.add_argument("--workers", type=_workers, metavar="W", help="local processes (default: one a core)")
        train.add_argument("--scheduler", metavar="ADDRESS", help="play the games on this Dask cluster")
        train.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
        train.set_defaults(run=_command_in(".leaves", "cmd_train_leaves"))

    if command in (None, "match"):
        match = commands.add_parser("match", help="two players head to head: paired seeded games, win rate and CI")
        match.add_argument("--bots", required=True, metavar="A,B", help="the two players (greedy, random, equity, sim)")
        match.add_argument("--games", type=_games, required=True, metavar="N",
                           help="games, an even number: N/2 deals, each played twice with the seats swapped")
        match.add_argument("--seed", type=_seed, default=0, metavar="S", help="deal i is dealt from seed S+i")
        match.add_argument("--rollouts", type=_rollouts, default=32, metavar="N",
                           help="a sim player's rollouts a decision (default 32)")
        match.add_argument("--candidates", type=_whole_number(1), default=5, metavar="K",
                           help="a sim player's candidates (default 5)")
        match.add_argument("--plies", type=_plies, default=2, metavar="P",
                           help="a sim player's turns after its own in a rollout (default 2)")
        match.add_argument("--workers", type=_workers, metavar="W", help="local processes (default: one a core)")
        match.add_argument("--scheduler", metavar="ADDRESS", help="play on this Dask cluster")
        match.add_argument("--plot", metavar="FILE", help="write an SVG of the score distributions")
        match.add_argument("--json", action="store_true", help="print the summary as one JSON object")
        match.add_argument("--force", action="store_true", help=FORCE_HELP.format("--plot"))
        match.set_defaults(run=_command_in(".strength", "cmd_match"))

    # Crazy Rummy: its commands are parsed by ginnyo.crazy.cli, imported only when they run
    if command in (None, "crazy"):
        crazy = commands.add_parser("crazy", help="Crazy Rummy, the second game: best-turn, solve, selfplay, "
                                    "replay (ginnyo crazy --help)", add_help=False, prefix_chars="\0")
        crazy.add_argument("crazy_args", nargs=argparse.REMAINDER)
        crazy.set_defaults(run=_command_in(".crazy.cli", "cmd_crazy"))

    if command in (None, "plot-sim"):
        plot_sim = commands.add_parser("plot-sim", help="the sim player's win rate against its rollouts, as an SVG")
        plot_sim.add_argument("--rollouts", default="2,4,8,16,32", metavar="N,N,...",
                              help="rollout counts, increasing (default 2,4,8,16,32)")
        plot_sim.add_argument("--against", default="equity", metavar="KIND", help="the opponent (default equity)")
        plot_sim.add_argument("--games", type=_games, default=800, metavar="N",
                              help="games a point, even (default 800)")
        plot_sim.add_argument("--seed", type=_seed, default=0, metavar="S", help="deal i is dealt from seed S+i")
        plot_sim.add_argument("--candidates", type=_whole_number(1), default=5, metavar="K")
        plot_sim.add_argument("--plies", type=_plies, default=2, metavar="P")
        plot_sim.add_argument("--workers", type=_workers, metavar="W", help="local processes (default: one a core)")
        plot_sim.add_argument("--scheduler", metavar="ADDRESS", help="play on this Dask cluster")
        plot_sim.add_argument("--out", required=True, metavar="FILE", help="the SVG to write")
        plot_sim.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
        plot_sim.set_defaults(run=_command_in(".strength", "cmd_plot_sim"))

    if command in (None, "engine"):
        engine = commands.add_parser("engine",
                                     help="serve the engine line protocol on stdin/stdout (docs/PROTOCOL.md)")
        engine.set_defaults(run=_command_in(".engine", "cmd_engine"))

    if command in (None, "endgame"):
        from .endgame_cli import add_arguments
        add_arguments(commands.add_parser("endgame", help="the exact 2-player endgame: spread and best line"),
                      POSITION_HELP)
    return parser


def _whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            allowed = f"from {low}" + (f" to {high}" if high is not None else " up")
            raise argparse.ArgumentTypeError(f"{value} is out of range ({allowed})")
        return value
    return parse


# The largest numbers the command line takes: beyond them a run could only
# exhaust the memory, overflow the C core's numbers or never end.
MAX_WORKERS = 256           # processes, or threads of the C game loop
MAX_GAMES = 10**9
MAX_POSITIONS = 10**6
MAX_ROLLOUTS = 10**6        # --sim and --rollouts
MAX_PLIES = 1000
MAX_SEED = 2**63 - 1        # seed + game index stays within the C generator's 64 bits

_count = _whole_number(0)
_workers = _whole_number(0, MAX_WORKERS)
_games = _whole_number(0, MAX_GAMES)
_seed = _whole_number(0, MAX_SEED)
_rollouts = _whole_number(1, MAX_ROLLOUTS)
_plies = _whole_number(0, MAX_PLIES)


def _command_in(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command whose module is imported only when it runs, so that start-up stays short."""
    def run(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(module, __package__), name)(args))
    return run


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # the command is the first word that is no option (ginnyo's own are --help and --version)
    command = next((word for word in argv if not word.startswith("-")), None)
    args = build_parser(command if command in COMMANDS else None).parse_args(argv)
    try:
        return int(args.run(args))
    except GinnyoError as error:
        print(f"ginnyo: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RunError as error:
        print(f"ginnyo: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_FAILURE
    except BrokenPipeError:
        return EXIT_FAILURE
    except KeyboardInterrupt as stop:   # Ctrl-C; interrupts.Interrupted also for SIGTERM
        done = getattr(stop, "done", "")
        print(f"ginnyo: interrupted{': ' + done if done else ''}", file=sys.stderr)
        return int(getattr(stop, "status", EXIT_INTERRUPTED))
    except Exception as error:  # noqa: BLE001 - the contract is one line, never a traceback
        print(f"ginnyo: internal error: {type(error).__name__}: {_one_line(error)}", file=sys.stderr)
        return EXIT_FAILURE


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split("\n"))


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
