"""Instructions and mispredicted branches of one generation, counted by callgrind.

    python bench/count_generation.py [all|plain|joker] [--repeat N]

Runs ``Core.generate_plays`` over the positions of ``bench/corpus-mid.jsonl``
(all of them, those with no joker on the rack, or those with one) under
valgrind's callgrind with its branch simulator, counting only the generations
(cut out as ``bench/count_instructions.py`` explains), and prints the counts
per position.  Unlike a timing these do not depend on the machine's load, so
they can decide between two versions of the core; callgrind's branch predictor
is simpler than a real one, so its mispredictions are a guide, not a
measurement.  Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import sys

from count_instructions import CORPUS, CountError, Stretches, counted, inner_command as _inner_command, per_call

MEASURED = "generation"


def inner_command(selection: str, repeat: int) -> list[str]:
    """The command valgrind runs: this script, by this interpreter, doing the work."""
    return _inner_command(__file__, selection, "--repeat", str(repeat))


def _generate(selection: str, repeat: int, report: str) -> None:
    """The work callgrind watches: generate for every selected position; the
    report names how many positions and which compiled core."""
    import ginnycore.core
    from ginnyo import native
    from ginnyo.position.position import Position
    from ginnyo.vocab.tiles import JOKER

    positions = [Position.from_json(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    generations = [native.core_of(p).generate_plays for p in positions
                   if selection == "all" or (JOKER in p.rack) == (selection == "joker")]
    stretches = Stretches()
    for _ in range(repeat):
        for generate in generations:
            generate()
    stretches.end(MEASURED, len(generations) * repeat)
    stretches.report(report, positions=len(generations), core=ginnycore.core.__file__)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("selection", nargs="?", choices=("all", "plain", "joker"), default="all")
    parser.add_argument("--repeat", type=int, default=10,
                        help="generations of each position (default 10; the first also allocates the "
                             "core's array of plays)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.repeat < 1 and not args.inner:
        parser.error(f"--repeat: must be 1 or more, not {args.repeat}")
    if args.inner:
        _generate(args.selection, args.repeat, args.report)
        return 0
    try:
        stretches, about = counted(inner_command(args.selection, args.repeat), events=("--branch-sim=yes",))
    except CountError as problem:
        print(f"count_generation: {problem}", file=sys.stderr)
        return 1
    if not about["positions"]:
        print("count_generation: no position selected", file=sys.stderr)
        return 1
    counts = {event: per_call(stretches, event)[MEASURED] for event in ("Ir", "Bc", "Bcm")}
    print(f"{args.selection}: {about['positions']} positions, {args.repeat} generations each, core {about['core']}")
    print(f"instructions a position            {counts['Ir']:10.0f}")
    print(f"conditional branches a position    {counts['Bc']:10.0f}")
    print(f"... mispredicted (callgrind model) {counts['Bcm']:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
