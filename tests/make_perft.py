"""Writes tests/perft.txt: positions with their exact legal-play counts and best scores.

Run ``python tests/make_perft.py`` to regenerate it.  Every count and best score
is computed twice, by the compiled core and by the plain-Python reference, and
the file is written only when the two agree on every position: the file pins
what both already agree on, so that a later change to either shows up as a
changed number (like the ``.perft`` files of chess engines).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PERFT_FILE = HERE / "perft.txt"

# Positions beyond the mid-game corpus: an empty board, jokers, two sets, small
# and wide layouts, an area started on a red square, no legal play.
EXTRA_LINES = [
    "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 7H7C7S5H6H*KD2C",
    "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 **AHAS2C3CKS",
    "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 5C8CKCKD8H5S8SKS",
    "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 2C9D3S4SJDQH",
    "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 *8H9H4H3H2C2D sets=2",
    "15/15/15/15/15/15/15/65H6H7H6/15/15/15/15/15/15/15 5D5D4H8H8H** sets=2",
    "5/5/19S9D9h1/5/5 9CQC8STS layout=Y...B/.R.../..S../...R./B...Y",
    "5/5/19S9D9h1/5/5 9C*8STS layout=Y...B/.R.../..S../...R./B...Y",
    "7/7/7/7/7 ASKSQS*JS layout=R.....R/.Y...Y./...S.../.G...G./B.....B",
    "9/9/9/9/9/9/9 8D8C8S8H* layout=B...R...B/.Y.....Y./..G...G../R...S...R/..G...G../.Y.....Y./B...R...B",
]
CORPUS_LINES = 60   # the first positions of bench/corpus-mid.jsonl


def perft_positions() -> list[str]:
    """The position lines the file covers, in order."""
    from ginnyo import Position

    corpus = (ROOT / "bench" / "corpus-mid.jsonl").read_text(encoding="utf-8").splitlines()
    return EXTRA_LINES + [Position.from_json(text).to_line() for text in corpus[:CORPUS_LINES]]


def perft(line: str) -> tuple[int, int | None]:
    """The compiled core's play count and best score for a position line."""
    from ginnyo import Position, native

    position = Position.from_line(line)
    best = native.best_play(position)
    return len(native.legal_plays(position)), None if best is None else best.score


def reference_perft(line: str) -> tuple[int, int | None]:
    """The same two numbers from the plain-Python reference."""
    from ginnyo import Position
    from ginnyo.position import reference

    plays = reference.legal_plays(Position.from_line(line))
    return len(plays), max((scored.score for scored in plays), default=None)


def main() -> int:
    from concurrent.futures import ProcessPoolExecutor

    lines = perft_positions()
    with ProcessPoolExecutor(max_workers=2) as pool:
        expected = list(pool.map(reference_perft, lines))
    rows = []
    for line, reference_numbers in zip(lines, expected):
        core_numbers = perft(line)
        if core_numbers != reference_numbers:
            print(f"core {core_numbers} != reference {reference_numbers}: {line}", file=sys.stderr)
            return 1
        count, best = core_numbers
        rows.append(f"{line} ; plays {count} ; best {'none' if best is None else best}\n")
    header = ("# Exact legal-play counts and best scores, agreed by the core and the reference.\n"
              "# <position line> ; plays <N> ; best <score or none>   (python tests/make_perft.py)\n")
    PERFT_FILE.write_text(header + "".join(rows), encoding="utf-8")
    print(f"wrote {len(rows)} positions to {PERFT_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
