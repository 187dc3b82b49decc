"""The project's own documents: their links resolve inside the repository, and
the move notation examples of docs/FORMAT.md score what the table says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginnyo.solver import load_position, score_play

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _notation_examples() -> list[tuple[str, int]]:
    text = (DOCS / "FORMAT.md").read_text(encoding="utf-8")
    section = text.split("## Move notation", 1)[1].split("\n## ", 1)[0]
    return [(notation, int(score)) for notation, score in
            re.findall(r"^\|[^|`]*\| `([^`]+)` \| (\d+) \|$", section, re.M)]


@pytest.mark.parametrize("doc", sorted(DOCS.glob("*.md")), ids=lambda path: path.name)
def test_doc_links_point_at_files_in_the_repository(doc):
    base = ROOT if doc.name == "README-draft.md" else doc.parent     # the draft becomes README.md
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if "://" in target:
            continue
        assert (base / target).exists(), f"{doc.name} links to missing {target}"


def test_format_md_has_notation_examples():
    assert len(_notation_examples()) >= 5


@pytest.mark.parametrize("notation, score", _notation_examples())
def test_format_md_notation_example_scores_as_written(notation, score):
    board = {"G8": "5H", "H8": "6H", "I8": "7H"}          # the table's board
    position = load_position({"board": board, "rack": "8H 9H 5C 5S 4H KC KD KS *"})
    assert score_play(position, notation).score == score
