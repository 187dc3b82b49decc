"""The OpenAPI document of ``ginnyo serve`` (web/http/openapi.py) describes the whole API: every route
under /api/ with its path parameters, the bodies of its POSTs, its answers and refusals, the seat's
token only where one is needed, and the Allow header of a 405 (which the server sends)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.routing import Route

from ginnyo.web.http.api_schemas import seat_view
from ginnyo.web.http.openapi import OPERATIONS
from web_helpers import TestClient, bearer, client_of

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as made:
        yield made


@pytest.fixture
def document(client: TestClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/api/openapi.json").json()
    return answer


def _api_routes(client: TestClient) -> list[tuple[str, str]]:
    return [(method.lower(), route.path) for route in client.app.routes   # type: ignore[attr-defined]
            if isinstance(route, Route) and route.path.startswith("/api/")
            for method in sorted((route.methods or {"GET"}) - {"HEAD"})]


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield method, path, item[method]


def test_every_api_route_is_in_the_document_and_described(client: TestClient, document: dict[str, Any]) -> None:
    routes = _api_routes(client)
    assert sorted(routes) == sorted((method, path) for method, path, _ in _operations(document))
    assert sorted(routes) == sorted(OPERATIONS)   # each described, and nothing described that is not served
    for method, path, operation in _operations(document):
        assert operation["summary"] and operation["summary"] != path, (method, path)


def test_a_path_is_one_route_so_that_a_405_names_all_its_methods_in_allow(client: TestClient) -> None:
    paths = [route.path for route in client.app.routes   # type: ignore[attr-defined]
             if isinstance(route, Route) and route.path.startswith("/api/")]
    assert sorted(path for path in set(paths) if paths.count(path) > 1) == []


def test_each_path_parameter_is_declared(document: dict[str, Any]) -> None:
    for method, path, operation in _operations(document):
        declared = {(parameter["name"], parameter["in"], parameter["required"])
                    for parameter in operation.get("parameters", [])}
        assert declared == {(name, "path", True) for name in re.findall(r"{(\w+)}", path)}, (method, path)


def test_every_post_has_its_body_and_json_is_the_only_content_type_of_a_json_body(document: dict[str, Any]) -> None:
    for method, path, operation in _operations(document):
        if method != "post" or path.endswith("/stop"):   # stopping a job reads no body
            continue
        content = operation["requestBody"]["content"]
        expected = {"text/plain"} if path == "/api/review" else {"application/json"}
        assert set(content) == expected, (path, set(content))
        assert content[min(expected)]["schema"], path


def test_a_body_whose_unknown_fields_are_refused_says_so(document: dict[str, Any]) -> None:
    made = document["paths"]["/api/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert made["oneOf"] and all(branch["additionalProperties"] is False for branch in made["oneOf"])
    for path in ("/api/games/{game_id}/actions", "/api/analysis", "/api/analysis/simulations"):
        schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert schema["additionalProperties"] is False, path


def test_every_answer_and_refusal_has_its_schema(document: dict[str, Any]) -> None:
    for method, path, operation in _operations(document):
        responses = operation["responses"]
        successes = [status for status in responses if status.startswith("2")]
        assert len(successes) == 1, (method, path)
        if successes[0] != "204":   # no content
            assert all(media["schema"] for media in responses[successes[0]]["content"].values()), (method, path)
        assert responses["default"] == {"$ref": "#/components/responses/Refusal"}
        for status in ("421", "429"):
            assert responses[status]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Refusal"}, (method, path, status)
        assert "Retry-After" in responses["429"]["headers"]
    assert document["components"]["schemas"]["Refusal"]["required"] == ["error"]


WATCHERS: dict[tuple[str, str], dict[str, list[str]]] = {
    ("get", "/api/games/{game_id}"): {}, ("get", "/api/games/{game_id}/chat"): {},
    ("post", "/api/games/{game_id}/chat"): {"session": []}}


def test_the_seat_token_is_asked_for_only_by_the_game_endpoints(document: dict[str, Any]) -> None:
    """... and the session cookie only by who is signed in; a 401 only where one of them, or a
    password, is asked for (docs/CLUB.md)."""
    for method, path, operation in _operations(document):
        game = path.startswith("/api/games/{game_id}")
        session = (method, path) == ("get", "/api/me") or (path.startswith("/api/seeks") and method != "get")
        expected: list[dict[str, list[str]]] | None = [{"seat": []}] if game else [{"session": []}] if session else None
        if (method, path) in WATCHERS:   # a watcher's request: no credential, or a signed-in watcher's session
            expected = [{"seat": []}, WATCHERS[method, path]]
        assert operation.get("security") == expected, (method, path)
        asks = game or session or (method, path) == ("post", "/api/session")
        assert ("401" in operation["responses"]) == asks, (method, path)


def test_a_made_game_links_to_the_game_endpoints(document: dict[str, Any]) -> None:
    links = document["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    game_operations = {operation["operationId"] for method, path, operation in _operations(document)
                       if path.startswith("/api/games/{game_id}")}
    assert set(links) == game_operations
    assert all(link["parameters"]["game_id"] == "$response.body#/id" for link in links.values())


def test_a_method_a_path_does_not_take_is_a_405_with_allow(client: TestClient, document: dict[str, Any]) -> None:
    answer = client.delete("/api/games")
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    assert answer.json() == {"error": "Method Not Allowed", "code": "method-not-allowed", "args": {}}
    assert set(client.put("/api/health").headers["allow"].split(", ")) == {"GET", "HEAD"}
    described = document["components"]["responses"]["MethodNotAllowed"]
    assert described["headers"]["Allow"]["required"] is True


def test_every_field_of_each_kinds_view_is_in_the_documents_view(client: TestClient) -> None:
    """A seat's and a watcher's view of each game kind, in play and finished: each field is documented in
    the kind's branch of the view's schema, and the fields it requires are there."""
    branches = {branch["title"]: branch for branch in seat_view()["anyOf"]}
    for kind, body in (("Ginny-O", {"seats": ["human", "human"]}),
                       ("Crazy Rummy", {"game": "crazy", "seats": ["human", "human", "human"]})):
        made = client.post("/api/games", json={**body, "seed": 4, "watchable": True}).json()
        token = made["seats"][0]["token"]
        views = [client.get(f"/api/games/{made['id']}", headers=bearer(token)).json(),
                 client.get(f"/api/games/{made['id']}").json()]
        assert client.post(f"/api/games/{made['id']}/resign", json={}, headers=bearer(token)).status_code == 200
        views.append(client.get(f"/api/games/{made['id']}", headers=bearer(token)).json())
        schema = branches[kind]
        for view in views:
            assert set(view) <= set(schema["properties"]), (kind, set(view) - set(schema["properties"]))
            assert set(schema["required"]) <= set(view), (kind, set(schema["required"]) - set(view))
