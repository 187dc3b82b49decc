"""Crazy Rummy's timed-play rule in the game itself (docs/RULES.md "Timed play (the project's rule)"):
overtime points added to the total, a seat out on time passed by in this round and the next ones, its
hand left counted, and the ranking with the seats out last."""

from __future__ import annotations

import pytest

from ginnyo.crazy.cards import card_code
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.match import CrazyMatch
from ginnyo.game.events import OVERTIME, RESIGN, TIMEOUT, Event


def finish_turn(match: CrazyMatch) -> None:
    """The seat to move draws from the stock (unless it opens) and discards the first card it holds."""
    steps: list[dict[str, str]] = [] if match.round.opening else [{"draw": "stock"}]
    hand = match.round.after("none" if match.round.opening else "stock", []).hands[match.to_move]
    match.apply([*steps, {"discard": card_code(hand[0])}])


def test_overtime_adds_to_the_total_and_ranks_the_seat() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    match.apply_event(Event(OVERTIME, 1, 20))
    assert match.scores == (0, 20, 0) and match.overtime == [0, 20, 0]
    assert match.ranking[-1] == 1 and match.ranks == [1, 3, 1]


def test_a_seat_out_on_time_is_passed_by_until_one_is_left() -> None:
    match = CrazyMatch(["human"] * 4, 5)
    first = match.to_move
    match.apply_event(Event(TIMEOUT, first))
    assert match.to_move != first and not match.round.opening and not match.over
    assert len(match.round.hands[first]) == 8   # its hand stays, out of play, counted at the round's end
    while match.round.number == 1:   # the round played out: the seat out never moves, its hand counts
        finish_turn(match)
        assert match.to_move != first
    assert match.rounds[0].points[first] > 0 and len(match.finished_hands[first]) == 8
    assert match.to_move != first   # passed by in the next round too
    second = match.to_move
    match.apply_event(Event(TIMEOUT, second))
    third = match.to_move
    match.apply_event(Event(TIMEOUT, third))
    assert match.over
    last = next(seat for seat in range(4) if seat not in (first, second, third))
    assert match.winners == (last,) and match.ranking == [last, third, second, first]
    assert match.ranks[first] == 4
    with pytest.raises(CrazyError):
        match.apply_event(Event(OVERTIME, last, 10))   # the game is over


def test_only_the_seat_to_move_times_out_and_no_resignation_yet() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    other = (match.to_move + 1) % 3
    for event in (Event(TIMEOUT, other), Event(RESIGN, match.to_move)):
        with pytest.raises(CrazyError):
            match.apply_event(event)
    assert match.timed_out == [] and match.to_move != other
