"""Crazy Rummy cards: Ginny-O's card codes, the wild rank of each round and the
points a card counts in a hand (docs/RULES.md §7).

A card is the Ginny-O card id 0..51 (``suit * 13 + rank - 1``, suits ``C D H S``,
ace = rank 1, always low).  One 52-card deck, so every card is unique.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..errors import Reason, TileError
from ..support.files import quote
from ..vocab.tiles import NUM_CARDS, card, card_code, parse_card, rank_of, suit_of
from .errors import CrazyError

ROUNDS = 13
WILD_POINTS = 25

__all__ = ["ROUNDS", "WILD_POINTS", "NUM_CARDS", "card", "card_code", "rank_of", "suit_of",
           "wild_rank", "points", "hand_points", "parse_one", "parse_cards", "cards_text", "mask_of"]


def wild_rank(round_number: int) -> int:
    """The wild rank of a round: aces (1) in round 1 … kings (13) in round 13."""
    if not 1 <= round_number <= ROUNDS:
        raise CrazyError(f"round {quote(round_number)} is not 1..{ROUNDS}")
    return round_number


def points(card_id: int, wild: int) -> int:
    """What a card left in hand costs: wild 25, ace 1, 2-10 face value, J Q K 10."""
    rank = rank_of(card_id)
    if rank == wild:
        return WILD_POINTS
    return min(rank, 10)


def hand_points(cards: Iterable[int], wild: int) -> int:
    return sum(points(card_id, wild) for card_id in cards)


def parse_one(text: object, field: str) -> int:
    """One card code (``AH``, ``10h``, ``td``): case does not matter."""
    if not isinstance(text, str):
        raise CrazyError(Reason(f"{field}: card {quote(text)} is not a string", "crazy-bad-card", card=quote(text)))
    try:
        card_id, _ = parse_card(text, lower_is_joker=False)
    except TileError as error:
        raise CrazyError(Reason(f"{field}: {error}", "crazy-bad-card", card=quote(text))) from None
    return card_id


def parse_cards(value: object, field: str) -> list[int]:
    """Cards from a string of space-separated codes or a list of codes; no card twice."""
    if isinstance(value, str):
        codes: Sequence[object] = value.split(None, NUM_CARDS)   # no more pieces than a deck has cards
    elif isinstance(value, list):
        codes = value
    else:
        raise CrazyError(f"{field}: expected a string of card codes or a list of them, "
                         f"got {type(value).__name__}")
    if len(codes) > NUM_CARDS:
        raise CrazyError(f"{field}: more than {NUM_CARDS} cards (one deck)")
    cards = [parse_one(code, field) for code in codes]
    seen: set[int] = set()
    for card_id in cards:
        if card_id in seen:
            raise CrazyError(f"{field}: card {card_code(card_id)} appears twice (one deck)")
        seen.add(card_id)
    return cards


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_code(card_id) for card_id in cards)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card_id in cards:
        mask |= 1 << card_id
    return mask
