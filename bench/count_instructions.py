"""The instruction-count gate: callgrind's instructions per call of what users wait for.

    python bench/count_instructions.py                 # check against bench/instructions.json
    python bench/count_instructions.py --update        # measure and rewrite the baseline
    python bench/count_instructions.py --figures generation,equity --json

Counts, under valgrind's callgrind, the instructions of one call of each figure
(``FIGURES``): generating every play (``Core.generate_plays``), the best play
(``Core.best_play``), the equity ranking of ``best-move --equity``
(``ginnyo.equity.rank_actions``, the whole Python call), one rollout of the best
equity candidate (``ginnyo.simulation.rollout_outcomes``: the compiled rollout and
its call, seed 0, the greedy policy) and loading a
position from its JSON text (``Position.from_json``) and from its line
(``Position.from_line``; both read in C by ``ginnycore.parse``), over the first positions of
``bench/corpus-mid.jsonl``.  Unlike a timing, a count does not depend on the
machine's load: the check fails (exit 1) naming every figure more than
``LIMIT_PERCENT`` (3%) above the baseline, and prints all figures beside it.  Counts
depend on the interpreter, numpy and compiler too, so the baseline records
them and is made again (``--update``) on the machine CI runs on.

How the measured calls are cut out: the child marks the end of each stretch of
work by calling ``os.ctermid()``, which nothing else in the interpreter, numpy
or the core calls, and callgrind runs with ``--dump-before=ctermid``, writing
the counts since the previous mark to a file of their own and starting again
from zero.  This needs no symbol of the code measured, so it survives renamed
or split Cython modules, and it counts everything the call does, Python and C.
The child names the stretches in order; a count of dumps other than the
stretches named (the marker called from elsewhere) is an error, not a figure.
Before each measured stretch the first calls run unmeasured (caches, lazily
loaded tables, Python's adaptive interpreter warmed up), garbage is collected
and the objects alive frozen (``gc.freeze``), so a figure does not depend on
how much the imports left on the heap; the cost of a mark itself (an empty
stretch) is taken off.  Hash randomisation is fixed (``PYTHONHASHSEED=0``) so
that two runs count the same.

The run under valgrind uses this very interpreter by the path it was started
by, not the file that path links to: a virtual environment's ``python`` is a
link to the base interpreter, and only through the link does it find the
environment's packages.  Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, NamedTuple

if sys.version_info >= (3, 11):
    from operator import call as invoke      # in C: no Python frame of its own in the counts
else:
    def invoke(function: Callable[[], object]) -> object:
        return function()

BENCH = Path(__file__).resolve().parent
CORPUS = BENCH / "corpus-mid.jsonl"
BASELINE = BENCH / "instructions.json"
MARKER = "ctermid"            # the C function os.ctermid() calls: callgrind dumps before it
LIMIT_PERCENT = 3             # a figure more than 3% over its baseline fails the check
SEED = 0                      # the rollouts' seed
ROLLOUTS_EACH = 2             # rollouts measured for each position's best equity candidate
EQUITY_SHOWN = 5              # the actions best-move --equity ranks and shows (its --candidates default)


class Figure(NamedTuple):
    """A figure: how many corpus positions it runs over, how many of its calls
    run unmeasured first, and what one call is."""

    positions: int
    warm_up: int
    what: str


FIGURES: dict[str, Figure] = {   # a core's first generation allocates its plays: every core is warmed up
    "generation": Figure(200, 200, "Core.generate_plays of one loaded position"),
    "best_play": Figure(200, 200, "Core.best_play of one loaded position"),
    "equity": Figure(30, 10, "ginnyo.equity.rank_actions of a loaded position, the best 5 (best-move --equity)"),
    "rollout": Figure(10, 4, "ginnyo.simulation.rollout_outcomes of one rollout of one candidate, seed 0"),
    "ranked_tuples": Figure(100, 10, "Core.load_tiles and Core.legal_plays(ranked=True) of one position: "
                                     "the core's own tuple call, a position in, its plays out ranked"),
    "legal_plays": Figure(100, 10, "list(Position.legal_plays) of one position: ranked ScoredPlay objects with melds"),
    "load_json": Figure(100, 10, "Position.from_json of one position's JSON text"),
    "load_line": Figure(100, 10, "Position.from_line of one position's line"),
}
RATIOS = [("legal_plays", "ranked_tuples"), ("equity", "best_play"), ("load_json", "best_play"),
          ("load_line", "best_play")]    # printed beside the table: the issues' targets, in instructions
EMPTY = "empty"               # a stretch with no work: the cost of a mark, taken off every figure
SETUP = "setup"               # a stretch not measured


class CountError(Exception):
    """The counts could not be made or checked: one line saying why.  (This module
    imports ginnyo only where it needs it: ``count_generation`` imports it from a
    bare interpreter.)"""


# -- in the child, under valgrind ---------------------------------------------------------------

class Stretches:
    """The child's side: ``end(label, calls)`` ends the stretch of work running
    since the last mark (callgrind dumps its counts), naming it and how many
    calls it made; ``report(path)`` writes the names in order for the parent."""

    def __init__(self) -> None:
        """Start counting: what ran before (imports) is left out, and so is the cost of a mark."""
        self.names: list[tuple[str, int]] = []
        gc.collect()
        gc.freeze()
        self.end(SETUP)
        self.end(EMPTY)

    def end(self, label: str, calls: int = 0) -> None:
        self.names.append((label, calls))
        os.ctermid()

    def measure(self, label: str, warm_up: int, arguments: list[Any], call: Callable[[Any], object]) -> None:
        """``call`` of the first ``warm_up`` arguments unmeasured, then of every one as stretch ``label``."""
        for argument in arguments[:warm_up]:
            call(argument)
        gc.collect()
        gc.freeze()
        self.end(SETUP)
        for argument in arguments:
            call(argument)
        self.end(label, len(arguments))

    def report(self, path: str, **about: object) -> None:
        Path(path).write_text(json.dumps({"stretches": self.names, **about}), encoding="utf-8")


def corpus_lines(count: int) -> list[str]:
    """The first ``count`` positions of the corpus, as JSON text."""
    return CORPUS.read_text(encoding="utf-8").splitlines()[:count]


def _figure_calls(name: str, count: int) -> tuple[list[Any], Callable[[Any], object]]:
    """Figure ``name`` over ``count`` positions: the arguments of its calls and the
    call.  The one place that says what each figure calls: when a call moves (the
    equity ranking into the core), change it here and make the baseline again."""
    from ginnyo import native
    from ginnyo.position.position import Position

    lines = corpus_lines(count)
    positions = [Position.from_json(line) for line in lines]
    if name == "generation":
        return [native.core_of(position).generate_plays for position in positions], invoke
    if name == "best_play":
        return [native.core_of(position).best_play for position in positions], invoke
    if name == "equity":
        from ginnyo.equity.rank import rank_actions
        from ginnyo.equity.leaves import default_model
        model = default_model()
        loaded = [(native.core_of(p), p.rack, p.game_context.box_size) for p in positions]

        def rank(arguments: tuple[native.Core, tuple[int, ...], int]) -> object:
            return rank_actions(*arguments, model, limit=EQUITY_SHOWN)
        return loaded, rank
    if name == "rollout":
        from ginnyo.equity.rank import rank_position
        from ginnyo.equity.leaves import default_model
        from ginnyo.simulation.rollouts import DEFAULT_PLIES, rollout_outcomes, setup_for
        model = default_model()
        setups = [setup_for(p, rank_position(p, model)[:1], DEFAULT_PLIES, SEED, model, late_box=-1, endgame_nodes=0)
                  for p in positions]   # the plies alone, whatever the box (a late rollout plays to the end)
        return [(setup, index, 1) for setup in setups for index in range(ROLLOUTS_EACH)], \
            lambda arguments: rollout_outcomes(*arguments)
    if name == "ranked_tuples":
        reused = native.empty_core(positions[0].layout)

        def ranked_tuples(position: Position) -> object:
            reused.load_tiles(position.board, position.rack)
            return reused.legal_plays(ranked=True)
        return positions, ranked_tuples
    if name == "legal_plays":
        return positions, lambda position: list(position.legal_plays)
    if name == "load_json":
        return lines, Position.from_json
    if name == "load_line":
        return [position.to_line() for position in positions], Position.from_line
    raise ValueError(f"figure {name!r}: not one of {', '.join(FIGURES)}")


def run_figures(names: list[str], report: str) -> None:
    """The child's work: every figure asked, each as one measured stretch."""
    import ginnycore.core
    stretches = Stretches()
    for name in names:
        stretches.measure(name, FIGURES[name].warm_up, *_figure_calls(name, FIGURES[name].positions))
    stretches.report(report, core=ginnycore.core.__file__)


# -- in the parent ------------------------------------------------------------------------------

def valgrind_missing() -> str | None:
    """Why the counts cannot be made here, or None."""
    if shutil.which("valgrind") is None:
        return "valgrind is not installed (apt-get install valgrind)"
    return None


def counted(inner: list[str], *, events: tuple[str, ...] = ()) -> tuple[list[tuple[str, int, dict[str, int]]],
                                                                          dict[str, Any]]:
    """Run ``inner`` (the child's command, given ``--report PATH`` here) under
    callgrind: every stretch the child named, as ``(name, calls, counts)``, and
    the child's report.  ``events`` adds callgrind options (``--branch-sim=yes``)."""
    missing = valgrind_missing()
    if missing:
        raise CountError(missing)
    with tempfile.TemporaryDirectory(prefix="count_instructions.") as folder:
        out_file = os.path.join(folder, "callgrind.out")
        report = os.path.join(folder, "report.json")
        environment = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--dump-before={MARKER}", *events,
             f"--callgrind-out-file={out_file}", f"--log-file={os.path.join(folder, 'valgrind.log')}",
             *inner, "--report", report],
            capture_output=True, text=True, env=environment)
        if run.returncode != 0:
            raise CountError(f"the run under valgrind failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
        about = json.loads(Path(report).read_text(encoding="utf-8"))
        names = about.pop("stretches")
        dumps = sorted((path for path in Path(folder).glob("callgrind.out.*") if path.suffix[1:].isdigit()),
                       key=lambda path: int(path.suffix[1:]))
        if not dumps:
            raise CountError(f"callgrind never dumped before {MARKER}(): it does not know the C library's "
                             f"function by that name")
        if len(dumps) != len(names):
            raise CountError(f"callgrind dumped {len(dumps)} times before {MARKER}(), the child marked "
                             f"{len(names)} stretches: something else calls {MARKER}()")
        return [(name, calls, dump_totals(dump)) for (name, calls), dump in zip(names, dumps)], about


def dump_totals(path: Path) -> dict[str, int]:
    """The total of each event in one callgrind dump."""
    text = path.read_text(encoding="utf-8", errors="replace")
    events = re.search(r"^events:\s*(.*)$", text, re.M)
    totals = re.search(r"^(?:totals|summary):\s*(.*)$", text, re.M)
    if events is None or totals is None:
        raise CountError(f"{path.name}: no events or totals line in callgrind's output")
    return dict(zip(events.group(1).split(), (int(value) for value in totals.group(1).split())))


def per_call(stretches: list[tuple[str, int, dict[str, int]]], event: str = "Ir") -> dict[str, float]:
    """Each measured stretch's count of ``event`` per call, the cost of a mark taken off."""
    empty = next((counts.get(event, 0) for name, _, counts in stretches if name == EMPTY), 0)
    return {name: max(counts.get(event, 0) - empty, 0) / calls
            for name, calls, counts in stretches if name not in (EMPTY, SETUP) and calls > 0}


def inner_command(script: str, *arguments: str) -> list[str]:
    """The command valgrind runs: ``script`` doing the work, by this interpreter
    (see the module's doc); :func:`counted` adds the report's path."""
    return [sys.executable, str(Path(script).resolve()), *arguments, "--inner"]


def measure(names: list[str]) -> tuple[dict[str, int], dict[str, Any]]:
    """Instructions per call of the figures ``names`` (rounded), and the child's report."""
    stretches, about = counted(inner_command(__file__, "--figures", ",".join(names)))
    return {name: round(value) for name, value in per_call(stretches).items()}, about


def environment_description() -> dict[str, str]:
    """What the counts depend on besides the code: interpreter, numpy, valgrind, machine."""
    import numpy
    valgrind = (subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()
                if valgrind_missing() is None else "none")
    return {"python": platform.python_version(), "numpy": numpy.__version__, "valgrind": valgrind,
            "machine": platform.machine()}


def commit_description() -> str:
    """The checkout's commit, ``+ uncommitted changes`` when its tree differs."""
    def git(*arguments: str) -> str:
        run = subprocess.run(["git", "-C", str(BENCH), *arguments], capture_output=True, text=True)
        return run.stdout.strip() if run.returncode == 0 else ""
    commit = git("rev-parse", "HEAD") or "unknown (not a git checkout)"
    return commit + (" + uncommitted changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def baseline_text(figures: dict[str, int]) -> str:
    """The baseline file: the figures, how many calls each averages, and how it was made."""
    return json.dumps({
        "about": "callgrind instructions per call (Ir); python bench/count_instructions.py checks them, "
                 "--update rewrites this file; docs/PERFORMANCE.md",
        "commit": commit_description(),
        "made_by": "python bench/count_instructions.py --update",
        "environment": environment_description(),
        "figures": figures,
        "positions": {name: FIGURES[name].positions for name in figures},
        "what": {name: FIGURES[name].what for name in figures},
    }, indent=2) + "\n"


def read_baseline(path: Path) -> dict[str, Any]:
    """The baseline file, checked: an object whose ``figures`` maps names to whole numbers."""
    from ginnyo.errors import GinnyoError
    from ginnyo.support.files import KIB, read_bounded
    from ginnyo.support.strict_json import is_whole_number, loads
    try:
        data = loads(read_bounded(path, 64 * KIB, what="baseline"), GinnyoError, f"{path}: ")
    except GinnyoError as problem:
        raise CountError(str(problem)) from None
    figures = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(figures, dict) or not all(is_whole_number(value) and value > 0 for value in figures.values()):
        raise CountError(f"{path}: field 'figures': must map each figure to its instructions, a whole number")
    return data


def write_baseline(path: Path, text: str) -> None:
    """Replace the baseline whole (never through a symbolic link)."""
    from ginnyo.errors import GinnyoError
    from ginnyo.support.files import write_new
    try:
        write_new(path, text, force=True, option="--baseline")
    except GinnyoError as problem:
        raise CountError(str(problem)) from None


def compare(figures: dict[str, int], baseline: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The table of figures beside the baseline, and one line for each figure that fails."""
    known = baseline["figures"]
    rows = [f"{'figure':<12} {'baseline':>14} {'now':>14} {'change':>8}"]
    failures = []
    for name, now in figures.items():
        before = known.get(name)
        if before is None:
            rows.append(f"{name:<12} {'-':>14} {now:>14,} {'new':>8}")
            failures.append(f"{name}: not in the baseline (run --update)")
            continue
        change = now / before - 1
        rows.append(f"{name:<12} {before:>14,} {now:>14,} {change:>+8.1%}")
        if (now - before) * 100 > LIMIT_PERCENT * before:
            failures.append(f"{name}: {now:,} instructions a call, {change:+.1%} over the baseline's "
                            f"{before:,} (the limit is +{LIMIT_PERCENT}%)")
    return rows, failures


def _names(text: str) -> list[str]:
    names = [name for name in text.split(",") if name]
    unknown = [name for name in names if name not in FIGURES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"not a figure: {', '.join(unknown) or repr(text)} "
                                         f"(the figures: {', '.join(FIGURES)})")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figures", type=_names, default=list(FIGURES),
                        help=f"comma-separated figures to count (default all: {','.join(FIGURES)})")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline file (default %(default)s)")
    parser.add_argument("--update", action="store_true", help="measure every figure and rewrite the baseline")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON, check nothing")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        run_figures(args.figures, args.report)
        return 0
    if args.update and args.figures != list(FIGURES):
        parser.error("--update: measures every figure; leave out --figures")
    try:
        baseline = None if args.update or args.json else read_baseline(args.baseline)
        figures, about = measure(args.figures)
        if args.json:
            print(json.dumps({"figures": figures, "core": about.get("core")}))
            return 0
        if args.update:
            write_baseline(args.baseline, baseline_text(figures))
            print(f"count_instructions: wrote {args.baseline}: "
                  + ", ".join(f"{name} {count:,}" for name, count in figures.items()))
            return 0
    except CountError as problem:
        print(f"count_instructions: {problem}", file=sys.stderr)
        return 1
    assert baseline is not None
    rows, failures = compare(figures, baseline)
    print(f"instructions a call (callgrind Ir), core {about.get('core')}, baseline {args.baseline.name} "
          f"of {baseline.get('commit', 'an unknown commit')}")
    print("\n".join(rows))
    for slower, faster in RATIOS:
        if slower in figures and faster in figures:
            print(f"{slower} / {faster}: {figures[slower] / figures[faster]:.2f} x")
    positions = baseline.get("positions")
    counted_over = positions if isinstance(positions, dict) else {}
    resized = [name for name in figures if counted_over.get(name) != FIGURES[name].positions]
    if resized:
        print(f"note: {', '.join(resized)} now run over other positions than the baseline's: make it again")
    if baseline.get("environment") != environment_description():
        print(f"note: the baseline was made with {baseline.get('environment')}, this run has "
              f"{environment_description()}: counts differ between them")
    for failure in failures:
        print(f"count_instructions: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
