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
    width, height = layout.width, layout.height
    row, col = divmod(square, width)
    r, c = row, col
    while 0 <= r - d_row < height and 0 <= c - d_col < width and occupied((r - d_row) * width + c - d_col):
        r, c = r - d_row, c - d_col
    squares = []
    while 0 <= r < height and 0 <= c < width and ((r, c) == (row, col) or occupied(r * width + c)):
        squares.append(r * width + c)
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
