"""The .pxd files let another Cython extension call the generator: build the
example in examples/cython-extension and check it against the Python API."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ginnyo.selfplay import corpus
from ginnyo import Position, native

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cython-extension"


def _c_compiler() -> str | None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler) or shutil.which("cc")


@pytest.fixture(scope="module")
def ginny_count(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    if importlib.util.find_spec("Cython") is None:
        pytest.skip("Cython is not installed: cannot build the example extension")
    if _c_compiler() is None:
        pytest.skip("no C compiler found: cannot build the example extension")
    work = tmp_path_factory.mktemp("cython-extension")
    source = work / "source"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.c", "*.so"))
    build_lib = work / "lib"
    result = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--build-lib", str(build_lib),
         "--build-temp", str(work / "temp")],
        cwd=source, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (built,) = build_lib.glob("ginny_count*")
    spec = importlib.util.spec_from_file_location("ginny_count", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_extension_counts_and_scores_like_the_core(ginny_count: Any) -> None:
    positions = corpus.sample_positions(5, seed=1)
    for position in positions:
        core = native.core_of(position)
        best = core.best_play()
        expected = (core.count_plays(), best[0] if best is not None else -1)
        assert ginny_count.count_and_best(core) == expected


def test_example_extension_reports_no_play_as_minus_one(ginny_count: Any) -> None:
    position = Position.load(EXAMPLE.parent / "no-play.json")
    assert ginny_count.count_and_best(native.core_of(position)) == (0, -1)


def test_example_extension_rejects_what_is_not_a_core(ginny_count: Any) -> None:
    with pytest.raises(TypeError):
        ginny_count.count_and_best(object())
