"""The table advisor's words (ginnyo.crazy.hints): melds named as a player sees them, not by index."""

from __future__ import annotations

from ginnyo.crazy.cards import parse_cards
from ginnyo.crazy.rounds import RoundState
from ginnyo.crazy.hints import card_words, line_words, meld_words
from ginnyo.crazy.melds import parse_meld
from ginnyo.crazy.solver import solve_hand

WILD = 7


def table_with_a_run_of_mine_and_beas_kings() -> RoundState:
    state = RoundState(WILD, 3, 0, list(range(52)))
    state.melds[1].append(parse_meld("2S 3S 4S", WILD, "meld"))
    state.melds[2].append(parse_meld("KD KS 7D=KC", WILD, "meld"))
    state.hands[1] = parse_cards("KC 8H 9H 5S 2H", "cards")
    return state


def test_a_card_is_written_with_its_suit_sign() -> None:
    assert card_words(parse_cards("AH", "cards")[0]) == "A♥" and card_words(parse_cards("TC", "cards")[0]) == "T♣"


def test_a_set_is_named_by_its_rank_and_a_wild_by_what_it_stands_for() -> None:
    assert meld_words(parse_meld("KD KS 7D=KC", WILD, "meld"), WILD) == "set of kings K♦ K♠ 7♦ (as K♣)"
    assert meld_words(parse_meld("2S 3S 4S", WILD, "meld"), WILD) == "run 2♠ 3♠ 4♠"


def test_the_advice_names_the_melds_it_changes_by_owner_kind_and_cards() -> None:
    state = table_with_a_run_of_mine_and_beas_kings()
    view, _ = state.view(1)
    line = solve_hand(list(view.hand), WILD, view.melds, view.others).line
    texts = line_words(line, state, 1, WILD, ("Al", "Cy", "Bea"))
    assert "swap K♣ for 7♦ in Bea's set of kings K♦ K♠ 7♦ (as K♣)" in texts
    assert "lay off 5♠ on your run 2♠ 3♠ 4♠" in texts
    assert not any("others[" in text or "melds[" in text for text in texts)
    assert texts[-1] == "discard 2♥"


def test_a_seat_without_a_name_is_named_by_its_number() -> None:
    state = table_with_a_run_of_mine_and_beas_kings()
    view, _ = state.view(1)
    line = solve_hand(list(view.hand), WILD, view.melds, view.others).line
    assert any("in seat 3's set of kings" in text for text in line_words(line, state, 1, WILD, ()))
