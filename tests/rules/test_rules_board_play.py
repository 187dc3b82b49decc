"""The rules of docs/RULES.md §3 (the board) and §4 (what a play is: conditions 1-6), one case per test.

Each case is checked against both the plain-Python reference and the compiled
core (see tests/rules_cases.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from ginnyo import IllegalMoveError, PlacedTile, Play, Position, native
from ginnyo.position import reference
from ginnyo.vocab.tiles import parse_card
from rules_cases import (
    JOIN_BOARD, JOIN_LAYOUT, RUN_5_7H, TWO_RUNS, assert_illegal, assert_legal, play, plays_on, pos)


# --------------------------------------------------------------------------
# §3 the board

STANDARD_FROM_RULES = """
B..Y...B...Y..B
.G...G...G...G.
..Y...Y.Y...Y..
Y..R...Y...R..Y
...............
.G...G...G...G.
..Y...Y.Y...Y..
B..Y...S...Y..B
..Y...Y.Y...Y..
.G...G...G...G.
...............
Y..R...Y...R..Y
..Y...Y.Y...Y..
.G...G...G...G.
B..Y...B...Y..B
""".split()


def test_standard_layout_is_the_one_in_the_rules() -> None:
    p = pos({}, "")
    assert list(p.layout.rows) == STANDARD_FROM_RULES
    assert (p.layout.width, p.layout.height) == (15, 15)
    assert p.layout.centre == p.layout.parse_square("H8")


def test_square_names_are_column_letter_then_row_from_the_top() -> None:
    layout = pos({}, "").layout
    assert layout.parse_square("A1") == 0
    assert layout.parse_square("O1") == 14
    assert layout.parse_square("A2") == 15
    assert layout.parse_square("O15") == 15 * 15 - 1
    assert layout.square_name(layout.parse_square("D4")) == "D4"
    assert layout.rows[3][3] == "R"   # D4 is red


def test_premium_squares_under_old_tiles_count_nothing() -> None:
    board = dict(RUN_5_7H, G7="5C", G9="5S")   # G7 and G9 are yellow, already covered
    p = pos(board, "5D")
    assert_legal(p, {"G10": "5D"}, 5, {("set", "G7-G10", 5)})
    assert_legal(p, {"G6": "5D"}, 5, {("set", "G6-G9", 5)})


# --------------------------------------------------------------------------
# §4 a play puts tiles from the rack onto empty squares

def test_play_must_use_tiles_on_the_rack() -> None:
    p = pos(RUN_5_7H, "8H 5C")
    assert_legal(p, {"J8": "8H"}, 8)
    assert_illegal(p, {"F8": "4H"})            # no 4H on the rack
    assert_illegal(p, {"F8": "4h"})            # no joker on the rack
    q = pos(RUN_5_7H, "*")
    assert_illegal(q, {"J8": "8H"})            # a joker is not the real card


def test_play_cannot_use_a_tile_twice() -> None:
    board = {sq: c for sq, c in zip(["C8", "D8", "E8", "F8", "G8", "H8", "I8", "J8", "K8", "L8", "M8", "N8"],
                                    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH".split())}
    p = pos(board, "AH", sets=2)
    assert_legal(p, {"B8": "AH"}, 1)
    assert_illegal(p, {"B8": "AH", "O8": "AH"})   # one AH on the rack
    q = pos(RUN_5_7H, "8H *")
    assert_legal(q, {"J8": "8H", "K8": "9h"}, 8)
    assert_illegal(q, {"J8": "8h", "K8": "9h"})   # one joker on the rack


def test_play_must_be_on_empty_squares() -> None:
    p = pos(RUN_5_7H, "8H 5C 5S")
    assert_illegal(p, {"I8": "8H"})
    assert_illegal(p, {"G8": "5C", "G9": "5S"})   # G8 holds 5H


def test_play_of_no_tiles_is_illegal() -> None:
    p = pos(RUN_5_7H, "8H")
    empty = Play.of({})
    assert not reference.is_legal(p, empty)
    with pytest.raises(IllegalMoveError):
        p.score(empty)


# --------------------------------------------------------------------------
# §4.1 one row or column, unbroken

# a valid board: run 5H-7H on G8-I8, set 5H 5C 5S down G8-G10, run 5S-7S on G10-I10


def test_condition_1_tiles_in_two_rows_and_two_columns_illegal() -> None:
    p = pos(TWO_RUNS, "8H 5D")
    assert_legal(p, {"J8": "8H"}, 8)        # each tile alone is legal
    assert_legal(p, {"G11": "5D"}, 5)
    assert_illegal(p, {"J8": "8H", "G11": "5D"})


def test_condition_1_gap_between_placed_tiles_illegal() -> None:
    p = pos(TWO_RUNS, "8H 8S 8C")
    assert_legal(p, {"J8": "8H"}, 8)
    assert_legal(p, {"J10": "8S"}, 24)      # J10 is green
    assert_illegal(p, {"J8": "8H", "J10": "8S"})  # J9 empty between them


def test_condition_1_unbroken_line_legal() -> None:
    p = pos(TWO_RUNS, "8H 8S 8C")
    # column set 8 + 8 + 8x3 = 40, row-8 run +8, row-10 run +8x3
    assert_legal(p, {"J8": "8H", "J9": "8C", "J10": "8S"}, 72)


def test_condition_1_tiles_already_on_the_board_fill_the_gap() -> None:
    p = pos(RUN_5_7H, "4H 8H")
    assert_legal(p, {"F8": "4H", "J8": "8H"}, 12, {("run", "F8-J8", 12)})


# --------------------------------------------------------------------------
# §4.2 every line of 2+ through a placed tile is a meld

def test_condition_2_extension_that_breaks_the_meld_illegal() -> None:
    p = pos(RUN_5_7H, "8H 8C")
    assert_legal(p, {"J8": "8H"}, 8)
    assert_illegal(p, {"J8": "8C"})


def test_condition_2_two_tile_crossing_line_illegal() -> None:
    # a run of clubs under the hearts: each placed tile makes a 2-tile column
    p = pos(RUN_5_7H, "6C 7C 8C")
    assert_illegal(p, {"H9": "6C", "I9": "7C", "J9": "8C"})


def test_condition_2_lines_the_play_does_not_touch_are_not_rechecked() -> None:
    layout = Position.from_dict({"board": {}, "rack": ""}).layout
    sq = layout.parse_square
    good = pos(RUN_5_7H, "8H")
    board = dict(good.board)
    card_kd, _ = parse_card("KD", lower_is_joker=True)
    card_kc, _ = parse_card("KC", lower_is_joker=True)
    board[sq("B2")] = PlacedTile(card_kd)   # a 2-tile line far away, not a meld
    board[sq("C2")] = PlacedTile(card_kc)
    p = Position(layout, 1, board, good.rack, validate=False)
    assert_legal(p, {"J8": "8H"}, 8)


# --------------------------------------------------------------------------
# §4.3 each placed tile in a line of 3+

def test_condition_3_single_tile_alone_on_a_red_square_illegal() -> None:
    p = pos(RUN_5_7H, "KD KC KS")
    assert_illegal(p, {"D4": "KD"})     # no line of 2+, covers R, but stands alone


def test_condition_3_tile_extending_a_meld_legal() -> None:
    p = pos(RUN_5_7H, "KD KC KS 8H")
    assert_legal(p, {"J8": "8H"}, 8)
    assert_legal(p, {"D4": "KD", "E4": "KC", "F4": "KS"}, 60)


# --------------------------------------------------------------------------
# §4.4 placement

def test_condition_4_empty_board_must_cover_the_centre() -> None:
    p = pos({}, "7H 7C 7S")
    assert_legal(p, {"G8": "7H", "H8": "7C", "I8": "7S"}, 21)
    assert_illegal(p, {"F7": "7H", "G7": "7C", "H7": "7S"})
    assert_illegal(p, {"A1": "7H", "B1": "7C", "C1": "7S"})


def test_condition_4_empty_board_red_square_is_not_enough() -> None:
    p = pos({}, "KD KC KS")
    assert_illegal(p, {"D4": "KD", "E4": "KC", "F4": "KS"})


def test_condition_4_every_play_on_an_empty_board_covers_the_centre() -> None:
    p = pos({}, "7H 7C 7S 8H 9H")
    centre = p.layout.parse_square("H8")
    for engine in (reference, native):
        plays = engine.legal_plays(p)
        assert plays
        assert all(centre in s.play.squares for s in plays)


def test_condition_4_connecting_play_legal() -> None:
    p = pos(RUN_5_7H, "5C 5S KD KC KS")
    assert_legal(p, {"G7": "5C", "G9": "5S"}, 20)


def test_condition_4_unconnected_play_off_red_illegal() -> None:
    p = pos(RUN_5_7H, "KD KC KS")
    assert_illegal(p, {"E4": "KD", "F4": "KC", "G4": "KS"})    # plain squares, touches nothing
    assert_illegal(p, {"K2": "KD", "L2": "KC", "M2": "KS"})


def test_condition_4_new_area_on_an_empty_red_square_legal() -> None:
    p = pos(RUN_5_7H, "KD KC KS")
    assert_legal(p, {"D4": "KD", "E4": "KC", "F4": "KS"}, 60)
    assert_legal(p, {"L12": "KD", "L13": "KC", "L14": "KS"}, 60)


def test_condition_4_play_diagonal_to_the_board_does_not_connect() -> None:
    # J9 K9 L9 touches I8 only diagonally
    p = pos(RUN_5_7H, "8C 9C TC")
    assert_illegal(p, {"J9": "8C", "K9": "9C", "L9": "TC"})


# --------------------------------------------------------------------------
# §4.5 areas never join

# 13 x 3: a run of clubs begun on R (A2) and one on the centre S (G2), D2 E2 between


def test_condition_5_play_extending_one_area_legal() -> None:
    p = pos(JOIN_BOARD, "5C 6C", layout=JOIN_LAYOUT)
    assert_legal(p, {"D2": "5C"}, 5)
    assert_legal(p, {"E2": "6C"}, 6)


def test_condition_5_play_touching_two_areas_refused() -> None:
    p = pos(JOIN_BOARD, "5C 6C", layout=JOIN_LAYOUT)
    assert_illegal(p, {"D2": "5C", "E2": "6C"})  # A2-H2 would be a fine run 2C..9C


def test_condition_5_single_tile_touching_two_areas_refused() -> None:
    # area 1: 5H..9H on G8-K8; area 2 begun on red L4: 6H..9H down L4-L7.
    board = {"G8": "5H", "H8": "6H", "I8": "7H", "J8": "8H", "K8": "9H",
             "L4": "6H", "L5": "7H", "L6": "8H", "L7": "9H"}
    p = pos(board, "TH 5H *", sets=2)
    assert_legal(p, {"L3": "5H"}, 5)       # touches area 2 only
    # TH on L8 makes 5H..TH across and 6H..TH down, both melds, but joins the areas
    assert_illegal(p, {"L8": "TH"})
    assert_illegal(p, {"L8": "th"})


def test_condition_5_two_areas_on_the_board_load() -> None:
    board = {"G8": "5H", "H8": "6H", "I8": "7H", "D4": "KD", "E4": "KC", "F4": "KS"}
    p = pos(board, "KH 8H")
    assert_legal(p, {"G4": "KH"}, 10)     # old D4 red square does not count again
    assert_legal(p, {"J8": "8H"}, 8)


# --------------------------------------------------------------------------
# §4.6 joker identities

def test_condition_6_joker_identity_must_make_every_line_valid() -> None:
    p = pos(RUN_5_7H, "8C 8S *")
    assert_legal(p, {"J8": "8h", "J9": "8C", "J10": "8S"}, 8 + 8 * 3)  # joker adds 0
    assert_illegal(p, {"J8": "8d", "J9": "8C", "J10": "8S"})  # fits the column, not the row


def test_condition_6_joker_run_identity_is_forced() -> None:
    p = pos(RUN_5_7H, "*")
    assert_legal(p, {"J8": "8h"}, 0)
    assert_legal(p, {"F8": "4h"}, 0)
    assert_illegal(p, {"J8": "8c"})
    assert_illegal(p, {"J8": "4h"})
    expected = {play(p, {"J8": "8h"}), play(p, {"F8": "4h"})}
    assert {s.play for s in reference.legal_plays(p)} == expected
    assert {s.play for s in native.legal_plays(p)} == expected


def test_condition_6_set_joker_missing_suits_are_distinct_plays() -> None:
    p = pos(RUN_5_7H, "5C *")
    assert_legal(p, {"G7": "5C", "G9": "5d"}, 10)
    assert_legal(p, {"G7": "5C", "G9": "5s"}, 10)
    assert_illegal(p, {"G7": "5C", "G9": "5c"})   # two clubs
    assert_illegal(p, {"G7": "5C", "G9": "5h"})   # two hearts
    expected = {play(p, {"G7": "5C", "G9": "5d"}), play(p, {"G7": "5C", "G9": "5s"}),
                play(p, {"G7": "5d", "G9": "5C"}), play(p, {"G7": "5s", "G9": "5C"})}
    assert plays_on(p, ["G7", "G9"], reference) == expected
    assert plays_on(p, ["G7", "G9"], native) == expected


def test_condition_6_set_joker_on_empty_board_counts_every_missing_suit() -> None:
    p = pos({}, "7H 7C *")
    got_ref = plays_on(p, ["G8", "H8", "I8"], reference)
    got_core = plays_on(p, ["G8", "H8", "I8"], native)
    assert got_ref == got_core
    # the joker can be 7D or 7S, on any of the 3 squares, with 7H 7C in either order
    assert len(got_ref) == 2 * 3 * 2


def test_condition_6_joker_may_stand_for_a_card_on_the_board() -> None:
    p = pos(RUN_5_7H, "8H 9H *", sets=1)
    # joker as 7H (the real 7H is on I8): down J7-J9 = 7H 8H 9H, row G8-J8 = 5H..8H
    assert_legal(p, {"J7": "7h", "J8": "8H", "J9": "9H"}, 8 + 9 + 8)


def test_condition_6_joker_may_stand_for_a_card_on_the_rack() -> None:
    p = pos(RUN_5_7H, "8H *", sets=1)
    assert_legal(p, {"J8": "8h"}, 0)
    assert_legal(p, {"J8": "8H"}, 8)
    assert play(p, {"J8": "8h"}) != play(p, {"J8": "8H"})


def test_condition_6_joker_may_stand_for_the_second_ace_of_a_fourteen_run_with_one_set() -> None:
    # docs/RULES.md §1: a joker "may stand for any card, even one whose real tile is
    # on the board or on a rack: the copy limits count physical tiles only".
    board = {sq: c for sq, c in zip(["C8", "D8", "E8", "F8", "G8", "H8", "I8", "J8", "K8", "L8", "M8", "N8"],
                                    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH".split())}
    p = pos(board, "AH *", sets=1)
    assert_legal(p, {"B8": "AH", "O8": "ah"}, 1 * 3)
    assert_legal(p, {"B8": "ah", "O8": "AH"}, 1 * 3)


def test_single_tile_is_one_play_whichever_way_it_is_read() -> None:
    # a ring: H8-J8 5C 6C 7C across, H8-H11 5C 5D 5H 5S down, H11-K11 5S..8S across,
    # K9-K11 8D 8H 8S down.  8C on K8 completes a run across and a set down.
    board = {"H8": "5C", "I8": "6C", "J8": "7C", "H9": "5D", "H10": "5H",
             "H11": "5S", "I11": "6S", "J11": "7S", "K11": "8S", "K9": "8D", "K10": "8H"}
    p = pos(board, "8C *")
    assert_legal(p, {"K8": "8C"}, 16, {("run", "H8-K8", 8), ("set", "K8-K11", 8)})
    assert_legal(p, {"K8": "8c"}, 0)
    for engine in (reference, native):
        on_k8 = [s.play for s in engine.legal_plays(p) if s.play.squares == (p.layout.parse_square("K8"),)]
        assert Counter(on_k8) == Counter({play(p, {"K8": "8C"}): 1, play(p, {"K8": "8c"}): 1})


def test_single_tile_lying_in_one_line_listed_once() -> None:
    p = pos(RUN_5_7H, "8H")
    for engine in (reference, native):
        plays = [s.play for s in engine.legal_plays(p)]
        assert plays == [play(p, {"J8": "8H"})]


def test_two_identical_real_tiles_with_two_sets_are_one_play() -> None:
    p = pos(RUN_5_7H, "8H 8H 5C 5C 5S", sets=2)
    for engine in (reference, native):
        plays = [s.play for s in engine.legal_plays(p)]
        assert len(plays) == len(set(plays))
        assert plays.count(play(p, {"J8": "8H"})) == 1
        assert plays.count(play(p, {"G7": "5C", "G9": "5S"})) == 1
    assert_legal(p, {"J8": "8H"}, 8)


def test_plays_differing_only_in_square_order_are_distinct() -> None:
    p = pos(RUN_5_7H, "5C 5S")
    assert_legal(p, {"G7": "5C", "G9": "5S"}, 20)
    assert_legal(p, {"G7": "5S", "G9": "5C"}, 20)
