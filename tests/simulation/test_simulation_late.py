"""The simulation late in the game: rollouts played to the game's end and
ranked by wins, a 2-player rollout's endgame finished by the solver, and
leaves valued in each rollout's own game state; all against the Python
yardstick (tests/simulation_reference.py) on the same deals."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import assert_bad_input, cli
from simulation_reference import reference_rollouts, win_share
from ginnyo.equity.rank import leave_state, rank_actions
from ginnyo.game.game import Game, View
from ginnyo.equity.leaves import default_model
from ginnyo.players.players import GreedyPlayer, make_player
from ginnyo.simulation.choices import ROLLOUT_ENDGAME_NODES
from ginnyo.simulation.rollouts import (POLICIES, Setup, Tally, is_late, leader_is_significant, ranking,
                               rollout_results, setup_for, top_candidates)
from ginnyo.simulation.session import simulate
from ginnyo.players.simulation import SimPlayer

ROOT = Path(__file__).resolve().parents[2]


def late_games(players: int, count: int, low: int = 1, high: int = 7, seed: int = 0) -> list[tuple[Game, View]]:
    """``count`` seeded greedy games stopped at a turn with ``low`` to ``high``
    tiles in the box (one a game)."""
    found: list[tuple[Game, View]] = []
    greedy = GreedyPlayer()
    while len(found) < count:
        game = Game.deal(players, seed)
        seed += 1
        while not game.over:
            view = game.begin_turn()
            if low <= view.box_size <= high:
                found.append((game, view))
                break
            game.apply(greedy.choose(view))
    return found


def late_setup(view: View, policy: str = "greedy", plies: int = 2, late_box: int = 7,
               endgame_nodes: int = 1000, candidates: int = 4) -> Setup:
    model = default_model()
    ranked = rank_actions(view.core(), view.rack, view.box_size, model, limit=candidates, state=leave_state(view))
    return setup_for(view, top_candidates(ranked, candidates), plies, view.turn, model, policy, late_box,
                      endgame_nodes)


def assert_agree(setup: Setup, rollouts: range) -> None:
    outcomes, wins = rollout_results(setup, rollouts.start, len(rollouts))
    expected, expected_wins = reference_rollouts(setup, rollouts)
    assert outcomes == pytest.approx(np.array(expected), abs=1e-9)
    assert wins == pytest.approx(np.array(expected_wins), abs=1e-12)


@pytest.mark.parametrize("policy", POLICIES)
def test_late_rollouts_to_the_end_with_the_endgame_solver_agree_with_the_yardstick(policy: str) -> None:
    for _, view in late_games(2, 8):
        setup = late_setup(view, policy)
        assert setup.to_end and setup.endgame_nodes
        assert_agree(setup, range(3))


@pytest.mark.parametrize("players", [3, 4])
def test_late_rollouts_of_three_and_four_players_play_to_the_end_and_agree(players: int) -> None:
    for _, view in late_games(players, 5, seed=100):
        setup = late_setup(view)
        assert setup.to_end
        assert_agree(setup, range(3))
        _, wins = rollout_results(setup, 0, 3)
        assert set(np.unique(wins)) <= {0.0, 0.5, 1.0 / 3, 0.25, 1.0}


def test_a_rollout_whose_box_empties_within_its_plies_is_finished_by_the_solver() -> None:
    """Not late (a fixed horizon of 2 plies) but the box runs out: the solver
    takes over, so the outcomes differ from a rollout without it, and agree
    with the yardstick."""
    differs = 0
    for _, view in late_games(2, 8, low=1, high=2, seed=50):
        setup = late_setup(view, late_box=-1)
        assert not setup.to_end
        assert_agree(setup, range(4))
        without = replace(setup, endgame_nodes=0)
        assert_agree(without, range(4))
        differs += not np.allclose(rollout_results(setup, 0, 4)[0], rollout_results(without, 0, 4)[0])
    assert differs >= 4


def test_an_unproven_endgame_plays_on_by_the_policy() -> None:
    """A budget too small to prove most endgames still gives the yardstick's
    outcomes: unproven solves are dropped and the rollout plays on."""
    for _, view in late_games(2, 6, seed=200):
        assert_agree(late_setup(view, endgame_nodes=64), range(3))


def test_rollout_leaves_are_valued_in_the_rollouts_game_state() -> None:
    """The stall clock of the decision changes what leaves are worth, in C as in the yardstick."""
    _, view = late_games(3, 1, low=20, high=60, seed=7)[0]
    setup = late_setup(view, late_box=-1)
    clocked = replace(setup, context=replace(setup.context, quiet_turns=4))
    assert_agree(setup, range(3))
    assert_agree(clocked, range(3))
    assert not np.allclose(rollout_results(setup, 0, 3)[0], rollout_results(clocked, 0, 3)[0])


def test_the_win_share_reads_the_games_scores() -> None:
    _, view = late_games(2, 1, seed=300)[0]
    setup = late_setup(view)
    far_ahead = replace(setup, context=replace(setup.context, scores=tuple(
        10_000 if seat == setup.context.to_move else 0 for seat in range(2))))
    far_behind = replace(setup, context=replace(setup.context, scores=tuple(
        0 if seat == setup.context.to_move else 10_000 for seat in range(2))))
    assert (rollout_results(far_ahead, 0, 4)[1] == 1.0).all()
    assert (rollout_results(far_behind, 0, 4)[1] == 0.0).all()
    assert win_share([5, 5, 3]) == 0.5 and win_share([5, 6]) == 0.0 and win_share([7, 6, 7, 7]) == 1 / 3


def test_late_candidates_are_ranked_by_wins_then_by_mean() -> None:
    outcomes = np.array([[30.0, 10.0, 10.0], [30.0, 10.0, 12.0]])
    wins = np.array([[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]])
    tally, won = Tally(3), Tally(3)
    tally.add(outcomes)
    won.add(wins)
    assert ranking(tally) == [0, 2, 1]
    assert ranking(tally, won) == [2, 1, 0]


def test_the_stopping_rule_tests_a_lead_in_wins_on_the_wins_and_a_tie_on_the_outcomes() -> None:
    rng = np.random.default_rng(1)
    count = 400
    outcomes = np.column_stack([rng.normal(0, 5, count), rng.normal(20, 5, count)])
    tally = Tally(2)
    tally.add(outcomes)
    sure, coin = np.ones(count), (rng.random(count) < 0.5).astype(float)
    won, close, tied = Tally(2), Tally(2), Tally(2)
    won.add(np.column_stack([sure, coin]))                  # 100% of wins against about 50%
    other = (rng.random(count) < 0.5).astype(float)
    assert coin.sum() != other.sum()
    close.add(np.column_stack([coin, other]))               # about 50% each: no clear leader in wins
    tied.add(np.column_stack([sure, sure]))                 # a decided game: the outcomes decide
    assert ranking(tally, won)[0] == 0 and leader_is_significant(tally, 1.64, won)
    assert not leader_is_significant(tally, 1.64, close)
    assert ranking(tally, tied)[0] == 1 and leader_is_significant(tally, 1.64, tied)


def test_late_is_at_most_late_box_tiles_in_the_box() -> None:
    assert is_late(0) and is_late(7) and not is_late(8)
    assert not is_late(3, -1)


def test_a_late_simulation_reports_wins_and_is_the_same_on_two_threads() -> None:
    _, view = late_games(2, 1, seed=400)[0]
    setup = late_setup(view)
    one = simulate(setup, 64)
    two = simulate(setup, 64, threads=2)
    assert [r.candidate for r in one] == [r.candidate for r in two]
    assert [r.wins for r in one] == [r.wins for r in two]
    assert all(r.wins is not None and 0.0 <= r.wins <= 1.0 for r in one)
    assert simulate(replace(setup, to_end=False), 8)[0].wins is None


def test_sim_spread_is_the_simulation_without_the_late_game() -> None:
    spread, sim = make_player("sim-spread", 1, 0), make_player("sim", 1, 0)
    assert isinstance(spread, SimPlayer) and isinstance(sim, SimPlayer)
    assert (spread.late_box, spread.endgame_nodes) == (-1, 0)
    assert sim.late_box >= 0 and sim.endgame_nodes > 0


# -- the command ---------------------------------------------------------------------------------------------

LATE = ROOT / "examples" / "late.json"


def test_best_move_sim_late_plays_to_the_end_and_shows_wins(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--sim", "40", "--candidates", "3", "--workers", "1", str(LATE))
    lines = out.splitlines()
    assert code == 0 and "played to the game's end, ranked by wins" in lines[0] and "6 in the box" in lines[0]
    assert all(" wins " in line for line in lines[1:4])
    code, out, _ = cli(capsys, "best-move", "--sim", "40", "--candidates", "3", "--workers", "1", "--json",
                       str(LATE))
    data = json.loads(out)
    assert data["to_end"] is True and data["endgame_nodes"] == ROLLOUT_ENDGAME_NODES
    shares = [candidate["wins"] for candidate in data["candidates"]]
    assert shares == sorted(shares, reverse=True) and all(0 <= share <= 1 for share in shares)


def test_best_move_sim_late_box_minus_one_keeps_the_fixed_horizon(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--sim", "40", "--candidates", "3", "--workers", "1",
                       "--late-box", "-1", "--rollout-endgame-nodes", "0", "--json", str(LATE))
    data = json.loads(out)
    assert code == 0 and data["to_end"] is False and data["endgame_nodes"] == 0
    assert all("wins" not in candidate for candidate in data["candidates"])


@pytest.mark.parametrize("argv, message", [
    (["--late-box", "-2"], "--late-box"),
    (["--late-box", "seven"], "--late-box"),
    (["--rollout-endgame-nodes", "-1"], "--rollout-endgame-nodes"),
    (["--rollout-endgame-nodes", "1e9"], "--rollout-endgame-nodes"),
])
def test_best_move_sim_bad_late_options_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                               message: str) -> None:
    assert_bad_input(capsys, "best-move", "--sim", "4", *argv, str(LATE), message=message)


def test_rollouts_refuse_bad_late_arguments() -> None:
    from ginnycore.simulate import Rollouts
    from ginnyo.equity.rank import compiled_model
    from ginnyo.native import core_of
    from ginnyo.position.position import Position
    pos = Position.load(str(LATE))
    model = compiled_model(default_model())
    made = [(2, (), ())]   # a pass
    with pytest.raises(ValueError, match="endgame_nodes must be from 0"):
        Rollouts(core_of(pos), model, range(13), [7], made, 2, 0, endgame_nodes=-1)
    with pytest.raises(ValueError, match="scores: one a player"):
        Rollouts(core_of(pos), model, range(13), [7], made, 2, 0, scores=[1, 2, 3])
    with pytest.raises(ValueError, match="a score must be a whole number"):
        Rollouts(core_of(pos), model, range(13), [7], made, 2, 0, scores=[1, None])  # type: ignore[list-item]
    rollouts = Rollouts(core_of(pos), model, range(13), [7], made, 2, 0)
    with pytest.raises(ValueError, match="wins must have the shape of out"):
        rollouts.run(0, np.empty((2, 1)), 1, np.empty((3, 1)))
