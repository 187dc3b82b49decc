"""Work done once among many processes: a game's timed work (its bot's move; a clock's timeout, a game's
expiry) is done by the process holding the game's lease, a row of the store's ``leases`` table
claimed atomically (:meth:`~ginnyo.web.store.leases.LeaseTables.claim_lease`), renewed every
:data:`RENEW_SECONDS` while this process lives, and taken over by another once it has lapsed
(:data:`LEASE_SECONDS` after its holder died).  Whoever does timed work asks ``leases.hold(game)``
first and does nothing when it is False: :class:`SharedLeases` when processes share a store and a
broker, :class:`LocalLeases` (every game its own) for a process alone.

A lease is an economy, not a guarantee: a holder slower than its lease (a process stopped for
seconds) may still move after another took over, and the store's key (game, n) then refuses the
second move (MoveAlreadyStored), so a game never gets two moves n.  The leases' times are the
processes' clocks (time.time()): machines sharing a database keep theirs synchronised (NTP)."""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from typing import Callable, Protocol

from ...errors import StoreError
from ..store.leases import LeaseTables

LEASE_SECONDS = 6.0      # a lease lapses this long after its last renewal: another process takes the work over then
RENEW_SECONDS = 1.5      # every held lease is renewed this often (and lapsed ones looked for)


class Leases(Protocol):
    """Who does a game's timed work."""

    def hold(self, game: str) -> bool:
        """True if this process is to do ``game``'s timed work now (claiming its lease if need be)."""

    def release(self, game: str) -> None:
        """Let ``game``'s lease go (the game is over, or let go from memory)."""

    def start(self, tick: Callable[[], None]) -> None:
        """Renew the leases held from now on, calling ``tick`` after each renewal (to take over lapsed work)."""

    def close(self) -> None:
        """Stop renewing (the leases lapse by themselves)."""


class LocalLeases:
    """A process alone: every game's work is its own, and nothing is stored."""

    def hold(self, game: str) -> bool:
        return True

    def release(self, game: str) -> None:
        pass

    def start(self, tick: Callable[[], None]) -> None:
        pass

    def close(self) -> None:
        pass


def process_name() -> str:
    """This process's name among the holders: its host, pid and a random part (a pid is reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class SharedLeases:
    """The leases of processes sharing ``store``; ``warn`` hears of a renewal the store refused."""

    def __init__(self, store: LeaseTables, warn: Callable[[str], None] = lambda line: None,
                 seconds: float = LEASE_SECONDS, renew_every: float = RENEW_SECONDS) -> None:
        self.store = store
        self.owner = process_name()
        self.seconds = seconds
        self.renew_every = renew_every
        self.warn = warn
        self._held: dict[str, float] = {}      # game -> until when it is ours (as last stored)
        self._others: dict[str, float] = {}    # game -> until when another holds it (as last read)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._renewing: threading.Thread | None = None

    def hold(self, game: str) -> bool:
        now = time.time()
        with self._lock:
            if self._held.get(game, 0.0) > now + self.seconds / 2:
                return True    # renewed lately: no need to ask the store
            if self._others.get(game, 0.0) > now:
                return False   # another's, and not lapsed as last read
        try:
            holder, until = self.store.claim_lease(game, self.owner, now, self.seconds)
        except Exception as error:   # the store out of reach: not ours for now (asked again at the next tick)
            self.warn(f"ginnyo: game {game}: its lease could not be claimed ({type(error).__name__}: {error})")
            return False
        with self._lock:
            if holder == self.owner:
                self._held[game] = until
                self._others.pop(game, None)
            else:
                self._others[game] = until
                self._held.pop(game, None)
        return holder == self.owner

    def release(self, game: str) -> None:
        with self._lock:
            held = self._held.pop(game, None) is not None
            self._others.pop(game, None)
        if held:
            try:
                self.store.release_lease(game, self.owner)
            except StoreError as error:   # it lapses by itself
                self.warn(f"ginnyo: game {game}: its lease could not be let go ({error})")

    def renew(self) -> None:
        """Move every lease held on by :attr:`seconds` (one statement); a lease found lost is forgotten."""
        until = time.time() + self.seconds
        try:
            kept = self.store.renew_leases(self.owner, until)
        except Exception as error:   # the store out of reach: the leases lapse, another process takes over
            self.warn(f"ginnyo: the leases could not be renewed ({type(error).__name__}: {error})")
            return
        with self._lock:
            self._held = {game: until for game in kept}

    def start(self, tick: Callable[[], None]) -> None:
        def renewing() -> None:
            while not self._stopping.wait(self.renew_every):
                self.renew()
                try:
                    tick()
                except Exception as error:   # pragma: no cover - a tick that fails is told, and the next one runs
                    self.warn(f"ginnyo: taking over lapsed work failed: {type(error).__name__}: {error}")

        self._renewing = threading.Thread(target=renewing, name="ginnyo-leases", daemon=True)
        self._renewing.start()

    def close(self) -> None:
        self._stopping.set()


__all__ = ["Leases", "LocalLeases", "SharedLeases", "LEASE_SECONDS", "RENEW_SECONDS", "process_name"]
