"""Helpers shared by the tests: positions from dicts, plays from square -> code maps,
whether the full corpora run (GINNYO_FULL_CORPUS=1, set by .ci/run), the bench scripts."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

from ginnyo import Play, PlacedTile, Position
from ginnyo.vocab.tiles import parse_card

FULL_CORPUS = os.environ.get("GINNYO_FULL_CORPUS") == "1"


def position(board: dict[str, str] | None = None, rack: str = "", **fields: object) -> Position:
    """A validated position from docs/FORMAT.md fields."""
    return Position.from_dict({"board": board or {}, "rack": rack, **fields})


def play(pos: Position, placements: dict[str, str]) -> Play:
    """A play from ``{"G7": "5C", "G9": "5s"}`` (lower case: a joker with that identity)."""
    return Play.of({pos.layout.parse_square(square): PlacedTile(*parse_card(code, lower_is_joker=True))
                    for square, code in placements.items()})


def child_environment(**extra: str) -> dict[str, str]:
    """The environment for a child interpreter that must run the same ginnyo and
    compiled core as the tests: a checkout's tree under an editable install or
    PYTHONPATH, the installed package in CI."""
    import ginnycore
    import ginnyo
    sources = [str(Path(str(package.__file__)).resolve().parents[1]) for package in (ginnyo, ginnycore)]
    paths = [*dict.fromkeys(sources), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path), **extra}


def bench_script(name: str) -> ModuleType:
    """The script ``bench/<name>.py`` as a module (``bench/`` on the path, where
    its scripts import each other from)."""
    import importlib.util
    import sys
    bench = str(Path(__file__).resolve().parent.parent / "bench")
    if bench not in sys.path:
        sys.path.append(bench)
    spec = importlib.util.spec_from_file_location(name, Path(bench) / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
