"""The plain-Python yardstick of the Crazy Rummy hand solver: brute force.

It tries every way to use the hand: each subset of naturals that could be
swapped for table wilds, then every partition of the other naturals into
deadwood, new melds and lay-offs on the player's own melds, each block with
every number of wilds, checked by trying every window of ranks.  Slow, and
simple enough to trust; the compiled solver (:mod:`ginnyo.crazy.solver`) must
agree with it exactly.
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
    naturals = sorted(card for card in hand if rank_of(card) != wild)
    hand_wilds = len(hand) - len(naturals)
    slots = [(meld, index) for meld in (*own, *others) for index in meld.wild_slots(wild)]
    best = INFINITE
    for swapped in _swap_plans(naturals, slots, wild):
        rest = [card for card in naturals if card not in swapped]
        search = _Search(wild, list(own), hand_wilds, bool(own))
        best = min(best, search.place(rest, hand_wilds + len(swapped), [], frozenset(), 0,
                                      swaps=len(swapped)))
    return best


def deadwood_keeping_one(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
                         others: Sequence[Meld] = ()) -> int:
    """The fewest points left with at least one card kept for the discard."""
    return min(points(card, wild) + min_deadwood([c for c in hand if c != card], wild, own, others)
               for card in hand)


def held_after_discard(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
                       others: Sequence[Meld] = (), keep: Sequence[int] = ()) -> int:
    """The fewest points left after melding and discarding a card not in ``keep``."""
    return min(min_deadwood([c for c in hand if c != card], wild, own, others)
               for card in hand if card not in keep)


def can_go_out(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
               others: Sequence[Meld] = ()) -> bool:
    """Can every card but one be melded, the last one discarded?"""
    return any(min_deadwood([c for c in hand if c != card], wild, own, others) == 0 for card in hand)


def _swap_plans(naturals: list[int], slots: list[tuple[Meld, int]], wild: int) -> set[frozenset[int]]:
    """Every set of naturals that can replace distinct table wilds, one each: a wild
    in a set or a run takes only the one card it stands for (docs/RULES.md §7)."""
    plans: set[frozenset[int]] = set()

    def assign(slot_index: int, used: frozenset[int]) -> None:
        if slot_index == len(slots):
            plans.add(used)
            return
        assign(slot_index + 1, used)
        meld, index = slots[slot_index]
        for card in naturals:
            if card not in used and meld.can_take(index, card, wild):
                assign(slot_index + 1, used | {card})

    assign(0, frozenset())
    return plans


class _Search:
    def __init__(self, wild: int, own: list[Meld], hand_wilds: int, has_melded: bool) -> None:
        self.wild = wild
        self.own = own
        self.hand_wilds = hand_wilds
        self.has_melded = has_melded

    def place(self, rest: list[int], wilds: int, new_needs: list[int], used_own: frozenset[int],
              dead: int, swaps: int) -> int:
        """The least deadwood placing ``rest``, with ``wilds`` wilds still free."""
        if not rest:
            return self.finish(wilds, new_needs, used_own, dead, swaps)
        first, others = rest[0], rest[1:]
        best = self.place(others, wilds, new_needs, used_own, dead + points(first, self.wild), swaps)
        partners = [card for card in others
                    if rank_of(card) == rank_of(first) or suit_of(card) == suit_of(first)]
        for size in range(len(partners) + 1):
            for chosen in combinations(partners, size):
                block = (first, *chosen)
                left = [card for card in others if card not in chosen]
                for block_wilds in range(wilds + 1):
                    if is_new_meld(block, block_wilds):
                        need = min(j for j in range(block_wilds + 1) if is_new_meld(block, j))
                        best = min(best, self.place(left, wilds - block_wilds, new_needs + [need],
                                                    used_own, dead, swaps))
                    for target, meld in enumerate(self.own):
                        if target not in used_own and is_lay_off(meld, block, block_wilds):
                            best = min(best, self.place(left, wilds - block_wilds, new_needs,
                                                        used_own | {target}, dead, swaps))
        return best

    def finish(self, wilds: int, new_needs: list[int], used_own: frozenset[int], dead: int,
               swaps: int) -> int:
        best = INFINITE
        free_own = [meld for target, meld in enumerate(self.own) if target not in used_own]
        for left in _wilds_left_after_lay_offs(free_own, wilds):
            if left >= MELD_MIN:    # spare wilds make melds of their own
                cost, wild_meld = 0, True
            else:
                cost, wild_meld = left * WILD_POINTS, False
            if swaps and not self.has_melded and not any(need <= self.hand_wilds for need in new_needs) \
                    and not (wild_meld and self.hand_wilds >= MELD_MIN):
                continue   # a swap needs a meld laid first
            best = min(best, dead + cost)
        return best


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
    for low in range(1, KING - size + 2):
        high = low + size - 1
        if not all(low <= rank <= high for rank in ranks):
            continue
        if inside is not None:
            if not (low <= inside[0] and inside[1] <= high):
                continue
            if any(inside[0] <= rank <= inside[1] for rank in ranks):
                continue
        return True
    return False
