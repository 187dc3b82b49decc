"""bench/count_generation.py: the run under valgrind uses the interpreter it was
started with, so it counts the same installed core, also inside a venv."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import ginnycore.core
from helpers import bench_script, child_environment

BENCH = Path(__file__).resolve().parents[2] / "bench"
count_generation = bench_script("count_generation")


def test_count_generation_runs_the_virtual_environments_interpreter(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env_dir)
    python = env_dir / "bin" / "python"
    ask = ("import subprocess, sys; sys.path.insert(0, sys.argv[1]); import count_generation; "
           "command = count_generation.inner_command('plain', 1); "
           "print(subprocess.run([command[0], '-c', 'import sys; print(sys.prefix)'], "
           "capture_output=True, text=True, check=True).stdout.strip())")
    shown = subprocess.run([str(python), "-c", ask, str(BENCH)], capture_output=True, text=True, check=True)
    assert Path(shown.stdout.strip()).resolve() == env_dir.resolve()


def test_count_generation_inner_run_names_positions_and_the_core_it_counted(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    run = subprocess.run([*count_generation.inner_command("plain", 0), "--report", str(report)],
                         capture_output=True, text=True, timeout=300, env=child_environment())
    assert run.returncode == 0, run.stderr
    about = json.loads(report.read_text(encoding="utf-8"))
    assert about["positions"] == 469      # the corpus's positions with no joker on the rack
    assert Path(about["core"]).resolve() == Path(ginnycore.core.__file__).resolve()
    assert about["stretches"][-1] == ["generation", 0]


def test_count_generation_refuses_a_repeat_below_one() -> None:
    run = subprocess.run([sys.executable, str(BENCH / "count_generation.py"), "--repeat", "0"],
                         capture_output=True, text=True, timeout=60, env=child_environment())
    assert run.returncode == 2
    assert "--repeat: must be 1 or more, not 0" in run.stderr
    assert "Traceback" not in run.stderr
