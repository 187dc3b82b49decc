"""``ginnyo engine`` driven as a real process: the documented transcript, answers
that agree with the solver, 10 000 requests without memory growth, garbage that
never kills it, and ``quit``."""

from __future__ import annotations

import errno
import io
import random
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginnyo.selfplay.corpus import sample_positions
from ginnyo import GinnyoError
from ginnyo.engine.lines import MAX_LINE_BYTES
from ginnyo.engine.server import NO_MOVE, Engine, serve
from ginnyo.engine.client import EngineError, SimpleEngine, default_command
from ginnyo.position.position import Position

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "PROTOCOL.md"
EXTEND = "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 5C8CKCKD8H5S8SKS"
NO_PLAY = "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 9CJC2DKDAS"
REQUESTS = 10_000
RSS_MARGIN_KB = 2048


def run_engine(stdin: bytes, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """One engine session fed ``stdin`` in one go."""
    return subprocess.run(default_command(), input=stdin, capture_output=True, timeout=timeout)


def documented_transcript() -> tuple[list[str], list[str]]:
    """The ``transcript`` block of docs/PROTOCOL.md: (lines sent, lines received)."""
    block = re.search(r"```transcript\n(.*?)```", PROTOCOL.read_text(encoding="utf-8"), re.S)
    assert block, "docs/PROTOCOL.md has no transcript block"
    lines = block.group(1).splitlines()
    return [line[2:] for line in lines if line.startswith("> ")], [line[2:] for line in lines if line.startswith("< ")]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")  # pragma: no cover


@pytest.fixture
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen(timeout=30) as running:
        yield running


# -- the documented transcript ---------------------------------------------

def test_documented_transcript_reproduces_line_for_line() -> None:
    sent, received = documented_transcript()
    result = run_engine("".join(line + "\n" for line in sent).encode())
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode().splitlines() == received


def test_documented_client_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = re.search(r"```python\n(.*?)```", PROTOCOL.read_text(encoding="utf-8"), re.S)
    assert example
    exec(compile(example.group(1), str(PROTOCOL), "exec"), {})
    assert capsys.readouterr().out.splitlines()[0] == "48"


def test_transcript_ends_with_quit_so_the_session_stops_there() -> None:
    sent, _ = documented_transcript()
    assert sent[-1] == "quit"


# -- answers agree with the solver -----------------------------------------

def test_handshake_names_the_engine_and_its_capabilities(engine: SimpleEngine) -> None:
    assert engine.id["name"] == "ginnyo" and engine.id["protocol"] == "1"
    assert {"position-line", "position-json", "go-top", "moves", "score", "apply"} <= engine.capabilities


def test_ucgi_hello_is_answered_with_ucgiok() -> None:
    result = run_engine(b"ucgi\nquit\n")
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "id name ginnyo" and lines[-1] == "ucgiok"


def test_go_answers_the_solvers_best_play_for_corpus_positions(engine: SimpleEngine) -> None:
    for position in sample_positions(12, 11):
        engine.set_position(position)
        best = position.best_play()
        result = engine.go()
        if best is None:
            assert result.bestmove is None and result.candidates == ()
        else:
            assert result.bestmove == position.notation(best)
            assert [c.score for c in result.candidates] == [best.score]


def test_go_top_n_lists_the_n_best_plays_in_moves_order(engine: SimpleEngine) -> None:
    position = Position.from_line(EXTEND)
    engine.set_position(EXTEND)
    expected = [(s.score, position.notation(s)) for s in list(position.legal_plays)[:7]]
    result = engine.go(top=7)
    assert [(c.score, c.notation) for c in result.candidates] == expected
    assert [c.rank for c in result.candidates] == list(range(1, 8))
    assert result.bestmove == expected[0][1]


def test_moves_lists_every_legal_play(engine: SimpleEngine) -> None:
    position = Position.from_line(EXTEND)
    engine.set_position(EXTEND)
    assert [(c.score, c.notation) for c in engine.moves()] == \
        [(s.score, position.notation(s)) for s in position.legal_plays]


def test_score_gives_the_total_the_melds_and_the_canonical_notation(engine: SimpleEngine) -> None:
    engine.set_position(EXTEND)
    result = engine.score("J8 8H8C8S")
    assert result.score == 48 and result.notation == "J8 8H8C8S"
    assert sorted((m.kind, m.span, m.score) for m in result.melds) == [("run", "G8-J8", 8), ("set", "J8-J10", 40)]


def test_apply_then_show_gives_the_position_after_the_play(engine: SimpleEngine) -> None:
    position = Position.from_line(EXTEND)
    engine.set_position(EXTEND)
    engine.apply("D2 KCKDKS")
    assert engine.show() == position.apply("D2 KCKDKS").to_line()


def test_position_json_is_accepted_on_one_line(engine: SimpleEngine) -> None:
    engine.set_position_json('{"board": {}, "rack": "7H 7C 7S"}')
    assert engine.go().candidates[0].score == 21


def test_go_without_a_legal_play_names_the_tile_to_return(engine: SimpleEngine) -> None:
    engine.set_position(NO_PLAY)
    result = engine.go(top=3)
    assert result.bestmove is None and result.return_tiles == ("AS",)


def test_go_with_an_empty_rack_passes() -> None:
    result = run_engine(b"position 15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 -\ngo\n")
    assert result.stdout.decode().splitlines()[-1] == "bestmove none pass"


def test_every_go_gets_exactly_one_bestmove_even_when_it_fails() -> None:
    script = "go\ngo top x\nposition " + EXTEND + "\ngo\ngo top 3\ngo top 0\ngo sideways\nquit\n"
    lines = run_engine(script.encode()).stdout.decode().splitlines()
    assert sum(line.startswith("bestmove ") for line in lines) == 6


def bestmoves(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("bestmove ")]


UNSERVABLE_GO_LINES = {
    "no position": b"go",
    "bad argument": b"go top many",
    "overlong": b"go top " + b"7" * (2 * MAX_LINE_BYTES),
    "overlong, blanks first": b"  go " + b" " * MAX_LINE_BYTES,
    "overlong, over a megabyte of blanks first": b" " * (MAX_LINE_BYTES + 5) + b"go",
    "overlong, the word across two reads": b" " * (MAX_LINE_BYTES - 1) + b"go top " + b"1" * MAX_LINE_BYTES,
    "not UTF-8": b"go top \xff\xfe",
    "NUL bytes": b"go \0\0",
}


@pytest.mark.parametrize("name", UNSERVABLE_GO_LINES)
def test_every_go_line_gets_exactly_one_bestmove_none_when_it_cannot_be_served(name: str) -> None:
    result = run_engine(UNSERVABLE_GO_LINES[name] + b"\nisready\n")
    lines = result.stdout.decode().splitlines()
    assert result.returncode == 0 and result.stderr == b""
    assert lines[-3].startswith("info string error ") and lines[-2:] == [NO_MOVE, "readyok"], lines


@pytest.mark.parametrize("line", [b"moves " + b"x" * (MAX_LINE_BYTES + 10), b" " * (MAX_LINE_BYTES - 1) + b"gone" * 10,
                                  b"gox" + b" " * MAX_LINE_BYTES], ids=["moves", "gone", "gox"])
def test_an_overlong_line_that_is_not_a_go_gets_no_bestmove(line: bytes) -> None:
    result = run_engine(line + b"\nisready\n")
    assert result.stdout.decode().splitlines() == [
        f"info string error line-too-long a line longer than {MAX_LINE_BYTES} bytes was skipped", "readyok"]


def test_a_go_that_fails_inside_the_engine_still_gets_one_bestmove(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(position: object) -> None:
        raise RuntimeError("a fault in the solver " + "x" * 10_000)
    monkeypatch.setattr(Position, "best_play", broken)
    engine = Engine()
    engine.handle("position " + EXTEND)
    answer = list(engine.handle("go"))
    assert answer[0].startswith("info string error internal RuntimeError: a fault in the solver")
    assert len(answer[0]) < 300 and answer[1:] == [NO_MOVE]


def test_error_messages_quote_at_most_a_short_prefix_of_the_line() -> None:
    huge = "Z" * (MAX_LINE_BYTES - 100)
    engine = Engine()
    for line in (huge, "isready " + huge, "go " + huge, "position " + huge, "position json " + huge,
                 "position " + EXTEND[:-4] + huge, "score 8G " + huge):
        engine.handle("position " + EXTEND)
        answer = list(engine.handle(line))
        assert answer and all(len(reply) < 300 for reply in answer), [reply[:300] for reply in answer]


def test_a_closed_output_ends_the_engine_cleanly_with_status_0() -> None:
    process = subprocess.Popen(default_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(b"isready\n")
    process.stdin.flush()
    assert process.stdout.readline() == b"readyok\n"
    process.stdout.close()          # the reader goes away, as in `ginnyo engine | head -1`
    try:
        for _ in range(200):        # the engine answers into a closed pipe, sees EPIPE, and ends
            process.stdin.write(b"position " + EXTEND.encode() + b"\ngo top 5\n")
            process.stdin.flush()
    except BrokenPipeError:
        pass
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == b""


def test_the_engine_piped_into_head_ends_without_a_traceback() -> None:
    command = " ".join(f"'{word}'" for word in default_command())
    script = f"(echo ginnyo; yes isready | head -200000) | {command} | head -1; exit ${{PIPESTATUS[1]}}"
    result = subprocess.run(["bash", "-c", script], capture_output=True, timeout=120)
    assert result.stdout == b"id name ginnyo\n" and result.stderr == b""
    assert result.returncode == 0   # the engine's status


class _FailingInput(io.RawIOBase):
    def readinto(self, buffer: object) -> int:
        raise OSError(errno.EIO, "Input/output error")

    def readable(self) -> bool:
        return True


def test_an_input_that_fails_to_read_is_one_error_line_not_a_traceback() -> None:
    with pytest.raises(GinnyoError, match=r"standard input: cannot read \(Input/output error\)"):
        serve(io.BufferedReader(_FailingInput()), io.StringIO())


ERROR_CASES = [
    ("go", "no-position"), ("moves", "no-position"), ("show", "no-position"),
    ("score 8G ...8H", "no-position"), ("apply 8G ...8H", "no-position"),
    ("frobnicate", "unknown-command"), ("GO", "unknown-command"),
    ("isready please", "bad-argument"), ("position", "bad-argument"), ("position json", "bad-argument"),
    ("position 15/15 -", "bad-position"), ("position json {", "bad-position"),
]


@pytest.fixture(scope="module")
def error_answers() -> dict[str, list[str]]:
    """Each error case's answer, all from one session (each case followed by ``isready``)."""
    script = "".join(f"{command}\nisready\n" for command, _ in ERROR_CASES)
    answers = run_engine(script.encode()).stdout.decode().split("readyok\n")
    return {command: answer.splitlines() for (command, _), answer in zip(ERROR_CASES, answers)}


@pytest.mark.parametrize("command, code", ERROR_CASES)
def test_errors_carry_their_code(error_answers: dict[str, list[str]], command: str, code: str) -> None:
    assert error_answers[command][0].startswith(f"info string error {code} ")


def test_move_errors_raise_engine_error_with_the_code(engine: SimpleEngine) -> None:
    engine.set_position(EXTEND)
    with pytest.raises(EngineError) as illegal:
        engine.score("8G ...9H")
    with pytest.raises(EngineError) as invalid:
        engine.score("8G ...??")
    with pytest.raises(EngineError) as bad:
        engine.set_position("15/15 -")
    assert (illegal.value.code, invalid.value.code, bad.value.code) == ("illegal-move", "invalid-move", "bad-position")
    assert engine.show() == EXTEND  # a failed position leaves the current one


# -- a long session ----------------------------------------------------------

def _session(engine: SimpleEngine, lines: list[str], notations: list[str | None], requests: int) -> None:
    """About ``requests`` commands cycling over the positions (each client call
    that also sends ``isready`` counts two)."""
    sent = index = 0
    while sent < requests:
        which = index % len(lines)
        index += 1
        engine.set_position(lines[which])
        engine.go()
        engine.go(top=5)
        engine.show()
        sent += 5
        notation = notations[which]
        if notation:
            engine.score(notation)
            engine.apply(notation)
            sent += 3
        with pytest.raises(EngineError):
            engine.score("8G ...9H")
        engine.is_ready()
        sent += 2


def test_ten_thousand_requests_in_one_session_without_memory_growth(engine: SimpleEngine) -> None:
    positions = sample_positions(20, 5)
    lines = [p.to_line() for p in positions]
    notations = []
    for position in positions:
        best = position.best_play()
        notations.append(position.notation(best) if best else None)
    _session(engine, lines, notations, 1000)  # warm up: imports, caches, allocator arenas
    before = rss_kb(engine.process.pid)
    _session(engine, lines, notations, REQUESTS)
    after = rss_kb(engine.process.pid)
    assert after - before < RSS_MARGIN_KB, f"RSS grew from {before} kB to {after} kB"
    assert engine.quit() == 0


# -- garbage -------------------------------------------------------------------

def _garbage_lines(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    lines = [b"", b"   ", b"\t", b"\r", b"\x00", b"\xff\xfe\xfd", b"\xc3", "é ü ✓".encode(),
             b"position \xff", b"go top \x00", b"score \xe2\x82", b"apply " + b"." * 5000]
    for _ in range(200):
        lines.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b""))
    for _ in range(50):
        lines.append("".join(rng.choice("position go top json score apply {}[]\",:/*-=0123456789ACDHSTJQK ")
                             for _ in range(rng.randrange(1, 60))).encode())
    return lines


def test_garbage_lines_get_at_most_one_error_each_and_the_engine_keeps_serving() -> None:
    lines = _garbage_lines(7)
    result = run_engine(b"".join(line + b"\nisready\n" for line in lines) + b"quit\n")
    assert result.returncode == 0 and result.stderr == b""
    answers = result.stdout.decode("utf-8").split("readyok\n")
    assert answers[-1] == "" and len(answers) == len(lines) + 1
    for garbage, answer in zip(lines, answers):
        answer_lines = answer.splitlines()
        if not garbage.strip():
            continue
        errors = [line for line in answer_lines if line.startswith("info string error ")]
        assert len(errors) <= 1 and len(answer_lines) <= 2, (garbage, answer_lines)


def test_huge_lines_are_skipped_with_an_error() -> None:
    huge = b"position " + b"9" * (3 * MAX_LINE_BYTES)
    result = run_engine(huge + b"\nisready\n" + b"x" * (MAX_LINE_BYTES + 1) + b"\nisready\nquit\n")
    assert result.stdout.decode().splitlines() == [
        f"info string error line-too-long a line longer than {MAX_LINE_BYTES} bytes was skipped", "readyok",
        f"info string error line-too-long a line longer than {MAX_LINE_BYTES} bytes was skipped", "readyok"]


def test_blank_lines_are_ignored() -> None:
    result = run_engine(b"\n\n  \n\r\nisready\n")
    assert result.stdout == b"readyok\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=120), max_size=6))
def test_any_text_gets_one_line_answers_and_never_an_exception(commands: list[str]) -> None:
    engine = Engine()
    engine.handle("position " + EXTEND)
    for command in commands:
        answer = engine.handle(command)
        assert all("\n" not in line and "\r" not in line for line in answer)
        if command.split() and command.split()[0] == "go":
            assert sum(line.startswith("bestmove ") for line in answer) == 1


# -- ending ----------------------------------------------------------------------

def test_quit_exits_0_and_ignores_what_follows() -> None:
    result = run_engine(b"isready\nquit\nisready\n")
    assert result.returncode == 0 and result.stdout == b"readyok\n"


def test_end_of_input_exits_0() -> None:
    result = run_engine(b"isready")  # no final line end either
    assert result.returncode == 0 and result.stdout == b"readyok\n"


def test_the_client_closes_a_running_engine_on_leaving_the_with_block() -> None:
    with SimpleEngine.popen() as engine:
        process = engine.process
    assert process.returncode == 0
