"""Where the analysis of a corpus or a game record runs: in this process on
threads, over local processes once the work would take long enough to pay for
starting them, or on a Dask cluster; what ``ginnyo analyze`` does, for the
Python API too.

A corpus is read a piece of lines at a time (``support/line_chunks``), so memory
stays bounded whatever its size, and its rows come back in the file's order
however the pieces ran.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any, Callable, Iterator, Sequence, TypeVar, overload

from ..support.line_chunks import LineFile
from .bulk import CHUNK_POSITIONS
from .positions import BOTH

WINDOW_CHUNKS = 64          # pieces handed to a Dask cluster at once: memory stays bounded
PROCESS_SECONDS = 3.0       # in-process work left above which starting worker processes pays
FIRST_POSITIONS = 1024      # the first piece, which tells how long the rest would take here
SPREAD_PIECES = 256         # the fewest positions in a piece sent to a worker process

Rows = list[dict[str, Any]]
Shaped = TypeVar("Shaped")
Source = LineFile | str | os.PathLike[str]
#: told the total before the work (None: not known), it gives what is told the count of each step done
Progress = Callable[[int | None], Callable[[int], object]]


@dataclass(frozen=True)
class Piece:
    """Consecutive lines of a corpus, from line ``first`` of the file ``where``,
    analysed on ``threads`` threads wherever it is sent, its rows then given to
    ``then`` there (when given)."""

    first: int
    data: bytes
    where: str
    want: str
    threads: int = 1
    then: Callable[[Rows], Any] | None = None

    @property
    def lines(self) -> int:
        """The lines the piece holds, blank ones included."""
        return self.data.count(b"\n") + (not self.data.endswith(b"\n"))


def analyze_piece(piece: Piece) -> Any:
    """A piece's rows (:func:`ginnyo.analysis.positions.analyze_arrays`), or what ``piece.then`` makes of them."""
    from .bulk import load_jsonl
    from .positions import analyze_arrays
    rows = analyze_arrays(load_jsonl(piece.data, first_line=piece.first, where=piece.where),
                          want=piece.want, threads=piece.threads)
    return rows if piece.then is None else piece.then(rows)


@overload
def analyze_corpus(source: Source, *, want: str = ..., workers: int | None = ..., scheduler: str | None = ...,
                   then: None = ..., progress: Progress | None = ...) -> Iterator[Rows]: ...
@overload
def analyze_corpus(source: Source, *, want: str = ..., workers: int | None = ..., scheduler: str | None = ...,
                   then: Callable[[Rows], Shaped], progress: Progress | None = ...) -> Iterator[Shaped]: ...


def analyze_corpus(source: Source, *, want: str = BOTH, workers: int | None = None, scheduler: str | None = None,
                   then: Callable[[Rows], Any] | None = None, progress: Progress | None = None) -> Iterator[Any]:
    """The rows of a ``.jsonl`` corpus (a path, ``'-'`` for standard input, or a
    :class:`LineFile` already open), a list a piece of lines, in the file's
    order: each position's line and its best play by score, best action by
    equity or both (``want``, as :func:`~ginnyo.analysis.positions.analyze_arrays`).

    With ``scheduler`` the pieces run on that Dask cluster; else in this process
    on ``workers`` threads (default: one a core) while the work left, judged by
    the time the pieces so far took, is too little to pay for starting
    processes (:data:`PROCESS_SECONDS`), and over ``workers`` processes once it
    is not.  ``then``, a function that pickles (a module-level one or a
    ``functools.partial`` of one), is applied to each piece's rows where the
    piece ran, and what it returns is given instead (the rows as text, say: the
    formatting spreads too).  ``progress`` is told the lines of the file
    (None for standard input or a pipe), and what it returns the lines of each
    piece given back, blank ones included.  A bad line raises its ``PositionError``."""
    from ..support.workers import default_workers
    if not isinstance(source, LineFile):
        with LineFile(os.fspath(source)) as opened:
            yield from analyze_corpus(opened, want=want, workers=workers, scheduler=scheduler, then=then,
                                      progress=progress)
        return
    workers = workers or default_workers()
    make = partial(Piece, where=source.name, want=want, then=then)
    lines = source.lines_left()
    step = None if progress is None else progress(lines)
    if scheduler is not None:
        pieces = _spread((make(first, data) for first, data in source.pieces(CHUNK_POSITIONS)), 2,
                         workers, scheduler)
    else:
        pieces = _here_or_spread(source, make, lines, workers)
    for piece, shaped in pieces:
        if step is not None:
            step(piece.lines)
        yield shaped


def _here_or_spread(source: LineFile, make: Callable[..., Piece], lines: int | None,
                    workers: int) -> Iterator[tuple[Piece, Any]]:
    """The pieces analysed in this process on ``workers`` threads while the
    work left, judged by the time the pieces so far took, is too little to pay
    for starting processes (:data:`PROCESS_SECONDS`); the rest over ``workers``
    processes, in smaller pieces (that the load evens out), once it is not."""
    seconds, done, size = 0.0, 0, min(FIRST_POSITIONS, CHUNK_POSITIONS)
    while True:
        found = next(source.pieces(size), None)     # the next piece alone: the next may be read otherwise
        if found is None:
            return
        here = make(found[0], found[1], threads=workers)
        started = time.perf_counter()
        shaped = analyze_piece(here)
        seconds += time.perf_counter() - started
        yield here, shaped
        done, size = done + here.lines, CHUNK_POSITIONS
        if workers > 1 and lines is not None and seconds / done * (lines - done) > PROCESS_SECONDS:
            size = min(CHUNK_POSITIONS, max(SPREAD_PIECES, (lines - done) // (8 * workers)))
            yield from _spread((make(first, data) for first, data in source.pieces(size)),
                               -(-(lines - done) // size), workers, None)
            return


class _Pieces(Sequence[tuple[int, Piece]]):
    """Numbered pieces made as a pool asks for the next (bounded memory); ``len``
    is an estimate, which the pool uses only to start no more processes than pieces."""

    def __init__(self, pieces: Iterator[tuple[int, Piece]], estimate: int) -> None:
        self.pieces, self.estimate = pieces, estimate

    def __len__(self) -> int:
        return self.estimate

    def __iter__(self) -> Iterator[tuple[int, Piece]]:
        return self.pieces

    def __getitem__(self, index: Any) -> Any:
        raise TypeError("pieces are read in order, not by index")


def _spread(pieces: Iterator[Piece], estimate: int, workers: int, scheduler: str | None
            ) -> Iterator[tuple[Piece, Any]]:
    """The pieces analysed over ``workers`` local processes or on the Dask
    cluster of ``scheduler`` (a window of them at a time: the futures of a
    window are all sent at once), given back in the file's order."""
    from ..support.workers import run_batches
    numbered = enumerate(pieces)
    windows: Iterator[Sequence[tuple[int, Piece]]]
    if scheduler is None:
        windows = iter([_Pieces(numbered, max(estimate, 2))])
    else:
        windows = iter(lambda: list(islice(numbered, WINDOW_CHUNKS)), [])
    kept: dict[int, tuple[Piece, Any]] = {}
    expected = 0
    for window in windows:
        for index, piece, shaped in run_batches(_numbered, window, workers=workers, scheduler=scheduler):
            kept[index] = (piece, shaped)
            while expected in kept:
                yield kept.pop(expected)
                expected += 1


def _numbered(part: tuple[int, Piece]) -> tuple[int, Piece, Any]:
    """``(index, piece, what it gave)``: results that come back in any order are put back in order."""
    index, piece = part
    return index, piece, analyze_piece(piece)


# -- a game record -------------------------------------------------------------------------------

def analyze_record_file(source: Source, *, workers: int | None = None, scheduler: str | None = None,
                        progress: Progress | None = None) -> tuple[Rows, Rows]:
    """A game record's rows, a turn each, and its players' summary
    (:func:`ginnyo.analysis.records.analyze_record`), read from a path, ``'-'``
    (standard input) or a :class:`LineFile` already open: in this process on
    ``workers`` threads (default: one a core), or as one task on the Dask
    cluster of ``scheduler``.  ``progress`` is told the record's turns, and
    what it returns each turn replayed (1; none on a cluster).  A record that
    breaks the rules raises its ``RecordError`` naming the line."""
    from ..errors import RecordError
    from ..game.records import parse_record
    from ..support.files import RECORD_BYTES, text_of
    from ..support.workers import default_workers, run_batches
    from .records import analyze_record
    if not isinstance(source, LineFile):
        with LineFile(os.fspath(source), RecordError) as opened:
            return analyze_record_file(opened, workers=workers, scheduler=scheduler, progress=progress)
    source.error = RecordError
    data = source.rest(RECORD_BYTES, "game record")
    lines = parse_record(text_of(data, source.name, RecordError), source.name)
    step = None if progress is None else progress(max(0, len(lines) - 2))     # the header and the end line
    if scheduler is not None:
        task = partial(analyze_record, name=source.name, threads=1)
        [(rows, summary)] = list(run_batches(task, [lines], workers=1, scheduler=scheduler))
        return rows, summary

    def turn_done() -> None:
        if step is not None:
            step(1)

    return analyze_record(lines, source.name, threads=workers or default_workers(), on_turn=turn_done)


__all__ = ["analyze_corpus", "analyze_record_file", "analyze_piece", "Piece", "PROCESS_SECONDS"]
