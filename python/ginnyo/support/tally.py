"""What the self-play of either game shares: seeds cut into batches of work,
each seat's wins and final scores summed up as ``ginnyo selfplay`` and
``ginnyo crazy selfplay`` print them, and the records written as games finish."""

from __future__ import annotations

import os
import statistics
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Protocol, Sequence

from . import interrupts
from ..errors import GinnyoError
from .files import PATH_CHARS, check_new, quote, write_new
from .workers import cut

#: a record file's name ends so, after its game's prefix and seed
RECORD_SUFFIX = ".jsonl"


class Finished(Protocol):
    """A finished game as the tally reads it: each seat's player kind, its final
    score, and the seats that came first."""

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def winners(self) -> tuple[int, ...]: ...


def batches(seeds: Sequence[int], workers: int, scheduler: str | None = None,
            largest: int = 200) -> Sequence[list[int]]:
    """The seeds cut into batches of work; one game a batch in this process, so
    that each game's record is written as the game ends."""
    return cut(seeds, workers, largest=largest if workers > 1 or scheduler else 1)


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    name: str
    wins: int        # outright
    shared: int      # first place shared with others
    mean: float
    sd: float        # standard deviation of the final score ("spread" is only ever a score difference)
    low: int
    high: int


def seat_summaries(results: Sequence[Finished]) -> list[SeatSummary]:
    """Per seat: wins, shared first places, and the final scores' mean, standard deviation and range."""
    rows = []
    for seat, name in enumerate(results[0].names):
        scores = [result.scores[seat] for result in results]
        wins = sum(1 for result in results if result.winners == (seat,))
        shared = sum(1 for result in results if len(result.winners) > 1 and seat in result.winners)
        rows.append(SeatSummary(seat, name, wins, shared, statistics.fmean(scores),
                                statistics.pstdev(scores), min(scores), max(scores)))
    return rows


def seat_table(results: Sequence[Finished]) -> list[str]:
    """The seats' table: a header and a line a seat."""
    lines = [f"{'player':<7} {'kind':<8} {'wins':>6} {'shared':>6} {'mean':>8} {'sd':>7} {'min':>5} {'max':>5}"]
    for row in seat_summaries(results):
        lines.append(f"{row.seat:<7} {row.name:<8} {row.wins:>6} {row.shared:>6} {row.mean:>8.1f} "
                     f"{row.sd:>7.1f} {row.low:>5} {row.high:>5}")
    return lines



def records_folder(path: str | None) -> Path | None:
    """``--records DIR`` made ready (created if need be), or None without it."""
    if path is None:
        return None
    records = Path(path)
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GinnyoError(f"--records {quote(str(records), PATH_CHARS)}: cannot create "
                          f"({error.strerror or error})") from None
    return records


class RecordWriter:
    """The ``on_results`` of a self-play run: writes each finished game's record
    (an object with ``seed`` and ``record``) to ``folder / (prefix + seed + .jsonl)``
    as it arrives, whole or not at all (never over a file without ``force``, never
    through a link), and moves the progress bar on."""

    def __init__(self, bar: Any, folder: Path | None, prefix: str, *, force: bool = False) -> None:
        self.bar, self.folder, self.prefix, self.force = bar, folder, prefix, force
        self.games = 0      # finished games seen
        self.written = 0    # records written

    def path(self, seed: int) -> Path:
        assert self.folder is not None
        return self.folder / f"{self.prefix}{seed}{RECORD_SUFFIX}"

    def refuse_existing(self, seeds: range) -> None:
        """Before the run: refuse (exit 2) if a record it would write exists (and
        ``force`` is not given) or is a symbolic link."""
        if self.folder is None:
            return
        try:
            present = os.listdir(self.folder)
        except OSError as error:
            raise GinnyoError(f"--records {quote(str(self.folder), PATH_CHARS)}: cannot list "
                              f"({error.strerror or error})") from None
        for entry in sorted(present):
            seed = entry[len(self.prefix):-len(RECORD_SUFFIX)]
            if (entry.startswith(self.prefix) and entry.endswith(RECORD_SUFFIX)
                    and seed.lstrip("-").isdigit() and str(int(seed)) == seed and int(seed) in seeds):
                check_new(self.folder / entry, force=self.force, option="--records")

    def __call__(self, batch: Iterable[Any]) -> None:
        for result in batch:
            if self.folder is not None:
                with interrupts.held():   # a stop signal waits until the record is in place
                    write_new(self.path(result.seed), result.record or "", force=self.force,
                              option="--records")
                    self.written += 1
            self.games += 1
            self.bar.update(1)

    def done(self) -> str:
        """What the run finished, for the line an interrupt prints."""
        if self.folder is None:
            return f"after {self.games} game{'s' if self.games != 1 else ''}"
        return f"wrote {self.written} record{'s' if self.written != 1 else ''} to {self.folder}"

    @contextmanager
    def running(self) -> Iterator[None]:
        """The run: within it SIGINT and SIGTERM stop it (:class:`interrupts.Interrupted`
        naming what was done); the progress bar is closed after."""
        try:
            with interrupts.raising(), interrupts.reporting(self.done):
                yield
        finally:
            self.bar.close()


__all__ = ["Finished", "RECORD_SUFFIX", "RecordWriter", "SeatSummary", "batches", "records_folder", "seat_summaries",
           "seat_table"]
