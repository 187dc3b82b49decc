"""``ginnyo serve``: the web table on this machine (docs/WEB.md), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import errno
import gc
import math
import socket
import sys
from pathlib import Path
from typing import IO, Any

from ..errors import GinnyoError, RunError, StoreRefused
from ..web.store import SYNC_MODES, database_url
from .arguments import EXIT_OK, file_name, named

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765      # taken when free, else a free port (unless --port names one)
LIMIT_CONCURRENCY = 500  # connections at once: well under the usual 1024 file descriptors a process
ANY_ADDRESS = ("0.0.0.0", "::")


def register(commands: Any) -> None:
    """Add ``serve`` to the main parser's commands."""
    serve = commands.add_parser("serve", help="play in the browser: serve the web table on this machine")
    every_address = "an empty address would listen on every address (0.0.0.0 says so)"
    serve.add_argument("--host", type=named(every_address, _one_word), default=DEFAULT_HOST,
                       help="the address to listen on (0.0.0.0 or :: for every address)")
    serve.add_argument("--allowed-host", type=named("an empty name names no host", _host_name), metavar="NAME",
                       action="append", default=[],
                       help="a name (NAME or NAME:PORT) the server answers to besides this machine's loopback "
                            "names, for a server opened to a network (repeatable; docs/WEB.md)")
    serve.add_argument("--port", type=port_number, default=None,
                       help=f"the port (0: any free one; default {DEFAULT_PORT} when free, else any free one)")
    serve.add_argument("--data", type=file_name, metavar="DIR", default=None,
                       help="the directory of the games' database (default: the user's data directory for ginnyo)")
    serve.add_argument("--database", type=named("an empty URL names no database", database_url), metavar="URL",
                       default=None,
                       help="keep the games in this PostgreSQL database (postgresql://USER@HOST:PORT/DB, at the "
                            "current schema: ginnyo db migrate) instead of the data directory's SQLite file")
    serve.add_argument("--broker", type=named("an empty URL names no Redis server", _redis_url), metavar="URL",
                       default=None,
                       help="tell other servers on the same --database of every move, and hear of theirs, through "
                            "this Redis (redis://HOST:PORT/DB); docs/DEPLOY.md")
    serve.add_argument("--workers", type=whole(1), default=1, metavar="N",
                       help="serve with N processes on one port (more than 1 needs --database and --broker)")
    serve.add_argument("--sync", choices=SYNC_MODES, default=SYNC_MODES[0],
                       help="how a move is committed before it is acknowledged: normal survives the "
                            "server's being killed, full also a power cut (each move waits for the disk)")
    add_limits(serve)
    serve.set_defaults(run=cmd_serve)


def add_limits(serve: argparse.ArgumentParser) -> None:
    """The options bounding what the server holds and takes (docs/WEB.md, "Limits")."""
    from ..web.http import limits
    serve.add_argument("--games-per-minute", type=whole(0), default=limits.GAMES_PER_MINUTE, metavar="N",
                       help="games (and rematches) one address may make a minute (0: no limit)")
    serve.add_argument("--simulations-per-minute", type=whole(0), default=limits.SIMULATIONS_PER_MINUTE, metavar="N",
                       help="simulations one address may start a minute (0: no limit)")
    serve.add_argument("--previews-per-minute", type=whole(0), default=limits.PREVIEWS_PER_MINUTE, metavar="N",
                       help="previews (of a game's or a puzzle's placement) one address may ask a minute (0: no limit)")
    serve.add_argument("--analyses-per-minute", type=whole(0), default=limits.ANALYSES_PER_MINUTE, metavar="N",
                       help="analyses of a position and reviews of an uploaded record one address may ask a minute "
                            "(0: no limit)")
    serve.add_argument("--seek-joins-per-minute", type=whole(0), default=limits.SEEK_JOINS_PER_MINUTE, metavar="N",
                       help="seeks one address may join or withdraw a minute (0: no limit)")
    serve.add_argument("--simulations-per-address", type=whole(0), default=limits.SIMULATIONS_PER_CLIENT, metavar="N",
                       help="simulations one address may have waiting or running at once (0: no limit)")
    serve.add_argument("--max-games", type=whole(0), default=limits.MAX_GAMES, metavar="N",
                       help="games in play held in memory; a new one past it is refused with 503 (0: no limit)")
    serve.add_argument("--expire-days", type=seconds_or_days, default=limits.EXPIRE_DAYS, metavar="DAYS",
                       help="a game in play untouched this long is let go from memory and not loaded at start; "
                            "it is rebuilt from the database when opened")
    serve.add_argument("--request-timeout", type=seconds_or_days, default=limits.REQUEST_SECONDS, metavar="SECONDS",
                       help="a connection is closed when a request has not come whole this long after the "
                            "connection opened or the last answer was sent")
    serve.add_argument("--limit-concurrency", type=whole(1), default=LIMIT_CONCURRENCY, metavar="N",
                       help="connections open at once (sockets included); a new one past it is closed")


def whole(low: int) -> Any:
    """An argparse type: a whole number ``low`` or more."""
    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or int(text) < low:   # not '²', which int() refuses
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least {low}")
        return int(text)
    return read


def _one_word(text: str) -> None:
    """ValueError for an address with a blank or an unprintable character in it."""
    if not text.isprintable() or any(character.isspace() for character in text):
        raise ValueError(f"{text!r} is not an address")


def _host_name(text: str) -> None:
    """ValueError for what names no host (``--allowed-host``: NAME or NAME:PORT)."""
    try:
        from ..web.http.guard import host_and_port
    except ImportError:   # the command itself says it needs the web extra
        return
    if host_and_port(text) is None:
        raise ValueError(f"{text!r} is not a host name or address (NAME or NAME:PORT)")


def _redis_url(text: str) -> None:
    from ..web.live.broker import broker_url
    broker_url(text)


def seconds_or_days(text: str) -> float:
    """An argparse type: a number of seconds or days, more than 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number more than 0")
    return value


def port_number(text: str) -> int:
    """A TCP port 0..65535 (argparse type)."""
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return int(text)


def data_directory(given: str | None) -> str:
    """``--data`` or the per-user data directory ($XDG_DATA_HOME/ginnyo and its kin)."""
    if given is not None:
        return given
    import platformdirs
    return platformdirs.user_data_dir("ginnyo", appauthor=False)


def listening_socket(host: str, port: int | None) -> socket.socket:
    """A socket bound to ``host``: ``port``, or :data:`DEFAULT_PORT` when free else any free port.
    It names IPPROTO_TCP: asyncio sets TCP_NODELAY only on such sockets, and without it every answer
    after the first on a kept-alive connection waits 40 ms for the client's delayed ACK."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    tries = [DEFAULT_PORT, 0] if port is None else [port]
    for number in tries:
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, number))
        except OSError as error:
            sock.close()
            if error.errno == errno.EADDRINUSE and number != tries[-1]:
                continue
            if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
                raise GinnyoError(f"--host: {host!r} is no address of this machine ({error.strerror})") from None
            reason = "is in use" if error.errno == errno.EADDRINUSE else f"cannot be used ({error.strerror})"
            raise RunError(f"--port: {host}:{number} {reason}") from None
        sock.listen(128)
        return sock
    raise AssertionError("unreachable")   # pragma: no cover


def check_data(data: str) -> IO[bytes]:
    """Check ``--data`` before serving, so that an unusable one is one line, not a traceback: its
    games' database must be ginnyo's and intact, or be made there (exit 2 for a file that is not
    ours, left untouched, or a damaged one); no other server may use the directory (exit 2).  The
    lock file returned is held for as long as it is open."""
    import sqlite3

    from ..web.store import DATABASE_NAME, Store, identify, lock_data
    try:
        identify(Path(data) / DATABASE_NAME)   # before anything is made in the directory
        Path(data).mkdir(parents=True, exist_ok=True)
        lock = lock_data(data)
        try:
            store = Store(data)
            try:
                store.check()
            finally:
                store.close()
        except BaseException:
            lock.close()
            raise
    except StoreRefused as error:
        raise StoreRefused(f"--data: {error}") from None
    except (OSError, sqlite3.Error) as error:
        raise RunError(f"--data: {data}: cannot hold the games' database ({error})") from None
    return lock


def check_database(url: str) -> None:
    """Check ``--database`` before serving: a PostgreSQL database of ginnyo's, at this ginnyo's schema
    (never migrated here: ``ginnyo db migrate``), whose server answers; one line (exit 2) if not."""
    from ..web.store import Store
    try:
        store = Store(database=url)
        try:
            store.check()
        finally:
            store.close()
    except StoreRefused as error:
        raise StoreRefused(f"--database: {error}") from None


def check_broker(url: str) -> None:
    """Check ``--broker`` before serving: a Redis URL whose server answers; one line (exit 2) if not."""
    import redis

    from ..web.live.broker import broker_url
    try:
        client = redis.Redis.from_url(broker_url(url), socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (ValueError, redis.RedisError) as error:
        raise RunError(f"--broker: {url}: cannot be used ({error})") from None


def web_app(data_dir: str | Path, *args: Any, **options: Any) -> Any:
    """The web table's app (:func:`ginnyo.web.http.app.create_app` of ``data_dir``, its other arguments
    ``args`` and ``options``) as ``ginnyo serve`` runs it:
    the composition root, handing the web what it asks of the engine -- the bots
    (:func:`ginnyo.players.players.make_player`) and the analysis board's win chances
    (:func:`ginnyo.odds.win_probability.win_chances`), which no web module imports."""
    from ..players.players import make_player
    from ..odds.win_probability import win_chances
    from ..web.http.app import create_app
    return create_app(data_dir, *args, players=make_player, win_chances=win_chances, **options)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.http.connections import deadline_protocol
        from ..web.http.requests import MAX_BODY
    except ImportError as error:
        raise RunError(f"ginnyo serve needs the web extra: pip install 'ginnyo[web]' ({error})") from None
    if args.workers > 1 and (args.database is None or args.broker is None):
        raise RunError("--workers: more than one process needs --database (PostgreSQL) and --broker (Redis)")
    if args.broker is not None:
        check_broker(args.broker)
    data = data_directory(args.data)
    if args.database is not None:   # the data directory's lock is SQLite's: PostgreSQL takes many servers
        check_database(args.database)
        lock: IO[bytes] | None = None
    else:
        lock = check_data(data)   # the data directory's lock: held while this process lives (the OS lets it go)
    sock = listening_socket(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    # the address listened on is a name to answer to, unless it is every address (0.0.0.0, ::)
    allowed = [*args.allowed_host, *([] if host in ANY_ADDRESS else [f"{shown}:{port}"])]

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                # what is loaded by now (the modules, the games in play) lives as long as the server:
                # kept out of the collector's full passes, each of which would otherwise stop every game
                gc.collect()
                gc.freeze()
                print(f"ginnyo: serving on http://{shown}:{port}/  (Ctrl-C to stop)", flush=True)

    def warn(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    app = web_app(data, warn, args.sync, games_per_minute=args.games_per_minute,
                  simulations_per_minute=args.simulations_per_minute, previews_per_minute=args.previews_per_minute,
                  analyses_per_minute=args.analyses_per_minute, simulations_per_address=args.simulations_per_address,
                  seek_joins_per_minute=args.seek_joins_per_minute,
                  max_games=args.max_games,
                  expire_days=args.expire_days, allowed_hosts=allowed, port=port, database=args.database,
                  broker=args.broker)
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            ws="websockets-sansio", ws_per_message_deflate=False,   # views are small: not worth the CPU
                            lifespan="on", timeout_graceful_shutdown=5, ws_max_size=MAX_BODY,
                            http=deadline_protocol(args.request_timeout), limit_concurrency=args.limit_concurrency)
    try:
        if args.workers > 1:
            from .workers import run_workers
            run_workers(args.workers, lambda: Server(config).run(sockets=[sock]), warn)
        else:
            Server(config).run(sockets=[sock])
    finally:
        if lock is not None:
            lock.close()
    sys.stdout.flush()
    return EXIT_OK
