"""``ginnyo train-leaves``: fit the leave values from seeded self-play and write the leave file."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ..errors import GinnyoError
from ..selfplay.leave_training import DEFAULT_TRAIN_GAMES
from .arguments import FORCE_HELP, MAX_GAMES, file_name, scheduler_address, seed_number, whole_number, worker_count


#: the most rounds a training takes: each refits around the last one's play, and a handful converge
MAX_ROUNDS = 1000


def register(commands: Any) -> None:
    """Add ``train-leaves`` to the main parser's commands."""
    train = commands.add_parser("train-leaves", help="fit the leave values from seeded self-play (docs/EQUITY.md)")
    train.add_argument("--games", type=whole_number(1, MAX_GAMES), default=DEFAULT_TRAIN_GAMES, metavar="N",
                       help="games a round, for each player count")
    train.add_argument("--players", type=player_counts, default=(2, 3, 4), metavar="P,..",
                       help="the player counts to fit, the first one's model also for a count not given")
    train.add_argument("--rounds", type=whole_number(1, MAX_ROUNDS), default=2, metavar="R",
                       help="rounds: the first explores around greedy play, later ones around equity play")
    train.add_argument("--seed", type=seed_number, default=0, metavar="S", help="the seed of the first game")
    train.add_argument("--out", type=file_name, required=True, metavar="FILE", help="the leave file to write (JSON)")
    train.add_argument("--workers", type=worker_count, metavar="W", help="local processes (default: one a core)")
    train.add_argument("--scheduler", type=scheduler_address, metavar="ADDRESS",
                       help="play the games on this Dask cluster")
    train.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    train.set_defaults(run=cmd_train_leaves)


def player_counts(text: str) -> tuple[int, ...]:
    """``--players``: distinct player counts from 2 to 4, comma-separated."""
    from ..vocab.rules import MAX_PLAYERS, MIN_PLAYERS
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() and MIN_PLAYERS <= int(part) <= MAX_PLAYERS for part in parts) \
            or len(set(parts)) != len(parts):
        raise argparse.ArgumentTypeError(f"give distinct player counts from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                                         f"comma-separated, not {text[:40]!r}")
    return tuple(int(part) for part in parts)


def cmd_train_leaves(args: argparse.Namespace) -> int:
    """``ginnyo train-leaves``: fit the leave model from seeded self-play and write the file."""
    from .. import __version__
    from ..support.files import check_new, write_new
    from ..selfplay.leave_training import train
    from ..equity.leaves import FEATURES, STAGE_NAMES, STATE_FEATURES, LeaveModel
    from ..vocab.rules import RULES_VERSION
    from .progress import progress_bar
    from ..support.number_text import number
    out = Path(args.out)
    if out.is_dir():
        raise GinnyoError(f"--out {str(out)!r}: is a directory (give a file name)")
    check_new(out, force=args.force, option="--out")   # before the games, not after
    start = time.perf_counter()
    bar = progress_bar(args.games * args.rounds * len(args.players))
    try:
        model = train(args.games, args.seed, rounds=args.rounds, workers=args.workers, scheduler=args.scheduler,
                      on_progress=bar.update, players=args.players)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    training = dict(model.training)
    players = ",".join(map(str, args.players))
    training.update({"command": f"ginnyo train-leaves --games {args.games} --rounds {args.rounds} "
                                f"--players {players} --seed {args.seed} --out {args.out}",
                     "target": "future score difference (mine minus the others' mean, rack penalties "
                               "included) after the decision, in self-play of the player count",
                     "rules": RULES_VERSION,   # the game-end rule of the self-play (rules.RULES_VERSION)
                     "ginnyo": __version__, "seconds": round(seconds, 1)})
    model = LeaveModel(model.weights, model.returns, model.intercepts, training, None, model.state_weights,
                       model.others)   # open_first false: measured, never declining an opening loses (EQUITY.md)
    text = json.dumps(model.to_json(), indent=1) + "\n"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GinnyoError(f"--out {str(out)!r}: cannot write ({error.strerror or error})") from None
    write_new(out, text, force=args.force, option="--out")
    print(f"wrote {out}: {args.games} games x {args.rounds} rounds x {len(args.players)} player counts "
          f"in {seconds:.1f} s")
    for count in args.players:
        one = model.of(count)
        print(f" {count} players:")
        for name, row, state, returns in zip(STAGE_NAMES, one.weights, one.state_weights, one.returns):
            print(f"  {name:<10} " + " ".join(f"{feature}={number(weight, '+.2f')}" for feature, weight
                                              in zip(FEATURES + STATE_FEATURES, row + state))
                  + f" return={number(returns, '+.2f')}")
    return 0
