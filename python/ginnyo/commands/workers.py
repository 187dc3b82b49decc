"""``ginnyo serve --workers N``: N processes forked from one, each serving on the listening socket the
first bound (the kernel hands each connection to one of them); they share the games through
``--database`` and ``--broker``, so any of them serves any game.  The first process only watches:
it forwards SIGTERM and SIGINT to the workers, and starts a worker again that died otherwise."""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Callable

RESTART_SECONDS = 1.0   # the wait before a worker that died is started again (a crash loop stays slow)


def run_workers(count: int, serve: Callable[[], None], warn: Callable[[str], None]) -> None:
    """Run ``serve`` in ``count`` forked processes until SIGTERM or SIGINT, then wait for them all."""
    stopping = False
    workers: set[int] = set()

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(workers):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def start() -> None:
        pid = os.fork()
        if pid == 0:   # the worker: its own server, to the end
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 0
            try:
                serve()
            except BaseException as error:   # pragma: no cover - told, and the worker ends
                warn(f"ginnyo: worker {os.getpid()} failed: {type(error).__name__}: {error}")
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        workers.add(pid)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(count):
        start()
    while workers:
        try:
            pid, status = os.wait()
        except ChildProcessError:   # pragma: no cover
            break
        except InterruptedError:   # pragma: no cover - a signal (PEP 475 retries os.wait otherwise)
            continue
        workers.discard(pid)
        if not stopping:
            warn(f"ginnyo: worker {pid} ended ({_how(status)}); starting another")
            time.sleep(RESTART_SECONDS)
            if not stopping:
                start()


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.WEXITSTATUS(status)}"


__all__ = ["run_workers"]
