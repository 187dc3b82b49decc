"""Running independent batches of work in this process, over local processes, or
on a Dask cluster: the one mechanism behind self-play and corpus runs."""

from __future__ import annotations

import os
from typing import Callable, Generator, Iterator, Sequence, TypeVar, overload


Part = TypeVar("Part")
Result = TypeVar("Result")
CONNECT_TIMEOUT = 10   # seconds to reach a Dask scheduler, its handshake included


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Batches(Sequence[list[Part]]):
    """``items`` in consecutive batches of ``size``, each made only when asked for:
    a run of a billion games holds no list of a billion seeds (give a ``range``)."""

    def __init__(self, items: Sequence[Part], size: int) -> None:
        self.items, self.size = items, size

    def __len__(self) -> int:
        return -(-len(self.items) // self.size)

    @overload
    def __getitem__(self, index: int) -> list[Part]: ...
    @overload
    def __getitem__(self, index: slice) -> list[list[Part]]: ...

    def __getitem__(self, index: int | slice) -> list[Part] | list[list[Part]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return list(self.items[index * self.size:(index + 1) * self.size])


def cut(items: Sequence[Part], workers: int, largest: int = 200) -> Batches[Part]:
    """Items cut into batches: about 16 a worker, so that the load evens out, and
    at most ``largest`` each, so that progress shows."""
    size = max(1, min(largest, len(items) // (16 * max(1, workers)) or 1))
    return Batches(items, size)


def run_batches(function: Callable[[Part], Result], parts: Sequence[Part], *, workers: int,
                scheduler: str | None = None) -> Generator[Result, None, None]:
    """``function(part)`` for every part, yielded as each finishes: in this process
    when ``workers`` is 1, over ``workers`` local processes otherwise, or on the
    Dask cluster whose scheduler is at ``scheduler``.  ``function`` and the parts
    must pickle (a module-level function, or a functools.partial of one)."""
    if scheduler is not None:
        yield from _on_dask(function, parts, scheduler)
    elif workers == 1 or len(parts) <= 1:
        for part in parts:
            yield function(part)
    else:
        from .process_pool import imap_unordered   # multiprocessing loads only here
        yield from imap_unordered(function, parts, workers)


def _on_dask(function: Callable[[Part], Result], parts: Sequence[Part], scheduler: str) -> Iterator[Result]:
    """On the Dask cluster of ``scheduler``, with every wait bounded (:mod:`ginnyo.cluster`)."""
    from .cluster import on_dask
    yield from on_dask(function, parts, scheduler, connect_timeout=CONNECT_TIMEOUT)
