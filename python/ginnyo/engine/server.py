"""``ginnyo engine``: the line protocol on stdin/stdout (docs/PROTOCOL.md).

Modelled on chess's UCI and the crossword games' UCGI drafts: one command a
line in, response lines out, flushed after every command.  Errors are answered
as ``info string error <code> <message>`` and the engine keeps serving; every
line whose first word is ``go`` gets exactly one ``bestmove`` line, whatever
goes wrong (:data:`NO_MOVE`).  Only ``quit``, the end of input or a closed
output stops it.
"""

from __future__ import annotations

from typing import BinaryIO, Callable, Iterable, Iterator, TextIO

from .. import __version__
from ..errors import GinnyoError, IllegalMoveError, InvalidMoveError, LineTooLong, PositionError, ProtocolError
from ..support.files import quote
from ..position.position import Position
from ..native import ranked_moves
from ..vocab.notation import play_notation
from ..vocab.play import Play
from ..position.line import to_line
from ..vocab.tiles import rack_code

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20  # longer lines are skipped with an error, never held in memory
HEAD_BYTES = 64  # the start of a skipped line kept to tell which command it was
MAX_MESSAGE = 200  # characters of an error message, at most
NO_MOVE = "bestmove none"  # the answer to a go that failed (docs/PROTOCOL.md)
CAPABILITIES = ("position-line", "position-json", "go-top", "go-endgame", "moves", "score", "apply", "show")
HELLOS = {"ginnyo": "ginnyook", "ucgi": "ucgiok"}


def error_line(code: str, message: object) -> str:
    """``info string error <code> <message>``, always one line."""
    text = " ".join(str(message).split()) or code
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "..."
    return f"info string error {code} {text}"


def error_code(error: Exception) -> str:
    """The protocol's code for an exception raised while serving a command."""
    if isinstance(error, ProtocolError):
        return error.code
    if isinstance(error, PositionError):
        return "bad-position"
    if isinstance(error, InvalidMoveError):
        return "invalid-move"
    if isinstance(error, IllegalMoveError):
        return "illegal-move"
    if isinstance(error, GinnyoError):
        return "bad-argument"
    return "internal"


def failure_lines(command: str | bytes, code: str, message: object) -> list[str]:
    """The answer to a command that failed: its error line, and after a ``go``
    the :data:`NO_MOVE` that every ``go`` ends with."""
    lines = [error_line(code, message)]
    if command in ("go", b"go"):
        lines.append(NO_MOVE)
    return lines


def candidate_line(rank: int, score: int, notation: str) -> str:
    """``info rank 1 score 60 move D2 KCKDKS`` (the move is the rest of the line)."""
    return f"info rank {rank} score {score} move {notation}"


class Engine:
    """The protocol's state (the current position) and one method per command.

    :meth:`handle` takes one line and returns the response lines; it never
    raises for bad input.  ``running`` turns false after ``quit``."""

    def __init__(self) -> None:
        self.position: Position | None = None
        self.running = True
        self._commands: dict[str, Callable[[str], Iterable[str]]] = {
            "ginnyo": lambda argument: self.hello("ginnyo", argument),
            "ucgi": lambda argument: self.hello("ucgi", argument),
            "isready": self.isready,
            "position": self.set_position, "go": self.go, "moves": self.moves,
            "score": self.score, "apply": self.apply, "show": self.show, "quit": self.quit,
        }

    def handle(self, line: str) -> Iterable[str]:
        """The response to one command line (no line end); blank lines get none.
        A long answer (``moves``) comes as an iterator, made as it is written."""
        words = line.split(None, 1)
        if not words:
            return []
        name, argument = words[0], words[1].strip() if len(words) > 1 else ""
        command = self._commands.get(name)
        if command is None:
            return [error_line("unknown-command",
                               f"{quote(name)} (commands: {' '.join(self._commands)})")]
        try:
            return command(argument)
        except Exception as error:  # noqa: BLE001 - the engine answers every error and keeps serving
            code = error_code(error)
            return failure_lines(name, code, f"{type(error).__name__}: {error}" if code == "internal" else error)

    # -- commands ------------------------------------------------------------
    def hello(self, hello: str, argument: str) -> list[str]:
        """``ginnyo`` (or ``ucgi``): who the engine is and what it can do."""
        _no_argument(hello, argument)
        return (["id name ginnyo", f"id version {__version__}", f"id protocol {PROTOCOL_VERSION}"]
                + [f"capability {name}" for name in CAPABILITIES] + [HELLOS[hello]])

    def isready(self, argument: str) -> list[str]:
        _no_argument("isready", argument)
        return ["readyok"]

    def set_position(self, argument: str) -> list[str]:
        """``position <line>`` or ``position json <json>``; silent on success."""
        words = argument.split(None, 1)
        if not words:
            raise ProtocolError("bad-argument", "position: expected 'position <position string>'"
                                " or 'position json <json>'")
        if words[0] == "json":
            self.position = _position_from_json(words[1] if len(words) > 1 else "")
        else:
            self.position = Position.from_line(argument)
        return []

    def go(self, argument: str) -> list[str]:
        """``go`` or ``go top N``: ``info`` lines for the best N, then one ``bestmove``;
        ``go endgame [S]``: the endgame or pre-endgame solver's move (:mod:`ginnyo.endgame.choice`)."""
        if argument.split()[:1] == ["endgame"]:
            from ..endgame.choice import go_endgame
            lines = go_endgame(self._current(), argument)
            return lines if lines[-1].startswith("bestmove") else lines + self.go("")
        top = _top_count(argument)
        position = self._current()
        if top == 1:
            best = position.best_play()
            plays = [best] if best is not None else []
        else:
            plays = position.top_plays(top)
        lines = [candidate_line(rank, scored.score, play_notation(position, scored.play))
                 for rank, scored in enumerate(plays, 1)]
        if plays:
            lines.append(f"bestmove {play_notation(position, plays[0].play)}")
            return lines
        tiles, reason = position.return_advice()
        lines.append(f"info string no legal play: {reason}")
        if tiles:
            lines.append("bestmove none return " + " ".join(rack_code(tile) for tile in tiles))
        else:
            lines.append("bestmove none pass")
        return lines

    def moves(self, argument: str) -> Iterator[str]:
        """Every legal play as an ``info`` line, best first, then ``movesok <count>``:
        generated in bounded passes as the lines are written, so memory stays
        bounded however many plays there are."""
        _no_argument("moves", argument)
        position = self._current()
        plays = ranked_moves(position)
        return self._listing(position, plays, "moves")

    def _listing(self, position: Position, plays: Iterator[tuple[int, Play]], name: str) -> Iterator[str]:
        count = 0
        try:
            for count, (total, play) in enumerate(plays, 1):
                yield candidate_line(count, total, play_notation(position, play))
        except Exception as error:  # noqa: BLE001 - as handle(): an answer, never a traceback
            yield from failure_lines(name, error_code(error), error)
            return
        yield f"movesok {count}"

    def score(self, argument: str) -> list[str]:
        """``info meld`` lines, then ``score <total> move <canonical notation>``."""
        position = self._current()
        scored = position.score(_notation(argument, "score"))
        name = position.layout.square_name
        lines = [f"info meld {meld.kind} {name(meld.squares[0])}-{name(meld.squares[-1])} score {meld.score}"
                 for meld in scored.melds]
        lines.append(f"score {scored.score} move {play_notation(position, scored.play)}")
        return lines

    def apply(self, argument: str) -> list[str]:
        """Play a move on the current position; silent on success."""
        self.position = self._current().apply(_notation(argument, "apply"))
        return []

    def show(self, argument: str) -> list[str]:
        """``position <line>``: the current position as a position string."""
        _no_argument("show", argument)
        return [f"position {to_line(self._current())}"]

    def quit(self, argument: str) -> list[str]:
        self.running = False
        return []

    def _current(self) -> Position:
        if self.position is None:
            raise ProtocolError("no-position", "no position yet: send 'position <position string>' first")
        return self.position


def _no_argument(command: str, argument: str) -> None:
    if argument:
        raise ProtocolError("bad-argument", f"{command}: takes no argument, got {quote(argument)}")


def _top_count(argument: str) -> int:
    if not argument:
        return 1
    words = argument.split()
    if len(words) == 2 and words[0] == "top" and words[1].isascii() and words[1].isdigit() \
            and len(words[1]) <= 9 and int(words[1]) >= 1:
        return int(words[1])
    raise ProtocolError("bad-argument",
                        f"go: expected 'go', 'go top N' (N >= 1) or 'go endgame [S]', got {quote(argument)}")


def _notation(argument: str, command: str) -> str:
    if not argument:
        raise ProtocolError("bad-argument", f"{command}: expected a move, e.g. '{command} 8G ...8H9H'")
    return argument


def _position_from_json(text: str) -> Position:
    if not text:
        raise ProtocolError("bad-argument", "position json: expected a JSON object after 'json'")
    return Position.from_json(text)


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


def serve(stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer commands from ``stdin`` until ``quit``, the end of input or a closed
    ``stdout``; 0.  Every ``go`` line gets exactly one ``bestmove``, even one
    too long to read or not UTF-8."""
    engine = Engine()
    while engine.running:
        head = b""
        try:
            raw = _read_input(stdin)
            if raw is None:
                break
            head = raw[:HEAD_BYTES]
            lines = engine.handle(decode_line(raw))
        except ProtocolError as error:
            lines = failure_lines(first_word(error.head if isinstance(error, LineTooLong) else head),
                                  error.code, error)
        try:
            for line in lines:
                stdout.write(line + "\n")
            stdout.flush()
        except (BrokenPipeError, ConnectionResetError):
            return 0   # the other side has gone: nothing left to answer
    return 0


def _read_input(stdin: BinaryIO) -> bytes | None:
    try:
        return read_line(stdin)
    except OSError as problem:   # standard input is a directory, or a device that fails
        raise GinnyoError(f"standard input: cannot read ({problem.strerror or problem})") from None


__all__ = ["Engine", "serve", "ProtocolError", "LineTooLong", "error_line", "failure_lines",
           "candidate_line", "NO_MOVE"]
