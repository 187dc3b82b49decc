"""The project's own documents: their links resolve inside the repository, and
the move notation examples of docs/FORMAT.md score what the table says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginnyo import Position

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _notation_examples() -> list[tuple[str, int]]:
    text = (DOCS / "FORMAT.md").read_text(encoding="utf-8")
    section = text.split("## Move notation", 1)[1].split("\n## ", 1)[0]
    return [(notation, int(score)) for notation, score in
            re.findall(r"^\|[^|`]*\| `([^`]+)` \| (\d+) \|$", section, re.M)]


@pytest.mark.parametrize("doc", sorted(DOCS.glob("*.md")) + [ROOT / "README.md"], ids=lambda path: path.name)
def test_doc_links_point_at_files_in_the_repository(doc: Path) -> None:
    base = doc.parent
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if "://" in target:
            continue
        assert (base / target).exists(), f"{doc.name} links to missing {target}"


def test_format_md_position_example_loads() -> None:
    text = (DOCS / "FORMAT.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", text, re.S)
    assert example is not None
    assert Position.load(example.group(1)).board


def test_format_md_has_notation_examples() -> None:
    assert len(_notation_examples()) >= 5


@pytest.mark.parametrize("notation, score", _notation_examples())
def test_format_md_notation_example_scores_as_written(notation: str, score: int) -> None:
    board = {"G8": "5H", "H8": "6H", "I8": "7H"}          # the table's board
    position = Position.load({"board": board, "rack": "8H 9H 5C 5S 4H KC KD KS *"})
    assert position.score(notation).score == score


RULES_EXAMPLES = [      # (example file, notation written in docs/RULES.md §5, score)
    ("opening", "8G 7H7C7S", 21),
    ("opening", "8G 5H6H7H", 18),
    ("opening", "H6 7C7H7S", 21),
    ("extend", "G7 5C.5S", 20),
    ("extend", "J8 8H8C8S", 48),
    ("extend", "4D KCKDKS", 60),
    ("extend", "D2 KCKDKS", 60),
]


@pytest.mark.parametrize("name, notation, score", RULES_EXAMPLES)
def test_rules_md_worked_example_scores_as_written(name: str, notation: str, score: int) -> None:
    assert f"`{notation}" in (DOCS / "RULES.md").read_text(encoding="utf-8")
    position = Position.load(f"{ROOT}/examples/{name}.json")
    assert position.score(notation).score == score


@pytest.mark.parametrize("name", ["opening", "extend"])
def test_rules_md_names_the_play_best_move_prints(name: str) -> None:
    position = Position.load(f"{ROOT}/examples/{name}.json")
    best = position.best_play()
    assert best is not None
    assert f"`{position.notation(best)}" in (DOCS / "RULES.md").read_text(encoding="utf-8")
