"""The game kinds the web serves, the one place they are told apart: each kind's table page,
seat kinds, player count and how its stored games are rebuilt (each kind's seam: :mod:`.ginnyo`,
:mod:`.crazy`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ginnyo.vocab.rules import sets_for

from . import crazy, ginnyo
from ..live.table import Rebuild
from ..store.rows import CRAZY, GINNYO


@dataclass(frozen=True)
class GameKind:
    """A game the tables can hold."""

    name: str
    page: str                                 # the table's page (web/http/pages.py)
    seat_kinds: tuple[str, ...]               # "human" and the bot kinds
    check_players: Callable[[int], object]    # raises ValueError (the rules' words) for a wrong player count
    rebuild: Rebuild                          # a stored game -> its live table


GAME_KINDS: dict[str, GameKind] = {
    GINNYO: GameKind(GINNYO, "play", ginnyo.SEAT_KINDS, sets_for, ginnyo.rebuilt),
    CRAZY: GameKind(CRAZY, "crazy", crazy.SEAT_KINDS, crazy.check_players, crazy.rebuilt),
}

REBUILDERS = {name: kind.rebuild for name, kind in GAME_KINDS.items()}

__all__ = ["GameKind", "GAME_KINDS", "REBUILDERS"]
