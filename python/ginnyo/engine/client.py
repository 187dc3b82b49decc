"""A blocking client for ``ginnyo engine`` (docs/PROTOCOL.md), like python-chess's SimpleEngine.

    with SimpleEngine.popen() as engine:
        engine.set_position("15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 5C5S")
        result = engine.go(top=3)
        best, ranked = result.bestmove, [(c.score, c.notation) for c in result.candidates]
        by_equity = engine.go(top=3, equity=True)       # each candidate with its equity
        simulated = engine.go(sim=True, rollouts=500, seed=1)   # each with its mean, stderr and win chance

Each method sends one command and reads the engine's lines up to that
command's last line; an ``info string error`` answer raises :class:`EngineError`.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import IO, Callable, Sequence

from ..errors import EngineError, EngineTerminatedError
from ..position.position import Position
from ..position.line import to_line

DEFAULT_TIMEOUT = 60.0  # seconds to wait for a line before giving up on the engine
ERROR_PREFIX = "info string error "


@dataclass(frozen=True)
class Candidate:
    """One play as an ``info rank`` line gives it; after ``go equity`` its equity, after
    ``go sim`` also its mean outcome, that mean's standard error and its win chance (None
    where the line has none).  A return's notation is ``return <tiles>``, a pass's ``pass``."""

    rank: int
    score: int
    notation: str
    equity: float | None = None
    mean: float | None = None
    stderr: float | None = None
    win: float | None = None


@dataclass(frozen=True)
class SimProgress:
    """One ``info sim`` progress line of ``go sim``: the rollouts made of those asked and the leader."""

    rollouts: int
    asked: int
    mean: float | None
    stderr: float | None
    win: float | None
    notation: str


@dataclass(frozen=True)
class GoResult:
    """What ``go`` answered: the best play's notation (None when there is no
    legal play, or the best action is a return or a pass), the candidates best
    first, and the tiles to return instead.  After ``go sim``: its progress lines,
    the rollouts made and whether ``stop`` ended it early."""

    bestmove: str | None
    candidates: tuple[Candidate, ...]
    return_tiles: tuple[str, ...] = ()
    progress: tuple[SimProgress, ...] = ()
    rollouts: int | None = None
    stopped: bool = False


@dataclass(frozen=True)
class MeldLine:
    """One meld of a scored play: kind, span (``D2-D4``) and score."""

    kind: str
    span: str
    score: int


@dataclass(frozen=True)
class ScoreResult:
    """What ``score`` answered: the total, the canonical notation, the melds."""

    score: int
    notation: str
    melds: tuple[MeldLine, ...]


def default_command() -> list[str]:
    """``ginnyo engine`` run by this interpreter."""
    return [sys.executable, "-m", "ginnyo", "engine"]


class SimpleEngine:
    """A ``ginnyo engine`` process driven one command at a time; a context manager."""

    def __init__(self, process: subprocess.Popen[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        self.process = process
        self.timeout = timeout
        self.id: dict[str, str] = {}
        self.capabilities: set[str] = set()
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert process.stdout is not None
        self._reader = threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True)
        self._reader.start()

    @classmethod
    def popen(cls, command: Sequence[str] | None = None, timeout: float = DEFAULT_TIMEOUT) -> "SimpleEngine":
        """Start the engine (``ginnyo engine`` by default) and do the handshake."""
        process = subprocess.Popen(list(command or default_command()), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        engine = cls(process, timeout)
        try:
            engine.handshake()
        except BaseException:
            engine.close()
            raise
        return engine

    # -- commands ----------------------------------------------------------
    def handshake(self) -> None:
        """``ginnyo``: fills :attr:`id` (name, version, protocol) and :attr:`capabilities`."""
        for line in self.request("ginnyo", ("ginnyook",)):
            words = line.split(None, 2)
            if words[0] == "id" and len(words) == 3:
                self.id[words[1]] = words[2]
            elif words[0] == "capability" and len(words) >= 2:
                self.capabilities.add(words[1])

    def is_ready(self) -> None:
        """``isready``; returns at ``readyok``."""
        self.request("isready", ("readyok",))

    def set_position(self, position: Position | str) -> None:
        """``position <line>`` (a :class:`Position` is sent as its line)."""
        line = to_line(position) if isinstance(position, Position) else position
        self.silent(f"position {line}")

    def set_position_json(self, text: str) -> None:
        """``position json <json>`` (the JSON must be on one line)."""
        self.silent(f"position json {text}")

    def go(self, top: int | None = None, *, equity: bool = False, sim: bool = False, rollouts: int | None = None,
           plies: int | None = None, seconds: float | None = None, seed: int | None = None,
           on_progress: Callable[[SimProgress], None] | None = None) -> GoResult:
        """``go`` / ``go top N``: the best play, with up to ``top`` candidates (default 1);
        with ``equity``, ``go equity``: the actions by equity; with ``sim``, ``go sim``: the
        top candidates by equity simulated (the settings left None take the engine's
        defaults), ``on_progress`` called with each progress line as it comes; :meth:`stop`
        from another thread ends it early."""
        if equity and sim:
            raise ValueError("go: equity or sim, not both")
        settings: dict[str, float | None] = {"top": top}
        if sim:
            settings.update(rollouts=rollouts, plies=plies, seconds=seconds, seed=seed)
        elif (rollouts, plies, seconds, seed) != (None, None, None, None):
            raise ValueError("go: rollouts, plies, seconds and seed are go sim's settings (sim=True)")
        words = ["go", *(["equity"] if equity else ["sim"] if sim else [])]
        words += [f"{name} {value}" for name, value in settings.items()
                  if value is not None and not (name == "top" and value == 1 and not (equity or sim))]
        progress: list[SimProgress] = []

        def heard(line: str) -> None:
            if line.startswith("info sim rollouts "):
                progress.append(_progress(line))
                if on_progress is not None:
                    on_progress(progress[-1])

        lines = self.request(" ".join(words), ("bestmove",), heard)
        candidates = tuple(_candidate(line) for line in lines if line.startswith("info rank "))
        ended = [line.split() for line in lines if line.startswith(("info sim done ", "info sim stopped "))]
        made = int(ended[-1][4]) if ended else None
        stopped = bool(ended) and ended[-1][2] == "stopped"
        words_after = lines[-1].split(" ", 1)[1]
        if words_after.startswith("none"):
            tiles = words_after.split()[2:] if words_after.startswith("none return ") else []
            return GoResult(None, candidates, tuple(tiles), tuple(progress), made, stopped)
        return GoResult(words_after, candidates, (), tuple(progress), made, stopped)

    def stop(self) -> None:
        """``stop``: end a running ``go sim`` early (it still answers its ``bestmove``);
        nothing when none runs.  Safe to call from another thread than the one in :meth:`go`."""
        self.send("stop")

    def moves(self) -> list[Candidate]:
        """``moves``: every legal play, best first."""
        return [_candidate(line) for line in self.request("moves", ("movesok",))
                if line.startswith("info rank ")]

    def score(self, notation: str) -> ScoreResult:
        """``score <notation>``: validate and score a play; raises :class:`EngineError`
        (``illegal-move``, ``invalid-move``) when it is not a legal play."""
        lines = self.request(f"score {notation}", ("score",))
        melds = []
        for line in lines[:-1]:
            words = line.split()
            if words[:2] == ["info", "meld"]:
                melds.append(MeldLine(words[2], words[3], int(words[5])))
        _, total, _, canonical = lines[-1].split(" ", 3)
        return ScoreResult(int(total), canonical, tuple(melds))

    def apply(self, notation: str) -> None:
        """``apply <notation>``: play a move on the engine's position."""
        self.silent(f"apply {notation}")

    def show(self) -> str:
        """``show``: the engine's current position as a position string."""
        return self.request("show", ("position",))[-1].split(" ", 1)[1]

    def quit(self) -> int:
        """``quit``; waits for the process and returns its exit status."""
        self.send("quit")
        return self.process.wait(self.timeout)

    def close(self) -> None:
        """Quit if still running (killing the process if it will not), close the pipes."""
        if self.process.poll() is None:
            try:
                self.quit()
            except (OSError, subprocess.TimeoutExpired, EngineTerminatedError):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the line level ------------------------------------------------------
    def send(self, command: str) -> None:
        """Write one command line."""
        if "\n" in command or "\r" in command:
            raise ValueError("a command is one line")
        stdin = self.process.stdin
        if stdin is None:
            raise EngineTerminatedError("the engine's input is closed")
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as error:
            raise EngineTerminatedError(f"the engine has gone away ({error})") from None

    def read_line(self) -> str:
        """The engine's next line; raises :class:`EngineTerminatedError` at its end
        or when none comes within the timeout."""
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineTerminatedError(f"no answer from the engine within {self.timeout} s") from None
        if line is None:
            self._lines.put(None)  # keep reporting the end
            raise EngineTerminatedError(f"the engine ended (exit status {self.process.poll()})")
        return line

    def request(self, command: str, last: tuple[str, ...],
                heard: Callable[[str], None] | None = None) -> list[str]:
        """Send ``command``; return its lines up to the one whose first word is in
        ``last`` (``heard`` sees each as it comes).  An error line raises :class:`EngineError`
        once the answer is complete (``go`` still ends with ``bestmove``; other commands end at the error)."""
        self.send(command)
        lines: list[str] = []
        error: EngineError | None = None
        while True:
            line = self.read_line()
            if heard is not None:
                heard(line)
            if line.startswith(ERROR_PREFIX):
                error = _error(line)
                if "bestmove" not in last:
                    raise error
                continue
            lines.append(line)
            if line.split(" ", 1)[0] in last:
                break
        if error is not None:
            raise error
        return lines

    def silent(self, command: str) -> None:
        """Send a command that answers nothing when it succeeds, then ``isready``;
        an error line before ``readyok`` raises :class:`EngineError`."""
        self.send(command)
        self.send("isready")
        error: EngineError | None = None
        while True:
            line = self.read_line()
            if line.startswith(ERROR_PREFIX) and error is None:
                error = _error(line)
            elif line == "readyok":
                break
        if error is not None:
            raise error


def _pump(stream: IO[str], lines: "queue.Queue[str | None]") -> None:
    """Move the engine's output lines into ``lines``; None marks its end."""
    try:
        for line in stream:
            lines.put(line.rstrip("\n"))
    except (OSError, ValueError):
        pass
    lines.put(None)


def _fields(line: str, skip: int) -> tuple[dict[str, str], str]:
    """An ``info`` line's ``name value`` pairs after its first ``skip`` words, and its move
    (the rest of the line after ``move``)."""
    head, _, notation = line.partition(" move ")
    words = head.split()[skip:]
    return dict(zip(words[::2], words[1::2])), notation


def _decimal(text: str | None) -> float | None:
    return None if text is None or text == "none" else float(text)


def _candidate(line: str) -> Candidate:
    """``info rank <i> score <n> [equity <e>] [mean <m> stderr <s> win <w>] move <notation>``."""
    fields, notation = _fields(line, 1)
    return Candidate(int(fields["rank"]), int(fields["score"]), notation, _decimal(fields.get("equity")),
                     _decimal(fields.get("mean")), _decimal(fields.get("stderr")), _decimal(fields.get("win")))


def _progress(line: str) -> SimProgress:
    """``info sim rollouts <n> of <asked> mean <m> stderr <s> win <w> move <notation>``."""
    fields, notation = _fields(line, 2)
    return SimProgress(int(fields["rollouts"]), int(fields["of"]), _decimal(fields.get("mean")),
                       _decimal(fields.get("stderr")), _decimal(fields.get("win")), notation)


def _error(line: str) -> EngineError:
    code, _, message = line[len(ERROR_PREFIX):].partition(" ")
    return EngineError(code, message)


__all__ = ["SimpleEngine", "EngineError", "EngineTerminatedError", "Candidate", "GoResult", "SimProgress",
           "MeldLine", "ScoreResult", "default_command"]
