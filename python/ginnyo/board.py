"""Lines and groups of tiles on a board: the geometry the rules are stated in."""

from __future__ import annotations

from typing import Callable, Iterable

from .layout import Layout

ACROSS = "across"
DOWN = "down"
DIRECTIONS = (ACROSS, DOWN)


def step_of(layout: Layout, direction: str) -> tuple[int, int]:
    """(row step, column step) of a reading direction."""
    return (0, 1) if direction == ACROSS else (1, 0)


def line_through(layout: Layout, occupied: Callable[[int], bool], square: int,
                 direction: str) -> list[int]:
    """The maximal run of occupied squares through ``square`` along ``direction``,
    in reading order (``square`` itself counts as occupied)."""
    d_row, d_col = step_of(layout, direction)
    row, col = divmod(square, layout.width)

    def inside(r: int, c: int) -> bool:
        return 0 <= r < layout.height and 0 <= c < layout.width

    r, c = row, col
    while inside(r - d_row, c - d_col) and occupied((r - d_row) * layout.width + c - d_col):
        r, c = r - d_row, c - d_col
    squares = []
    while inside(r, c) and ((r, c) == (row, col) or occupied(r * layout.width + c)):
        squares.append(r * layout.width + c)
        r, c = r + d_row, c + d_col
    return squares


def all_lines(layout: Layout, squares: Iterable[int]) -> list[list[int]]:
    """Every maximal line of two or more tiles among ``squares``, rows then columns."""
    occupied = set(squares)
    lines = []
    for direction in DIRECTIONS:
        seen: set[int] = set()
        for square in sorted(occupied):
            if square in seen:
                continue
            line = line_through(layout, occupied.__contains__, square, direction)
            seen.update(line)
            if len(line) >= 2:
                lines.append(line)
    return lines


def groups(layout: Layout, squares: Iterable[int]) -> list[set[int]]:
    """Connected groups (orthogonal adjacency) of the occupied squares."""
    occupied = set(squares)
    result = []
    seen: set[int] = set()
    for start in sorted(occupied):
        if start in seen:
            continue
        group = {start}
        frontier = [start]
        while frontier:
            square = frontier.pop()
            for neighbour in layout.neighbours(square):
                if neighbour in occupied and neighbour not in group:
                    group.add(neighbour)
                    frontier.append(neighbour)
        seen |= group
        result.append(group)
    return result
