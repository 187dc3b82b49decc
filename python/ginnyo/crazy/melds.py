"""Crazy Rummy melds with wilds (docs/RULES.md §7): sets of 3-4 cards of one rank, runs
of 3 or more cards of one suit in sequence (ace always low, no wrap), and what
each wild stands for.

A meld is written as its cards in order, a wild that stands for another card
followed by ``=`` and the one card it stands for, rank and suit, in a set as in a
run (``7C 7D 5H=7S``, ``4C 5H=5C 6C``): only that card may later take its place.
A card of the wild rank written alone stands for itself.  The older set notation
naming the rank only (``5H=7``) is read where it can mean one card alone (a set
of four with one such wild); elsewhere it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, Sequence

from ..support.files import quote
from ..vocab.tiles import RANKS
from .cards import card, card_code, parse_one, rank_of, suit_of
from ..errors import Reason
from .errors import CrazyError

Kind = Literal["set", "run"]
SET_MAX = 4
MELD_MIN = 3
KING = 13


@dataclass(frozen=True)
class Meld:
    """One meld on the table.  A set's ``rank`` is its rank and ``named`` the card
    each of its places stands for (made up, when not given, of the cards themselves
    and, for each wild, the lowest suit still free); a run's ``rank`` is its lowest
    rank and ``suit`` its suit, and card ``i`` stands for rank ``rank + i``."""

    kind: Kind
    cards: tuple[int, ...]
    rank: int
    suit: int = -1
    named: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind == "set" and len(self.named) < len(self.cards):
            object.__setattr__(self, "named", set_names(self.rank, self.cards, self.named))

    def stands_for(self, index: int) -> int:
        """The card the ``index``-th card stands for."""
        if self.kind == "set":
            return self.named[index]
        return card(self.rank + index, self.suit)

    def free_suits(self) -> list[int]:
        """A set's suits that no place stands for yet: what a lay-off may add."""
        taken = {suit_of(named) for named in self.named}
        return [suit for suit in range(4) if suit not in taken]

    @property
    def high(self) -> int:
        """A run's highest rank."""
        return self.rank + len(self.cards) - 1

    def is_standing_in(self, index: int, wild: int) -> bool:
        """Is card ``index`` a wild standing for another card (one a real card may replace)?"""
        physical = self.cards[index]
        if rank_of(physical) != wild:
            return False
        return self.stands_for(index) != physical

    def wild_slots(self, wild: int) -> list[int]:
        """The places of the wilds standing in (wilds are few: look at those only)."""
        return [index for index, physical in enumerate(self.cards)
                if rank_of(physical) == wild and self.stands_for(index) != physical]

    def can_take(self, index: int, real: int, wild: int) -> bool:
        """May ``real`` replace the wild at ``index``: the real card it stands for."""
        if not self.is_standing_in(index, wild) or rank_of(real) == wild:
            return False
        return real == self.stands_for(index)

    def swapped(self, index: int, real: int) -> Meld:
        cards = list(self.cards)
        cards[index] = real
        return replace(self, cards=tuple(cards))

    def text(self, wild: int) -> str:
        return meld_text(self, wild)


def set_names(rank: int, cards: Sequence[int], named: Sequence[int] = ()) -> tuple[int, ...]:
    """The card each place of a set stands for: ``named`` for the first places, then a
    card of the set's rank for itself and a wild for the lowest suit not yet named
    (past four places, which :func:`check` refuses, the first suit again)."""
    names = list(named)
    rest = cards[len(names):]
    used = set(names) | {physical for physical in rest if rank_of(physical) == rank}
    free = [card(rank, suit) for suit in range(4) if card(rank, suit) not in used]
    for physical in rest:
        if rank_of(physical) == rank:
            names.append(physical)
        else:
            names.append(free.pop(0) if free else card(rank, 0))
    return tuple(names)


def meld_text(meld: Meld, wild: int) -> str:
    """``7C 7D 5H=7`` / ``4C 5H=5C 6C``: wilds standing in are followed by what they stand for."""
    codes = []
    for index, physical in enumerate(meld.cards):
        code = card_code(physical)
        if meld.is_standing_in(index, wild):
            code += "=" + card_code(meld.stands_for(index))
        codes.append(code)
    return " ".join(codes)


def check(meld: Meld, wild: int) -> Reason | None:
    """Why ``meld`` is not a legal meld in a round with this wild rank (with its refusal code), or None."""
    size = len(meld.cards)
    if len(set(meld.cards)) != size:
        return Reason("a card appears twice", "crazy-card-twice")
    if meld.kind == "set":
        rank = RANKS[meld.rank - 1]
        if not MELD_MIN <= size <= SET_MAX:
            return Reason(f"a set holds 3 or 4 cards, not {size}", "crazy-set-size", count=size)
        for physical in meld.cards:
            if rank_of(physical) not in (meld.rank, wild):
                return Reason(f"{card_code(physical)} is not a {rank} or a wild", "crazy-set-odd-card",
                              card=card_code(physical), rank=rank)
        if len(meld.named) != size:
            return Reason("every place of a set stands for one card", "crazy-set-places")
        for physical, named in zip(meld.cards, meld.named):
            if rank_of(named) != meld.rank:
                return Reason(f"{card_code(physical)} stands for {card_code(named)}, not a {rank}", "crazy-set-stands-off",
                              card=card_code(physical), named=card_code(named), rank=rank)
            if named != physical and rank_of(physical) != wild:
                return Reason(f"{card_code(physical)} cannot stand for {card_code(named)}", "crazy-cannot-stand-for",
                              card=card_code(physical), named=card_code(named))
        if len(set(meld.named)) != size:
            twice = next(named for named in meld.named if meld.named.count(named) > 1)
            return Reason(f"two places stand for {card_code(twice)} (a set holds each suit once)", "crazy-set-suit-twice",
                          card=card_code(twice))
        return None
    if size < MELD_MIN:
        return Reason(f"a run holds 3 or more cards, not {size}", "crazy-run-size", count=size)
    if meld.rank < 1 or meld.high > KING:
        return Reason("a run goes from the ace (low) up to the king, without wrapping", "crazy-run-wraps")
    for index, physical in enumerate(meld.cards):
        if physical != meld.stands_for(index) and rank_of(physical) != wild:
            stood = card_code(meld.stands_for(index))
            return Reason(f"{card_code(physical)} cannot stand for {stood}", "crazy-cannot-stand-for",
                          card=card_code(physical), named=stood)
    return None


def make_set(rank: int, cards: Sequence[int], wild: int, named: Sequence[int] = ()) -> Meld:
    """A set, its first places standing for ``named`` and the rest as :func:`set_names`."""
    return _checked(Meld("set", tuple(cards), rank, named=set_names(rank, cards, named)), wild)


def make_run(suit: int, low: int, cards: Sequence[int], wild: int) -> Meld:
    return _checked(Meld("run", tuple(cards), low, suit), wild)


def _checked(meld: Meld, wild: int) -> Meld:
    problem = check(meld, wild)
    if problem:
        raise CrazyError(Reason(f"{meld_text(meld, wild)}: {problem}", problem.code, **problem.arguments))
    return meld


def parse_meld(value: object, wild: int, field: str) -> Meld:
    """A meld from its text (or a list of its codes), checked; errors name ``field``."""
    if isinstance(value, str):
        tokens: Sequence[object] = value.split()
    elif isinstance(value, list):
        tokens = value
    else:
        raise CrazyError(Reason(f"{field}: expected a meld as a string of card codes, got {type(value).__name__}",
                                "crazy-bad-meld"))
    if not tokens:
        raise CrazyError(Reason(f"{field}: an empty meld", "crazy-bad-meld"))
    physical: list[int] = []
    identities: list[int | str] = []   # a card, or a rank letter (the older set notation)
    for token in tokens:
        if not isinstance(token, str):
            raise CrazyError(Reason(f"{field}: card {quote(token)} is not a string", "crazy-bad-card", card=quote(token)))
        code, equals, stands = token.partition("=")
        physical_card = parse_one(code, field)
        if not equals:
            identities.append(physical_card)
        elif rank_of(physical_card) != wild:
            raise CrazyError(Reason(f"{field}: {code} is not a wild this round (the wild rank is "
                                    f"{RANKS[wild - 1]}), so it stands only for itself", "crazy-not-wild",
                                    card=code, wild=RANKS[wild - 1]))
        elif stands.upper() in ("10", *RANKS) and len(stands) <= 2:
            identities.append("T" if stands == "10" else stands.upper())
        else:
            identities.append(parse_one(stands, field))
        physical.append(physical_card)
    bare_wilds = [card_code(c) for c, i in zip(physical, identities) if i == c and rank_of(c) == wild]
    hint = f" ({bare_wilds[0]} is a wild: write what it stands for, as {bare_wilds[0]}=..)" if bare_wilds else ""
    try:
        meld = _meld_from(physical, identities, field)
    except CrazyError as error:
        reason = error.reason
        raise CrazyError(Reason(f"{error}{hint}", reason.code, **reason.arguments) if reason else f"{error}{hint}") from None
    problem = check(meld, wild)
    if problem:
        raise CrazyError(Reason(f"{field}: {problem}{hint}", problem.code, **problem.arguments))
    return meld


def _meld_from(physical: list[int], identities: list[int | str], field: str) -> Meld:
    ranks = {RANKS.index(i) + 1 if isinstance(i, str) else rank_of(i) for i in identities}
    if len(ranks) == 1:
        rank = ranks.pop()
        return Meld("set", tuple(physical), rank, named=_set_named(rank, physical, identities, field))
    if any(isinstance(i, str) for i in identities):
        raise CrazyError(Reason(f"{field}: a wild standing for a rank belongs in a set, and these cards "
                                "are not all of one rank", "crazy-rank-wild-not-set"))
    cards = [i for i in identities if isinstance(i, int)]
    suits = {suit_of(c) for c in cards}
    if len(suits) != 1:
        raise CrazyError(Reason(f"{field}: not a set (one rank) or a run (one suit)", "crazy-not-a-meld"))
    order = sorted(range(len(cards)), key=lambda index: rank_of(cards[index]))
    low = rank_of(cards[order[0]])
    for step, index in enumerate(order):
        if rank_of(cards[index]) != low + step:
            raise CrazyError(Reason(f"{field}: the run's cards are not in sequence (a run has no gaps and "
                                    "the ace is always low)", "crazy-run-gap"))
    return Meld("run", tuple(physical[index] for index in order), low, suits.pop())


def _set_named(rank: int, physical: list[int], identities: list[int | str], field: str) -> tuple[int, ...]:
    """The card each place of a set stands for.  A wild naming the rank only (the older
    notation, ``5H=7``) is read as the one card left when exactly one is; otherwise refused."""
    rank_only = [index for index, identity in enumerate(identities) if isinstance(identity, str)]
    named = {identity for identity in identities if isinstance(identity, int)}
    free = [card(rank, suit) for suit in range(4) if card(rank, suit) not in named]
    if rank_only and not (len(rank_only) == 1 and len(free) == 1):
        code = card_code(physical[rank_only[0]])
        letter = RANKS[rank - 1]
        choices = " or ".join(f"{code}={card_code(option)}" for option in free) or f"{code}={letter}C"
        raise CrazyError(Reason(f"{field}: {code}={letter} must name the card it stands for, rank and suit, "
                                f"as {choices} (a wild in a set stands for one card)", "crazy-wild-names-card",
                                wild=f"{code}={letter}", choices=choices))
    return tuple(free[0] if isinstance(identity, str) else identity for identity in identities)
