"""The door to ``ginnycore.equity``, the compiled leave values and equity
ranking: what ginnyo uses of it, imported here alone."""

from __future__ import annotations

from ginnycore.equity import LeaveModel, rank_batch, rank_core

__all__ = ["LeaveModel", "rank_batch", "rank_core"]
