"""``ginnyo analyze FILE``: a corpus's positions or a game record's turns analysed
in bulk, streamed as JSON lines or shown as a table."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import Any, Callable, Sequence

from .arguments import EXIT_OK, FORCE_HELP, file_name, scheduler_address, worker_count

KINDS = ("auto", "corpus", "records")
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
    analyze.add_argument("--out", type=file_name, metavar="FILE",
                         help="write the JSON lines to FILE, whole or not at all")
    analyze.add_argument("--force", action="store_true", help=FORCE_HELP.format("--out"))
    analyze.add_argument("--workers", type=worker_count, metavar="W",
                         help="threads of the compiled batch calls, or processes for a corpus that "
                              "would take more than a few seconds (default: one a core)")
    analyze.add_argument("--scheduler", type=scheduler_address, metavar="ADDRESS",
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


class _Bar:
    """The progress bar of one file on stderr, shown once the work tells its total."""

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.shown: Any = None

    def __call__(self, total: int | None) -> Callable[[int], object]:
        from .progress import progress_bar
        self.shown = progress_bar(total, self.unit)  # type: ignore[arg-type]
        return self.shown.update    # type: ignore[no-any-return]  # tqdm has no inline types

    def close(self) -> None:
        if self.shown is not None:
            self.shown.close()


# -- a corpus ------------------------------------------------------------------------------------

def piece_texts(rows: list[dict[str, Any]], *, named: str | None, as_json: bool, as_table: bool
                ) -> tuple[str, str]:
    """A piece's rows as JSON lines (each beginning with ``"file": named`` when
    named) and as lines of the table, as asked: made where the piece ran."""
    from ..analysis.positions import row_json
    from .table import position_line
    json_line = (partial(_named_row, json.dumps({"file": named})[:-1]) if named is not None else row_json) \
        if as_json else None
    return formatted(rows, json_line, position_line if as_table else None)


def _named_row(head: str, row: dict[str, Any]) -> str:
    """A row's JSON line beginning with its file (``head``: ``{"file": "..."``)."""
    from ..analysis.positions import row_json
    return head + ", " + row_json(row)[1:]


def _corpus(source: Any, args: argparse.Namespace, output: Output, workers: int) -> None:
    from ..analysis.positions import BOTH, EQUITY, SCORE
    from ..analysis.schedule import analyze_corpus
    from .table import position_header
    output.text(position_header(args.by in (BOTH, SCORE), args.by in (BOTH, EQUITY)))
    texts = partial(piece_texts, named=output.named, as_json=output.wants_json, as_table=output.table)
    bar = _Bar("line")
    try:
        for piece in analyze_corpus(source, want=args.by, workers=workers, scheduler=args.scheduler, then=texts,
                                    progress=None if args.quiet else bar):
            output.write(*piece)
    finally:
        bar.close()


# -- a game record -------------------------------------------------------------------------------

def _records(source: Any, args: argparse.Namespace, output: Output, workers: int) -> None:
    from ..analysis.schedule import analyze_record_file
    from .table import summary_lines, turn_header, turn_line
    bar = _Bar("turn")
    try:
        rows, summary = analyze_record_file(source, workers=workers, scheduler=args.scheduler,
                                            progress=None if args.quiet else bar)
    finally:
        bar.close()
    output.text(turn_header())
    output.rows(rows, turn_line)
    output.text("")
    output.rows([{"summary": row} for row in summary], None)
    for line in summary_lines(summary):
        output.text(line)
