"""What the self-play of either game shares: seeds cut into batches of work, and
each seat's wins and final scores summed up as ``ginnyo selfplay`` and
``ginnyo crazy selfplay`` print them."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Protocol, Sequence

from .workers import cut


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
    spread: float    # standard deviation of the final score
    low: int
    high: int


def seat_summaries(results: Sequence[Finished]) -> list[SeatSummary]:
    """Per seat: wins, shared first places, and the final scores' mean, spread and range."""
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
    lines = [f"{'player':<7} {'kind':<8} {'wins':>6} {'shared':>6} {'mean':>8} {'spread':>7} {'min':>5} {'max':>5}"]
    for row in seat_summaries(results):
        lines.append(f"{row.seat:<7} {row.name:<8} {row.wins:>6} {row.shared:>6} {row.mean:>8.1f} "
                     f"{row.spread:>7.1f} {row.low:>5} {row.high:>5}")
    return lines


__all__ = ["Finished", "SeatSummary", "batches", "seat_summaries", "seat_table"]
