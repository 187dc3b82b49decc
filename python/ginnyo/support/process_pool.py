"""Local worker processes for independent batches of work, one pipe each.

Unlike ``multiprocessing.Pool`` (queues shared by all workers, read by helper
threads), nothing here can hang when a worker dies mid-message or a stop signal
arrives: this process alone talks to each worker over the worker's own pipe, a
dead worker shows as the end of its pipe, and however the run ends (done, an
error, Ctrl-C) every worker is ended and joined.  Workers ignore SIGINT (Ctrl-C
reaches the whole process group; this process answers it) and die quietly on
SIGTERM, so none prints a traceback.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Callable, Generator, Iterator, Sequence, TypeVar

from . import interrupts

Part = TypeVar("Part")
Result = TypeVar("Result")
JOIN_SECONDS = 5   # a worker's time to go after SIGTERM before SIGKILL


def imap_unordered(function: Callable[[Part], Result], parts: Sequence[Part],
                   size: int) -> Generator[Result, None, None]:
    """``function(part)`` for every part on ``size`` worker processes, yielded as
    each finishes.  An exception ``function`` raises is raised here; a worker
    that dies raises ``RuntimeError``.  Close the generator to stop early."""
    # spawn: a fresh interpreter a worker, safe whatever threads this process runs
    context = multiprocessing.get_context("spawn")
    workers: dict[Connection, BaseProcess] = {}
    resource_tracker.ensure_running()   # its own start unblocks signals: before ours
    try:
        with interrupts.starting_workers():   # a stop meanwhile is answered once all are in ``workers``
            for _ in range(max(1, min(size, len(parts)))):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, function), daemon=True)
                process.start()
                theirs.close()
                workers[mine] = process
        queue = iter(parts)
        busy = {pipe for pipe in workers if _give(pipe, queue)}
        while busy:
            for pipe in wait(list(busy)):
                assert isinstance(pipe, Connection)
                finished, value = _receive(pipe, workers[pipe])
                if not _give(pipe, queue):
                    busy.discard(pipe)
                if not finished:
                    raise value
                yield value
    finally:
        _end(workers)


def _give(pipe: Connection, queue: Iterator[Any]) -> bool:
    """Send the worker the next part; False when there is none left."""
    for part in queue:
        pipe.send((True, part))
        return True
    return False


def _receive(pipe: Connection, process: BaseProcess) -> tuple[bool, Any]:
    try:
        answer: tuple[bool, Any] = pipe.recv()
    except (EOFError, OSError):
        process.join(JOIN_SECONDS)
        raise RuntimeError(f"a worker process stopped (exit status {process.exitcode})") from None
    return answer


def _end(workers: dict[Connection, BaseProcess]) -> None:
    """End every worker (SIGTERM, then SIGKILL if need be), wait for it, close its
    pipe; a second stop signal (Ctrl-C pressed again) waits until they are all gone."""
    with interrupts.held():
        for process in workers.values():
            if process.is_alive():
                process.terminate()
        for pipe, process in workers.items():
            process.join(JOIN_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
            pipe.close()


def _serve(pipe: Connection, function: Callable[[Any], Any]) -> None:
    """A worker: answer each part with ``(True, result)`` or ``(False, exception)``
    until told to stop or the pipe closes."""
    interrupts.worker_signals()
    while True:
        try:
            more, part = pipe.recv()
        except (EOFError, OSError):
            return
        if not more:
            return
        try:
            answer: tuple[bool, Any] = (True, function(part))
        except Exception as error:   # noqa: BLE001 - handed to the main process to raise
            answer = (False, error)
        try:
            pipe.send(answer)
        except OSError:   # the main process has gone (or closed the pipe): nothing to answer
            return
        except Exception as error:   # noqa: BLE001 - a result or an exception that does not pickle
            pipe.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


__all__ = ["imap_unordered"]
