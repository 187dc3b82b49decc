"""The plain-Python yardstick of the Crazy Rummy hand solver: brute force.

It tries every way to use the hand: each subset of naturals that could be
swapped for table wilds, then every partition of the other naturals into
deadwood, new melds and lay-offs on the player's own melds, each block with
every number of wilds.  What is left to place after the first choices is met
again and again: each such rest is searched once (memoised), which changes
nothing of the answer.  Slow, and simple enough to trust; the compiled solver
(:mod:`ginnyo.crazy.solver`) must agree with it exactly.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from .cards import WILD_POINTS, points, rank_of, suit_of
from .melds import KING, MELD_MIN, SET_MAX, Meld

INFINITE = 10 ** 9


def min_deadwood(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
                 others: Sequence[Meld] = ()) -> int:
    """The fewest points left in ``hand`` when any of it may be melded (nothing kept to discard)."""
    return _Table(wild, own, others).min_deadwood(hand)


def deadwood_keeping_one(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
                         others: Sequence[Meld] = ()) -> int:
    """The fewest points left with at least one card kept for the discard."""
    table = _Table(wild, own, others)
    return min(points(card, wild) + table.min_deadwood([c for c in hand if c != card]) for card in hand)


def held_after_discard(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
                       others: Sequence[Meld] = (), keep: Sequence[int] = ()) -> int:
    """The fewest points left after melding and discarding a card not in ``keep``."""
    table = _Table(wild, own, others)
    return min(table.min_deadwood([c for c in hand if c != card]) for card in hand if card not in keep)


def can_go_out(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
               others: Sequence[Meld] = ()) -> bool:
    """Can every card but one be melded, the last one discarded?"""
    table = _Table(wild, own, others)
    return any(table.min_deadwood([c for c in hand if c != card]) == 0 for card in hand)


class _Table:
    """The melds a hand is played against, with one memoised search for each number of wilds
    in hand: the hands asked about on one table (a hand less each card) share their work,
    as a search's answers depend on the rest placed, never on the hand it came from."""

    def __init__(self, wild: int, own: Sequence[Meld], others: Sequence[Meld]) -> None:
        self.wild = wild
        self.own = list(own)
        self.slots = [(meld, index) for meld in (*own, *others) for index in meld.wild_slots(wild)]
        self.searches: dict[int, _Search] = {}

    def min_deadwood(self, hand: Sequence[int]) -> int:
        naturals = sorted(card for card in hand if rank_of(card) != self.wild)
        hand_wilds = len(hand) - len(naturals)
        if hand_wilds not in self.searches:
            self.searches[hand_wilds] = _Search(self.wild, self.own, hand_wilds, hand_wilds + len(self.slots))
        search = self.searches[hand_wilds]
        best = INFINITE   # (a plan no legal way finishes counts INFINITE or more)
        for swapped in _swap_plans(naturals, self.slots, self.wild):
            rest = tuple(card for card in naturals if card not in swapped)
            best = min(best, search.place(rest, hand_wilds + len(swapped), frozenset(), False, bool(swapped)))
        return best


def _swap_plans(naturals: list[int], slots: list[tuple[Meld, int]], wild: int) -> set[frozenset[int]]:
    """Every set of naturals that can replace distinct table wilds, one each: a wild
    in a set or a run takes only the one card it stands for (docs/RULES.md §7)."""
    plans: set[frozenset[int]] = set()
    takers = [[card for card in naturals if meld.can_take(index, card, wild)] for meld, index in slots]

    def assign(slot_index: int, used: frozenset[int]) -> None:
        if slot_index == len(slots):
            plans.add(used)
            return
        assign(slot_index + 1, used)
        for card in takers[slot_index]:
            if card not in used:
                assign(slot_index + 1, used | {card})

    assign(0, frozenset())
    return plans


class _Search:
    """The exhaustive search placing naturals against own melds, memoised: what is left to
    place, the free wilds, the own melds laid off on and the two facts the swap rule asks
    about decide the least deadwood still to come (deadwood already left only adds to it)."""

    def __init__(self, wild: int, own: list[Meld], hand_wilds: int, most_wilds: int) -> None:
        self.wild = wild
        self.own = own
        self.hand_wilds = hand_wilds
        self.most_wilds = most_wilds   # the hand's wilds and one for each table wild swapped
        self.has_melded = bool(own)
        self.memo: dict[tuple[tuple[int, ...], int, frozenset[int], bool, bool], int] = {}
        self.blocks_of: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        self.uses_of: dict[tuple[int, ...], tuple[list[int], list[tuple[int, int]]]] = {}

    def place(self, rest: tuple[int, ...], wilds: int, used_own: frozenset[int], cheap_meld: bool,
              swapping: bool) -> int:
        """The least deadwood placing ``rest``, with ``wilds`` wilds still free, the own melds
        ``used_own`` laid off on, ``cheap_meld`` if a new meld needs no more wilds than the hand
        holds and ``swapping`` if table wilds were taken; ``INFINITE`` or more if no way is legal."""
        key = (rest, wilds, used_own, cheap_meld, swapping)
        if key not in self.memo:
            self.memo[key] = self._place(*key)
        return self.memo[key]

    def _place(self, rest: tuple[int, ...], wilds: int, used_own: frozenset[int], cheap_meld: bool,
               swapping: bool) -> int:
        if not rest:
            return self.finish(wilds, used_own, cheap_meld, swapping)
        first, others = rest[0], rest[1:]
        best = points(first, self.wild) + self.place(others, wilds, used_own, cheap_meld, swapping)
        for block, left in self.blocks(rest):
            meld_wilds, lay_offs = self.uses(block)
            for block_wilds in meld_wilds:
                if block_wilds <= wilds:   # meld_wilds[0]: the fewest wilds making it a meld
                    best = min(best, self.place(left, wilds - block_wilds, used_own,
                                                cheap_meld or meld_wilds[0] <= self.hand_wilds, swapping))
            for target, block_wilds in lay_offs:
                if block_wilds <= wilds and target not in used_own:
                    best = min(best, self.place(left, wilds - block_wilds, used_own | {target},
                                                cheap_meld, swapping))
        return best

    def blocks(self, rest: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Each block the first card of ``rest`` may head, with the cards it leaves."""
        if rest not in self.blocks_of:
            first, others = rest[0], rest[1:]
            self.blocks_of[rest] = [((first, *chosen), tuple(card for card in others if card not in chosen))
                                    for chosen in _partner_choices(first, others)]
        return self.blocks_of[rest]

    def uses(self, block: tuple[int, ...]) -> tuple[list[int], list[tuple[int, int]]]:
        """The wild counts (up to the most the search frees) that make ``block`` a new meld, in
        increasing order, and the (own meld, wild count) pairs that lay it off."""
        if block not in self.uses_of:
            counts = range(self.most_wilds + 1)
            self.uses_of[block] = ([count for count in counts if is_new_meld(block, count)],
                                   [(target, count) for target, meld in enumerate(self.own)
                                    for count in counts if is_lay_off(meld, block, count)])
        return self.uses_of[block]

    def finish(self, wilds: int, used_own: frozenset[int], cheap_meld: bool, swapping: bool) -> int:
        best = INFINITE
        free_own = [meld for target, meld in enumerate(self.own) if target not in used_own]
        for left in _wilds_left_after_lay_offs(free_own, wilds):
            if left >= MELD_MIN:    # spare wilds make melds of their own
                cost, wild_meld = 0, True
            else:
                cost, wild_meld = left * WILD_POINTS, False
            if swapping and not self.has_melded and not cheap_meld \
                    and not (wild_meld and self.hand_wilds >= MELD_MIN):
                continue   # a swap needs a meld laid first
            best = min(best, cost)
        return best


def _partner_choices(first: int, others: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every choice of other cards to block with ``first``: none, or some of its rank, or some
    of its suit.  Exact: a block mixing both is of neither one rank nor one suit, and
    is_new_meld and is_lay_off take only one rank (a set) or one suit (a run)."""
    same_rank = [card for card in others if rank_of(card) == rank_of(first)]
    same_suit = [card for card in others if suit_of(card) == suit_of(first)]
    return [(), *(chosen for group in (same_rank, same_suit)
                  for size in range(1, len(group) + 1) for chosen in combinations(group, size))]


def _wilds_left_after_lay_offs(melds: list[Meld], wilds: int) -> set[int]:
    """How many wilds can be left over after laying some off on these melds."""
    if not melds:
        return {wilds}
    left: set[int] = set()
    for count in range(wilds + 1):
        if count == 0 or is_lay_off(melds[0], (), count):
            left |= _wilds_left_after_lay_offs(melds[1:], wilds - count)
    return left


def is_new_meld(naturals: Sequence[int], wilds: int) -> bool:
    """Do these naturals and this many wilds make a set or a run?"""
    size = len(naturals) + wilds
    if size < MELD_MIN:
        return False
    if size <= SET_MAX and len({rank_of(card) for card in naturals}) <= 1:
        return True
    return _fits_window(naturals, size, None)


def is_lay_off(meld: Meld, naturals: Sequence[int], wilds: int) -> bool:
    """Can these naturals and this many wilds be added to ``meld``?"""
    size = len(meld.cards) + len(naturals) + wilds
    if meld.kind == "set":   # a natural fills a place no card stands for yet (each suit once)
        return size <= SET_MAX and all(rank_of(card) == meld.rank and suit_of(card) in meld.free_suits()
                                       for card in naturals)
    if any(suit_of(card) != meld.suit for card in naturals):
        return False
    return _fits_window(naturals, size, (meld.rank, meld.high))


def _fits_window(naturals: Sequence[int], size: int, inside: tuple[int, int] | None) -> bool:
    """Is there a run of ``size`` ranks (ace low, king high) holding every natural's rank,
    all of one suit, and covering ``inside`` (an own run, whose ranks the naturals avoid)?"""
    if len({suit_of(card) for card in naturals}) > 1:
        return False
    ranks = [rank_of(card) for card in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    covered = ranks   # the ranks the window must hold
    if inside is not None:
        if any(inside[0] <= rank <= inside[1] for rank in ranks):
            return False
        covered = [*ranks, *inside]
    # Some window [low, low + size - 1] within ace..king holds them all: the lowest such low
    # reaches the highest rank, the highest stays at or below the lowest rank and the king.
    lowest = max([1, *(rank - size + 1 for rank in covered)])
    highest = min([KING - size + 1, *covered])
    return lowest <= highest
