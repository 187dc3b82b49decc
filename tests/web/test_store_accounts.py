"""The store's accounts and sessions, on SQLite and on PostgreSQL (a throw-away server,
tests/web/services.py): an account made once a name key, read back after reopening; sessions made,
read with their account until they expire, moved on, replaced and deleted."""

from __future__ import annotations

from ginnyo.errors import NameTaken
from ginnyo.web.store import Store
from services import open_store, postgresql, postgresql_database, redis, store_url  # noqa: F401

import pytest

HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"


def test_an_account_is_read_back_by_its_name_key_after_reopening(store_url: str) -> None:
    store = open_store(store_url)
    made = store.create_account("Ann", "ann", HASH)
    store.close()
    store = open_store(store_url)
    try:
        found = store.account("ann")
        assert found == made and found is not None and found.name == "Ann" and found.password_hash == HASH
        assert store.account("bob") is None
    finally:
        store.close()


def test_a_name_key_is_taken_once(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create_account("Ann", "ann", HASH)
        with pytest.raises(NameTaken):
            store.create_account("ANN", "ann", HASH)
        assert store.create_account("Bob", "bob", HASH).id != store.account("ann").id   # type: ignore[union-attr]
    finally:
        store.close()


def test_a_password_hash_is_replaced(store_url: str) -> None:
    store = open_store(store_url)
    try:
        account = store.create_account("Ann", "ann", HASH)
        store.set_password_hash(account.id, HASH + "2")
        assert store.account("ann").password_hash == HASH + "2"   # type: ignore[union-attr]
    finally:
        store.close()


def test_a_session_is_read_until_it_expires_and_is_gone_once_deleted_or_replaced(store_url: str) -> None:
    store = open_store(store_url)
    try:
        account = store.create_account("Ann", "ann", HASH)
        store.create_session("s1", account.id, expires=1000.0)
        found = store.session("s1", now=999.0)
        assert found is not None and found[0] == account and found[1] == 1000.0
        assert store.session("s1", now=1000.0) is None   # expired
        store.extend_session("s1", 2000.0)
        assert store.session("s1", now=1500.0) is not None
        store.create_session("s2", account.id, expires=2000.0, replaces="s1")
        assert store.session("s1", now=0.0) is None and store.session("s2", now=0.0) is not None
        store.create_session("s3", account.id, expires=10.0)
        store.delete_session("s2", now=100.0)   # and the expired s3
        assert store.session("s2", now=0.0) is None and store.session("s3", now=0.0) is None
    finally:
        store.close()


def test_a_postgresql_database_with_the_accounts_tables_is_ours(store_url: str) -> None:
    store = open_store(store_url)
    store.create_account("Ann", "ann", HASH)
    store.close()
    reopened = Store(database=store_url) if store_url.startswith("postgresql://") else Store(store_url)
    reopened.close()
