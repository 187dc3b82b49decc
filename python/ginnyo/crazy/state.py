"""A Crazy Rummy turn as JSON (docs/CRAZY-RUMMY.md): load, check, write back.

Bad input raises :class:`CrazyError` with one line naming the field or the card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..support import strict_json   # the same JSON contract as positions
from ..support.files import BYTE_ORDER_MARK, STATE_BYTES, check_length, quote, read_bounded
from .cards import NUM_CARDS, ROUNDS, card_code, cards_text, parse_cards, wild_rank
from .errors import CrazyError
from .melds import Meld, meld_text, parse_meld

FIELDS = ("round", "hand", "melds", "others", "discard", "stock", "draw")
MAX_HAND = 14   # a hand never grows past 8 in play; the bound keeps every solve quick


@dataclass(frozen=True)
class TurnState:
    """What the player to move sees at the start of a turn."""

    round: int
    hand: tuple[int, ...]
    melds: tuple[Meld, ...] = ()       # the player's own melds on the table
    others: tuple[Meld, ...] = ()      # every other player's melds
    discard: tuple[int, ...] = ()      # the discard pile, bottom first: the last card is the top
    stock: int = 0                     # cards left in the stock
    draw: bool = True                  # False: the turn's cards are in hand already (the round's opening turn)

    @property
    def wild(self) -> int:
        return wild_rank(self.round)

    def seen(self) -> set[int]:
        cards = set(self.hand) | set(self.discard)
        for meld in self.melds + self.others:
            cards.update(meld.cards)
        return cards

    def unseen(self) -> list[int]:
        """Cards the player cannot see: the stock's and the other hands'."""
        seen = self.seen()
        return [card_id for card_id in range(NUM_CARDS) if card_id not in seen]

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "hand": cards_text(self.hand),
                "melds": [meld_text(meld, self.wild) for meld in self.melds],
                "others": [meld_text(meld, self.wild) for meld in self.others],
                "discard": cards_text(self.discard), "stock": self.stock, "draw": self.draw}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object) -> TurnState:
        if not isinstance(data, dict):
            raise CrazyError("state: must be a JSON object")
        for key in data:
            if key not in FIELDS:
                raise CrazyError(f"field {quote(key)}: unknown field (known: {', '.join(FIELDS)})")
        for key in ("round", "hand"):
            if key not in data:
                raise CrazyError(f"field {quote(key)}: missing")
        round_number = _whole(data["round"], "round")
        if not 1 <= round_number <= ROUNDS:
            raise CrazyError(f"round: {quote(round_number)} is not 1..{ROUNDS}")
        wild = wild_rank(round_number)
        hand = tuple(parse_cards(data["hand"], "hand"))
        if not 1 <= len(hand) <= MAX_HAND:
            raise CrazyError(f"hand: {len(hand)} cards (a hand holds 1 to {MAX_HAND})")
        melds = _melds(data.get("melds", []), wild, "melds")
        others = _melds(data.get("others", []), wild, "others")
        discard = tuple(parse_cards(data.get("discard", ""), "discard"))
        draw = data.get("draw", True)
        if not isinstance(draw, bool):
            raise CrazyError(f"draw: expected true or false, got {quote(draw)}")
        _one_deck(hand, melds, others, discard)
        unseen = NUM_CARDS - len(hand) - len(discard) - sum(len(m.cards) for m in melds + others)
        stock = _whole(data["stock"], "stock") if "stock" in data else unseen
        if not 0 <= stock <= unseen:
            raise CrazyError(f"stock: {quote(stock)} cards, but only {unseen} cards are out of sight")
        if draw and stock == 0:
            raise CrazyError("stock: empty, so the round is over (no turn to play)")
        return cls(round_number, hand, melds, others, discard, stock, draw)

    @classmethod
    def from_json(cls, text: str | bytes) -> TurnState:
        """A state from JSON text of at most :data:`files.STATE_BYTES`."""
        if not isinstance(text, (str, bytes)):
            raise CrazyError(f"state: JSON must be text, not {type(text).__name__}")
        check_length(text, STATE_BYTES, what="state", error=CrazyError)
        if isinstance(text, str) and text.startswith(BYTE_ORDER_MARK):    # as json.loads skips it in bytes
            text = text[len(BYTE_ORDER_MARK):]
        return cls.from_dict(strict_json.loads(text, CrazyError))

    @classmethod
    def from_file(cls, path: str | Path) -> TurnState:
        """Read a state file of at most :data:`files.STATE_BYTES`; ``'-'`` reads standard input."""
        return cls.from_json(read_bounded(path, STATE_BYTES, what="state", error=CrazyError))


def load_state(source: TurnState | dict[str, Any] | str | Path) -> TurnState:
    """A state from a :class:`TurnState`, a dict, JSON text (a str starting with
    ``{``), a file path or ``'-'`` (standard input)."""
    if isinstance(source, TurnState):
        return source
    if isinstance(source, dict):
        return TurnState.from_dict(source)
    if isinstance(source, str) and source.lstrip(BYTE_ORDER_MARK).lstrip().startswith("{"):
        return TurnState.from_json(source)
    if isinstance(source, (str, Path)):
        return TurnState.from_file(source)
    raise CrazyError(f"state: cannot load from {type(source).__name__}")


def _whole(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CrazyError(f"{field}: expected a whole number, got {quote(value)}")
    return value


def _melds(value: object, wild: int, field: str) -> tuple[Meld, ...]:
    if not isinstance(value, list):
        raise CrazyError(f"{field}: expected a list of melds, got {type(value).__name__}")
    return tuple(parse_meld(item, wild, f"{field}[{index}]") for index, item in enumerate(value))


def _one_deck(hand: tuple[int, ...], melds: tuple[Meld, ...], others: tuple[Meld, ...],
              discard: tuple[int, ...]) -> None:
    where: dict[int, str] = {}
    places = [("hand", hand), ("discard", discard)]
    places += [(f"melds[{i}]", m.cards) for i, m in enumerate(melds)]
    places += [(f"others[{i}]", m.cards) for i, m in enumerate(others)]
    for place, cards in places:
        for card_id in cards:
            if card_id in where:
                raise CrazyError(f"{place}: card {card_code(card_id)} is also in {where[card_id]} (one deck)")
            where[card_id] = place

