"""Batches of work on a Dask cluster (``--scheduler``), never waiting without bound.

dask.distributed's own timeouts cover reaching the scheduler's port, but not a
server there that never answers, nor a scheduler or the last worker lost in
the middle of a run.  Here every step has a limit:

- the address's scheme is one Dask speaks (``tcp://``, ``tls://``, ``ws://``...),
  else :class:`GinnyoError` (bad input, exit 2);
- the whole connection, handshake included, takes at most ``connect_timeout``
  seconds, else :class:`GinnyoError` "cannot connect" (exit 2, as for a wrong
  address);
- while no result comes, the scheduler is asked every :data:`POLL_SECONDS` about
  its workers: no answer within :data:`ANSWER_SECONDS`, a lost connection, no
  working worker for :data:`WORKERLESS_SECONDS`, or a task whose workers keep
  dying raise :class:`ClusterError` (exit 1), one line.  A worker whose
  heartbeat has not reached the scheduler for :data:`SILENT_SECONDS` (hung,
  stopped, cut off) is not a working worker: the scheduler itself gives it up
  only after its ``worker-ttl`` (5 minutes by default).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TypeVar

from ..errors import ClusterError, GinnyoError
from .files import quote

if TYPE_CHECKING:
    from distributed import Client, Future

Part = TypeVar("Part")
Result = TypeVar("Result")

POLL_SECONDS = 2.0          # how long to wait for a result before asking after the workers
ANSWER_SECONDS = 10.0       # the most the scheduler may take to say how many workers it has
WORKERLESS_SECONDS = 60.0   # the longest a run waits with no working worker on the cluster
SILENT_SECONDS = 30.0       # a worker with no heartbeat for this long does not count as working
CLOSE_SECONDS = 5.0         # the most closing the connection may take
FETCH_SECONDS = 60.0        # the most fetching one finished batch's result may take
WAKE_SECONDS = 0.05         # how often the waiting loop looks for finished batches
#: a timeout as Dask raises it (asyncio's TimeoutError is not the built-in one before Python 3.11)
TIMEOUTS = (TimeoutError, asyncio.TimeoutError)
IN_PROCESS = "inproc://"    # a cluster in this very process (tests start one): no probe needed


def on_dask(function: Callable[[Part], Result], parts: Sequence[Part], scheduler: str, *,
            connect_timeout: float) -> Iterator[Result]:
    """``function(part)`` for every part on the cluster of ``scheduler``, yielded
    as each finishes."""
    try:
        from distributed import Client
    except ImportError:
        raise GinnyoError("--scheduler needs dask.distributed: pip install 'ginnyo[dask]'") from None
    label = f"--scheduler {shown(scheduler)}"
    check_address(scheduler, label)
    with _quiet_dask():
        if scheduler.startswith(IN_PROCESS):
            _check_in_process(scheduler, label)
        else:
            probe(scheduler, label, connect_timeout)
        try:
            client = Client(scheduler, timeout=connect_timeout, set_as_default=False)
        except (OSError, ValueError, ImportError, *TIMEOUTS) as error:
            raise GinnyoError(f"{label}: cannot connect ({one_line(error)})") from None
        try:
            yield from _results(client, client.map(function, list(parts), pure=False), label)
        finally:
            _close(client)


def check_address(scheduler: str, label: str) -> None:
    """Refuse (:class:`GinnyoError`) an address whose scheme Dask does not speak
    (``http://``, ``foo://``) or that names no host."""
    problem = address_problem(scheduler)
    if problem is not None:
        raise GinnyoError(f"{label}: {problem}")


def address_problem(scheduler: str) -> str | None:
    """What is wrong with ``scheduler`` as a Dask address, before reaching it: a
    scheme Dask does not speak, or no host; None for a well-formed one."""
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import backends, get_backend
    try:
        scheme, location = parse_address(scheduler)
        get_backend(scheme)
    except ValueError:
        known = ", ".join(f"{name}://" for name in sorted(backends))
        scheme = scheduler.partition("://")[0] if "://" in scheduler else scheduler
        return f"unsupported address scheme {quote(scheme)} (Dask speaks {known})"
    if not location.strip(":"):
        return "no host in the address (tcp://host:8786)"
    return None


def shown(address: str) -> str:
    """An address for an error line: as given when short and plain, else quoted."""
    text = quote(address)
    return address if text == repr(address) and address.isprintable() and " " not in address else text


def _check_in_process(scheduler: str, label: str) -> None:
    """An ``inproc://`` address must name a scheduler of this very process (a
    failed ``Client`` would spend its close timeout on it)."""
    from distributed.comm.inproc import global_manager
    try:
        listener = global_manager.get_listener_for(scheduler[len(IN_PROCESS):])
    except ValueError as error:
        raise GinnyoError(f"{label}: cannot connect ({one_line(error)})") from None
    if listener is None:
        raise GinnyoError(f"{label}: cannot connect (no scheduler at that address in this process)")


def probe(scheduler: str, label: str, timeout: float) -> None:
    """Connect to ``scheduler`` and do Dask's handshake within ``timeout`` seconds,
    else raise :class:`GinnyoError`: a port that accepts and never answers fails
    here, where ``Client`` would wait for the handshake for ever.  The probe runs
    its own event loop on a thread of its own, so that it works whatever loop
    the caller runs."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            asyncio.run(asyncio.wait_for(_handshake(scheduler, timeout), timeout))
            outcome.append(None)
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            outcome.append(error)

    thread = threading.Thread(target=run, name="ginnyo-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + CLOSE_SECONDS)
    if not outcome:
        raise GinnyoError(f"{label}: cannot connect (no answer within {timeout:g} s)")
    error = outcome[0]
    if isinstance(error, TIMEOUTS):
        raise GinnyoError(f"{label}: cannot connect (no answer within {timeout:g} s)")
    if error is not None:
        raise GinnyoError(f"{label}: cannot connect ({one_line(error)})")


async def _handshake(scheduler: str, timeout: float) -> None:
    from distributed.comm.core import connect
    comm = await connect(scheduler, timeout=timeout)
    await comm.close()


def _results(client: Client, futures: list[Future[Any]], label: str) -> Iterator[Any]:
    """The futures' results as they finish, watching the cluster while none comes."""
    from distributed import as_completed
    finished = as_completed(futures, loop=client.loop)
    watch = _Watch(client, label)
    next_check = time.monotonic()
    while not finished.is_empty():
        if finished.has_ready():
            for future in finished.next_batch(block=False):
                yield _result(future, label)
            watch.workers_seen = next_check = time.monotonic() + POLL_SECONDS
            continue
        if time.monotonic() >= next_check:
            watch.check()
            next_check = time.monotonic() + POLL_SECONDS
        time.sleep(WAKE_SECONDS)


def _result(future: Future[Any], label: str) -> Any:
    from distributed.scheduler import KilledWorker
    try:
        return future.result(timeout=FETCH_SECONDS)
    except CancelledError:
        raise ClusterError(f"{label}: lost the connection to the scheduler in the middle of the run") from None
    except KilledWorker:
        raise ClusterError(f"{label}: the workers running a batch kept dying; the run is abandoned") from None
    except TIMEOUTS:
        raise ClusterError(f"{label}: a finished batch could not be fetched within {FETCH_SECONDS:g} s") from None


class _Watch:
    """The cluster as the checks saw it: when it last had a working worker, and
    when each worker's last heartbeat (the scheduler's ``last_seen``, compared
    with itself only, so that the clocks of two machines never are) last moved."""

    def __init__(self, client: Client, label: str) -> None:
        self.client, self.label = client, label
        self.workers_seen = time.monotonic()
        self.heartbeats: dict[str, tuple[object, float]] = {}   # a worker: its last_seen, when that last moved

    def check(self) -> None:
        """Raise :class:`ClusterError` when the scheduler is gone or mute, or has had
        no working worker for :data:`WORKERLESS_SECONDS`."""
        scheduler = self.client.scheduler
        if self.client.status != "running" or scheduler is None:
            raise ClusterError(f"{self.label}: lost the connection to the scheduler in the middle of the run")
        try:
            workers = self.client.sync(scheduler.identity, n_workers=-1, callback_timeout=ANSWER_SECONDS)["workers"]
        except (OSError, *TIMEOUTS):
            raise ClusterError(f"{self.label}: the scheduler did not answer within {ANSWER_SECONDS:g} s") from None
        now = time.monotonic()
        before = self.heartbeats
        self.heartbeats = {}
        for address, worker in workers.items():
            beat = worker.get("last_seen")
            last, moved = before.get(address, (None, now))
            self.heartbeats[address] = (beat, moved if beat == last and beat is not None else now)
        silent = sum(1 for _, moved in self.heartbeats.values() if now - moved > SILENT_SECONDS)
        if len(self.heartbeats) > silent:
            self.workers_seen = now
        elif now - self.workers_seen > WORKERLESS_SECONDS:
            if silent:
                raise ClusterError(f"{self.label}: no working worker on the cluster for {WORKERLESS_SECONDS:g} s "
                                   f"({silent} hung or stopped: no heartbeat for over {SILENT_SECONDS:g} s); "
                                   "the run is abandoned")
            raise ClusterError(f"{self.label}: no worker on the cluster for {WORKERLESS_SECONDS:g} s "
                               "(all lost, or none started); the run is abandoned")


def _close(client: Client) -> None:
    try:
        client.close(timeout=CLOSE_SECONDS)
    except Exception:  # noqa: BLE001 - the run's own outcome matters, not the goodbye
        pass


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """dask.distributed logs a lost connection in many lines on stderr; the run
    reports it in one, so its loggers keep quiet meanwhile."""
    loggers = [logging.getLogger("distributed")] + [
        logger for name, logger in list(logging.Logger.manager.loggerDict.items())
        if name.startswith("distributed.") and isinstance(logger, logging.Logger)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


__all__ = ["on_dask", "check_address", "address_problem", "probe", "ClusterError", "POLL_SECONDS", "ANSWER_SECONDS",
           "WORKERLESS_SECONDS", "SILENT_SECONDS"]
