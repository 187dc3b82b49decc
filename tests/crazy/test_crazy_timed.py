"""Crazy Rummy's timed-play rule in the game itself (docs/RULES.md "Timed play (the project's rule)"):
overtime points added to the total, a seat out on time passed by in this round and the next ones, its
hand left counted, and the ranking with the seats out last."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import record_lines, replay
from ginnyo.crazy.match import CrazyMatch
from crazy_match_helpers import finish_turn
from ginnyo.game.events import OVERTIME, TIMEOUT, Event


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


def test_only_the_seat_to_move_times_out() -> None:
    match = CrazyMatch(["human"] * 3, 5)
    other = (match.to_move + 1) % 3
    with pytest.raises(CrazyError, match="only the seat to move"):
        match.apply_event(Event(TIMEOUT, other))
    assert match.out == [] and match.to_move != other


# -- the record of a timed game ------------------------------------------------------------------

def timed_game() -> CrazyMatch:
    """A four-seat game with overtime charged at a round's start and mid-turn, and three seats out on time
    (one in round 1, two mid-turn in round 2): it ends in round 2, that round not scored."""
    match = CrazyMatch(["human"] * 4, 5)
    match.apply_event(Event(OVERTIME, 2, 10))
    match.apply_event(Event(TIMEOUT, match.to_move))
    while match.round.number == 1:
        finish_turn(match)
    finish_turn(match)
    match.apply([{"draw": "stock"}])
    match.apply_event(Event(OVERTIME, match.to_move, 20))
    match.apply_event(Event(TIMEOUT, match.to_move))
    finish_turn(match)
    match.apply_event(Event(TIMEOUT, match.to_move))
    assert match.over and len(match.rounds) == 1
    return match


def test_the_record_of_a_timed_game_carries_its_clock_events_and_replays_to_the_same_end() -> None:
    match = timed_game()
    lines = record_lines(match.result())
    events = [json.loads(line) for line in lines if '"event"' in line]
    assert [(line["event"], line["player"], line.get("points")) for line in events] == \
        [(event.kind, event.seat, event.points if event.kind == OVERTIME else None) for _, _, event in match.events]
    assert json.loads(lines[-1]) == {"scores": list(match.scores), "winners": list(match.winners),
                                     "out": match.out}
    game = replay(lines)
    assert game.scores == match.scores and game.ranking == match.ranking and game.winners == match.winners
    assert game.out == match.out and game.overtime == match.overtime
    assert game.unfinished is not None and len(game.unfinished.turns) == len(match.turns)
    assert record_lines(game) == lines


def test_replay_refuses_a_record_without_its_clock_events() -> None:
    lines = [line for line in record_lines(timed_game().result()) if '"overtime"' not in line]
    with pytest.raises(CrazyError, match=r"line \d+: scores should be \[51, 51, 66, 75\], the record says \[51, 51, 76"):
        replay(lines)


@pytest.mark.parametrize(("event", "message"), [
    ({"event": "surrender", "player": 0}, "field 'event': 'surrender' is not one of resign, timeout, overtime, abort"),
    ({"event": "overtime", "player": 1}, "field 'points': missing"),
    ({"event": "overtime", "player": 1, "points": 0}, "overtime 1 0: an overtime charge is of a seat 0..3"),
    ({"event": "timeout", "player": 0, "points": 10}, "field 'points': only an overtime line has points"),
    ({"event": "timeout", "player": 9}, "timeout 9: only the seat to move"),
    ({"event": "timeout", "player": "1"}, "field 'player': '1' is not a whole number"),
    ({"event": "overtime", "player": 1, "points": 10, "round": 1}, "field 'round': unknown in an event line"),
])
def test_replay_refuses_a_bad_event_line_naming_it(event: dict[str, object], message: str) -> None:
    lines = record_lines(timed_game().result())
    lines.insert(2, json.dumps(event))   # after the first deal line, before the record's own events
    with pytest.raises(CrazyError) as refused:
        replay(lines, source="game.jsonl")
    assert str(refused.value).startswith("game.jsonl line 3: ") and message in str(refused.value)


def test_crazy_replay_prints_the_seats_out_on_time_and_refuses_a_bad_event_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = timed_game()
    record = tmp_path / "timed.jsonl"
    lines = record_lines(match.result())
    record.write_text("\n".join(lines) + "\n")
    code, out, _ = cli(capsys, "crazy", "replay", str(record))
    assert code == 0 and f"final scores {list(match.scores)}" in out
    assert f"out on time: players {', '.join(map(str, match.out))} (ranking {match.ranking})" in out
    record.write_text("\n".join([*lines[:2], '{"event": "timeout", "player": 7}', *lines[2:]]) + "\n")
    assert_bad_input(capsys, "crazy", "replay", str(record), message=f"{record} line 3: timeout 7:")
