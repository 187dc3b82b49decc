"""The bridge to the compiled core: a :class:`Position` in C, plays back as objects."""

from __future__ import annotations

from ginnycore import Core

from .layout import Layout
from .melds import RUN, SET
from .play import MeldScore, Play, ScoredPlay
from .position import Position
from .tiles import JOKER, PlacedTile

EMPTY_BYTE = 255
_KIND_NAMES = {1: SET, 2: RUN}
_LAYOUT_KINDS: dict[Layout, bytes] = {}


def _kinds(layout: Layout) -> bytes:
    kinds = _LAYOUT_KINDS.get(layout)
    if kinds is None:
        kinds = _LAYOUT_KINDS[layout] = layout.kinds.encode("ascii")
    return kinds


def encode(position: Position) -> tuple[bytes, bytes, bytes]:
    """Board cards, joker flags and rack counts as the core's ``load`` takes them."""
    size = position.layout.size
    cards = bytearray([EMPTY_BYTE]) * size
    jokers = bytearray(size)
    for square, tile in position.board.items():
        cards[square] = tile.card
        jokers[square] = tile.joker
    rack = bytearray(JOKER + 1)
    for tile in position.rack:
        rack[tile] += 1
    return bytes(cards), bytes(jokers), bytes(rack)


def core_of(position: Position) -> Core:
    """A core loaded with ``position``."""
    layout = position.layout
    core = Core(layout.width, layout.height, _kinds(layout))
    core.load(*encode(position))
    return core


def to_play(placements: tuple[tuple[int, int, bool], ...]) -> Play:
    return Play(tuple((square, PlacedTile(card, joker)) for square, card, joker in placements))


def melds_of(position: Position, melds: list[tuple[int, int, int, int, int]]) -> tuple[MeldScore, ...]:
    width = position.layout.width
    result = []
    for direction, first, length, kind, score in sorted(melds, key=lambda m: (m[0], m[1])):
        step = 1 if direction == 0 else width
        squares = tuple(first + i * step for i in range(length))
        result.append(MeldScore(_KIND_NAMES[kind], squares, score))
    return tuple(result)


def score(core: Core, position: Position, play: Play) -> ScoredPlay | None:
    """The scored play, or None when the core finds it illegal."""
    squares = [square for square, _ in play.placements]
    cards = [tile.card for _, tile in play.placements]
    jokers = [tile.joker for _, tile in play.placements]
    total, melds = core.score_play(squares, cards, jokers)
    if melds is None:
        return None
    return ScoredPlay(play, total, melds_of(position, melds))


def legal_plays(position: Position) -> list[ScoredPlay]:
    """Every legal play with its melds, in generation order."""
    core = core_of(position)
    result = []
    for _, placements in core.legal_plays():
        play = to_play(placements)
        scored = score(core, position, play)
        assert scored is not None, "the core generated a play it cannot score"
        result.append(scored)
    return result


def best_play(position: Position) -> ScoredPlay | None:
    core = core_of(position)
    found = core.best_play()
    if found is None:
        return None
    return score(core, position, to_play(found[1]))
