"""The game end of docs/RULES.md §6 as amended 2026-12-01, case by case, in the Python
game and in the compiled greedy loop, and the two checked against one referee.

The rule: the game ends when the box is empty and every player in turn had no
play; once the first meld is on the board, after three full rounds without a
play (the clock restarting at every play); before it, after twenty full rounds
with an empty board.  A rack of only jokers returns while the box has tiles;
only with the box empty does a player without a play pass.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from cli_helpers import cli
from ginnyo import IllegalMoveError
from ginnyo.game.actions import PASS, Action, Place, Return
from ginnyo.errors import RecordError
from ginnyo.game.game import (BOX_EMPTY_AND_ALL_PASSED, NO_PLAY_FOR_ROUNDS, NOBODY_OPENED, OPENING_GUARD_ROUNDS,
                         RULES_VERSION, STALL_ROUNDS, Box, Game, View, play_game)
from ginnyo.vocab.layout import core_premiums
from ginnyo.selfplay.compiled import end_reason, greedy_game, greedy_games
from ginnyo.vocab.notation import parse_notation
from ginnyo.players.players import GreedyPlayer
from ginnyo.game.records import parse_record, record_text, replay
from ginnyo.vocab.tiles import JOKER, parse_rack_tile
from ginnycore import Core
from ginnycore.rules import tile_to_return
from ginnycore.selfplay import play_greedy_games

if TYPE_CHECKING:
    from ginnycore.selfplay import GreedyTurn

STALL = NO_PLAY_FOR_ROUNDS.format(rounds=STALL_ROUNDS)
NOT_OPENED = NOBODY_OPENED.format(rounds=OPENING_GUARD_ROUNDS)
V1_RECORD = Path(__file__).resolve().parents[1] / "data" / "record-v1-stall-before-opening.jsonl"


def tiles(text: str) -> list[int]:
    return [parse_rack_tile(code) for code in text.split()]


def game_of(racks: list[str], box: str = "", *, rules: int = RULES_VERSION) -> Game:
    """A game from given racks and box (its last tile is drawn first), player 0 to move."""
    return Game(len(racks), [tiles(rack) for rack in racks], Box(tiles(box), random.Random(0)), 0, rules=rules)


def opening_game(rules: int = RULES_VERSION) -> Game:
    """Player 0 can open with 7C 7H 7S on H6-H8 and later add 7D on H9."""
    return game_of(["7H 7C 7S 7D 2C 4D 9S", "5C 8D JH KS 2D 6S 9C"], " ".join(["2H"] * 40), rules=rules)


def play(game: Game, notation: str) -> None:
    game.begin_turn()
    game.apply(Place(parse_notation(game.position(), notation)))


def quiet_turn(game: Game) -> None:
    """A turn without a play: return the costliest tile that is not a 7."""
    game.begin_turn()
    rack = game.racks[game.to_move]
    game.apply(Return((next(tile for tile in rack if tile % 13 != 6),)))


class NeverOpens:
    """A player that returns one tile every turn (passes on an empty box)."""

    name = "never-opens"

    def choose(self, view: View) -> Action:
        return Return(view.rack[:1]) if view.box_size else PASS


def tiny_core() -> Core:
    """A 2 x 2 board: no line of three fits, so nobody can ever open."""
    return Core(2, 2, *core_premiums("S..."))


def c_loop(core: Core, players: int, games: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = {"scores": np.zeros((games, 4), dtype=np.int32)}
    for name in ("turns", "plays", "first", "ends"):
        out[name] = np.zeros(games, dtype=np.int32)
    play_greedy_games(core, games, players, 5, out["scores"], out["turns"], out["plays"], out["first"], out["ends"])
    return out


# -- a referee: the rule read from a game's list of actions, shared by both engines' checks ------

def referee(kinds: list[str], players: int) -> tuple[int, str] | None:
    """Where docs/RULES.md §6 ends a game whose turns were ``kinds`` ('play', 'return',
    'pass'), and why: ``(turn number, reason)``, or None if it goes on."""
    quiet = passes = 0
    opened = False
    for number, kind in enumerate(kinds, 1):
        quiet = 0 if kind == "play" else quiet + 1
        passes = passes + 1 if kind == "pass" else 0
        opened = opened or kind == "play"
        if passes >= players:
            return number, BOX_EMPTY_AND_ALL_PASSED
        if opened and quiet >= STALL_ROUNDS * players:
            return number, STALL
        if not opened and quiet >= OPENING_GUARD_ROUNDS * players:
            return number, NOT_OPENED
    return None


def python_kinds(game: Game) -> list[str]:
    return [type(turn.action).__name__.lower().replace("place", "play") for turn in game.history]


SEEDS = range(60)


@pytest.fixture(scope="module")
def python_games() -> dict[int, list[Game]]:
    return {players: [play_game(Game.deal(players, seed), [GreedyPlayer()] * players) for seed in SEEDS]
            for players in (2, 3, 4)}


@pytest.fixture(scope="module")
def c_games() -> dict[int, list[tuple[list[GreedyTurn], str]]]:
    games = {}
    for players in (2, 3, 4):
        batch = greedy_games(len(SEEDS), players, 0)
        games[players] = [(greedy_game(players, 0, index)[2], end_reason(int(batch.end_reasons[index])))
                          for index in SEEDS]
    return games


def c_kinds(turns: list[GreedyTurn]) -> list[str]:
    return [turn["action"] for turn in turns]


# -- the clock does not run before the first meld ----------------------------------------------

def test_clock_not_started_before_the_first_meld_python() -> None:
    game = opening_game()
    for _ in range(3 * STALL_ROUNDS * 2):   # three times the stall, nobody opening
        quiet_turn(game)
    assert not game.over and not game.board
    play(game, "H6 7C7H7S")
    assert not game.over and game.turns_without_play == 0


def test_clock_not_started_before_the_first_meld_under_rules_1_it_was() -> None:
    game = opening_game(rules=1)
    for _ in range(STALL_ROUNDS * 2):
        quiet_turn(game)
    assert game.over and game.end_reason == STALL and not game.board


def test_clock_not_started_before_the_first_meld_c_loop(c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    late = [(players, turns) for players, games in c_games.items() for turns, _ in games
            if c_kinds(turns)[:STALL_ROUNDS * players].count("play") == 0]
    assert late, "no seeded C game opened late"
    for players, turns in late:   # the old clock would have ended them before the first meld
        assert "play" in c_kinds(turns)


# -- the clock restarts at every play ---------------------------------------------------------

def test_clock_restarts_at_every_play_python() -> None:
    game = opening_game()
    play(game, "H6 7C7H7S")
    for _ in range(STALL_ROUNDS * 2 - 1):
        quiet_turn(game)
    assert not game.over and game.to_move == 0
    play(game, "H9 7D")
    for _ in range(STALL_ROUNDS * 2 - 1):
        quiet_turn(game)
        assert not game.over
    quiet_turn(game)
    assert game.over and game.end_reason == STALL


def test_clock_restarts_at_every_play_c_loop(c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    restarted = 0
    for players, games in c_games.items():
        for turns, _ in games:
            kinds = c_kinds(turns)
            for start in range(len(kinds) - STALL_ROUNDS * players):
                stretch = kinds[start:start + STALL_ROUNDS * players]
                if kinds[start] == "play" and stretch.count("play") == 1 and "play" in kinds[start + len(stretch):]:
                    restarted += 1   # 3 rounds less a turn quiet after a play, then a play: not ended
                    assert kinds[start + len(stretch)] == "play"
    assert restarted


# -- the stall end: three full rounds after the last play -----------------------------------------

def test_stall_end_three_full_rounds_after_the_last_play_python() -> None:
    game = opening_game()
    play(game, "H6 7C7H7S")
    for _ in range(STALL_ROUNDS * 2 - 1):
        quiet_turn(game)
    assert not game.over
    quiet_turn(game)
    assert game.over and game.end_reason == STALL and game.turns_played == 1 + STALL_ROUNDS * 2


def test_stall_end_three_full_rounds_after_the_last_play_c_loop(
        c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    stalled = 0
    for players, games in c_games.items():
        for turns, reason in games:
            if reason == STALL:
                stalled += 1
                kinds = c_kinds(turns)
                tail = kinds[-STALL_ROUNDS * players:]
                assert "play" not in tail and kinds[-STALL_ROUNDS * players - 1] == "play"
    assert stalled


# -- the twenty-round guard, the board still empty -------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_twenty_round_guard_with_an_empty_board_python(players: int) -> None:
    game = play_game(Game.deal(players, 3), [NeverOpens()] * players)
    assert game.end_reason == NOT_OPENED and not game.board
    assert game.turns_played == OPENING_GUARD_ROUNDS * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_twenty_round_guard_with_an_empty_board_c_loop(players: int) -> None:
    out = c_loop(tiny_core(), players)
    assert end_reason(int(out["ends"][0])) == NOT_OPENED and out["plays"][0] == 0
    assert out["turns"][0] == OPENING_GUARD_ROUNDS * players


def test_twenty_round_guard_does_not_end_an_opened_game() -> None:
    game = opening_game()
    play(game, "H6 7C7H7S")
    assert game.history[-1].number == 1
    while not game.over:
        quiet_turn(game)
    assert game.end_reason == STALL


# -- a rack of only jokers returns while the box has tiles -------------------------------------------

def test_joker_only_rack_returns_while_the_box_has_tiles_python() -> None:
    game = game_of(["*", "5C 8D JH KS 2D 6S 9C"], "2H 2H *")
    view = game.begin_turn()
    assert view.rack == (JOKER, JOKER) and view.box_size == 2
    with pytest.raises(IllegalMoveError):
        game.apply(PASS)
    action = GreedyPlayer().choose(view)
    assert action == Return((JOKER,))
    game.apply(action)


def test_joker_only_rack_returns_while_the_box_has_tiles_c_loop() -> None:
    rack = bytearray(JOKER + 1)
    rack[JOKER] = 2
    assert tile_to_return(bytes(rack)) == JOKER
    rack[parse_rack_tile("9H")] = 1
    assert tile_to_return(bytes(rack)) == parse_rack_tile("9H")
    assert tile_to_return(bytes(JOKER + 1)) == -1


def test_joker_only_rack_returns_while_the_box_has_tiles_in_a_rollout() -> None:
    from ginnyo.equity.leaves import LeaveModel
    from simulation_reference import choose
    core = Core(15, 15, *core_premiums("." * 112 + "S" + "." * 112))
    rack = [JOKER, JOKER]
    core.load(bytearray([255]) * 225, bytearray(225), bytearray([0] * JOKER + [2]))
    assert choose(core, rack, 5, "greedy", LeaveModel(())) == (0, (), (JOKER,))
    assert choose(core, rack, 0, "greedy", LeaveModel(())) == (0, (), ())


# -- a pass only with an empty box ---------------------------------------------------------------

def test_pass_only_with_an_empty_box_python() -> None:
    game = game_of(["2C 9H", "5D KS"], "4S 4D")
    game.begin_turn()                      # draws 4D: the box holds 4S
    with pytest.raises(IllegalMoveError, match="returns tiles"):
        game.apply(PASS)
    game.apply(Return((parse_rack_tile("9H"),)))   # the refill takes the box's last two tiles
    assert len(game.box) == 0
    game.begin_turn()
    with pytest.raises(IllegalMoveError, match="box is empty"):
        game.apply(Return((parse_rack_tile("5D"),)))
    game.apply(PASS)
    assert not game.over


def test_pass_only_with_an_empty_box_c_loop(c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    passes = 0
    for players, games in c_games.items():
        for turns, _ in games:
            box = 54 * (1 if players == 2 else 2) - 7 * players
            for turn in turns:
                box -= turn["drawn"] >= 0          # the box at the decision
                if turn["action"] == "pass":
                    passes += 1
                    assert box == 0, "passed while the box held tiles"
                if turn["action"] == "return":
                    assert box > 0
                box += (turn["returned"] >= 0) - len(turn["refill"])
    assert passes


# -- the all-pass end --------------------------------------------------------------------------

def test_all_pass_end_python() -> None:
    game = game_of(["2C 9H", "5D KS", "3C 8D"])
    for _ in range(2):
        game.begin_turn()
        game.apply(PASS)
        assert not game.over
    game.begin_turn()
    game.apply(PASS)
    assert game.over and game.end_reason == BOX_EMPTY_AND_ALL_PASSED


def test_all_pass_end_c_loop(c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    ended = 0
    for players, games in c_games.items():
        for turns, reason in games:
            if reason == BOX_EMPTY_AND_ALL_PASSED:
                ended += 1
                assert c_kinds(turns)[-players:] == ["pass"] * players
    assert ended


# -- Python and compiled loops against the referee --------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_python_and_c_loops_end_every_game_where_the_referee_does(
        players: int, python_games: dict[int, list[Game]],
        c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    for game in python_games[players]:
        assert referee(python_kinds(game), players) == (game.turns_played, game.end_reason)
    for turns, reason in c_games[players]:
        assert referee(c_kinds(turns), players) == (len(turns), reason)


def test_python_and_c_loops_agree_on_how_seeded_games_end(
        python_games: dict[int, list[Game]], c_games: dict[int, list[tuple[list[GreedyTurn], str]]]) -> None:
    # different shuffles, so not the same games: the same kinds of end, and no empty board at the end
    for players in (2, 3, 4):
        python_ends = {game.end_reason for game in python_games[players]}
        c_ends = {reason for _, reason in c_games[players]}
        assert python_ends == c_ends == {BOX_EMPTY_AND_ALL_PASSED, STALL}
        assert all(game.board for game in python_games[players])
        assert all("play" in c_kinds(turns) for turns, _ in c_games[players])


# -- records: a version is the rules its game is replayed by ------------------------------------------

def test_a_new_record_is_version_2_and_replays() -> None:
    game = play_game(Game.deal(2, 12), [GreedyPlayer()] * 2)
    lines = parse_record(record_text(game))
    assert lines[0][1]["version"] == 2
    assert replay(lines).scores == game.scores


def test_a_version_1_record_replays_by_its_own_rule() -> None:
    game = replay(V1_RECORD)
    assert game.rules == 1 and game.end_reason == STALL and not game.board


def test_a_version_1_record_does_not_replay_as_version_2() -> None:
    lines = parse_record(V1_RECORD.read_text(encoding="utf-8"))
    lines[0][1]["version"] = 2
    with pytest.raises(RecordError, match="the rules do not end it there"):
        replay(lines)


@pytest.mark.parametrize("version", [0, 3, "2", None, 2.0, True])
def test_a_record_of_another_version_is_refused_naming_the_field(version: object) -> None:
    lines = parse_record(V1_RECORD.read_text(encoding="utf-8"))
    lines[0][1]["version"] = version
    with pytest.raises(RecordError, match="field 'version'"):
        replay(lines)


@pytest.mark.parametrize("rules", [0, 3, "2", True])
def test_a_game_of_unknown_rules_is_refused(rules: object) -> None:
    with pytest.raises(ValueError, match="rules"):
        Game.deal(2, 0, rules=rules)  # type: ignore[arg-type]


# -- the leave values are trained under the rules played ---------------------------------------------

def test_trained_leaves_record_the_rules_of_their_self_play(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    from ginnyo.equity.leaves import load
    out = tmp_path / "leaves.json"
    code, _, _ = cli(capsys, "train-leaves", "--games", "4", "--rounds", "1", "--seed", "5", "--workers", "1",
                     "--out", str(out))
    assert code == 0 and load(out).training["rules"] == RULES_VERSION


def test_the_shipped_leaves_were_trained_under_the_current_rules() -> None:
    from ginnyo.equity.leaves import default_model
    assert default_model().training["rules"] == RULES_VERSION
