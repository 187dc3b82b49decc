"""The club's accounts over HTTP (docs/CLUB.md, "Accounts"): sign up, sign in and out, who is signed
in; the pages to sign up and in.  The rules are :mod:`ginnyo.accounts`'; here they are read from
requests and answered with statuses.

A session is a cookie (:data:`SESSION_COOKIE`: ``HttpOnly; SameSite=Lax; Path=/``, ``Secure`` when
the request came over https, as uvicorn reads it from a trusted proxy's ``X-Forwarded-Proto``).
:func:`signed_in` is what every handler of a signed-in player calls: with ``write=True`` it also
requires the request to come from a page of this server (its ``Origin`` present and ours), since a
browser sends the cookie with a form another site posts; programs sign in as seats do, with tokens."""

from __future__ import annotations

import time
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...accounts.rules import MAX_PASSWORD, checked_name, checked_password, name_key, needs_rehash, password_hash, password_matches
from ...accounts.sessions import SESSION_SECONDS, expiry, new_token, slides, token_hash
from ...accounts.throttle import SignInThrottle
from ...errors import AccountRefused, NameTaken, SignInThrottled
from . import requests as fields
from .errors import BadRequest, Conflict, Forbidden, TooManyRequests, Unauthorized
from .guard import _same_origin as same_origin
from .limits import ACCOUNTS, limited
from .pages import page_response
from ..store import Store

SESSION_COOKIE = "ginnyo_session"
WRONG = "the name or the password is wrong"   # one line for both: a refusal does not tell which names exist


@dataclass(frozen=True)
class SignedIn:
    """The account a request's session is of."""

    id: int
    name: str
    created: float
    token_hash: str


def _store(request: Request) -> Store:
    store: Store = request.app.state.tables.store
    return store


def _throttle(request: Request) -> SignInThrottle:
    """The app's throttle on failed sign-ins (made at the first sign-in)."""
    throttle = getattr(request.app.state, "sign_in_throttle", None)
    if throttle is None:
        throttle = request.app.state.sign_in_throttle = SignInThrottle()
    assert isinstance(throttle, SignInThrottle)
    return throttle


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def from_our_pages(request: Request) -> None:
    """403 unless the request's ``Origin`` is present and this server's: what a write signed in by
    the session cookie must show (a browser sends the cookie with a form another site posts)."""
    origin = request.headers.get("origin")
    if origin is None:
        raise Forbidden("header 'Origin': missing; a write signed in by the session cookie must come from "
                        "this server's pages")
    if not same_origin(origin, request.headers.get("host", "")):
        raise Forbidden(f"header 'Origin': {origin[:60]!r} is another site: refused")


async def signed_in(request: Request, write: bool = False) -> SignedIn:
    """The account signed in by the request's session cookie: 401 when there is none (or it expired);
    with ``write``, 403 unless the request comes from this server's pages (:func:`from_our_pages`).
    A session used a day after its expiry was last set lasts :data:`.sessions.SESSION_DAYS` from now."""
    if write:
        from_our_pages(request)
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        raise Unauthorized("not signed in")
    digest = token_hash(token)
    now = time.time()
    found = await run_in_threadpool(_store(request).session, digest, now)
    if found is None:
        raise Unauthorized("not signed in (the session ended: sign in again)")
    account, expires = found
    if slides(expires, now):
        await run_in_threadpool(_store(request).extend_session, digest, expiry(now))
    return SignedIn(account.id, account.name, account.created, digest)


def _credentials(body: dict[str, object]) -> tuple[str, str]:
    fields.only_fields(body, ("name", "password"))
    try:
        return checked_name(body.get("name")), checked_password(body.get("password"))
    except AccountRefused as error:
        raise BadRequest(str(error)) from None


def _set_session_cookie(request: Request, response: Response, token: str) -> None:
    """Give the browser the session ``token``: for the session's days, never to scripts, sent with
    another site's links but not its forms, over https only when it came over https."""
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme in ("https", "wss"))


async def _new_session(request: Request, account: int) -> str:
    """A new session of ``account``; the one the request's cookie held, if any, deleted (rotation)."""
    token = new_token()
    old = request.cookies.get(SESSION_COOKIE)
    await run_in_threadpool(_store(request).create_session, token_hash(token), account, expiry(time.time()),
                            token_hash(old) if old else None)
    return token


async def sign_up(request: Request) -> Response:
    """Make an account: {"name", "password"}; 201, signed in."""
    name, password = _credentials(await fields.json_body(request))
    try:
        _throttle(request).check_address(_address(request))   # an address refused sign-ins hashes nothing more
        limited(request, ACCOUNTS)   # each account costs a hash: a client makes a few a minute at most
        digest = await run_in_threadpool(password_hash, password)
        account = await run_in_threadpool(_store(request).create_account, name, name_key(name), digest)
    except SignInThrottled as error:
        raise TooManyRequests(str(error), error.retry_after) from None
    except NameTaken as error:
        raise Conflict(str(error)) from None
    response = JSONResponse({"name": account.name, "created": account.created}, status_code=201)
    _set_session_cookie(request, response, await _new_session(request, account.id))
    return response


async def sign_in(request: Request) -> Response:
    """Sign in: {"name", "password"}; 401 when either is wrong (one line), 429 after too many failures."""
    body = await fields.json_body(request)
    fields.only_fields(body, ("name", "password"))
    name, password = body.get("name"), body.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise BadRequest("fields 'name' and 'password': must be strings")
    key, address = name_key(name)[:64], _address(request)
    throttle = _throttle(request)
    try:
        throttle.check(key, address)
    except SignInThrottled as error:
        raise TooManyRequests(str(error), error.retry_after) from None
    store = _store(request)
    account = await run_in_threadpool(store.account, key)
    if len(password) > MAX_PASSWORD or not await run_in_threadpool(
            password_matches, account.password_hash if account else None, password):
        throttle.failed(key, address)
        raise Unauthorized(WRONG)
    assert account is not None
    throttle.succeeded(key)
    if needs_rehash(account.password_hash):   # hashed with other parameters than today's: hashed anew
        await run_in_threadpool(store.set_password_hash, account.id, password_hash(password))
    response = JSONResponse({"name": account.name, "created": account.created})
    _set_session_cookie(request, response, await _new_session(request, account.id))
    return response


async def sign_out(request: Request) -> Response:
    """Sign out: the session deleted (and the expired ones), its cookie cleared; 204, signed in or not
    (a session that ended already included)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        from_our_pages(request)
        await run_in_threadpool(_store(request).delete_session, token_hash(token), time.time())
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme in ("https", "wss"))
    return response


async def me(request: Request) -> Response:
    """Who is signed in: {"name", "created"}; 401 when no one is."""
    account = await signed_in(request)
    return JSONResponse({"name": account.name, "created": account.created})


async def sign_up_page(request: Request) -> Response:
    """The page to make an account."""
    return page_response("signup", request)


async def session(request: Request) -> Response:
    """``/api/session``: POST signs in, DELETE signs out."""
    return await (sign_in(request) if request.method == "POST" else sign_out(request))


async def sign_in_page(request: Request) -> Response:
    """The page to sign in."""
    return page_response("signin", request)


routes = [
    Route("/signup", sign_up_page),
    Route("/signin", sign_in_page),
    Route("/api/accounts", sign_up, methods=["POST"]),
    Route("/api/session", session, methods=["POST", "DELETE"]),   # one route: a 405 there names both in Allow
    Route("/api/me", me),
]

__all__ = ["routes", "signed_in", "from_our_pages", "SignedIn", "SESSION_COOKIE"]
