"""The solver in the player-facing decisions (ginnyo.endgame.choice): best-move
--endgame/--equity/--sim, the engine's go endgame and the equity and sim players
make the endgame solver's move, where the highest-scoring play loses; plain
best-move and go stay the highest-scoring play."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import lru_cache
from typing import Iterator

import pytest
from cli_helpers import assert_bad_input, cli

from ginnyo import Position
from ginnyo.game.actions import action_notation
from ginnyo.endgame.exact import is_endgame, solve
from ginnyo.endgame.choice import endgame_action, solver_move
from ginnyo.engine.server import Engine
from ginnyo.equity.rank import best_action
from ginnyo.players.equity import EquityPlayer
from ginnyo.game.game import Game, View
from ginnyo.players.players import GreedyPlayer, make_player
from ginnyo.endgame.greedy import greedy_preendgames
from ginnyo.endgame.preendgame import rank
from ginnyo.players.simulation import SimPlayer

# An endgame (tests/endgame/test_endgame.py's small_endgame(6, 3)) where the highest-scoring
# play, L9 KS... for 10, loses by 20 and F10 ...6D wins by 20.
TRAP = {"sets": 1, "board": {
    "D1": "AC", "B2": "2D", "C2": "2S", "D2": "2C", "L2": "5C", "D3": "3C", "L3": "5D", "A4": "4D", "B4": "4H",
    "C4": "4S", "D4": "4C", "L4": "5H", "B5": "3H", "H5": "AH", "B6": "2H", "H6": "AD", "H7": "AS", "B8": "8C",
    "D8": "QH", "E8": "QC", "F8": "QD", "H8": "ac", "B9": "8D", "D9": "jh", "A10": "7H", "B10": "8H",
    "C10": "9H", "D10": "TH", "F10": "6C", "L10": "KC", "C11": "9C", "F11": "6H", "L11": "KD", "A12": "JS",
    "B12": "TS", "C12": "9S", "D12": "8S", "E12": "7S", "F12": "6S", "G12": "5S", "L12": "KH", "A13": "JC",
    "C13": "9D", "A14": "JD", "A15": "JH"}, "rack": "6D TD KS", "players": 2, "unseen": ["7D", "7C"]}
GREEDY, SOLVER = "L9 KS...", "F10 ...6D"


@pytest.fixture
def trap_file(tmp_path: object) -> str:
    from pathlib import Path
    path = Path(str(tmp_path)) / "trap.json"
    path.write_text(json.dumps(TRAP))
    return str(path)


def test_the_trap_is_an_endgame_where_the_top_score_loses() -> None:
    start = Position.from_dict(TRAP)
    top = start.best_play()
    assert top is not None and start.notation(top) == GREEDY
    move = solver_move(start)
    assert move is not None and move.source == "endgame" and move.notation == SOLVER
    assert move.spread == 20 and move.proven


def test_plain_best_move_stays_the_highest_scoring_play(capsys: pytest.CaptureFixture[str], trap_file: str) -> None:
    code, out, _ = cli(capsys, "best-move", trap_file, "--json")
    assert code == 0 and json.loads(out)["notation"] == GREEDY


@pytest.mark.parametrize("ranking", [["--endgame"], ["--equity"], ["--sim", "4", "--workers", "1"]])
def test_best_move_rankings_make_the_solvers_move_in_an_endgame(capsys: pytest.CaptureFixture[str],
                                                                trap_file: str, ranking: list[str]) -> None:
    code, out, _ = cli(capsys, "best-move", trap_file, "--json", *ranking)
    data = json.loads(out)
    assert code == 0 and data["source"] == "endgame" and data["notation"] == SOLVER and data["spread"] == 20
    code, out, _ = cli(capsys, "best-move", trap_file, *ranking)
    assert out.splitlines()[0].startswith(SOLVER) and "chosen by the endgame solver: spread +20" in out


def test_best_move_endgame_refuses_a_position_far_from_the_end(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: object) -> None:
    from pathlib import Path
    path = Path(str(tmp_path)) / "early.json"
    path.write_text(json.dumps({"board": {}, "rack": "5H 6H 7H"}))
    assert_bad_input(capsys, "best-move", str(path), "--endgame", message="field 'unseen'")


def test_best_move_equity_in_a_preendgame_ranks_by_the_exact_expectation(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: object) -> None:
    from pathlib import Path
    start = greedy_preendgames(40, 2026, 1)[0]
    path = Path(str(tmp_path)) / "pre.json"
    path.write_text(start.to_json())
    code, out, _ = cli(capsys, "best-move", str(path), "--equity", "--json", "--time", "600")
    data = json.loads(out)
    expected = rank(start)
    assert code == 0 and data["source"] == "pre-endgame" and data["proven"]
    assert data["notation"] == expected.best.notation
    assert data["spread"] == round(float(expected.best.spread or Fraction(0)), 4)


def answer(engine: Engine, line: str) -> list[str]:
    return list(engine.handle(line))


def test_go_stays_best_by_score_and_go_endgame_plays_the_solvers_move() -> None:
    engine = Engine()
    assert "capability go-endgame" in answer(engine, "ginnyo")
    assert answer(engine, "position json " + json.dumps(TRAP)) == []
    assert answer(engine, "go")[-1] == f"bestmove {GREEDY}"
    lines = answer(engine, "go endgame 5")
    assert lines == ["info string endgame spread +20 proven", f"bestmove {SOLVER}"]
    assert answer(engine, "go endgame")[-1] == f"bestmove {SOLVER}"


def test_go_endgame_far_from_the_end_says_so_and_plays_best_by_score() -> None:
    engine = Engine()
    answer(engine, "position json " + json.dumps({"board": {}, "rack": "5H 6H 7H"}))
    lines = answer(engine, "go endgame")
    assert lines[0].startswith("info string not an endgame") and lines[-1].startswith("bestmove ")
    assert lines[-1] == answer(engine, "go")[-1]


@pytest.mark.parametrize("argument", ["go endgame 0", "go endgame x", "go endgame 1 2", "go endgame nan"])
def test_go_endgame_with_a_bad_budget_is_one_error_and_bestmove_none(argument: str) -> None:
    engine = Engine()
    answer(engine, "position json " + json.dumps(TRAP))
    lines = answer(engine, argument)
    assert lines[0].startswith("info string error bad-argument go endgame") and lines[-1] == "bestmove none"


@lru_cache(maxsize=None)
def endgame_games() -> tuple[int, ...]:
    """Seeds of greedy games that reach an endgame (box empty, the other rack 7 or fewer)."""
    return tuple(seed for seed in range(12) if next(endgame_views(seed), None) is not None)


def endgame_views(seed: int) -> Iterator[View]:
    """Greedy game ``seed`` played until a player decides with the box empty: that view."""
    game = Game.deal(2, seed)
    greedy = GreedyPlayer()
    while not game.over:
        view = game.begin_turn()
        if not view.box_size:
            if is_endgame(view.position):
                yield view
            return
        game.apply(greedy.choose(view))


def test_endgame_and_sim_players_make_the_solvers_move_once_the_box_is_empty() -> None:
    differs = 0
    for seed in endgame_games()[:6]:
        view = next(endgame_views(seed))
        result = solve(view.position, 5)
        expected = result.moves[0].notation
        for player in (make_player("endgame", 1, 0), SimPlayer(seed=1, rollouts=4)):
            assert action_notation(view.position, player.choose(view)) == expected
        chosen = endgame_action(view)
        assert chosen is not None and action_notation(view.position, chosen) == expected
        by_equity = best_action(view.core(), view.rack, view.box_size).action()
        assert EquityPlayer().choose(view) == by_equity      # the equity kind does not solve
        differs += action_notation(view.position, by_equity) != expected
    assert differs >= 1, "no game where equity alone would differ: the test proves nothing"


def test_a_node_budget_gives_the_same_line_twice_and_stops_the_search() -> None:
    """The players' budget is in nodes: the same position and budget give the
    same answer whatever the machine's load (a time budget does not)."""
    from ginnyo.endgame.exact import solve
    from ginnyo.endgame.greedy import greedy_endgames
    hardest = max(greedy_endgames(20, 2026), key=lambda p: solve(p).nodes)
    full = solve(hardest)
    cut = solve(hardest, nodes=2048)
    again = solve(hardest, nodes=2048)
    assert full.proven and full.nodes > 4096
    assert not cut.proven and cut.nodes < full.nodes
    assert (cut.spread, cut.line, cut.nodes) == (again.spread, again.line, again.nodes)


@pytest.mark.parametrize("nodes", [0, -1, True, 1.5, 10 ** 13])
def test_a_bad_node_budget_is_refused(nodes: object) -> None:
    from ginnyo.endgame.exact import solve
    from ginnyo.endgame.greedy import greedy_endgames
    with pytest.raises(ValueError, match="nodes"):
        solve(greedy_endgames(5, 2026)[0], nodes=nodes)  # type: ignore[arg-type]
