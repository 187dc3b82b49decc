"""``ginnyo analyze``: a corpus's rows are what the single-position API gives
(the best play, the equity ranking's first action), a record's lost points are
the hand-checked ones, the output does not depend on the thread count or on
where it ran, and every bad input is one line naming the file, line and field
(exit 2)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.game.actions import Place
from ginnyo import PlacedTile
from ginnyo.analysis.positions import Notation, analyze_arrays, row_json
from ginnyo.analysis.bulk import load_jsonl
from ginnyo.equity.rank import candidate_notation, rank_position
from ginnyo.game.game import Game, Turn, View, play_game
from ginnyo.players.players import GreedyPlayer, no_play_action
from ginnyo.position.position import Position
from ginnyo.analysis.records import analyze_record
from ginnyo.game.records import parse_record, record_text

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus-mid.jsonl"
EXTEND = ROOT / "examples" / "extend.json"


def corpus_lines(count: int) -> list[str]:
    return CORPUS.read_text(encoding="utf-8").splitlines()[:count]


def write_corpus(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


class LowestPlayer:
    """Plays the lowest-scoring legal play: a player that loses points."""

    name = "lowest"

    def choose(self, view: View) -> object:
        plays = list(view.position.legal_plays)
        return Place(plays[-1].play) if plays else no_play_action(view)


@pytest.fixture(scope="module")
def record_of_seed_11() -> str:
    """A 2-player game of seed 11, greedy against the lowest play."""
    game = Game.deal(2, 11)
    play_game(game, [GreedyPlayer(), LowestPlayer()])
    return record_text(game, ["greedy", "lowest"])


def json_rows(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


# -- a corpus's rows are the single-position API's answers ---------------------------------------

def test_corpus_rows_are_each_positions_best_play_and_first_equity_action() -> None:
    lines = corpus_lines(200) + [json.dumps(Position.load(str(EXTEND)).to_dict())]
    arrays = load_jsonl("\n".join(lines).encode(), where="c.jsonl")
    rows = analyze_arrays(arrays, threads=2)
    assert [row["line"] for row in rows] == list(range(1, len(lines) + 1))
    for text, row in zip(lines, rows):
        position = Position.from_json(text)
        best = position.best_play()
        assert row["best"] == (None if best is None else {"notation": position.notation(best), "score": best.score})
        first = rank_position(position, limit=1)[0]
        assert row["equity"] == {"kind": first.kind, "notation": candidate_notation(position, first),
                                 "score": first.score, "leave_value": round(first.leave_value, 3),
                                 "equity": round(first.equity, 3)}
    assert any(row["best"] is None for row in rows) and any(row["equity"]["kind"] == "return" for row in rows)


def test_a_rows_json_line_is_what_json_dumps_writes() -> None:
    arrays = load_jsonl("\n".join(corpus_lines(100)).encode())
    for want in ("both", "score", "equity"):
        for row in analyze_arrays(arrays, want=want):
            assert row_json(row) == json.dumps(row)


def test_the_array_notation_writes_what_play_notation_writes_for_every_top_play() -> None:
    from ginnycore import EMPTY_SQUARE
    checked = singles = 0
    for text in corpus_lines(200) + [EXTEND.read_text()]:
        position = Position.from_json(text)
        notation = Notation(position.layout, EMPTY_SQUARE)
        board = [EMPTY_SQUARE] * position.layout.size
        for square, tile in position.board.items():
            board[square] = tile.card
        for scored in position.legal_plays:
            placements = scored.play.placements
            written = notation.of(board, [square for square, _ in placements], [tile.card for _, tile in placements],
                                  [tile.joker for _, tile in placements])
            assert written == position.notation(scored)
            checked += 1
            singles += len(placements) == 1
    assert checked > 1000 and singles > 100


def test_by_score_or_by_equity_writes_only_that(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_lines(5))
    both = json_rows(cli(capsys, "analyze", str(corpus))[1])
    score = json_rows(cli(capsys, "analyze", str(corpus), "--by", "score")[1])
    equity = json_rows(cli(capsys, "analyze", str(corpus), "--by", "equity")[1])
    assert score == [{"line": row["line"], "best": row["best"]} for row in both]
    assert equity == [{"line": row["line"], "equity": row["equity"]} for row in both]


def test_blank_lines_are_skipped_and_the_line_numbers_stay_the_files(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.analysis import schedule
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 2)     # several pieces
    lines = corpus_lines(5)
    corpus = write_corpus(tmp_path / "c.jsonl", [lines[0], "", lines[1], "  ", lines[2], lines[3], "", lines[4]])
    code, out, err = cli(capsys, "analyze", str(corpus))
    assert code == 0 and err == ""          # no progress bar when stderr is not a terminal
    assert [row["line"] for row in json_rows(out)] == [1, 3, 5, 6, 8]


def test_the_progress_bar_counts_the_lines_and_quiet_hides_it(tmp_path: Path, record_of_seed_11: str,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import ginnyo.commands.progress
    from ginnyo.analysis import schedule
    bars: list[tuple[int, str, list[int]]] = []

    class Bar:
        def __init__(self, total: int, unit: str) -> None:
            bars.append((total, unit, []))

        def update(self, count: int = 1) -> None:
            bars[-1][2].append(count)

        def close(self) -> None:
            pass

    monkeypatch.setattr(ginnyo.commands.progress, "progress_bar", Bar)
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 2)
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_lines(5) + [""])
    record = tmp_path / "game.jsonl"
    record.write_text(record_of_seed_11)
    assert cli(capsys, "analyze", str(corpus), "--quiet")[0] == 0 and not bars
    assert cli(capsys, "analyze", str(corpus))[0] == 0
    assert bars == [(6, "line", [2, 2, 2])]
    assert cli(capsys, "analyze", str(record))[0] == 0
    turns = len(record_of_seed_11.splitlines()) - 2
    assert bars[1][:2] == (turns, "turn") and sum(bars[1][2]) == turns


# -- a game record ---------------------------------------------------------------------------------

def test_a_records_lost_points_are_the_hand_checked_ones(record_of_seed_11: str) -> None:
    rows, summary = analyze_record(parse_record(record_of_seed_11), "game", threads=1)
    by_turn = {row["turn"]: row for row in rows}
    # turn 2: the tens TS TH TC across row 6 from G6 score 20; the same three with
    # TC on F6, a green square (the tile counts triple), score 40
    turn = by_turn[2]
    assert (turn["player"], turn["name"]) == (1, "lowest")
    assert turn["played"]["notation"] == "6G TS.TC" and turn["played"]["score"] == 20
    assert turn["best"] == {"notation": "6F TCTS.", "score": 40} and turn["points_lost"] == 20
    # turn 10: the best play is F8 AC KC QC for 51; the lowest player added KC to a set for 10
    assert (by_turn[10]["played"]["score"], by_turn[10]["best"]["score"], by_turn[10]["points_lost"]) == (10, 51, 41)
    # greedy never loses a point; a return without a legal play loses none either
    assert all(row["points_lost"] == 0 for row in rows if row["player"] == 0)
    assert by_turn[9]["played"]["notation"] == "return JS" and by_turn[9]["best"] is None
    assert by_turn[9]["points_lost"] == 0
    assert summary[1]["points_lost"] == sum(row["points_lost"] for row in rows if row["player"] == 1)
    assert summary[0]["best_moves"] == 1.0 and summary[1]["turns"] == len([r for r in rows if r["player"] == 1])


def test_a_records_rows_agree_with_the_single_position_api(record_of_seed_11: str) -> None:
    from ginnyo.game.actions import Return
    from ginnyo.equity.rank import rank_actions
    from ginnyo.native import core_of
    from ginnyo.game.records import replay
    from ginnyo.equity.leaves import LeaveState
    from ginnyo.vocab.rules import quiet_turn_limit
    seen: list[tuple[Position, int, LeaveState]] = []
    board: dict[int, PlacedTile] = {}
    quiet = [0]         # the game-end clock before each turn, as a player's view shows it

    def before(game: Game, turn: Turn) -> None:
        rack = list(turn.rack) + ([turn.draw] if turn.draw is not None else [])
        returned = turn.action.tiles if isinstance(turn.action, Return) else ()
        box = len(game.box) + len(turn.refill) - len(returned)
        state = LeaveState(game.players, bool(board), quiet[0], quiet_turn_limit(game.players, bool(board)))
        seen.append((Position(game.layout, game.sets, dict(board), rack, validate=False), box, state))
        quiet[0] = 0 if isinstance(turn.action, Place) else quiet[0] + 1
        if isinstance(turn.action, Place):
            board.update(turn.action.play.placements)

    replay(parse_record(record_of_seed_11), on_turn=before)
    rows, _ = analyze_record(parse_record(record_of_seed_11), "game", threads=2)
    assert len(rows) == len(seen)
    assert any(state.quiet_turns for _, _, state in seen) and not seen[0][2].opened
    for row, (position, box, state) in zip(rows, seen):
        best = position.best_play()
        assert row["points_lost"] == (best.score if best else 0) - row["played"]["score"]
        first = rank_actions(core_of(position), position.rack, box, limit=1, state=state)[0]
        assert row["equity"]["notation"] == candidate_notation(position, first)
        assert row["equity"]["equity"] == round(first.equity, 3)
        assert row["equity_lost"] >= 0


def test_a_record_is_found_by_its_header_and_ends_with_a_summary_per_player(
        tmp_path: Path, record_of_seed_11: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(record_of_seed_11)
    code, out, _ = cli(capsys, "analyze", str(path))
    rows = json_rows(out)
    assert code == 0 and [row["summary"]["name"] for row in rows[-2:]] == ["greedy", "lowest"]
    assert rows[0]["turn"] == 1 and rows[0]["played"]["notation"] == "H6 THjhQH"
    code, table, _ = cli(capsys, "analyze", str(path), "--table")
    assert code == 0 and "6G TS.TC" in table and "6F TCTS." in table
    assert table.splitlines()[-1].startswith("1 lowest") and "points lost" in table


# -- the same output however it is run -------------------------------------------------------------

def test_one_thread_and_two_give_identical_output(tmp_path: Path, record_of_seed_11: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_lines(120))
    record = tmp_path / "game.jsonl"
    record.write_text(record_of_seed_11)
    for path in (corpus, record):
        one = cli(capsys, "analyze", str(path), "--workers", "1")
        two = cli(capsys, "analyze", str(path), "--workers", "2")
        assert one == two and one[0] == 0 and one[1]


def test_two_worker_processes_give_the_output_of_one_thread(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.analysis import schedule
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_lines(120))
    one = cli(capsys, "analyze", str(corpus), "--workers", "1", "--table")
    monkeypatch.setattr(schedule, "PROCESS_SECONDS", 0.0)    # processes pay after the first piece
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 9)      # and more pieces than processes
    import ginnyo.support.workers
    spread: list[int] = []

    def run_batches(function: Any, parts: Any, *, workers: int, scheduler: str | None = None) -> Any:
        spread.append(workers)
        return original(function, parts, workers=workers, scheduler=scheduler)

    original = ginnyo.support.workers.run_batches
    monkeypatch.setattr(ginnyo.support.workers, "run_batches", run_batches)
    assert cli(capsys, "analyze", str(corpus), "--workers", "2", "--table") == one
    assert spread == [2]


def test_out_writes_the_json_lines_and_the_table_goes_to_stdout(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_lines(4))
    out = tmp_path / "rows.jsonl"
    code, table, _ = cli(capsys, "analyze", str(corpus), "--out", str(out), "--table")
    assert code == 0 and table.splitlines()[0].split()[0] == "line" and len(table.splitlines()) == 5
    assert json_rows(out.read_text()) == json_rows(cli(capsys, "analyze", str(corpus))[1])
    assert_bad_input(capsys, "analyze", str(corpus), "--out", str(out), message="exists; give --force")
    assert cli(capsys, "analyze", str(corpus), "--out", str(out), "--force")[0] == 0
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere.jsonl")
    assert_bad_input(capsys, "analyze", str(corpus), "--out", str(link), "--force", message="symbolic link")
    assert not (tmp_path / "elsewhere.jsonl").exists()


def test_standard_input_holds_a_corpus_or_a_record(record_of_seed_11: str, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for text, first in (("\n".join(corpus_lines(3)) + "\n", "line"), (record_of_seed_11, "turn")):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        code, out, _ = cli(capsys, "analyze", "-")
        assert code == 0 and first in json_rows(out)[0]


def test_a_dask_cluster_gives_the_same_rows(tmp_path: Path, record_of_seed_11: str,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    from ginnyo.analysis import schedule
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 7)     # several tasks, and several windows
    monkeypatch.setattr(schedule, "WINDOW_CHUNKS", 2)
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_lines(40))
    record = tmp_path / "game.jsonl"
    record.write_text(record_of_seed_11)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        for path in (corpus, record):
            here = cli(capsys, "analyze", str(path))
            there = cli(capsys, "analyze", str(path), "--scheduler", cluster.scheduler_address)
            assert here == there and here[0] == 0


# -- bad input: one line naming the file, the line and the field, exit 2 ---------------------------

def _bad_corpus(tmp_path: Path, lines: list[str]) -> str:
    return str(write_corpus(tmp_path / "c.jsonl", lines))


@pytest.mark.parametrize("bad, message", [
    ('{"board": {}, "rack": "5C 5S", }', "c.jsonl:3: malformed JSON"),
    ('{"board": {}, "rack": 5}', "c.jsonl:3: field 'rack'"),
    ('{"board": {"H8": "XX"}, "rack": ""}', "c.jsonl:3: board H8: "),
    ('{"board": {}, "rack": "5C", "colour": 1}', "c.jsonl:3: field 'colour': unknown field"),
    ('{"board": {}, "rack": "5C", "players": 9}', "c.jsonl:3: field 'players'"),
    ('{"board": {}, "rack": "5C", "unseen": "5C 5C"}', "c.jsonl:3: field 'unseen'"),
    ('{"layout": ["...", ".S.", "..."], "board": {}, "rack": "5C"}', "c.jsonl:3: field 'layout'"),
    ("[1, 2]", "c.jsonl:3: position: must be a JSON object"),
])
def test_a_bad_corpus_line_is_named_by_file_line_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           bad: str, message: str) -> None:
    path = _bad_corpus(tmp_path, corpus_lines(1) + [""] + [bad] + corpus_lines(2))
    assert_bad_input(capsys, "analyze", path, message=message)


def test_a_bad_line_in_a_later_piece_is_named_by_its_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.analysis import schedule
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 2)
    path = _bad_corpus(tmp_path, corpus_lines(5) + ['{"board": {}, "rack": "ZZ"}'])
    assert_bad_input(capsys, "analyze", path, message="c.jsonl:6: rack: ")


def test_a_line_longer_than_a_position_is_refused_by_its_number(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = _bad_corpus(tmp_path, corpus_lines(2) + ['{"board": {}, "rack": "' + " " * (1 << 20) + '"}'])
    assert_bad_input(capsys, "analyze", path, message="c.jsonl:3: larger than a line may be")


def test_a_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "analyze", str(tmp_path / "none.jsonl"), message="none.jsonl': cannot read")


def test_a_record_that_breaks_the_rules_is_named_by_its_line(tmp_path: Path, record_of_seed_11: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    lines = record_of_seed_11.splitlines()
    turn = json.loads(lines[2])
    turn["score"] += 1
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines[:2] + [json.dumps(turn)] + lines[3:]) + "\n")
    assert_bad_input(capsys, "analyze", str(path), message="game.jsonl line 3: 6G TS.TC scores 20, the record says 21")
    path.write_text("\n".join(lines[:2] + ['{"turn": 2, "player": 1, "rack": 5}']) + "\n")
    assert_bad_input(capsys, "analyze", str(path), message="game.jsonl line 3: field 'rack'")


def test_a_record_that_is_not_utf8_is_refused(tmp_path: Path, record_of_seed_11: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(record_of_seed_11.encode() + b'{"turn": \xff}\n')
    line = record_of_seed_11.count("\n") + 1
    assert_bad_input(capsys, "analyze", str(path), message=f"game.jsonl' line {line}: not a text file (not UTF-8)")


def test_kind_forces_how_the_file_is_read(tmp_path: Path, record_of_seed_11: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text(record_of_seed_11)
    corpus = _bad_corpus(tmp_path, corpus_lines(2))
    assert_bad_input(capsys, "analyze", str(record), "--kind", "corpus",
                     message="game.jsonl:1: field 'record': unknown field")
    assert_bad_input(capsys, "analyze", corpus, "--kind", "records",
                     message="c.jsonl line 1: not a ginnyo game record")


@pytest.mark.parametrize("options, message", [
    (["--workers", "-1"], "--workers"),
    (["--kind", "game"], "--kind"),
    (["--by", "leave"], "--by"),
    (["--table", "--json"], "not allowed with argument"),
    (["--scheduler", "http://127.0.0.1:1"], "unsupported address scheme 'http'"),
])
def test_a_bad_option_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str],
                                 message: str) -> None:
    assert_bad_input(capsys, "analyze", _bad_corpus(tmp_path, corpus_lines(2)), *options, message=message)
