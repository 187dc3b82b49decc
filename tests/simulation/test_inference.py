"""Rack inference (ginnyo.odds.inference, ginnycore.infer): the compiled judging agrees
exactly with the plain-Python yardstick on small pools, plays, returns and
passes; the opponent's true leave survives; sampling is seeded; the alias table
and the simulation's inferred deal draw only inferred leaves."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import json
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli

from inference_reference import reference_condition, reference_infer
from ginnycore import RACK_KINDS
from ginnycore.simulate import inferred_deal
from ginnyo.game.actions import Pass, Place, Return
from ginnyo.players.equity import EquityPlayer
from ginnyo.game import Game
from ginnyo.odds.inference import (RETURN, Inference, Observed, alias_table, deal_tables, infer, judged,
                                   view_observations)
from ginnyo.equity.leaves import default_model
from ginnyo.game.records import record_text

EXTRA_TILES = 5     # a small case: the opponent's own hidden tiles and this many others
RETURN_EXTRA_TILES = 2   # (a return hides the whole rack)


def _observed_after(seed: int, kind: type, min_board: int = 0) -> tuple[Game, Observed]:
    """An equity game of seed ``seed`` played until the player to move saw its
    opponent make an action of ``kind`` (on a board of at least ``min_board`` tiles)."""
    found = _maybe_observed_after(seed, kind, min_board)
    if found is None:
        raise AssertionError("no such turn")
    return found


def _maybe_observed_after(seed: int, kind: type, min_board: int = 0) -> tuple[Game, Observed] | None:
    """:func:`_observed_after`, or None when the game has no such turn."""
    game = Game.deal(2, seed)
    players = [EquityPlayer(), EquityPlayer()]
    while not game.over:
        view = game.begin_turn()
        last = view.history[-1] if view.history else None
        if last is not None and type(last.action) is kind and len(view.board) >= min_board:
            observed = view_observations(view)[0]
            assert observed is not None
            return game, observed
        game.apply(players[game.to_move].choose(view))
    return None


def _small(observed: Observed, truth: Counter[int], extra: int = EXTRA_TILES) -> Observed:
    """``observed`` with its pool cut to the opponent's true hidden tiles and ``extra`` others."""
    pool = Counter({tile: count for tile, count in enumerate(observed.pool) if count})
    rest = sorted((pool - truth).elements())
    small = truth + Counter(rest[:extra])
    counts = bytes(small[tile] for tile in range(RACK_KINDS))
    return replace(observed, pool=counts, unseen_now=counts)


def _hidden_truth(game: Game, observed: Observed) -> Counter[int]:
    turn = game.history[-1]
    rack = Counter(turn.rack) + Counter([turn.draw] if turn.draw is not None else [])
    if isinstance(turn.action, Place):
        rack -= Counter(52 if tile.joker else tile.card for _, tile in turn.action.play.placements)
    return rack


def _kept(inference: Inference) -> dict[tuple[int, ...], float]:
    return {leave: probability for leave, probability in inference.leaves}


def _reference_probabilities(observed: Observed, margin: float) -> dict[tuple[int, ...], float]:
    kept = reference_infer(observed, default_model(), margin)
    total = sum(kept.values())
    return {leave: weight / total for leave, weight in kept.items()}


@pytest.mark.parametrize("margin", [0.0, 5.0, 30.0])
def test_a_play_infers_exactly_what_the_yardstick_does(margin: float) -> None:
    game, observed = _observed_after(3, Place, min_board=4)
    small = _small(observed, _hidden_truth(game, observed))
    inference = infer(small, margin=margin)
    assert inference.exact
    expected = _reference_probabilities(small, margin)
    assert _kept(inference).keys() == expected.keys()
    for leave, probability in expected.items():
        assert _kept(inference)[leave] == pytest.approx(probability, rel=1e-12)


def test_a_return_infers_exactly_what_the_yardstick_does() -> None:
    game, observed = _observed_after(5, Return)
    assert observed.kind == RETURN
    small = _small(observed, _hidden_truth(game, observed), RETURN_EXTRA_TILES)
    inference = infer(small, margin=5.0)
    assert inference.exact
    expected = _reference_probabilities(small, 5.0)
    assert _kept(inference).keys() == expected.keys()
    for leave, probability in expected.items():
        assert _kept(inference)[leave] == pytest.approx(probability, rel=1e-12)


def test_the_equity_players_own_leave_survives_a_margin_of_zero() -> None:
    game, observed = _observed_after(3, Place, min_board=4)
    truth = _hidden_truth(game, observed)
    inference = infer(_small(observed, truth), margin=0.0)
    assert tuple(sorted(truth.elements())) in _kept(inference)


def test_a_wider_margin_keeps_at_least_as_much() -> None:
    game, observed = _observed_after(3, Place, min_board=4)
    small = _small(observed, _hidden_truth(game, observed))
    assert infer(small, margin=0.0).kept <= infer(small, margin=10.0).kept


def test_too_many_racks_are_sampled_from_the_seed() -> None:
    _, observed = _observed_after(3, Place, min_board=4)
    first = infer(observed, max_leaves=0, samples=300, seed=9)
    again = infer(observed, max_leaves=0, samples=300, seed=9)
    assert not first.exact and first.considered == 300
    assert first.leaves == again.leaves


def test_the_pool_seen_since_rules_leaves_out() -> None:
    game, observed = _observed_after(3, Place, min_board=4)
    truth = _hidden_truth(game, observed)
    small = _small(observed, truth)
    gone = next(tile for tile in range(RACK_KINDS) if small.pool[tile] and not truth[tile])
    now = bytearray(small.pool)
    now[gone] -= 1          # the inferring player has since seen this tile
    inference = infer(replace(small, unseen_now=bytes(now)), margin=30.0)
    assert all(leave.count(gone) <= now[gone] for leave, _ in inference.leaves)
    assert sum(probability for _, probability in inference.leaves) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [3, 5, 8])
@pytest.mark.parametrize("kind", [Place, Return])
def test_conditioning_on_what_was_seen_since_is_the_yardsticks(seed: int, kind: type) -> None:
    found = _maybe_observed_after(seed, kind, min_board=4 if kind is Place else 0)
    assert found is not None
    _, observed = found
    assert observed.pool != observed.unseen_now      # the inferring player has drawn since, at least
    exact, considered, kept = judged(observed)
    expected = reference_condition(observed, kept)
    total = sum(expected.values())
    inference = infer(observed)
    assert inference.considered == considered and inference.kept == pytest.approx(sum(w for _, w in kept))
    assert _kept(inference).keys() == expected.keys()
    for leave, weight in expected.items():
        assert _kept(inference)[leave] == pytest.approx(weight / total, rel=1e-12)
    probabilities = [probability for _, probability in inference.leaves]
    assert probabilities == sorted(probabilities, reverse=True)
    assert inference.counts == tuple(bytes(leave.count(tile) for tile in range(RACK_KINDS))
                                     for leave, _ in inference.leaves)


def test_conditioning_names_a_bad_kept_leave() -> None:
    from ginnyo.native.infer import condition
    with pytest.raises(ValueError, match="53 tile counts"):
        condition(bytes(RACK_KINDS), bytes(RACK_KINDS), [(b"x", 1.0)])
    with pytest.raises(ValueError, match="pool"):
        condition(b"", bytes(RACK_KINDS), [])


def test_the_alias_table_gives_each_leave_its_probability() -> None:
    _, observed = _observed_after(3, Place, min_board=4)
    inference = infer(observed, max_leaves=0, samples=200)
    table = alias_table(inference)
    assert table is not None
    leaves, keep, alias = table
    n = len(keep)
    share = [0.0] * n
    for column in range(n):
        share[column] += keep[column] / n
        share[alias[column]] += (1.0 - keep[column]) / n
    assert share == pytest.approx([probability for _, probability in inference.leaves])
    assert len(leaves) == n * RACK_KINDS


def test_an_inferred_deal_holds_an_inferred_leave() -> None:
    game, observed = _observed_after(3, Place, min_board=4)
    view = game.begin_turn()
    inference = infer(observed, max_leaves=0, samples=200)
    tables = deal_tables([inference])
    assert tables is not None
    unseen = [tile for tile in range(RACK_KINDS) for _ in range(observed.unseen_now[tile])]
    leaves = [Counter(leave) for leave, _ in inference.leaves]
    for index in range(50):
        hands, box, _ = inferred_deal(unseen, [len(game.racks[1 - view.player])], 4, index, tables)
        assert any(not (leave - Counter(hands[0])) for leave in leaves)
        assert Counter(hands[0]) + Counter(box) == Counter(unseen)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole 2-player equity game of seed 3 as a record."""
    game = Game.deal(2, 3)
    players = [EquityPlayer(), EquityPlayer()]
    while not game.over:
        view = game.begin_turn()
        game.apply(players[game.to_move].choose(view))
    path = tmp_path_factory.mktemp("records") / "game.jsonl"
    path.write_text(record_text(game, ["equity", "equity"]))
    return path


def test_infer_prints_each_opponents_leaves_and_tiles(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "infer", str(record_file), "--turn", "20", "--json", "--workers", "1")
    data = json.loads(out)
    assert code == 0 and data["turn"] == 20
    (opponent,) = data["opponents"]
    assert opponent["turn"] == 19 and opponent["player"] != data["player"]
    assert abs(sum(leave["probability"] for leave in opponent["leaves"])) <= 1.0 + 1e-9
    assert all(0.0 <= p <= 1.0 for p in opponent["tiles"].values())


def test_infer_prints_what_record_inferences_gives_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.odds.records import record_inferences
    game = Game.deal(3, 5)
    players = [EquityPlayer() for _ in range(3)]
    while not game.over:
        game.apply(players[game.to_move].choose(game.begin_turn()))
    path = tmp_path / "three.jsonl"
    path.write_text(record_text(game, ["a", "b", "c"]))
    for turn, acted in ((1, [False, False]), (2, [False, True]), (9, [True, True])):
        code, out, _ = cli(capsys, "infer", str(path), "--turn", str(turn), "--json", "--top", "3", "--workers", "1")
        data = record_inferences(str(path), turn, seed=0, top=3)
        assert code == 0 and out == json.dumps(data) + "\n"
        assert [row["player"] for row in data["opponents"]] == [(data["player"] + seat) % 3 for seat in (1, 2)]
        assert [row["turn"] is not None for row in data["opponents"]] == acted    # the next seat first
        assert all(len(row["leaves"]) <= 3 for row in data["opponents"] if row["turn"] is not None)
    assert len(record_inferences(str(path), 9)["opponents"][0]["leaves"]) > 3    # all leaves unless told


def test_infer_refuses_a_turn_the_record_lacks(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "infer", str(record_file), "--turn", "100000", message="no turn 100000")


def test_best_move_sim_infer_deals_from_the_inference(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", str(record_file), "--turn", "20", "--sim", "64", "--infer", "--json",
                       "--workers", "1")
    data = json.loads(out)
    assert code == 0 and data["rollouts"] == 64 and len(data["inferred"]) == 1


def test_best_move_infer_needs_a_record_turn(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "best-move", str(record_file), "--sim", "8", "--infer", message="--infer needs --turn")


def test_at_four_players_each_opponent_is_read_from_its_own_last_action() -> None:
    game = Game.deal(4, 8)
    players = [EquityPlayer() for _ in range(4)]
    while game.turns_played < 14:
        game.apply(players[game.to_move].choose(game.begin_turn()))
    view = game.begin_turn()
    found = view_observations(view)
    assert [observed.player for observed in found if observed] == [(view.player + seat) % 4 for seat in (1, 2, 3)]
    for observed in found:
        assert observed is not None
        turn = next(turn for turn in reversed(game.history) if turn.number == observed.turn)
        assert turn.player == observed.player
        held = Counter(turn.rack) + Counter([] if turn.draw is None else [turn.draw])
        if isinstance(turn.action, Place):
            held -= Counter(52 if tile.joker else tile.card for _, tile in turn.action.play.placements)
        pool = Counter({tile: count for tile, count in enumerate(observed.pool) if count})
        assert not held - pool      # the opponent's true hidden tiles were among those it could hold


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20, 32))
def test_many_plays_returns_and_passes_infer_exactly_what_the_yardstick_does(seed: int) -> None:
    for kind, extra in ((Place, EXTRA_TILES), (Return, RETURN_EXTRA_TILES), (Pass, EXTRA_TILES)):
        found = _maybe_observed_after(seed, kind, min_board=4 if kind is Place else 0)
        if found is None:
            assert kind is Pass     # every game has plays and returns; not every one a pass seen
            continue
        game, observed = found
        small = _small(observed, _hidden_truth(game, observed), extra)
        inference = infer(small, margin=3.0)
        expected = _reference_probabilities(small, 3.0)
        assert _kept(inference).keys() == expected.keys()
        for leave, probability in expected.items():
            assert _kept(inference)[leave] == pytest.approx(probability, rel=1e-12)
