"""Each game kind's rebuild of its stored games as live tables (:data:`~..live.table.Rebuild`, what
:class:`~..live.registry.Tables` is handed), through its seam (:mod:`.ginnyo`, :mod:`.crazy`)."""

from __future__ import annotations

from functools import partial

from . import crazy, ginnyo
from ..live.table import Rebuild
from ..store.rows import CRAZY, GINNYO


def rebuilders(players: ginnyo.PlayerMaker) -> dict[str, Rebuild]:
    """Game kind -> its rebuild; ``players`` makes the Ginny-O bots (``ginnyo serve`` hands in
    :func:`ginnyo.players.players.make_player`; Crazy Rummy's bots are its own advisor's)."""
    return {GINNYO: partial(ginnyo.rebuilt, players=players), CRAZY: crazy.rebuilt}


__all__ = ["rebuilders"]
