"""Positions drawn from seeded games: the corpus behind differential tests and benchmarks."""

from __future__ import annotations

import random
from functools import partial
from typing import Iterator

from ..game.game import Game, View, play_game
from ..players.players import RandomOrBestPlayer
from ..position.position import Position
from ..support.workers import cut, run_batches

STAGES = ("early", "mid", "late")


def stage_of(tiles_on_board: int, sets: int) -> str:
    """Early below 15 tiles on the board (per set), late from 35, mid between."""
    per_set = tiles_on_board / sets
    return "early" if per_set < 15 else "late" if per_set >= 35 else "mid"


def game_positions(seed: int, players: int | None = None, *, late_fields: bool = False) -> Iterator[Position]:
    """Every decision position of one seeded game (2-4 players, chosen by the seed
    unless given), in turn order; with ``late_fields``, a late one carries the game
    fields that ``endgame``, ``--equity`` and ``--sim`` read (``players``, ``scores``,
    ``to_move``, ``unseen``: what its player sees)."""
    from ..vocab.tiles import rack_code
    rng = random.Random(seed)
    players = players or rng.choice((2, 2, 3, 4))
    positions: list[Position] = []

    def keep(view: View) -> None:
        position = view.position
        if late_fields and stage_of(len(position.board), position.sets) == "late":
            context = view.game_context
            position = Position(position.layout, position.sets, position.board, position.rack,
                                {"players": context.players, "scores": list(context.scores),
                                 "to_move": context.to_move, "unseen": " ".join(map(rack_code, context.unseen))},
                                validate=False)
        positions.append(position)
    # a long stall limit lets games run on to the late stage that corpora need
    game = Game.deal(players, seed, stall_rounds=50)
    player = RandomOrBestPlayer(game.rng)
    play_game(game, [player] * players, on_decision=keep)
    return iter(positions)


def game_sample(seed: int, stage: str | None = None) -> list[str]:
    """Up to 4 positions of the game of ``seed`` (of ``stage`` only, if given),
    chosen by the seed, as JSON text."""
    rng = random.Random(seed * 7919 + 1)
    candidates = [p for p in game_positions(seed, late_fields=True)
                  if stage is None or stage_of(len(p.board), p.sets) == stage]
    rng.shuffle(candidates)
    return [position.to_json() for position in candidates[:4]]


def _games_sample(seeds: list[int], stage: str | None) -> list[tuple[int, list[str]]]:
    return [(seed, game_sample(seed, stage)) for seed in seeds]


def sample_texts(count: int, seed: int, stage: str | None = None, *, workers: int = 1,
                 scheduler: str | None = None) -> list[str]:
    """``count`` positions, as JSON text, from the games of seeds ``seed, seed + 1,
    ...`` in that order, at most 4 a game so that many games are represented.
    Games are played in rounds, over ``workers`` processes or a Dask cluster; the
    result does not depend on where they ran."""
    result: list[str] = []
    next_seed = seed
    while len(result) < count:
        # about 2 positions come from a game: play enough for what is missing
        seeds = list(range(next_seed, next_seed + max(workers, (count - len(result)) // 2 + 1)))
        next_seed = seeds[-1] + 1
        by_seed: dict[int, list[str]] = {}
        for batch in run_batches(partial(_games_sample, stage=stage), cut(seeds, workers, largest=20),
                                 workers=workers, scheduler=scheduler):
            by_seed.update(batch)
        for game_seed in seeds:
            result.extend(by_seed[game_seed][:count - len(result)])
    return result


def sample_positions(count: int, seed: int, stage: str | None = None) -> list[Position]:
    """As :func:`sample_texts`, in this process, as positions."""
    return [Position.from_json(text) for text in sample_texts(count, seed, stage)]
