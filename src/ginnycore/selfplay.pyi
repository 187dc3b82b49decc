"""Type stubs for the compiled :mod:`ginnycore.selfplay` (hand-written from selfplay.pyx)."""

from typing import Literal, TypedDict, type_check_only

import numpy as np
from numpy.typing import NDArray

from .core import Core, _Placement
from .equity import LeaveModel

@type_check_only
class GreedyTurn(TypedDict):
    """One turn of :func:`greedy_game_record`: a plain dict at run time, this
    class exists only for type checking (import it under ``TYPE_CHECKING``)."""

    player: int
    action: Literal["play", "return", "pass"]
    drawn: int
    returned: int
    score: int
    placements: list[_Placement]
    refill: list[int]

END_BOX_EMPTY_ALL_PASSED: int
END_NO_PLAY_FOR_ROUNDS: int
END_TURN_LIMIT: int
END_NOBODY_OPENED: int

def play_greedy_games(layout: Core, games: int, players: int, seed: int,
                      scores: NDArray[np.int32], turns: NDArray[np.int32], plays: NDArray[np.int32],
                      first_players: NDArray[np.int32], end_reasons: NDArray[np.int32],
                      stall_rounds: int = 3, threads: int = 1) -> None: ...
def play_games(layout: Core, games: int, players: int, seed: int, equity_seats: bytes | bytearray,
               model: LeaveModel | None, scores: NDArray[np.int32], turns: NDArray[np.int32],
               plays: NDArray[np.int32], first_players: NDArray[np.int32], end_reasons: NDArray[np.int32],
               stall_rounds: int = ..., threads: int = 1) -> None:
    """Greedy and equity players' games (``equity_seats``: nonzero for equity's)."""
def greedy_game_record(layout: Core, players: int, seed: int, index: int = 0,
                       stall_rounds: int = 3) -> tuple[int, list[list[int]], list[GreedyTurn], list[int]]:
    """``(first_player, racks_dealt, turns, final_scores)`` of one greedy game."""


def snapshot_games(layout: Core, games: int, players: int, seed: int, model: LeaveModel, per_game: int,
                   rows: NDArray[np.int32], wins: NDArray[np.float64], stall_rounds: int = 3,
                   threads: int | None = 1) -> None: ...
