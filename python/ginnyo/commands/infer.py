"""``ginnyo infer RECORD``: what the player of a record's turn can tell of each
opponent's kept tiles from its last action (docs/INFERENCE.md)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .arguments import EXIT_OK, seed_number, whole_number, worker_count


def _margin(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of points, not {text!r}") from None
    if not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1000 points, not {text}")
    return value


def register(commands: Any) -> None:
    """Add ``infer`` to the main parser's commands."""
    from ..odds.inference import MARGIN
    infer = commands.add_parser("infer", help="the likeliest tiles each opponent kept, read from its last action")
    infer.add_argument("record", metavar="RECORD", help="a game record (ginnyo selfplay --records, match --records)")
    infer.add_argument("--turn", type=whole_number(1), metavar="T",
                       help="infer as the player of turn T saw the game (default: the record's last turn)")
    infer.add_argument("--margin", type=_margin, default=MARGIN, metavar="M",
                       help="keep the racks for which the action was within M points of equity of the best")
    infer.add_argument("--top", type=whole_number(1, 1000), default=5, metavar="K", help="show the K likeliest leaves")
    infer.add_argument("--seed", type=seed_number, default=0, metavar="S",
                       help="the seed of the sampled racks (when there are too many to judge them all)")
    infer.add_argument("--workers", type=worker_count, metavar="W", help="threads (default: one a core)")
    infer.add_argument("--json", action="store_true", help="print one JSON object")
    infer.set_defaults(run=cmd_infer)


def cmd_infer(args: argparse.Namespace) -> int:
    from ..odds.records import record_inferences
    from ..support.workers import default_workers
    data = record_inferences(args.record, args.turn, margin=args.margin, seed=args.seed,
                             threads=args.workers or default_workers(), top=args.top)
    if args.json:
        print(json.dumps(data))
        return EXIT_OK
    print(f"turn {data['turn']}, player {data['player']}: margin {args.margin:g} points of equity")
    for row in data["opponents"]:
        if row["turn"] is None:
            print(f"player {row['player']}: no action to read yet")
            continue
        how = "every rack judged" if row["exact"] else f"{row['racks_judged']:.0f} racks sampled"
        print(f"player {row['player']} (its {row['action']} of turn {row['turn']}; {how}, "
              f"{100 * row['kept_share']:.1f}% kept):")
        if not row["leaves"]:
            print("  no rack explains the action within the margin: its tiles are taken as random")
            continue
        for leave in row["leaves"]:
            print(f"  {100 * leave['probability']:6.2f}%  {leave['tiles'] or '(nothing kept)'}")
        tiles = list(row["tiles"].items())[:12]
        print("  tiles kept: " + "  ".join(f"{code} {100 * p:.0f}%" for code, p in tiles))
    return EXIT_OK
