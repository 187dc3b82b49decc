"""Whole games (docs/RULES.md §6): setup, turns, returns, passes, both ends, penalties —
and the invariants over many seeded games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import FULL_CORPUS
from ginnyo import IllegalMoveError, Layout, Position
from ginnyo.game.actions import PASS, Place, Return
from ginnyo.game.game import (BOX_EMPTY_AND_ALL_PASSED, NO_PLAY_FOR_ROUNDS, RACK_SIZE, Box, Game, Turn,
                         first_player, play_game, tile_set)
from ginnyo.vocab.notation import parse_notation
from ginnyo.players.players import GreedyPlayer, Player, RandomPlayer, make_player
from ginnyo.vocab.tiles import JOKER, parse_rack_tile, rack_penalty

GAMES = 2000 if FULL_CORPUS else 300
BOARD_CHECKED_GAMES = GAMES if FULL_CORPUS else 80   # full board validation is slow Python


def tiles(text: str) -> list[int]:
    return [parse_rack_tile(code) for code in text.split()]


def game_of(racks: list[str], box: str = "", to_move: int = 0) -> Game:
    """A game from given racks and box (its last tile is drawn first)."""
    return Game(len(racks), [tiles(rack) for rack in racks], Box(tiles(box), random.Random(0)), to_move)


def place(game: Game, notation: str) -> Place:
    return Place(parse_notation(game.position(), notation))


# -- setup ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players, sets", [(2, 1), (3, 2), (4, 2)])
def test_two_players_use_one_set_three_and_four_use_two(players: int, sets: int) -> None:
    game = Game.deal(players, seed=1)
    assert game.sets == sets
    dealt = sum((Counter(rack) for rack in game.racks), Counter())
    assert dealt + game.box.counts() == Counter(tile_set(sets))


@pytest.mark.parametrize("players", [1, 5])
def test_a_game_needs_two_to_four_players(players: int) -> None:
    with pytest.raises(ValueError):
        Game.deal(players, seed=1)


def test_each_player_is_dealt_seven_tiles() -> None:
    game = Game.deal(4, seed=3)
    assert [len(rack) for rack in game.racks] == [RACK_SIZE] * 4


def test_first_draw_ace_is_highest() -> None:
    assert first_player([[(0, parse_rack_tile("KD")), (1, parse_rack_tile("AC"))]], 2) == 1


def test_first_draw_joker_is_lowest() -> None:
    assert first_player([[(0, JOKER), (1, parse_rack_tile("2C"))]], 2) == 1


def test_first_draw_tie_is_drawn_again_by_the_tied_players_only() -> None:
    draws = [[(0, parse_rack_tile("AS")), (1, parse_rack_tile("3C")), (2, parse_rack_tile("AD"))],
             [(0, parse_rack_tile("5C")), (2, parse_rack_tile("9D"))]]
    assert first_player(draws, 3) == 2


def test_first_draw_that_breaks_the_rule_is_refused() -> None:
    with pytest.raises(ValueError):
        first_player([[(0, parse_rack_tile("AS")), (1, parse_rack_tile("AD"))]], 2)   # ends on a tie
    with pytest.raises(ValueError):
        first_player([[(1, parse_rack_tile("AS")), (0, parse_rack_tile("2D"))]], 2)   # wrong players


def test_the_dealt_first_player_won_the_first_draw() -> None:
    for seed in range(50):
        game = Game.deal(3, seed)
        assert first_player(game.first_draw, 3) == game.first_player == game.to_move


def test_a_game_is_reproducible_from_its_seed() -> None:
    def history(seed: int) -> list[Turn]:
        players = [make_player(kind, seed, seat) for seat, kind in enumerate(("greedy", "random", "random"))]
        return play_game(Game.deal(3, seed), players).history
    assert history(11) == history(11)
    assert history(11) != history(12)


# -- a turn --------------------------------------------------------------------------------

def test_the_player_decides_with_eight_tiles_after_drawing() -> None:
    game = Game.deal(2, seed=5)
    view = game.begin_turn()
    assert len(view.rack) == RACK_SIZE + 1 and view.box_size == 54 - 15


def test_a_play_scores_and_refills_the_rack_to_seven() -> None:
    game = game_of(["7H 7C 7S 2C 4D 9S KH", "2D 5D 9C JS QS 3H 8H"], box="AD AC 5S")
    game.begin_turn()
    turn = game.apply(place(game, "H6 7C7H7S"))
    assert turn.draw == parse_rack_tile("5S") and turn.score == 21
    assert turn.refill == tuple(tiles("AC AD")) and len(game.racks[0]) == RACK_SIZE
    assert game.scores == [21, 0] and game.to_move == 1


def test_a_return_puts_tiles_back_and_draws_up_to_seven() -> None:
    game = game_of(["2C 4D 9S KH 3H 6C JD", "2D 5D 9C JS QS 3H 8H"], box="AD AC 5S 8C")
    game.begin_turn()
    turn = game.apply(Return(tuple(tiles("2C 4D 9S"))))
    assert len(turn.refill) == 2 and len(game.racks[0]) == RACK_SIZE and len(game.box) == 4
    assert turn.score == 0 and game.turns_without_play == 1


def test_returning_one_tile_is_a_discard() -> None:
    game = game_of(["2C 4D 9S KH 3H 6C JD", "2D 5D 9C JS QS 3H 8H"], box="AD AC")
    game.begin_turn()
    turn = game.apply(Return((parse_rack_tile("KH"),)))
    assert turn.refill == () and len(game.racks[0]) == RACK_SIZE and len(game.box) == 2


def test_a_return_of_a_tile_not_on_the_rack_is_refused() -> None:
    game = game_of(["2C 4D 9S KH 3H 6C JD", "2D 5D 9C JS QS 3H 8H"], box="AD AC")
    game.begin_turn()
    with pytest.raises(IllegalMoveError, match="does not hold"):
        game.apply(Return((parse_rack_tile("KS"),)))


def test_a_return_of_no_tiles_is_refused() -> None:
    game = game_of(["2C 4D 9S KH 3H 6C JD", "2D 5D 9C JS QS 3H 8H"], box="AD AC")
    with pytest.raises(IllegalMoveError, match="at least one"):
        game.apply(Return(()))


def test_a_return_is_refused_when_the_box_is_empty() -> None:
    game = game_of(["2C 9H", "5D KS"])
    game.begin_turn()
    with pytest.raises(IllegalMoveError, match="box is empty"):
        game.apply(Return((parse_rack_tile("2C"),)))


def test_a_pass_is_refused_while_the_box_holds_tiles() -> None:
    game = game_of(["2C 4D 9S KH 3H 6C JD", "2D 5D 9C JS QS 3H 8H"], box="AD AC")
    with pytest.raises(IllegalMoveError, match="returns tiles"):
        game.apply(PASS)


def test_a_pass_is_refused_when_a_play_exists() -> None:
    game = game_of(["7H 7C 7S", "5D KS"])
    with pytest.raises(IllegalMoveError, match="legal play exists"):
        game.apply(PASS)


def test_an_illegal_play_is_refused_and_the_game_is_unchanged() -> None:
    game = game_of(["7H 7C 7S 2C 4D 9S KH", "2D 5D 9C JS QS 3H 8H"], box="AD AC 5S")
    game.begin_turn()
    racks, box = [list(rack) for rack in game.racks], list(game.box.tiles)
    with pytest.raises(IllegalMoveError, match="centre"):
        game.apply(place(game, "G5 7C7H7S"))
    assert game.racks == racks and game.box.tiles == box and not game.board and not game.history
    game.apply(place(game, "H6 7C7H7S"))          # the turn goes on
    assert game.scores == [21, 0]


def test_an_action_after_the_end_is_refused() -> None:
    game = game_of(["2C 9H", "5D KS"])
    game.apply(PASS)
    game.apply(PASS)
    with pytest.raises(RuntimeError):
        game.begin_turn()


# -- the end -------------------------------------------------------------------------------

def test_the_game_ends_when_the_box_is_empty_and_every_player_in_turn_passes() -> None:
    game = game_of(["2C 9H", "5D KS", "3C 8D"])
    game.apply(PASS)
    game.apply(PASS)
    assert not game.over
    game.apply(PASS)
    assert game.over and game.end_reason == BOX_EMPTY_AND_ALL_PASSED


def test_a_play_between_passes_starts_the_count_again() -> None:
    game = game_of(["2C 9H", "7H 7C 7S 5D"])
    game.apply(PASS)
    game.apply(place(game, "H6 7C7H7S"))
    game.apply(PASS)
    assert not game.over
    game.apply(PASS)
    assert game.over


def test_under_rules_1_the_game_ends_after_three_full_rounds_without_a_play_even_unopened() -> None:
    box = " ".join(["2C"] * 10)
    racks = ["3D 6H 9S QC 4D 7H TS", "5C 8D JH KS 2D 6S 9C"]
    game = Game(2, [tiles(rack) for rack in racks], Box(tiles(box), random.Random(0)), 0, rules=1)
    for turn in range(6):
        assert not game.over
        game.begin_turn()
        game.apply(Return((game.racks[game.to_move][0],)))
    assert game.over and game.end_reason == NO_PLAY_FOR_ROUNDS.format(rounds=3)
    assert game.turns_played == 6


def test_penalties_at_the_end_follow_the_rack_column() -> None:
    # ace 15, T J Q K 10, 2..9 face value, joker 0
    game = game_of(["AS TD JC QH KS", "* 2C 9H 5D"])
    game.apply(PASS)
    game.apply(PASS)
    assert game.penalties == [15 + 10 + 10 + 10 + 10, 0 + 2 + 9 + 5]
    assert game.scores == [-55, -16] and game.winners == [1]


# -- players ---------------------------------------------------------------------------------

def test_greedy_player_takes_the_best_play() -> None:
    game = game_of(["7H 7C 7S 5H 6H * KD", "2D 5D 9C JS QS 3H 8H"], box="2C")
    view = game.begin_turn()
    action = GreedyPlayer().choose(view)
    assert game.apply(action).score == 21


def test_greedy_player_without_a_play_returns_the_costliest_tile() -> None:
    game = game_of(["2C 4D 9S KH 3H 6C JD", "2D 5D 9C JS QS 3H 8H"], box="5C AS")
    view = game.begin_turn()
    assert GreedyPlayer().choose(view) == Return((parse_rack_tile("AS"),))


def test_greedy_player_without_a_play_passes_when_the_box_is_empty() -> None:
    game = game_of(["2C 9H", "5D KS"])
    assert GreedyPlayer().choose(game.begin_turn()) == PASS


def test_random_player_plays_when_it_can() -> None:
    game = game_of(["7H 7C 7S 2C 4D 9S KH", "2D 5D 9C JS QS 3H 8H"], box="AD AC 5S")
    for seed in range(10):
        assert isinstance(RandomPlayer(random.Random(seed)).choose(game.begin_turn()), Place)


# -- invariants over many seeded games ---------------------------------------------------------

def seeded_game(seed: int) -> tuple[Game, list[Player]]:
    """A dealt game of 2-4 players, each greedy or random, all chosen by the seed."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    kinds = [rng.choice(("greedy", "random")) for _ in range(players)]
    return Game.deal(players, seed), [make_player(kind, seed, seat) for seat, kind in enumerate(kinds)]


def check_turn_invariants(game: Game, full: Counter[int]) -> None:
    tiles = Counter(tile.rack_tile for tile in game.board.values())
    for rack in game.racks:
        tiles.update(rack)
    tiles.update(game.box.tiles)
    assert tiles == full, "tiles not conserved"
    turn = game.history[-1]
    if not game.box.tiles:
        assert len(game.racks[turn.player]) <= RACK_SIZE + 1
    elif not game.over:
        assert len(game.racks[turn.player]) == RACK_SIZE


@pytest.fixture(scope="module")
def seeded_games() -> list[Game]:
    games = []
    for seed in range(GAMES):
        game, players = seeded_game(seed)
        full = Counter(tile_set(game.sets))
        while not game.over:
            view = game.begin_turn()
            assert len(view.rack) == RACK_SIZE + 1 or view.box_size == 0
            turn = game.apply(players[view.player].choose(view))
            check_turn_invariants(game, full)
            if isinstance(turn.action, Place) and seed < BOARD_CHECKED_GAMES:
                Position(Layout.standard(), game.sets, game.board, [], validate=True)  # raises if illegal
        Position(Layout.standard(), game.sets, game.board, [], validate=True)
        games.append(game)
    return games


def test_tiles_are_conserved_and_every_board_is_legal_every_turn(seeded_games: list[Game]) -> None:
    # the checks ran turn by turn while the fixture played the games: tiles every
    # turn, the board after every play (of the first BOARD_CHECKED_GAMES; after the
    # last play of the others)
    assert len(seeded_games) == GAMES


def test_scores_are_the_sum_of_move_scores_less_the_penalties(seeded_games: list[Game]) -> None:
    for game in seeded_games:
        assert game.over
        for player in range(game.players):
            moves = sum(turn.score for turn in game.history if turn.player == player)
            penalty = sum(rack_penalty(tile) for tile in game.racks[player])
            assert game.penalties is not None and game.penalties[player] == penalty
            assert game.scores[player] == moves - penalty


def test_seeded_games_cover_every_kind_of_turn_and_both_ends(seeded_games: list[Game]) -> None:
    turns = [turn for game in seeded_games for turn in game.history]
    assert {game.players for game in seeded_games} == {2, 3, 4}
    assert {game.end_reason for game in seeded_games} == {BOX_EMPTY_AND_ALL_PASSED, NO_PLAY_FOR_ROUNDS.format(rounds=3)}
    assert any(isinstance(turn.action, Return) and len(turn.action.tiles) == 1 for turn in turns)
    assert any(isinstance(turn.action, Return) and len(turn.action.tiles) > 1 for turn in turns)
    assert any(turn.action == PASS for turn in turns)
    assert any(isinstance(turn.action, Place) and turn.action.play.jokers_used for turn in turns)
