"""How long pre-endgame decisions take on the pre-endgames of seeded greedy games.

For each box count B asked for, plays seeded greedy 2-player games in the
compiled loop to the first turn that starts with exactly B tiles in the box
(``ginnyo.endgame.greedy.greedy_preendgames``), ranks that turn's candidates with
``ginnyo.endgame.preendgame.rank`` under a budget, and prints the share decided in full
(every candidate evaluated, every endgame solve proven) and the percentiles of
the decision times and of the endgame solves run.

    PYTHONPATH=python:src python3 bench/preendgame_times.py --games 30 --seed 2026 --box 1 2 3 --budget 60
"""

from __future__ import annotations

import argparse
import json
import sys

from endgame_times import PERCENTILES, percentile

from ginnyo.endgame.greedy import greedy_preendgames
from ginnyo.endgame.preendgame import MAX_BOX, rank


def measure(games: int, seed: int, box: int, budget: float) -> dict[str, object]:
    """The summary of the decisions with ``box`` tiles in the box."""
    times, solves, proven, candidates = [], [], 0, 0
    positions = greedy_preendgames(games, seed, box)
    for position in positions:
        result = rank(position, budget)
        times.append(result.seconds)
        solves.append(result.solves)
        proven += result.proven
        candidates += len(result.choices)
    times.sort()
    solves.sort()
    return {"box": box, "positions": len(positions), "proven": proven,
            "mean_candidates": round(candidates / len(positions), 1) if positions else None,
            "seconds_percentiles": {f"p{p}": round(percentile(times, p), 3) for p in PERCENTILES} if times else {},
            "solves_percentiles": {f"p{p}": percentile(solves, p) for p in PERCENTILES} if solves else {}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--box", type=int, nargs="+", default=list(range(1, MAX_BOX + 1)),
                        choices=range(1, MAX_BOX + 1), metavar="B", help="tiles in the box (default 1 2 3)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds a decision (default 60)")
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON")
    args = parser.parse_args(argv)
    for box in args.box:
        summary = measure(args.games, args.seed, box, args.budget)
        if args.json:
            print(json.dumps(summary), flush=True)
            continue
        seconds, solves = summary["seconds_percentiles"], summary["solves_percentiles"]
        assert isinstance(seconds, dict) and isinstance(solves, dict)
        print(f"B={box}: {summary['positions']} pre-endgames from {args.games} greedy games (seed {args.seed}), "
              f"{summary['mean_candidates']} candidates on average; decided in full within "
              f"{args.budget:g} s: {summary['proven']}", flush=True)
        print("  decision time  " + "  ".join(f"{name} {value:.2f} s" for name, value in seconds.items()))
        print("  endgame solves " + "  ".join(f"{name} {value}" for name, value in solves.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
