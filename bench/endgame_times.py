"""How fast the endgame solver proves the endgames of seeded greedy games.

Plays seeded greedy 2-player games in the compiled loop until the box has just
emptied (``ginnyo.endgame.greedy.greedy_endgames``), solves each endgame on one thread
with a time budget, and prints the share proven within it and the percentiles
of the solve times (and of the nodes searched).

    PYTHONPATH=python:src python3 bench/endgame_times.py --games 200 --seed 2026 --budget 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from typing import TypeVar

from ginnyo.endgame.exact import solve
from ginnyo.endgame.greedy import greedy_endgames

PERCENTILES = (50, 75, 90, 95, 99, 100)
Number = TypeVar("Number", int, float)


def percentile(values: Sequence[Number], share: int) -> Number:
    """The nearest-rank percentile of sorted ``values``."""
    rank = max(1, -(-share * len(values) // 100))
    return values[rank - 1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds an endgame (default 1)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    endgames = greedy_endgames(args.games, args.seed)
    times, nodes, proven = [], [], 0
    for position in endgames:
        result = solve(position, args.budget)
        times.append(result.seconds)
        nodes.append(result.nodes)
        proven += result.proven
    times.sort()
    nodes.sort()
    summary = {
        "games": args.games, "seed": args.seed, "budget": args.budget, "endgames": len(endgames),
        "proven": proven, "proven_share": round(proven / len(endgames), 4) if endgames else None,
        "mean_seconds": round(statistics.fmean(times), 4) if times else None,
        "seconds_percentiles": {f"p{p}": round(percentile(times, p), 4) for p in PERCENTILES} if times else {},
        "nodes_percentiles": {f"p{p}": percentile(nodes, p) for p in PERCENTILES} if nodes else {},
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{len(endgames)} endgames from {args.games} greedy games (seed {args.seed}), "
          f"budget {args.budget:g} s on one thread")
    print(f"proven within the budget: {proven} ({100 * proven / max(len(endgames), 1):.1f}%)")
    print("solve time  " + "  ".join(f"p{p} {percentile(times, p) * 1000:.1f} ms" for p in PERCENTILES))
    print("nodes       " + "  ".join(f"p{p} {percentile(nodes, p)}" for p in PERCENTILES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
