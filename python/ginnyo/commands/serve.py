"""``ginnyo serve``: the web table on this machine (docs/WEB.md), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import errno
import gc
import socket
import sys
from typing import Any

from ..errors import RunError
from ..web.store import SYNC_MODES
from .arguments import EXIT_OK

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765      # taken when free, else a free port (unless --port names one)
ANY_ADDRESS = ("0.0.0.0", "::")


def register(commands: Any) -> None:
    """Add ``serve`` to the main parser's commands."""
    serve = commands.add_parser("serve", help="play in the browser: serve the web table on this machine")
    serve.add_argument("--host", default=DEFAULT_HOST, help="the address to listen on")
    serve.add_argument("--allowed-host", metavar="NAME", action="append", default=[],
                       help="a name (NAME or NAME:PORT) the server answers to besides this machine's loopback "
                            "names, for a server opened to a network (repeatable; docs/WEB.md)")
    serve.add_argument("--port", type=port_number, default=None,
                       help=f"the port (0: any free one; default {DEFAULT_PORT} when free, else any free one)")
    serve.add_argument("--data", metavar="DIR", default=None,
                       help="the directory of the games' database (default: the user's data directory for ginnyo)")
    serve.add_argument("--sync", choices=SYNC_MODES, default=SYNC_MODES[0],
                       help="how a move is committed before it is acknowledged: normal survives the "
                            "server's being killed, full also a power cut (each move waits for the disk)")
    serve.set_defaults(run=cmd_serve)


def port_number(text: str) -> int:
    """A TCP port 0..65535 (argparse type)."""
    if not text.isdigit() or not 0 <= int(text) <= 65535:
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
            reason = "is in use" if error.errno == errno.EADDRINUSE else f"cannot be used ({error.strerror})"
            raise RunError(f"--port: {host}:{number} {reason}") from None
        sock.listen(128)
        return sock
    raise AssertionError("unreachable")   # pragma: no cover


def check_data(data: str) -> None:
    """Open (or make) the games' database once, so that an unusable ``--data`` is one line, not a traceback."""
    import sqlite3

    from ..web.store import Store
    try:
        Store(data).close()
    except (OSError, sqlite3.Error) as error:
        raise RunError(f"--data: {data}: cannot hold the games' database ({error})") from None


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.guard import host_and_port
        from ..web.requests import MAX_BODY
    except ImportError as error:
        raise RunError(f"ginnyo serve needs the web extra: pip install 'ginnyo[web]' ({error})") from None
    for name in args.allowed_host:
        if host_and_port(name) is None:
            raise RunError(f"--allowed-host: {name!r} is not a host name or address (NAME or NAME:PORT)")
    data = data_directory(args.data)
    check_data(data)
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

    app = create_app(data, warn, args.sync, allowed_hosts=allowed, port=port)
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            ws="websockets-sansio", ws_per_message_deflate=False,   # views are small: not worth the CPU
                            lifespan="on", timeout_graceful_shutdown=5, ws_max_size=MAX_BODY)
    Server(config).run(sockets=[sock])
    sys.stdout.flush()
    return EXIT_OK
