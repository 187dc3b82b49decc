"""Game records, Ginny-O's and Crazy Rummy's: every line's fields are known
ones (docs/FORMAT.md, "Game records"), and every refusal names the line where
the record first goes wrong; a byte-order mark before a record is read past."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.crazy import game as crazy
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.rounds import GameResult
from ginnyo.errors import RecordError
from ginnyo.game import Game, play_game
from ginnyo.players import GreedyPlayer
from ginnyo.game.records import END_FIELDS, HEADER_FIELDS, TURN_FIELDS, record_text, replay

BOM = "\ufeff".encode()


@pytest.fixture(scope="module")
def ginny_lines() -> list[str]:
    """The record of a 2-player greedy game of seed 11, a line a string."""
    game = Game.deal(2, 11)
    play_game(game, [GreedyPlayer(), GreedyPlayer()])
    return record_text(game, ["greedy", "greedy"]).splitlines()


@pytest.fixture(scope="module")
def crazy_lines() -> list[str]:
    return crazy.record_lines(crazy.play_game(3, 4))


def write(tmp_path: Path, lines: list[str] | bytes, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(lines if isinstance(lines, bytes) else "".join(line + "\n" for line in lines).encode())
    return path


def with_field(lines: list[str], index: int, **fields: Any) -> list[str]:
    """``lines`` with fields added to (or changed in) line ``index`` (0-based)."""
    data = json.loads(lines[index])
    data.update(fields)
    return lines[:index] + [json.dumps(data)] + lines[index + 1:]


def crazy_replay(path: Path) -> GameResult:
    return crazy.replay(crazy.read_record(path), source=str(path))


# -- Ginny-O records ---------------------------------------------------------------------------------

def test_a_ginny_record_has_the_documented_fields(ginny_lines: list[str]) -> None:
    assert tuple(json.loads(ginny_lines[0])) == HEADER_FIELDS
    assert all(tuple(json.loads(line)) == TURN_FIELDS for line in ginny_lines[1:-1])
    assert tuple(json.loads(ginny_lines[-1])) == END_FIELDS


@pytest.mark.parametrize("index, kind", [(0, "the header"), (1, "a turn line"), (5, "a turn line"),
                                         (-1, "the end line")])
def test_a_ginny_record_refuses_an_unknown_field_naming_its_line(tmp_path: Path, ginny_lines: list[str],
                                                                 index: int, kind: str) -> None:
    path = write(tmp_path, with_field(ginny_lines, index, bonus=1))
    line = index % len(ginny_lines) + 1
    with pytest.raises(RecordError, match=f"line {line}: field 'bonus': unknown in {kind}"):
        replay(path)


def test_replay_command_refuses_a_turn_with_a_bonus_field(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          ginny_lines: list[str]) -> None:
    path = write(tmp_path, with_field(ginny_lines, 1, bonus=1))
    assert_bad_input(capsys, "replay", str(path), message="line 2: field 'bonus': unknown in a turn line")


def test_analyze_refuses_a_turn_with_a_bonus_field(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   ginny_lines: list[str]) -> None:
    path = write(tmp_path, with_field(ginny_lines, 3, bonus=1))
    assert_bad_input(capsys, "analyze", "--workers", "1", "--quiet", str(path),
                     message="line 4: field 'bonus': unknown in a turn line")


def test_a_ginny_record_without_its_end_line_names_the_line_after_the_last(tmp_path: Path,
                                                                           ginny_lines: list[str]) -> None:
    path = write(tmp_path, ginny_lines[:-1])
    with pytest.raises(RecordError, match=f"line {len(ginny_lines)}: missing: the end line"):
        replay(path)


def test_a_ginny_record_cut_short_names_the_line_after_the_last(tmp_path: Path, ginny_lines: list[str]) -> None:
    path = write(tmp_path, ginny_lines[:6])
    with pytest.raises(RecordError, match="line 7: missing: turn 6"):
        replay(path)


def test_a_ginny_record_with_a_turn_after_its_end_names_that_turn(tmp_path: Path, ginny_lines: list[str]) -> None:
    path = write(tmp_path, ginny_lines + [ginny_lines[1]])
    with pytest.raises(RecordError, match=f"line {len(ginny_lines) + 1}: the record goes on after its end line"):
        replay(path)


def test_a_ginny_record_that_is_not_utf8_names_the_line_of_the_bad_byte(tmp_path: Path,
                                                                        ginny_lines: list[str]) -> None:
    data = "".join(line + "\n" for line in ginny_lines).encode()
    third = data.index(b"\n", data.index(b"\n") + 1) + 1
    path = write(tmp_path, data[:third + 3] + b"\xff" + data[third + 3:])
    with pytest.raises(RecordError, match="line 3: not a text file"):
        replay(path)


def test_a_ginny_record_of_another_seed_is_refused_at_its_header(tmp_path: Path, ginny_lines: list[str]) -> None:
    path = write(tmp_path, with_field(ginny_lines, 0, seed=12))
    with pytest.raises(RecordError, match="line 1: field '(first_draw|racks)': seed 12"):
        replay(path)


def test_an_empty_ginny_record_names_line_one(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="line 1: missing: the header"):
        replay(write(tmp_path, b"\n\n"))


def test_a_ginny_record_after_a_byte_order_mark_replays(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         ginny_lines: list[str]) -> None:
    path = write(tmp_path, BOM + "".join(line + "\n" for line in ginny_lines).encode())
    assert replay(path).over
    code, out, _ = cli(capsys, "replay", str(path))
    assert code == 0 and "record verified" in out
    code, out, _ = cli(capsys, "analyze", "--workers", "1", "--quiet", str(path))
    assert code == 0 and '"summary"' in out


def test_a_byte_order_mark_inside_a_ginny_record_is_refused_with_its_line(tmp_path: Path,
                                                                          ginny_lines: list[str]) -> None:
    path = write(tmp_path, ginny_lines[:2] + ["\ufeff" + ginny_lines[2]] + ginny_lines[3:])
    with pytest.raises(RecordError, match="line 3: malformed JSON"):
        replay(path)


# -- Crazy Rummy records -----------------------------------------------------------------------------

def _crazy_line_kinds(lines: list[str]) -> dict[str, int]:
    """The index of the first line of each kind in a Crazy Rummy record."""
    kinds: dict[str, int] = {}
    for index, line in enumerate(lines):
        data = json.loads(line)
        kind = ("header" if "game" in data else "deal" if "deck" in data else "round end" if "end" in data
                else "turn" if "hand" in data else "final")
        kinds.setdefault(kind, index)
    return kinds


@pytest.mark.parametrize("kind, words", [("header", "the header"), ("deal", "a deal line"),
                                         ("turn", "a turn line"), ("round end", "a round's end line"),
                                         ("final", "the final line")])
def test_a_crazy_record_refuses_an_unknown_field_naming_its_line(tmp_path: Path, crazy_lines: list[str],
                                                                 kind: str, words: str) -> None:
    index = _crazy_line_kinds(crazy_lines)[kind]
    path = write(tmp_path, with_field(crazy_lines, index, bonus=1))
    with pytest.raises(CrazyError, match=f"line {index + 1}: field 'bonus': unknown in {words}"):
        crazy_replay(path)


@pytest.mark.parametrize("action", ["meld", "swap", "lay_off"])
def test_a_crazy_record_refuses_an_unknown_field_in_an_action(tmp_path: Path, crazy_lines: list[str],
                                                              action: str) -> None:
    for index, line in enumerate(crazy_lines):
        data = json.loads(line)
        steps = data.get("actions") or []
        found = next((step for step in steps if action in step and (action != "meld" or len(step) == 1)), None)
        if found is not None:
            break
    else:
        pytest.skip(f"the game of seed 4 has no {action} action")
    found["bonus"] = 1
    lines = crazy_lines[:index] + [json.dumps(data)] + crazy_lines[index + 1:]
    with pytest.raises(CrazyError, match=f"line {index + 1}: field 'bonus': unknown in a {action} action"):
        crazy_replay(write(tmp_path, lines))


def test_a_crazy_record_has_the_documented_fields(crazy_lines: list[str]) -> None:
    kinds = {index: kind for kind, index in _crazy_line_kinds(crazy_lines).items()}
    fields = {"header": crazy.HEADER_FIELDS, "deal": crazy.DEAL_FIELDS, "turn": crazy.TURN_FIELDS,
              "round end": crazy.ROUND_END_FIELDS, "final": crazy.FINAL_FIELDS}
    for index, kind in kinds.items():
        written = tuple(json.loads(crazy_lines[index]))
        # the final line's ``out`` only when a seat went out on time (none does in an untimed game)
        assert written == (tuple(f for f in fields[kind] if f != "out") if kind == "final" else fields[kind])


def test_a_crazy_record_without_its_final_line_names_the_line_after_the_last(tmp_path: Path,
                                                                             crazy_lines: list[str]) -> None:
    path = write(tmp_path, crazy_lines[:-1])
    with pytest.raises(CrazyError, match=f"line {len(crazy_lines)}: missing: the final line"):
        crazy_replay(path)


def test_a_crazy_record_cut_in_a_round_names_the_line_after_the_last(tmp_path: Path,
                                                                     crazy_lines: list[str]) -> None:
    path = write(tmp_path, crazy_lines[:5])
    with pytest.raises(CrazyError, match="line 6: missing: a turn of player"):
        crazy_replay(path)


def test_a_crazy_record_with_a_line_after_its_end_names_that_line(tmp_path: Path, crazy_lines: list[str]) -> None:
    path = write(tmp_path, crazy_lines + [crazy_lines[2]])
    with pytest.raises(CrazyError, match=f"line {len(crazy_lines) + 1}: after the end of the game"):
        crazy_replay(path)


def test_a_crazy_record_that_is_not_utf8_names_the_line_of_the_bad_byte(tmp_path: Path,
                                                                        crazy_lines: list[str]) -> None:
    data = "".join(line + "\n" for line in crazy_lines).encode()
    fourth = data.index(b"\n", data.index(b"\n", data.index(b"\n") + 1) + 1) + 1
    path = write(tmp_path, data[:fourth + 2] + b"\xc3\x28" + data[fourth + 2:])
    with pytest.raises(CrazyError, match="line 4: not a text file"):
        crazy_replay(path)


def test_a_crazy_record_of_another_seed_is_refused_at_its_header(tmp_path: Path, crazy_lines: list[str]) -> None:
    path = write(tmp_path, with_field(crazy_lines, 0, seed=5))
    with pytest.raises(CrazyError, match="line 1: field 'seed': seed 5 deals none of the record's decks"):
        crazy_replay(path)


def test_a_crazy_record_with_an_edited_first_deck_is_refused_at_that_deck(tmp_path: Path,
                                                                          crazy_lines: list[str]) -> None:
    deck = json.loads(crazy_lines[1])["deck"].split()
    deck[0], deck[1] = deck[1], deck[0]
    path = write(tmp_path, with_field(crazy_lines, 1, deck=" ".join(deck)))
    with pytest.raises(CrazyError, match="line 2: deck: card 1 of round 1"):
        crazy_replay(path)


def test_a_crazy_record_after_a_byte_order_mark_replays(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         crazy_lines: list[str]) -> None:
    path = write(tmp_path, BOM + "".join(line + "\n" for line in crazy_lines).encode())
    assert crazy_replay(path).winners
    code, out, _ = cli(capsys, "crazy", "replay", str(path))
    assert code == 0 and "\nok: " in out
