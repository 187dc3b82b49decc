"""The club's accounts from the outside (docs/CLUB.md, "Accounts"): sign up, in and out, the session
cookie and its rotation, the names' rules, the throttle on failed sign-ins, cookie writes only from
this server's pages, no password in the database, the pages in each language."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette import testclient

from ginnyo.accounts.throttle import ADDRESS_FAILURES, NAME_FAILURES
from ginnyo.web.http.accounts import SESSION_COOKIE
from ginnyo.commands.serve import web_app
from ginnyo.web.http.i18n import LANGUAGES, localise
from ginnyo.web.store import DATABASE_NAME
from web_helpers import LOCAL, TestClient

OURS = {"Origin": f"http://{LOCAL}"}
PASSWORD = "correct horse battery"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(web_app(tmp_path), raise_server_exceptions=True) as made:
        yield made


def sign_up(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> Any:
    return client.post("/api/accounts", json={"name": name, "password": password}, headers=OURS)


def sign_in(client: TestClient, name: str = "Ann", password: str = PASSWORD, **headers: str) -> Any:
    return client.post("/api/session", json={"name": name, "password": password}, headers={**OURS, **headers})


def test_sign_up_signs_in_and_sign_out_signs_out(client: TestClient) -> None:
    made = sign_up(client)
    assert made.status_code == 201 and made.json()["name"] == "Ann"
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "Ann" and me.json()["created"] > 0
    assert client.delete("/api/session", headers=OURS).status_code == 204
    assert SESSION_COOKIE not in client.cookies
    assert client.get("/api/me").status_code == 401


def test_the_session_row_is_deleted_at_sign_out(client: TestClient) -> None:
    sign_up(client)
    token = client.cookies[SESSION_COOKIE]
    client.delete("/api/session", headers=OURS)
    client.cookies.set(SESSION_COOKIE, token)   # the old cookie, kept by a thief
    assert client.get("/api/me").status_code == 401


def test_a_wrong_password_and_an_unknown_name_are_refused_in_the_same_words(client: TestClient) -> None:
    sign_up(client)
    client.cookies.clear()
    wrong_password, wrong_name = sign_in(client, password="not the password"), sign_in(client, name="Bob")
    assert wrong_password.status_code == wrong_name.status_code == 401
    assert wrong_password.json() == wrong_name.json()
    assert client.get("/api/me").status_code == 401


def test_each_sign_in_makes_a_new_session_and_ends_the_old_one(client: TestClient) -> None:
    sign_up(client)
    first = client.cookies[SESSION_COOKIE]
    signed = sign_in(client, name="ANN")   # any case
    assert signed.status_code == 200 and signed.json()["name"] == "Ann"
    second = client.cookies[SESSION_COOKIE]
    assert second != first
    assert client.get("/api/me").status_code == 200
    client.cookies.set(SESSION_COOKIE, first)
    assert client.get("/api/me").status_code == 401


def test_names_are_unique_without_regard_to_case(client: TestClient) -> None:
    assert sign_up(client, "Ann").status_code == 201
    taken = sign_up(client, "ann")
    assert taken.status_code == 409 and "'name'" in taken.json()["error"]


@pytest.mark.parametrize("name, rule", [
    ("ab", "3 to 20"), ("a" * 21, "3 to 20"), ("Ann Lee", "letters"), ("Ännchen", "letters"), ("аnn", "letters"),
    ("ann@home", "letters"), (7, "string"),
])
def test_a_name_that_breaks_a_rule_is_refused_naming_it(client: TestClient, name: object, rule: str) -> None:
    refused = client.post("/api/accounts", json={"name": name, "password": PASSWORD}, headers=OURS)
    assert refused.status_code == 400 and "'name'" in refused.json()["error"] and rule in refused.json()["error"]


@pytest.mark.parametrize("password, rule", [("seven77", "at least 8"), ("x" * 257, "at most 256"), (None, "string")])
def test_a_password_too_short_or_too_long_is_refused(client: TestClient, password: object, rule: str) -> None:
    refused = client.post("/api/accounts", json={"name": "Ann", "password": password}, headers=OURS)
    assert refused.status_code == 400 and "'password'" in refused.json()["error"] and rule in refused.json()["error"]
    assert "\n" not in refused.json()["error"]


def test_the_session_cookie_is_http_only_same_site_lax_for_the_whole_site(client: TestClient) -> None:
    cookie = sign_up(client).headers["set-cookie"]
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "samesite"} <= attributes and "secure" not in attributes
    assert "SameSite=lax" in cookie or "SameSite=Lax" in cookie
    assert "Path=/;" in cookie + ";"


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    with testclient.TestClient(web_app(tmp_path), base_url=f"https://{LOCAL}") as client:
        cookie = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD},
                             headers={"Origin": f"https://{LOCAL}"}).headers["set-cookie"]
    assert "secure" in {part.strip().lower() for part in cookie.split(";")}


def test_failed_sign_ins_of_a_name_are_throttled(client: TestClient) -> None:
    sign_up(client)
    for _ in range(NAME_FAILURES):
        assert sign_in(client, password="not the password").status_code == 401
    throttled = sign_in(client)   # the right password, too late
    assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) > 0
    assert "name" in throttled.json()["error"]
    assert sign_up(client, "Bob").status_code == 201   # another name, from the same address, is not throttled


def test_failed_sign_ins_from_an_address_are_throttled_whatever_the_name(client: TestClient) -> None:
    sign_up(client)
    for tried in range(ADDRESS_FAILURES):
        assert sign_in(client, name=f"nobody{tried}").status_code == 401
    throttled = sign_in(client)
    assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) > 0
    assert "address" in throttled.json()["error"]


def test_a_cookie_write_from_another_site_or_with_no_origin_is_refused(client: TestClient) -> None:
    sign_up(client)
    foreign = client.delete("/api/session", headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    missing = client.delete("/api/session")
    assert missing.status_code == 403 and "Origin" in missing.json()["error"]
    assert client.get("/api/me").status_code == 200   # still signed in


def test_no_password_is_in_the_database_only_its_argon2id_hash(client: TestClient, tmp_path: Path) -> None:
    password = "zebra-quokka-7219-distinctive"
    assert sign_up(client, "Ann", password).status_code == 201
    assert sign_in(client, "Ann", password).status_code == 200
    stored = b"".join(path.read_bytes() for path in tmp_path.glob(DATABASE_NAME + "*"))
    assert password.encode() not in stored
    assert b"$argon2id$" in stored
    assert client.cookies[SESSION_COOKIE].encode() not in stored


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("page", ["signup", "signin"])
def test_the_pages_are_in_each_language(client: TestClient, page: str, language: str) -> None:
    shown = client.get(f"/{page}?lang={language}")
    assert shown.status_code == 200
    assert f'<html lang="{language}">' in shown.text
    assert "{{msg" not in shown.text
    assert localise("{{msg account.password}}", language) in shown.text
    assert 'autocomplete="username"' in shown.text


def test_the_lobby_links_to_the_pages(client: TestClient) -> None:
    lobby = client.get("/").text
    assert 'href="/signin"' in lobby and 'href="/signup"' in lobby and 'id="sign-out"' in lobby


def test_accounts_made_from_one_address_are_rate_limited(client: TestClient) -> None:
    from ginnyo.web.http.limits import ACCOUNTS_PER_MINUTE
    for number in range(ACCOUNTS_PER_MINUTE):
        assert sign_up(client, f"player{number}").status_code == 201
    refused = sign_up(client, "onemore")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "new accounts" in refused.json()["error"]
