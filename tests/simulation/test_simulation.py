"""Simulation: the unseen tiles and the game fields of a position, seeded rollouts
(the same on one process, two, or a Dask cluster), the sim player, ``best-move --sim``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli
from helpers import position
from ginnyo.equity.rank import rank_position
from ginnyo.errors import PositionError
from ginnyo.game.game import Game, play_game
from ginnyo.equity.leaves import FEATURES, STAGES, LeaveModel
from ginnyo.players.players import GreedyPlayer
from ginnyo.simulation.rollouts import Setup, deal, setup_for, top_candidates
from ginnyo.simulation.session import simulate
from ginnyo.players.simulation import SimPlayer
from ginnyo.vocab.tiles import parse_rack_tile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RUN_BOARD = {"G8": "5H", "H8": "6H", "I8": "7H"}


def tiles(text: str) -> list[int]:
    return [parse_rack_tile(code) for code in text.split()]


def model() -> LeaveModel:
    row = tuple(-1.0 if name == "penalty" else 10.0 if name == "jokers" else 0.0 for name in FEATURES)
    return LeaveModel(tuple(row for _ in STAGES), tuple(-3.0 for _ in STAGES))


def write(tmp_path: Path, data: dict[str, object]) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# -- the game around a position --------------------------------------------------------------------

def test_unseen_defaults_to_every_tile_not_on_the_board_or_the_rack() -> None:
    context = position(RUN_BOARD, "5C 5S 8H * KD KC KS AS").game_context
    assert len(context.unseen) == 54 - 3 - 8
    assert context.unseen.count(52) == 1                       # one joker left
    assert parse_rack_tile("5H") not in context.unseen
    assert context.players == 2 and context.opponent_racks == (7,) and context.box_size == 43 - 7


def test_the_unseen_field_is_taken_as_given() -> None:
    context = position(RUN_BOARD, "5C 5S", unseen="AS 2D 3D 4D 5D 6D 7D 8D 9D TD").game_context
    assert sorted(context.unseen) == sorted(tiles("AS 2D 3D 4D 5D 6D 7D 8D 9D TD"))
    assert context.opponent_racks == (7,) and context.box_size == 3


def test_few_unseen_tiles_make_a_short_opponent_rack_and_an_empty_box() -> None:
    context = position(RUN_BOARD, "5C 5S", unseen=["AS", "2D"]).game_context
    assert context.opponent_racks == (2,) and context.box_size == 0


def test_two_sets_default_to_three_players() -> None:
    context = position({}, "AS", sets=2).game_context
    assert context.players == 3 and context.opponent_racks == (7, 7)
    assert context.box_size == 108 - 1 - 14


@pytest.mark.parametrize("fields, message", [
    ({"unseen": "AS ZZ"}, "field 'unseen': unknown tile code 'ZZ'"),
    ({"unseen": 7}, "field 'unseen': must be a string"),
    ({"unseen": ["AS", 3]}, "field 'unseen': tile 3 is not a string"),
    ({"unseen": "5C"}, "field 'unseen': 2 copies of 5C"),          # 5C is on the rack
    ({"unseen": "5H"}, "field 'unseen': 2 copies of 5H"),          # 5H is on the board
    ({"unseen": "* * *"}, "field 'unseen': 3 jokers"),
    ({"players": 5}, "field 'players'"),
    ({"players": 3}, "field 'players': 3 players play with 2 set(s)"),
    ({"scores": [1]}, "field 'scores'"),
    ({"to_move": 2}, "field 'to_move'"),
])
def test_bad_game_fields_are_refused_naming_the_field(fields: dict[str, object], message: str) -> None:
    with pytest.raises(PositionError) as error:
        position(RUN_BOARD, "5C 5S", **fields).game_context
    assert message in str(error.value)


@pytest.mark.parametrize("fields, message", [
    ({"unseen": "AS XX"}, "field 'unseen': unknown tile code 'XX'"),
    ({"unseen": "5C 5C"}, "field 'unseen': 3 copies of 5C"),
    ({"players": "two"}, "field 'players'"),
])
def test_best_move_sim_and_equity_exit_2_on_bad_game_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            fields: dict[str, object], message: str) -> None:
    path = write(tmp_path, {"board": RUN_BOARD, "rack": "5C 5S", **fields})
    assert_bad_input(capsys, "best-move", "--sim", "4", path, message=message)
    assert_bad_input(capsys, "best-move", "--equity", path, message=message)


@pytest.mark.parametrize("argv, message", [
    (["--sim", "0"], "--sim: 0 is out of range"),
    (["--sim", "-3"], "--sim: -3 is out of range"),
    (["--sim", "many"], "--sim: 'many' is not a whole number"),
    (["--sim", "4", "--equity"], "not allowed with argument"),
    (["--sim", "4", "--plies", "-1"], "--plies"),
    (["--sim", "4", "--candidates", "0"], "--candidates"),
])
def test_best_move_sim_bad_options_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert_bad_input(capsys, "best-move", *argv, str(EXAMPLES / "extend.json"), message=message)


# -- rollouts --------------------------------------------------------------------------------------------

def _setup(seed: int = 7, plies: int = 2) -> Setup:
    pos = position(RUN_BOARD, "5C 5S 8H 8C 8S KD KC KS")
    ranked = rank_position(pos, model())
    return setup_for(pos, top_candidates(ranked, 4), plies, seed, model())


def test_a_rollout_deal_depends_on_the_seed_and_index_alone() -> None:
    unseen = tiles("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AD 2D")
    assert deal(unseen, (7,), 3, 5) == deal(unseen, (7,), 3, 5)
    assert deal(unseen, (7,), 3, 5)[:2] != deal(unseen, (7,), 3, 6)[:2]
    assert deal(unseen, (7,), 3, 5)[:2] != deal(unseen, (7,), 4, 4)[:2]   # not seed + index
    hands, box, _ = deal(unseen, (7,), 3, 5)
    assert len(hands[0]) == 7 and sorted(hands[0] + box) == sorted(unseen)


def test_simulation_is_deterministic_under_a_seed() -> None:
    setup = _setup()
    first = simulate(setup, 12)
    again = simulate(setup, 12)
    assert first == again
    assert len(first) == 4 and all(result.rollouts == 12 for result in first)


def test_simulation_on_two_threads_is_that_of_one() -> None:
    setup = _setup()
    assert simulate(setup, 700, threads=2) == simulate(setup, 700, threads=1)


def test_simulation_on_a_dask_cluster_is_that_of_local_play() -> None:
    distributed = pytest.importorskip("distributed")
    setup = _setup()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = simulate(setup, 600, scheduler=cluster.scheduler_address)   # three blocks, any order
    assert on_dask == simulate(setup, 600)


def test_another_seed_deals_other_racks() -> None:
    assert [r.mean for r in simulate(_setup(seed=1), 10)] != [r.mean for r in simulate(_setup(seed=2), 10)]


def test_results_are_ranked_by_mean_with_a_confidence_interval() -> None:
    results = simulate(_setup(), 16)
    means = [result.mean for result in results]
    assert means == sorted(means, reverse=True)
    for result in results:
        assert result.low < result.mean < result.high
        assert abs((result.high - result.low) / 2 - 1.959964 * result.stdev / 4) < 1e-6


def test_with_no_plies_a_rollout_is_the_candidates_equity() -> None:
    setup = _setup(plies=0)
    pos = position(RUN_BOARD, "8H AS 2D")   # a return among the candidates too
    ranked = rank_position(pos, model())
    assert any(candidate.kind == "return" for candidate in ranked[:4])
    for result in simulate(setup, 5) + simulate(setup_for(pos, ranked[:4], 0, 1, model()), 5):
        assert result.mean == pytest.approx(result.candidate.equity) and result.stdev == pytest.approx(0.0)


def test_a_rollout_ends_when_the_games_stall_clock_runs_out() -> None:
    from dataclasses import replace

    from ginnyo.simulation.rollouts import rollout_outcomes
    pos = position(RUN_BOARD, "8H AS 2D")
    returned = next(candidate for candidate in rank_position(pos, model()) if candidate.kind == "return")
    def outcomes(quiet_turns: int, plies: int) -> list[float]:
        setup = setup_for(pos, [returned], plies, 1, model())
        setup = replace(setup, context=replace(setup.context, quiet_turns=quiet_turns))
        return list(rollout_outcomes(setup, 0, 8)[:, 0])

    # our return is the sixth quiet turn of two players (three full rounds): the game ends on it,
    # so the turns after it never come
    assert outcomes(5, 1) == outcomes(5, 4)
    assert outcomes(0, 1) != outcomes(0, 4)


def test_the_sim_player_sees_the_games_stall_clock() -> None:
    game = Game.deal(2, 0)
    view = game.begin_turn()
    assert view.game_context.quiet_turns == 0
    game.apply(GreedyPlayer().choose(view))   # seed 0 starts with a return
    view = game.begin_turn()
    assert view.game_context.quiet_turns == game.turns_without_play == 1


def test_the_sim_player_plays_a_reproducible_game() -> None:
    def one() -> tuple[int, ...]:
        game = play_game(Game.deal(2, 11), [SimPlayer(seed=5, rollouts=6, candidates=3), GreedyPlayer()])
        return tuple(game.scores)
    assert one() == one()


# -- the command -------------------------------------------------------------------------------------------

def test_best_move_sim_prints_each_candidate_with_its_mean_and_ci(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--sim", "8", "--candidates", "3", "--workers", "1",
                       str(EXAMPLES / "extend.json"))
    lines = out.splitlines()
    assert code == 0 and "3 candidates x 8 rollouts" in lines[0]
    assert len(lines) == 5 and all("equity" in line and "sim" in line and "95% CI" in line for line in lines[1:4])
    assert lines[4].startswith("lead: ")


def test_best_move_sim_json_is_the_same_for_one_and_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["best-move", "--sim", "6", "--candidates", "2", "--seed", "3", "--json", str(EXAMPLES / "extend.json")]
    code, one, _ = cli(capsys, *argv, "--workers", "1")
    _, two, _ = cli(capsys, *argv, "--workers", "2")
    assert code == 0 and json.loads(one) == json.loads(two)
    data = json.loads(one)
    assert data["rollouts"] == 6 and data["seed"] == 3 and len(data["candidates"]) == 2
    first = data["candidates"][0]
    assert set(first) >= {"notation", "score", "leave", "leave_value", "equity", "mean", "stdev", "ci95"}
    assert first["ci95"][0] <= first["mean"] <= first["ci95"][1]
