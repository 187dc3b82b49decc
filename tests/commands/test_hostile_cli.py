"""The command line against a hostile user: closed or full standard streams, and
numbers or names that other options already refuse (docs/FORMAT.md "Command line":
one line on stderr, a non-zero exit, never a traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_in_shell(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` run by sh with this ginnyo as ``$GINNYO``, for redirections pytest cannot make."""
    environment = dict(os.environ, GINNYO=f"{sys.executable} -m ginnyo")
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, env=environment, timeout=120)


def assert_one_error_line(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert message in done.stderr, done.stderr


@pytest.mark.parametrize("command", ["moves", "best-move --json", "show"])
def test_closed_standard_output_is_one_error_line(command: str) -> None:
    done = run_in_shell(f"$GINNYO {command} {EXAMPLES / 'opening.json'} >&-")
    assert_one_error_line(done, "standard output is closed")


def test_engine_with_closed_standard_output_is_one_error_line() -> None:
    done = run_in_shell("echo quit | $GINNYO engine >&-")
    assert_one_error_line(done, "standard output is closed")


def test_full_disk_on_standard_output_is_an_error_not_an_internal_one() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    done = run_in_shell(f"$GINNYO show {EXAMPLES / 'opening.json'} > /dev/full")
    assert_one_error_line(done, "No space left on device")


def test_closed_standard_input_reads_as_empty() -> None:
    done = run_in_shell("$GINNYO moves - <&-")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "malformed JSON" in done.stderr and "internal error" not in done.stderr


def test_plot_sim_refuses_more_rollouts_than_every_other_command(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    assert_bad_input(capsys, "plot-sim", "--rollouts", "2,2000000", "--out", str(tmp_path / "plot.svg"),
                     message="--rollouts: 2000000 is out of range (from 1 to 1000000)")


def test_plot_sim_names_against_for_an_unknown_opponent(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_bad_input(capsys, "plot-sim", "--against", "nobody", "--out", str(tmp_path / "plot.svg"),
                     message="--against: unknown player 'nobody'")


def test_plot_sim_names_against_for_two_opponents(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_bad_input(capsys, "plot-sim", "--against", "sim,greedy", "--out", str(tmp_path / "plot.svg"),
                     message="--against: give one player")


def test_train_leaves_refuses_rounds_without_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    kept = tmp_path / "leaves.json"   # an existing --out: had the rounds passed, the refusal would name it
    kept.write_text("kept")
    assert_bad_input(capsys, "train-leaves", "--rounds", "10" * 12, "--out", str(kept), message="argument --rounds")


EMPTY_PATH_OPTIONS = [
    ("show", str(EXAMPLES / "opening.json"), "--svg"),
    ("plot-sim", "--out"), ("ladder", str(EXAMPLES / "opening.json"), "--out"), ("corpus", "--out"),
    ("analyze", str(EXAMPLES / "opening.json"), "--out"), ("train-leaves", "--out"), ("train-winprob", "--out"),
    ("train-winprob", "--out", "model.json", "--plot"), ("puzzles", "make", "--out"),
    ("puzzles", "make", "--out", "puzzles.jsonl", "--from-records"),
    ("best-move", str(EXAMPLES / "opening.json"), "--equity", "--leaves"),
    ("match", "--bots", "equity,greedy", "--games", "2", "--leaves-a"),
    ("match", "--bots", "equity,equity", "--games", "2", "--leaves-b"),
    ("match", "--bots", "greedy,greedy", "--games", "2", "--plot"),
    ("selfplay", "--games", "1", "--records"), ("crazy", "selfplay", "--games", "1", "--records"),
    ("db", "migrate", "--data"), ("db", "copy", "--to", "postgresql://nobody@127.0.0.1:1/none", "--from"),
    ("serve", "--data"),
]


@pytest.mark.parametrize("words", EMPTY_PATH_OPTIONS, ids=" ".join)
def test_an_empty_path_is_refused_not_read_as_the_current_folder(capsys: pytest.CaptureFixture[str],
                                                                  words: tuple[str, ...]) -> None:
    assert_bad_input(capsys, *words, "", message=f"argument {words[-1]}: an empty path names no file or folder")


@pytest.mark.parametrize(("options", "message"), [
    (["--plies", "2"], "--plies needs --sim"), (["--seed", "3"], "--seed needs --sim"),
    (["--workers", "1"], "--workers needs --sim"), (["--scheduler", "tcp://head:8786"], "--scheduler needs --sim"),
    (["--policy", "equity"], "--policy needs --sim"), (["--stop", "95"], "--stop needs --sim"),
    (["--late-box", "3"], "--late-box needs --sim"),
    (["--rollout-endgame-nodes", "5"], "--rollout-endgame-nodes needs --sim"),
    (["--equity", "--plies", "3"], "--plies needs --sim"), (["--equity", "--infer"], "--infer needs --sim"),
    (["--candidates", "3"], "--candidates needs --equity or --sim"),
    (["--endgame", "--candidates", "3"], "--candidates needs --equity or --sim"),
    (["--leaves", "leaves.json"], "--leaves needs --equity or --sim"),
    (["--time", "1"], "--time needs --endgame, --equity or --sim"),
])
def test_best_move_refuses_an_option_its_ranking_would_leave_unused(capsys: pytest.CaptureFixture[str],
                                                                     options: list[str], message: str) -> None:
    assert_bad_input(capsys, "best-move", str(EXAMPLES / "opening.json"), *options, message=message)


# serve's options here come with --workers 2 and no --database: refused or not, serve stops at once
EMPTY_ADDRESS_OPTIONS = [
    (("selfplay", "--games", "1", "--engine", "c", "--scheduler"), "an empty address names no scheduler"),
    (("selfplay", "--games", "1", "--scheduler"), "an empty address names no scheduler"),
    (("match", "--bots", "greedy,greedy", "--games", "2", "--scheduler"), "an empty address names no scheduler"),
    (("plot-sim", "--out", "plot.svg", "--scheduler"), "an empty address names no scheduler"),
    (("corpus", "--positions", "1", "--out", "corpus.jsonl", "--scheduler"), "an empty address names no scheduler"),
    (("analyze", str(EXAMPLES / "opening.json"), "--scheduler"), "an empty address names no scheduler"),
    (("train-leaves", "--out", "leaves.json", "--scheduler"), "an empty address names no scheduler"),
    (("best-move", str(EXAMPLES / "opening.json"), "--sim", "2", "--scheduler"),
     "an empty address names no scheduler"),
    (("db", "migrate", "--database"), "an empty URL names no database"),
    (("db", "copy", "--from", "games", "--to"), "an empty URL names no database"),
    (("serve", "--workers", "2", "--database"), "an empty URL names no database"),
    (("serve", "--workers", "2", "--broker"), "an empty URL names no Redis server"),
    (("serve", "--workers", "2", "--host"), "an empty address would listen on every address"),
    (("serve", "--workers", "2", "--allowed-host"), "an empty name names no host"),
]


@pytest.mark.parametrize(("words", "reason"), EMPTY_ADDRESS_OPTIONS,
                         ids=[" ".join(words) for words, _ in EMPTY_ADDRESS_OPTIONS])
@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_address_is_refused_not_read_as_none_given(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch, words: tuple[str, ...],
                                                             reason: str, empty: str) -> None:
    monkeypatch.chdir(tmp_path)   # whatever a run not refused would write, it writes here
    assert_bad_input(capsys, *words, empty, message=f"argument {words[-1]}: {reason}")


@pytest.mark.parametrize(("words", "message"), [
    (("db", "migrate", "--database", "mysql://user@head/games"),
     "argument --database: mysql://user@head/games: is not a PostgreSQL URL"),
    (("db", "copy", "--from", "games", "--to", "postgresql://user@head"),
     "argument --to: postgresql://user@head: names no database"),
    (("serve", "--workers", "2", "--broker", "http://head:6379"),
     "argument --broker: 'http://head:6379' is not a Redis URL"),
    (("serve", "--workers", "2", "--host", "127.0.0.1 "), "argument --host: '127.0.0.1 ' is not an address"),
    (("serve", "--workers", "2", "--allowed-host", "a b"), "argument --allowed-host: 'a b' is not a host name"),
    (("serve", "--workers", "²"), "argument --workers: '²' is not a whole number of at least 1"),
    (("serve", "--port", "²"), "argument --port: '²' is not a port number"),
])
def test_a_malformed_address_is_refused_naming_its_option(capsys: pytest.CaptureFixture[str],
                                                          words: tuple[str, ...], message: str) -> None:
    assert_bad_input(capsys, *words, message=message)


def test_a_scheduler_address_dask_cannot_reach_is_refused_before_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    assert_bad_input(capsys, "selfplay", "--games", "1", "--scheduler", "http://head:8786",
                     message="argument --scheduler: unsupported address scheme 'http'")


def test_serve_names_host_for_a_name_of_no_address_here(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_bad_input(capsys, "serve", "--host", "nosuch.invalid", "--port", "0", "--data", str(tmp_path),
                     message="--host: 'nosuch.invalid' is no address of this machine")
