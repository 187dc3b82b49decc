"""The Crazy Rummy hand solver: the compiled search (:mod:`ginnycore.crazy`) behind
a Python API, and the play it finds spelt out as melds, lay-offs, swaps and a discard.

>>> from ginnyo.crazy.cards import parse_cards
>>> result = solve_hand(parse_cards("3C 4C 6C 5H KS 9D 9H 9S", "hand"), wild=5)
>>> result.deadwood, result.held, result.can_go_out
(10, 0, True)
>>> [action.text(5) for action in result.line.actions], card_code(result.line.discard or 0)
(['meld 9D 9H 9S', 'meld 3C 4C 5H=5C 6C'], 'KS')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

from ginnycore import crazy as native

from .cards import card_code, hand_points, mask_of, points, rank_of, suit_of
from .errors import CrazyError
from .melds import KING, MELD_MIN, SET_MAX, Meld, make_run, make_set, meld_text

MAX_SOLVED = 16   # cards in one hand: a hand in play never holds more than 8
PLACE_DEADWOOD, PLACE_NEW_SET, PLACE_NEW_RUN, PLACE_OWN_SET, PLACE_OWN_RUN, PLACE_SWAP = range(6)

#: Where a meld lies: ``("melds", i)``, the player's own i-th meld (new ones are
#: numbered after those already down), or ``("others", i)``.
MeldRef = tuple[str, int]


@dataclass(frozen=True)
class Action:
    """One step of a turn, after the draw and before the discard."""

    kind: Literal["meld", "lay_off", "swap"]
    meld: Meld                    # the meld as it lies after the step
    cards: tuple[int, ...]        # the cards the hand puts down
    target: MeldRef | None = None  # lay_off and swap: the meld changed
    taken: int = -1               # swap: the wild taken into the hand

    def text(self, wild: int) -> str:
        if self.kind == "meld":
            return f"meld {meld_text(self.meld, wild)}"
        where = f"{self.target[0]}[{self.target[1]}]" if self.target else "?"
        if self.kind == "swap":
            return f"swap {card_code(self.cards[0])} for {card_code(self.taken)} in {where}"
        added = " ".join(card_code(c) for c in self.cards)
        return f"lay off {added} on {where} -> {meld_text(self.meld, wild)}"


@dataclass(frozen=True)
class Line:
    """A turn's play after the draw: the steps in order, the discard, what is left."""

    actions: tuple[Action, ...]
    discard: int | None           # None only when nothing may be discarded
    hand_after: tuple[int, ...]
    held: int                     # points of hand_after

    @property
    def goes_out(self) -> bool:
        return self.discard is not None and not self.hand_after


@dataclass(frozen=True)
class HandResult:
    """The solver's answer for one hand (after the draw)."""

    deadwood: int       # fewest points left after melding, one card at least kept to discard
    held: int           # fewest points left after melding and discarding
    can_go_out: bool
    line: Line = field(compare=False)


def table_wilds(wild: int, own: Sequence[Meld], others: Sequence[Meld]) -> list[tuple[MeldRef, int]]:
    """Every wild on the table standing for another card, as (meld, place): numbered in
    this order by the compiled search, which reports the one each swap takes."""
    return [((name, number), index) for name, lying in (("melds", own), ("others", others))
            for number, meld in enumerate(lying) for index in meld.wild_slots(wild)]


def make_table(wild: int, own: Sequence[Meld] = (), others: Sequence[Meld] = ()) -> native.Table:
    """The compiled solver's view of the table for the player to move."""
    sets = [(meld.rank, sum(1 << suit for suit in meld.free_suits())) for meld in own if meld.kind == "set"]
    runs = [(meld.suit, meld.rank, meld.high) for meld in own if meld.kind == "run"]
    lying = {"melds": own, "others": others}
    swaps = [lying[name][number].stands_for(index) for (name, number), index in table_wilds(wild, own, others)]
    return native.Table(wild, bool(own), sets, runs, swaps)


def _check_hand(hand: Sequence[int], empty_ok: bool = False) -> None:
    if not hand and not empty_ok:
        raise CrazyError("hand: empty (a turn ends with a discard)")
    if len(hand) > MAX_SOLVED:
        raise CrazyError(f"hand: {len(hand)} cards (the solver takes up to {MAX_SOLVED})")
    if len(set(hand)) != len(hand) or not all(0 <= card < 52 for card in hand):
        raise CrazyError("hand: every card once, ids 0..51 (one deck)")


def min_deadwood(hand: Sequence[int], wild: int, own: Sequence[Meld] = (),
                 others: Sequence[Meld] = ()) -> int:
    """The fewest points left in ``hand`` when all of it may be melded."""
    _check_hand(hand, empty_ok=True)
    return native.deadwood(make_table(wild, own, others), mask_of(hand))


def solve_hand(hand: Sequence[int], wild: int, own: Sequence[Meld] = (), others: Sequence[Meld] = (),
               keep: Sequence[int] = ()) -> HandResult:
    """Meld ``hand`` (after the turn's draw) best: the lowest deadwood with a card kept to
    discard, the fewest points held after a discard not in ``keep``, the line that
    holds them, and whether the player can go out."""
    _check_hand(hand)
    table = make_table(wild, own, others)
    mask = mask_of(hand)
    free = native.deadwood(table, mask)
    if free == 0:   # everything melds: keep the card that costs least
        free = min(points(card, wild) + native.deadwood(table, mask & ~(1 << card)) for card in hand)
    held, discard = native.best_discard(table, mask, mask_of(keep))
    if discard < 0:   # every card must be kept: nothing to discard
        return HandResult(free, free, False, Line((), None, tuple(sorted(hand)), free))
    line = build_line(table, [c for c in hand if c != discard], wild, own, others, discard)
    if line.held != held:
        raise AssertionError(f"line holds {line.held} points, the solver {held}")
    return HandResult(free, held, held == 0, line)


def build_line(table: native.Table, hand: Sequence[int], wild: int, own: Sequence[Meld],
               others: Sequence[Meld], discard: int | None) -> Line:
    """The steps that meld ``hand`` (the discard already set aside) as the solver found best."""
    _, places = native.arrangement(table, mask_of(hand))
    return _LineBuilder(wild, own, others, hand).build(places, discard)


class _LineBuilder:
    def __init__(self, wild: int, own: Sequence[Meld], others: Sequence[Meld], hand: Sequence[int]) -> None:
        self.wild = wild
        self.own = list(own)
        self.others = list(others)
        self.hand_wilds = sorted(card for card in hand if rank_of(card) == wild)
        self.dead: list[int] = []

    def build(self, places: list[tuple[int, int, int]], discard: int | None) -> Line:
        new_sets: dict[int, list[int]] = {}
        new_runs: dict[int, list[int]] = {}
        own_sets: dict[int, list[int]] = {}
        own_runs: dict[int, list[int]] = {}
        swaps: list[tuple[int, int]] = []
        for card, place, group in places:
            if place == PLACE_DEADWOOD:
                self.dead.append(card)
            elif place == PLACE_NEW_SET:
                new_sets.setdefault(group, []).append(card)
            elif place == PLACE_NEW_RUN:
                new_runs.setdefault(group, []).append(card)
            elif place == PLACE_OWN_SET:
                own_sets.setdefault(group, []).append(card)
            elif place == PLACE_OWN_RUN:
                own_runs.setdefault(group, []).append(card)
            else:
                swaps.append((card, group))
        # new melds as (naturals, wilds needed, kind, key): cheapest first, so the first can go down
        # before any swap (a swap needs a meld of one's own)
        plans = [(cards, max(0, MELD_MIN - len(cards)), "set") for cards in new_sets.values()]
        plans += [(cards, _run_need(cards), "run") for cards in new_runs.values()]
        plans.sort(key=lambda plan: (plan[1], plan[0]))
        pool = list(self.hand_wilds)
        actions: list[Action] = []
        melds = list(self.own)       # the player's melds as the turn goes on
        table_others = list(self.others)
        set_targets = [i for i, meld in enumerate(self.own) if meld.kind == "set"]
        run_targets = [i for i, meld in enumerate(self.own) if meld.kind == "run"]
        slots = table_wilds(self.wild, self.own, self.others)
        spare_wilds = len(pool) + len(swaps) - sum(plan[1] for plan in plans) - sum(
            _run_lay_off_need(self.own[run_targets[g]], cards) for g, cards in own_runs.items())
        if swaps and not self.own:   # a swap needs a meld of one's own: lay one from the hand first
            if plans and plans[0][1] <= len(pool):
                actions.append(self._new_meld(plans.pop(0), pool))
            else:   # wilds alone
                count = min(spare_wilds, len(pool))
                actions.append(Action("meld", _wild_meld(pool[:count], self.wild), tuple(pool[:count])))
                del pool[:count]
            melds.append(actions[-1].meld)
        for card, slot in swaps:   # the table wild the search gave this card
            ref, index = slots[slot]
            lying = (melds if ref[0] == "melds" else table_others)[ref[1]]
            taken = lying.cards[index]
            after = lying.swapped(index, card)
            (melds if ref[0] == "melds" else table_others)[ref[1]] = after
            actions.append(Action("swap", after, (card,), ref, taken))
            pool.append(taken)
        for plan in plans:
            actions.append(self._new_meld(plan, pool))
            melds.append(actions[-1].meld)
        for g, cards in own_sets.items():
            for card in cards:
                self._lay_off(actions, melds, set_targets[g], [card], [])
        for g, cards in own_runs.items():
            self._lay_off_run(actions, melds, run_targets[g], cards, pool)
        if len(pool) >= MELD_MIN:
            actions.append(Action("meld", _wild_meld(pool, self.wild), tuple(pool)))
            melds.append(actions[-1].meld)
            pool = []
        while pool:   # one or two spare wilds: into any meld with room
            roomy = next((i for i, m in enumerate(melds) if _room(m)), None)
            if roomy is None:
                break
            self._lay_off_wild(actions, melds, roomy, pool.pop())
        hand_after = tuple(sorted(self.dead + pool))
        return Line(tuple(actions), discard, hand_after, hand_points(hand_after, self.wild))

    def _new_meld(self, plan: tuple[list[int], int, str], pool: list[int]) -> Action:
        cards, need, kind = plan
        wilds = [pool.pop(0) for _ in range(need)]
        if kind == "set":
            meld = make_set(rank_of(cards[0]), [*cards, *wilds], self.wild)
        else:
            meld = _run_with(cards, wilds, self.wild)
        return Action("meld", meld, tuple(meld.cards))

    def _lay_off(self, actions: list[Action], melds: list[Meld], target: int, cards: list[int],
                 wilds: list[int]) -> None:
        meld = melds[target]
        after = make_set(meld.rank, [*meld.cards, *cards, *wilds], self.wild, meld.named)
        melds[target] = after
        actions.append(Action("lay_off", after, (*cards, *wilds), ("melds", target)))

    def _lay_off_run(self, actions: list[Action], melds: list[Meld], target: int, cards: list[int],
                     pool: list[int]) -> None:
        meld = melds[target]
        ranks = {rank_of(card): card for card in cards}
        low = min([meld.rank, *ranks])
        high = max([meld.high, *ranks])
        new_cards: list[int] = []
        for rank in range(low, high + 1):
            if meld.rank <= rank <= meld.high:
                new_cards.append(meld.cards[rank - meld.rank])
            elif rank in ranks:
                new_cards.append(ranks[rank])
            else:
                new_cards.append(pool.pop(0))
        after = make_run(meld.suit, low, new_cards, self.wild)
        added = tuple(card for card in new_cards if card not in meld.cards)
        melds[target] = after
        actions.append(Action("lay_off", after, added, ("melds", target)))

    def _lay_off_wild(self, actions: list[Action], melds: list[Meld], target: int, card: int) -> None:
        meld = melds[target]
        if meld.kind == "set":
            self._lay_off(actions, melds, target, [], [card])
            return
        if meld.high < KING:
            after = make_run(meld.suit, meld.rank, [*meld.cards, card], self.wild)
        else:
            after = make_run(meld.suit, meld.rank - 1, [card, *meld.cards], self.wild)
        melds[target] = after
        actions.append(Action("lay_off", after, (card,), ("melds", target)))


def _run_need(cards: list[int]) -> int:
    span = rank_of(max(cards)) - rank_of(min(cards)) + 1
    return span - len(cards) + max(0, MELD_MIN - span)


def _run_lay_off_need(meld: Meld, cards: list[int]) -> int:
    ranks = [rank_of(card) for card in cards]
    low, high = min([meld.rank, *ranks]), max([meld.high, *ranks])
    return (high - low + 1) - len(meld.cards) - len(cards)


def _run_with(cards: list[int], wilds: list[int], wild: int) -> Meld:
    """A run of these naturals (one suit) with wilds in its gaps, then at its ends."""
    by_rank = {rank_of(card): card for card in cards}
    low, high = min(by_rank), max(by_rank)
    filled: list[int] = []
    spare = list(wilds)
    for rank in range(low, high + 1):
        filled.append(by_rank[rank] if rank in by_rank else spare.pop(0))
    while spare:
        if high < KING:
            filled.append(spare.pop(0))
            high += 1
        else:
            filled.insert(0, spare.pop(0))
            low -= 1
    return make_run(suit_of(cards[0]), low, filled, wild)


def _wild_meld(wilds: list[int], wild: int) -> Meld:
    """Wilds alone (3 or 4: a deck holds four): a club run from the ace, which has room for more."""
    return make_run(0, 1, wilds, wild)


def _room(meld: Meld) -> bool:
    return len(meld.cards) < (SET_MAX if meld.kind == "set" else KING)

