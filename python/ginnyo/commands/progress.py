"""The progress bar every long command shows on stderr (tqdm, hidden when stderr
is not a terminal)."""

from __future__ import annotations

import sys
from typing import Any


def progress_bar(total: int, unit: str = "game", *, leave: bool = True) -> Any:  # tqdm has no inline types
    """A bar counting ``total`` items of ``unit`` on stderr."""
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, file=sys.stderr, disable=None, dynamic_ncols=True, leave=leave)


__all__ = ["progress_bar"]
