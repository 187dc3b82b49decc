"""Bot levels (ginnyo.players.levels): the findability rule, level 5 the equity
player, level 3 the greedy player's plays, a level's game replays from its
seed, and the kinds on the command line."""

from __future__ import annotations

import random

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.game.actions import Place
from ginnyo.equity import PLAY, RETURN, Candidate
from ginnyo.players.equity import EquityPlayer
from ginnyo.game import Game, play_game
from ginnyo.players.levels import LEVEL_KINDS, LEVELS, LevelPlayer, found_chance, make_level
from ginnyo.players import PLAYER_KINDS, make_player


def _play(tiles: int, jokers: int) -> Candidate:
    placements = tuple((square, 0, square < jokers) for square in range(tiles))
    return Candidate(PLAY, 10, (), 0.0, placements)


def test_a_one_tile_play_without_a_joker_is_always_found() -> None:
    assert all(found_chance(level, _play(1, 0)) == 1.0 for level in LEVELS.values())


def test_a_longer_play_and_a_joker_are_harder_to_find() -> None:
    level = LEVELS[1]
    assert found_chance(level, _play(3, 1)) == pytest.approx(level.find ** 2 * level.joker)
    assert found_chance(level, _play(4, 0)) < found_chance(level, _play(2, 0))


def test_a_return_is_always_found() -> None:
    assert found_chance(LEVELS[1], Candidate(RETURN, 0, (), 0.0, (), (3,))) == 1.0


def test_level_5_chooses_as_the_endgame_player() -> None:
    game = Game.deal(2, 12)
    level, endgame = LevelPlayer(5, random.Random(1)), EquityPlayer(endgame=True)
    while not game.over:
        view = game.begin_turn()
        chosen = level.choose(view)
        assert chosen == endgame.choose(view)
        game.apply(chosen)


def test_level_3_plays_the_best_score_as_the_greedy_player_does() -> None:
    game = Game.deal(2, 13)
    level = LevelPlayer(3, random.Random(1))
    plays = 0
    while not game.over:
        view = game.begin_turn()
        best = view.core().best_play()
        turn = game.apply(level.choose(view))
        if best is not None:
            plays += 1
            assert isinstance(turn.action, Place) and turn.score == best[0]
    assert plays


def test_a_level_game_replays_from_its_seed() -> None:
    first = play_game(Game.deal(2, 21), [make_level("level2", 21, 0), make_level("level1", 21, 1)])
    again = play_game(Game.deal(2, 21), [make_level("level2", 21, 0), make_level("level1", 21, 1)])
    assert first.scores == again.scores and first.turns_played == again.turns_played


def test_every_level_is_a_player_kind() -> None:
    assert set(LEVEL_KINDS) <= set(PLAYER_KINDS)
    assert make_player("level4", 3, 1).name == "level4"


def test_an_unknown_level_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "match", "--bots", "level9,level1", "--games", "2", message="unknown player 'level9'")


def test_levels_play_a_match_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "match", "--bots", "level2,level1", "--games", "4", "--workers", "1")
    assert code == 0 and "level2 vs level1: 4 games" in out
