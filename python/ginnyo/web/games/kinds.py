"""The game kinds the web serves, the one place they are told apart: each kind's table page,
seat kinds, player count and how its stored games are rebuilt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ginnyo.game import sets_for

from . import crazy as crazy_table
from ..live import registry as tables
from ..store import CRAZY, GINNYO
from ..live.registry import Rebuild


@dataclass(frozen=True)
class GameKind:
    """A game the tables can hold."""

    name: str
    page: str                                 # the table's page (web/pages.py)
    seat_kinds: tuple[str, ...]               # "human" and the bot kinds
    check_players: Callable[[int], object]    # raises ValueError (the rules' words) for a wrong player count
    rebuild: Rebuild                          # a stored game -> its live table


GAME_KINDS: dict[str, GameKind] = {
    GINNYO: GameKind(GINNYO, "play", tables.SEAT_KINDS, sets_for, tables.rebuilt),
    CRAZY: GameKind(CRAZY, "crazy", crazy_table.SEAT_KINDS, crazy_table.check_players, crazy_table.rebuilt),
}

__all__ = ["GameKind", "GAME_KINDS"]
