"""Equity: the leave file (loading and its errors), leave features, plays and
returns ranked by score + leave value, the equity player and ``best-move --equity``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import assert_bad_input, cli
from helpers import position
from ginnyo.game.actions import Place, Return
from ginnyo.equity.rank import PLAY, RETURN, rank_position
from ginnyo.players.equity import EquityPlayer
from ginnyo.game.game import Game, play_game
from ginnyo.equity.leaves import (DATA_FILE, FEATURES, FORMAT_VERSION, STAGES, LeaveFileError, LeaveModel, counts_of,
                           default_model, features, load, stage_of)
from ginnyo.players.players import GreedyPlayer, make_player
from ginnyo.vocab.tiles import parse_rack_tile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def tiles(text: str) -> list[int]:
    return [parse_rack_tile(code) for code in text.split()]


def hand_model(returns: float = 0.0, **weights: float) -> LeaveModel:
    """A model with the same given weights at every stage (the others 0)."""
    row = tuple(weights.get(name, 0.0) for name in FEATURES)
    return LeaveModel(tuple(row for _ in STAGES), tuple(returns for _ in STAGES))


# -- the leave file ---------------------------------------------------------------------------------

def test_the_shipped_leave_file_loads_and_records_how_it_was_made() -> None:
    model = load()
    assert model is default_model()
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    assert data["version"] == FORMAT_VERSION and data["features"] == list(FEATURES)
    assert data["training"]["command"].startswith("ginnyo train-leaves ")
    assert len(model.weights) == len(STAGES) and all(len(row) == len(FEATURES) for row in model.weights)


def test_the_shipped_leave_values_keep_jokers_and_shed_aces() -> None:
    model = default_model()
    for box in (0, 5, 15, 30):
        assert model.value(tiles("*"), box) > 0
        assert model.value(tiles("AS"), box) < model.value(tiles("*"), box)


def test_the_leave_file_is_in_the_package_data() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"data/*.json"' in pyproject
    assert DATA_FILE.parent.name == "data" and DATA_FILE.name == f"leaves-v{FORMAT_VERSION}.json"


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "leaves.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _shipped(path: Path = DATA_FILE) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


V1_FILE = DATA_FILE.parent / "leaves-v1.json"   # the version 1 file, kept: it still loads


def test_a_missing_leave_file_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(LeaveFileError, match=r"leave file .*nope\.json.*: cannot read"):
        load(tmp_path / "nope.json")


def test_a_corrupt_leave_file_is_malformed_json(tmp_path: Path) -> None:
    with pytest.raises(LeaveFileError, match="malformed JSON"):
        load(_write(tmp_path, '{"format": "ginnyo-leaves", '))


@pytest.mark.parametrize("field, value, message", [
    ("version", 7, "field 'version': version 7, this ginnyo reads versions 1, 2"),
    ("format", "something", "field 'format'"),
    ("features", ["tiles"], "field 'features'"),
    ("weights", [[1.0]], "field 'weights'"),
    ("weights", "heavy", "field 'weights'"),
    ("returns", [0.0], "field 'returns'"),
    ("stages", [], "field 'stages'"),
    ("training", [], "field 'training'"),
])
def test_a_leave_file_with_a_wrong_field_names_it(tmp_path: Path, field: str, value: object, message: str) -> None:
    data = _shipped(V1_FILE)
    data[field] = value
    with pytest.raises(LeaveFileError) as error:
        load(_write(tmp_path, data))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_leave_file_with_a_non_finite_weight_is_refused(tmp_path: Path) -> None:
    text = json.dumps(_shipped(V1_FILE)).replace('"weights": [[', '"weights": [[NaN, ', 1)
    with pytest.raises(LeaveFileError, match="field 'weights'"):
        load(_write(tmp_path, text))


def test_a_model_round_trips_through_its_file(tmp_path: Path) -> None:
    model = hand_model(returns=-3.0, aces=-12.5, jokers=8.0)
    assert load(_write(tmp_path, model.to_json())) == model


def test_best_move_equity_with_a_corrupt_leave_file_exits_2(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    path = _write(tmp_path, "not json")
    assert_bad_input(capsys, "best-move", "--equity", "--leaves", str(path), str(EXAMPLES / "extend.json"),
                     message="malformed JSON")
    data = _shipped()
    data["version"] = 7
    assert_bad_input(capsys, "best-move", "--equity", "--leaves", str(_write(tmp_path, data)),
                     str(EXAMPLES / "extend.json"), message="field 'version'")


# -- leave features -----------------------------------------------------------------------------------

def leave_features(text: str) -> dict[str, float]:
    return dict(zip(FEATURES, features(counts_of(tiles(text))[None, :])[0]))


def test_features_count_tiles_jokers_and_the_end_penalty() -> None:
    found = leave_features("AS KD 7H * *")
    assert found["tiles"] == 5 and found["jokers"] == 2 and found["aces"] == 1
    assert found["penalty"] == 15 + 10 + 7
    assert found["high"] == 1


def test_features_see_sets_open_and_ready() -> None:
    assert leave_features("7H 7C")["pairs"] == 1
    found = leave_features("7H 7C 7S")
    assert found["pairs"] == 1 and found["trips"] == 1


def test_features_see_runs_open_with_the_ace_high_or_low_but_never_wrapping() -> None:
    assert leave_features("KH AH")["connected"] == 1
    assert leave_features("AH 2H")["connected"] == 1
    assert leave_features("KH AH 2H")["runs"] == 0          # K A 2 is no run
    assert leave_features("QH KH AH")["runs"] == 1
    assert leave_features("5H 7H")["gapped"] == 1
    assert leave_features("5H 6C")["connected"] == 0        # different suits


def test_an_empty_leave_is_worth_nothing() -> None:
    assert default_model().value([], 20) == 0.0
    assert np.all(features(np.zeros((3, 53), dtype=np.int16)) == 0)


def test_stages_cover_every_box_size() -> None:
    assert [stage_of(box) for box in (0, 1, 8, 9, 20, 21, 40, 500)] == [0, 1, 1, 2, 2, 3, 3, 3]


# -- equity ranking -----------------------------------------------------------------------------------

def test_equity_prefers_a_lower_scoring_play_that_sheds_an_ace() -> None:
    # the king set scores 30 but keeps AS; the spade run scores 6 and keeps the kings
    pos = position({}, "AS 2S 3S KD KC KS")
    ranked = rank_position(pos, hand_model(aces=-30.0))
    best = ranked[0]
    assert best.kind == PLAY and best.score == 6 and best.equity == 6.0
    assert sorted(best.leave) == sorted(tiles("KD KC KS"))
    kings = next(candidate for candidate in ranked if candidate.score == 30)
    assert kings.leave_value == -30.0 and kings.equity == 0.0
    # by score alone the kings come first
    assert max(candidate.score for candidate in ranked) == 30


def test_returns_are_ranked_on_the_same_scale_as_plays() -> None:
    # 8H extends the run for 8 but keeps AS (-30); returning AS keeps 8H 2D at a lost-turn cost of 2
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "8H AS 2D")
    ranked = rank_position(pos, hand_model(returns=-2.0, aces=-30.0))
    assert ranked[0].kind == RETURN and ranked[0].returned == tuple(tiles("AS"))
    assert ranked[0].equity == -2.0
    play = next(candidate for candidate in ranked if candidate.kind == PLAY)
    assert play.score == 8 and play.equity == 8 - 30
    assert [round(c.equity, 6) for c in ranked] == sorted((round(c.equity, 6) for c in ranked), reverse=True)
    assert {candidate.kind for candidate in ranked} == {PLAY, RETURN}


def test_no_returns_when_the_box_is_empty() -> None:
    empty_box = position({}, "AS 2D", unseen="")
    assert all(candidate.kind != RETURN for candidate in rank_position(empty_box, hand_model()))


def test_every_return_subset_is_ranked_once() -> None:
    # 8 different tiles on an empty board (no play): all 255 non-empty subsets
    returns = rank_position(position({}, "AS 2D 9C JC KD 4H 5S 8D"), hand_model())
    assert len(returns) == 255 and all(candidate.kind == RETURN for candidate in returns)
    assert len({candidate.returned for candidate in returns}) == 255
    # identical tiles give one return a multiset: 3 x 3 x 2 - 1 of "7H 7H 9C 9C *"
    twins = rank_position(position({}, "7H 7H 9C 9C *", sets=2), hand_model())
    assert len(twins) == 17 and len({candidate.returned for candidate in twins}) == 17


def test_without_a_play_or_a_return_the_only_action_is_a_pass() -> None:
    from ginnyo.equity.rank import PASS_KIND
    assert [c.kind for c in rank_position(position({}, ""), hand_model())] == [PASS_KIND]
    empty_box = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "AS 2D", unseen="")
    ranked = rank_position(empty_box, hand_model(aces=-30.0))
    assert len(ranked) == 1 and ranked[0].kind == PASS_KIND and ranked[0].equity == -30.0


def test_equity_with_a_zero_model_ranks_plays_as_best_move_does() -> None:
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "5C 5S 8H 8C 8S KD KC KS")
    best = rank_position(pos, hand_model())[0]
    expected = pos.best_play()
    assert expected is not None
    assert best.action() == Place(expected.play) and best.score == expected.score


def test_a_return_candidate_becomes_a_return_action() -> None:
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "8H AS 2D")
    best = rank_position(pos, hand_model(returns=-2.0, aces=-30.0))[0]
    assert best.action() == Return(tuple(tiles("AS")))


def test_the_equity_player_plays_whole_legal_games() -> None:
    games = [play_game(Game.deal(2, seed), [EquityPlayer(), GreedyPlayer()]) for seed in (1, 2)]
    assert all(game.over for game in games)
    assert sum(game.plays for game in games) > 0   # (game 1 never opens: no one has a meld for the centre)


def test_make_player_builds_equity_and_sim() -> None:
    assert make_player("equity", 0, 0).name == "equity"
    assert make_player("sim", 0, 1).name == "sim"


# -- the command ----------------------------------------------------------------------------------------

def test_best_move_equity_prints_score_leave_and_equity(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "best-move", "--equity", str(EXAMPLES / "extend.json"))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert "equity" in lines[0]
    assert len(lines) == 7 and all("score" in line and "leave" in line and "equity" in line for line in lines[1:6])
    assert lines[6].startswith("#1 beats the highest-scoring play, D2 KCKDKS for 60")


def test_best_move_equity_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--equity", "--json", "--candidates", "3",
                       str(EXAMPLES / "no-play.json"))
    data = json.loads(out)
    assert code == 0 and len(data["candidates"]) == 3
    best = data["best"]
    assert best == data["candidates"][0]
    assert best["kind"] == "return" and best["notation"].startswith("return ")
    assert set(best) >= {"kind", "notation", "score", "leave", "leave_value", "equity", "return"}
    assert abs(best["score"] + best["leave_value"] - best["equity"]) < 1e-2


def test_selfplay_takes_the_equity_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "selfplay", "--games", "2", "--bots", "equity,greedy", "--workers", "1")
    assert code == 0 and "equity" in out


def test_train_leaves_writes_a_loadable_file_the_same_for_a_seed(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    code, out, _ = cli(capsys, "train-leaves", "--games", "6", "--rounds", "2", "--seed", "5", "--workers", "1",
                       "--out", str(one))
    assert code == 0 and "wrote" in out
    cli(capsys, "train-leaves", "--games", "6", "--rounds", "2", "--seed", "5", "--workers", "2", "--out", str(two))
    first, second = load(one), load(two)
    assert first == second
    assert first.training["command"] == \
        f"ginnyo train-leaves --games 6 --rounds 2 --players 2,3,4 --seed 5 --out {one}"
    assert first.training["games_per_round"] == 6
    assert all(sum(samples) > 0 for samples in first.training["samples_last_round"].values())


def test_train_leaves_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_bad_input(capsys, "train-leaves", "--games", "0", "--out", str(tmp_path / "x.json"), message="--games")
    assert_bad_input(capsys, "train-leaves", "--games", "2", "--out", str(tmp_path), message="--out")


def test_a_model_compiled_in_this_process_still_pickles_for_a_worker() -> None:
    import pickle

    from ginnyo.equity.leaves import default_model
    from ginnyo.equity.rank import compiled_model
    model = default_model()
    compiled_model(model)
    copy = pickle.loads(pickle.dumps(model))
    assert copy == model and "_compiled" not in copy.__dict__
