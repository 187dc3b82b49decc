"""Throughput of whole games played by the Python game loop (ginnyo.game).

Greedy 2-player self-play on one core, as ``ginnyo selfplay --workers 1`` plays
it: deal, draw, ask the player (the core's best play), check and apply the
action, refill, until the game ends.  The summary reports games per second.
"""

from __future__ import annotations

from pytest_benchmark.fixture import BenchmarkFixture

from conftest import record
from ginnyo.game.game import Game, play_game
from ginnyo.players.players import GreedyPlayer

GAMES = 300


def _greedy_games(seed: int) -> int:
    players = [GreedyPlayer(), GreedyPlayer()]
    turns = 0
    for game_seed in range(seed, seed + GAMES):
        turns += play_game(Game.deal(2, game_seed), players).turns_played
    return turns


def test_greedy_two_player_games_python_loop_one_core(benchmark: BenchmarkFixture) -> None:
    turns = benchmark.pedantic(_greedy_games, args=(2026,), rounds=7, iterations=1, warmup_rounds=1)
    assert turns > GAMES
    record("greedy 2-player games, Python loop, 1 core (per game)", benchmark, GAMES)
