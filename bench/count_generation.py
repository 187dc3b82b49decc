"""Instructions and mispredicted branches of one generation, counted by callgrind.

    python bench/count_generation.py [all|plain|joker] [--repeat N]

Runs ``Core.generate_plays`` over the positions of ``bench/corpus-mid.jsonl``
(all of them, those with no joker on the rack, or those with one) under
valgrind's callgrind with its branch simulator, counting only inside the call,
and prints the counts per position.  Unlike a timing these do not depend on the
machine's load, so they can decide between two versions of the core; callgrind's
branch predictor is simpler than a real one, so its mispredictions are a guide,
not a measurement.  Needs valgrind (``apt install valgrind``).

The run under valgrind uses this very interpreter by the path it was started
by, not the file that path links to: a virtual environment's ``python`` is a
link to the base interpreter, and only through the link does it find the
environment's packages.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus-mid.jsonl"
CALL = "__pyx_pw_9ginnycore_4core_4Core_9generate_plays"


def inner_command(selection: str, repeat: int) -> list[str]:
    """The command valgrind runs: this script, by this interpreter, doing the work."""
    return [sys.executable, str(Path(__file__).resolve()), selection, "--repeat", str(repeat), "--inner"]


def _generate(selection: str, repeat: int) -> None:
    """The work callgrind watches: generate for every selected position.  Its last
    line on stderr gives how many positions and which compiled core."""
    import ginnycore.core
    from ginnyo import native
    from ginnyo.position import Position
    from ginnyo.tiles import JOKER

    positions = [Position.from_json(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    cores = [native.core_of(p) for p in positions
             if selection == "all" or (JOKER in p.rack) == (selection == "joker")]
    print(len(cores), ginnycore.core.__file__, file=sys.stderr)
    for _ in range(repeat):
        for core in cores:
            core.generate_plays()


def _totals(out_file: str) -> dict[str, int]:
    text = subprocess.run(["callgrind_annotate", out_file], capture_output=True, text=True, check=True).stdout
    shown = re.search(r"^Events shown:\s+(.*)$", text, re.M)
    if shown is None:
        raise RuntimeError("callgrind_annotate printed no events")
    events = shown.group(1).split()
    line = next(line for line in text.splitlines() if "PROGRAM TOTALS" in line)
    values = [int(v.replace(",", "")) for v in re.findall(r"([\d,]+)\s+\(", line)]
    return dict(zip(events, values))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("selection", nargs="?", choices=("all", "plain", "joker"), default="all")
    parser.add_argument("--repeat", type=int, default=10,
                        help="generations of each position (default 10; the first also allocates the "
                             "core's array of plays)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.repeat < 1 and not args.inner:
        parser.error(f"--repeat: must be 1 or more, not {args.repeat}")
    if args.inner:
        _generate(args.selection, args.repeat)
        return 0
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("count_generation: valgrind is not installed (apt install valgrind)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--branch-sim=yes", f"--toggle-collect={CALL}",
             f"--callgrind-out-file={out_file}", f"--log-file={os.path.join(tmp, 'valgrind.log')}",
             *inner_command(args.selection, args.repeat)],
            capture_output=True, text=True)
        if run.returncode != 0:
            print(f"count_generation: the run under valgrind failed:\n{run.stderr[-2000:]}", file=sys.stderr)
            return 1
        count, core_file = run.stderr.splitlines()[-1].split(" ", 1)
        positions = int(count)
        totals = _totals(out_file)
    calls = positions * args.repeat
    if calls == 0:
        print("count_generation: no position selected", file=sys.stderr)
        return 1
    print(f"{args.selection}: {positions} positions, {args.repeat} generations each, core {core_file}")
    print(f"instructions a position            {totals['Ir'] / calls:10.0f}")
    print(f"conditional branches a position    {totals['Bc'] / calls:10.0f}")
    print(f"... mispredicted (callgrind model) {totals['Bcm'] / calls:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
