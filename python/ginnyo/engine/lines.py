"""The engine's input: bounded lines read from stdin (a line too long is skipped in pieces, never held
whole), and, while ``go sim`` runs, a reader thread reading ahead so that ``stop`` is heard between its
blocks of rollouts (docs/PROTOCOL.md, "Stopping a simulation")."""

from __future__ import annotations

import queue
import threading
from collections import deque
from typing import BinaryIO, TextIO, Union

from ..errors import GinnyoError, LineTooLong, ProtocolError

MAX_LINE_BYTES = 1 << 20  # longer lines are skipped with an error, never held in memory
HEAD_BYTES = 64  # the start of a skipped line kept to tell which command it was
READ_AHEAD = 16             # input lines read ahead, at most, while go sim listens for stop


def read_line(stream: BinaryIO) -> bytes | None:
    """The next line without its end, None at the end of input.  A line longer
    than :data:`MAX_LINE_BYTES` is read to its end in pieces, never held in
    memory whole, and raises :class:`LineTooLong`."""
    line = stream.readline(MAX_LINE_BYTES + 1)
    if not line:
        return None
    if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
        head = _grow_head(b"", line)
        while True:
            piece = stream.readline(MAX_LINE_BYTES)
            head = _grow_head(head, piece)
            if not piece or piece.endswith(b"\n"):
                break
        raise LineTooLong(head, MAX_LINE_BYTES)
    return line.rstrip(b"\r\n")


def _grow_head(head: bytes, piece: bytes) -> bytes:
    """The start of a line from its first non-blank byte, grown piece by piece
    until it holds the line's first word whole (or :data:`HEAD_BYTES`)."""
    if len(head) >= HEAD_BYTES or (head and len(head.split(None, 1)[0]) < len(head)):
        return head
    return (head + piece[:HEAD_BYTES] if head else piece.lstrip()[:HEAD_BYTES])[:HEAD_BYTES]


def decode_line(raw: bytes) -> str:
    """A line as text; raises :class:`ProtocolError` ``bad-encoding``."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolError("bad-encoding", f"the line is not UTF-8 text (byte {error.start + 1})") from None


def first_word(raw: bytes) -> bytes:
    """The command word of a line that could not be read as text."""
    words = raw.split(None, 1)
    return words[0] if words else b""


Read = Union[bytes, None, GinnyoError]   # a line, the end of input, or why a line could not be read


class Input:
    """The engine's input lines, read one at a time where the loop needs them, until
    ``go sim`` first asks what has :meth:`arrived` while it runs: from then on a reader
    thread reads ahead, at most :data:`READ_AHEAD` lines, and the loop takes them from
    its queue.  The lines a search looks at and does not take are :meth:`hold`-en and
    come next, in order."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.held: deque[Read] = deque()
        self.ahead: queue.Queue[Read] | None = None

    def next(self) -> bytes | None:
        """The next line (None at the end of input); raises what reading it raised."""
        if self.held:
            item = self.held.popleft()
        elif self.ahead is not None:
            item = self.ahead.get()
        else:
            item = _read_input(self.stream)
        if isinstance(item, GinnyoError):
            raise item
        return item

    def arrived(self) -> list[Read]:
        """The lines read since the last look, without waiting for any."""
        if self.ahead is None:
            self.ahead = queue.Queue(READ_AHEAD)
            threading.Thread(target=_read_ahead, args=(self.stream, self.ahead), name="ginnyo-engine-input",
                             daemon=True).start()
        items: list[Read] = []
        while True:
            try:
                items.append(self.ahead.get_nowait())
            except queue.Empty:
                return items

    def hold(self, item: Read) -> None:
        self.held.append(item)


def _read_ahead(stream: BinaryIO, ahead: queue.Queue[Read]) -> None:
    """The reader thread: every line into ``ahead`` (waiting while it is full), up to the
    end of input or an input that fails."""
    while True:
        item: Read
        try:
            item = _read_input(stream)
        except GinnyoError as error:
            item = error
        ahead.put(item)
        if item is None or (isinstance(item, GinnyoError) and not isinstance(item, LineTooLong)):
            return


def heard_stop(lines: Input, stdout: TextIO) -> bool:
    """Between ``go sim``'s blocks: send what it wrote, then look at the lines that came
    meanwhile.  ``stop`` is taken (True); any other line, ``quit`` too, is held and served
    after the ``bestmove`` (so a script piped in whole answers the same every time).  A
    closed output stops it too."""
    try:
        stdout.flush()
    except (BrokenPipeError, ConnectionResetError):
        return True
    stop = False
    for item in lines.arrived():
        word = first_word(item) if isinstance(item, bytes) else b""
        if word == b"stop":
            stop = True
        else:
            lines.hold(item)
    return stop


def _read_input(stdin: BinaryIO) -> bytes | None:
    try:
        return read_line(stdin)
    except OSError as problem:   # standard input is a directory, or a device that fails
        raise GinnyoError(f"standard input: cannot read ({problem.strerror or problem})") from None


__all__ = ["Input", "Read", "read_line", "decode_line", "first_word", "heard_stop", "MAX_LINE_BYTES", "HEAD_BYTES",
           "READ_AHEAD"]
