"""The guard in front of every route: DNS rebinding and cross-site requests refused (issue 40).

A request whose ``Host`` is not a name this server answers to is a 421: a page of ``evil.example``
whose name is made to resolve to 127.0.0.1 reaches the server with ``Host: evil.example``. A write
(POST, PUT, PATCH, DELETE) or a websocket upgrade whose ``Origin`` is another site's (``null``
included) is a 403: it comes from a page of that site, not from ours. Programs send no ``Origin``
and pass as before.
"""

from __future__ import annotations

import json
from typing import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import REFUSED_CODE, Forbidden, class_code

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}
MISDIRECTED, FORBIDDEN = 421, 403


def host_and_port(netloc: str) -> tuple[str, int | None] | None:
    """``name[:port]`` (an IPv6 address in brackets) as the lower-case name and the port (None when
    not given); None when it does not read as one."""
    if "@" in netloc or "/" in netloc or any(char.isspace() for char in netloc):
        return None
    try:
        parsed = urlsplit(f"//{netloc}")
        port = parsed.port
    except ValueError:
        return None
    name = parsed.hostname
    if not name:
        return None
    return (f"[{name}]" if ":" in name else name), port


class Guard:
    """ASGI middleware: 421 for a ``Host`` not in ``allowed_hosts`` (the loopback names on ``port``
    and each name given, with its port if it names one, else on any port); 403 for a write or a
    websocket from another ``Origin``. ``port`` None: the loopback names on any port."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = (), port: int | None = None) -> None:
        self.app = app
        self.allowed: set[tuple[str, int | None]] = {(name, port) for name in LOOPBACK_HOSTS}
        for given in allowed_hosts:
            read = host_and_port(given)
            if read is None:
                raise ValueError(f"allowed host {given!r}: not a host name or address (NAME or NAME:PORT)")
            self.allowed.add(read)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self.refusal(scope, headers)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await _close_socket(receive, send, *refusal)
        else:
            status, message = refusal
            await JSONResponse(_refusal_json(status, message), status_code=status)(scope, receive, send)

    def refusal(self, scope: Scope, headers: Headers) -> tuple[int, str] | None:
        """The status and reason to refuse the request with, or None to let it through."""
        host = headers.get("host")
        read = host_and_port(host) if host is not None else None
        if read is None or not self._allowed(*read):
            shown = json.dumps(host)[:60] if host is not None else "missing"
            return MISDIRECTED, f"header 'Host': {shown} is not a name this server answers to (see ginnyo serve --allowed-host)"
        origin = headers.get("origin")
        if origin is not None and (scope["type"] == "websocket" or scope["method"] in WRITES):
            if not _same_origin(origin, host or ""):
                return FORBIDDEN, f"header 'Origin': {json.dumps(origin)[:60]} is another site: refused"
        return None

    def _allowed(self, name: str, port: int | None) -> bool:
        return (name, None) in self.allowed or (name, port) in self.allowed


def _same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` (``scheme://name[:port]``) names the site of ``host``; ``null`` never does."""
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:
        return False
    default = DEFAULT_PORTS.get(parts.scheme)
    if default is None or parts.path or parts.query or parts.username or not parts.netloc:
        return False
    ours, theirs = host_and_port(host), host_and_port(parts.netloc)
    if ours is None or theirs is None:
        return False
    return ours[0] == theirs[0] and (ours[1] or default) == (origin_port or default)


def _refusal_json(status: int, message: str) -> dict[str, object]:
    """A guard's refusal as every other is answered: its line, its code and (no) arguments."""
    return {"error": message, "code": class_code(Forbidden) if status == FORBIDDEN else REFUSED_CODE, "args": {}}


async def _close_socket(receive: Receive, send: Send, status: int, message: str) -> None:
    """Refuse a websocket as the app refuses one: an error message, then a close with 4000 + status."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"type": "error", **_refusal_json(status, message)})})
    await send({"type": "websocket.close", "code": 4000 + status})


__all__ = ["Guard", "LOOPBACK_HOSTS", "host_and_port"]
