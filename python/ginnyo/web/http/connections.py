"""The HTTP connections of ``ginnyo serve`` bounded in time and number (docs/WEB.md, "Limits").

uvicorn's h11 protocol times only the wait between two requests (``timeout_keep_alive``, armed
when an answer is complete and disarmed by any byte that comes): a connection that sends nothing
at all, or half a request's headers, or a body that stalls, would hold its file descriptor for
ever.  Here each request must have come whole (headers and body) within ``request_seconds`` of the
connection's opening or of the previous answer, else the connection is closed; a request already
whole (its answer being made, an event stream) is never cut.  A connection past uvicorn's
``limit_concurrency`` is closed as it opens, so that its descriptor is given back at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import REQUEST_SECONDS


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for every request to come whole."""

    request_seconds = REQUEST_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.limit_concurrency is not None and len(self.connections) > self.limit_concurrency:
            transport.close()
            return
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.request_seconds, self._deadline_passed)

    def _deadline_passed(self) -> None:
        """Close the connection unless the request since the deadline was armed came whole
        (or the connection became a websocket, which has its own pings)."""
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or cycle.more_body:
            self.transport.close()


def deadline_protocol(request_seconds: float) -> type[DeadlineProtocol]:
    """The protocol class (uvicorn's ``http``) whose requests must come whole within ``request_seconds``."""
    return type("DeadlineProtocol", (DeadlineProtocol,), {"request_seconds": request_seconds})


__all__ = ["DeadlineProtocol", "deadline_protocol", "REQUEST_SECONDS"]
