"""The store's part for the leases (:mod:`ginnyo.web.live.leases`): a game's lease claimed by one
process at a time, in one atomic statement (an INSERT whose conflict updates the row only where the
lease has lapsed or is the claimer's own), renewed in one statement a process, let go."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, select, update

from .schema import leases


class LeaseTables:
    """The leases' methods of :class:`~ginnyo.web.store.Store`."""

    if TYPE_CHECKING:
        def _writing(self, what: str) -> contextlib.AbstractContextManager[Connection]: ...
        def _insert(self) -> Any: ...

    def claim_lease(self, game: str, owner: str, now: float, seconds: float) -> tuple[str, float]:
        """Claim (or renew) ``game``'s lease for ``owner`` until ``now + seconds``, if it is free, lapsed
        by ``now`` or ``owner``'s already; the lease's holder after the claim and until when."""
        insert = self._insert()(leases).values(game=game, owner=owner, until=now + seconds)
        claim = insert.on_conflict_do_update(
            index_elements=[leases.c.game], set_={"owner": owner, "until": now + seconds},
            where=(leases.c.until < now) | (leases.c.owner == owner))
        with self._writing("the lease") as connection:
            connection.execute(claim)
            holder, until = connection.execute(select(leases.c.owner, leases.c.until)
                                               .where(leases.c.game == game)).one()
        return str(holder), float(until)

    def renew_leases(self, owner: str, until: float) -> set[str]:
        """Move every lease ``owner`` holds on to ``until``; the games whose leases these are."""
        with self._writing("the leases") as connection:
            connection.execute(update(leases).where(leases.c.owner == owner).values(until=until))
            return set(connection.execute(select(leases.c.game).where(leases.c.owner == owner)).scalars())

    def release_lease(self, game: str, owner: str) -> None:
        """Let ``game``'s lease go, if ``owner`` holds it."""
        with self._writing("the lease") as connection:
            connection.execute(delete(leases).where((leases.c.game == game) & (leases.c.owner == owner)))


__all__ = ["LeaseTables"]
