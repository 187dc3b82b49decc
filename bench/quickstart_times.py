"""How long the README's Quick start takes on a fresh clone: the source of its numbers.

    python bench/quickstart_times.py [--ci] [REPOSITORY]

clones REPOSITORY (default: this checkout's committed HEAD) into a temporary
folder, makes a fresh virtual environment there and runs, timed, each command
of the Quick start in it: the install with the first ``best-move``, then the
test suite.  With ``--ci`` it then times ``.ci/run`` in the same clone (the
whole suite with the slow tests, the benchmarks and the wheel check).  Each
line gives the wall-clock time, the CPU time of the command and its children
(user + system) and the load average when it ended, since the wall clock on a
shared machine depends on the others' load much more than the CPU time does.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TAIL_LINES = 60     # of a failed command's output, shown


def quick_start(readme: Path) -> list[str]:
    """The shell commands of the README's Quick start block, comments cut."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Quick start")
    block = lines[lines.index("```sh", start) + 1:]
    commands = block[:block.index("```")]
    return [command.split("#")[0].strip() for command in commands if command.strip()]


def timed(command: str, folder: Path, env: dict[str, str]) -> str:
    """Run ``command`` in bash in ``folder``; its line of times, or exit on its failure
    with the end of what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    load = os.getloadavg()[0]
    if done.returncode:
        tail = "\n".join(done.stdout.splitlines()[-TAIL_LINES:])
        sys.exit(f"{tail}\nquickstart_times: {command!r} failed with exit status {done.returncode}")
    return f"{command}: {wall:.0f} s wall, {cpu:.0f} s CPU, load {load:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repository", nargs="?", default=str(ROOT), help="what to clone (default: this checkout)")
    parser.add_argument("--ci", action="store_true", help="then time .ci/run in the same clone")
    args = parser.parse_args(argv)
    # a job started in the background of a shell ignores Ctrl-C, and its children would inherit
    # that: they get Python's own handler, as in a terminal
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with tempfile.TemporaryDirectory(prefix="ginnyo-quickstart-") as temporary:
        clone = Path(temporary) / "ginnyo"
        subprocess.run(["git", "clone", "--quiet", args.repository, str(clone)], check=True)
        venv = Path(temporary) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = dict(os.environ, VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
        env.pop("PYTHONPATH", None)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True,
                                text=True, check=True).stdout.strip()
        print(f"a fresh clone of {commit}, {os.cpu_count()} cores", flush=True)
        commands = quick_start(clone / "README.md")
        if args.ci:
            commands.append("bash .ci/run")
        for command in commands:
            print(timed(command, clone, env), flush=True)


if __name__ == "__main__":
    main()
