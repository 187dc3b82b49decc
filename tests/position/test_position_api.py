"""The Position-centric API (docs/API.md): one test per method, error cases
included, in the manner of python-chess's ``Board``."""

from __future__ import annotations

import ast
import json
import pickle
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginnyo
from ginnyo import IllegalMoveError, InvalidMoveError, JOKER, Layout, Play, PlacedTile, Position, PositionError, ScoredPlay
from ginnyo.position import reference
from ginnyo.vocab.tiles import NUM_CARDS, parse_rack_tile

from helpers import play, position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CORPUS = [json.loads(line) for line in (ROOT / "bench" / "corpus-mid.jsonl").read_text().splitlines()]


def example(name: str) -> Position:
    return Position.load(EXAMPLES / f"{name}.json")


# -- loading and writing ---------------------------------------------------

def test_load_reads_a_path_a_file_name_json_text_a_dict_and_a_line_alike() -> None:
    path = EXAMPLES / "extend.json"
    data = json.loads(path.read_text())
    expected = Position.from_dict(data)
    sources: list[Any] = [path, str(path), path.read_text(), data, expected.to_line()]
    assert all(Position.load(source) == expected for source in sources)


def test_load_returns_a_position_it_is_given_as_it_is() -> None:
    given_position = example("extend")
    assert Position.load(given_position) is given_position


@pytest.mark.parametrize("source", [3, None, b"{}", ["15/15 5C"]])
def test_load_refuses_what_is_no_source_with_a_position_error(source: object) -> None:
    with pytest.raises(PositionError, match="^position: cannot load from "):
        Position.load(source)  # type: ignore[arg-type]


def test_from_line_reads_back_what_to_line_writes() -> None:
    for name in ("opening", "extend", "midgame", "no-play", "small-board"):
        original = example(name)
        assert Position.from_line(original.to_line()) == original


def test_to_line_writes_the_options_that_are_not_at_their_defaults() -> None:
    two_sets = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "5H *", sets=2)
    assert two_sets.to_line().endswith(" 5H* sets=2")
    assert " layout=" in example("small-board").to_line()


def test_constructor_reads_a_position_string() -> None:
    line = "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 5C8CKCKD8H5S8SKS"
    assert Position(line) == example("extend")


def test_constructor_still_builds_a_position_from_its_parts() -> None:
    extend = example("extend")
    built = Position(extend.layout, extend.sets, dict(extend.board), list(extend.rack))
    assert built == extend
    assert Position(Layout.standard()) == Position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 -")


def test_constructor_refuses_a_line_given_with_other_arguments() -> None:
    with pytest.raises(PositionError, match="comes alone"):
        Position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 -", 2)  # type: ignore[call-overload]


@pytest.mark.parametrize("arguments, field", [
    ((5,), "layout"),
    ((Layout.standard(), 3), "sets"),
    ((Layout.standard(), True), "sets"),
    ((Layout.standard(), 1, [(112, PlacedTile(4))]), "board"),
    ((Layout.standard(), 1, {-1: PlacedTile(4)}), "board square -1"),
    ((Layout.standard(), 1, {"H8": PlacedTile(4)}), "board square 'H8'"),
    ((Layout.standard(), 1, {112: (4, False)}), "board square 112"),
    ((Layout.standard(), 1, {112: PlacedTile(99)}), "board square 112"),
    ((Layout.standard(), 1, {}, "5C"), "rack"),
    ((Layout.standard(), 1, {}, [99]), "rack tile 99"),
    ((Layout.standard(), 1, {}, ["5C"]), "rack tile '5C'"),
])
def test_constructor_names_an_argument_of_the_wrong_kind(arguments: tuple[Any, ...], field: str) -> None:
    with pytest.raises(PositionError, match=f"^Position: {field}"):
        Position(*arguments)


def test_repr_evaluates_back_to_an_equal_position() -> None:
    for name in ("opening", "extend", "midgame", "no-play", "small-board"):
        original = example(name)
        assert repr(original) == f"Position({original.to_line()!r})"
        assert eval(repr(original), {"Position": Position}) == original


@st.composite
def corpus_positions(draw: st.DrawFn) -> Position:
    """A corpus board with a rack drawn from the tiles it leaves, in its sets or two."""
    data = dict(draw(st.sampled_from(CORPUS)))
    sets = draw(st.sampled_from([data.get("sets", 1), 2]))   # a board of two sets stays in two
    board = Position.from_dict({**data, "rack": ""}).board
    left = Counter({tile: sets for tile in range(NUM_CARDS)} | {JOKER: 2 * sets})
    left.subtract(tile.rack_tile for tile in board.values())
    rack = draw(st.permutations(sorted(left.elements())))[:draw(st.integers(0, 8))]
    return Position(Layout.standard(), sets, board, rack)


@settings(max_examples=40, deadline=None)
@given(corpus_positions())
def test_repr_round_trips_on_generated_positions(generated: Position) -> None:
    assert eval(repr(generated), {"Position": Position}) == generated


# -- a value ---------------------------------------------------------------

def test_equal_positions_hash_alike_and_the_game_context_is_not_compared() -> None:
    plain = example("extend")
    with_context = Position.from_dict({**plain.to_dict(), "players": 2, "scores": [10, 20], "to_move": 1})
    assert with_context == plain and hash(with_context) == hash(plain)
    assert len({plain, with_context, example("opening")}) == 2


def test_a_position_cannot_be_changed() -> None:
    extend = example("extend")
    with pytest.raises(AttributeError, match="does not change"):
        extend.rack = ()
    with pytest.raises(TypeError):
        extend.board[0] = PlacedTile(0)  # type: ignore[index]
    assert extend == example("extend")


def test_a_position_pickles_to_an_equal_position_with_its_context() -> None:
    midgame = Position.from_dict({**example("midgame").to_dict(), "players": 3})
    copy = pickle.loads(pickle.dumps(midgame))
    assert copy == midgame and copy.context == {"players": 3}


# -- notation --------------------------------------------------------------

def test_parse_reads_notation_into_a_play() -> None:
    extend = example("extend")
    assert extend.parse("G7 5C.5S") == play(extend, {"G7": "5C", "G9": "5S"})


@pytest.mark.parametrize("text", ["hello", "8G", "Z!9 5C", "8G ..X", 5])
def test_parse_refuses_bad_syntax_with_an_invalid_move_error(text: Any) -> None:
    with pytest.raises(InvalidMoveError):
        example("extend").parse(text)


def test_parse_refuses_notation_that_does_not_fit_the_board() -> None:
    with pytest.raises(IllegalMoveError, match="covered by 5H"):
        example("extend").parse("8G 5C")


def test_notation_writes_what_parse_reads_for_every_legal_play() -> None:
    small = example("small-board")
    for scored in small.legal_plays:
        assert small.parse(small.notation(scored.play)) == scored.play


def test_notation_accepts_a_scored_play() -> None:
    extend = example("extend")
    best = extend.best_play()
    assert best is not None and extend.notation(best) == extend.notation(best.play) == "D2 KCKDKS"


@pytest.mark.parametrize("placements, message", [
    ({}, "at least one tile"),
    ({"G8": "5C"}, "G8 is already covered"),
    ({"A1": "5C", "C1": "5D"}, "not in one unbroken row or column"),
    ({"A1": "5C", "B2": "5D"}, "not in one unbroken row or column"),
])
def test_notation_refuses_a_play_it_cannot_write(placements: dict[str, str], message: str) -> None:
    extend = example("extend")
    with pytest.raises(IllegalMoveError, match=message):
        extend.notation(play(extend, placements))


# -- legality and scores ---------------------------------------------------

def test_is_legal_is_true_for_every_generated_play_in_any_form() -> None:
    small = example("small-board")
    for scored in small.legal_plays:
        assert small.is_legal(scored) and small.is_legal(scored.play) and small.is_legal(small.notation(scored))


@pytest.mark.parametrize("move", [
    "not a move", "8G ...KD", "F7 5C", "8G 5C", "", 3, None, b"8G ...8H", Play(()),
    Play(((10 ** 30, PlacedTile(0)),)), Play(((True, PlacedTile(0)),)), Play(((0, PlacedTile(99)),)),
    Play(((0, (4, False)),)),  # type: ignore[arg-type]
    Play(((0,),)),  # type: ignore[arg-type]
    Play([(0, PlacedTile(4))]),  # type: ignore[arg-type]
])
def test_is_legal_is_false_never_an_exception_for_what_is_not_a_legal_play(move: Any) -> None:
    assert example("extend").is_legal(move) is False


def test_score_agrees_with_the_reference() -> None:
    midgame = example("midgame")
    for scored in midgame.top_plays(20):
        assert midgame.score(scored.play) == reference.score_play(midgame, scored.play)


def test_score_of_an_illegal_play_raises_illegal_move_error_naming_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match=r"^line G8-J8 \(5H 6H 7H KD\) would not be a meld$"):
        example("extend").score("8G ...KD")


def test_score_refuses_a_square_off_the_board_before_the_core_sees_it() -> None:
    with pytest.raises(IllegalMoveError, match="off the board"):
        example("extend").score(Play(((10 ** 30, PlacedTile(0)),)))


def test_score_of_bad_notation_raises_invalid_move_error() -> None:
    with pytest.raises(InvalidMoveError, match="^move 'hello'"):
        example("extend").score("hello")


def test_apply_returns_a_new_position_with_the_tiles_moved_from_rack_to_board() -> None:
    extend = example("extend")
    after = extend.apply("8G ...8H")
    assert after.board[extend.layout.parse_square("J8")] == PlacedTile(parse_rack_tile("8H"))
    assert Counter(extend.rack) - Counter(after.rack) == Counter([parse_rack_tile("8H")])
    assert extend == example("extend")


def test_apply_takes_a_scored_play() -> None:
    extend = example("extend")
    best = extend.best_play()
    assert best is not None and extend.apply(best) == extend.apply(extend.notation(best))


def test_apply_of_an_illegal_play_raises_illegal_move_error() -> None:
    with pytest.raises(IllegalMoveError, match="no line of three or more"):
        example("extend").apply("F7 5C")


# -- the plays of a position -----------------------------------------------

def test_legal_plays_iterate_best_first() -> None:
    plays = list(example("midgame").legal_plays)
    assert plays and plays == sorted(plays, key=ScoredPlay.sort_key)


def test_best_play_is_the_first_legal_play_or_none() -> None:
    midgame = example("midgame")
    assert midgame.best_play() == next(iter(midgame.legal_plays))
    assert example("no-play").best_play() is None


def test_top_plays_are_the_first_n_legal_plays() -> None:
    opening = example("opening")
    assert opening.top_plays(7) == list(opening.legal_plays)[:7]
    with pytest.raises(ValueError, match="at least 1"):
        opening.top_plays(0)


@pytest.mark.parametrize("rack, expected", [
    ("AS KC 2D *", "AS"),      # an ace costs 15, more than a king
    ("KS QD JC TH", "JC"),     # all cost 10: the lowest card, clubs first
    ("* *", None),             # jokers cost nothing and fit any meld: kept
    ("", None),
])
def test_tile_to_return_is_the_real_tile_that_costs_most(rack: str, expected: str | None) -> None:
    tile = position({}, rack).tile_to_return()
    assert tile == (None if expected is None else parse_rack_tile(expected))


def test_repr_svg_draws_the_board_for_notebooks() -> None:
    from ginnyo.position.render import board_svg
    extend = example("extend")
    assert extend._repr_svg_() == board_svg(extend) and extend._repr_svg_().startswith("<svg")


# -- the package -----------------------------------------------------------

def test_everything_in_all_is_importable_from_ginnyo() -> None:
    assert {"Position", "Play", "ScoredPlay", "Layout", "IllegalMoveError", "InvalidMoveError"} <= set(ginnyo.__all__)
    assert all(hasattr(ginnyo, name) for name in ginnyo.__all__)


def test_every_exception_class_is_defined_in_errors_py() -> None:
    package = ROOT / "python" / "ginnyo"
    defined_elsewhere = []
    for path in sorted(package.rglob("*.py")):
        if path in (package / "errors.py", package / "web" / "http" / "errors.py"):
            continue   # the web's HTTP refusals (a status each) live with the HTTP layer, the only room knowing statuses
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(base, (ast.Name, ast.Attribute)) and ast.unparse(base).endswith(("Error", "Exception"))
                    for base in node.bases):
                defined_elsewhere.append(f"{path.relative_to(package)}: {node.name}")
    assert defined_elsewhere == []

