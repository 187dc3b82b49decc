"""The pre-endgame ranking (ginnyo.endgame.preendgame): exact expectations over the hidden
tiles agreeing with a plain-Python brute force over every ordering of them on
hundreds of small pre-endgames, the turn structure of docs/RULES.md §6, the
time budget, and the refusals."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import position
from preendgame_reference import expected_spread

from ginnycore.selfplay import greedy_game_record
from ginnyo import native
from ginnyo.errors import PositionError
from ginnyo.game.game import tile_set
from ginnyo.vocab.layout import Layout
from ginnyo.position.context import parse_tile_codes
from ginnyo.position.position import Position
from ginnyo.endgame.greedy import greedy_preendgames
from ginnyo.endgame.preendgame import MAX_BOX, handfuls, is_preendgame, preendgame_box, rank
from ginnyo.vocab.tiles import PlacedTile, rack_code


def small_preendgame(seed: int, rack_size: int, box: int) -> Position:
    """A board from a seeded greedy game (a turn in its second half), our rack of
    ``rack_size + 1`` tiles (the turn's draw made) and ``rack_size + box`` unseen
    tiles, all dealt from the tiles not on the board."""
    rng = random.Random(seed)
    layout = Layout.standard()
    _, _, turns, _ = greedy_game_record(native.empty_core(layout), 2, seed)
    plays = [turn for turn in turns if turn["action"] == "play"]
    count = rng.randrange(max(1, len(plays) // 2), len(plays) + 1)
    while True:     # fewer plays when the board leaves too few tiles to deal
        board = {square: PlacedTile(card, joker) for turn in plays[:count]
                 for square, card, joker in turn["placements"]}
        free = list((Counter(tile_set(1)) - Counter(tile.rack_tile for tile in board.values())).elements())
        if len(free) >= 2 * rack_size + 1 + box or count == 1:
            break
        count -= 1
    rng.shuffle(free)
    ours, unseen = free[:rack_size + 1], free[rack_size + 1:2 * rack_size + 1 + box]
    return Position(layout, 1, board, ours, {"players": 2, "unseen": [rack_code(tile) for tile in unseen]})


def check_against_brute_force(seed: int, rack_size: int, box: int) -> int:
    """Every ranked candidate's expectation equals the brute force's; the ranking
    is by it.  Returns how many candidates were checked."""
    start = small_preendgame(seed, rack_size, box)
    result = rank(start, rack_size=rack_size, plays=6, returns=2, endgame_seconds=None)
    assert result.proven and result.box == box
    unseen = parse_tile_codes(start.context["unseen"], "unseen", "unseen")
    for choice in result.choices:
        expected = expected_spread(start, unseen, choice.candidate.action(), rack_size, native.legal_plays)
        assert choice.spread == expected, (seed, choice.notation, choice.spread, expected)
    spreads = [choice.spread for choice in result.choices if choice.spread is not None]
    assert len(spreads) == len(result.choices)
    assert spreads == sorted(spreads, reverse=True)
    return len(result.choices)


@pytest.mark.parametrize("box", [1, 2])
def test_agrees_exactly_with_the_brute_force_over_every_ordering(box: int) -> None:
    seeds = 30 if box == 1 else 15     # a box of 2 takes about six times as long
    checked = sum(check_against_brute_force(seed, 2, box) for seed in range(seeds))
    assert checked >= 2 * seeds


@pytest.mark.slow
@pytest.mark.parametrize("box", [1, 2])
def test_agrees_exactly_with_the_brute_force_on_hundreds(box: int) -> None:
    for seed in range(100, 160):
        check_against_brute_force(seed, 3, box)
        check_against_brute_force(seed, 2, box)


def test_handfuls_weigh_every_way_to_take_the_tiles() -> None:
    box = (1, 1, 2, 3)
    found = dict(handfuls(box, 2))
    assert found == {(1, 1): 1, (1, 2): 2, (1, 3): 2, (2, 3): 1}
    assert sum(found.values()) == 6


def test_box_is_the_unseen_tiles_less_the_opponents_seven() -> None:
    tiles = " ".join(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"])
    assert preendgame_box(position({}, "AS", players=2, unseen=tiles)) == 2
    assert is_preendgame(position({}, "AS", players=2, unseen=tiles))


@pytest.mark.parametrize("unseen", ["2C 3C 4C 5C 6C 7C 8C", "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"])
def test_an_empty_box_or_too_full_a_box_is_no_preendgame(unseen: str) -> None:
    start = position({}, "AS", players=2, unseen=unseen)
    assert not is_preendgame(start)
    with pytest.raises(PositionError, match="field 'unseen'"):
        rank(start)


def test_three_players_are_no_preendgame() -> None:
    start = position({}, "AS", sets=2, players=3, unseen="2C 3C 4C 5C 6C 7C 8C 9C")
    with pytest.raises(PositionError, match="field 'players'"):
        rank(start)


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), "1", True])
def test_bad_seconds_are_refused(seconds: object) -> None:
    start = small_preendgame(1, 2, 1)
    with pytest.raises(ValueError, match="seconds"):
        rank(start, seconds=seconds, rack_size=2)  # type: ignore[arg-type]


def test_time_running_out_returns_the_finished_best_unproven() -> None:
    start = greedy_preendgames(40, 2026, 3)[0]
    result = rank(start, seconds=0.05)
    assert not result.proven
    unfinished = [choice for choice in result.choices if choice.spread is None]
    assert unfinished and all(not choice.proven for choice in unfinished)
    assert len(result.choices) == len({choice.notation for choice in result.choices})


def test_greedy_preendgames_have_the_box_count_asked_for() -> None:
    for box in range(1, MAX_BOX + 1):
        found = greedy_preendgames(20, 2026, box)
        assert found
        for start in found:
            assert preendgame_box(start) == box and len(start.rack) == 8


def test_an_empty_rack_with_tiles_in_the_box_is_refused() -> None:
    start = position({}, "", players=2, unseen="2C 3C 4C 5C 6C 7C 8C 9C")
    with pytest.raises(PositionError, match="field 'rack'"):
        rank(start)


def test_without_a_play_and_no_returns_asked_for_the_best_return_is_still_ranked() -> None:
    start = position({}, "2C 9D KS", players=2, unseen="3C 4C 5C 6C 7C 8C 9C TC")
    result = rank(start, returns=0)
    assert [choice.candidate.kind for choice in result.choices] == ["return"]
