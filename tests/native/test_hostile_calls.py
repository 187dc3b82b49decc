"""Calls that used to kill the interpreter (issue 17, item 1) raise a Python
exception or answer, whatever the arguments: no None where a core or an array
belongs, thread counts of 1 or more and at most one a processor, one call at a
time on a core, a layout core that is empty.  Each call that crashed runs in a
child interpreter, so that a crash fails its test instead of ending pytest."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from cli_helpers import assert_bad_input, cli
from helpers import child_environment, position
from ginnycore.selfplay import greedy_game_record, play_greedy_games
from ginnyo import native
from ginnyo.vocab.layout import Layout
from ginnyo.selfplay.compiled import greedy_game, greedy_games
from ginnyo.position.position import Position

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus-mid.jsonl"

# What every child starts with: the standard layout, a few corpus positions and
# the arrays best_plays_batch and play_greedy_games write to.
PRELUDE = f"""
import numpy as np
from pathlib import Path
from ginnycore.core import Cores, best_plays_batch
from ginnycore.selfplay import greedy_game_record, play_greedy_games
from ginnyo import native
from ginnyo.vocab.layout import Layout
from ginnyo.selfplay.compiled import greedy_games
from ginnyo.position import Position
LAYOUT = Layout.standard()
POSITIONS = [Position.from_json(line) for line in Path({str(CORPUS)!r}).read_text().splitlines()[:40]]
def batch_arrays(n):
    return (np.zeros(n, np.int32), np.zeros((n, 14), np.int16), np.zeros((n, 14), np.int8),
            np.zeros((n, 14), np.uint8))
def game_arrays(n):
    return (np.zeros((n, 4), np.int32),) + tuple(np.zeros(n, np.int32) for _ in range(4))
def outcome(call):
    try:
        print("returned", call())
    except Exception as error:
        print(f"{{type(error).__name__}}: {{error}}")
"""


def child(*code: str, timeout: float = 120) -> str:
    """Run the pieces of ``code`` after the prelude in a new interpreter of this
    tree; its output.  A crash (a signal) or an uncaught exception fails the test."""
    program = PRELUDE + "\n".join(textwrap.dedent(piece) for piece in code)
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=timeout,
                            env=child_environment())
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    return result.stdout


# -- None where a core or an array belongs -------------------------------------------------

def test_best_plays_batch_refuses_none_for_the_layout_core() -> None:
    out = child("""
        boards = np.full((1, 2 * LAYOUT.size), 255, np.uint8)
        outcome(lambda: best_plays_batch(None, boards, np.zeros((1, 53), np.uint8), *batch_arrays(1)))
    """)
    assert out == "TypeError: Argument 'layout' has incorrect type (expected ginnycore.core.Core, got NoneType)\n"


def test_best_plays_batch_refuses_none_for_an_array() -> None:
    out = child("""
        outcome(lambda: best_plays_batch(native.empty_core(LAYOUT), None, None, *batch_arrays(1)))
    """)
    assert out == "TypeError: Argument 'boards' must not be None\n"


def test_greedy_game_record_refuses_none_for_the_layout_core() -> None:
    out = child("outcome(lambda: greedy_game_record(None, 2, 0))")
    assert out.startswith("TypeError: Argument 'layout' has incorrect type")


def test_play_greedy_games_refuses_none_for_the_layout_core_or_an_array() -> None:
    out = child("""
        outcome(lambda: play_greedy_games(None, 4, 2, 0, *game_arrays(4)))
        outcome(lambda: play_greedy_games(native.empty_core(LAYOUT), 4, 2, 0, None, None, None, None, None))
    """)
    assert out.splitlines() == ["TypeError: Argument 'layout' has incorrect type (expected ginnycore.core.Core, "
                                "got NoneType)", "TypeError: Argument 'scores' must not be None"]


def test_core_load_refuses_none() -> None:
    core = native.empty_core(Layout.standard())
    with pytest.raises(TypeError, match="Argument 'cards' must not be None"):
        core.load(None, None, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        native.Core(15, 15, None, None, None, -1)  # type: ignore[arg-type]


# -- thread counts: huge ones clamped to the processors, none below 1 ----------------------------

def test_cores_run_a_huge_thread_count_on_the_processors() -> None:
    out = child("""
        cores = [native.core_of(p) for p in POSITIONS]
        expected = [len(core.legal_plays()) for core in cores]
        print(Cores(cores).generate_plays(100000).tolist() == expected,
              Cores(cores).count_plays(10**30).tolist() == expected)
    """)
    assert out == "True True\n"


def test_batch_runs_a_huge_thread_count_on_the_processors() -> None:
    out = child("""
        batch = native.Batch(POSITIONS)
        one = batch.best_plays(threads=1)
        many = batch.best_plays(threads=1000000)
        placed = one[1] >= 0    # the columns past a play's tiles are left as they were
        print((one[0] == many[0]).all() and (one[1] == many[1]).all()
              and all((a[placed] == b[placed]).all() for a, b in zip(one[2:], many[2:])))
    """)
    assert out == "True\n"


def test_best_plays_batch_of_positions_runs_a_huge_thread_count_on_the_processors() -> None:
    out = child("print(native.best_plays_batch(POSITIONS, threads=100000) == native.best_plays_batch(POSITIONS))")
    assert out == "True\n"


def test_greedy_games_run_a_huge_thread_count_on_the_processors() -> None:
    out = child("""
        one, many = greedy_games(20, 2, 5, threads=1), greedy_games(20, 2, 5, threads=100000)
        print((one.scores == many.scores).all() and (one.turns == many.turns).all())
    """)
    assert out == "True\n"


@pytest.mark.parametrize("threads", [0, -3])
def test_every_threaded_call_refuses_fewer_than_one_thread(threads: int) -> None:
    positions = [position({}, "7H 7C 7S")]
    message = f"threads must be 1 or more, not {threads}"
    with pytest.raises(ValueError, match=message):
        native.Batch(positions).best_plays(threads=threads)
    with pytest.raises(ValueError, match=message):
        greedy_games(2, 2, 0, threads=threads)


def test_a_thread_count_must_be_a_whole_number() -> None:
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        native.Cores([]).generate_plays(2.5)  # type: ignore[arg-type]
    assert native.Cores([]).generate_plays(np.int64(2)).tolist() == []


# -- one call at a time on a core ----------------------------------------------------------------

# A rack with jokers: generation then runs without the GIL, so two threads can
# be inside one core at once.
JOKER_RACK = """
rack = bytearray(53); rack[52] = 2
for card in (0, 1, 2, 13, 26, 39, 4):
    rack[card] += 1
def joker_core():
    core = native.empty_core(LAYOUT)
    core.load(bytes([255]) * LAYOUT.size, bytes(LAYOUT.size), bytes(rack))
    return core
"""


def test_two_threads_generating_on_one_core_never_crash_and_one_is_refused() -> None:
    out = child(JOKER_RACK, """
        import threading
        expected = joker_core().legal_plays()
        outcomes = []
        def work(core, barrier):
            barrier.wait()
            for _ in range(2):
                try:
                    outcomes.append(core.generate_plays() == len(expected))
                    outcomes.append(len(core.stored_plays()) == len(expected))
                except RuntimeError as error:
                    outcomes.append(str(error))
        for _ in range(100):    # a new core each time: both threads grow its play array at once
            core, barrier = joker_core(), threading.Barrier(2)
            threads = [threading.Thread(target=work, args=(core, barrier)) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            outcomes.append(core.stored_plays() == expected)
        print(sorted(set(outcomes), key=str), outcomes.count(True) > 100)
    """)
    # the threads overlap in most rounds (the GIL is let go during generation)
    assert out == "[True, 'this Core is in use by a call on another thread: a Core serves one call at a time'] True\n"


# A thread holding every core of a list in one long Cores call without the GIL;
# ``wait_for_holder`` returns once it is inside (the last core refuses a call).
HOLDER = """
import threading
def hold(cores):
    while True:     # refused only if this thread's first look found a core in use
        try:
            return Cores(cores).generate_plays()
        except RuntimeError:
            pass
def start_holder(cores):
    holder = threading.Thread(target=hold, args=(cores,))
    holder.start()
    while holder.is_alive():
        try:
            cores[-1].stored_plays()    # never lets go of the GIL while it has the core
        except RuntimeError:
            return holder
    raise SystemExit("the holder ended before it was seen")
"""


def test_a_core_held_by_another_threads_call_refuses_every_call() -> None:
    out = child(JOKER_RACK, HOLDER, """
        cores = [joker_core() for _ in range(400)]
        first = cores[0]
        calls = {"load": lambda: first.load(bytes([255]) * LAYOUT.size, bytes(LAYOUT.size), bytes(rack)),
                 "count_plays": first.count_plays, "generate_plays": first.generate_plays,
                 "legal_plays": first.legal_plays, "stored_plays": first.stored_plays,
                 "best_play": first.best_play, "has_play": first.has_play,
                 "score_play": lambda: first.score_play([112], [0], [False]),
                 "apply": lambda: first.apply([112], [0], [False]), "state": first.state,
                 "cross_masks": lambda: first.cross_masks, "Cores": lambda: Cores([first]).count_plays(),
                 "batch": lambda: best_plays_batch(first, np.zeros((0, 2 * LAYOUT.size), np.uint8),
                                                   np.zeros((0, 53), np.uint8), *batch_arrays(0)),
                 "game": lambda: greedy_game_record(first, 2, 0),
                 "top_plays": lambda: first.top_plays(3), "ranked_plays": lambda: first.ranked_plays(3)}
        holder = start_holder(cores)
        refused = []
        for name, call in calls.items():
            try:
                call()
            except RuntimeError:
                refused.append(name)
        holder.join()
        print(refused == list(calls), first.generate_plays() > 0, len(first.legal_plays()) > 0)
    """)
    assert out == "True True True\n"


def test_a_cores_call_lets_go_of_its_cores_when_one_is_in_use() -> None:
    out = child(JOKER_RACK, HOLDER, """
        cores = [joker_core() for _ in range(400)]
        holder = start_holder(cores[200:])
        try:
            Cores(cores[:201]).count_plays()   # its last core is the other call's first
            print("not refused")
        except RuntimeError:
            holder.join()
            print(Cores(cores).count_plays().min() > 0)
    """)
    assert out == "True\n"


def test_core_load_of_a_bad_board_leaves_the_core_as_it_was() -> None:
    core = native.core_of(_corpus_position())
    before = core.state()
    cards = bytearray([255]) * 225
    cards[0], cards[224] = 5, 60
    with pytest.raises(ValueError, match="card 60 on square 224"):
        core.load(bytes(cards), bytes(225), bytes(53))
    assert core.state() == before


def _corpus_position() -> Position:
    return Position.from_json(CORPUS.read_text(encoding="utf-8").splitlines()[0])


# -- the game loop's numbers ------------------------------------------------------------------------

def _game_arrays(games: int) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32],
                                      NDArray[np.int32], NDArray[np.int32]]:
    """The output arrays of ``play_greedy_games``: scores, turns, plays, first players, end reasons."""
    return (np.zeros((games, 4), np.int32), np.zeros(games, np.int32), np.zeros(games, np.int32),
            np.zeros(games, np.int32), np.zeros(games, np.int32))


def test_the_game_loop_refuses_a_layout_core_with_tiles() -> None:
    core = native.core_of(_corpus_position())
    with pytest.raises(ValueError, match="layout must be an empty Core of the layout: its board has tiles"):
        play_greedy_games(core, 2, 2, 0, *_game_arrays(2))
    with pytest.raises(ValueError, match="its board has tiles"):
        greedy_game_record(core, 2, 0)


@pytest.mark.parametrize("stall_rounds", [0, -1, 5001, 2**31 - 1])
def test_the_game_loop_refuses_stall_rounds_out_of_range(stall_rounds: int) -> None:
    with pytest.raises(ValueError, match=f"stall_rounds must be 1 to 5000, not {stall_rounds}"):
        greedy_games(2, 2, 0, stall_rounds=stall_rounds)
    with pytest.raises(ValueError, match=f"stall_rounds must be 1 to 5000, not {stall_rounds}"):
        greedy_game(2, 0, stall_rounds=stall_rounds)


def test_the_game_loop_refuses_negative_games() -> None:
    with pytest.raises(ValueError, match="games must be 0 or more, not -1"):
        play_greedy_games(native.empty_core(Layout.standard()), -1, 2, 0, *_game_arrays(1))
    with pytest.raises(ValueError, match="games must be 0 or more, not -1"):
        greedy_games(-1, 2, 0)


@pytest.mark.parametrize("seed, games", [(-1, 1), (2**64 - 2, 3), (2**64, 1)])
def test_c_games_refuse_seeds_outside_64_bits(seed: int, games: int) -> None:
    with pytest.raises(ValueError, match=f"seed {seed}: the C loop's seeds"):
        greedy_games(games, 2, seed)
    with pytest.raises(ValueError, match=f"seed {seed}: the C loop's seeds"):
        greedy_game(2, seed, games - 1)


def test_c_games_play_the_last_64_bit_seeds() -> None:
    games = greedy_games(3, 2, 2**64 - 3)
    assert games.turns.min() > 0
    assert greedy_game(2, 2**64 - 3, 2)[3] == games.scores[2].tolist()


# -- the command line's numbers ---------------------------------------------------------------------

def test_cli_refuses_a_huge_worker_count_for_the_c_game_loop() -> None:
    result = subprocess.run([sys.executable, "-m", "ginnyo", "selfplay", "--engine", "c", "--games", "10",
                             "--workers", "100000"], capture_output=True, text=True, timeout=120,
                            env=child_environment())
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("ginnyo: error: argument --workers: 100000 is out of range (from 0 to 256) "
                             "(see 'ginnyo selfplay --help')\n")


@pytest.mark.parametrize("argv, message", [
    (["selfplay", "--games", "1000000001"], "--games: 1000000001 is out of range (from 0 to 1000000000)"),
    (["selfplay", "--games", "2", "--workers", "257"], "--workers: 257 is out of range (from 0 to 256)"),
    (["selfplay", "--games", "2", "--seed", "-1"], "--seed: -1 is out of range (from 0 to 9223372036854775807)"),
    (["selfplay", "--games", "2", "--seed", str(2**63)], f"--seed: {2**63} is out of range"),
    (["selfplay", "--games", "2", "--seed", "1e9"], "--seed: '1e9' is not a whole number"),
    (["corpus", "--positions", "1000001", "--out", "x.jsonl"], "--positions: 1000001 is out of range (from 0 to 1000000)"),
    (["corpus", "--positions", "2", "--out", "x.jsonl", "--seed", "-5"], "--seed: -5 is out of range"),
    (["best-move", "-", "--sim", "1000001"], "--sim: 1000001 is out of range (from 1 to 1000000)"),
    (["best-move", "-", "--sim", "4", "--plies", "1001"], "--plies: 1001 is out of range (from 0 to 1000)"),
    (["match", "--bots", "greedy,sim", "--games", "2", "--rollouts", "1000001"], "--rollouts: 1000001 is out of range"),
    (["match", "--bots", "greedy,greedy", "--games", "1000000001"], "--games: 1000000001 is out of range"),
    (["train-leaves", "--games", "1000000001", "--out", "x.json"], "--games: 1000000001 is out of range (from 1 to"),
    (["plot-sim", "--out", "x.svg", "--workers", "100000"], "--workers: 100000 is out of range"),
    (["crazy", "selfplay", "--games", "1", "--workers", "257"], "--workers: 257 is out of range (from 1 to 256)"),
    (["crazy", "selfplay", "--games", "1000000001"], "--games: 1000000001 is out of range (from 0 to 1000000000)"),
    (["crazy", "selfplay", "--games", "1", "--seed", "-1"], "--seed: -1 is out of range"),
])
def test_cli_refuses_numbers_out_of_range_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                      message: str) -> None:
    assert_bad_input(capsys, *argv, message=message)


def test_cli_c_game_loop_takes_the_largest_seed_and_worker_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "selfplay", "--engine", "c", "--games", "3", "--workers", "256",
                       "--seed", str(2**63 - 1))
    assert code == 0 and f"3 games of 2 players, seeds {2**63 - 1}..{2**63 + 1}" in out
