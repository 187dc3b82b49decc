"""Exact legal-play counts and best scores on the committed positions of tests/perft.txt,
checked against the compiled core (every run) and the plain-Python reference (slow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from make_perft import PERFT_FILE, perft, reference_perft

Entry = tuple[str, int, int | None]


def _entries() -> list[Entry]:
    entries = []
    for text in Path(PERFT_FILE).read_text(encoding="utf-8").splitlines():
        if not text or text.startswith("#"):
            continue
        line, plays, best = (field.strip() for field in text.split(" ; "))
        entries.append((line, int(plays.removeprefix("plays ")),
                        None if best == "best none" else int(best.removeprefix("best "))))
    return entries


ENTRIES = _entries()


def test_perft_file_covers_jokers_two_sets_small_layouts_and_no_play() -> None:
    lines = [line for line, _, _ in ENTRIES]
    assert len(ENTRIES) >= 60
    assert any("*" in line.split(" ")[1] for line in lines)
    assert any("sets=2" in line for line in lines)
    assert any("layout=" in line for line in lines)
    assert any(best is None for _, _, best in ENTRIES)
    assert any(line.startswith("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ") for line in lines)


@pytest.mark.parametrize("line,plays,best", ENTRIES, ids=range(len(ENTRIES)))
def test_core_perft(line: str, plays: int, best: int | None) -> None:
    assert perft(line) == (plays, best)


@pytest.mark.slow
@pytest.mark.parametrize("line,plays,best", ENTRIES, ids=range(len(ENTRIES)))
def test_reference_perft(line: str, plays: int, best: int | None) -> None:
    assert reference_perft(line) == (plays, best)
