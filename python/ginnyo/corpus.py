"""Positions drawn from seeded games: the corpus behind differential tests and benchmarks."""

from __future__ import annotations

import random
from typing import Iterator

from .game import Game, play_game
from .position import Position

STAGES = ("early", "mid", "late")


def stage_of(tiles_on_board: int, sets: int) -> str:
    """Early below 15 tiles on the board (per set), late from 35, mid between."""
    per_set = tiles_on_board / sets
    return "early" if per_set < 15 else "late" if per_set >= 35 else "mid"


def game_positions(seed: int, players: int | None = None) -> Iterator[Position]:
    """Every decision position of one seeded game (2-4 players, chosen by the seed
    unless given), in turn order."""
    rng = random.Random(seed)
    players = players or rng.choice((2, 2, 3, 4))
    positions: list[Position] = []
    # a long stall limit lets games run on to the late stage that corpora need
    play_game(Game(players, seed, stall_rounds=50), on_decision=lambda game, position: positions.append(position))
    return iter(positions)


def sample_positions(count: int, seed: int, stage: str | None = None) -> list[Position]:
    """``count`` positions from consecutive seeded games, at most 4 per game so
    that many games are represented, optionally only of one ``stage``."""
    result: list[Position] = []
    game_seed = seed
    while len(result) < count:
        rng = random.Random(game_seed * 7919 + 1)
        candidates = [p for p in game_positions(game_seed)
                      if stage is None or stage_of(len(p.board), p.sets) == stage]
        rng.shuffle(candidates)
        result.extend(candidates[:min(4, count - len(result))])
        game_seed += 1
    return result
