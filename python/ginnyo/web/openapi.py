"""The web API as an OpenAPI 3 document, made from the routes themselves (their paths, methods
and docstrings); docs/WEB.md holds the bodies and answers in full."""

from __future__ import annotations

import inspect
from typing import Any, Sequence

from starlette.routing import BaseRoute, Route, WebSocketRoute

from ginnyo import __version__

#: The API paths anyone may call; every other one needs a seat's token.
OPEN_PATHS = ("/api/health", "/api/openapi.json", "/api/games")
CREATED = ("/api/games", "/api/games/{game_id}/rematch")
REFUSAL = {"description": 'a refusal, 4xx: {"error": "one line"} (docs/WEB.md lists the statuses)',
           "content": {"application/json": {"schema": {"type": "object", "properties": {"error": {"type": "string"}},
                                                        "required": ["error"]}}}}


def openapi_document(routes: Sequence[BaseRoute]) -> dict[str, Any]:
    """The document for ``routes`` (those under ``/api/``)."""
    paths: dict[str, Any] = {}
    sockets = []
    for route in routes:
        if isinstance(route, WebSocketRoute) and route.path.startswith("/api/"):
            sockets.append(route.path)
        if not isinstance(route, Route) or not route.path.startswith("/api/"):
            continue
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            paths.setdefault(route.path, {})[method.lower()] = _operation(route)
    description = ("The API of ginnyo serve: docs/WEB.md. Live views: the websocket "
                   + ", ".join(sockets) + ', the seat\'s token in its first message, {"type": "auth", "token": TOKEN}.')
    return {"openapi": "3.0.3",
            "info": {"title": "ginnyo web table", "version": __version__, "description": description},
            "paths": paths,
            "components": {"securitySchemes": {"seat": {"type": "http", "scheme": "bearer",
                                                        "description": "a seat's token"}}}}


def _operation(route: Route) -> dict[str, Any]:
    doc = inspect.getdoc(route.endpoint) or ""
    status = "201" if route.path in CREATED else "200"
    operation: dict[str, Any] = {"summary": doc.splitlines()[0] if doc else route.path,
                                 "responses": {status: {"description": "done"}, "default": REFUSAL}}
    if "{game_id}" in route.path:
        operation["parameters"] = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}]
    if route.path not in OPEN_PATHS:
        operation["security"] = [{"seat": []}]
    return operation


__all__ = ["openapi_document"]
