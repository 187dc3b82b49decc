"""``ginnyo engine``: the line protocol on stdin/stdout (docs/PROTOCOL.md).

Modelled on chess's UCI and the crossword games' UCGI drafts: one command a
line in, response lines out, flushed after every command.  Errors are answered
as ``info string error <code> <message>`` and the engine keeps serving; every
line whose first word is ``go`` gets exactly one ``bestmove`` line, whatever
goes wrong (:data:`NO_MOVE`).  Only ``quit``, the end of input or a closed
output stops it.  ``go sim`` is the one answer that takes a while: it listens
for ``stop`` between its blocks of rollouts (:class:`.lines.Input`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterable, Iterator, TextIO, Union

from .. import __version__
from .lines import HEAD_BYTES, Input, decode_line, first_word, heard_stop
from ..errors import GinnyoError, IllegalMoveError, InvalidMoveError, LineTooLong, PositionError, ProtocolError
from ..support.files import quote
from ..position.position import Position
from ..native import ranked_moves
from ..vocab.notation import play_notation
from ..vocab.play import Play
from ..position.line import to_line
from ..vocab.tiles import rack_code
from ..support.number_text import number

if TYPE_CHECKING:
    from ..equity.rank import Candidate
    from ..simulation.rollouts import SimResult
    from ..simulation.session import SimulationSession

PROTOCOL_VERSION = 1
MAX_MESSAGE = 200  # characters of an error message, at most
NO_MOVE = "bestmove none"  # the answer to a go that failed (docs/PROTOCOL.md)
CAPABILITIES = ("position-line", "position-json", "go-top", "go-equity", "go-sim", "go-endgame", "moves", "score",
                "apply", "show", "stop")
HELLOS = {"ginnyo": "ginnyook", "ucgi": "ucgiok"}
GO_EQUITY = "go equity [top N]"
GO_SIM = "go sim [top N] [rollouts R] [plies P] [seconds S] [seed X]"
GO_FORMS = f"'go', 'go top N' (N >= 1), '{GO_EQUITY}', '{GO_SIM}' or 'go endgame [S]'"
MAX_TOP = 999_999_999       # go top N, go equity top N: at most nine digits (the ranking stops at the legal actions)
#: go sim's settings: (least, most, default); top, plies and seed default as ``best-move --sim``'s,
#: rollouts as the analysis board's; the caps keep one go's work bounded (docs/PROTOCOL.md)
SIM_SETTINGS: dict[str, tuple[int, int, int | None]] = {
    "top": (1, 10, 5), "rollouts": (1, 100_000, 1000), "plies": (0, 8, 2), "seed": (0, 2**63 - 1, 0)}
MAX_SECONDS = 3600.0        # go sim seconds S: 0 < S <= an hour (checked after each block of rollouts)


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


def _decimal(value: float | None, digits: int = 3) -> str:
    """A statistic in an ``info`` line, rounded as the analysis report's JSON rounds it (three
    decimals, a win probability four), ``none`` where there is none yet."""
    return number(value, f".{digits}f") if value is not None and math.isfinite(value) else "none"


def equity_candidate_line(rank: int, candidate: Candidate, notation: str) -> str:
    """``info rank 1 score 20 equity 76.508 move G7 5C.5S`` (a return's move is ``return <tiles>``)."""
    return f"info rank {rank} score {candidate.score} equity {_decimal(candidate.equity)} move {notation}"


def _stderr(result: SimResult) -> float | None:
    return result.stdev / math.sqrt(result.rollouts) if result.rollouts > 1 else None


def _sim_stats(result: SimResult) -> str:
    """``mean 83.215 stderr 4.012 win 0.7843``: the mean outcome, its standard error and the win
    probability (the share of wins when the rollouts play to the game's end)."""
    return f"mean {_decimal(result.mean)} stderr {_decimal(_stderr(result))} win {_decimal(result.chance, 4)}"


def sim_candidate_line(rank: int, result: SimResult, notation: str) -> str:
    """``info rank 1 score 20 equity 76.508 mean 83.215 stderr 4.012 win 0.7843 move G7 5C.5S``."""
    candidate = result.candidate
    return (f"info rank {rank} score {candidate.score} equity {_decimal(candidate.equity)} {_sim_stats(result)}"
            f" move {notation}")


def sim_progress_line(session: SimulationSession, leader: SimResult, notation: str) -> str:
    """``info sim rollouts 256 of 1000 mean ... move <the leader>``: after each block."""
    done, asked = session.progress
    return f"info sim rollouts {done} of {asked} {_sim_stats(leader)} move {notation}"


def candidate_bestmove(position: Position, candidate: Candidate) -> str:
    """``bestmove <notation>`` for a play, ``bestmove none return <tiles>`` or ``bestmove none pass``."""
    from ..equity.rank import PLAY, candidate_notation
    notation = candidate_notation(position, candidate)
    return f"bestmove {notation}" if candidate.kind == PLAY else f"bestmove none {notation}"


class Engine:
    """The protocol's state (the current position) and one method per command.

    :meth:`handle` takes one line and returns the response lines; it never
    raises for bad input.  ``running`` turns false after ``quit``.
    ``heard_stop``, asked between ``go sim``'s blocks, says whether ``stop`` came
    meanwhile (without it, ``go sim`` runs to its end)."""

    def __init__(self, heard_stop: Callable[[], bool] | None = None) -> None:
        self.position: Position | None = None
        self.running = True
        self.heard_stop = heard_stop
        self._commands: dict[str, Callable[[str], Iterable[str]]] = {
            "ginnyo": lambda argument: self.hello("ginnyo", argument),
            "ucgi": lambda argument: self.hello("ucgi", argument),
            "isready": self.isready,
            "position": self.set_position, "go": self.go, "moves": self.moves,
            "score": self.score, "apply": self.apply, "show": self.show, "stop": self.stop, "quit": self.quit,
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

    def go(self, argument: str) -> Iterable[str]:
        """``go`` or ``go top N``: ``info`` lines for the best N, then one ``bestmove``;
        ``go equity [top N]`` and ``go sim ...``: ranked by equity or by simulation (the analysis
        report's, :mod:`ginnyo.analysis.report`); ``go endgame [S]``: the endgame or pre-endgame
        solver's move (:mod:`ginnyo.endgame.choice`)."""
        form = argument.split()[:1]
        if form == ["endgame"]:
            from ..endgame.choice import go_endgame
            lines = go_endgame(self._current(), argument)
            return lines if lines[-1].startswith("bestmove") else lines + list(self.go(""))
        if form == ["equity"]:
            return self.go_equity(argument)
        if form == ["sim"]:
            return self.go_sim(argument)
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

    def go_equity(self, argument: str) -> list[str]:
        """``go equity [top N]``: the best N actions by equity (score + leave value), the
        ranking of ``best-move --equity``; the first is the ``bestmove``."""
        top = _whole(_go_settings(argument, GO_EQUITY, {"top": (1, MAX_TOP, 1)}), "top")
        position = self._current()
        from ..analysis.report import equity_ranking
        from ..equity.rank import candidate_notation
        ranked = equity_ranking(position, top)
        lines = [equity_candidate_line(rank, candidate, candidate_notation(position, candidate))
                 for rank, candidate in enumerate(ranked, 1)]
        return lines + [candidate_bestmove(position, ranked[0])]

    def go_sim(self, argument: str) -> Iterator[str]:
        """``go sim [top N] [rollouts R] [plies P] [seconds S] [seed X]``: ``best-move --sim``'s
        simulation (the report's session), a block at a time, an ``info sim`` line after each;
        ``stop`` (:attr:`heard_stop`) ends it with the best so far.  The settings and the
        position are checked here, before the first line."""
        settings = _go_settings(argument, GO_SIM, {**SIM_SETTINGS, "seconds": (0, MAX_SECONDS, None)})
        position = self._current()
        from ..analysis.report import simulation_session
        session = simulation_session(position, _whole(settings, "rollouts"), candidates=_whole(settings, "top"),
                                     plies=_whole(settings, "plies"), seed=_whole(settings, "seed"),
                                     seconds=settings["seconds"]).start()
        return self._simulating(position, session)

    def _simulating(self, position: Position, session: SimulationSession) -> Iterator[str]:
        from ..equity.rank import candidate_notation
        try:
            while not session.finished:
                session.step()
                leader = session.results()[0]
                yield sim_progress_line(session, leader, candidate_notation(position, leader.candidate))
                if self.heard_stop is not None and not session.finished and self.heard_stop():
                    session.stop()
            results = session.results()
            done, asked = session.progress
            lines = [f"info sim {session.state} rollouts {done} of {asked}"]
            lines += [sim_candidate_line(rank, result, candidate_notation(position, result.candidate))
                      for rank, result in enumerate(results, 1)]
        except Exception as error:  # noqa: BLE001 - as handle(): an answer, never a traceback
            yield from failure_lines("go", error_code(error), error)
            return
        if not results:     # nothing to simulate: the highest-scoring play, as go answers
            yield from lines + list(self.go(""))
            return
        yield from lines + [candidate_bestmove(position, results[0].candidate)]

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

    def stop(self, argument: str) -> list[str]:
        """``stop`` with no ``go sim`` running: nothing to stop, silent (as UCI's)."""
        _no_argument("stop", argument)
        return []

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
    raise ProtocolError("bad-argument", f"go: expected {GO_FORMS}, got {quote(argument)}")


Setting = tuple[float, float, Union[float, None]]   # least, most, default (None: not set)


def _go_settings(argument: str, usage: str, settings: dict[str, Setting]) -> dict[str, float | None]:
    """``go equity``'s or ``go sim``'s ``name value`` pairs after its form, each at most
    once and within its bounds (``seconds``: above its least, any finite number; the
    others whole numbers), the defaults for those not given."""
    form, *words = argument.split()
    found: dict[str, float | None] = {}
    for index in range(0, len(words), 2):
        name, value = words[index], words[index + 1] if index + 1 < len(words) else ""
        if name not in settings or name in found or not value:
            raise ProtocolError("bad-argument", f"go {form}: expected '{usage}', got {quote(argument)}")
        found[name] = _setting(form, name, value, settings[name])
    return {name: found.get(name, default) for name, (_, _, default) in settings.items()}


def _whole(settings: dict[str, float | None], name: str) -> int:
    """A whole-number setting (one with a default)."""
    value = settings[name]
    assert value is not None
    return int(value)


def _setting(form: str, name: str, text: str, bounds: Setting) -> float:
    least, most, _ = bounds
    if name == "seconds":
        try:
            seconds = float(text)
        except ValueError:
            seconds = math.nan
        if least < seconds <= most:    # a nan or an infinity is neither
            return seconds
        raise ProtocolError("bad-argument", f"go {form}: seconds must be above {least:g} and at most {most:g},"
                                            f" got {quote(text)}")
    if text.isascii() and text.isdigit() and len(text) <= len(str(int(most))) and least <= int(text) <= most:
        return int(text)
    raise ProtocolError("bad-argument", f"go {form}: {name} must be a whole number from {least} to {most},"
                                        f" got {quote(text)}")


def _notation(argument: str, command: str) -> str:
    if not argument:
        raise ProtocolError("bad-argument", f"{command}: expected a move, e.g. '{command} 8G ...8H9H'")
    return argument


def _position_from_json(text: str) -> Position:
    if not text:
        raise ProtocolError("bad-argument", "position json: expected a JSON object after 'json'")
    return Position.from_json(text)


def serve(stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer commands from ``stdin`` until ``quit``, the end of input or a closed
    ``stdout``; 0.  Every ``go`` line gets exactly one ``bestmove``, even one
    too long to read or not UTF-8."""
    lines_in = Input(stdin)
    engine = Engine(heard_stop=lambda: heard_stop(lines_in, stdout))
    while engine.running:
        head = b""
        try:
            raw = lines_in.next()
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


__all__ = ["Engine", "Input", "serve", "ProtocolError", "LineTooLong", "error_line", "failure_lines",
           "candidate_line", "equity_candidate_line", "sim_candidate_line", "sim_progress_line", "candidate_bestmove",
           "NO_MOVE", "SIM_SETTINGS", "MAX_SECONDS"]
