"""Self-play at scale: the Python game loop's runs (games), the compiled greedy and equity loops
(compiled), the position corpus drawn from seeded games (corpus) and the leave values trained by
self-play (leave_training).

The names below are those of :mod:`ginnyo.selfplay.games`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .games import (
    GameResult, SeatSummary, batches, play_one, play_batch, run, player_kinds, seat_summaries,
    summary_text, default_workers, RecordWriter, records_folder)

__all__ = [
    "GameResult", "SeatSummary", "batches", "play_one", "play_batch", "run", "player_kinds",
    "seat_summaries", "summary_text", "default_workers", "RecordWriter", "records_folder"]

__getattr__ = lazy_names(__name__, {"games": __all__})
