"""The exact 2-player endgame solver (ginnyo.endgame, ginnycore.endgame): it agrees
with a plain-Python exhaustive minimax on hundreds of small seeded endgames, its
line replays under the rules to the spread it reports, and it follows docs/RULES.md §6
(a pass only without a play, two passes end the game, both racks subtracted)."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache
from typing import Sequence

import pytest
from cli_helpers import assert_bad_input, cli
from helpers import position
from endgame_reference import PlayLister, exact_spread, rack_cost

from ginnycore.endgame import Endgame
from ginnycore.selfplay import greedy_game_record
from ginnyo import native
from ginnyo.position import reference
from ginnyo.endgame.exact import MAX_UNSEEN, PASS, best_endgame_play, is_endgame, opponent_rack, solve
from ginnyo.endgame.greedy import greedy_endgames
from ginnyo.errors import PositionError
from ginnyo.game.game import tile_set
from ginnyo.vocab.layout import Layout
from ginnyo.vocab.play import ScoredPlay
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import JOKER, PlacedTile, parse_rack_tile, rack_code

# The endgame of greedy game 109 of seed 2026 that took the most nodes of 185
# (about 90 000): too big to prove in a few milliseconds.
HARD = {"sets": 1, "board": {
    "D1": "5D", "A2": "8C", "B2": "7C", "C2": "6C", "D2": "5C", "F2": "3C", "J2": "9H", "K2": "TH", "L2": "JH",
    "B3": "7H", "C3": "6H", "D3": "5H", "F3": "3H", "L3": "QH", "A4": "8S", "B4": "7S", "C4": "6S", "D4": "5S",
    "E4": "4S", "F4": "3S", "G4": "2S", "J4": "KD", "K4": "KS", "L4": "KH", "A5": "8D", "C5": "6D", "E5": "4C",
    "L5": "AH", "A6": "8H", "E6": "4H", "H6": "TC", "G7": "9S", "H7": "TS", "I7": "JS", "J7": "QS", "H8": "td",
    "B10": "2C", "C10": "2H", "D10": "2D", "D11": "3D", "D12": "4D"},
    "rack": "AC KC 7D 9D QD AS *", "players": 2, "unseen": ["9C", "JC", "QC", "AD", "TD", "JD"]}
RUN = {"G8": "5H", "H8": "6H", "I8": "7H"}


def small_endgame(seed: int, most: int = 4) -> tuple[Position, list[int]]:
    """A board from a seeded greedy game (at a turn in its second half) and tiny
    racks of 1 to ``most`` tiles each dealt from the tiles not on it."""
    rng = random.Random(seed)
    layout = Layout.standard()
    _, _, turns, _ = greedy_game_record(native.empty_core(layout), 2, seed)
    plays = [turn for turn in turns if turn["action"] == "play"]
    board: dict[int, PlacedTile] = {}
    for turn in plays[:rng.randrange(len(plays) // 2, len(plays) + 1)]:
        board.update((square, PlacedTile(card, joker)) for square, card, joker in turn["placements"])
    unseen = list((Counter(tile_set(1)) - Counter(tile.rack_tile for tile in board.values())).elements())
    rng.shuffle(unseen)
    ours, theirs = rng.randint(1, most), rng.randint(1, most)
    opponent = unseen[ours:ours + theirs]
    context = {"players": 2, "unseen": [rack_code(tile) for tile in opponent]}
    return Position(layout, 1, board, unseen[:ours], context), opponent


def core_plays(position: Position) -> list[ScoredPlay]:
    return native.legal_plays(position)


def minimax(position: Position, opponent: Sequence[int], plays: PlayLister = reference.legal_plays,
            after_pass: bool = False) -> int:
    """The yardstick's spread, with the move lists of ``plays``."""
    return exact_spread(position, opponent, after_pass, plays)


def replay_spread(start: Position, line: Sequence[str]) -> int:
    """Play ``line`` under the rules (each play checked and scored by :meth:`Position.score`,
    each pass checked to have no legal play) and return the mover's points
    minus the opponent's, with both end penalties when the line ends the game."""
    racks = [list(start.rack), list(opponent_rack(start))]
    board_position = start
    points = [0, 0]
    passes = 0
    for index, move in enumerate(line):
        side = index % 2
        now = Position(start.layout, start.sets, board_position.board, racks[side], validate=False)
        if move == PASS:
            assert not native.legal_plays(now), f"move {index + 1} passes with a legal play"
            passes += 1
            continue
        assert passes < 2, "the line goes on after two passes"
        passes = 0
        scored = now.score(move)
        points[side] += scored.score
        for tile in scored.play.tiles_used:
            racks[side].remove(tile)
        board_position = now.apply(move)
    assert passes == 2 and line[-2:] == (PASS, PASS), "a proven line ends with two passes"
    return points[0] - points[1] - rack_cost(racks[0]) + rack_cost(racks[1])


@lru_cache(maxsize=None)
def greedy_sample() -> tuple[Position, ...]:
    return tuple(greedy_endgames(60, 2026))


# -- agreement with the exhaustive yardstick -----------------------------------------------

def test_agrees_with_exhaustive_minimax_over_reference_rules() -> None:
    for seed in range(40):
        endgame, opponent = small_endgame(seed, most=3)
        result = solve(endgame)
        assert result.proven
        assert result.spread == minimax(endgame, opponent), seed


@pytest.mark.slow
def test_agrees_with_exhaustive_minimax_over_reference_rules_on_hundreds() -> None:
    for seed in range(1000, 1200):
        endgame, opponent = small_endgame(seed, most=3)
        result = solve(endgame)
        assert result.proven and result.spread == minimax(endgame, opponent), seed


def test_agrees_with_exhaustive_minimax_over_core_move_lists_on_hundreds() -> None:
    for seed in range(2000, 2300):
        endgame, opponent = small_endgame(seed)
        result = solve(endgame)
        assert result.proven and result.spread == minimax(endgame, opponent, core_plays), seed


def test_agrees_with_exhaustive_minimax_over_core_move_lists_with_racks_up_to_six() -> None:
    for seed in range(6000, 6040):
        endgame, opponent = small_endgame(seed, most=6)
        result = solve(endgame)
        assert result.proven and result.spread == minimax(endgame, opponent, core_plays), seed


@pytest.mark.slow
def test_agrees_with_exhaustive_minimax_over_core_move_lists_with_full_racks() -> None:
    for seed in range(7000, 7200):
        endgame, opponent = small_endgame(seed, most=7)
        result = solve(endgame)
        assert result.proven and result.spread == minimax(endgame, opponent, core_plays), seed


def test_small_table_still_exact_when_entries_collide() -> None:
    for seed in range(3000, 3060):
        endgame, opponent = small_endgame(seed)
        assert solve(endgame, table_bits=10).spread == minimax(endgame, opponent, core_plays), seed


def test_after_pass_agrees_with_exhaustive_minimax() -> None:
    for seed in range(4000, 4060):
        endgame, opponent = small_endgame(seed)
        expected = minimax(endgame, opponent, core_plays, after_pass=True)
        assert solve(endgame, after_pass=True).spread == expected, seed


# -- the line ------------------------------------------------------------------------------

def test_line_replays_under_the_rules_to_the_spread_on_small_endgames() -> None:
    for seed in range(5000, 5040):
        endgame, _ = small_endgame(seed)
        result = solve(endgame)
        assert replay_spread(endgame, result.line) == result.spread, seed


def test_the_lines_first_move_carries_its_play_as_an_object() -> None:
    for seed in range(5000, 5040):
        endgame, _ = small_endgame(seed)
        first = solve(endgame).moves[0]
        if first.notation == PASS:
            assert first.play is None, seed
        else:
            assert first.play == endgame.score(first.notation).play, seed


def test_line_replays_to_the_spread_on_greedy_game_endgames() -> None:
    for endgame in greedy_sample()[:20]:
        result = solve(endgame)
        assert result.proven
        assert replay_spread(endgame, result.line) == result.spread


def test_penalties_are_what_the_line_leaves_on_each_rack() -> None:
    endgame = position(RUN, "8H 9H KD", unseen="5C 5S AS")
    result = solve(endgame)
    assert result.penalties == (10, 15)
    assert sum(move.score * (1 if move.player == 0 else -1) for move in result.moves) \
        - result.penalties[0] + result.penalties[1] == result.spread


# -- docs/RULES.md §6 ---------------------------------------------------------------------------

def test_two_passes_end_the_game_and_both_racks_are_subtracted() -> None:
    # neither 2C nor AS fits anywhere near 5H 6H 7H
    endgame = position(RUN, "KD", unseen="AS")
    result = solve(endgame)
    assert result.line == (PASS, PASS)
    assert result.spread == 15 - 10 and result.proven


def test_pass_after_a_pass_ends_the_game_at_once() -> None:
    result = solve(position(RUN, "KD", unseen="AS"), after_pass=True)
    assert result.line == (PASS,) and result.spread == 5


def test_a_player_with_a_play_must_play_even_when_passing_would_gain() -> None:
    # 8H (J8, 8 points) is the mover's only play; it opens K8 to the opponent's
    # 9H (9 points).  Passing would leave 8H (-8) against 9H (-9): +1.
    forced = solve(position(RUN, "8H", unseen="9H"))
    assert forced.line == ("8G ...8H", "8G ....9H", PASS, PASS)
    assert forced.spread == 8 - 9


def test_empty_rack_passes_and_the_other_plays_on() -> None:
    endgame = position(RUN, "", unseen="8H 9H")
    result = solve(endgame)
    assert result.line[0] == PASS and result.line[1] != PASS
    assert result.spread == -sum(move.score for move in result.moves) < 0
    assert result.spread == minimax(endgame, [parse_rack_tile("8H"), parse_rack_tile("9H")], core_plays)


def test_spread_is_from_the_player_to_moves_view() -> None:
    ours = solve(position(RUN, "8H", unseen="9H"))
    theirs = solve(position(RUN, "9H", unseen="8H"))
    assert ours.spread == -1 and ours.moves[0].player == 0
    # 9H has no play: pass, the opponent plays 8H (8), 9H then goes on K8 (9)
    assert theirs.line[0] == PASS and theirs.spread == 9 - 8


def test_a_joker_left_on_a_rack_costs_nothing() -> None:
    # no play for KD; the opponent passed last, so the game ends at once
    result = solve(position(RUN, "KD", unseen="*"), after_pass=True)
    assert result.line == (PASS,) and result.penalties == (10, 0) and result.spread == -10


def test_best_endgame_play_is_the_first_move_of_the_line() -> None:
    for endgame in greedy_sample()[:10]:
        line = solve(endgame).line
        best = best_endgame_play(endgame)
        if line[0] == PASS:
            assert best is None
        else:
            assert best is not None and best.play == endgame.score(line[0]).play


def test_best_endgame_play_is_none_without_a_play() -> None:
    assert best_endgame_play(position(RUN, "KD", unseen="AS")) is None


# -- what is an endgame ----------------------------------------------------------------------

def test_more_than_seven_unseen_tiles_is_no_endgame() -> None:
    endgame = position(RUN, "8H", unseen="AS 2S 3S 4S 5S 6S 7S 8S")
    assert not is_endgame(endgame)
    with pytest.raises(PositionError, match="field 'unseen'"):
        solve(endgame)


def test_missing_unseen_means_every_tile_off_the_board_and_rack() -> None:
    assert not is_endgame(position(RUN, "8H"))
    assert MAX_UNSEEN == 7


def test_more_than_two_players_is_no_endgame() -> None:
    endgame = position(RUN, "8H", sets=2, players=3, unseen="AS")
    assert not is_endgame(endgame)
    with pytest.raises(PositionError, match="field 'players'"):
        solve(endgame)


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), float("inf"), True, "1"])
def test_bad_seconds_are_refused(seconds: object) -> None:
    with pytest.raises(ValueError, match="seconds"):
        solve(position(RUN, "8H", unseen="AS"), seconds)  # type: ignore[arg-type]


@pytest.mark.parametrize("bits", [9, 27, -1])
def test_table_size_out_of_range_is_refused(bits: int) -> None:
    with pytest.raises(ValueError, match="table_bits"):
        solve(position(RUN, "8H", unseen="AS"), table_bits=bits)


def test_opponent_rack_needs_53_counts() -> None:
    with pytest.raises(ValueError, match="53"):
        Endgame(native.core_of(position(RUN, "8H")), bytes(52))


def test_none_for_the_core_or_the_rack_is_a_type_error_not_a_crash() -> None:
    with pytest.raises(TypeError):
        Endgame(None, bytes(JOKER + 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Endgame(native.core_of(position(RUN, "8H")), None)  # type: ignore[arg-type]


def test_table_takes_sixteen_mebibytes_by_default() -> None:
    search = Endgame(native.core_of(position(RUN, "8H")), bytes(JOKER + 1))
    assert search.table_bytes == 16 * 1024 * 1024


def test_an_endgame_search_is_solved_once() -> None:
    search = Endgame(native.core_of(position(RUN, "8H")), bytes(JOKER + 1))
    search.solve()
    with pytest.raises(ValueError, match="once"):
        search.solve()


# -- stopping early --------------------------------------------------------------------------

def test_stop_returns_the_best_line_so_far_unproven() -> None:
    hard = Position.from_dict(HARD)
    counts = bytearray(JOKER + 1)
    for tile in opponent_rack(hard):
        counts[tile] += 1
    search = Endgame(native.core_of(hard), bytes(counts))
    search.stop()       # honoured once the first iteration is done
    spread, line, proven, nodes, depth, _ = search.solve()
    assert not proven and depth >= 1 and line and nodes < 5000


def test_hard_endgame_is_proven_without_a_budget() -> None:
    result = solve(Position.from_dict(HARD))
    assert result.proven and result.spread == replay_spread(Position.from_dict(HARD), result.line)


# -- the command line -------------------------------------------------------------------------

def _write(tmp_path: object, data: dict[str, object]) -> str:
    from pathlib import Path
    path = Path(str(tmp_path)) / "endgame.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cli_json_gives_spread_line_and_proven(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    code, out, _ = cli(capsys, "endgame", _write(tmp_path, {"board": RUN, "rack": "8H 9H", "unseen": "5C 5S"}),
                       "--json")
    data = json.loads(out)
    assert code == 0
    assert isinstance(data["spread"], int) and data["proven"] is True
    assert data["line"] and all(isinstance(move, str) for move in data["line"])
    assert data["line"][-2:] == [PASS, PASS]


def test_cli_prints_the_spread_and_the_line(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    code, out, _ = cli(capsys, "endgame", _write(tmp_path, {"board": RUN, "rack": "KD", "unseen": "AS"}))
    assert code == 0
    assert out.startswith("spread +5 for the player to move (proven")
    assert "pass" in out and "-10 (to move), -15 (opponent)" in out


def test_cli_after_pass_ends_the_game_on_a_pass(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    path = _write(tmp_path, {"board": RUN, "rack": "KD", "unseen": "AS"})
    code, out, _ = cli(capsys, "endgame", path, "--after-pass", "--json")
    assert code == 0 and json.loads(out)["line"] == [PASS]


def test_cli_time_budget_says_the_line_is_not_proven(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: object) -> None:
    # 1 ms is over after the first 1024 nodes of the second iteration; the proof takes about 90 000
    code, out, _ = cli(capsys, "endgame", _write(tmp_path, HARD), "--time", "0.001", "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"] is False and data["line"]
    code, out, _ = cli(capsys, "endgame", _write(tmp_path, HARD), "--time", "0.001")
    assert "NOT proven" in out


def test_cli_refuses_more_than_seven_unseen(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    path = _write(tmp_path, {"board": RUN, "rack": "8H", "unseen": "AS 2S 3S 4S 5S 6S 7S 8S"})
    assert_bad_input(capsys, "endgame", path, message="field 'unseen'")


def test_cli_refuses_more_than_two_players(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    path = _write(tmp_path, {"board": RUN, "rack": "8H", "sets": 2, "players": 4, "unseen": "AS"})
    assert_bad_input(capsys, "endgame", path, message="field 'players'")


@pytest.mark.parametrize("text, message", [("{", "JSON"), ('{"board": {}, "rack": "ZZ"}', "rack")])
def test_cli_bad_position_is_one_line_exit_two(capsys: pytest.CaptureFixture[str], tmp_path: object,
                                                text: str, message: str) -> None:
    from pathlib import Path
    path = Path(str(tmp_path)) / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert_bad_input(capsys, "endgame", str(path), message=message)


@pytest.mark.parametrize("budget", ["0", "-2", "soon", "nan"])
def test_cli_refuses_a_bad_time(capsys: pytest.CaptureFixture[str], tmp_path: object, budget: str) -> None:
    path = _write(tmp_path, {"board": RUN, "rack": "8H", "unseen": "AS"})
    assert_bad_input(capsys, "endgame", path, "--time", budget, message="--time")


# -- the endgames of greedy games --------------------------------------------------------------

def test_greedy_endgames_have_the_box_just_emptied() -> None:
    endgames = greedy_sample()
    assert len(endgames) > 20
    for endgame in endgames:
        unseen = opponent_rack(endgame)
        assert len(unseen) <= MAX_UNSEEN and len(endgame.rack) <= MAX_UNSEEN
        on_board = Counter(tile.rack_tile for tile in endgame.board.values())
        assert on_board + Counter(endgame.rack) + Counter(unseen) == Counter(tile_set(1))
