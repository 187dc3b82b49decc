"""A finished game's result as the club's ratings read it (docs/CLUB.md, "Ratings"): each seat's rank
from the final scores, of every game kind (Ginny-O: the most points wins; Crazy Rummy: the fewest
penalty points), and the kind's name in the club's API."""

from __future__ import annotations

from ginnyo.ratings.games import ranks_of

from ..live.table import SeatTable
from ..store.rows import CRAZY, GINNYO
from .crazy import CrazyTable
from .ginnyo import Table

#: the club's name of each game kind (the API's ``game`` of a seek, the ratings' kind) and back
CLUB_KINDS = {"ginnyo": GINNYO, "crazy": CRAZY}
CLUB_NAMES = {stored: name for name, stored in CLUB_KINDS.items()}


def final_ranks(table: SeatTable) -> list[int]:
    """Each seat's rank (1 the best, equal scores equal) in the finished game ``table``."""
    if isinstance(table, CrazyTable):
        return table.match.ranks   # the fewest penalty points first, a seat out on time last
    if isinstance(table, Table):
        return ranks_of(table.game.scores)
    raise ValueError(f"game kind {table.game_kind!r} has no result the club reads")


__all__ = ["final_ranks", "CLUB_KINDS", "CLUB_NAMES"]
