"""The store's contract, on both of its backends (issue 43): SQLite (a data directory) and PostgreSQL
(a throw-away server, tests/web/services.py).  Games and their tokens, actions in order, a move n
stored once (MoveAlreadyStored for the second, from another store on the same database too), finished
games, last activity, and all of it read back by a store opened afresh."""

from __future__ import annotations

import threading

import psycopg
import pytest

from ginnyo.errors import MoveAlreadyStored, StoreRefused
from ginnyo.web.store import SCHEMA_VERSION, GameRow, Store
from services import open_store, postgresql, postgresql_database, redis, store_url  # noqa: F401


def row(game_id: str, status: str = "playing", rematch_of: str | None = None, game: str = "ginny-o") -> GameRow:
    return GameRow(game_id, ("human", "greedy"), ("Ann", "Bot"), 2 ** 63 - 1, 0.5, status, rematch_of, None, game)


def test_a_game_and_its_tokens_are_read_back(store_url: str) -> None:
    store = open_store(store_url)
    store.create_game(row("one"), {0: "a" * 64})
    store.create_game(row("two", game="crazy"), {0: "b" * 64, 1: "c" * 64})
    store.add_token("d" * 64, "two", 1)
    store.add_token("d" * 64, "two", 1)   # once
    store.close()
    store = open_store(store_url)   # afresh: everything was committed
    try:
        assert store.game("one") == row("one")
        assert store.game("two") == row("two", game="crazy")
        assert store.game("three") is None
        assert [game.id for game in store.games()] == ["one", "two"]   # oldest first
        assert sorted(store.tokens()) == [("a" * 64, "one", 0), ("b" * 64, "two", 0), ("c" * 64, "two", 1),
                                          ("d" * 64, "two", 1)]
        assert store.tokens("one") == [("a" * 64, "one", 0)]
    finally:
        store.close()


def test_a_rematch_marks_the_game_it_is_the_rematch_of(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create_game(row("first", status="finished"), {})
        store.create_game(row("second", rematch_of="first"), {})
        first = store.game("first")
        assert first is not None and first.rematch == "second"
        assert [game.id for game in store.games("playing")] == ["second"]
        assert [game.id for game in store.games("finished")] == ["first"]
    finally:
        store.close()


def test_actions_are_read_in_order_and_the_last_one_finishes_the_game(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create_game(row("g"), {})
        for number in range(1, 12):
            store.append_action("g", number, f"move {number}", finished=number == 11)
        assert store.actions("g") == [f"move {number}" for number in range(1, 12)]
        assert store.actions("other") == []
        game = store.game("g")
        assert game is not None and game.status == "finished"
        assert store.games("playing") == []
    finally:
        store.close()


def test_a_move_stored_twice_is_stale_and_changes_nothing(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create_game(row("g"), {})
        store.append_action("g", 1, "first", False)
        with pytest.raises(MoveAlreadyStored, match="move 1 is stored already"):
            store.append_action("g", 1, "again", True)
        assert store.actions("g") == ["first"]
        game = store.game("g")
        assert game is not None and game.status == "playing"   # the second store's end rolled back
        store.append_action("g", 2, "second", False)   # the store goes on
        assert store.actions("g") == ["first", "second"]
    finally:
        store.close()


def test_last_activity_is_the_last_action_else_the_game(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create_game(row("quiet"), {})
        store.create_game(row("busy"), {})
        store.create_game(row("done", status="finished"), {})
        made = store.last_activity()
        store.append_action("busy", 1, "a move", False)
        later = store.last_activity()
        assert set(made) == set(later) == {"quiet", "busy"}
        assert later["quiet"] == made["quiet"] and later["busy"] >= made["busy"]
        assert later["busy"] >= later["quiet"]
        assert set(store.last_activity("finished")) == {"done"}
    finally:
        store.close()


def test_two_stores_on_one_postgresql_database_never_both_store_move_n(postgresql_database: str) -> None:
    stores = [Store(database=postgresql_database, migrate=True), Store(database=postgresql_database)]
    stores[0].create_game(row("g"), {})
    outcomes: list[str] = []
    start = threading.Barrier(len(stores))

    def apply(store: Store, text: str) -> None:
        start.wait()
        try:
            store.append_action("g", 1, text, False)
            outcomes.append(text)
        except MoveAlreadyStored:
            outcomes.append("stale")

    threads = [threading.Thread(target=apply, args=(store, f"by {number}")) for number, store in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert sorted(outcomes)[1] == "stale" and outcomes.count("stale") == 1
        assert stores[1].actions("g") == [text for text in outcomes if text != "stale"]
    finally:
        for store in stores:
            store.close()


def test_a_postgresql_database_behind_is_refused_until_migrated(postgresql_database: str) -> None:
    with pytest.raises(StoreRefused, match=f"schema version 0, this ginnyo needs {SCHEMA_VERSION}: run ginnyo db"
                                           " migrate"):
        Store(database=postgresql_database)
    with psycopg.connect(postgresql_database) as connection:   # nothing was made
        assert connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)
    Store(database=postgresql_database, migrate=True).close()
    Store(database=postgresql_database).close()


def test_a_postgresql_database_of_another_program_is_refused_untouched(postgresql_database: str) -> None:
    with psycopg.connect(postgresql_database) as connection:
        connection.execute("CREATE TABLE notes (id integer PRIMARY KEY, body text)")
    with pytest.raises(StoreRefused, match="is not ginnyo's games database \\(its tables: notes\\)"):
        Store(database=postgresql_database, migrate=True)
    with psycopg.connect(postgresql_database) as connection:
        tables = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    assert tables == [("notes",)]


@pytest.mark.parametrize("url", ["mysql://me@host/db", "postgresql://me@host", "not a url"])
def test_a_database_url_that_is_not_postgresqls_is_refused(url: str) -> None:
    with pytest.raises(StoreRefused, match="postgresql://USER@HOST:PORT/DB"):
        Store(database=url)


def test_the_redis_of_the_tests_answers(redis: str) -> None:
    import redis as client
    connection = client.Redis.from_url(redis)
    try:
        assert connection.ping()
        connection.set("ginnyo", "table")
        assert connection.get("ginnyo") == b"table"
    finally:
        connection.close()
