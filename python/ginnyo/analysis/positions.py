"""Batch analysis of positions (``ginnyo analyze``): the best play by score and
the best action by equity of many positions of one layout, solved in two
compiled batch calls spread over threads, given back as JSON-ready rows.

A position's row::

    {"line": 3, "best": {"notation": "8G ...8H9H", "score": 17},
     "equity": {"kind": "play", "notation": "8G ...8H9H", "score": 17, "leave_value": -2.5, "equity": 14.5}}

``best`` is null when there is no legal play; ``equity`` is the action of
highest equity among every play, every return (while the box has tiles) and,
when there is neither, a pass, as :func:`ginnyo.equity.rank_position` ranks
them (the static ranking: no endgame search).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ..vocab.layout import Layout, column_letter
from ..vocab.tiles import NUM_CARDS, rack_code, tile_code

if TYPE_CHECKING:       # numpy and the core load when a batch is solved, not when the command's parser is built
    import numpy as np
    from ginnyo.native.core import Core
    from numpy.typing import NDArray

    from ..equity.leaves import LeaveModel

#: what is asked of every position: the best play by score, the best action by equity, or both
SCORE, EQUITY, BOTH = "score", "equity", "both"
WANTS = (BOTH, SCORE, EQUITY)
DIGITS = 3          # equities and leave values are written to this many decimals (as best-move --equity --json)


@dataclass(frozen=True)
class Solved:
    """The batch calls' answers for ``n`` positions: the best play by score
    (``scores`` -1 where there is none) and the best action by equity (``kinds``
    as ginnycore.equity gives them), each None when not asked for."""

    best: tuple[NDArray[np.int32], NDArray[np.int16], NDArray[np.int8], NDArray[np.uint8]] | None
    equity: tuple[NDArray[np.int8], NDArray[np.int32], NDArray[np.float64], NDArray[np.int16],
                  NDArray[np.int8], NDArray[np.uint8]] | None


_CORES = threading.local()     # .by_layout: this thread's core of each layout (a call holds its core)


def layout_core(layout: Layout) -> Core:
    """This thread's core of ``layout`` for the batch calls (which copy its board a thread)."""
    cores: dict[Layout, Core] | None = getattr(_CORES, "by_layout", None)
    if cores is None:
        cores = _CORES.by_layout = {}
    core = cores.get(layout)
    if core is None:
        from ..native import empty_core
        core = cores[layout] = empty_core(layout)
    return core


def solve(layout: Layout, boards: NDArray[np.uint8], racks: NDArray[np.uint8], box_sizes: NDArray[np.int32], *,
          want: str = BOTH, threads: int = 1, model: LeaveModel | None = None,
          states: NDArray[np.int64] | None = None) -> Solved:
    """Solve every row: ``boards`` (n, 2 x squares: cards, ``EMPTY_SQUARE`` where
    empty, then joker flags), ``racks`` (n, 53 counts), ``box_sizes`` (n,), the
    game ``states`` (n, 4) of the equity ranking (``LeaveState.as_tuple``; None:
    the default state), on ``threads`` threads (the answers do not depend on how many)."""
    import numpy as np
    from ginnyo.native.core import MAX_PLACED
    from ginnyo.native.core import best_plays_batch
    from ginnyo.native.equity import rank_batch

    from ..equity.rank import compiled_model
    from ..equity.leaves import default_model
    if want not in WANTS:
        raise ValueError(f"want must be one of {', '.join(WANTS)}, not {want!r}")
    n = len(racks)
    core = layout_core(layout)
    best = equity = None
    if want in (BOTH, SCORE):
        best = (np.empty(n, dtype=np.int32), np.empty((n, MAX_PLACED), dtype=np.int16),
                np.empty((n, MAX_PLACED), dtype=np.int8), np.empty((n, MAX_PLACED), dtype=np.uint8))
        best_plays_batch(core, boards, racks, *best, threads)
        if (best[0] < -1).any():        # -2: a thread could not get its memory
            raise MemoryError("the best plays did not fit in memory")
    if want in (BOTH, EQUITY):
        kinds, scores = np.empty((n, 1), dtype=np.int8), np.empty((n, 1), dtype=np.int32)
        values = np.empty((n, 1), dtype=np.float64)
        squares = np.empty((n, 1, MAX_PLACED), dtype=np.int16)
        cards = np.empty((n, 1, MAX_PLACED), dtype=np.int8)
        jokers = np.empty((n, 1, MAX_PLACED), dtype=np.uint8)
        counts = np.empty(n, dtype=np.int32)
        rank_batch(core, compiled_model(model or default_model()), boards, racks, box_sizes,
                   kinds, scores, values, squares, cards, jokers, counts, True, threads, states)
        if (counts < 1).any():
            raise MemoryError("the equity ranking did not fit in memory")
        equity = (kinds[:, 0], scores[:, 0], values[:, 0], squares[:, 0], cards[:, 0], jokers[:, 0])
    return Solved(best, equity)


class Notation:
    """Move notation (docs/FORMAT.md) of the plays of a batch call's rows, read
    straight from the arrays: what :func:`ginnyo.vocab.notation.play_notation` writes
    for a legal play, without building a play or a position a row (the
    analysis's tests check the two agree on a corpus)."""

    def __init__(self, layout: Layout, empty: int) -> None:
        self.width, self.height, self.empty = layout.width, layout.height, empty
        self.codes = [[tile_code(card, joker) for card in range(NUM_CARDS)] for joker in (False, True)]
        self.starts = [[f"{row + 1}{column_letter(col)}" for col in range(self.width)] for row in range(self.height)]
        self.downs = [[f"{column_letter(col)}{row + 1}" for col in range(self.width)] for row in range(self.height)]

    def of(self, board: Sequence[int], squares: Sequence[int], cards: Sequence[int], jokers: Sequence[int]) -> str:
        """The notation of the play placing ``cards`` (``jokers`` flags) on
        ``squares`` (ascending, -1 past the last) on ``board`` (each square's card)."""
        width, empty = self.width, self.empty
        placed = {}
        for square, card, joker in zip(squares, cards, jokers):
            if square < 0:
                break
            placed[square] = self.codes[joker][card]
        first, last = min(placed), max(placed)
        row, col = divmod(first, width)
        if last != first:
            across = last // width == row
        else:       # one tile: along the line where it makes a meld of three or more, across when both do
            left = col
            while left > 0 and board[row * width + left - 1] != empty:
                left -= 1
            right = col
            while right < width - 1 and board[row * width + right + 1] != empty:
                right += 1
            across = right - left >= 2
        step = 1 if across else width
        start = first
        while (start % width > 0 if across else start >= width) and board[start - step] != empty:
            start -= step
        end = first
        limit = row * width + width - 1 if across else (self.height - 1) * width + col
        while end < limit and (board[end + step] != empty or end + step in placed):
            end += step
        spelled = "".join(placed[square] if square in placed else "." for square in range(start, end + 1, step))
        start_row, start_col = divmod(start, width)
        return f"{(self.starts if across else self.downs)[start_row][start_col]} {spelled}"


def best_rows(layout: Layout, board_cards: NDArray[np.uint8], solved: Solved,
              lines: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """A row (``best`` and/or ``equity``, as asked) a position, led by its
    ``line`` when ``lines`` are given; ``board_cards`` (n, squares) are the boards' cards."""
    import numpy as np
    from ginnyo.native.core import EMPTY_SQUARE

    from ..game.actions import PASS_WORD, RETURN_WORD
    from ..equity.rank import COMPILED_PLAY, COMPILED_RETURN
    notation = Notation(layout, EMPTY_SQUARE)
    n = len(board_cards)
    rows: list[dict[str, Any]] = [{} for _ in range(n)] if lines is None else [{"line": line} for line in lines]
    size = board_cards.shape[1]
    flat = np.ascontiguousarray(board_cards, dtype=np.uint8).tobytes()
    boards = [flat[start:start + size] for start in range(0, n * size, size)]
    if solved.best is not None:
        scores, squares, cards, jokers = (array.tolist() for array in solved.best)
        for row, total, row_squares, row_cards, row_jokers, board in zip(rows, scores, squares, cards, jokers,
                                                                          boards):
            row["best"] = None if total < 0 else {
                "notation": notation.of(board, row_squares, row_cards, row_jokers),
                "score": total}
    if solved.equity is not None:
        kinds, scores, values, squares, cards, jokers = (array.tolist() for array in solved.equity)
        for row, kind, total, value, row_squares, row_cards, row_jokers, board in zip(
                rows, kinds, scores, values, squares, cards, jokers, boards):
            if kind == COMPILED_PLAY:
                text = notation.of(board, row_squares, row_cards, row_jokers)
            elif kind == COMPILED_RETURN:
                text = " ".join([RETURN_WORD, *(rack_code(card) for card in sorted(row_cards) if card >= 0)])
            else:
                text = PASS_WORD
            row["equity"] = equity_json(kind, text, total, value)
    return rows


def equity_json(kind: int, notation: str, score: int, value: float) -> dict[str, Any]:
    """An action with its equity, as a row writes it (``kind`` as ginnycore.equity gives it)."""
    from ..equity.rank import COMPILED_PLAY, COMPILED_RETURN, PASS_KIND, PLAY, RETURN
    name = PLAY if kind == COMPILED_PLAY else RETURN if kind == COMPILED_RETURN else PASS_KIND
    return {"kind": name, "notation": notation, "score": score, "leave_value": round(value, DIGITS),
            "equity": round(score + value, DIGITS)}


def row_json(row: dict[str, Any]) -> str:
    """A position's row as one line of JSON, exactly as ``json.dumps`` writes it,
    several times faster: written directly, as nothing in it needs escaping
    (notation is letters, digits, dots, spaces and ``*``)."""
    parts = [f'{{"line": {row["line"]}']
    if "best" in row:
        best = row["best"]
        parts.append(', "best": null' if best is None else
                     f', "best": {{"notation": "{best["notation"]}", "score": {best["score"]}}}')
    if "equity" in row:
        action = row["equity"]
        parts.append(f', "equity": {{"kind": "{action["kind"]}", "notation": "{action["notation"]}", '
                     f'"score": {action["score"]}, "leave_value": {action["leave_value"]!r}, '
                     f'"equity": {action["equity"]!r}}}')
    parts.append("}")
    return "".join(parts)


def analyze_arrays(arrays: Any, *, want: str = BOTH, threads: int = 1) -> list[dict[str, Any]]:
    """The rows of a :class:`ginnyo.bulk.PositionArrays`, each led by its ``line``."""
    import numpy as np
    if not len(arrays):
        return []
    boards = np.ascontiguousarray(np.concatenate((arrays.cards, arrays.jokers), axis=1), dtype=np.uint8)
    racks = np.ascontiguousarray(arrays.racks, dtype=np.uint8)
    box_sizes = np.ascontiguousarray(arrays.box_sizes, dtype=np.int32)
    states = np.ascontiguousarray(arrays.states()) if want != SCORE else None
    solved = solve(arrays.layout, boards, racks, box_sizes, want=want, threads=threads, states=states)
    return best_rows(arrays.layout, arrays.cards, solved, arrays.lines.tolist())


__all__ = ["Solved", "solve", "best_rows", "analyze_arrays", "equity_json", "Notation", "row_json",
           "layout_core", "WANTS", "SCORE", "EQUITY", "BOTH"]
