"""Tile codes: cards, jokers and their values (docs/RULES.md §1, docs/FORMAT.md "Tile codes").

A card is an int 0..51: ``suit * 13 + rank - 1`` with suits ``C D H S`` and
ranks 1 (ace) .. 13 (king).  A rack tile is a card or :data:`JOKER`.
"""

from __future__ import annotations

import operator

from ..errors import TileError
from ..support.quoting import quote

SUITS = "CDHS"
RANKS = "A23456789TJQK"
JOKER = 52
JOKER_CODE = "*"
NUM_CARDS = 52


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1 = ace .. 13 = king) and suit index (0..3)."""
    return suit * 13 + rank - 1


def rank_of(card_id: int) -> int:
    """Rank 1 (ace) .. 13 (king)."""
    return card_id % 13 + 1


def suit_of(card_id: int) -> int:
    """Suit index 0..3 in ``C D H S`` order."""
    return card_id // 13


def card_code(card_id: int) -> str:
    """``'TH'`` for the ten of hearts; :class:`TileError` for anything but a card 0..51."""
    try:
        if 0 <= card_id < NUM_CARDS:
            return RANKS[card_id % 13] + SUITS[card_id // 13]
    except TypeError:   # None, a string, a float's index: not a card either
        pass
    raise TileError(f"card {quote(card_id)} is not a card (an int 0..{NUM_CARDS - 1})")


def joker_code(card_id: int) -> str:
    """A joker standing for ``card_id``, as written on the board: ``'th'``."""
    return card_code(card_id).lower()


def tile_code(card_id: int, is_joker: bool) -> str:
    """A placed tile as written on the board and in move notation."""
    return joker_code(card_id) if is_joker else card_code(card_id)


def rack_code(tile: int) -> str:
    """A rack tile: a card code or ``'*'``."""
    return JOKER_CODE if tile == JOKER else card_code(tile)


def _split_rank_suit(text: str) -> tuple[str, str] | None:
    if len(text) == 3 and text[:2] == "10":
        return "10", text[2]
    if len(text) == 2:
        return text[0], text[1]
    return None


def parse_card(text: str, *, lower_is_joker: bool) -> tuple[int, bool]:
    """Parse a placed-tile code into ``(card, is_joker)``.

    With ``lower_is_joker`` (board and notation) a code written wholly in lower
    case is a joker standing for that card: ``'5h'``, ``'th'``, ``'10h'``.
    Otherwise (rack) case does not matter and the result is never a joker.
    Raises :class:`TileError` naming the code.
    """
    if not isinstance(text, str):
        raise TileError(f"tile {quote(text)} is not a string")
    parts = _split_rank_suit(text)
    if parts is None:
        raise TileError(f"unknown tile code {quote(text)}")
    rank_text, suit_text = parts
    is_joker = False
    if lower_is_joker:
        if suit_text.islower() and (not rank_text.isalpha() or rank_text.islower()):
            is_joker = True
        elif not (suit_text.isupper() and (not rank_text.isalpha() or rank_text.isupper())):
            raise TileError(f"unknown tile code {quote(text)} (mixed case: a joker is all lower case)")
    rank_index = RANKS.find("T" if rank_text == "10" else rank_text.upper())
    suit_index = SUITS.find(suit_text.upper())
    if rank_index < 0 or suit_index < 0 or not rank_text.strip() or not suit_text.strip():
        raise TileError(f"unknown tile code {quote(text)}")
    return suit_index * 13 + rank_index, is_joker


def parse_rack_tile(text: str) -> int:
    """A rack code: ``'*'`` for a joker, else a card in any case (``'10h'`` = TH)."""
    if text == JOKER_CODE:
        return JOKER
    if isinstance(text, str) and text.strip() == JOKER_CODE:
        return JOKER
    card_id, _ = parse_card(text.strip() if isinstance(text, str) else text, lower_is_joker=False)
    return card_id


def run_value(card_id: int) -> int:
    """Value of a real card in a run: ace 1, 2..10 face, J Q K 10; :class:`TileError`
    for anything but a card 0..51."""
    return min(_card_rank(card_id), 10)


def set_value(card_id: int) -> int:
    """Value of a real card in a set: ace 15, 2..10 face, J Q K 10; :class:`TileError`
    for anything but a card 0..51."""
    rank = _card_rank(card_id)
    return 15 if rank == 1 else min(rank, 10)


def _card_rank(card_id: int) -> int:
    """The rank 1..13 of a card 0..51, checked: ``%`` alone would read -1 as a king, 52 as an ace."""
    try:
        index = operator.index(card_id)   # an int (a NumPy one too), not a float or a string
    except TypeError:
        index = -1
    if not 0 <= index < NUM_CARDS:
        raise TileError(f"card {quote(card_id)} is not a card (an int 0..{NUM_CARDS - 1})")
    return index % 13 + 1


def rack_penalty(tile: int) -> int:
    """What a tile left on the rack at the end costs (a positive number);
    :class:`TileError` for anything but a rack tile 0..52 (-1 would cost a king's)."""
    if tile == JOKER:
        return 0
    if 0 <= tile < NUM_CARDS:
        return set_value(tile)
    raise TileError(f"tile {quote(tile)} is not a rack tile (an int 0..{JOKER})")


class PlacedTile(tuple[int, bool]):
    """A tile on a square: the card it is (or stands for) and whether it is a joker."""

    __slots__ = ()

    def __new__(cls, card_id: int, joker: bool = False) -> "PlacedTile":
        return tuple.__new__(cls, (card_id, bool(joker)))

    def __getnewargs__(self) -> tuple[int, bool]:  # pickle passes (card, joker), not the tuple
        return (self[0], self[1])

    @property
    def card(self) -> int:
        return self[0]

    @property
    def joker(self) -> bool:
        return self[1]

    @property
    def code(self) -> str:
        """``'5H'`` for a real tile, ``'5h'`` for a joker standing for it."""
        return tile_code(self[0], self[1])

    @property
    def rack_tile(self) -> int:
        """The rack tile it came from: the card, or :data:`JOKER`."""
        return JOKER if self[1] else self[0]

    def __repr__(self) -> str:
        return f"PlacedTile({self.code!r})"
