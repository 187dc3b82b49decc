"""The throttle on failed sign-ins: at most :data:`NAME_FAILURES` failures a name and
:data:`ADDRESS_FAILURES` an address in :data:`WINDOW_SECONDS` (15 minutes); past that, each further
try is refused (the password not even checked) until the oldest failure of the window is older than
the window.  A name's failures are forgotten at its first good sign-in; an address's are not (one
address trying many names is what the second limit is for).

The counts are kept in memory, in each server process, for at most :data:`MAX_KEYS` names and as
many addresses (the least recently failed forgotten first): a bound on the memory, not on a patient
attacker with many processes' worth of restarts."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from typing import Callable

from ..errors import SignInThrottled

NAME_FAILURES = 5
ADDRESS_FAILURES = 20
WINDOW_SECONDS = 15 * 60.0
MAX_KEYS = 10_000


class FailureWindow:
    """The failures of each key within the last ``window`` seconds, at most ``limit`` counted."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        failures = self._failures.get(key)
        if failures is None:
            return 0.0
        now = self.clock()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[key]
            return 0.0
        return failures[0] + self.window - now if len(failures) >= self.limit else 0.0

    def fail(self, key: str) -> None:
        failures = self._failures.pop(key, None) or deque(maxlen=self.limit)
        failures.append(self.clock())
        self._failures[key] = failures   # the last failed last
        while len(self._failures) > MAX_KEYS:
            self._failures.popitem(last=False)

    def forget(self, key: str) -> None:
        self._failures.pop(key, None)


class SignInThrottle:
    """Failed sign-ins counted by name (its key) and by client address."""

    def __init__(self, name_failures: int = NAME_FAILURES, address_failures: int = ADDRESS_FAILURES,
                 window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.names = FailureWindow(name_failures, window, clock)
        self.addresses = FailureWindow(address_failures, window, clock)
        self._lock = threading.Lock()

    def check(self, key: str, address: str) -> None:
        """SignInThrottled when the name ``key`` or ``address`` has failed too often of late."""
        with self._lock:
            by_name, by_address = self.names.wait(key), self.addresses.wait(address)
        if by_address > 0:
            raise SignInThrottled(f"too many failed sign-ins from this address: try again in "
                                  f"{math.ceil(by_address)} s", math.ceil(by_address))
        if by_name > 0:
            raise SignInThrottled(f"too many failed sign-ins of this name: try again in {math.ceil(by_name)} s",
                                  math.ceil(by_name))

    def check_address(self, address: str) -> None:
        """SignInThrottled when ``address`` has failed too often of late (a sign-up's check)."""
        with self._lock:
            by_address = self.addresses.wait(address)
        if by_address > 0:
            raise SignInThrottled(f"too many failed sign-ins from this address: try again in "
                                  f"{math.ceil(by_address)} s", math.ceil(by_address))

    def failed(self, key: str, address: str) -> None:
        with self._lock:
            self.names.fail(key)
            self.addresses.fail(address)

    def succeeded(self, key: str) -> None:
        with self._lock:
            self.names.forget(key)


__all__ = ["SignInThrottle", "NAME_FAILURES", "ADDRESS_FAILURES", "WINDOW_SECONDS"]
