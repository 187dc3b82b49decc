"""The board pictures: terminal text and SVG (render.py), and ``ginnyo show``."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from ginnyo import Position
from ginnyo.cli import main
from ginnyo.position.render import board_svg, board_text

SVG = "{http://www.w3.org/2000/svg}"
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

STANDARD = {"board": {"G8": "5H", "H8": "6H", "I8": "7h", "H7": "6D", "H9": "6C"},
            "rack": "5C 5S * KD TH"}
SMALL = {"layout": [".....", ".Y...", "..S..", "...G.", "R....", ".....", "....B"],
         "board": {"B3": "KC", "C3": "KD", "D3": "kh"}, "rack": "2C"}


def position(data: dict[str, Any]) -> Position:
    return Position.from_dict(data)


def cell(text: str, name: str) -> str:
    """The 3-character cell of square ``name`` (like ``H8``) in a plain text board."""
    row, col = int(name[1:]), ord(name[0]) - ord("A")
    return text.splitlines()[row][3 + 3 * col:6 + 3 * col].ljust(3)


def svg_root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def text(element: ET.Element) -> str:
    assert element.text is not None, element
    return element.text


def elements(root: ET.Element, tag: str, css_class: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if css_class in e.get("class", "").split()]


# -- terminal text -------------------------------------------------------------

def test_plain_text_has_no_escape_codes() -> None:
    assert "\x1b" not in board_text(position(STANDARD), color=False)


def test_plain_text_shows_each_tile_code_at_its_row_and_column() -> None:
    text = board_text(position(STANDARD), color=False)
    assert cell(text, "G8") == " 5H"
    assert cell(text, "H8") == " 6H"
    assert cell(text, "H7") == " 6D"
    assert cell(text, "H9") == " 6C"


def test_plain_text_marks_a_joker_with_a_star() -> None:
    assert cell(board_text(position(STANDARD), color=False), "I8") == "*7h"


def test_plain_text_shows_the_kind_of_empty_squares() -> None:
    text = board_text(position(STANDARD), color=False)
    assert cell(text, "A1") == " B "
    assert cell(text, "D1") == " Y "
    assert cell(text, "B2") == " G "
    assert cell(text, "D4") == " R "
    assert cell(text, "B1") == " · "


def test_plain_text_has_column_letters_and_row_numbers() -> None:
    lines = board_text(position(STANDARD), color=False).splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert [line[:2].strip() for line in lines[1:16]] == [str(n) for n in range(1, 16)]


def test_plain_text_shows_rack_and_legend_below_the_board() -> None:
    lines = board_text(position(STANDARD), color=False).splitlines()
    assert lines[-2] == "rack  5C KD TH 5S *"
    assert all(f" {kind} " in lines[-1] for kind in "·YGRBS")


def test_empty_rack_is_said_to_be_empty() -> None:
    text = board_text(position({"board": {}, "rack": ""}), color=False)
    assert "rack  (empty)" in text


def test_colour_text_has_escape_codes() -> None:
    assert "\x1b[" in board_text(position(STANDARD), color=True)


def test_colour_text_without_escape_codes_is_the_plain_board() -> None:
    plain = board_text(position(STANDARD), color=False).splitlines()
    coloured = board_text(position(STANDARD), color=True).splitlines()
    coloured = [ESCAPE.sub("", line).rstrip() for line in coloured]
    assert coloured[:16] == plain[:16]


def test_text_of_custom_5x7_layout_has_7_rows_and_5_columns() -> None:
    lines = board_text(position(SMALL), color=False).splitlines()
    assert lines[0].split() == list("ABCDE")
    board_rows = lines[1:lines.index("")]
    assert [line[:2].strip() for line in board_rows] == [str(n) for n in range(1, 8)]
    for line in board_rows:
        assert len(line) <= 3 + 5 * 3
        assert all(line[3 + 3 * col:6 + 3 * col].strip() for col in range(5))
    text = "\n".join(lines)
    assert (cell(text, "B3"), cell(text, "C3"), cell(text, "D3")) == (" KC", " KD", "*kh")
    premiums = [cell(text, name) for name in ("B2", "D4", "A5", "E7")]
    assert premiums == [" Y ", " G ", " R ", " B "]


def test_columns_align_on_a_26_wide_board() -> None:
    rows = ["." * 26] * 3
    rows[1] = "." * 12 + "S" + "." * 13
    lines = board_text(position({"layout": rows, "board": {}, "rack": ""}), color=False).splitlines()
    assert lines[0].split()[-1] == "Z"
    assert lines[0].index("M") == lines[2].index("S") == 3 + 3 * 12 + 1
    assert lines[0].index("Z") == 3 + 3 * 25 + 1


# -- SVG -----------------------------------------------------------------------

def test_svg_parses_as_xml() -> None:
    root = svg_root(board_svg(position(STANDARD)))
    assert root.tag == SVG + "svg"


def test_svg_has_one_rect_per_square() -> None:
    assert len(elements(svg_root(board_svg(position(STANDARD))), "rect", "square")) == 15 * 15
    assert len(elements(svg_root(board_svg(position(SMALL))), "rect", "square")) == 5 * 7


def test_svg_colours_squares_by_kind() -> None:
    squares = elements(svg_root(board_svg(position(SMALL))), "rect", "square")
    kinds = [next(c for c in e.attrib["class"].split() if c != "square") for e in squares]
    assert kinds.count("centre") == kinds.count("yellow") == kinds.count("green") == 1
    assert kinds.count("red") == kinds.count("blue") == 1


def test_svg_has_coordinates() -> None:
    texts = [text(e) for e in elements(svg_root(board_svg(position(SMALL))), "text", "coord")]
    assert [t for t in texts if t.isalpha() and len(t) == 1] == list("ABCDE")
    assert [t for t in texts if t.isdigit()] == [str(n) for n in range(1, 8)]


def test_svg_shows_each_tile_rank_and_suit() -> None:
    root = svg_root(board_svg(position(STANDARD)))
    ranks = [text(e) for e in elements(root, "text", "rank")]
    suits = [text(e) for e in elements(root, "text", "suit")]
    assert sorted(ranks) == sorted(["5", "6", "7", "6", "6"] + ["5", "5", "K", "10"])
    assert suits.count("♥") == 4 and suits.count("♦") == 2 and suits.count("♣") == 2


def test_svg_draws_hearts_and_diamonds_red() -> None:
    root = svg_root(board_svg(position({"board": {"G8": "5H", "H8": "5D", "I8": "5C"}, "rack": ""})))
    fills = {e.text: e.get("fill") for e in elements(root, "text", "suit")}
    assert fills["♥"] == fills["♦"] != fills["♣"]


def test_svg_marks_jokers() -> None:
    root = svg_root(board_svg(position(STANDARD)))
    # the joker standing for 7H on I8, and the joker on the rack
    assert len(elements(root, "g", "joker")) == 2
    assert len(elements(root, "g", "tile")) == 5 + 5


def test_svg_outlines_highlighted_squares() -> None:
    game = position(STANDARD)
    squares = [game.layout.parse_square(name) for name in ("G8", "H8", "I8")]
    root = svg_root(board_svg(game, highlight=squares))
    outlines = elements(root, "rect", "highlight")
    assert sorted((int(e.attrib["x"]), int(e.attrib["y"])) for e in outlines) == [
        (20 + 40 * col + 1, 20 + 40 * 7 + 1) for col in (6, 7, 8)]
    assert not elements(svg_root(board_svg(game)), "rect", "highlight")


def test_svg_draws_the_rack_under_the_board() -> None:
    root = svg_root(board_svg(position(SMALL)))
    board_bottom = max(int(e.attrib["y"]) for e in elements(root, "rect", "square")) + 40
    rack_tiles = [g for g in elements(root, "g", "tile")
                  if int(next(g.iter(SVG + "rect")).attrib["y"]) > board_bottom]
    assert len(rack_tiles) == 1


def test_svg_is_wide_enough_for_a_long_rack_on_a_narrow_board() -> None:
    data = dict(SMALL, rack="AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")
    root = svg_root(board_svg(position(data)))
    right = max(int(e.get("x", "0")) + int(e.attrib["width"]) for e in root.iter(SVG + "rect"))
    assert right <= int(root.attrib["width"])


# -- ginnyo show ---------------------------------------------------------------

@pytest.fixture
def position_file(tmp_path: Path) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(STANDARD), encoding="utf-8")
    return str(path)


def test_show_prints_the_board(position_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", position_file]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out  # captured output is not a terminal
    assert " 5H 6H*7h" in out and "rack  5C KD TH 5S *" in out


def test_show_colour_always_prints_escape_codes(position_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", position_file, "--color", "always"]) == 0
    assert "\x1b[" in capsys.readouterr().out


def test_show_svg_writes_a_file_that_parses_as_xml(position_file: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.svg"
    assert main(["show", position_file, "--svg", str(out)]) == 0
    assert ET.parse(out).getroot().tag == SVG + "svg"
    assert capsys.readouterr().out.strip() == f"wrote {out}"


def test_show_missing_file_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith("ginnyo: error:")


def test_show_svg_into_missing_directory_is_bad_input_with_one_line(position_file: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", position_file, "--svg", str(tmp_path / "nowhere" / "board.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ginnyo: error: --svg") and err.count("\n") == 1
