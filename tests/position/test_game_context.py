"""One game situation: a static position and a game's view fill the same
:class:`GameContext`, made once each, and every feature reads it from there
(the leave state, the ranking, the simulation's setup)."""

from __future__ import annotations

from dataclasses import replace

from collections import Counter
from typing import Iterator

import pytest

from helpers import position
from ginnyo import Position
from ginnyo.equity.leaves import LeaveState, default_model
from ginnyo.equity.rank import leave_state, rank_actions, rank_position
from ginnyo.errors import PositionError
from ginnyo.game import Game, View
from ginnyo.players.players import GreedyPlayer
from ginnyo.position.context import GameContext
from ginnyo.vocab.rules import quiet_turn_limit, tile_set
from ginnyo.simulation.rollouts import setup_for, top_candidates
from ginnyo.vocab.tiles import rack_code


def views(players: int, seed: int, turns: int) -> Iterator[View]:
    """The views of a greedy game's first ``turns`` turns, each while it is the turn's
    (a view reads the game's own board)."""
    game = Game.deal(players, seed)
    for _ in range(turns):
        view = game.begin_turn()
        yield view
        game.apply(GreedyPlayer().choose(view))
        if game.over:
            return


def as_position(view: View) -> Position:
    """The static position of what ``view``'s player sees, its game fields written out."""
    context = view.game_context
    return Position(view.layout, view.sets, view.board, view.rack,
                    {"players": context.players, "scores": list(context.scores), "to_move": context.to_move,
                     "unseen": " ".join(map(rack_code, context.unseen))})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_and_its_static_position_fill_the_same_game_context(players: int) -> None:
    compared = 0
    for view in views(players, seed=players, turns=8):
        static = as_position(view)
        expected = replace(view.game_context, quiet_turns=0)   # a static position has no clock
        if any(size < 7 for size in expected.opponent_racks):
            continue                                           # nor short racks: it deals 7 each
        assert static.game_context == expected
        assert leave_state(static) == replace(leave_state(view), quiet_turns=0)
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("players", [2, 4])
def test_a_views_unseen_tiles_are_those_not_on_the_board_or_its_rack(players: int) -> None:
    for view in views(players, seed=11, turns=12):
        seen = Counter(tile.rack_tile for tile in view.board.values()) + Counter(view.rack)
        assert view.game_context.unseen == tuple(sorted((Counter(tile_set(view.sets)) - seen).elements()))
        assert sum(view.game_context.opponent_racks) + view.box_size == len(view.game_context.unseen)


def test_the_game_context_is_made_once_a_position_and_once_a_view() -> None:
    view = next(views(2, seed=1, turns=1))
    assert view.game_context is view.game_context
    static = as_position(view)
    assert static.game_context is static.game_context
    assert Position.from_json(static.to_json()).game_context == static.game_context   # the C reader's too


def test_the_game_context_says_whether_a_meld_is_down_and_what_the_clock_allows() -> None:
    empty = position({}, "AS 2S 3S")
    context = empty.game_context
    assert isinstance(context, GameContext) and not context.opened and context.sets == 1
    assert context.quiet_limit == quiet_turn_limit(2, False)
    assert leave_state(empty) == LeaveState(2, False, 0, quiet_turn_limit(2, False))
    best = empty.best_play()
    assert best is not None
    played = empty.apply(best)
    assert played.game_context.opened and leave_state(played).opened


def test_a_bad_game_field_is_named_when_the_context_is_asked_for() -> None:
    bad = Position(position({}, "AS").layout, 1, {}, [], {"players": 5}, validate=False)
    with pytest.raises(PositionError, match="field 'players'"):
        bad.game_context


def test_a_view_and_its_static_position_rank_and_set_up_alike() -> None:
    model = default_model()
    compared = 0
    for view in views(2, seed=7, turns=20):
        static = as_position(view)
        if view.game_context.quiet_turns or view.game_context != static.game_context:
            continue   # the clock, which a static position has not, changes the ranking
        ranked = rank_actions(view.core(), view.rack, view.box_size, model, limit=4, state=leave_state(view))
        assert ranked == rank_position(static, model, limit=4)
        chosen = top_candidates(ranked, 4)
        assert setup_for(view, chosen, 2, 5, model) == setup_for(static, chosen, 2, 5, model)
        compared += 1
    assert compared >= 2
