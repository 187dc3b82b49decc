"""The bridge to the compiled core: a :class:`Position` in C, plays back as objects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from ginnycore import Core, Cores

from .layout import Layout
from .melds import RUN, SET
from .play import MeldScore, Play, ScoredPlay
from .position_fields import PositionFields as Position  # not position.py, which imports this module
from .tiles import JOKER, PlacedTile

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

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
    for rack_tile in position.rack:
        rack[rack_tile] += 1
    return bytes(cards), bytes(jokers), bytes(rack)


def empty_core(layout: Layout) -> Core:
    """A core of ``layout`` with an empty board and rack."""
    return Core(layout.width, layout.height, *layout.core_premiums)


def core_of(position: Position) -> Core:
    """A core loaded with ``position``."""
    core = empty_core(position.layout)
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


def _generated(core: Core, position: Position, placements: tuple[tuple[int, int, bool], ...]) -> ScoredPlay:
    """A play the core generated, scored with its melds."""
    scored = score(core, position, to_play(placements))
    assert scored is not None, "the core generated a play it cannot score"
    return scored


def legal_plays(position: Position) -> list[ScoredPlay]:
    """Every legal play with its melds, in generation order."""
    core = core_of(position)
    return [_generated(core, position, placements) for _, placements in core.legal_plays()]


def ranked_moves(position: Position, limit: int | None = None) -> Iterator[tuple[int, Play]]:
    """``(score, play)`` of the legal plays in ranking order (at most ``limit``),
    generated in the core in bounded passes (``Core.ranked_plays``): memory
    stays bounded however many plays there are.  No melds: for listings."""
    plays = core_of(position).ranked_plays(limit)     # checks limit now, not at the first play
    return ((total, to_play(placements)) for total, placements in plays)


def ranked_plays(position: Position, limit: int | None = None) -> Iterator[ScoredPlay]:
    """The legal plays with their melds in ranking order (at most ``limit``),
    one at a time, as :func:`ranked_moves` generates them."""
    core = core_of(position)
    return (_generated(core, position, placements) for _, placements in core.ranked_plays(limit))


def top_plays(position: Position, n: int) -> list[ScoredPlay]:
    """The ``n`` best legal plays (fewer when there are fewer), best first,
    kept during generation in a heap of at most ``n`` records in C."""
    core = core_of(position)
    return [_generated(core, position, placements) for _, placements in core.top_plays(n)]


def best_play(position: Position) -> ScoredPlay | None:
    core = core_of(position)
    found = core.best_play()
    if found is None:
        return None
    return score(core, position, to_play(found[1]))


class Batch:
    """Many positions of one layout packed for the core: solved in one call,
    spread over several cores.  ``best_plays()`` returns the raw arrays;
    :func:`best_plays_batch` turns them into :class:`ScoredPlay` objects."""

    def __init__(self, positions: Sequence[Position]) -> None:
        import numpy as np
        if not positions:
            raise ValueError("a batch needs at least one position")
        self.layout = positions[0].layout
        if any(p.layout != self.layout for p in positions):
            raise ValueError("every position of a batch must have the same layout")
        size = self.layout.size
        self.boards = np.empty((len(positions), 2 * size), dtype=np.uint8)
        self.racks = np.empty((len(positions), JOKER + 1), dtype=np.uint8)
        for row, position in enumerate(positions):
            cards, jokers, rack = encode(position)
            self.boards[row, :size] = np.frombuffer(cards, dtype=np.uint8)
            self.boards[row, size:] = np.frombuffer(jokers, dtype=np.uint8)
            self.racks[row] = np.frombuffer(rack, dtype=np.uint8)
        self._core = empty_core(self.layout)

    def __len__(self) -> int:
        return len(self.racks)

    def best_plays(self, threads: int = 1, seconds: NDArray[np.float64] | None = None
                   ) -> tuple[NDArray[np.int32], NDArray[np.int16], NDArray[np.int8], NDArray[np.uint8]]:
        """``(scores, squares, cards, jokers)`` arrays; a score of -1 means no play.
        ``threads``: 1 or more (at most one a processor is started).  With ``seconds`` (a float64 array, one a position), each position's time
        in the core (load, prepare, search) is written there."""
        import numpy as np
        from ginnycore.core import best_plays_batch
        n = len(self)
        scores = np.empty(n, dtype=np.int32)
        squares = np.empty((n, 14), dtype=np.int16)
        cards = np.empty((n, 14), dtype=np.int8)
        jokers = np.empty((n, 14), dtype=np.uint8)
        best_plays_batch(self._core, self.boards, self.racks, scores, squares, cards, jokers, threads, seconds)
        return scores, squares, cards, jokers


def best_plays_batch(positions: Sequence[Position], threads: int = 1) -> list[ScoredPlay | None]:
    """The best play of every position (None where there is none), in one core
    call on ``threads`` threads (1 or more; at most one a processor is started)."""
    scores, squares, cards, jokers = Batch(positions).best_plays(threads)
    result: list[ScoredPlay | None] = []
    for row, position in enumerate(positions):
        if scores[row] < 0:
            result.append(None)
            continue
        placements = tuple((int(s), int(c), bool(j)) for s, c, j in zip(squares[row], cards[row], jokers[row])
                           if s >= 0)
        scored = score(core_of(position), position, to_play(placements))
        assert scored is not None, "the core found a play it cannot score"
        result.append(ScoredPlay(to_play(placements), int(scores[row]), scored.melds))
    return result


__all__ = ["Batch", "Core", "Cores", "best_play", "best_plays_batch", "core_of", "empty_core", "encode",
           "legal_plays", "melds_of", "ranked_moves", "ranked_plays", "score", "to_play", "top_plays"]
