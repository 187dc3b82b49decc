"""docs/API.md's examples are doctests that run against the real package."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_api_doc_examples_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples load examples/*.json by relative path
    result = doctest.testfile(str(ROOT / "docs" / "API.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in docs/API.md failed"
