"""How often ranking by win probability changes the simulation's choice: sim-wp against sim-spread, decision by decision.

    python bench/sim_wp_choices.py --games 200 --seed 1000000

Plays ``--games`` 2-player games of two ``sim-spread`` players (deals from
seeds S, S+1, …) and, at each decision with at most ``SIM_CHANCE_BOX`` tiles
in the box (where ``sim-wp`` ranks by the win-probability model, the box not
yet empty), asks a ``sim-wp`` player for the seat, seeded alike, what it would
do.  The two draw the same rollouts, so they differ only where the ranking by
win probability picks another candidate than the ranking by the mean spread.
Prints the decisions of that window, how many the two decide alike, and the
share they differ in (docs/INFERENCE.md, "Win probability in the simulation").
"""

from __future__ import annotations

import argparse
import time

from ginnyo.game.game import Game, View, play_game
from ginnyo.odds.win_probability import SIM_CHANCE_BOX
from ginnyo.players.players import make_player


def count_choices(games: int, seed: int) -> tuple[int, int]:
    """(decisions in sim-wp's window, decisions where sim-wp chooses otherwise) over ``games`` deals."""
    window = differ = 0
    for deal in range(seed, seed + games):
        spread = [make_player("sim-spread", deal, seat) for seat in (0, 1)]
        by_chance = [make_player("sim-wp", deal, seat) for seat in (0, 1)]

        def judge(view: View) -> None:
            nonlocal window, differ
            if not 0 < view.box_size <= SIM_CHANCE_BOX:
                return
            window += 1
            differ += spread[view.player].choose(view) != by_chance[view.player].choose(view)

        play_game(Game.deal(2, deal), spread, on_decision=judge)
    return window, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000000)
    args = parser.parse_args()
    started = time.perf_counter()
    window, differ = count_choices(args.games, args.seed)
    print(f"{args.games} games from seed {args.seed}: {window} decisions with 1 to {SIM_CHANCE_BOX} tiles in the box, "
          f"sim-wp chooses otherwise than sim-spread in {differ} ({100 * differ / max(window, 1):.1f}%), "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
