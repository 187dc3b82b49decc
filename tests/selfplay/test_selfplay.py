"""Self-play: the run over processes or a Dask cluster, its summary, its records,
and ``ginnyo selfplay``'s bad input."""

from __future__ import annotations

import io
import statistics
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.support import workers
from ginnyo.cli import main
from ginnyo.game.records import replay
from ginnyo.selfplay.games import play_one, run, seat_summaries, summary_text


# -- the run ----------------------------------------------------------------------------------

def test_game_i_of_a_run_is_dealt_from_seed_plus_i() -> None:
    results = run(4, 2, seed=10, workers=1)
    assert [result.seed for result in results] == [10, 11, 12, 13]
    assert results[2] == play_one(12, ("greedy", "greedy"))


def test_results_do_not_depend_on_the_number_of_worker_processes() -> None:
    assert run(24, 3, seed=1, kinds=["greedy", "random", "greedy"], workers=2) == \
        run(24, 3, seed=1, kinds=["greedy", "random", "greedy"], workers=1)


def test_results_on_a_dask_cluster_are_those_of_local_play() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = run(30, 2, seed=3, workers=1, scheduler=cluster.scheduler_address)
    assert on_dask == run(30, 2, seed=3, workers=1)


def test_selfplay_command_runs_on_a_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code, out, _ = cli(capsys, "selfplay", "--games", "10", "--players", "4",
                           "--scheduler", cluster.scheduler_address)
    assert code == 0 and f"Dask scheduler {cluster.scheduler_address}" in out


# -- the summary ----------------------------------------------------------------------------

def test_summary_counts_wins_and_shares_of_first_place() -> None:
    results = run(60, 2, seed=0, workers=1)
    rows = seat_summaries(results)
    shared = sum(1 for result in results if len(result.winners) > 1)
    assert sum(row.wins for row in rows) + shared == len(results)
    assert rows[0].mean == statistics.fmean(result.scores[0] for result in results)


def test_selfplay_prints_wins_scores_plays_length_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "selfplay", "--games", "40", "--players", "3", "--seed", "5",
                         "--workers", "1", "--bots", "greedy,random,greedy")
    assert code == 0
    assert "40 games of 3 players, seeds 5..44, 1 process" in out and "games/s" in out
    lines = out.splitlines()
    header = next(index for index, line in enumerate(lines) if line.startswith("player"))
    assert lines[header].split() == ["player", "kind", "wins", "shared", "mean", "sd", "min", "max"]
    assert [line.split()[:2] for line in lines[header + 1:header + 4]] == \
        [["0", "greedy"], ["1", "random"], ["2", "greedy"]]
    assert "plays per game" in out and "game length" in out and "ended: " in out


def test_selfplay_shows_a_progress_bar_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["selfplay", "--games", "12", "--workers", "1"]) == 0
    assert "12/12" in terminal.getvalue() and "game" in terminal.getvalue()


def test_selfplay_writes_records_that_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = cli(capsys, "selfplay", "--games", "6", "--players", "2", "--seed", "20",
                       "--workers", "1", "--records", str(tmp_path / "records"))
    files = sorted((tmp_path / "records").glob("game-*.jsonl"))
    assert code == 0 and len(files) == 6 and "wrote 6 records" in out
    results = {result.seed: result for result in run(6, 2, seed=20, workers=1)}
    for path in files:
        game = replay(path)
        assert game.seed is not None
        assert list(game.scores) == list(results[game.seed].scores)


def test_summary_text_of_no_games() -> None:
    assert summary_text([], 1.0, "1 process") == "no games played"


# -- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", ["1", "5", "two"])
def test_selfplay_with_a_bad_player_count_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                                             players: str) -> None:
    assert_bad_input(capsys, "selfplay", "--games", "1", "--players", players, message="--players")


def test_selfplay_with_an_unknown_bot_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "selfplay", "--games", "1", "--bots", "clever", message="unknown player 'clever'")


def test_selfplay_with_the_wrong_number_of_bots_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "selfplay", "--games", "1", "--players", "3", "--bots", "greedy,random",
                     message="2 player kinds for 3 players")


def test_selfplay_without_games_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "selfplay", "--players", "2", message="--games")


def test_selfplay_with_records_in_a_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert_bad_input(capsys, "selfplay", "--games", "1", "--records", str(blocker / "records"),
                     message="--records")


def test_selfplay_with_an_unreachable_scheduler_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(workers, "CONNECT_TIMEOUT", 1)
    assert_bad_input(capsys, "selfplay", "--games", "1", "--scheduler", "tcp://127.0.0.1:9",
                     message="--scheduler tcp://127.0.0.1:9: cannot connect")


def test_batches_of_a_billion_seeds_are_made_only_when_asked_for() -> None:
    """A run's seeds are cut lazily: no list of every seed is built up front."""
    import tracemalloc

    from ginnyo.selfplay.games import batches
    tracemalloc.start()
    parts = batches(range(0, 10**9), workers=2)
    first, last = parts[0], parts[-1]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert first == list(range(200)) and last[-1] == 10**9 - 1
    assert len(parts) == 10**9 // 200 and sum(len(part) for part in parts[:3]) == 600
    assert peak < 1 << 20


def test_c_engine_reports_the_threads_it_runs_not_the_workers_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.cli import main
    from ginnyo.support.workers import default_workers
    assert main(["selfplay", "--engine", "c", "--games", "3", "--workers", "100"]) == 0
    threads = default_workers()
    assert f"C game loop on {threads} thread{'s' if threads > 1 else ''}" in capsys.readouterr().out
