"""The compiled simulation (ginnycore.simulate): the same outcomes as the Python
rollouts of old on the same deals, the same for a seed on one thread or two,
checked input, and the stopping rules of ginnyo.simulation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_helpers import assert_bad_input, cli
from helpers import position
from simulation_reference import SplitMix64, reference_outcomes
from ginnycore.simulate import POLICY_EQUITY, Rollouts
from ginnyo.equity.rank import compiled_model, rank_position
from ginnyo.equity.leaves import default_model
from ginnyo.native import core_of
from ginnyo.position.position import Position
from ginnyo.simulation.rollouts import (BLOCK, POLICIES, STOP_LEVELS, Setup, Tally, deal, leader_is_significant, ranking,
                               rollout_outcomes, rollouts_of, setup_for, top_candidates)
from ginnyo.simulation.session import simulate

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus-mid.jsonl"
EXAMPLES = ROOT / "examples"
RUN_BOARD = {"G8": "5H", "H8": "6H", "I8": "7H"}


def corpus_setups(count: int, policy: str, plies: int, start: int = 0) -> list[Setup]:
    """Setups of corpus positions: the top 5 equity candidates, ``plies`` after ours."""
    model = default_model()
    setups = []
    for index, line in enumerate(CORPUS.read_text(encoding="utf-8").splitlines()[start:start + count]):
        pos = Position.from_json(line)
        setups.append(setup_for(pos, top_candidates(rank_position(pos, model, limit=5), 5), plies,
                                start + index, model, policy=policy))
    return setups


def midgame_setup(policy: str = "greedy", candidates: int = 5) -> Setup:
    pos = Position.from_json((EXAMPLES / "midgame.json").read_text(encoding="utf-8"))
    model = default_model()
    return setup_for(pos, top_candidates(rank_position(pos, model, limit=candidates), candidates), 2, 0, model,
                     policy=policy)


# -- the yardstick ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", POLICIES)
def test_compiled_rollouts_give_the_python_rollouts_outcomes_on_the_same_deals(policy: str) -> None:
    for setup in corpus_setups(40, policy, 3):
        compiled = rollout_outcomes(setup, 0, 4)
        assert compiled == pytest.approx(np.array(reference_outcomes(setup, range(4))), abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
def test_compiled_rollouts_agree_with_python_on_the_whole_corpus_to_game_ends(policy: str) -> None:
    for setup in corpus_setups(500, policy, 12):   # 12 plies: many games end inside the rollout
        compiled = rollout_outcomes(setup, 5, 3)
        assert compiled == pytest.approx(np.array(reference_outcomes(setup, range(5, 8))), abs=1e-9)


def test_the_yardstick_sees_returns_game_ends_and_both_ends_of_the_box() -> None:
    """The corpus comparison is not vacuous: rollouts there return tiles and end games."""
    from dataclasses import replace
    pos = position(RUN_BOARD, "8H AS 2D")
    model = default_model()
    ranked = rank_position(pos, model)
    setup = setup_for(pos, [c for c in ranked if c.kind == "return"][:3], 6, 4, model)
    for quiet in (0, 3, 5):
        ended = replace(setup, context=replace(setup.context, quiet_turns=quiet))
        assert rollout_outcomes(ended, 0, 6) == pytest.approx(np.array(reference_outcomes(ended, range(6))),
                                                              abs=1e-9)


def test_the_generator_port_is_splitmix64() -> None:
    generator = SplitMix64(1234567)    # the reference's port against SplitMix64's published first output
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF and generator.below(10) < 10


# -- threads and seeds ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", POLICIES)
def test_rollouts_are_identical_on_one_thread_and_two(policy: str) -> None:
    setup = midgame_setup(policy)
    one = rollout_outcomes(setup, 3, 300, threads=1)
    two = rollout_outcomes(setup, 3, 300, threads=2)
    assert np.array_equal(one, two)
    assert np.array_equal(rollout_outcomes(setup, 100, 50, threads=2), one[97:147])   # rollout i is i wherever


def test_a_deal_holds_the_unseen_tiles_and_another_seed_deals_others() -> None:
    context = position(RUN_BOARD, "5C 5S 8H * KD KC KS AS", sets=2).game_context
    hands, box, _ = deal(context.unseen, context.opponent_racks, 9, 0)
    assert [len(hand) for hand in hands] == [7, 7]
    assert sorted(hands[0] + hands[1] + box) == sorted(context.unseen)
    assert deal(context.unseen, context.opponent_racks, 10, 0)[:2] != (hands, box)


# -- checked input ----------------------------------------------------------------------------------------------

def rollouts(**change: Any) -> Rollouts:
    pos = position(RUN_BOARD, "5C 5S 8H")
    arguments: dict[str, Any] = dict(position=core_of(pos), model=compiled_model(default_model()),
                                     unseen=[0, 1, 2, 3], opponent_racks=[2], candidates=[(2, (), ())], plies=2, seed=0)
    arguments.update(change)
    return Rollouts(**arguments)


@pytest.mark.parametrize("change, message", [
    ({"unseen": [0, 53]}, "an unseen tile must be from 0 to 52"),
    ({"unseen": list(range(53)) * 3}, "more than 108"),
    ({"opponent_racks": []}, "opponent_racks: 1 to 3 racks"),
    ({"opponent_racks": [15]}, "rack size must be from 0 to 14"),
    ({"opponent_racks": [3, 3]}, "more than the 4 unseen"),
    ({"opponent_racks": [5]}, "more than the 4 unseen"),
    ({"candidates": []}, "at least one"),
    ({"candidates": [(0, ((0, 5, False),), ())]}, "not a legal play"),
    ({"candidates": [(0, ((999, 5, False),), ())]}, "a square must be from 0 to 224"),
    ({"candidates": [(1, (), (51,))]}, "which the rack does not hold"),
    ({"candidates": [(1, (), (4, 4))]}, "which the rack does not hold"),
    ({"candidates": [(3, (), ())]}, "kind must be from 0 to 2"),
    ({"candidates": [(2, (), (4,))]}, "a pass places and returns nothing"),
    ({"candidates": [7]}, "must be (kind, placements, returned)"),
    ({"plies": -1}, "plies must be from 0"),
    ({"seed": -1}, "seed must be a whole number"),
    ({"seed": 2**64}, "seed must be a whole number"),
    ({"seed": "1"}, "seed must be a whole number"),
])
def test_bad_rollout_arguments_are_refused_naming_them(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as error:
        rollouts(**change)
    assert message in str(error.value)


def test_run_refuses_an_output_of_the_wrong_shape_and_a_bad_policy() -> None:
    made = rollouts()
    with pytest.raises(ValueError, match="a column a candidate"):
        made.run(0, np.empty((4, 2)))
    with pytest.raises(ValueError, match="start must be"):
        made.run(-1, np.empty((4, 1)))
    with pytest.raises(ValueError, match="policy must be"):
        rollouts(policy=7)
    assert rollouts(policy=POLICY_EQUITY).candidates == 1


def test_the_candidates_scores_are_the_cores() -> None:
    setup = midgame_setup()
    assert rollouts_of(setup).scores == tuple(candidate.score for candidate in setup.candidates)


# -- the stopping rules -----------------------------------------------------------------------------------------

def test_the_stopping_rule_needs_the_lead_over_every_other_to_pass_its_level() -> None:
    tally = Tally(3)
    rng = np.random.default_rng(0)
    base = rng.normal(0, 10, 400)
    tally.add(np.stack([base + 1.0, base + rng.normal(0, 1, 400), base - 5], axis=1))
    assert ranking(tally)[0] == 0
    assert leader_is_significant(tally, STOP_LEVELS[95])         # paired: the deal's luck cancels
    close = Tally(2)
    close.add(np.stack([base + 0.01, base + rng.normal(0, 3, 400)], axis=1))
    assert not leader_is_significant(close, STOP_LEVELS[95])


def test_a_tally_made_a_block_at_a_time_gives_the_means_and_standard_deviations() -> None:
    values = np.random.default_rng(1).normal(3, 7, (1000, 2))
    tally = Tally(2)
    for start in range(0, 1000, BLOCK):
        tally.add(values[start:start + BLOCK])
    assert tally.mean(1) == pytest.approx(values[:, 1].mean())
    assert tally.stdev(0) == pytest.approx(values[:, 0].std(ddof=1))
    assert tally.variance_of_difference(0, 1) == pytest.approx((values[:, 0] - values[:, 1]).var(ddof=1))


def test_a_stopped_simulation_is_the_full_simulation_of_as_many_rollouts() -> None:
    setup = midgame_setup()
    stopped = simulate(setup, 50 * BLOCK, stop=95)
    count = stopped[0].rollouts
    assert count < 50 * BLOCK and count % BLOCK == 0
    assert simulate(setup, count) == stopped
    assert simulate(setup, 50 * BLOCK, stop=95, threads=2) == stopped


def test_identical_candidates_never_stop_a_simulation() -> None:
    setup = midgame_setup(candidates=1)
    twice = Setup(**{**setup.__dict__, "candidates": setup.candidates * 2})
    assert simulate(twice, 3 * BLOCK, stop=95)[0].rollouts == 3 * BLOCK


def test_a_time_budget_stops_after_the_first_piece_of_a_block() -> None:
    results = simulate(midgame_setup(), 100 * BLOCK, seconds=1e-9)
    assert results[0].rollouts == 1      # one rollout a thread, then the budget is looked at


def test_an_unknown_stop_level_is_refused() -> None:
    with pytest.raises(ValueError, match="stop must be one of 95, 98, 99"):
        simulate(midgame_setup(), 10, stop=90)


# -- the command -----------------------------------------------------------------------------------------------

def test_best_move_sim_stops_early_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--sim", "100000", "--stop", "95", "--workers", "2", "--json",
                       str(EXAMPLES / "midgame.json"))
    data = json.loads(out)
    assert code == 0 and data["asked"] == 100000 and data["rollouts"] < 100000
    assert data["rollouts"] % BLOCK == 0 and data["policy"] == "greedy"


def test_best_move_sim_with_the_equity_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--sim", "40", "--policy", "equity", "--candidates", "2",
                       "--workers", "1", str(EXAMPLES / "midgame.json"))
    assert code == 0 and "2 candidates x 40 rollouts, 2 plies after ours (equity)" in out.splitlines()[0]


@pytest.mark.parametrize("argv, message", [
    (["--sim", "4", "--stop", "90"], "--stop: invalid choice: 90"),
    (["--sim", "4", "--stop", "high"], "--stop: invalid int value"),
    (["--sim", "4", "--policy", "random"], "--policy: invalid choice: 'random'"),
    (["--sim", "4", "--time", "0"], "--time"),
])
def test_best_move_sim_bad_stop_policy_or_time_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                      message: str) -> None:
    assert_bad_input(capsys, "best-move", *argv, str(EXAMPLES / "extend.json"), message=message)


def test_an_opponent_who_passed_holding_eight_tiles_is_simulated() -> None:
    """A player who draws the box's last tile and has no play passes holding 8 (docs/RULES.md §6)."""
    made = rollouts(unseen=list(range(10)), opponent_racks=[8])
    out = np.empty((3, 1))
    made.run(0, out)
    assert np.isfinite(out).all()
