"""Pictures of a position: the board as terminal text or as a standalone SVG image."""

from __future__ import annotations

from typing import Iterable

from ..vocab.layout import column_letter
from ..vocab.fields import PositionFields
from ..vocab.tiles import JOKER, RANKS, SUITS, PlacedTile, card, rack_code, rank_of, suit_of

# Square kind -> (name, what covering it does), in docs/RULES.md §3 order.
KINDS = {
    ".": ("plain", "plain"),
    "Y": ("yellow", "tile ×2"),
    "G": ("green", "tile ×3"),
    "R": ("red", "start, meld ×2"),
    "B": ("blue", "meld ×3"),
    "S": ("centre", "centre"),
}
RED_SUITS = (SUITS.index("D"), SUITS.index("H"))

# -- terminal ---------------------------------------------------------------

# ANSI 256-colour (background, foreground) per square kind.
TEXT_COLOURS = {".": (187, 241), "Y": (220, 16), "G": (70, 16), "R": (160, 231), "B": (33, 231),
                "S": (124, 231)}
TEXT_TILE, TEXT_JOKER, TEXT_RED, TEXT_BLACK = 231, 183, 160, 16
EXAMPLE_JOKER = PlacedTile(card(5, SUITS.index("H")), True)


def board_text(position: PositionFields, *, color: bool) -> str:
    """The board for a terminal: coordinates, one 3-character cell per square, rack, legend.

    Empty squares show their kind (``·`` for plain), tiles their code; a joker is
    written ``*5h``.  With ``color`` squares and tiles get ANSI colours.
    """
    layout = position.layout
    lines = ["   " + "".join(f" {column_letter(col)} " for col in range(layout.width))]
    for row in range(layout.height):
        cells = []
        for square in range(row * layout.width, (row + 1) * layout.width):
            tile = position.board.get(square)
            cells.append(_tile_cell(tile, color) if tile else _kind_cell(layout.kinds[square], color))
        lines.append(f"{row + 1:>2} " + "".join(cells))
    rack = " ".join(_rack_cell(tile, color) for tile in position.rack) or "(empty)"
    legend = "  ".join(f"{_kind_cell(kind, color)}{effect}" for kind, (_, effect) in KINDS.items())
    lines += ["", f"rack  {rack}", f"{legend}  {_tile_cell(EXAMPLE_JOKER, color)} joker as 5H"]
    return "\n".join(line.rstrip() for line in lines)


def _paint(text: str, background: int, foreground: int) -> str:
    return f"\x1b[1;48;5;{background};38;5;{foreground}m{text}\x1b[0m"


def _suit_colour(card_id: int) -> int:
    return TEXT_RED if suit_of(card_id) in RED_SUITS else TEXT_BLACK


def _kind_cell(kind: str, color: bool) -> str:
    text = f" {'·' if kind == '.' else kind} "
    return _paint(text, *TEXT_COLOURS[kind]) if color else text


def _tile_cell(tile: PlacedTile, color: bool) -> str:
    text = ("*" if tile.joker else " ") + tile.code
    if not color:
        return text
    return _paint(text, TEXT_JOKER if tile.joker else TEXT_TILE, _suit_colour(tile.card))


def _rack_cell(tile: int, color: bool) -> str:
    if not color:
        return rack_code(tile)
    if tile == JOKER:
        return _paint(" * ", TEXT_JOKER, TEXT_BLACK)
    return _paint(f" {rack_code(tile)} ", TEXT_TILE, _suit_colour(tile))


# -- SVG --------------------------------------------------------------------

SQUARE = 40  # side of a square, in pixels
MARGIN = 20  # room for the coordinates
LEGEND_ROW = 22  # a row of the legend
LEGEND_WIDTH = 280  # the narrowest image: room for the legend's longest item
# Square kind -> (fill, label on an empty square, label colour).
SVG_SQUARES = {".": ("#e8dfc8", "", ""), "Y": ("#f4cf3a", "Y", "#6b5500"),
               "G": ("#5cb85c", "G", "#ffffff"), "R": ("#d9534f", "R", "#ffffff"),
               "B": ("#428bca", "B", "#ffffff"), "S": ("#a8231f", "★", "#ffffff")}
SUIT_SYMBOLS = dict(zip(SUITS, "♣♦♥♠"))
TILE_FILL, JOKER_FILL, JOKER_MARK = "#fffdf5", "#eadcff", "#7b1fa2"
SVG_RED, SVG_BLACK, HIGHLIGHT = "#c62828", "#212121", "#d500f9"


def board_svg(position: PositionFields, *, highlight: Iterable[int] = ()) -> str:
    """A standalone SVG image of the board with the rack beneath it, and a legend
    of the squares (as the terminal view has) beneath that.

    ``highlight`` squares (ints, e.g. those of a play) are outlined.
    """
    layout = position.layout
    rack_top = MARGIN + layout.height * SQUARE + 16
    width = max(MARGIN + max(layout.width, len(position.rack)) * SQUARE + MARGIN // 2, LEGEND_WIDTH)
    legend, legend_height = _svg_legend(rack_top + SQUARE + 44, width)
    height = rack_top + SQUARE + 36 + legend_height
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}"'
             f' viewBox="0 0 {width} {height}" font-family="sans-serif" text-anchor="middle">',
             f'<rect width="{width}" height="{height}" fill="#ffffff"/>']
    for col in range(layout.width):
        parts.append(f'<text class="coord" x="{MARGIN + col * SQUARE + SQUARE // 2}" y="{MARGIN - 6}"'
                     f' font-size="12">{column_letter(col)}</text>')
    for row in range(layout.height):
        parts.append(f'<text class="coord" x="{MARGIN // 2}" y="{MARGIN + row * SQUARE + SQUARE // 2 + 4}"'
                     f' font-size="12">{row + 1}</text>')
    for square, kind in enumerate(layout.kinds):
        x, y = _square_origin(layout.width, square)
        fill, label, label_colour = SVG_SQUARES[kind]
        parts.append(f'<rect class="square {KINDS[kind][0]}" x="{x}" y="{y}" width="{SQUARE}"'
                     f' height="{SQUARE}" fill="{fill}" stroke="#ffffff"/>')
        tile = position.board.get(square)
        if tile:
            parts.append(_svg_tile(x, y, tile.card, tile.joker))
        elif label:
            parts.append(f'<text x="{x + SQUARE // 2}" y="{y + SQUARE // 2 + 5}" font-size="14"'
                         f' fill="{label_colour}">{label}</text>')
    for square in highlight:
        x, y = _square_origin(layout.width, square)
        parts.append(f'<rect class="highlight" x="{x + 1}" y="{y + 1}" width="{SQUARE - 2}"'
                     f' height="{SQUARE - 2}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>')
    parts.append(f'<text class="coord" x="{MARGIN // 2}" y="{rack_top + SQUARE + 16}" font-size="12"'
                 f' text-anchor="start">rack</text>')
    for index, rack_tile in enumerate(position.rack):
        x = MARGIN + index * SQUARE
        joker = rack_tile == JOKER
        parts.append(_svg_tile(x, rack_top, None if joker else rack_tile, joker))
    parts += legend
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _svg_legend(top: int, width: int) -> tuple[list[str], int]:
    """The legend: a swatch and what covering it does for each square kind, then
    the joker, in rows that fit ``width``; its parts and its height."""
    items = [(*SVG_SQUARES[kind], effect) for kind, (_, effect) in KINDS.items()]
    items.append((JOKER_FILL, "★", JOKER_MARK, "joker (its card in the corner)"))
    parts, x, y = ['<g class="legend">'], MARGIN, top
    for fill, label, label_colour, text in items:
        item_width = 24 + 7 * len(text) + 14
        if x + item_width > width and x > MARGIN:
            x, y = MARGIN, y + LEGEND_ROW
        parts.append(f'<rect x="{x}" y="{y - 13}" width="18" height="18" fill="{fill}" stroke="#555555"/>')
        if label:
            parts.append(f'<text x="{x + 9}" y="{y + 1}" font-size="11" fill="{label_colour}">{label}</text>')
        parts.append(f'<text x="{x + 24}" y="{y + 1}" font-size="12" text-anchor="start">{text}</text>')
        x += item_width
    parts.append("</g>")
    return parts, y - top + LEGEND_ROW


def _square_origin(width: int, square: int) -> tuple[int, int]:
    row, col = divmod(square, width)
    return MARGIN + col * SQUARE, MARGIN + row * SQUARE


def _svg_tile(x: int, y: int, card_id: int | None, joker: bool) -> str:
    """A card-like tile in the square at ``(x, y)``; ``card_id`` None is a joker on the rack."""
    centre = x + SQUARE // 2
    parts = [f'<g class="{"tile joker" if joker else "tile"}">',
             f'<rect x="{x + 3}" y="{y + 3}" width="{SQUARE - 6}" height="{SQUARE - 6}" rx="5"'
             f' fill="{JOKER_FILL if joker else TILE_FILL}" stroke="#555555"/>']
    if card_id is None:
        parts.append(f'<text x="{centre}" y="{y + 28}" font-size="22" fill="{JOKER_MARK}">★</text>')
    else:
        rank = "10" if rank_of(card_id) == 10 else RANKS[rank_of(card_id) - 1]
        suit = SUITS[suit_of(card_id)]
        colour = SVG_RED if suit_of(card_id) in RED_SUITS else SVG_BLACK
        parts.append(f'<text class="rank" x="{centre}" y="{y + 19}" font-size="15" font-weight="bold"'
                     f' fill="{colour}">{rank}</text>')
        parts.append(f'<text class="suit" x="{centre}" y="{y + 34}" font-size="15" fill="{colour}">'
                     f'{SUIT_SYMBOLS[suit]}</text>')
        if joker:
            parts.append(f'<text x="{x + SQUARE - 8}" y="{y + 12}" font-size="9"'
                         f' fill="{JOKER_MARK}">★</text>')
    parts.append("</g>")
    return "".join(parts)
