"""The store's part for the club's accounts: an account made once a name (its key unique), read by
name, its password's hash replaced; sessions made, read (with their account), moved on and deleted.
Only hashes are stored: the password's Argon2id hash and the session token's SHA-256
(:mod:`ginnyo.accounts`)."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.exc import IntegrityError

from ...errors import NameTaken
from .schema import accounts, sessions


@dataclass(frozen=True)
class AccountRow:
    """An account as stored."""

    id: int
    name: str
    password_hash: str
    created: float


ACCOUNT_COLUMNS = (accounts.c.id, accounts.c.name, accounts.c.password_hash, accounts.c.created)


class AccountTables:
    """The accounts' and sessions' methods of :class:`~ginnyo.web.store.Store`."""

    if TYPE_CHECKING:
        def _writing(self, what: str) -> contextlib.AbstractContextManager[Connection]: ...
        def _reading(self) -> contextlib.AbstractContextManager[Connection]: ...

    def create_account(self, name: str, key: str, password_hash: str) -> AccountRow:
        """Store a new account; NameTaken if an account of the key ``key`` exists."""
        created = time.time()
        try:
            with self._writing("the account") as connection:
                if connection.execute(select(accounts.c.id).where(accounts.c.name_key == key)).first() is not None:
                    raise NameTaken(f"field 'name': {name} is taken")
                number = connection.execute(accounts.insert().values(
                    name=name, name_key=key, password_hash=password_hash, created=created)
                    .returning(accounts.c.id)).scalar_one()
        except IntegrityError:   # made by another process between the look and the insert
            raise NameTaken(f"field 'name': {name} is taken") from None
        return AccountRow(number, name, password_hash, created)

    def account(self, key: str) -> AccountRow | None:
        """The account of the name key ``key``, None if there is none."""
        with self._reading() as connection:
            row = connection.execute(select(*ACCOUNT_COLUMNS).where(accounts.c.name_key == key)).first()
        return None if row is None else AccountRow(*row)

    def set_password_hash(self, account: int, password_hash: str) -> None:
        """Replace the password hash of ``account`` (the same password, hashed with new parameters)."""
        with self._writing("the password") as connection:
            connection.execute(update(accounts).where(accounts.c.id == account).values(password_hash=password_hash))

    def create_session(self, digest: str, account: int, expires: float, replaces: str | None = None) -> None:
        """Store a session (its token's hash ``digest``) of ``account``; the session ``replaces`` (a
        token hash, the one the browser held) deleted in the same transaction."""
        with self._writing("the session") as connection:
            if replaces is not None:
                connection.execute(delete(sessions).where(sessions.c.token_hash == replaces))
            connection.execute(sessions.insert().values(token_hash=digest, account=account, created=time.time(),
                                                        expires=expires))

    def session(self, digest: str, now: float) -> tuple[AccountRow, float] | None:
        """The account of the session ``digest`` and its expiry, None if there is none or it expired."""
        query = (select(*ACCOUNT_COLUMNS, sessions.c.expires).select_from(sessions.join(accounts))
                 .where(sessions.c.token_hash == digest, sessions.c.expires > now))
        with self._reading() as connection:
            row = connection.execute(query).first()
        return None if row is None else (AccountRow(*row[:4]), float(row[4]))

    def extend_session(self, digest: str, expires: float) -> None:
        """Move the expiry of the session ``digest`` to ``expires``."""
        with self._writing("the session") as connection:
            connection.execute(update(sessions).where(sessions.c.token_hash == digest).values(expires=expires))

    def delete_session(self, digest: str, now: float | None = None) -> None:
        """Delete the session ``digest`` (and, given ``now``, every session expired by then)."""
        with self._writing("the sign-out") as connection:
            connection.execute(delete(sessions).where(sessions.c.token_hash == digest))
            if now is not None:
                connection.execute(delete(sessions).where(sessions.c.expires <= now))


__all__ = ["AccountTables", "AccountRow"]
