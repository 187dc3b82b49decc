"""Which rollout policy makes the stronger sim player: a paired match, sim (equity rollouts) against sim (greedy).

    python bench/sim_policy_match.py --games 2000 --seed 1000000 --workers 2

Plays ``--games`` 2-player games as ``ginnyo match`` does (deals from seeds
S, S+1, …, each twice with the seats swapped; ginnyo.strength's statistics:
the win rate with its Wilson 95% interval, the score difference over deals).
Both players are :class:`ginnyo.players.SimPlayer` with the match's
defaults (32 rollouts, 5 candidates, 2 plies); only the policy of the players
inside the rollouts differs.  The result chooses
``ginnyo.simulation.choices.DEFAULT_POLICY`` (docs/EQUITY.md).
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from typing import Sequence

from ginnyo.game.game import Game, play_game
from ginnyo.players.simulation import SimPlayer, hash_seed
from ginnyo.strength.results import DealResult, summarise
from ginnyo.support.workers import cut, run_batches

BOTS = ("equity", "greedy")     # the policies of A and B


def player(policy: str, seed: int, seat: int, rollouts: int) -> SimPlayer:
    """A sim player seeded as ``ginnyo match`` seeds its sim players."""
    return SimPlayer(seed=hash_seed(f"ginnyo sim {seed} {seat}"), rollouts=rollouts, policy=policy)


def play_pairs(seeds: Sequence[int], rollouts: int) -> list[DealResult]:
    """Every deal of ``seeds`` twice, A in seat 0 then in seat 1 (as
    :func:`ginnyo.strength.match.play_deal` plays a deal)."""
    results = []
    for seed in seeds:
        scores, turns, emptied = [], [], []
        for a_seat in (0, 1):
            policies = BOTS if a_seat == 0 else BOTS[::-1]
            game = play_game(Game.deal(2, seed), [player(policy, seed, seat, rollouts)
                                                  for seat, policy in enumerate(policies)])
            scores.append(tuple(game.scores))
            turns.append(game.turns_played)
            emptied.append(len(game.box) == 0)
        results.append(DealResult(seed, tuple(scores), tuple(turns), tuple(emptied)))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games, two a deal (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1000000, help="the first deal's seed (default %(default)s)")
    parser.add_argument("--rollouts", type=int, default=32, help="each decision's rollouts (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default %(default)s)")
    parser.add_argument("--progress", action="store_true", help="print the win rate so far after every batch")
    args = parser.parse_args()
    seeds = list(range(args.seed, args.seed + args.games // 2))
    start = time.perf_counter()
    results: list[DealResult] = []
    names = (f"sim({BOTS[0]} rollouts)", f"sim({BOTS[1]} rollouts)")
    for batch in run_batches(partial(play_pairs, rollouts=args.rollouts), cut(seeds, args.workers, largest=10),
                             workers=args.workers):
        results.extend(batch)
        if args.progress:     # the match so far, in the order the batches finished
            print(summarise(names, results).lines(time.perf_counter() - start, "so far")[2], flush=True)
    summary = summarise(names, sorted(results, key=lambda result: result.seed))
    print("\n".join(summary.lines(time.perf_counter() - start, f"{args.workers} worker processes")))


if __name__ == "__main__":
    main()
