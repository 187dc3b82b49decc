"""The rules of docs/RULES.md §1 (tiles, copies, rank order) and §2 (melds), one case per test.

Each case is checked against both the plain-Python reference and the compiled
core (see tests/rules_cases.py)."""

from __future__ import annotations

from ginnyo.position import reference
from ginnyo import native
from ginnyo.vocab.tiles import parse_card
from rules_cases import RUN_5_7H, assert_illegal, assert_legal, assert_rejected, best_score, pos


# --------------------------------------------------------------------------
# §1 tiles: copy limits

def test_two_copies_of_a_card_rejected_with_one_set() -> None:
    assert_rejected(RUN_5_7H, "5H", sets=1)


def test_two_copies_of_a_card_accepted_with_two_sets() -> None:
    p = pos(RUN_5_7H, "5H", sets=2)
    assert p.sets == 2


def test_three_copies_of_a_card_rejected_with_two_sets() -> None:
    assert_rejected(RUN_5_7H, "5H 5H", sets=2)


def test_three_jokers_rejected_with_one_set() -> None:
    assert_rejected({}, "* * *", sets=1)


def test_three_jokers_accepted_with_two_sets() -> None:
    p = pos({}, "* * *", sets=2)
    assert len(p.rack) == 3


def test_five_jokers_rejected_with_two_sets() -> None:
    assert_rejected({}, "* * * * *", sets=2)


def test_board_jokers_count_as_jokers_not_as_the_card_they_stand_for() -> None:
    # a joker standing for 7H on the board plus a real 7H on the rack: one 7H tile
    p = pos({"G8": "5H", "H8": "6H", "I8": "7h"}, "7H *", sets=1)
    assert len(p.rack) == 2
    # two board jokers and one on the rack: three jokers, too many for one set
    assert_rejected({"G8": "5h", "H8": "6h", "I8": "7H"}, "*", sets=1)


def test_rack_values_at_the_end() -> None:
    from ginnyo.vocab.tiles import JOKER, rack_penalty

    def card(code: str) -> int:
        return parse_card(code, lower_is_joker=False)[0]

    assert rack_penalty(card("AS")) == 15
    assert rack_penalty(card("2S")) == 2
    assert rack_penalty(card("9D")) == 9
    assert rack_penalty(card("TD")) == 10
    assert [rack_penalty(card(c)) for c in ("JC", "QC", "KC")] == [10, 10, 10]
    assert rack_penalty(JOKER) == 0


# --------------------------------------------------------------------------
# §1 rank order: ace low or high, never wrapping; both directions

def test_run_q_k_a_legal() -> None:
    p = pos({}, "QH KH AH 2H")
    assert_legal(p, {"G8": "QH", "H8": "KH", "I8": "AH"}, 21)


def test_run_a_2_3_legal() -> None:
    p = pos({}, "AH 2H 3H KH")
    assert_legal(p, {"G8": "AH", "H8": "2H", "I8": "3H"}, 6)


def test_run_cannot_wrap_king_ace_two() -> None:
    p = pos({}, "QH KH AH 2H")
    assert_illegal(p, {"G8": "KH", "H8": "AH", "I8": "2H"})
    assert_illegal(p, {"G8": "2H", "H8": "AH", "I8": "KH"})


def test_descending_runs_legal() -> None:
    p = pos({}, "7H 6H 5H")
    assert_legal(p, {"G8": "7H", "H8": "6H", "I8": "5H"}, 18)   # across, right to left high->low
    assert_legal(p, {"H7": "7H", "H8": "6H", "H9": "5H"}, 18)   # down


def test_descending_runs_with_ace_high_and_ace_low_legal() -> None:
    p = pos({}, "AH KH QH 3H 2H")
    assert_legal(p, {"G8": "AH", "H8": "KH", "I8": "QH"}, 21)
    assert_legal(p, {"G8": "3H", "H8": "2H", "I8": "AH"}, 6)


def test_run_must_step_by_exactly_one() -> None:
    p = pos({}, "5H 7H 9H 6H")
    assert_illegal(p, {"G8": "5H", "H8": "7H", "I8": "9H"})
    assert_illegal(p, {"G8": "5H", "H8": "7H", "I8": "6H"})  # not all one direction


def test_run_must_be_one_suit() -> None:
    p = pos({}, "5H 6C 7H")
    assert_illegal(p, {"G8": "5H", "H8": "6C", "I8": "7H"})


def test_run_of_fourteen_ace_to_king_to_ace_with_two_sets() -> None:
    board = {sq: c for sq, c in zip(["C8", "D8", "E8", "F8", "G8", "H8", "I8", "J8", "K8", "L8", "M8", "N8"],
                                    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH".split())}
    p = pos(board, "AH AH", sets=2)
    # B8 plain, O8 blue (meld x3): (1 + 1) x 3
    assert_legal(p, {"B8": "AH", "O8": "AH"}, 6, {("run", "B8-O8", 6)})
    assert_legal(p, {"B8": "AH"}, 1)
    assert_legal(p, {"O8": "AH"}, 3)


def test_run_of_fourteen_placed_in_one_play() -> None:
    # all 14 rack tiles at once: row 8 has A8 blue (meld x3), D8 and L8 yellow
    p = pos({}, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", sets=2)
    ranks = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH".split()
    row_a_to_n = [f"{col}8" for col in "ABCDEFGHIJKLMN"]
    row_b_to_o = [f"{col}8" for col in "BCDEFGHIJKLMNO"]
    # A8..N8 ascending: (1 + 2 + 3 + 4x2 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10x2 + 10 + 1) x 3
    assert_legal(p, dict(zip(row_a_to_n, ranks)), 300)
    # B8..O8 ascending: (1 + 2 + 3x2 + 4 + ... + 10 + 10x2 + 10 + 10 + 1) x 3
    assert_legal(p, dict(zip(row_b_to_o, ranks)), 297)
    assert best_score(p, reference) == best_score(p, native) == 300


def test_board_run_of_fourteen_needs_two_sets() -> None:
    squares = ["B8", "C8", "D8", "E8", "F8", "G8", "H8", "I8", "J8", "K8", "L8", "M8", "N8", "O8"]
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH".split()
    board = dict(zip(squares, cards))
    assert pos(board, "", sets=2).board  # loads
    assert_rejected(board, "", sets=1)


def test_run_cannot_be_longer_than_fourteen() -> None:
    squares = ["B8", "C8", "D8", "E8", "F8", "G8", "H8", "I8", "J8", "K8", "L8", "M8", "N8", "O8"]
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH".split()
    p = pos(dict(zip(squares, cards)), "* KH 2H", sets=2)
    for code in ("KH", "2H", "kh", "2h", "ah"):
        assert_illegal(p, {"A8": code})
    assert not [s for s in native.legal_plays(p) if p.layout.parse_square("A8") in s.play.squares]
    assert not [s for s in reference.legal_plays(p) if p.layout.parse_square("A8") in s.play.squares]


# --------------------------------------------------------------------------
# §2 melds

def test_two_tile_line_is_not_a_meld() -> None:
    p = pos({}, "7H 7C 6H")
    assert_illegal(p, {"G8": "7H", "H8": "7C"})
    assert_illegal(p, {"H8": "6H", "I8": "7H"})


def test_set_needs_distinct_suits() -> None:
    p = pos({}, "7H 7H 7C 7S", sets=2)
    assert_illegal(p, {"G8": "7H", "H8": "7H", "I8": "7C"})
    assert_legal(p, {"G8": "7H", "H8": "7C", "I8": "7S"}, 21)


def test_set_of_four_legal() -> None:
    p = pos({"G8": "7H", "H8": "7C", "I8": "7S"}, "7D")
    assert_legal(p, {"J8": "7D"}, 7)


def test_set_of_five_illegal() -> None:
    p = pos({"F8": "7D", "G8": "7H", "H8": "7C", "I8": "7S"}, "7H *", sets=2)
    assert_illegal(p, {"J8": "7H"})
    for suit in "cdhs":
        assert_illegal(p, {"J8": "7" + suit})
        assert_illegal(p, {"E8": "7" + suit})


def test_set_of_five_illegal_even_with_a_joker_of_a_fifth_identity() -> None:
    # five 7s in a line can never be a set; with jokers too
    p = pos({}, "7H 7C 7S 7D *")
    assert_illegal(p, {"F8": "7H", "G8": "7C", "H8": "7S", "I8": "7D", "J8": "7h"})


def test_jokers_count_with_their_identity_on_the_board() -> None:
    # the board joker 7h makes G8-I8 a run; 8H extends it, 8C does not
    p = pos({"G8": "5H", "H8": "6H", "I8": "7h"}, "8H 8C")
    assert_legal(p, {"J8": "8H"}, 8)
    assert_illegal(p, {"J8": "8C"})


def test_crossing_tile_must_fit_both_lines() -> None:
    p = pos(RUN_5_7H, "8C 8S 8H 8D")
    assert_legal(p, {"J8": "8H", "J9": "8C", "J10": "8S"}, 48)
    assert_illegal(p, {"J8": "8D", "J9": "8C", "J10": "8S"})  # column set fine, row run broken
