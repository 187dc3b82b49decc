"""The bridge to the compiled core: a :class:`Position` into C, plays back as objects in one call.

Each operation loads the position once (into this thread's core for the
layout) and makes one core call, which hands back every play already built as
:class:`ScoredPlay` with its melds (``ginnycore.PlayMaker``): no play is
scored twice and none is converted in Python.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Iterator, Sequence

from ginnycore import EMPTY_SQUARE, KIND_RUN, KIND_SET, MAX_MELDS, MAX_PLACED, RACK_KINDS, Core, Cores, PlayMaker

from ..vocab.layout import Layout
from ..vocab.melds import RUN, SET
from ..vocab.play import MeldScore, Play, ScoredPlay
from ..vocab.fields import PositionFields as Position  # not position.py, which imports this module
from ..vocab.tiles import PlacedTile

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_KIND_NAMES = {KIND_SET: SET, KIND_RUN: RUN}
MAKER = PlayMaker(ScoredPlay, Play, MeldScore, PlacedTile, [_KIND_NAMES.get(kind) for kind in range(KIND_RUN + 1)])
_LAYOUT_KINDS: dict[Layout, bytes] = {}
_SCRATCH = threading.local()    # .core: this thread's core, of .layout, holding .position (or None)


def _kinds(layout: Layout) -> bytes:
    kinds = _LAYOUT_KINDS.get(layout)
    if kinds is None:
        kinds = _LAYOUT_KINDS[layout] = layout.kinds.encode("ascii")
    return kinds


def encode(position: Position) -> tuple[bytes, bytes, bytes]:
    """Board cards, joker flags and rack counts as the core's ``load`` takes them."""
    from .encoding import encode_board, encode_rack
    return (*encode_board(position.layout.size, position.board), bytes(encode_rack(position.rack)))


def empty_core(layout: Layout) -> Core:
    """A core of ``layout`` with an empty board and rack."""
    return Core(layout.width, layout.height, *layout.core_premiums)


def core_of(position: Position) -> Core:
    """A new core loaded with ``position``, the caller's to keep."""
    core = empty_core(position.layout)
    core.load_tiles(position.board, position.rack)
    return core


def _loaded(position: Position) -> Core:
    """This thread's core for ``position``'s layout, loaded with it: for one
    operation, which is done with it before the next loads it (an iterator of
    ranked plays works on its own copy of the board).  No operation here
    changes the core's board or rack, so the same :class:`Position` (a value:
    ``IMMUTABLE``) asked for twice in a row (``len(view)`` then ``list(view)``,
    or a count then the best play) is loaded once."""
    core: Core | None = getattr(_SCRATCH, "core", None)
    if core is None or _SCRATCH.layout != position.layout:
        core = _SCRATCH.core = empty_core(position.layout)
        _SCRATCH.layout = position.layout
        _SCRATCH.position = None
    elif _SCRATCH.position is position:
        return core
    _SCRATCH.position = None        # not loaded until load_tiles has succeeded
    core.load_tiles(position.board, position.rack)
    if getattr(position, "IMMUTABLE", False):
        _SCRATCH.position = position
    return core


def to_play(placements: tuple[tuple[int, int, bool], ...]) -> Play:
    return Play(tuple((square, PlacedTile(card, joker)) for square, card, joker in placements))


def melds_of(position: Position, melds: list[tuple[int, int, int, int, int]]) -> tuple[MeldScore, ...]:
    """The core's ``(direction, first, length, kind, score)`` melds as objects."""
    width = position.layout.width
    result = []
    for direction, first, length, kind, score in sorted(melds, key=lambda m: (m[0], m[1])):
        step = 1 if direction == 0 else width
        squares = tuple(first + i * step for i in range(length))
        result.append(MeldScore(_KIND_NAMES[kind], squares, score))
    return tuple(result)


def judge_play(position: Position, play: Play) -> ScoredPlay | tuple[int, tuple[int, int, int]]:
    """``play`` checked and scored in one call of this thread's core loaded with
    ``position`` (``Core.judge_play``): the :class:`ScoredPlay`, or the core's code
    of the first rule it breaks and three ints saying where, for
    :func:`ginnyo.vocab.illegal.reason` to word.  Its squares and cards must fit
    the core's C types (:func:`ginnyo.vocab.illegal.out_of_range`)."""
    placements = sorted(play.placements)
    squares = [square for square, _ in placements]
    cards = [tile.card for _, tile in placements]
    jokers = [tile.joker for _, tile in placements]
    scored, detail = _loaded(position).judge_play(squares, cards, jokers, MAKER)
    if isinstance(scored, ScoredPlay):
        return scored
    assert detail is not None
    return scored, detail


def legal_plays(position: Position) -> list[ScoredPlay]:
    """Every legal play with its melds, best first (:meth:`ScoredPlay.sort_key`,
    ranked in C)."""
    return _loaded(position).legal_plays(ranked=True, make=MAKER)


def legal_plays_upto(position: Position, limit: int) -> list[ScoredPlay] | None:
    """:func:`legal_plays`, or None when there are more than ``limit`` (the
    core stops generating at the first play over it: memory stays O(limit))."""
    return _loaded(position).legal_plays(ranked=True, make=MAKER, limit=limit)


def count_plays(position: Position) -> int:
    """How many legal plays ``position`` has, counted in C (none is stored)."""
    return int(_loaded(position).count_plays())


def has_play(position: Position) -> bool:
    """Whether ``position`` has a legal play; generation stops at the first."""
    return bool(_loaded(position).has_play())


def ranked_moves(position: Position, limit: int | None = None) -> Iterator[tuple[int, Play]]:
    """``(score, play)`` of the legal plays in ranking order (at most ``limit``),
    generated in the core in bounded passes (``Core.ranked_plays``): memory
    stays bounded however many plays there are.  No melds: for listings."""
    plays = _loaded(position).ranked_plays(limit)     # checks limit now, not at the first play
    return ((total, to_play(placements)) for total, placements in plays)


def ranked_plays(position: Position, limit: int | None = None) -> Iterator[ScoredPlay]:
    """The legal plays with their melds in ranking order (at most ``limit``),
    one at a time, as :func:`ranked_moves` generates them."""
    return _loaded(position).ranked_plays(limit, make=MAKER)


def top_plays(position: Position, n: int) -> list[ScoredPlay]:
    """The ``n`` best legal plays (fewer when there are fewer), best first,
    kept during generation in a heap of at most ``n`` records in C."""
    return _loaded(position).top_plays(n, make=MAKER)


def best_play(position: Position) -> ScoredPlay | None:
    """The best legal play with its melds, or None."""
    return _loaded(position).best_play(make=MAKER)


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
        self.racks = np.empty((len(positions), RACK_KINDS), dtype=np.uint8)
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
        return self._solve(threads, seconds, None)

    def best_plays_with_melds(self, threads: int = 1) -> tuple[
            NDArray[np.int32], NDArray[np.int16], NDArray[np.int8], NDArray[np.uint8], NDArray[np.int32]]:
        """:meth:`best_plays` and the melds of each best play, scored in the
        same core call: an int32 array (positions, MAX_MELDS, 5) of
        ``(direction, first square, length, kind, score)``, unused rows -1."""
        import numpy as np
        melds = np.empty((len(self), MAX_MELDS, 5), dtype=np.int32)
        return (*self._solve(threads, None, melds), melds)

    def _solve(self, threads: int, seconds: NDArray[np.float64] | None, melds: NDArray[np.int32] | None
               ) -> tuple[NDArray[np.int32], NDArray[np.int16], NDArray[np.int8], NDArray[np.uint8]]:
        import numpy as np
        from ginnycore.core import best_plays_batch
        n = len(self)
        scores = np.empty(n, dtype=np.int32)
        squares = np.empty((n, MAX_PLACED), dtype=np.int16)
        cards = np.empty((n, MAX_PLACED), dtype=np.int8)
        jokers = np.empty((n, MAX_PLACED), dtype=np.uint8)
        best_plays_batch(self._core, self.boards, self.racks, scores, squares, cards, jokers, threads, seconds,
                         melds)
        return scores, squares, cards, jokers


def best_plays_batch(positions: Sequence[Position], threads: int = 1) -> list[ScoredPlay | None]:
    """The best play of every position (None where there is none), with its
    melds, from one core call on ``threads`` threads (1 or more; at most one a
    processor is started)."""
    scores, squares, cards, jokers, melds = Batch(positions).best_plays_with_melds(threads)
    result: list[ScoredPlay | None] = []
    for position, total, row_squares, row_cards, row_jokers, row_melds in zip(
            positions, scores.tolist(), squares.tolist(), cards.tolist(), jokers.tolist(), melds.tolist()):
        if total < 0:
            result.append(None)
            continue
        play = Play(tuple((square, PlacedTile(card, bool(joker)))
                          for square, card, joker in zip(row_squares, row_cards, row_jokers) if square >= 0))
        found = melds_of(position, [tuple(meld) for meld in row_melds if meld[0] >= 0])
        result.append(ScoredPlay(play, total, found))
    return result


__all__ = ["Batch", "Core", "Cores", "MAKER", "best_play", "best_plays_batch", "core_of", "count_plays", "empty_core",
           "encode", "has_play", "judge_play",
           "legal_plays", "melds_of", "ranked_moves", "ranked_plays", "to_play",
           "top_plays"]
