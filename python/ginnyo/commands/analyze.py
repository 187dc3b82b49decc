"""``ginnyo analyze FILE``: a corpus's positions or a game record's turns analysed
in bulk, streamed as JSON lines or shown as a table."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterator, Sequence

from .arguments import EXIT_OK, FORCE_HELP, worker_count

KINDS = ("auto", "corpus", "records")
CHUNK_POSITIONS = 4096      # positions solved in one batch call (and one Dask task)
WINDOW_CHUNKS = 64          # chunks handed to a Dask cluster at once: memory stays bounded
PROCESS_SECONDS = 3.0       # in-process work left above which starting worker processes pays
FIRST_POSITIONS = 1024      # the first piece, which tells how long the rest would take here
SPREAD_PIECES = 256         # the fewest positions in a piece sent to a worker process
Format = Callable[[dict[str, Any]], str]    # a row as a line of text


def register(commands: Any) -> None:
    """Add ``analyze`` to the main parser's commands."""
    from ..analysis.positions import WANTS
    analyze = commands.add_parser(
        "analyze", help="best plays of a corpus's positions, or a game record's moves against the best")
    analyze.add_argument("file", metavar="FILE", nargs="+",
                         help="a corpus (.jsonl, one position a line), a position (.json, also pretty-printed), "
                              "a game record, or a folder of them (its .json and .jsonl files); - reads stdin; "
                              "with several, each row names its file")
    analyze.add_argument("--kind", choices=KINDS, default="auto",
                         help="what FILE is: auto (a record when its first line is a record's header), "
                              "corpus or records")
    analyze.add_argument("--by", choices=WANTS, default=WANTS[0],
                         help="a corpus's positions: the best play by score, the best action by equity, or both")
    shown = analyze.add_mutually_exclusive_group()
    shown.add_argument("--table", action="store_true",
                       help="a table for people on stdout (the default when stdout is a terminal)")
    shown.add_argument("--json", action="store_true",
                       help="JSON lines on stdout (the default when stdout is not a terminal)")
    analyze.add_argument("--out", metavar="FILE", help="write the JSON lines to FILE, whole or not at all")
    analyze.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    analyze.add_argument("--workers", type=worker_count, metavar="W",
                         help="threads of the compiled batch calls, or processes for a corpus that "
                              "would take more than a few seconds (default: one a core)")
    analyze.add_argument("--scheduler", metavar="ADDRESS",
                         help="analyse on the Dask cluster of this scheduler (tcp://host:8786)")
    analyze.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    analyze.set_defaults(run=cmd_analyze)


class Output:
    """Where the rows go: JSON lines to stdout or kept for ``--out``, and/or the table on stdout."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.out = args.out
        self.table = args.table or (not args.json and sys.stdout.isatty())
        self.json_to_stdout = self.out is None and not self.table
        self.kept: list[str] = []
        self.named: str | None = None   # with several files, the one whose rows come now

    @property
    def wants_json(self) -> bool:
        return bool(self.out) or self.json_to_stdout

    def rows(self, rows: list[dict[str, Any]], table_line: Format | None) -> None:
        """Rows as JSON lines (stdout or ``--out``) and, with ``table_line``, as lines of the table."""
        if self.named is not None:
            rows = [{"file": self.named, **row} for row in rows]
        self.write(*formatted(rows, json.dumps if self.wants_json else None, table_line if self.table else None))

    def write(self, json_text: str, table_text: str) -> None:
        """Rows already formatted: JSON lines and lines of the table."""
        if self.out:
            self.kept.append(json_text)
        if self.json_to_stdout:
            sys.stdout.write(json_text)
        if self.table:
            sys.stdout.write(table_text)

    def text(self, line: str) -> None:
        """A line of the table (nothing unless a table is shown)."""
        if self.table:
            sys.stdout.write(line + "\n")

    def finish(self, force: bool) -> None:
        from ..support import interrupts
        from ..support.files import write_new
        sys.stdout.flush()
        if self.out:
            with interrupts.held():
                write_new(self.out, "".join(self.kept), force=force, option="--out")


def formatted(rows: list[dict[str, Any]], json_line: Format | None, table_line: Format | None) -> tuple[str, str]:
    """The rows as JSON lines (with ``json_line``) and as lines of the table (with ``table_line``)."""
    return ("".join(json_line(row) + "\n" for row in rows) if json_line is not None else "",
            "".join(table_line(row) + "\n" for row in rows) if table_line is not None else "")


def cmd_analyze(args: argparse.Namespace) -> int:
    """``ginnyo analyze FILE``: detect what FILE is, analyse it, write the rows."""
    from ..support import interrupts
    from ..support.files import check_new
    from ..support.line_chunks import LineFile
    from ..support.workers import default_workers
    if args.out:
        check_new(args.out, force=args.force, option="--out")      # before the work, not after
    output = Output(args)
    workers = args.workers or default_workers()
    inputs = input_files(args.file)
    with interrupts.raising():
        for name in inputs:
            with LineFile(name) as source:
                if len(inputs) > 1:
                    output.named = source.name
                    output.text(f"== {source.name}")
                first = source.first_object_line()
                if args.kind != "records" and _one_object_over_lines(first):
                    first = _as_one_line(source)
                kind = args.kind if args.kind != "auto" else detect_kind(first)
                if kind == "records":
                    _records(source, args, output, workers)
                else:
                    _corpus(source, args, output, workers)
        output.finish(args.force)
    return EXIT_OK


def input_files(names: Sequence[str]) -> list[str]:
    """The files named, a folder standing for its ``.json`` and ``.jsonl`` files
    in name order; standard input (``-``) once at most."""
    import os
    from ..errors import PositionError
    from ..support.files import PATH_CHARS, quote
    found: list[str] = []
    for name in names:
        if name != "-" and os.path.isdir(name):
            inside = sorted(entry for entry in os.listdir(name) if entry.endswith((".json", ".jsonl")))
            if not inside:
                raise PositionError(f"{quote(name, PATH_CHARS)}: a folder without .json or .jsonl files")
            found += [os.path.join(name, entry) for entry in inside if os.path.isfile(os.path.join(name, entry))]
        else:
            found.append(name)
    if found.count("-") > 1:
        raise PositionError("'-' (standard input) given more than once")
    return found


def _one_object_over_lines(first: bytes) -> bool:
    """Whether a file's first line opens a JSON object that it does not close:
    a pretty-printed position, not JSON lines."""
    try:
        json.loads(first)
    except ValueError:
        return first.strip().startswith(b"{")
    return False


def _as_one_line(source: Any) -> bytes:
    """The one JSON position of a pretty-printed file, put back as its single
    line; else the one-line error saying what ``analyze`` reads."""
    from ..errors import PositionError
    from ..support.files import POSITION_BYTES
    where = "standard input" if source.name == "-" else source.label
    try:
        value = json.loads(source.rest(POSITION_BYTES, "position"))
    except (ValueError, PositionError) as error:   # not JSON, or larger than a position: not one position
        raise PositionError(f"{where}: neither JSON lines (one position a line) nor one JSON position "
                            f"({error})") from None
    line = json.dumps(value).encode() + b"\n"
    source.pending = [line]
    return line


def detect_kind(first_line: bytes) -> str:
    """``records`` when the first non-blank line is a JSON object with a
    ``record`` field (a game record's header), else ``corpus``."""
    try:
        data = json.loads(first_line)
    except ValueError:
        return "corpus"         # the corpus's loader names what is wrong with it
    return "records" if isinstance(data, dict) and "record" in data else "corpus"


def _bar(total: int | None, unit: str, quiet: bool) -> Any:
    from .progress import progress_bar
    return _NoBar() if quiet else progress_bar(total, unit)  # type: ignore[arg-type]


class _NoBar:
    """A progress bar that shows nothing (``--quiet``)."""

    def update(self, count: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


# -- a corpus ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """Consecutive lines of a corpus, from line ``first`` of the file ``where``,
    and what to make of them: where the work is done, in this process, another
    or on a Dask worker."""

    first: int
    data: bytes
    where: str
    want: str
    as_json: bool
    as_table: bool
    threads: int = 1
    named: bool = False     # each JSON row begins with "file": where


def analyze_piece(piece: Piece) -> tuple[str, str]:
    """A piece's rows, as JSON lines and as lines of the table, as asked."""
    from ..analysis.positions import analyze_arrays, row_json
    from .table import position_line
    from ..analysis.bulk import load_jsonl
    rows = analyze_arrays(load_jsonl(piece.data, first_line=piece.first, where=piece.where),
                          want=piece.want, threads=piece.threads)
    as_json = (partial(_named_row, json.dumps({"file": piece.where})[:-1]) if piece.named else row_json) \
        if piece.as_json else None
    return formatted(rows, as_json, position_line if piece.as_table else None)


def _named_row(head: str, row: dict[str, Any]) -> str:
    """A row's JSON line beginning with its file (``head``: ``{"file": "..."``)."""
    from ..analysis import row_json
    return head + ", " + row_json(row)[1:]


def _corpus(source: Any, args: argparse.Namespace, output: Output, workers: int) -> None:
    from ..analysis.positions import BOTH, EQUITY, SCORE
    from .table import position_header
    output.text(position_header(args.by in (BOTH, SCORE), args.by in (BOTH, EQUITY)))
    lines = source.lines_left()

    def piece(first: int, data: bytes, threads: int) -> Piece:
        return Piece(first, data, source.name, args.by, output.wants_json, output.table, threads,
                     output.named is not None)

    bar = _bar(lines, "line", args.quiet)
    try:
        if args.scheduler:
            results = _spread((piece(first, data, 1) for first, data in source.pieces(CHUNK_POSITIONS)), 2,
                              workers, args.scheduler)
        else:
            results = _here_or_spread(source, piece, lines, workers)
        for done, texts in results:
            output.write(*texts)
            bar.update(_line_count(done.data))
    finally:
        bar.close()


def _line_count(data: bytes) -> int:
    return data.count(b"\n") + (not data.endswith(b"\n"))


def _here_or_spread(source: Any, piece: Callable[[int, bytes, int], Piece], lines: int | None,
                    workers: int) -> Iterator[tuple[Piece, tuple[str, str]]]:
    """The pieces analysed in this process on ``workers`` threads while the
    work left, judged by the time the pieces so far took, is too little to pay
    for starting processes (:data:`PROCESS_SECONDS`); the rest over ``workers``
    processes, in smaller pieces (that the load evens out), once it is not."""
    import time
    seconds, done, size = 0.0, 0, min(FIRST_POSITIONS, CHUNK_POSITIONS)
    while True:
        found = next(source.pieces(size), None)     # the next piece alone: the next may be read otherwise
        if found is None:
            return
        here = piece(found[0], found[1], workers)
        started = time.perf_counter()
        texts = analyze_piece(here)
        seconds += time.perf_counter() - started
        yield here, texts
        done, size = done + _line_count(here.data), CHUNK_POSITIONS
        if workers > 1 and lines is not None and seconds / done * (lines - done) > PROCESS_SECONDS:
            size = min(CHUNK_POSITIONS, max(SPREAD_PIECES, (lines - done) // (8 * workers)))
            yield from _spread((piece(first, data, 1) for first, data in source.pieces(size)),
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
            ) -> Iterator[tuple[Piece, tuple[str, str]]]:
    """The pieces analysed over ``workers`` local processes or on the Dask
    cluster of ``scheduler`` (a window of them at a time: the futures of a
    window are all sent at once), given back in the file's order."""
    from itertools import islice

    from ..support.workers import run_batches
    numbered = enumerate(pieces)
    windows: Iterator[Sequence[tuple[int, Piece]]]
    if scheduler is None:
        windows = iter([_Pieces(numbered, max(estimate, 2))])
    else:
        windows = iter(lambda: list(islice(numbered, WINDOW_CHUNKS)), [])
    kept: dict[int, tuple[Piece, tuple[str, str]]] = {}
    expected = 0
    for window in windows:
        for index, piece, texts in run_batches(_numbered, window, workers=workers, scheduler=scheduler):
            kept[index] = (piece, texts)
            while expected in kept:
                yield kept.pop(expected)
                expected += 1


def _numbered(part: tuple[int, Piece]) -> tuple[int, Piece, tuple[str, str]]:
    """``(index, piece, its texts)``: results that come back in any order are put back in order."""
    index, piece = part
    return index, piece, analyze_piece(piece)


# -- a game record -------------------------------------------------------------------------------

def _records(source: Any, args: argparse.Namespace, output: Output, workers: int) -> None:
    from .table import summary_lines, turn_header, turn_line
    from ..errors import RecordError
    from ..support.files import RECORD_BYTES, text_of
    from ..analysis.records import analyze_record
    from ..game.records import parse_record
    from ..support.workers import run_batches
    source.error = RecordError
    data = source.rest(RECORD_BYTES, "game record")
    lines = parse_record(text_of(data, source.name, RecordError), source.name)
    bar = _bar(max(0, len(lines) - 2), "turn", args.quiet)
    try:
        if args.scheduler:
            task = partial(analyze_record, name=source.name, threads=1)
            [(rows, summary)] = list(run_batches(task, [lines], workers=1, scheduler=args.scheduler))
        else:
            rows, summary = analyze_record(lines, source.name, threads=workers, on_turn=bar.update)
    finally:
        bar.close()
    output.text(turn_header())
    output.rows(rows, turn_line)
    output.text("")
    output.rows([{"summary": row} for row in summary], None)
    for line in summary_lines(summary):
        output.text(line)
