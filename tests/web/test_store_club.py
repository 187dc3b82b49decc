"""The store's seeks and ratings, on SQLite and on PostgreSQL (tests/web/services.py): a seek made,
joined until full (never past it, never twice by one account), withdrawn by its maker alone, started
with its accounts seated; a game rated once, its changes in each player's history, the leaderboard
best first."""

from __future__ import annotations

import time

import pytest

from ginnyo.errors import NotYourSeek, SeekClosed, UnknownSeek
from ginnyo.web.store import GameRow
from ginnyo.web.store.club import OPEN, SeekRow
from services import open_store, postgresql, postgresql_database, redis, store_url  # noqa: F401

HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"


def seek_of(maker: int, players: int = 2, bots: tuple[str, ...] = ()) -> SeekRow:
    return SeekRow("seek1", maker, "ginnyo", players, (300.0, 2.0), True, bots, (maker,), OPEN, None, time.time())


def test_a_seek_is_joined_until_full_and_started(store_url: str) -> None:
    store = open_store(store_url)
    try:
        ann, bob, cid = (store.create_account(name, name.lower(), HASH).id for name in ("Ann", "Bob", "Cid"))
        made = store.create_seek(seek_of(ann, 3, ("level2",)))
        assert made.names == ("Ann",) and not made.full and store.open_seeks(10) == [made]
        with pytest.raises(SeekClosed):
            store.join_seek("seek1", ann)
        with pytest.raises(UnknownSeek):
            store.join_seek("nope", bob)
        joined = store.join_seek("seek1", bob)
        assert joined.full and joined.names == ("Ann", "Bob")
        with pytest.raises(SeekClosed):
            store.join_seek("seek1", cid)
        store.create_game(GameRow("g1", ("human", "human", "level2"), ("Ann", "Bob", "level2"), 1, 1.0, "playing",
                                  None, None), {})
        store.start_seek(joined, "g1", "ginnyo")
        assert store.open_seeks(10) == [] and store.started_seeks(10)[0].game == "g1"
        assert store.account_seat("g1", bob) == 1 and store.account_seat("g1", cid) is None
        assert store.seated_names("g1") == {0: "Ann", 1: "Bob"} and store.rated_kind("g1") == "ginnyo"
    finally:
        store.close()


def test_a_seek_is_withdrawn_by_its_maker_alone(store_url: str) -> None:
    store = open_store(store_url)
    try:
        ann, bob = (store.create_account(name, name.lower(), HASH).id for name in ("Ann", "Bob"))
        store.create_seek(seek_of(ann))
        with pytest.raises(NotYourSeek):
            store.cancel_seek("seek1", bob)
        store.cancel_seek("seek1", ann)
        assert store.open_seeks(10) == []
        with pytest.raises(SeekClosed):
            store.cancel_seek("seek1", ann)
    finally:
        store.close()


def test_a_game_is_rated_once_and_shows_in_the_histories_and_the_leaderboard(store_url: str) -> None:
    store = open_store(store_url)
    try:
        for game in ("g1", "g2"):
            store.create_game(GameRow(game, ("human", "human", "level3"), ("Ann", "Bob", "level3"), 1, 1.0,
                                      "finished", None, None), {})
        assert store.rate_finished_game("g1", "ginnyo", ["Ann", "Bob", "bot:level3"], [1, 2, 2])
        assert not store.rate_finished_game("g1", "ginnyo", ["Ann", "Bob", "bot:level3"], [1, 2, 2])
        assert store.standings("Ann")["ginnyo"].games == 1
        assert store.rate_finished_game("g2", "ginnyo", ["Ann", "Bob", "bot:level3"], [1, 1, 3])
        history = store.rated_games_of("Ann", 10)
        assert [game.game for game in history] == ["g2", "g1"] and [game.result for game in history] == ["drew", "won"]
        assert history[1].after > history[1].before and history[1].players == 3
        assert store.rated_games_of("bot:level3", 10)[0].result == "lost"
        board = store.leaderboard("ginnyo", 10)
        assert [name for name, _ in board][0] == "Ann" and board[-1][0] == "bot:level3"
        assert all(first.rating >= second.rating for (_, first), (_, second) in zip(board, board[1:]))
        assert store.leaderboard("crazy", 10) == [] and len(store.leaderboard("ginnyo", 1)) == 1
    finally:
        store.close()
