"""Greedy self-play in the compiled core: many whole games per second, each one
reproducible from (seed, index) and replayable turn by turn in Python."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ..native.selfplay import (END_BOX_EMPTY_ALL_PASSED, END_NO_PLAY_FOR_ROUNDS, END_NOBODY_OPENED, END_TURN_LIMIT,
                               greedy_game_record, play_greedy_games)

from ..vocab.layout import Layout
from ..native import empty_core
from ..vocab.rules import BOX_EMPTY_AND_ALL_PASSED, NO_PLAY_FOR_ROUNDS, NOBODY_OPENED, OPENING_GUARD_ROUNDS, STALL_ROUNDS

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel
    from ..native.selfplay import GreedyTurn   # a TypedDict of the stubs: plain dicts at run time

SEEDS = 2**64   # the C loop's seeds are 64-bit numbers


def _check_games(games: int, seed: int) -> None:
    """ValueError unless games ``seed`` .. ``seed + games - 1`` are C loop games."""
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    if seed < 0 or seed + max(games, 1) > SEEDS:
        raise ValueError(f"seed {seed}: the C loop's seeds (seed + game index) are 0 to 2**64 - 1")


def end_reason(code: int, stall_rounds: int = STALL_ROUNDS) -> str:
    """The words of ginnyo.vocab.rules for the C loop's end codes (``GreedyGames.end_reasons``)."""
    return {END_BOX_EMPTY_ALL_PASSED: BOX_EMPTY_AND_ALL_PASSED,
            END_NO_PLAY_FOR_ROUNDS: NO_PLAY_FOR_ROUNDS.format(rounds=stall_rounds),
            END_TURN_LIMIT: "the turn limit of the C loop was reached",
            END_NOBODY_OPENED: NOBODY_OPENED.format(rounds=OPENING_GUARD_ROUNDS)}.get(code, "not over")


@dataclass(frozen=True)
class GreedyGames:
    """Results of a batch: per game the final scores (penalties taken), turns,
    plays, the first player and how it ended (the C loop's codes, in words by :func:`end_reason`)."""

    players: int
    scores: Any        # numpy int32 (games, players)
    turns: Any
    plays: Any
    first_players: Any
    end_reasons: Any

    def __len__(self) -> int:
        return len(self.turns)


def greedy_games(games: int, players: int, seed: int, *, threads: int = 1,
                 stall_rounds: int = STALL_ROUNDS, layout: Layout | None = None) -> GreedyGames:
    """Play ``games`` greedy games in C, spread over ``threads`` cores (at most
    one thread a processor is started); game i is the game of seed ``seed + i``."""
    import numpy as np
    _check_games(games, seed)
    layout = layout or Layout.standard()
    scores = np.zeros((games, 4), dtype=np.int32)
    turns = np.zeros(games, dtype=np.int32)
    plays = np.zeros(games, dtype=np.int32)
    first = np.zeros(games, dtype=np.int32)
    ends = np.zeros(games, dtype=np.int32)
    play_greedy_games(empty_core(layout), games, players, seed, scores, turns, plays, first, ends,
                      stall_rounds, threads)
    return GreedyGames(players, scores[:, :players], turns, plays, first, ends)


LOOP_BOTS = ("greedy", "equity")    # the players the compiled loop plays


def loop_games(games: int, bots: Sequence[str], seed: int, *, threads: int = 1, stall_rounds: int = STALL_ROUNDS,
               layout: Layout | None = None, model: LeaveModel | None = None) -> GreedyGames:
    """Play ``games`` games in C with one of :data:`LOOP_BOTS` a seat (``equity``
    ranks in C with ``model``, default the shipped leave values); game i is the
    game of seed ``seed + i``, as in :func:`greedy_games`."""
    import numpy as np

    from ..equity.rank import compiled_model
    from ..equity.leaves import default_model
    from ginnyo.native.selfplay import play_games
    unknown = [bot for bot in bots if bot not in LOOP_BOTS]
    if unknown:
        raise ValueError(f"bots: {unknown[0]!r} is not one of the loop's players ({', '.join(LOOP_BOTS)})")
    _check_games(games, seed)
    layout = layout or Layout.standard()
    players = len(bots)
    scores = np.zeros((games, 4), dtype=np.int32)
    turns = np.zeros(games, dtype=np.int32)
    plays = np.zeros(games, dtype=np.int32)
    first = np.zeros(games, dtype=np.int32)
    ends = np.zeros(games, dtype=np.int32)
    equity_seats = bytes(bot == "equity" for bot in bots)
    play_games(empty_core(layout), games, players, seed, equity_seats, compiled_model(model or default_model()),
               scores, turns, plays, first, ends, stall_rounds, threads)
    if (turns < 0).any():
        raise MemoryError("a game of the compiled loop ran out of memory")
    return GreedyGames(players, scores[:, :players], turns, plays, first, ends)


def greedy_game(players: int, seed: int, index: int = 0, *, stall_rounds: int = STALL_ROUNDS,
                layout: Layout | None = None) -> tuple[int, list[list[int]], list[GreedyTurn], list[int]]:
    """Game ``index`` of :func:`greedy_games` with ``seed``, turn by turn:
    ``(first_player, racks_dealt, turns, final_scores)``."""
    if index < 0:
        raise ValueError(f"index must be 0 or more, not {index}")
    _check_games(index + 1, seed)
    layout = layout or Layout.standard()
    return greedy_game_record(empty_core(layout), players, seed, index, stall_rounds)
