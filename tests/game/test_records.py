"""Game records: what a line holds, replays that reproduce the game, and the
``ginnyo replay`` command, including every kind of bad record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from helpers import FULL_CORPUS
from ginnyo.game.actions import PASS, Action, Place, Return
from ginnyo.cli import main
from ginnyo.errors import RecordError
from ginnyo.game.game import Game, View, play_game
from ginnyo.native import to_play
from ginnyo.players.players import make_player
from ginnyo.game.records import parse_record, record_lines, record_text, replay, write_record
from ginnyo.vocab.tiles import rack_code

REPLAYED_GAMES = 2000 if FULL_CORPUS else 300


def played(seed: int, kinds: tuple[str, ...] = ("greedy", "random")) -> tuple[Game, list[str]]:
    players = [make_player(kind, seed, seat) for seat, kind in enumerate(kinds)]
    return play_game(Game.deal(len(kinds), seed), players), list(kinds)


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    game, names = played(4, ("greedy", "greedy", "random"))
    path = tmp_path / "game.jsonl"
    path.write_text(record_text(game, names), encoding="utf-8")
    return path


def tampered(path: Path, line: int, **changes: object) -> Path:
    """The record at ``path`` with fields of line ``line`` (1-based) changed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    data = json.loads(lines[line - 1])
    data.update(changes)
    lines[line - 1] = json.dumps(data)
    out = path.with_name(f"tampered-{line}.jsonl")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_bad_record(capsys: pytest.CaptureFixture[str], path: Path | str, message: str) -> None:
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("ginnyo: error: ") and "Traceback" not in err
    assert message in err, err


# -- what a record holds ---------------------------------------------------------------------

def test_record_is_a_header_then_one_line_a_turn_then_the_end() -> None:
    game, names = played(3)
    lines = record_lines(game, names)
    assert lines[0]["record"] == "ginnyo game" and lines[0]["names"] == names
    assert [line["turn"] for line in lines[1:-1]] == list(range(1, game.turns_played + 1))
    assert lines[-1]["end"] == game.end_reason and lines[-1]["scores"] == game.scores


def test_turn_line_has_player_rack_before_action_score_and_tiles_drawn() -> None:
    game = play_game(Game.deal(2, 8), [make_player("greedy", 8, 0)] * 2)
    line = record_lines(game)[1]
    first = game.history[0]
    assert set(line) == {"turn", "player", "rack", "draw", "action", "score", "refill", "scores"}
    assert line["player"] == game.first_player and len(line["rack"].split()) == 7
    assert line["score"] == first.score and len(line["refill"].split()) == len(first.refill)
    if isinstance(first.action, Place):
        assert line["action"][0].isalnum() and " " in line["action"]


def test_record_lines_are_json_one_object_a_line() -> None:
    game, names = played(5)
    text = record_text(game, names)
    assert all(isinstance(json.loads(line), dict) for line in text.splitlines())


# -- replays -------------------------------------------------------------------------------------

def test_a_replay_reproduces_the_game_exactly() -> None:
    for seed in range(REPLAYED_GAMES):
        rng = random.Random(seed)
        kinds = tuple(rng.choice(("greedy", "random")) for _ in range(rng.choice((2, 3, 4))))
        game, names = played(seed, kinds)
        text = record_text(game, names)
        again = replay(parse_record(text))
        assert again.history == game.history
        assert again.board == game.board
        assert [sorted(rack) for rack in again.racks] == [sorted(rack) for rack in game.racks]
        assert again.scores == game.scores and again.penalties == game.penalties
        assert again.end_reason == game.end_reason
        assert record_text(again, names) == text


def test_replay_of_a_bad_record_raises_record_error(record_file: Path) -> None:
    with pytest.raises(RecordError, match="line 3"):
        replay(tampered(record_file, 3, score=999))


# -- the command --------------------------------------------------------------------------------

def test_replay_prints_every_turn_the_boards_and_the_verdict(capsys: pytest.CaptureFixture[str],
                                                             record_file: Path) -> None:
    code, out, err = run(capsys, "replay", "--color", "never", str(record_file))
    turns = len(record_file.read_text().splitlines()) - 2
    assert code == 0 and err == ""
    assert out.count("\nturn ") == turns
    assert " A  B  C " in out and "rack " in out            # boards after plays
    assert "\nend: " in out and "final scores" in out
    assert out.rstrip().endswith(f"record verified: {turns} turns, every move legal, scores as recorded")


def test_replay_quiet_prints_only_the_verdict(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    code, out, _ = run(capsys, "replay", "--quiet", str(record_file))
    assert code == 0 and out.count("\n") == 1 and out.startswith("record verified:")


def test_replay_of_a_missing_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_bad_record(capsys, tmp_path / "nope.jsonl", "cannot read")


def test_replay_of_a_directory_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_bad_record(capsys, tmp_path, "cannot read")


def test_replay_of_an_empty_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    assert_bad_record(capsys, path, "empty record")


def test_replay_of_malformed_json(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    path = record_file.with_name("broken.jsonl")
    path.write_text(record_file.read_text().replace("}", "", 1))
    assert_bad_record(capsys, path, "line 1: malformed JSON")


def test_replay_of_a_line_that_is_not_an_object(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    path = record_file.with_name("list.jsonl")
    lines = record_file.read_text().splitlines()
    path.write_text("\n".join([lines[0], "[1, 2]"] + lines[2:]))
    assert_bad_record(capsys, path, "line 2: must be a JSON object")


def test_replay_of_a_file_that_is_not_a_game_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "position.jsonl"
    path.write_text('{"board": {}, "rack": "AS"}\n')
    assert_bad_record(capsys, path, "not a ginnyo game record")


def test_replay_of_a_record_with_five_players(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    assert_bad_record(capsys, tampered(record_file, 1, players=5), "2 to 4 players")


def test_replay_of_a_record_whose_first_draw_names_the_wrong_starter(capsys: pytest.CaptureFixture[str],
                                                                     record_file: Path) -> None:
    header = json.loads(record_file.read_text().splitlines()[0])
    wrong = (header["first_player"] + 1) % 3
    assert_bad_record(capsys, tampered(record_file, 1, first_player=wrong), "first draw makes player")


def test_replay_of_a_record_dealing_more_copies_than_the_sets_hold(capsys: pytest.CaptureFixture[str],
                                                                   record_file: Path) -> None:
    assert_bad_record(capsys, tampered(record_file, 1, racks=["AS AS AS AS AS AS AS"] * 3),
                      "than 2 sets hold")


def test_replay_of_an_illegal_move(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    line = next(number for number, data in parse_record(record_file.read_text())
                if "action" in data and data["action"].split()[0] not in ("return", "pass"))
    assert_bad_record(capsys, tampered(record_file, line, action="H8 ASASAS"), f"line {line}: H8 ASASAS:")


def test_replay_of_a_move_in_bad_notation(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    assert_bad_record(capsys, tampered(record_file, 2, action="Z99 7H"), "line 2:")


def test_replay_of_a_wrong_score(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    assert_bad_record(capsys, tampered(record_file, 2, score=999), "the record says 999")


def test_replay_of_a_turn_by_the_wrong_player(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    player = json.loads(record_file.read_text().splitlines()[1])["player"]
    assert_bad_record(capsys, tampered(record_file, 2, player=(player + 1) % 3), "not player")


def test_replay_of_a_wrong_rack(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    assert_bad_record(capsys, tampered(record_file, 2, rack="AS 2S 3S 4S 5S 6S 7S"), "rack is")


def test_replay_of_a_draw_that_is_not_in_the_box(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game, names = played(6)                       # 2 players, one set: a dealt card is not in the box
    path = tmp_path / "two.jsonl"
    path.write_text(record_text(game, names))
    lines = path.read_text().splitlines()
    mover = json.loads(lines[1])["player"]
    other_card = json.loads(lines[0])["racks"][1 - mover].split()[0]
    assert_bad_record(capsys, tampered(path, 2, draw=other_card),
                      f"line 2: field 'draw': draws {other_card}, but the box of seed 6 gives")


def test_replay_of_a_missing_field(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    path = record_file.with_name("missing.jsonl")
    lines = record_file.read_text().splitlines()
    data = json.loads(lines[1])
    del data["action"]
    lines[1] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n")
    assert_bad_record(capsys, path, "field 'action': missing")


def test_replay_of_a_record_that_stops_before_the_end(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    path = record_file.with_name("short.jsonl")
    path.write_text("\n".join(record_file.read_text().splitlines()[:3]) + "\n")
    assert_bad_record(capsys, path, "before the game is over")


def test_replay_of_a_record_that_goes_on_after_the_end(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    path = record_file.with_name("long.jsonl")
    lines = record_file.read_text().splitlines()
    path.write_text("\n".join(lines[:-1] + [lines[-2], lines[-1]]) + "\n")
    assert_bad_record(capsys, path, "the record goes on")


def test_replay_of_a_wrong_final_score(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    lines = record_file.read_text().splitlines()
    assert_bad_record(capsys, tampered(record_file, len(lines), scores=[1, 2, 3]), "scores [1, 2, 3]")


# -- the seed proves every draw ---------------------------------------------------------------

def swapped_draw_record(tmp_path: Path) -> tuple[Path, int, str, str]:
    """A record whose turn swaps the tile drawn before deciding with the first
    tile of the refill: the same tiles, so the racks and the play still agree,
    but not the order the seed's box gives them in."""
    for seed in range(40):
        game, names = played(seed, ("greedy", "greedy"))
        for turn in game.history:
            if (isinstance(turn.action, Place) and turn.draw is not None and turn.refill
                    and turn.refill[0] != turn.draw
                    and all(tile[0] != turn.draw and not tile[1] for _, tile in turn.action.play.placements)):
                path = tmp_path / f"game-{seed}.jsonl"
                path.write_text(record_text(game, names))
                line = turn.number + 1
                data = json.loads(path.read_text().splitlines()[line - 1])
                first, *rest = data["refill"].split()
                changed = tampered(path, line, draw=first, refill=" ".join([data["draw"], *rest]))
                return changed, line, first, data["draw"]
    raise AssertionError("no turn to tamper with in 40 games")


def test_replay_refuses_a_draw_the_seed_does_not_give_even_when_the_tiles_add_up(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, line, recorded, real = swapped_draw_record(tmp_path)
    assert_bad_record(capsys, path, f"line {line}: field 'draw': draws {recorded}, but the box of seed")
    assert_bad_record(capsys, path, f"gives {real}")


def test_replay_refuses_a_refill_the_seed_does_not_give(capsys: pytest.CaptureFixture[str],
                                                         record_file: Path) -> None:
    lines = parse_record(record_file.read_text())
    number, data = next((n, d) for n, d in lines[1:] if len(d.get("refill", "").split()) >= 2)
    first, second, *rest = data["refill"].split()
    if first == second:
        pytest.skip("the refill draws two equal tiles")
    path = tampered(record_file, number, refill=" ".join([second, first, *rest]))
    assert_bad_record(capsys, path, f"line {number}: field 'refill': draws {second}, but the box of seed 4")


def test_replay_refuses_a_header_whose_seed_deals_other_racks(capsys: pytest.CaptureFixture[str],
                                                              record_file: Path) -> None:
    header = json.loads(record_file.read_text().splitlines()[0])
    other = Game.deal(3, header["seed"] + 1)
    racks = [" ".join(rack_code(tile) for tile in rack) for rack in other.dealt]
    fields = {"racks": racks, "first_draw": [[[p, rack_code(t)] for p, t in draw] for draw in other.first_draw],
              "first_player": other.first_player}
    assert_bad_record(capsys, tampered(record_file, 1, **fields), "line 1: field 'first_draw': seed 4 draws")
    assert_bad_record(capsys, tampered(record_file, 1, racks=racks), "line 1: field 'racks': seed 4 deals player 0")


def test_replay_refuses_a_record_without_a_seed(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    assert_bad_record(capsys, tampered(record_file, 1, seed=None), "line 1: field 'seed': None is not a whole number")
    header = json.loads(record_file.read_text().splitlines()[0])
    del header["seed"]
    path = record_file.with_name("seedless.jsonl")
    path.write_text("\n".join([json.dumps(header), *record_file.read_text().splitlines()[1:]]) + "\n")
    assert_bad_record(capsys, path, "line 1: field 'seed': missing")


def test_a_game_without_a_seed_has_no_record() -> None:
    game = Game.deal(2, 3)
    unseeded = Game(2, [list(rack) for rack in game.dealt], game.box, game.first_player)
    with pytest.raises(ValueError, match="without a seed"):
        record_lines(unseeded)


class UnsortedReturns:
    """Returns its whole rack highest tile first, so the box takes tiles back out of order."""

    name = "unsorted"

    def choose(self, view: View) -> Action:
        if not view.box_size:
            found = view.core().best_play()
            return PASS if found is None else Place(to_play(found[1]))
        return Return(tuple(sorted(view.rack, reverse=True)[:3]))


def test_a_game_returning_tiles_in_any_order_replays() -> None:
    for seed in range(3):
        game = play_game(Game.deal(2, seed, stall_rounds=2), [UnsortedReturns(), make_player("greedy", seed, 1)])
        text = record_text(game, ["unsorted", "greedy"])
        assert record_text(replay(parse_record(text)), ["unsorted", "greedy"]) == text


# -- strict JSON: repeated keys and numbers that are not whole -----------------------------------

def test_replay_refuses_a_key_given_twice_with_its_line(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    path = record_file.with_name("twice.jsonl")
    lines = record_file.read_text().splitlines()
    lines[2] = lines[2][:-1] + ', "score": 0}'
    path.write_text("\n".join(lines) + "\n")
    assert_bad_record(capsys, path, "line 3: malformed JSON: key 'score' appears twice")


@pytest.mark.parametrize(("line", "field", "value", "shown"), [
    (1, "players", 3.0, "3.0"), (1, "version", True, "True"), (1, "seed", "4", "'4'"),
    (1, "first_player", 1.0, None), (1, "stall_rounds", 3.0, "3.0"), (1, "sets", 2.0, "2.0"),
    (2, "turn", 1.0, "1.0"), (2, "player", True, None), (2, "score", None, None),  # None: as recorded, a float
])
def test_replay_refuses_a_number_that_is_not_a_whole_number(capsys: pytest.CaptureFixture[str], record_file: Path,
                                                            line: int, field: str, value: object,
                                                            shown: str | None) -> None:
    data = json.loads(record_file.read_text().splitlines()[line - 1])
    if value is None:   # the recorded number, written as a float
        value = float(data[field])
    shown = shown or repr(value)
    assert_bad_record(capsys, tampered(record_file, line, **{field: value}),
                      f"line {line}: field '{field}': {shown} is not a whole number")


def test_replay_refuses_running_and_final_scores_that_are_not_whole_numbers(
        capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    lines = record_file.read_text().splitlines()
    turn = json.loads(lines[1])
    floats = [float(score) for score in turn["scores"]]
    assert_bad_record(capsys, tampered(record_file, 2, scores=floats),
                      "line 2: field 'scores': ")
    end = json.loads(lines[-1])
    for key in ("penalties", "scores", "winners"):
        value = [True if v == 1 else float(v) for v in end[key]]
        assert_bad_record(capsys, tampered(record_file, len(lines), **{key: value}),
                          f"line {len(lines)}: field '{key}': ")


def test_replay_of_an_endless_file_stops_at_the_record_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_record(capsys, "/dev/zero", "larger than a game record may be")


def test_replay_of_a_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"record": "\xe9"}\n')
    assert_bad_record(capsys, path, "not a text file")


# -- writing ---------------------------------------------------------------------------------------

def test_write_record_never_clobbers_and_never_follows_a_link(tmp_path: Path) -> None:
    game, names = played(2)
    path = tmp_path / "game.jsonl"
    path.write_text("mine\n")
    with pytest.raises(RecordError, match="exists; give --force"):
        write_record(game, path, names)
    assert path.read_text() == "mine\n"
    write_record(game, path, names, force=True)
    assert replay(path).scores == game.scores
    target = tmp_path / "target.txt"
    target.write_text("theirs\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with pytest.raises(RecordError, match="symbolic link"):
        write_record(game, link, names, force=True)
    assert target.read_text() == "theirs\n" and sorted(p.name for p in tmp_path.iterdir()) == \
        ["game.jsonl", "link.jsonl", "target.txt"]
