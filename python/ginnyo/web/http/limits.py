"""The server's limits' defaults (docs/WEB.md, "Limits"), and how often one client may make games and
start simulations: a token bucket a client address, refused with 429 and a ``Retry-After`` when empty.

A bucket holds a minute's allowance and fills again at that rate, so a burst of a minute's
worth is taken at once and then one every ``60 / per_minute`` seconds.  The buckets are kept
for at most :data:`MAX_CLIENTS` addresses (the least recently seen forgotten first), so the
limiter's own memory is bounded whatever the number of addresses.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable

from .errors import TooManyRequests

if TYPE_CHECKING:   # the defaults are read by ginnyo serve's options, before the web extra is imported
    from starlette.requests import Request

GAMES_PER_MINUTE = 60          # games (and rematches) a client may make a minute: a person makes one every few minutes
SIMULATIONS_PER_MINUTE = 30    # simulations a client may start a minute: the page starts one a click
ACCOUNTS_PER_MINUTE = 10       # accounts a client may make a minute: each costs an Argon2id hash (64 MiB a moment)
PREVIEWS_PER_MINUTE = 600      # previews (a game's, a puzzle's) a client may ask a minute: the page asks one a tile placed
ANALYSES_PER_MINUTE = 300      # analyses of a position and reviews of an uploaded record a client may ask a minute
ANSWERS_PER_MINUTE = 120       # puzzle answers a client may send a minute (each a rating stored, a guest's new one)
SEEK_JOINS_PER_MINUTE = 60     # seeks a client may join or withdraw a minute (each a store write and a lobby resent)
SIMULATIONS_PER_CLIENT = 4     # simulations one address has waiting or running at once: the rest of the server's for others
MAX_GAMES = 5000               # games in play in memory (about 19 KiB each: docs/WEB.md, "Limits")
EXPIRE_DAYS = 30.0             # a game in play untouched this long is let go from memory (rebuilt when asked for)
REQUEST_SECONDS = 20.0         # a request's headers and body (at most 64 KiB) must come within this
MAX_CLIENTS = 10_000           # client addresses whose buckets are kept

# the kinds of request limited a minute (the keys of the app's limiters)
GAMES, SIMULATIONS, ACCOUNTS = "games", "simulations", "accounts"
PREVIEWS, ANALYSES, ANSWERS = "previews", "analyses", "answers"
SEEK_JOINS = "seek-joins"


class RateLimiter:
    """``per_minute`` requests a client (0: no limit), in a bucket of a minute's worth; ``what``
    names them in the refusal."""

    def __init__(self, per_minute: int, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.what = what
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()   # client -> (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Count a request of ``client``; :class:`TooManyRequests` when its bucket is empty."""
        if self.per_minute <= 0:
            return
        rate = self.per_minute / 60.0          # tokens a second
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(client, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - then) * rate)
            taken = tokens >= 1.0
            if taken:
                tokens -= 1.0
            self._buckets[client] = (tokens, now)   # the last seen last
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)
        if not taken:
            wait = max(1, math.ceil((1.0 - tokens) / rate))
            raise TooManyRequests(f"too many {self.what} from this address (at most {self.per_minute} a minute): "
                                  f"try again in {wait} s", wait)


def limited(request: Request, kind: str) -> None:
    """Count the request against its client's allowance of ``kind`` (:data:`GAMES`, :data:`SIMULATIONS`, :data:`ACCOUNTS`,
    :data:`PREVIEWS`, :data:`ANALYSES`, :data:`ANSWERS`, :data:`SEEK_JOINS`)."""
    limiters: dict[str, RateLimiter] = getattr(request.app.state, "limiters", {})
    limiter = limiters.get(kind)
    if limiter is not None:
        limiter.take(request.client.host if request.client is not None else "")


__all__ = ["RateLimiter", "limited", "GAMES", "SIMULATIONS", "ACCOUNTS", "PREVIEWS", "ANALYSES", "ANSWERS",
           "SEEK_JOINS", "GAMES_PER_MINUTE", "SIMULATIONS_PER_MINUTE", "ACCOUNTS_PER_MINUTE", "PREVIEWS_PER_MINUTE",
           "ANALYSES_PER_MINUTE", "ANSWERS_PER_MINUTE", "SEEK_JOINS_PER_MINUTE", "SIMULATIONS_PER_CLIENT",
           "MAX_GAMES", "EXPIRE_DAYS", "REQUEST_SECONDS"]
