"""Crazy Rummy rules (docs/RULES.md §7), one test a rule, through the public API."""

from __future__ import annotations

import pytest

from ginnyo.crazy import reference
from ginnyo.crazy.cards import card_code, cards_text, hand_points, parse_cards, points, wild_rank
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.rounds import RoundState
from ginnyo.crazy.melds import Meld, parse_meld
from ginnyo.crazy.solver import min_deadwood, solve_hand


def cards(text: str) -> list[int]:
    return parse_cards(text, "test")


def meld(text: str, wild: int) -> Meld:
    return parse_meld(text, wild, "test")


def is_meld(text: str, wild: int) -> bool:
    try:
        meld(text, wild)
    except CrazyError:
        return False
    return True


def all_melded(text: str, wild: int, own: tuple[str, ...] = (), others: tuple[str, ...] = ()) -> bool:
    """Can the whole of ``text`` be melded (solver and brute force agreeing)?"""
    own_melds = [meld(m, wild) for m in own]
    other_melds = [meld(m, wild) for m in others]
    solved = min_deadwood(cards(text), wild, own_melds, other_melds)
    assert solved == reference.min_deadwood(cards(text), wild, own_melds, other_melds)
    return solved == 0


# -- the round's wild rank and the values ------------------------------------------------

def test_wild_rank_is_aces_in_round_1_up_to_kings_in_round_13() -> None:
    assert [wild_rank(n) for n in range(1, 14)] == list(range(1, 14))
    with pytest.raises(CrazyError):
        wild_rank(14)


def test_card_values_wild_25_ace_1_face_value_pictures_10() -> None:
    wild = 5
    assert [points(c, wild) for c in cards("AC 2C 9D TD JH QH KS 5S")] == [1, 2, 9, 10, 10, 10, 10, 25]
    assert points(cards("AC")[0], 1) == 25          # aces are wild in round 1
    assert hand_points(cards("KS KH"), 13) == 50    # kings in round 13


# -- melds ---------------------------------------------------------------------------------

def test_set_of_three_and_of_four_of_one_rank() -> None:
    assert is_meld("7C 7D 7H", 2) and is_meld("7C 7D 7H 7S", 2)
    assert not is_meld("7C 7D", 2)


def test_set_never_holds_more_than_four_cards() -> None:
    assert not is_meld("7C 7D 7H 7S 2C=7C", 2)
    assert not all_melded("7C 7D 7H 7S 2C", 2)        # the wild cannot be a fifth 7


def test_run_of_three_or_more_of_one_suit_in_sequence() -> None:
    assert is_meld("4H 5H 6H", 2) and is_meld("9S TS JS QS KS", 2)
    assert not is_meld("4H 5H 7H", 2) and not is_meld("4H 5S 6H", 2)


def test_ace_is_low_a_2_3_is_a_run() -> None:
    assert is_meld("AH 2H 3H", 9)
    assert all_melded("AH 2H 3H", 9)


def test_ace_is_never_high_q_k_a_is_not_a_run() -> None:
    assert not is_meld("QH KH AH", 9)
    assert not all_melded("QH KH AH", 9)


def test_run_cannot_wrap_king_ace_two() -> None:
    assert not is_meld("KH AH 2H", 9)
    assert not all_melded("KH AH 2H", 9)


def test_wild_stands_in_a_set() -> None:
    assert meld("7C 7D 5H=7H", 5).kind == "set"
    assert all_melded("7C 7D 5H", 5)


def test_wild_stands_in_a_run() -> None:
    run = meld("4C 5H=5C 6C", 5)
    assert run.kind == "run" and run.stands_for(1) == cards("5C")[0]
    assert all_melded("4C 5H 6C", 5)


def test_several_wilds_in_one_meld() -> None:
    assert is_meld("7C 5D=7D 5H=7H", 5) and is_meld("5D=3C 4C 5H=5C", 5)
    assert all_melded("9S 5D 5H", 5)           # one natural and two wilds
    assert all_melded("5C 5D 5H", 5)           # wilds alone make a meld


def test_wild_must_say_what_it_stands_for_where_it_is_not_itself() -> None:
    with pytest.raises(CrazyError, match="5H is a wild: write what it stands for"):
        meld("4C 5H 6C", 5)                    # 5H is written as itself, not as 5C
    assert meld("4H 5H 6H", 5).wild_slots(5) == []   # a wild standing for itself


def test_only_the_rounds_wild_rank_stands_in() -> None:
    with pytest.raises(CrazyError, match="not a wild"):
        meld("4C 6H=5C 6C", 5)
    assert not all_melded("4C 6H 6C", 5)


def test_wild_cannot_stand_above_king_or_below_ace() -> None:
    assert not is_meld("QH KH 5D=AH", 5)
    assert all_melded("QH KH 5D", 5)           # the wild stands for the jack instead


# -- swapping a wild off the table ---------------------------------------------------------

def test_a_player_who_has_melded_swaps_the_real_card_for_a_table_wild() -> None:
    others = ["KD KS 7D=KC"]
    own = ["2S 3S 4S"]
    # 8H 9H and KC: swap KC for 7D, meld 7D with 8H 9H, discard something else
    result = solve_hand(cards("8H 9H KC QC"), 7, [meld(m, 7) for m in own], [meld(m, 7) for m in others])
    assert result.held == 0 and result.can_go_out
    assert any(a.kind == "swap" and card_code(a.taken) == "7D" for a in result.line.actions)


def test_swap_from_a_run_needs_the_exact_card() -> None:
    others = [meld("4C 7D=5C 6C", 7)]
    own = [meld("2S 3S 4S", 7)]
    assert min_deadwood(cards("5C 8H 9H"), 7, own, others) == 0       # 5C takes the wild
    assert min_deadwood(cards("5D 8H 9H"), 7, own, others) == 22      # 5D does not


def test_swap_only_after_melding() -> None:
    others = [meld("KD KS 7D=KC", 7)]
    # without melds of one's own and without a meld from the hand, no swap
    assert min_deadwood(cards("KC 8H 9H"), 7, (), others) == 27
    assert reference.min_deadwood(cards("KC 8H 9H"), 7, (), others) == 27
    # a meld laid first from the hand alone allows the swap in the same turn
    assert min_deadwood(cards("KC 8H 9H 2C 3C 4C"), 7, (), others) == 0


def test_lay_off_only_on_own_melds() -> None:
    own = [meld("4S 5S 6S", 9)]
    others = [meld("4H 5H 6H", 9)]
    assert min_deadwood(cards("7S"), 9, own, ()) == 0
    assert min_deadwood(cards("7H"), 9, own, others) == 7


def test_lay_off_a_wild_on_own_run_to_reach_a_card() -> None:
    own = [meld("4S 5S 6S", 9)]
    assert min_deadwood(cards("9C 8S"), 9, own) == 0        # 9C stands for 7S


# -- going out -------------------------------------------------------------------------------

def test_cannot_meld_your_last_card() -> None:
    # 4C 5C 6C would meld, but then no card is left to discard: nothing melds
    result = solve_hand(cards("4C 5C 6C"), 9)
    assert (result.deadwood, result.held, result.can_go_out) == (15, 9, False)
    assert result.line.actions == () and result.line.discard == cards("6C")[0]
    assert reference.deadwood_keeping_one(cards("4C 5C 6C"), 9) == 15
    assert min_deadwood(cards("4C 5C 6C"), 9) == 0       # it would all meld, were no discard due
    # with a fourth card the run goes down and one card stays for the discard
    assert solve_hand(cards("4C 5C 6C 7C"), 9).deadwood == 4


def test_go_out_when_all_but_the_discard_melds() -> None:
    result = solve_hand(cards("4C 5C 6C KH"), 9)
    assert result.can_go_out and result.line.goes_out and result.line.discard == cards("KH")[0]
    assert reference.can_go_out(cards("4C 5C 6C KH"), 9)


# -- the round: the deal, the one-card rule, the ends and the scores ---------------------------

def deck(text: str) -> list[int]:
    """A deck starting with ``text`` and then every other card in order."""
    front = cards(text)
    return front + [c for c in range(52) if c not in front]


def test_deal_seven_each_and_the_eighth_to_the_dealers_left_who_opens() -> None:
    state = RoundState(1, 3, 0, list(range(52)))
    assert [len(hand) for hand in state.hands] == [7, 8, 7]
    assert state.to_move == 1 and len(state.stock) == 52 - 22 and not state.discard
    with pytest.raises(CrazyError, match="no draw"):
        state.play_turn("stock", [], state.hands[1][0])


def test_one_card_player_may_only_draw_from_the_stock() -> None:
    state = RoundState(1, 3, 0, list(range(52)))
    state.hands[1] = state.hands[1][:2]
    state.play_turn("none", [], state.hands[1][0])
    state.play_turn("stock", [], state.hands[2][0])
    state.play_turn("stock", [], state.hands[0][0])
    assert len(state.hands[1]) == 1
    with pytest.raises(CrazyError, match="only draw from the stock"):
        state.play_turn("discard", [], state.discard[-1])


def test_one_card_player_who_cannot_go_out_discards_the_card_held() -> None:
    state = RoundState(1, 3, 0, list(range(52)))
    state.hands[1] = cards("KH")
    state.opening = False
    drawn = state.stock[0]
    with pytest.raises(CrazyError, match="discards the card held"):
        state.play_turn("stock", [], drawn)
    state.hands[1] = cards("KH")
    state.stock.insert(0, drawn)
    state.play_turn("stock", [], cards("KH")[0])
    assert state.hands[1] == [drawn]


def test_card_taken_from_the_discard_pile_cannot_go_straight_back() -> None:
    state = RoundState(1, 3, 0, list(range(52)))
    state.play_turn("none", [], state.hands[1][0])
    top = state.discard[-1]
    with pytest.raises(CrazyError, match="cannot go back"):
        state.play_turn("discard", [], top)


def test_round_ends_when_a_player_goes_out_and_the_others_add_their_hands() -> None:
    state = RoundState(5, 3, 0, deck("2D 9C 9H 3D TC TH 4D JC JH 6D QC QH KD KC KH 9D 8C 8H JD 7C 7H KS"))
    # dealt one at a time from the dealer's left, who also gets the 8th card
    assert cards_text(sorted(state.hands[1])) == "2D 3D 4D 6D 9D JD KD KS"
    state.hands[1] = cards("2D 3D 4D KS")
    state.play_turn("none", [{"meld": "2D 3D 4D"}], cards("KS")[0])
    assert state.end == "out" and state.out == 1
    assert state.points() == (hand_points(state.hands[0], 5), 0, hand_points(state.hands[2], 5))


def test_round_ends_when_the_stock_is_empty_and_everyone_adds_their_hand() -> None:
    state = RoundState(2, 3, 0, list(range(52)))
    state.stock = state.stock[:1]
    state.play_turn("none", [], state.hands[1][0])
    assert state.end is None
    state.play_turn("stock", [], state.hands[2][0])
    assert state.end == "stock empty" and state.out is None
    assert all(p > 0 for p in state.points())


def test_lay_off_on_someone_elses_meld_is_refused() -> None:
    state = RoundState(1, 3, 0, list(range(52)))
    state.melds[2].append(meld("4H 5H 6H", 1))
    state.hands[1] = cards("7H 8C 9C TC")
    with pytest.raises(CrazyError, match="own melds"):
        state.play_turn("none", [{"meld": "8C 9C TC"}, {"lay_off": [2, 0], "meld": "4H 5H 6H 7H"}],
                        cards("7H")[0])


def test_swap_before_melding_is_refused() -> None:
    state = RoundState(7, 3, 0, list(range(52)))
    state.melds[2].append(meld("KD KS 7D=KC", 7))
    state.hands[1] = cards("KC 2H")
    with pytest.raises(CrazyError, match="has melded"):
        state.play_turn("none", [{"swap": [2, 0], "card": "KC", "wild": "7D"}], cards("2H")[0])


def test_scores_add_up_over_thirteen_rounds_and_lowest_wins() -> None:
    from ginnyo.crazy.game import play_game
    game = play_game(3, 5)
    assert len(game.rounds) == 13
    totals = [0, 0, 0]
    for result in game.rounds:
        totals = [t + p for t, p in zip(totals, result.points)]
        assert result.scores == tuple(totals)
        if result.end == "out":
            assert result.out is not None and result.points[result.out] == 0
    assert game.scores == tuple(totals)
    assert all(game.scores[w] == min(game.scores) for w in game.winners)


def test_solver_refuses_hands_it_cannot_be_given() -> None:
    with pytest.raises(CrazyError, match="empty"):
        solve_hand([], 5)
    with pytest.raises(CrazyError, match="every card once"):
        solve_hand([3, 3, 4], 5)
    with pytest.raises(CrazyError, match="up to 16"):
        solve_hand(list(range(17)), 5)


# -- docs/RULES.md §7 as amended: a set's wild names one card; the first dealer ------------------

def test_a_set_wild_names_one_card_and_only_that_card_takes_its_place() -> None:
    own, others = [meld("2S 3S 4S", 7)], [meld("KD KS 7D=KC", 7)]
    assert min_deadwood(cards("KC 8H 9H"), 7, own, others) == 0      # KC takes the wild: 7D 8H 9H
    assert min_deadwood(cards("KH 8H 9H"), 7, own, others) == 27     # KH is not the card it names
    state = RoundState(7, 3, 0, list(range(52)))
    state.melds[1].append(meld("2S 3S 4S", 7))
    state.melds[2].append(meld("KD KS 7D=KC", 7))
    state.hands[1] = cards("KH KC 2H")
    with pytest.raises(CrazyError, match="KH is not the real card that 7D stands for"):
        state.play_turn("none", [{"swap": [2, 0], "card": "KH", "wild": "7D"}], cards("2H")[0])
    state.play_turn("none", [{"swap": [2, 0], "card": "KC", "wild": "7D"}], cards("2H")[0])
    assert state.melds[2][0].cards == tuple(cards("KD KS KC"))


def test_a_set_wild_is_written_with_its_card_and_two_cannot_name_the_same_place() -> None:
    assert meld("7C 7D 5H=7S", 5).text(5) == "7C 7D 5H=7S"
    assert not is_meld("7C 7D 5H=7D", 5)            # 7D is in the set already
    assert not is_meld("7C 5D=7H 5H=7H", 5)         # one place, two wilds
    assert not is_meld("7C 7D 5H=8S", 5)            # not the set's rank


def test_the_older_rank_only_set_wild_is_read_only_where_it_means_one_card() -> None:
    assert meld("7C 7D 7H 5S=7", 5).text(5) == "7C 7D 7H 5S=7S"   # one suit left: 7S
    with pytest.raises(CrazyError, match=r"test: 5S=7 must name the card .* as 5S=7H or 5S=7S"):
        meld("7C 7D 5S=7", 5)
    with pytest.raises(CrazyError, match="must name the card"):
        meld("7C 7D 5S=7 5H=7", 5)


def test_a_lay_off_on_a_set_fills_a_free_suit_and_keeps_what_its_wilds_stand_for() -> None:
    state = RoundState(5, 3, 0, list(range(52)))
    state.melds[1].append(meld("7C 7D 5H=7H", 5))
    state.hands[1] = cards("7H 7S 2C")
    with pytest.raises(CrazyError, match="two places stand for 7H"):
        state.play_turn("none", [{"lay_off": [1, 0], "meld": "7C 7D 5H=7H 7H"}], cards("2C")[0])
    with pytest.raises(CrazyError, match="does not extend"):   # the wild may not change its card
        state.play_turn("none", [{"lay_off": [1, 0], "meld": "7C 7D 5H=7S 7H"}], cards("2C")[0])
    # the solver lays 7S off and swaps 7H for the wild, which then has no place: it keeps 7H
    assert min_deadwood(cards("7H 7S"), 5, [meld("7C 7D 5H=7H", 5)]) == 7
    assert reference.min_deadwood(cards("7H 7S"), 5, [meld("7C 7D 5H=7H", 5)]) == 7


@pytest.mark.parametrize("players", [3, 6])
def test_the_first_dealer_is_drawn_from_the_seed_and_the_deal_passes_left(players: int) -> None:
    from ginnyo.crazy.game import play_game
    firsts = set()
    for seed in range(2 * players):
        game = play_game(players, seed)
        first = game.rounds[0].dealer
        assert [r.dealer for r in game.rounds] == [(first + n) % players for n in range(13)]
        firsts.add(first)
    assert len(firsts) > 1   # not a fixed seat
