"""``ginnyo analyze FILE``: a corpus's positions or a game record's turns analysed
in bulk, streamed as JSON lines or shown as a table."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import Any, Callable, Iterator

from .arguments import EXIT_OK, FORCE_HELP, worker_count

KINDS = ("auto", "corpus", "records")
CHUNK_POSITIONS = 4096      # positions solved in one batch call (and one Dask task)
WINDOW_CHUNKS = 64          # chunks handed to a Dask cluster at once: memory stays bounded


def register(commands: Any) -> None:
    """Add ``analyze`` to the main parser's commands."""
    from ..analysis import WANTS
    analyze = commands.add_parser(
        "analyze", help="best plays of a corpus's positions, or a game record's moves against the best")
    analyze.add_argument("file", metavar="FILE",
                         help="a corpus (.jsonl, one position a line) or a game record; - reads stdin")
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
                         help="threads of the compiled batch calls (default: one a core)")
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

    def rows(self, rows: list[dict[str, Any]], table_line: Callable[[dict[str, Any]], str] | None) -> None:
        """Rows as JSON lines (stdout or ``--out``) and, with ``table_line``, as lines of the table."""
        text = "".join(json.dumps(row) + "\n" for row in rows) if self.out or self.json_to_stdout else ""
        if self.out:
            self.kept.append(text)
        if self.json_to_stdout:
            sys.stdout.write(text)
        if self.table and table_line is not None:
            sys.stdout.write("".join(table_line(row) + "\n" for row in rows))

    def text(self, line: str) -> None:
        """A line of the table (nothing unless a table is shown)."""
        if self.table:
            sys.stdout.write(line + "\n")

    def finish(self, force: bool) -> None:
        from .. import interrupts
        from ..files import write_new
        sys.stdout.flush()
        if self.out:
            with interrupts.held():
                write_new(self.out, "".join(self.kept), force=force, option="--out")


def cmd_analyze(args: argparse.Namespace) -> int:
    """``ginnyo analyze FILE``: detect what FILE is, analyse it, write the rows."""
    from .. import interrupts
    from ..files import check_new
    from ..line_chunks import LineFile
    from ..workers import default_workers
    if args.out:
        check_new(args.out, force=args.force, option="--out")      # before the work, not after
    output = Output(args)
    workers = args.workers or default_workers()
    with interrupts.raising(), LineFile(args.file) as source:
        kind = args.kind if args.kind != "auto" else detect_kind(source.first_object_line())
        if kind == "records":
            _records(source, args, output, workers)
        else:
            _corpus(source, args, output, workers)
        output.finish(args.force)
    return EXIT_OK


def detect_kind(first_line: bytes) -> str:
    """``records`` when the first non-blank line is a JSON object with a
    ``record`` field (a game record's header), else ``corpus``."""
    try:
        data = json.loads(first_line)
    except ValueError:
        return "corpus"         # the corpus's loader names what is wrong with it
    return "records" if isinstance(data, dict) and "record" in data else "corpus"


def _bar(total: int | None, unit: str, quiet: bool) -> Any:
    from ..progress import progress_bar
    return _NoBar() if quiet else progress_bar(total, unit)  # type: ignore[arg-type]


class _NoBar:
    """A progress bar that shows nothing (``--quiet``)."""

    def update(self, count: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


# -- a corpus ------------------------------------------------------------------------------------

def analyze_piece(part: tuple[int, bytes, str, str]) -> list[dict[str, Any]]:
    """The rows of one piece of a corpus, ``(first line, text, file name, want)``,
    on one thread: what a Dask task runs."""
    from ..analysis import analyze_arrays
    from ..bulk import load_jsonl
    first, data, where, want = part
    return analyze_arrays(load_jsonl(data, first_line=first, where=where), want=want, threads=1)


def _corpus(source: Any, args: argparse.Namespace, output: Output, workers: int) -> None:
    from ..analysis import BOTH, EQUITY, SCORE, analyze_arrays
    from ..analysis_table import position_header, position_line
    from ..bulk import load_jsonl
    output.text(position_header(args.by in (BOTH, SCORE), args.by in (BOTH, EQUITY)))
    bar = _bar(source.lines_left(), "line", args.quiet)
    try:
        pieces = source.pieces(CHUNK_POSITIONS)
        if args.scheduler:
            results: Iterator[tuple[bytes, list[dict[str, Any]]]] = _on_cluster(pieces, args)
        else:
            results = ((data, analyze_arrays(load_jsonl(data, first_line=first, where=source.name),
                                              want=args.by, threads=workers)) for first, data in pieces)
        for data, rows in results:
            output.rows(rows, position_line)
            bar.update(data.count(b"\n") + (not data.endswith(b"\n")))
    finally:
        bar.close()


def _on_cluster(pieces: Iterator[tuple[int, bytes]], args: argparse.Namespace
                ) -> Iterator[tuple[bytes, list[dict[str, Any]]]]:
    """The pieces analysed on the Dask cluster, a window of them at a time,
    given back in the file's order."""
    from itertools import islice

    from ..workers import run_batches
    while True:
        window = [(first, data, args.file, args.by) for first, data in islice(pieces, WINDOW_CHUNKS)]
        if not window:
            return
        done: dict[int, list[dict[str, Any]]] = {}
        for rows in run_batches(partial(_indexed, analyze_piece), list(enumerate(window)), workers=1,
                                scheduler=args.scheduler):
            done[rows[0]] = rows[1]
        for index, part in enumerate(window):
            yield part[1], done[index]


def _indexed(function: Callable[[Any], Any], part: tuple[int, Any]) -> tuple[int, Any]:
    """``(index, function(item))`` of an ``(index, item)`` part: results that
    come back in any order are put back in order by their index."""
    return part[0], function(part[1])


# -- a game record -------------------------------------------------------------------------------

def _records(source: Any, args: argparse.Namespace, output: Output, workers: int) -> None:
    from ..analysis_table import summary_lines, turn_header, turn_line
    from ..errors import RecordError
    from ..files import PATH_CHARS, RECORD_BYTES, quote
    from ..record_analysis import analyze_record
    from ..records import parse_record
    from ..workers import run_batches
    source.error = RecordError
    data = source.rest(RECORD_BYTES, "game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{quote(source.name, PATH_CHARS)}: not a text file (not UTF-8)") from None
    lines = parse_record(text, source.name)
    bar = _bar(max(0, len(lines) - 2), "turn", args.quiet)
    try:
        if args.scheduler:
            task = partial(analyze_record, name=source.name, threads=1)
            rows, summary = next(iter(run_batches(task, [lines], workers=1, scheduler=args.scheduler)))
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
