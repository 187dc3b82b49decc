"""Stopping a long command cleanly on Ctrl-C or SIGTERM.

Ctrl-C sends SIGINT to the whole process group, worker processes included.  Only
the main process answers it: within :func:`raising`, SIGINT and SIGTERM raise
:class:`Interrupted` there; within :func:`held` (a file being written) the
signal waits until the block is done, so a file is whole or absent; local worker
processes ignore SIGINT and die quietly on SIGTERM (:func:`worker_signals`), and
are ended by the main process (see :mod:`ginnyo.process_pool`); a stop while they
are being started waits until they all are (:func:`starting_workers`).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Callable, Iterator

#: the signals that stop a run
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped the command.  ``status`` is the exit status
    (128 + the signal's number: 130 for Ctrl-C), ``done`` what was finished, for
    the one line the command prints."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.status = 128 + signum
        self.done = ""


class _State:
    holding = 0                  # depth of held() blocks
    pending: int | None = None   # a signal that arrived while holding


def _stop(signum: int, frame: FrameType | None) -> None:
    if _State.holding:
        _State.pending = _State.pending or signum
        return
    raise Interrupted(signum)


@contextmanager
def raising() -> Iterator[None]:
    """Within: SIGINT and SIGTERM raise :class:`Interrupted` in this (main) thread;
    the handlers before are restored after.  Elsewhere than the main thread, or
    nested, it changes nothing."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is _stop:
        yield
        return
    before = {signum: signal.signal(signum, _stop) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


@contextmanager
def held() -> Iterator[None]:
    """Within: a stop signal waits until the block is done, then raises (even
    when the block raised: the stop is what the user asked for)."""
    _State.holding += 1
    try:
        yield
    finally:
        _State.holding -= 1
        if not _State.holding and _State.pending is not None:
            signum, _State.pending = _State.pending, None
            raise Interrupted(signum)


@contextmanager
def reporting(done: Callable[[], str]) -> Iterator[None]:
    """Within: an :class:`Interrupted` carries ``done()``, what was finished, for
    the line the command prints (unless an inner block has said already)."""
    try:
        yield
    except Interrupted as stop:
        stop.done = stop.done or done()
        raise


def worker_signals() -> None:
    """A local worker process's start: Ctrl-C is the main process's to answer,
    and SIGTERM (from the main process, or sent to the whole group) ends the
    worker at once, quietly; a SIGTERM that came while the worker was being
    started (:func:`starting_workers`) ends it now, a SIGINT is dropped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


@contextmanager
def starting_workers() -> Iterator[None]:
    """Within: worker processes are started.  SIGINT and SIGTERM are blocked in
    this thread, and so in the workers it starts, from their first instruction
    until :func:`worker_signals`; and a stop that reaches this process anyway
    (through another thread) is held (:func:`held`).  So no stop is lost, none
    interrupts a start half-done, and a worker sent SIGTERM while starting ends
    quietly once it can: the stop is answered on leaving, when every worker
    started is known and can be ended."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with held():
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)   # a stop that came is delivered here


@contextmanager
def ignoring() -> Iterator[None]:
    """Within: SIGINT and SIGTERM are ignored (in the main thread's process; elsewhere
    nothing changes): for a command's last line, once it is stopping anyway."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.signal(signum, signal.SIG_IGN) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


__all__ = ["Interrupted", "raising", "held", "reporting", "worker_signals", "starting_workers", "ignoring", "STOP_SIGNALS"]
