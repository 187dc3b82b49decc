"""Position.legal_plays: a lazy view that iterates, tests membership, counts and
answers truthiness like python-chess's ``Board.legal_moves``."""

from __future__ import annotations

from pathlib import Path

from ginnyo import native, solver
from ginnyo.position.legal import LegalPlays
from ginnyo.vocab.notation import play_notation
from ginnyo.position.position import Position
from ginnyo.solver import load_position

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> Position:
    return load_position(EXAMPLES / name)


def test_legal_plays_property_returns_a_view_of_the_position() -> None:
    position = example("extend.json")
    view = position.legal_plays
    assert isinstance(view, LegalPlays)
    assert view.position is position


def test_iterating_yields_every_legal_play_best_first() -> None:
    position = example("extend.json")
    assert list(position.legal_plays) == solver.legal_plays(position)


def test_len_and_count_equal_the_number_of_plays_iterated() -> None:
    for name in ("opening.json", "extend.json", "small-board.json", "no-play.json"):
        view = example(name).legal_plays
        assert len(view) == view.count() == len(list(view))


def test_count_matches_the_core_on_corpus_positions() -> None:
    from ginnyo.selfplay import corpus
    for position in corpus.sample_positions(5, seed=1):
        assert position.legal_plays.count() == native.core_of(position).count_plays()


def test_view_is_true_when_there_is_a_play() -> None:
    assert example("extend.json").legal_plays


def test_view_is_false_when_there_is_no_play() -> None:
    view = example("no-play.json").legal_plays
    assert not view
    assert list(view) == []
    assert view.best() is None


def test_best_is_the_first_play_iterated() -> None:
    view = example("midgame.json").legal_plays
    assert view.best() == next(iter(view))


def test_every_generated_play_is_in_the_view() -> None:
    position = example("small-board.json")
    view = position.legal_plays
    for scored in view:
        assert scored.play in view
        assert play_notation(position, scored.play) in view


def test_illegal_play_in_notation_is_not_in_the_view() -> None:
    # a lone 5C beside the 5H-6H-7H run: well-formed, but no meld
    assert "F7 5C" not in example("extend.json").legal_plays


def test_bad_notation_is_not_in_the_view() -> None:
    assert "not a move" not in example("extend.json").legal_plays


def test_objects_that_are_not_plays_are_not_in_the_view() -> None:
    view = example("extend.json").legal_plays
    assert 3 not in view
    assert None not in view


def test_view_follows_the_position_after_a_play() -> None:
    position = example("extend.json")
    best = position.legal_plays.best()
    assert best is not None
    after = solver.apply_play(position, best.play)
    assert after.legal_plays.count() == native.core_of(after).count_plays()
    assert after.legal_plays.count() != position.legal_plays.count()


def test_repr_says_how_many_plays() -> None:
    assert repr(example("no-play.json").legal_plays) == "<LegalPlays: 0 plays>"
