"""A JSON-lines file read in pieces of a given number of non-blank lines, in
bounded memory: at most one piece and one line of :data:`files.POSITION_BYTES`
are held at a time.  What ``ginnyo analyze`` and the bulk corpus loader read
their ``.jsonl`` through."""

from __future__ import annotations

import os
import sys
from typing import BinaryIO, Iterator

from ..errors import GinnyoError, PositionError
from .files import PATH_CHARS, POSITION_BYTES, path_name, quote

COUNT_BYTES = 1 << 20       # read this much at a time when counting lines


class LineFile:
    """An open input file (``'-'``: standard input) read line by line, whose
    first lines may be looked at (:meth:`first_object_line`) before the pieces
    are read: nothing is read twice, so standard input works too.  A context
    manager: leaving it closes the file (never standard input)."""

    def __init__(self, path: str, error: type[GinnyoError] = PositionError) -> None:
        self.name, self.error = path_name(path), error
        self.label = quote(self.name, PATH_CHARS)
        try:
            self.handle: BinaryIO = sys.stdin.buffer if self.name == "-" else open(self.name, "rb")
        except OSError as problem:
            raise error(f"{self.label}: cannot read ({problem.strerror or problem})") from None
        self.pending: list[bytes] = []     # lines looked at, not yet handed out
        self.number = 1                    # the number of the next line handed out

    def __enter__(self) -> LineFile:
        return self

    def __exit__(self, *_: object) -> None:
        if self.handle is not sys.stdin.buffer:
            self.handle.close()

    def _read_line(self) -> bytes:
        try:
            line = self.handle.readline(POSITION_BYTES + 2)
        except OSError as problem:
            raise self.error(f"{self.label}: cannot read ({problem.strerror or problem})") from None
        if len(line.rstrip(b"\r\n")) > POSITION_BYTES:
            number = self.number + len(self.pending)
            raise self.error(f"{self.name}:{number}: larger than a line may be "
                             f"({POSITION_BYTES // (1024 * 1024)} MiB at most)")
        return line

    def first_object_line(self) -> bytes:
        """The first non-blank line (empty at the end of the file), kept to be
        handed out again by :meth:`pieces`."""
        for line in self.pending:
            if line.strip():
                return line
        while True:
            line = self._read_line()
            if not line:
                return b""
            self.pending.append(line)
            if line.strip():
                return line

    def lines_left(self) -> int | None:
        """How many lines the rest of a regular file holds (counted quickly), or
        None for standard input, a pipe or a device."""
        try:
            if self.handle is sys.stdin.buffer or not os.path.isfile(self.name):
                return None
            here = self.handle.tell()
            count = trailing = 0
            while True:
                block = self.handle.read(COUNT_BYTES)
                if not block:
                    break
                count += block.count(b"\n")
                trailing = block[-1] != ord("\n")
            self.handle.seek(here)
        except (OSError, ValueError):
            return None
        return count + trailing + len(self.pending)

    def pieces(self, size: int) -> Iterator[tuple[int, bytes]]:
        """``(number of its first line, text)`` of consecutive pieces of the
        rest of the file, each holding ``size`` non-blank lines (the last
        fewer; blank lines go with the piece after them)."""
        lines: list[bytes] = []
        first, filled = self.number, 0
        while True:
            line = self.pending.pop(0) if self.pending else self._read_line()
            if not line:
                break
            lines.append(line)
            self.number += 1
            filled += bool(line.strip())
            if filled == size:
                yield first, b"".join(lines)
                lines, first, filled = [], self.number, 0
        if filled:
            yield first, b"".join(lines)

    def rest(self, limit: int, what: str) -> bytes:
        """Everything left, at most ``limit`` bytes (else the error, naming ``what``)."""
        head = b"".join(self.pending)
        self.pending = []
        try:
            data = head + self.handle.read(limit + 1 - len(head))
        except OSError as problem:
            raise self.error(f"{self.label}: cannot read ({problem.strerror or problem})") from None
        if len(data) > limit:
            where = "standard input" if self.name == "-" else self.label
            raise self.error(f"{where}: larger than a {what} may be ({limit // (1024 * 1024)} MiB at most)")
        return data


__all__ = ["LineFile"]
