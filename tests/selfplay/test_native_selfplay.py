"""The C greedy game loop, replayed turn by turn against the Python rules."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from helpers import FULL_CORPUS
from ginnyo import Layout, Play, PlacedTile, Position, native
from ginnyo.position import reference
from ginnyo.selfplay.compiled import greedy_game, greedy_games
from ginnyo.vocab.tiles import JOKER, rack_penalty

GAMES = 400 if FULL_CORPUS else 60


def full_set(sets: int) -> Counter[int]:
    return Counter({**{card: sets for card in range(52)}, JOKER: 2 * sets})


def replay(players: int, seed: int, index: int) -> None:
    """Re-check every turn of one C game with the Python rules."""
    sets = 1 if players == 2 else 2
    first, racks, turns, final = greedy_game(players, seed, index)
    board: dict[int, PlacedTile] = {}
    racks = [list(rack) for rack in racks]
    scores = [0] * players
    layout = Layout.standard()
    assert all(len(rack) == 7 for rack in racks)
    assert turns[0]["player"] == first
    for number, turn in enumerate(turns):
        player = turn["player"]
        assert player == (first + number) % players
        if turn["drawn"] >= 0:
            racks[player].append(turn["drawn"])
        position = Position(layout, sets, board, racks[player])   # validates the board
        on_board = Counter(t.rack_tile for t in board.values())
        in_racks = sum((Counter(r) for r in racks), Counter())
        assert not on_board + in_racks - full_set(sets), "more tiles than the sets hold"
        if turn["action"] == "play":
            play = Play.of((s, PlacedTile(c, j)) for s, c, j in turn["placements"])
            scored = reference.score_play(position, play)
            assert scored.score == turn["score"]
            best = native.best_play(position)
            assert best is not None and best.play == play and best.score == scored.score
            for square, tile in play.placements:
                board[square] = tile
                racks[player].remove(tile.rack_tile)
            scores[player] += scored.score
        else:
            assert not native.legal_plays(position), "returned or passed with a legal play"
            if turn["action"] == "return":
                assert turn["returned"] == position.tile_to_return()
                racks[player].remove(turn["returned"])
        racks[player].extend(turn["refill"])
        assert len(racks[player]) <= 7 or turn["action"] == "pass"
    for player in range(players):
        scores[player] -= sum(rack_penalty(tile) for tile in racks[player])
    assert scores == final


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c_greedy_games_replay_legally_in_python(players: int) -> None:
    for index in range(GAMES // 3):
        replay(players, seed=7, index=index)


def test_c_greedy_games_are_reproducible_and_independent_of_threads() -> None:
    one = greedy_games(200, 2, seed=11, threads=1)
    two = greedy_games(200, 2, seed=11, threads=2)
    assert (one.scores == two.scores).all() and (one.turns == two.turns).all()
    other = greedy_games(200, 2, seed=12, threads=1)
    assert not (one.scores == other.scores).all()


def test_c_greedy_game_record_matches_the_batch() -> None:
    batch = greedy_games(5, 3, seed=3)
    for index in range(5):
        _, _, turns, final = greedy_game(3, seed=3, index=index)
        assert list(batch.scores[index]) == final and batch.turns[index] == len(turns)


def test_c_greedy_games_reject_a_bad_player_count() -> None:
    with pytest.raises(ValueError):
        greedy_games(1, 5, seed=1)


def test_game_i_of_a_run_is_the_game_of_seed_plus_i() -> None:
    batch = greedy_games(4, 2, seed=20)
    for index in range(4):
        _, _, turns, final = greedy_game(2, seed=20 + index)
        assert list(batch.scores[index]) == final and batch.turns[index] == len(turns)


def test_selfplay_engine_c_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.cli import main
    assert main(["selfplay", "--engine", "c", "--games", "40", "--players", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("40 games of 3 players") and "C game loop" in out and "ended:" in out


def test_selfplay_engine_c_plays_equity_seats_as_the_loop_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``--engine c --bots equity,greedy`` plays the compiled loop's equity games:
    the same scores as :func:`loop_games`, game by game, and equity ahead."""
    from ginnyo.cli import main
    from ginnyo.selfplay.compiled import loop_games
    from ginnyo.selfplay.games import run_in_c
    results = run_in_c(30, 2, 500, ("equity", "greedy"), workers=1)
    batch = loop_games(30, ("equity", "greedy"), 500)
    assert [list(r.scores) for r in results] == [list(map(int, row)) for row in batch.scores]
    assert all(r.names == ("equity", "greedy") for r in results)
    assert main(["selfplay", "--engine", "c", "--games", "20", "--bots", "equity,greedy", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("20 games of 2 players") and "equity" in out


def test_selfplay_engine_c_refuses_other_players_and_records(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    from ginnyo.cli import main
    assert main(["selfplay", "--engine", "c", "--games", "2", "--bots", "random"]) == 2
    assert main(["selfplay", "--engine", "c", "--games", "2", "--records", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2
