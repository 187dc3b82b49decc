"""The game kinds the web serves, the one place they are told apart: each kind's table page, seat
kinds, player counts and name in the club's API.  These are facts the requests and the OpenAPI
document check against, read without the games' seams (:mod:`.ginnyo`, :mod:`.crazy`), which sit
above them; each kind's rebuild from the store is in :mod:`.rebuilds`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ginnyo.crazy.rounds import BOT_KINDS as CRAZY_PLAYER_KINDS
from ginnyo.crazy.rounds import PERSON, player_kinds
from ginnyo.players.kinds import PLAYER_KINDS
from ginnyo.vocab.rules import sets_for

from ..live.table import HUMAN
from ..store.rows import CRAZY, GINNYO

#: the club's name of each game kind (the API's ``game`` of a seek, the ratings' kind) and back
CLUB_KINDS = {"ginnyo": GINNYO, "crazy": CRAZY}
CLUB_NAMES = {stored: name for name, stored in CLUB_KINDS.items()}


def crazy_players(count: int) -> None:
    """ValueError (the rules' words) unless Crazy Rummy is for ``count`` players."""
    player_kinds(count, (PERSON,), people=True)


@dataclass(frozen=True)
class GameKind:
    """A game the tables can hold."""

    name: str
    page: str                                 # the table's page (web/http/pages.py)
    seat_kinds: tuple[str, ...]               # "human" and the bot kinds
    check_players: Callable[[int], object]    # raises ValueError (the rules' words) for a wrong player count


GAME_KINDS: dict[str, GameKind] = {
    GINNYO: GameKind(GINNYO, "play", (HUMAN, *PLAYER_KINDS), sets_for),
    CRAZY: GameKind(CRAZY, "crazy", (HUMAN, *CRAZY_PLAYER_KINDS), crazy_players),
}

__all__ = ["GameKind", "GAME_KINDS", "CLUB_KINDS", "CLUB_NAMES", "crazy_players"]
