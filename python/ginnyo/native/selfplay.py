"""The door to ``ginnycore.selfplay``, the compiled game loops: what ginnyo
uses of it, imported here alone.  ``GreedyTurn`` is a TypedDict of the stubs
(plain dicts at run time): import it under ``TYPE_CHECKING``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ginnycore.selfplay import (END_BOX_EMPTY_ALL_PASSED, END_NO_PLAY_FOR_ROUNDS, END_NOBODY_OPENED,
                                END_TURN_LIMIT, greedy_game_record, play_games, play_greedy_games,
                                snapshot_games)

if TYPE_CHECKING:
    from ginnycore.selfplay import GreedyTurn

__all__ = ["END_BOX_EMPTY_ALL_PASSED", "END_NO_PLAY_FOR_ROUNDS", "END_NOBODY_OPENED", "END_TURN_LIMIT",
           "greedy_game_record", "play_games", "play_greedy_games", "snapshot_games", "GreedyTurn"]
