"""Crazy Rummy self-play: many seeded games, over local processes, and their summary.

Game ``i`` of a run from seed ``S`` is the game of seed ``S + i``, so any one can be
played again alone (``--seed S+i --games 1``) or written out and replayed.
"""

from __future__ import annotations

import statistics
from contextlib import closing
from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence

from ..support.tally import batches, seat_table
from ..support.workers import run_batches
from .game import play_game, record_lines
from .rounds import END_LIMIT, END_OUT, END_STOCK, player_kinds


@dataclass(frozen=True)
class GameSummary:
    """How one game went (and its record, when asked for)."""

    seed: int
    names: tuple[str, ...]   # each seat's kind of player
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    round_ends: tuple[str, ...]
    record: str | None = None


def play_one(seed: int, players: int, kinds: Sequence[str], keep_record: bool = False) -> GameSummary:
    game = play_game(players, seed, kinds)
    record = "\n".join(record_lines(game)) + "\n" if keep_record else None
    return GameSummary(seed, game.kinds, game.scores, game.winners,
                       sum(len(result.turns) for result in game.rounds),
                       tuple(result.end for result in game.rounds), record)


def play_batch(seeds: Sequence[int], players: int, kinds: Sequence[str],
               keep_record: bool = False) -> list[GameSummary]:
    """Several games in one call: the unit of work sent to a process."""
    return [play_one(seed, players, kinds, keep_record) for seed in seeds]


def run(games: int, players: int, seed: int = 0, kinds: Sequence[str] | None = None, *,
        workers: int = 1, keep_records: bool = False,
        on_results: Callable[[list[GameSummary]], None] | None = None) -> list[GameSummary]:
    """Play games of seeds ``seed, seed + 1, …`` on ``workers`` processes; results in seed order.
    ``on_results`` sees each batch as it finishes (each game, in this process)."""
    names = player_kinds(players, kinds)
    seeds = list(range(seed, seed + games))
    results: list[GameSummary] = []
    finished = run_batches(partial(play_batch, players=players, kinds=names, keep_record=keep_records),
                           batches(seeds, workers, largest=20), workers=workers)
    with closing(finished):   # an interrupt ends the worker processes at once
        for batch in finished:
            if on_results is not None:
                on_results(batch)
            results.extend(batch)
    return sorted(results, key=lambda result: result.seed)


def summary_text(results: Sequence[GameSummary], seconds: float, where: str) -> str:
    """The table ``ginnyo crazy selfplay`` prints: per seat (as ``ginnyo selfplay``), then how
    the rounds ended."""
    if not results:
        return "no games played"
    players = len(results[0].names)
    lines = [f"{len(results)} games of {players} players, seeds {results[0].seed}..{results[-1].seed}, "
             f"{where}: {seconds:.2f} s, {len(results) / max(seconds, 1e-9):,.2f} games/s", "",
             "the lowest total wins: mean, sd, min and max are of each player's points held, summed over the 13 rounds", "",
             *seat_table(results)]
    ends = [end for result in results for end in result.round_ends]
    turns = [result.turns / len(result.round_ends) for result in results]
    lines += ["", f"turns per round  {statistics.fmean(turns):6.1f}  (sd {statistics.pstdev(turns):.1f})"]
    for end in (END_OUT, END_STOCK, END_LIMIT):
        count = ends.count(end)
        if count:
            label = {END_OUT: "someone went out", END_STOCK: "the stock ran out",
                     END_LIMIT: "stopped at the turn limit"}[end]
            lines.append(f"rounds ended: {label:<22} {count:>7}  ({count / len(ends):.1%})")
    return "\n".join(lines)


#: the record of game SEED is crazy-SEED.jsonl
RECORD_PREFIX = "crazy-"
