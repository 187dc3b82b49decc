"""A puzzle's themes: a fixed vocabulary of what its solution does, read from the play itself
(docs/PUZZLES.md lists them)."""

from __future__ import annotations

from ..vocab.melds import RUN, SET
from ..vocab.play import ScoredPlay
from ..position.position import Position

#: every theme, in the order a puzzle lists them
THEMES = ("joker", "set", "run", "crossing", "long-play", "double-tile", "triple-tile", "double-meld",
          "triple-meld", "below-top-score", "return", "endgame", "going-out")
#: the premium square kinds of docs/RULES.md §3 (the layout's letters), by theme
PREMIUM_THEMES = {"Y": "double-tile", "G": "triple-tile", "R": "double-meld", "B": "triple-meld"}
#: a play of this many tiles or more is a long play
LONG_PLAY = 5


def play_themes(position: Position, scored: ScoredPlay) -> set[str]:
    """What a play does: a joker placed, the kinds of meld it makes or extends,
    two melds or more at once (crossing), five tiles or more, the premium squares it covers."""
    themes = set()
    placements = scored.play.placements
    if any(tile.joker for _, tile in placements):
        themes.add("joker")
    kinds = {meld.kind for meld in scored.melds}
    themes.update(kind for kind in (SET, RUN) if kind in kinds)
    if len(scored.melds) >= 2:
        themes.add("crossing")
    if len(placements) >= LONG_PLAY:
        themes.add("long-play")
    squares = position.layout.kinds
    themes.update(PREMIUM_THEMES[squares[square]] for square, _ in placements if squares[square] in PREMIUM_THEMES)
    return themes


def ordered(themes: set[str]) -> list[str]:
    """``themes`` in the vocabulary's order."""
    return [theme for theme in THEMES if theme in themes]


__all__ = ["LONG_PLAY", "PREMIUM_THEMES", "THEMES", "ordered", "play_themes"]
