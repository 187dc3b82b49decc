"""The equity player in the compiled game loop (ginnycore.selfplay.play_games):
greedy seats play as play_greedy_games does, equity seats choose as
ginnyo.equity ranks, games are reproducible on any thread count, and equity
beats greedy there as it does in the Python loop."""

from __future__ import annotations

import numpy as np
import pytest

from ginnyo.selfplay.compiled import greedy_games, loop_games


def test_greedy_seats_play_the_greedy_loop_game_for_game() -> None:
    greedy, loop = greedy_games(120, 2, 5), loop_games(120, ["greedy", "greedy"], 5)
    assert np.array_equal(greedy.scores, loop.scores) and np.array_equal(greedy.turns, loop.turns)
    assert np.array_equal(greedy.end_reasons, loop.end_reasons)


def test_equity_games_are_the_same_for_a_seed_on_any_thread_count() -> None:
    one = loop_games(60, ["equity", "greedy", "equity"], 9, threads=1)
    two = loop_games(60, ["equity", "greedy", "equity"], 9, threads=2)
    assert np.array_equal(one.scores, two.scores) and np.array_equal(one.turns, two.turns)
    assert (one.end_reasons > 0).all()


def test_equity_seats_change_the_games() -> None:
    greedy, equity = loop_games(40, ["greedy", "greedy"], 1), loop_games(40, ["equity", "equity"], 1)
    assert not np.array_equal(greedy.scores, equity.scores)


def test_equity_beats_greedy_in_the_compiled_loop() -> None:
    # the same deals with the seats swapped: equity's mean margin is well above 0
    first = loop_games(150, ["equity", "greedy"], 1000)
    second = loop_games(150, ["greedy", "equity"], 1000)
    margin = np.concatenate([first.scores[:, 0] - first.scores[:, 1], second.scores[:, 1] - second.scores[:, 0]])
    assert margin.mean() > 30
    assert (margin > 0).mean() > 0.6


@pytest.mark.parametrize("bots, message", [(["greedy", "sim"], "'sim' is not one of"),
                                           (["equity"], "2 to 4 players")])
def test_bad_bots_are_value_errors(bots: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        loop_games(2, bots, 0)


def test_the_loop_refuses_seats_that_do_not_match_the_players() -> None:
    from ginnycore.selfplay import play_games
    from ginnyo.equity.rank import compiled_model
    from ginnyo.vocab.layout import Layout
    from ginnyo.equity.leaves import default_model
    from ginnyo.native import empty_core
    scores = np.zeros((1, 4), dtype=np.int32)
    turns, plays, first, ends = (np.zeros(1, dtype=np.int32) for _ in range(4))
    with pytest.raises(ValueError, match="equity_seats"):
        play_games(empty_core(Layout.standard()), 1, 2, 0, b"\x01", compiled_model(default_model()),
                   scores, turns, plays, first, ends)
    with pytest.raises(ValueError, match="needs a model"):
        play_games(empty_core(Layout.standard()), 1, 2, 0, b"\x01\x00", None, scores, turns, plays, first, ends)
