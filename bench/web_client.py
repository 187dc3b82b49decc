"""A light HTTP client for the web benchmarks: one keep-alive HTTP/1.1 connection of the standard
library, a request costing the client about a quarter of httpx's CPU time (time the 2 cores would
otherwise take from the server being measured)."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from typing import Any


class Connection:
    """One keep-alive HTTP/1.1 connection to the server at ``url``."""

    def __init__(self, url: str, timeout: float = 60) -> None:
        parts = urllib.parse.urlsplit(url)
        self.http = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)

    def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
        """The answer's status and JSON to a request (``body``, sent as JSON; ``token``, the seat's)."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.http.request(method, path, body=data, headers=headers)
        answer = self.http.getresponse()
        return answer.status, json.loads(answer.read())

    def close(self) -> None:
        self.http.close()
