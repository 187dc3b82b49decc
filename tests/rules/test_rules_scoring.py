"""The rules of docs/RULES.md §5 (scoring, worked examples), custom layouts, and the
reference and the core generating the same plays.

Each case is checked against both the plain-Python reference and the compiled
core (see tests/rules_cases.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ginnyo import PositionError, solver
from ginnyo.position import reference
from ginnyo.vocab.notation import parse_notation, play_notation
from rules_cases import (
    EXAMPLE_1, EXAMPLE_2_TO_4, JOIN_BOARD, JOIN_LAYOUT, RED_CROSS_LAYOUT, RUN_5_7H, TWO_RUNS,
    assert_illegal, assert_legal, assert_rejected, best_score, play, pos)


# --------------------------------------------------------------------------
# §5 worked examples (standard layout)



def test_example_1_set_of_sevens_across_the_centre_scores_21() -> None:
    p = pos(**EXAMPLE_1)
    assert_legal(p, {"G8": "7H", "H8": "7C", "I8": "7S"}, 21, {("set", "G8-I8", 21)})


def test_example_1_run_5h_6h_7h_scores_18() -> None:
    p = pos(**EXAMPLE_1)
    assert_legal(p, {"G8": "5H", "H8": "6H", "I8": "7H"}, 18, {("run", "G8-I8", 18)})


def test_example_1_jokers_add_zero() -> None:
    p = pos(**EXAMPLE_1)
    assert_legal(p, {"G8": "7H", "H8": "7C", "I8": "7S", "J8": "7d"}, 21)
    assert_legal(p, {"G8": "5H", "H8": "6H", "I8": "7H", "J8": "8h"}, 18)


def test_example_1_no_play_scores_more_than_21() -> None:
    p = pos(**EXAMPLE_1)
    assert best_score(p, reference) == 21
    assert best_score(p, solver) == 21
    assert solver.legal_plays(p)[0].score == 21  # best first
    best = solver.best_play(p)
    assert best is not None and best.score == 21


def test_example_2_set_of_fives_down_column_g_scores_20() -> None:
    p = pos(**EXAMPLE_2_TO_4)
    assert_legal(p, {"G7": "5C", "G9": "5S"}, 20, {("set", "G7-G9", 20)})
    assert parse_notation(p, "G7 5C.5S") == play(p, {"G7": "5C", "G9": "5S"})
    assert solver.score_play(p, "G7 5C.5S").score == 20
    assert play_notation(p, play(p, {"G7": "5C", "G9": "5S"})) == "G7 5C.5S"


def test_example_3_set_of_eights_down_j8_j10_extends_the_run_scores_48() -> None:
    p = pos(**EXAMPLE_2_TO_4)
    assert_legal(p, {"J8": "8H", "J9": "8C", "J10": "8S"}, 48,
                 {("set", "J8-J10", 40), ("run", "G8-J8", 8)})
    assert solver.score_play(p, "J8 8H8C8S").score == 48
    assert play_notation(p, play(p, {"J8": "8H", "J9": "8C", "J10": "8S"})) == "J8 8H8C8S"


def test_example_4_new_area_on_red_d4_scores_60() -> None:
    p = pos(**EXAMPLE_2_TO_4)
    assert_legal(p, {"D4": "KD", "E4": "KC", "F4": "KS"}, 60, {("set", "D4-F4", 60)})
    assert solver.score_play(p, "4D KDKCKS").score == 60
    assert play_notation(p, play(p, {"D4": "KD", "E4": "KC", "F4": "KS"})) == "4D KDKCKS"


# --------------------------------------------------------------------------
# §5 scoring

def test_ace_is_1_in_a_run() -> None:
    p = pos({}, "AH 2H 3H")
    assert_legal(p, {"G8": "AH", "H8": "2H", "I8": "3H"}, 6)


def test_ace_is_15_in_a_set() -> None:
    p = pos({}, "AH AC AS")
    assert_legal(p, {"G8": "AH", "H8": "AC", "I8": "AS"}, 45)


def test_ace_high_is_1_in_a_run() -> None:
    p = pos({}, "QH KH AH")
    assert_legal(p, {"G8": "QH", "H8": "KH", "I8": "AH"}, 21)


def test_ten_and_court_cards_are_10() -> None:
    p = pos({}, "TH JH QH KH")
    assert_legal(p, {"F8": "TH", "G8": "JH", "H8": "QH", "I8": "KH"}, 40)


def test_joker_scores_0() -> None:
    p = pos({}, "7H 7C *")
    assert_legal(p, {"G8": "7H", "H8": "7C", "I8": "7s"}, 14)
    q = pos({}, "AH AC *")
    assert_legal(q, {"G8": "AH", "H8": "AC", "I8": "as"}, 30)   # not 15 for the joker ace


def test_joker_on_a_premium_square_scores_0() -> None:
    # J10 is green; the joker there adds 0 to the column and nothing multiplies it
    p = pos(RUN_5_7H, "8H 8C *")
    assert_legal(p, {"J8": "8H", "J9": "8C", "J10": "8s"}, 8 + 8 + 8)


def test_centre_square_gives_no_bonus() -> None:
    p = pos({}, "7H 7C 7S")
    assert_legal(p, {"G8": "7H", "H8": "7C", "I8": "7S"}, 21)   # not 42
    assert_legal(p, {"H7": "7H", "H8": "7C", "H9": "7S"}, 21)


def test_old_tiles_score_nothing() -> None:
    p = pos(RUN_5_7H, "8H")
    assert_legal(p, {"J8": "8H"}, 8, {("run", "G8-J8", 8)})


def test_red_square_scores_only_when_first_covered() -> None:
    board = {"G8": "5H", "H8": "6H", "I8": "7H", "D4": "KD", "E4": "KC", "F4": "KS"}
    p = pos(board, "KH")
    assert_legal(p, {"G4": "KH"}, 10, {("set", "D4-G4", 10)})


def test_yellow_and_green_multiply_the_tile() -> None:
    p = pos(RUN_5_7H, "5C 5S 8H 8C 8S")
    assert_legal(p, {"G7": "5C", "G9": "5S"}, 5 * 2 + 5 * 2)      # G7, G9 yellow
    assert_legal(p, {"J8": "8H", "J9": "8C", "J10": "8S"}, 48)    # J10 green


def test_red_square_doubles_the_meld() -> None:
    p = pos(RUN_5_7H, "KD KC KS")
    assert_legal(p, {"D4": "KD", "E4": "KC", "F4": "KS"}, 60)


def test_blue_square_triples_the_meld() -> None:
    # a run on row 8 reaching blue O8: 2H..8H on H8-N8
    board = dict(zip(["H8", "I8", "J8", "K8", "L8", "M8", "N8"], "2H 3H 4H 5H 6H 7H 8H".split()))
    p = pos(board, "9H")
    assert_legal(p, {"O8": "9H"}, 27, {("run", "H8-O8", 27)})


def test_placed_tile_scores_in_two_melds_with_its_tile_multiplier_in_each() -> None:
    # 9H on yellow L8 is in the column set and extends the row run
    board = {"H8": "5H", "I8": "6H", "J8": "7H", "K8": "8H"}
    p = pos(board, "9C 9H 9S")
    assert_legal(p, {"L7": "9C", "L8": "9H", "L9": "9S"}, 36 + 18,
                 {("set", "L7-L9", 9 + 9 * 2 + 9), ("run", "H8-L8", 9 * 2)})


def test_blue_square_multiplies_every_meld_through_it() -> None:
    board = dict(zip(["H8", "I8", "J8", "K8", "L8", "M8", "N8"], "2H 3H 4H 5H 6H 7H 8H".split()))
    p = pos(board, "9C 9H 9S")
    assert_legal(p, {"O7": "9C", "O8": "9H", "O9": "9S"}, 81 + 27,
                 {("set", "O7-O9", 27 * 3), ("run", "H8-O8", 9 * 3)})




def test_red_square_multiplies_every_meld_through_it() -> None:
    # 8H on red E4 ends the row run B4-E4 and sits in the column set E3-E5
    p = pos({"B4": "5H", "C4": "6H", "D4": "7H"}, "8C 8H 8S", layout=RED_CROSS_LAYOUT)
    assert_legal(p, {"E3": "8C", "E4": "8H", "E5": "8S"}, 48 + 16,
                 {("set", "E3-E5", 24 * 2), ("run", "B4-E4", 8 * 2)})


def test_meld_multipliers_of_one_line_multiply_together() -> None:
    layout = [".......", ".......", "B.S.B..", ".......", "......."]
    p = pos({}, "3H 4H 5H 6H 7H", layout=layout)
    assert_legal(p, {"A3": "3H", "B3": "4H", "C3": "5H", "D3": "6H", "E3": "7H"}, 25 * 3 * 3)


def test_tile_multiplier_applies_before_the_meld_multiplier() -> None:
    layout = [".....", ".....", "GSR..", ".....", "....."]
    p = pos({}, "7H 7C 7S", layout=layout)
    assert_legal(p, {"A3": "7H", "B3": "7C", "C3": "7S"}, (7 * 3 + 7 + 7) * 2)


def test_crossing_melds_touched_are_all_scored() -> None:
    # the crossing tile is scored in both melds; other tiles in one each
    p = pos(RUN_5_7H, "8H 8C 8S")
    assert_legal(p, {"J8": "8H", "J9": "8C", "J10": "8S"}, 48,
                 {("set", "J8-J10", 40), ("run", "G8-J8", 8)})


# --------------------------------------------------------------------------
# §3 custom layouts

def _layout(width: int, height: int, s_at: tuple[int, int], extra: dict[tuple[int, int],
            str] | None = None) -> list[str]:
    rows = [["."] * width for _ in range(height)]
    rows[s_at[1]][s_at[0]] = "S"
    for (x, y), kind in (extra or {}).items():
        rows[y][x] = kind
    return ["".join(r) for r in rows]


@pytest.mark.parametrize("width,height", [(5, 5), (7, 9), (9, 7), (15, 15), (21, 21)])
def test_custom_layout_sizes_generate_moves(width: int, height: int) -> None:
    layout = _layout(width, height, (width // 2, height // 2))
    p = pos({}, "7H 7C 7S", layout=layout)
    assert (p.layout.width, p.layout.height) == (width, height)
    centre = p.layout.centre
    for engine in (reference, solver):
        plays = engine.legal_plays(p)
        assert plays
        assert all(centre in s.play.squares for s in plays)
        assert max(s.score for s in plays) == 21
    # 3 squares x 6 orders, across and down, covering the centre
    assert len(solver.legal_plays(p)) == len(reference.legal_plays(p)) == 2 * 3 * 6


def test_custom_layout_5x5_with_centre_in_the_corner() -> None:
    p = pos({}, "7H 7C 7S", layout=_layout(5, 5, (0, 0)))
    assert_legal(p, {"A1": "7H", "B1": "7C", "C1": "7S"}, 21)
    assert_legal(p, {"A1": "7H", "A2": "7C", "A3": "7S"}, 21)
    assert_illegal(p, {"B1": "7H", "C1": "7C", "D1": "7S"})


def test_custom_layout_21x21_far_squares_and_red_start() -> None:
    layout = _layout(21, 21, (10, 10), {(20, 20): "R", (0, 0): "B"})
    p = pos({"J11": "5H", "K11": "6H", "L11": "7H"}, "KD KC KS", layout=layout)
    assert p.layout.parse_square("U21") == 21 * 21 - 1
    with pytest.raises(PositionError):
        p.layout.parse_square("V1")
    with pytest.raises(PositionError):
        p.layout.parse_square("A22")
    assert_legal(p, {"S21": "KD", "T21": "KC", "U21": "KS"}, 60)
    assert_legal(p, {"U19": "KD", "U20": "KC", "U21": "KS"}, 60)
    assert_illegal(p, {"A1": "KD", "B1": "KC", "C1": "KS"})   # blue, but not a start square


def test_custom_layout_7x9_board_and_premiums() -> None:
    layout = _layout(7, 9, (3, 4), {(4, 3): "Y", (4, 5): "G", (0, 0): "R"})
    p = pos({"C5": "5H", "D5": "6H", "E5": "7H"}, "8H 8C 8S KD KC KS 7C 7S", layout=layout)
    assert_legal(p, {"F4": "8C", "F5": "8H", "F6": "8S"}, 24 + 8)
    assert_legal(p, {"E4": "7C", "E6": "7S"}, 7 * 2 + 7 * 3)   # E4 yellow, E6 green
    assert_legal(p, {"A1": "KD", "B1": "KC", "C1": "KS"}, 60)
    assert_legal(p, {"A1": "KD", "A2": "KC", "A3": "KS"}, 60)


def test_custom_layout_with_two_centres_rejected() -> None:
    assert_rejected({}, "", layout=["S....", ".....", "..S..", ".....", "....."])


def test_custom_layout_with_no_centre_rejected() -> None:
    assert_rejected({}, "", layout=["....."] * 5)


# --------------------------------------------------------------------------
# cross-check: both engines generate the same plays with the same scores

AGREEMENT_CASES: dict[str, dict[str, Any]] = {
    "example1": dict(**EXAMPLE_1),
    "examples2to4": dict(**EXAMPLE_2_TO_4),
    "two_runs": dict(board=TWO_RUNS, rack="8H 8S 8C 5D * 4H"),
    "join": dict(board=JOIN_BOARD, rack="5C 6C * AC TC", layout=JOIN_LAYOUT),
    "ring": dict(board={"H8": "5C", "I8": "6C", "J8": "7C", "H9": "5D", "H10": "5H",
                        "H11": "5S", "I11": "6S", "J11": "7S", "K11": "8S", "K9": "8D",
                        "K10": "8H"}, rack="8C * 4C 9S"),
    "two_sets_jokers": dict(board=RUN_5_7H, rack="8H 8H 5C 5C * * 4H", sets=2),
    "four_jokers_empty_board": dict(board={}, rack="* * * *", sets=2),
    "red_cross": dict(board={"B4": "5H", "C4": "6H", "D4": "7H"}, rack="8C 8H 8S * 4H",
                      layout=RED_CROSS_LAYOUT),
}


@pytest.mark.parametrize("case", sorted(AGREEMENT_CASES))
def test_reference_and_solver_generate_the_same_plays_and_scores(case: str) -> None:
    p = pos(**AGREEMENT_CASES[case])
    ref = {s.play: s.score for s in reference.legal_plays(p)}
    core = {s.play: s.score for s in solver.legal_plays(p)}
    assert set(ref) - set(core) == set(), "plays only the reference finds"
    assert set(core) - set(ref) == set(), "plays only the solver finds"
    assert ref == core
    assert len(solver.legal_plays(p)) == len(core)
    best = solver.best_play(p)
    assert best is not None and best.score == max(ref.values())
