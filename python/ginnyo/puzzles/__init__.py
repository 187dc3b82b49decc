"""Puzzles: decisions of real or seeded games where one play is provably the best by
a margin (docs/PUZZLES.md): finding them in games (finding), their proofs by kind
(proving), their themes (themes) and their starting ratings (rating).

The names below are those of its modules; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .finding import Budget, make_puzzles, puzzle_lines, record_puzzles
    from .proving import KINDS, Puzzle, prove_endgame, prove_equity, prove_score
    from .rating import rating
    from .themes import THEMES

__all__ = ["Budget", "KINDS", "Puzzle", "THEMES", "make_puzzles", "prove_endgame", "prove_equity", "prove_score",
           "puzzle_lines", "rating", "record_puzzles"]

__getattr__ = lazy_names(__name__, {
    "finding": ["Budget", "make_puzzles", "puzzle_lines", "record_puzzles"],
    "proving": ["KINDS", "Puzzle", "prove_endgame", "prove_equity", "prove_score"],
    "rating": ["rating"], "themes": ["THEMES"]})
