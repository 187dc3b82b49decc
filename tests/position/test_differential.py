"""The compiled core against the plain-Python reference on positions from seeded
games: the same legal plays, scores and melds (like perft in chess engines).

By default a slice of the corpus runs; GINNYO_FULL_CORPUS=1 (set by CI) runs
2 000 positions.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from functools import cache

import pytest

from helpers import FULL_CORPUS
from ginnyo import native
from ginnyo.position import reference
from ginnyo.vocab.board import groups
from ginnyo.selfplay.corpus import sample_positions, stage_of
from ginnyo.vocab.play import ScoredPlay
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import JOKER

CORPUS_SIZE = 2000 if FULL_CORPUS else 160
CHUNKS = 8


@cache
def _corpus() -> list[Position]:
    return sample_positions(CORPUS_SIZE, seed=2026)


def _compare(position_json: str) -> str | None:
    """None when the core agrees with the reference on this position, else why not."""
    position = Position.from_json(position_json)
    expected = {(s.play, s.score, s.melds) for s in reference.legal_plays(position)}
    generated = native.legal_plays(position)
    found = {(s.play, s.score, s.melds) for s in generated}
    if len(found) != len(generated):
        return f"core generated duplicates: {position_json}"
    if found != expected:
        return (f"{len(expected - found)} plays only in the reference, {len(found - expected)} only"
                f" in the core: {position_json}")
    best = native.best_play(position)
    ranked = sorted(generated, key=ScoredPlay.sort_key)
    if (best is None) != (not ranked) or (best and best.play != ranked[0].play):
        return f"best play differs: {position_json}"
    return None


def test_corpus_covers_what_the_differential_test_needs() -> None:
    corpus = _corpus()
    assert len(corpus) == CORPUS_SIZE
    assert {p.sets for p in corpus} == {1, 2}
    assert {stage_of(len(p.board), p.sets) for p in corpus} == {"early", "mid", "late"}
    assert any(t.joker for p in corpus for t in p.board.values())
    assert any(JOKER in p.rack for p in corpus)
    assert any(len(groups(p.layout, p.board)) >= 3 for p in corpus)
    assert any(not p.board for p in corpus)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_core_generates_exactly_the_reference_plays(chunk: int) -> None:
    corpus = [p.to_json() for p in _corpus()[chunk::CHUNKS]]
    with ProcessPoolExecutor(max_workers=2) as pool:
        problems = [problem for problem in pool.map(_compare, corpus, chunksize=4) if problem]
    assert not problems, "\n".join(problems[:5])


def _odd_layout(width: int, height: int, seed: int) -> list[str]:
    """A layout of any size: the centre, a few red start squares and premiums."""
    rng = random.Random(seed)
    rows = [[rng.choice("....YGB") for _ in range(width)] for _ in range(height)]
    for _ in range(max(1, width * height // 60)):
        rows[rng.randrange(height)][rng.randrange(width)] = "R"
    rows[height // 2][width // 2] = "S"
    return ["".join(row) for row in rows]


@pytest.mark.parametrize("width,height", [(5, 5), (9, 7), (13, 17), (21, 21), (26, 26)])
def test_core_agrees_with_the_reference_on_other_board_sizes(width: int, height: int) -> None:
    """Rows that do not start on a 64-square (or 8-square) boundary, boards up to
    the largest the core takes: positions from a seeded game on each."""
    from ginnyo.game.game import Game, play_game
    from ginnyo.vocab.layout import Layout
    from ginnyo.players.players import RandomOrBestPlayer

    layout = Layout.from_rows(_odd_layout(width, height, seed=width * 100 + height))
    positions: list[Position] = []
    for seed in range(3):       # games between random players can stall early
        game = Game.deal(2, seed=width * height + seed, layout=layout)
        play_game(game, [RandomOrBestPlayer(game.rng)] * 2,
                  on_decision=lambda view: positions.append(view.position))
    assert any(len(p.board) >= min(12, width * height // 8) for p in positions)
    for position in positions[::max(1, len(positions) // 12)]:
        assert _compare(position.to_json()) is None
