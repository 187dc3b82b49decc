"""Build the web table's Gurmukhi font: Noto Sans Gurmukhi cut down to the Gurmukhi block, as WOFF2.

    apt-get install fonts-noto-core          # the OFL fonts, and their licence in the copyright file
    pip install -e '.[fonts]'                # fontTools and brotli, for this script only
    python tools/build_fonts.py              # writes python/ginnyo/web/static/fonts/

The pages ask for the font only where Gurmukhi is shown (``unicode-range`` in static/css/ginnyo.css),
so a page in another language never fetches it.  The shaping tables (GSUB, GPOS) are kept whole:
Gurmukhi needs them to place its vowel signs.  The output is committed; run this again only to
change the font or the characters kept."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
NOTO = Path("/usr/share/fonts/truetype/noto")
COPYRIGHT = Path("/usr/share/doc/fonts-noto-core/copyright")
OUTPUT = ROOT / "python" / "ginnyo" / "web" / "static" / "fonts"
WEIGHTS = {"Regular": "gurmukhi-400.woff2", "Bold": "gurmukhi-700.woff2"}
# the Gurmukhi block, the danda and double danda it borrows from Devanagari, the joiners, and the
# dotted circle a shaper shows under a vowel sign that has no consonant
UNICODES = [*range(0x0A00, 0x0A80), 0x0964, 0x0965, 0x200C, 0x200D, 0x25CC]


def subset_font(source: Path, target: Path) -> None:
    """``source`` (a TrueType font) kept to :data:`UNICODES` and written to ``target`` as WOFF2."""
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]            # the copyright and licence records stay in the font
    options.notdef_outline = True
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=UNICODES)
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(target)


def licence_text(copyright_file: Path, font: Path) -> str:
    """The font's copyright line and the OFL 1.1, as Debian's copyright file (deb822) carries it."""
    text = copyright_file.read_text(encoding="utf-8")
    found = re.search(r"^License: OFL-1\.1\n((?: .*\n)+)", text, re.MULTILINE)
    if found is None:
        raise SystemExit(f"build_fonts: no OFL-1.1 licence text in {copyright_file}")
    body = "\n".join("" if line.strip() == "." else line[1:] for line in found.group(1).splitlines())
    notice = str(TTFont(font)["name"].getDebugName(0))
    return (f"{notice}\nNoto Sans Gurmukhi, subset to the Gurmukhi block by tools/build_fonts.py.\n\n"
            f"SIL OPEN FONT LICENSE Version 1.1\n\n{body.strip()}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the web table's Gurmukhi font (WOFF2) and its licence.")
    parser.add_argument("--fonts", type=Path, default=NOTO, help="the folder of NotoSansGurmukhi-*.ttf")
    parser.add_argument("--copyright", type=Path, default=COPYRIGHT, help="fonts-noto-core's copyright file")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    arguments = parser.parse_args(argv)
    arguments.output.mkdir(parents=True, exist_ok=True)
    for weight, name in WEIGHTS.items():
        source = arguments.fonts / f"NotoSansGurmukhi-{weight}.ttf"
        if not source.is_file():
            raise SystemExit(f"build_fonts: {source} is missing (apt-get install fonts-noto-core)")
        subset_font(source, arguments.output / name)
        print(f"{name}: {(arguments.output / name).stat().st_size} bytes")
    regular = arguments.fonts / "NotoSansGurmukhi-Regular.ttf"
    (arguments.output / "OFL.txt").write_text(licence_text(arguments.copyright, regular), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
