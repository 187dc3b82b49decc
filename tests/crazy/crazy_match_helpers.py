"""Helpers of the Crazy Rummy match tests: a turn played plainly, so that a test reaches the moment it
is about."""

from __future__ import annotations

from ginnyo.crazy.cards import card_code
from ginnyo.crazy.match import CrazyMatch


def finish_turn(match: CrazyMatch) -> None:
    """The seat to move draws from the stock (unless it opens) and discards the first card it holds."""
    steps: list[dict[str, str]] = [] if match.round.opening else [{"draw": "stock"}]
    hand = match.round.after("none" if match.round.opening else "stock", []).hands[match.to_move]
    match.apply([*steps, {"discard": card_code(hand[0])}])
