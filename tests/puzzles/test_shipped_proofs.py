"""The shipped puzzles (python/ginnyo/data/puzzles.jsonl) against the plain-Python
yardsticks (docs/PUZZLES.md): every score puzzle's legal plays listed and scored
by the reference rules, every small endgame solved by the reference minimax move
by move, every equity puzzle's intervals disjoint with the solution on top.  A
sample in the quick suite, the whole set in the slow one."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

import pytest

import ginnyo
from endgame_reference import exact_spread
from ginnyo.vocab.play import ScoredPlay
from ginnyo.position import reference
from ginnyo.position.play_groups import group_key
from ginnyo.position.position import Position
from ginnyo.puzzles.rating import BASE_RATING, STEP
from ginnyo.puzzles.themes import THEMES
from ginnyo.vocab.tiles import JOKER

SHIPPED = Path(ginnyo.__file__).parent / "data" / "puzzles.jsonl"
#: the margins the shipped set was made with (docs/PUZZLES.md)
SCORE_MARGIN, ENDGAME_MARGIN = 10, 5
#: the reference minimax tries every play at every turn: endgames of at most this many tiles in all
SMALL_ENDGAME = 7
SAMPLE = 6


def shipped() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines()]


def of_kind(kind: str, small: bool = False) -> list[dict[str, Any]]:
    puzzles = [puzzle for puzzle in shipped() if puzzle["kind"] == kind]
    if small:
        puzzles = [puzzle for puzzle in puzzles if endgame_tiles(puzzle) <= SMALL_ENDGAME]
    return puzzles


def endgame_tiles(puzzle: dict[str, Any]) -> int:
    position = Position.from_dict(puzzle["position"])
    return len(position.rack) + len(position.game_context.unseen)


def sample(puzzles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    step = max(1, len(puzzles) // SAMPLE)
    return puzzles[::step][:SAMPLE]


def ids(puzzle: dict[str, Any]) -> str:
    return str(puzzle["id"])


# -- the checks ------------------------------------------------------------------------------------

def check_score(puzzle: dict[str, Any]) -> None:
    """Every legal play by the reference, grouped as ``moves --group`` groups them: the solution is the one group
    of the top score, ahead of every other group by the margin claimed."""
    position = Position.from_dict(puzzle["position"])
    groups: dict[Any, list[ScoredPlay]] = defaultdict(list)
    for scored in reference.legal_plays(position):     # as moves --group: same tiles, same squares, same score
        groups[group_key(scored.play), scored.score].append(scored)
    ranked = sorted(groups.values(), key=lambda group: -group[0].score)
    top, second = ranked[0], ranked[1]
    assert all(scored.score == top[0].score for scored in top)
    assert sorted(position.notation(scored) for scored in top) == puzzle["solution"]
    assert top[0].score == puzzle["score"]
    assert second[0].score == puzzle["second"]["score"] < top[0].score
    assert puzzle["margin"] == top[0].score - second[0].score >= SCORE_MARGIN


def check_endgame(puzzle: dict[str, Any],
                  plays: Callable[[Position], list[ScoredPlay]] = reference.legal_plays) -> None:
    """Every first move played and the rest solved by the reference minimax: the
    solution's moves alone reach the best spread, the margin above every other."""
    position = Position.from_dict(puzzle["position"])
    opponent = position.game_context.unseen
    spreads = []
    for scored in plays(position):
        board = dict(position.board)
        board.update(scored.play.placements)
        left = Counter(position.rack)
        left.subtract(JOKER if tile.joker else tile.card for _, tile in scored.play.placements)
        after = Position(position.layout, position.sets, board, opponent, validate=False)
        spreads.append((scored.score - exact_spread(after, tuple(left.elements()), plays=plays),
                        position.notation(scored)))
    best = max(spread for spread, _ in spreads)
    others = [spread for spread, _ in spreads if spread != best]
    assert sorted(notation for spread, notation in spreads if spread == best) == puzzle["solution"]
    assert best == puzzle["spread"]
    assert puzzle["margin"] == best - max(others) >= ENDGAME_MARGIN
    assert puzzle["second"]["spread"] == max(others)


def check_equity(puzzle: dict[str, Any]) -> None:
    """The solution simulated on top, its interval clear above every other candidate's."""
    leader, *rest = puzzle["candidates"]
    assert leader["notation"] in puzzle["solution"] and leader["interval"] == puzzle["interval"]
    assert rest and rest[0] == puzzle["second"]
    assert all(leader["interval"][0] > other["interval"][1] for other in rest)
    assert all(leader["mean"] > other["mean"] for other in rest)
    assert puzzle["margin"] == round(leader["mean"] - rest[0]["mean"], 3)


# -- the shipped set -------------------------------------------------------------------------------

def test_the_shipped_set_has_500_puzzles_of_every_kind_under_2_mb() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 500
    assert {puzzle["kind"] for puzzle in puzzles} == {"score", "endgame", "equity"}
    assert len({puzzle["id"] for puzzle in puzzles}) == len(puzzles)
    assert SHIPPED.stat().st_size < 2_000_000


def test_every_shipped_puzzle_has_known_themes_and_a_rating_of_whole_steps() -> None:
    for puzzle in shipped():
        assert set(puzzle["themes"]) <= set(THEMES), puzzle["id"]
        assert ("endgame" in puzzle["themes"]) == (puzzle["kind"] == "endgame"), puzzle["id"]
        steps, rest = divmod(puzzle["rating"] - BASE_RATING, STEP)
        assert rest == 0 and 0 <= steps <= 5, puzzle["id"]


def test_every_shipped_position_reads_back_as_best_move_reads_it() -> None:
    for puzzle in shipped():
        position = Position.from_json(json.dumps(puzzle["position"]))
        assert position.to_dict() == puzzle["position"], puzzle["id"]
        plays = [notation for notation in puzzle["solution"] if not notation.startswith("return ")]
        assert all(position.is_legal(notation) for notation in plays), puzzle["id"]


@pytest.mark.parametrize("puzzle", sample(of_kind("score")), ids=ids)
def test_a_shipped_score_puzzle_is_proved_by_the_reference_rules(puzzle: dict[str, Any]) -> None:
    check_score(puzzle)


@pytest.mark.parametrize("puzzle", sample(of_kind("endgame", small=True)), ids=ids)
def test_a_small_shipped_endgame_is_proved_by_the_reference_minimax(puzzle: dict[str, Any]) -> None:
    check_endgame(puzzle)


@pytest.mark.parametrize("puzzle", of_kind("equity"), ids=ids)
def test_a_shipped_equity_puzzle_has_its_solution_clear_on_top(puzzle: dict[str, Any]) -> None:
    check_equity(puzzle)


@pytest.mark.slow
def test_every_shipped_score_puzzle_is_proved_by_the_reference_rules() -> None:
    for puzzle in of_kind("score"):
        check_score(puzzle)


@pytest.mark.slow
def test_every_small_shipped_endgame_is_proved_by_the_reference_minimax() -> None:
    for puzzle in of_kind("endgame", small=True):
        check_endgame(puzzle)


#: endgames too big for the reference rules' play lists: the same minimax over the core's legal plays
MID_ENDGAME = 11


@pytest.mark.slow
def test_every_mid_sized_shipped_endgame_is_proved_by_the_minimax_over_the_core_plays() -> None:
    for puzzle in of_kind("endgame"):
        if SMALL_ENDGAME < endgame_tiles(puzzle) <= MID_ENDGAME:
            check_endgame(puzzle, plays=lambda position: list(position.legal_plays))


@pytest.mark.parametrize("puzzle", sample(shipped())[:3], ids=ids)
def test_a_shipped_rating_is_what_the_levels_give_it_again(puzzle: dict[str, Any]) -> None:
    from ginnyo.puzzles.proving import Puzzle
    from ginnyo.puzzles.rating import rating
    made = Puzzle(puzzle["id"], puzzle["kind"], Position.from_dict(puzzle["position"]), tuple(puzzle["solution"]),
                  puzzle["margin"], tuple(puzzle["themes"]), puzzle["second"])
    assert rating(made) == puzzle["rating"]
