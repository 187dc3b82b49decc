"""The premium squares for people: a board's squares drawn from its layout (an inline SVG) and the
legend of what each kind of square does, both in the reader's language (docs/RULES.md §3, §5)."""

from __future__ import annotations

from html import escape

from ...vocab.layout import Layout, column_letter
from ...position.render import SVG_SQUARES
from .i18n import translate

SQUARE = 24   # a square's side in the picture's units; the page scales the picture to its width
MARGIN = 18   # room for the coordinates
PREMIUM_KINDS = "YGRBS"   # the kinds a legend explains, in docs/RULES.md §3's order


def board_picture(layout: Layout, language: str) -> str:
    """``layout``'s squares as an inline SVG image: each square coloured and lettered as the table
    shows it, the columns and rows named round it."""
    width, height = MARGIN + layout.width * SQUARE, MARGIN + layout.height * SQUARE
    label = translate(language, "board.picture").format(columns=layout.width, rows=layout.height)
    parts = [f'<svg class="board-picture" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
             f' role="img" aria-label="{escape(label)}" font-family="sans-serif" text-anchor="middle">']
    for col in range(layout.width):
        parts.append(f'<text x="{MARGIN + col * SQUARE + SQUARE // 2}" y="{MARGIN - 5}" font-size="10"'
                     f' fill="#5b5b5b">{column_letter(col)}</text>')
    for row in range(layout.height):
        parts.append(f'<text x="{MARGIN // 2}" y="{MARGIN + row * SQUARE + SQUARE // 2 + 4}" font-size="10"'
                     f' fill="#5b5b5b">{row + 1}</text>')
    for square, kind in enumerate(layout.kinds):
        row, col = divmod(square, layout.width)
        x, y = MARGIN + col * SQUARE, MARGIN + row * SQUARE
        fill, letter, letter_colour = SVG_SQUARES[kind]
        parts.append(f'<rect data-kind="{kind}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"'
                     f' stroke="#ffffff"/>')
        if letter:
            parts.append(f'<text x="{x + SQUARE // 2}" y="{y + SQUARE // 2 + 4}" font-size="11"'
                         f' fill="{letter_colour}">{letter}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def legend(language: str) -> str:
    """The legend of the premium squares (HTML list): each kind's swatch, lettered as on the board,
    and what covering it does."""
    items = [f'<li><span class="swatch k-{kind}" aria-hidden="true">{SVG_SQUARES[kind][1]}</span>'
             f' {escape(translate(language, f"legend.{kind}"))}</li>' for kind in PREMIUM_KINDS]
    return '<ul class="legend">\n' + "\n".join(items) + "\n</ul>"


__all__ = ["board_picture", "legend", "PREMIUM_KINDS"]
