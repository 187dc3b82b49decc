"""A rated game whose end was stored but whose rating was not (its process stopped in between) is rated at
the next start, and once however many starts follow, on SQLite and PostgreSQL; two processes starting at
once on PostgreSQL rate it once (docs/CLUB.md, "Ratings")."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.applications import Starlette

from services import open_store, postgresql, store_url   # noqa: F401 (fixtures)
from ginnyo.web.http.accounts import SESSION_COOKIE
from ginnyo.commands.serve import web_app
from ginnyo.web.http.club import Rater
from ginnyo.web.live.table import SeatTable
from web_helpers import LOCAL, WAIT_SECONDS, TestClient, bearer

OURS = {"Origin": f"http://{LOCAL}"}
BOT_SEEK = {"game": "ginnyo", "players": 2, "rated": True, "bots": ["level1"]}


def app_of(store_url: str, data: Path) -> Starlette:
    """The web app of the store at ``store_url`` (a data directory, or a PostgreSQL database)."""
    open_store(store_url).close()   # made, at the current schema
    app: Starlette = web_app(data, database=store_url) if store_url.startswith("postgresql://") else web_app(store_url)
    return app


def ended_unrated(store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A rated game (Ann against the bot level1) whose end is stored and whose rating is not: the process
    stops between the two (its rater never hears of the end)."""
    def stopped(self: Rater, table: SeatTable) -> None:
        pass

    with monkeypatch.context() as patched:
        patched.setattr(Rater, "heard", stopped)
        with TestClient(app_of(store_url, tmp_path)) as client:
            made = client.post("/api/accounts", json={"name": "Ann", "password": "correct horse battery"},
                               headers=OURS)
            assert made.status_code == 201, made.text
            client.cookies.set(SESSION_COOKIE, made.cookies[SESSION_COOKIE])
            seat = client.post("/api/seeks", json=BOT_SEEK, headers=OURS).json()["seat"]
            resigned = client.post(f"/api/games/{seat['id']}/resign", headers=bearer(seat["token"]))
            assert resigned.status_code == 200 and resigned.json()["finished"], resigned.text
    return str(seat["id"])


def ann(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/players/Ann")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def rated(client: TestClient) -> dict[str, Any]:
    """Ann's answer once her game is rated (in the rater's thread, after the start)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not (found := ann(client))["games"]:
        assert time.monotonic() < deadline, f"the game was not rated within {WAIT_SECONDS} s of the start"
        time.sleep(0.02)
    return found


def test_a_rated_game_ended_while_its_process_stopped_is_rated_at_the_next_start_once(
        store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = ended_unrated(store_url, tmp_path, monkeypatch)
    store = open_store(store_url)
    assert store.unrated_games(10) == [game] and store.standings("Ann") == {}
    store.close()
    with TestClient(app_of(store_url, tmp_path)) as client:
        after = rated(client)
    assert [entry["id"] for entry in after["games"]] == [game] and after["ratings"]["ginnyo"]["games"] == 1
    with TestClient(app_of(store_url, tmp_path)) as client:   # a start after: nothing left to rate
        pass
    with TestClient(app_of(store_url, tmp_path)) as client:
        again = ann(client)
        bot = client.get("/api/players/bot:level1").json()
    assert again["games"] == after["games"] and again["ratings"] == after["ratings"]
    assert bot["ratings"]["ginnyo"]["games"] == 1 and [entry["id"] for entry in bot["games"]] == [game]
    store = open_store(store_url)
    assert store.unrated_games(10) == []
    store.close()


@contextlib.contextmanager
def started_at_once(apps: list[Starlette]) -> Iterator[list[TestClient]]:
    """The apps' clients, their starts (each rating what it finds unrated) run in threads at once."""
    clients = [TestClient(app) for app in apps]
    at_once = threading.Barrier(len(clients))
    errors: list[BaseException] = []

    def enter(client: TestClient) -> None:
        try:
            at_once.wait(WAIT_SECONDS)
            client.__enter__()
        except BaseException as error:   # told below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=enter, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_SECONDS)
    try:
        assert not errors, errors
        yield clients
    finally:
        for client in clients:
            client.__exit__(None, None, None)


def test_two_processes_starting_at_once_on_postgresql_rate_the_game_once(
        postgresql: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from services import new_database
    url = new_database(postgresql)
    game = ended_unrated(url, tmp_path, monkeypatch)
    warnings: list[str] = []
    apps = [web_app(tmp_path / f"process{n}", warn=warnings.append, database=url) for n in (1, 2)]
    with started_at_once(apps) as clients:
        rated(clients[0])
    store = open_store(url)   # both stopped: each one's rater has done all it found
    assert store.unrated_games(10) == [] and store.standings("Ann")["ginnyo"].games == 1
    assert [entry.game for entry in store.rated_games_of("bot:level1", 10)] == [game]
    store.close()
    assert not [line for line in warnings if "not rated" in line], warnings


def test_an_aborted_rated_game_is_never_listed_to_rate(store_url: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An aborted game has no result: the start's recovery does not find it again at every start (a
    club's many aborted games would fill its batch and hide a game left unrated)."""
    with monkeypatch.context() as patched:
        patched.setattr(Rater, "heard", lambda self, table: None)
        with TestClient(app_of(store_url, tmp_path)) as client:
            made = client.post("/api/accounts", json={"name": "Ann", "password": "correct horse battery"},
                               headers=OURS)
            client.cookies.set(SESSION_COOKIE, made.cookies[SESSION_COOKIE])
            seat = client.post("/api/seeks", json=BOT_SEEK, headers=OURS).json()["seat"]
            aborted = client.post(f"/api/games/{seat['id']}/abort", headers=bearer(seat["token"]))
            assert aborted.status_code == 200 and aborted.json()["finished"], aborted.text
    store = open_store(store_url)
    try:
        assert store.unrated_games(10) == []
    finally:
        store.close()
