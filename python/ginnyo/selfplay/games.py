"""Self-play at scale: many seeded games, spread over local processes or a Dask
cluster, and the summary of how they went.

Game ``i`` of a run from seed ``S`` is dealt from seed ``S + i``, so any one game
can be played again alone (``--seed S+i --games 1``), wherever it first ran.
"""

from __future__ import annotations

import statistics
from contextlib import closing
from dataclasses import dataclass, replace
from functools import partial
from typing import Callable, Sequence

from ..game.game import Game, play_game
from ..players.players import PLAYER_KINDS, make_player
from ..vocab.rules import sets_for
from ..support.tally import (RECORD_SUFFIX, RecordWriter, SeatSummary, batches, records_folder, seat_summaries,
                             seat_table)
from ..support.workers import default_workers, run_batches

DEFAULT_KIND = "greedy"


@dataclass(frozen=True)
class GameResult:
    """How one game went (and its record, when asked for)."""

    seed: int
    names: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    plays: int
    turns: int
    end_reason: str
    record: str | None = None


def play_one(seed: int, names: Sequence[str], keep_record: bool = False) -> GameResult:
    """Deal the game of ``seed`` for players of the given kinds and play it out."""
    players = [make_player(kind, seed, seat) for seat, kind in enumerate(names)]
    game = play_game(Game.deal(len(players), seed), players)
    record = None
    if keep_record:
        from ..game.records import record_text
        record = record_text(game, names)
    return GameResult(seed, tuple(names), tuple(game.scores), tuple(game.winners), game.plays,
                      game.turns_played, game.end_reason or "", record)


def play_batch(seeds: Sequence[int], names: Sequence[str], keep_record: bool = False) -> list[GameResult]:
    """Several games in one call: the unit of work sent to a process or a Dask worker."""
    return [play_one(seed, names, keep_record) for seed in seeds]


def player_kinds(players: int, kinds: Sequence[str] | None) -> tuple[str, ...]:
    """One kind for every seat: ``kinds`` names one kind for all or one a seat."""
    sets_for(players)   # raises ValueError outside 2..4
    kinds = list(kinds or [DEFAULT_KIND])
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    if len(kinds) == 1:
        return tuple(kinds * players)
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} player kinds for {players} players (give 1 or {players})")
    return tuple(kinds)


def run_in_c(games: int, players: int, seed: int = 0, kinds: Sequence[str] | None = None, *,
             workers: int | None = None,
             on_results: Callable[[list[GameResult]], None] | None = None) -> list[GameResult]:
    """Games in the compiled game loop (``--engine c``), on ``workers`` cores of
    this process, each seat ``greedy`` or ``equity`` (the shipped leave values,
    ranked in C; unlike the Python equity player it does not call the endgame
    solver).  Game i is the C loop's game of seed ``seed + i``: the same rules
    and players as the Python loop, but its own shuffles, so not the same deal."""
    from .compiled import LOOP_BOTS, end_reason, loop_games
    names = player_kinds(players, kinds)
    if not set(names) <= set(LOOP_BOTS):
        raise ValueError(f"the compiled loop plays {' and '.join(LOOP_BOTS)} only, not {', '.join(names)}")
    results: list[GameResult] = []
    step = 2000
    for first in range(seed, seed + games, step):
        count = min(step, seed + games - first)
        batch = loop_games(count, names, first, threads=workers or default_workers())
        part = []
        for index in range(count):
            scores = tuple(int(score) for score in batch.scores[index])
            top = max(scores)
            part.append(GameResult(first + index, names, scores,
                                   tuple(seat for seat, score in enumerate(scores) if score == top),
                                   int(batch.plays[index]), int(batch.turns[index]),
                                   end_reason(int(batch.end_reasons[index]))))
        if on_results is not None:
            on_results(part)
        results.extend(part)
    return results


def run(games: int, players: int, seed: int = 0, kinds: Sequence[str] | None = None, *,
        workers: int | None = None, scheduler: str | None = None, keep_records: bool = False,
        on_results: Callable[[list[GameResult]], None] | None = None) -> list[GameResult]:
    """Play ``games`` games from seeds ``seed, seed + 1, …``; the results in seed order.

    In this process when ``workers`` is 1, over ``workers`` local processes
    otherwise (default: one a core), or over the Dask cluster whose scheduler is
    at ``scheduler``.  ``on_results`` sees each batch as it finishes; when it is
    given, the records (``keep_records``) go to it only, so that a long run does
    not hold them all.
    """
    names = player_kinds(players, kinds)
    seeds = range(seed, seed + games)   # batches of it are made as the games are handed out
    workers = workers or default_workers()
    finished = run_batches(partial(play_batch, names=names, keep_record=keep_records),
                           batches(seeds, workers, scheduler), workers=workers, scheduler=scheduler)
    results: list[GameResult] = []
    with closing(finished):   # an interrupt ends the worker processes at once
        for batch in finished:
            if on_results is not None:
                on_results(batch)
                if keep_records:
                    batch = [replace(result, record=None) for result in batch]
            results.extend(batch)
    return sorted(results, key=lambda result: result.seed)


def summary_text(results: Sequence[GameResult], seconds: float, workers: str) -> str:
    """The table ``ginnyo selfplay`` prints."""
    if not results:
        return "no games played"
    first, last = results[0].seed, results[-1].seed
    lines = [f"{len(results)} games of {len(results[0].names)} players, seeds {first}..{last}, "
             f"{workers}: {seconds:.2f} s, {len(results) / seconds:,.1f} games/s", "",
             *seat_table(results)]
    plays = [result.plays for result in results]
    turns = [result.turns for result in results]
    lines += ["",
              f"plays per game  {statistics.fmean(plays):6.1f}  (sd {statistics.pstdev(plays):.1f})",
              f"game length     {statistics.fmean(turns):6.1f} turns  (sd {statistics.pstdev(turns):.1f})"]
    ends: dict[str, int] = {}
    for result in results:
        ends[result.end_reason] = ends.get(result.end_reason, 0) + 1
    for reason, count in sorted(ends.items(), key=lambda item: -item[1]):
        lines.append(f"ended: {reason:<55} {count:>6}")
    return "\n".join(lines)


# -- the records, written as the games end ---------------------------------------------------

#: the records of game SEED are RECORD_PREFIX + SEED + RECORD_SUFFIX
RECORD_PREFIX = "game-"


__all__ = ["GameResult", "SeatSummary", "batches", "play_one", "play_batch", "run", "player_kinds", "seat_summaries",
           "summary_text", "default_workers", "RecordWriter", "records_folder"]
