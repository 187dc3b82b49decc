"""Resigning and aborting a Crazy Rummy game (docs/RULES.md "Resignation and abort (the project's rule)"):
a seat resigns at any time, its turn or not, and is out as a seat out on time is (its turn so far undone,
passed by, ranked below the seats still in); one seat left wins at once; an abort before the seat's first
step ends the game with no result; the record carries both and replays to the same end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import cli
from ginnyo.crazy.cards import card_code
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import record_lines, replay
from ginnyo.crazy.match import CrazyMatch
from crazy_match_helpers import finish_turn
from ginnyo.game.events import ABORT, RESIGN, TIMEOUT, Event


def test_a_seat_resigning_mid_turn_has_its_turn_undone_and_is_passed_by() -> None:
    match = CrazyMatch(["human"] * 4, 5)
    finish_turn(match)   # the opening
    seat = match.to_move
    stock, hand = len(match.round.stock), len(match.round.hands[seat])
    match.apply([{"draw": "stock"}])
    assert match.drawn and len(match.shown.hands[seat]) == hand + 1
    match.apply_event(Event(RESIGN, seat))
    assert match.out == [seat] and not match.over and match.to_move != seat
    assert match.draw is None and match.steps == [] and len(match.round.stock) == stock   # the draw undone
    assert len(match.shown.hands[seat]) == hand
    while match.round.number == 1:
        finish_turn(match)
        assert match.to_move != seat
    assert match.rounds[0].points[seat] > 0   # its hand counts, out of play
    assert match.ranking[-1] == seat and match.ranks[seat] == 4 and seat not in match.winners


def test_any_seat_resigns_out_of_turn_and_the_turn_being_played_goes_on() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    finish_turn(match)
    mover = match.to_move
    match.apply([{"draw": "stock"}])
    other = next(seat for seat in range(3) if seat != mover)
    match.apply_event(Event(RESIGN, other))
    assert match.out == [other] and match.to_move == mover and match.draw == "stock"   # the mover's turn goes on
    hand = match.shown.hands[mover]
    match.apply([{"discard": card_code(hand[0])}])
    left = next(seat for seat in range(3) if seat not in (mover, other))
    assert match.to_move == left   # the seat out is passed by
    with pytest.raises(CrazyError, match="not in the game"):
        match.apply_event(Event(RESIGN, other))   # once out, it cannot resign again


def test_the_last_two_seats_one_resigns_the_other_wins_at_once() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    first = match.to_move
    match.apply_event(Event(TIMEOUT, first))
    finish_turn(match)
    resigning = next(seat for seat in range(3) if seat not in (first, match.to_move))   # not the seat to move
    match.apply_event(Event(RESIGN, resigning))
    winner = next(seat for seat in range(3) if seat not in (first, resigning))
    assert match.over and match.rounds == [] and not match.aborted
    assert match.winners == (winner,) and match.ranking == [winner, resigning, first]
    assert match.ranks == [[1, 2, 3][match.ranking.index(seat)] for seat in range(3)]
    with pytest.raises(CrazyError, match="over"):
        match.apply_event(Event(RESIGN, winner))


def test_an_abort_before_the_seats_first_step_ends_the_game_with_no_result() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    finish_turn(match)
    waiting = next(seat for seat in range(3) if seat != match.to_move and not match.has_played(seat))
    match.apply_event(Event(ABORT, waiting))
    assert match.over and match.aborted and match.winners == () and match.out == []


@pytest.mark.parametrize("step", ["opening", "draw"])
def test_an_abort_is_refused_once_the_seat_has_played_a_step(step: str) -> None:
    match = CrazyMatch(["human"] * 3, 5)
    opener = match.to_move
    finish_turn(match)
    seat = opener
    if step == "draw":   # a step of its first turn is enough
        seat = match.to_move
        match.apply([{"draw": "stock"}])
    with pytest.raises(CrazyError, match="can no longer be aborted"):
        match.apply_event(Event(ABORT, seat))
    assert not match.over and not match.aborted and match.events == []


def resigned_game() -> CrazyMatch:
    """Four seats: one resigns out of turn in round 1, one mid-turn in round 2, the third mid-turn too."""
    match = CrazyMatch(["human"] * 4, 5)
    finish_turn(match)
    match.apply_event(Event(RESIGN, (match.to_move + 1) % 4))
    while match.round.number == 1:
        finish_turn(match)
    finish_turn(match)
    match.apply([{"draw": "stock"}])
    match.apply_event(Event(RESIGN, match.to_move))
    finish_turn(match)
    match.apply_event(Event(RESIGN, match.to_move))
    assert match.over and len(match.rounds) == 1
    return match


def test_the_record_of_a_resigned_game_replays_to_the_same_end(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    match = resigned_game()
    lines = record_lines(match.result())
    events = [json.loads(line) for line in lines if '"event"' in line]
    assert events == [{"event": "resign", "player": event.seat} for _, _, event in match.events]
    assert json.loads(lines[-1]) == {"scores": list(match.scores), "winners": list(match.winners), "out": match.out}
    game = replay(lines)
    assert game.ranking == match.ranking and game.winners == match.winners and game.out == match.out
    assert record_lines(game) == lines
    record = tmp_path / "resigned.jsonl"
    record.write_text("\n".join(lines) + "\n")
    code, out, _ = cli(capsys, "crazy", "replay", str(record))
    assert code == 0 and f"resigned: players {', '.join(map(str, match.out))} (ranking {match.ranking})" in out


def test_the_record_of_an_aborted_game_replays_with_no_result_and_a_late_abort_is_refused() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    opener = match.to_move
    finish_turn(match)
    waiting = (match.to_move + 1) % 3
    match.apply_event(Event(ABORT, waiting))
    lines = record_lines(match.result())
    assert json.loads(lines[-2]) == {"event": "abort", "player": waiting}
    assert json.loads(lines[-1])["winners"] == []
    game = replay(lines)
    assert game.aborted and game.winners == () and record_lines(game) == lines
    late = [*lines[:-2], json.dumps({"event": "abort", "player": opener}), lines[-1]]
    with pytest.raises(CrazyError, match="abort .*: player .* has played: the game can no longer be aborted"):
        replay(late, source="late.jsonl")
