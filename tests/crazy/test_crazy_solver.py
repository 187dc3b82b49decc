"""The compiled Crazy Rummy hand solver against the plain-Python brute force
(ginnyo.crazy.reference) on seeded random hands and tables, and every line it
builds played through the game's rules.  GINNYO_FULL_CORPUS=1 runs more hands."""

from __future__ import annotations

import random
import time

import pytest

from helpers import FULL_CORPUS
from ginnyo.crazy import reference
from ginnyo.crazy.cards import card, cards_text, parse_cards, rank_of
from ginnyo.crazy.game import actions_json
from ginnyo.crazy.rounds import RoundState
from ginnyo.crazy.melds import Meld, check, meld_text
from ginnyo.crazy.solver import min_deadwood, solve_hand

HANDS = 20000 if FULL_CORPUS else 3000
HELD_HANDS = 3000 if FULL_CORPUS else 400
SWAP_HANDS = 2000 if FULL_CORPUS else 300
Case = tuple[list[int], int, list[Meld], list[Meld]]


def random_meld(rng: random.Random, deck: set[int], wild: int) -> Meld | None:
    """A random legal meld of cards still in ``deck`` (taken out of it), wilds mixed in."""
    wilds = sorted(c for c in deck if rank_of(c) == wild)
    for _ in range(20):
        chosen: list[int] = []
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            for _size in range(rng.choice((3, 3, 4))):
                options = [c for c in sorted(deck) if rank_of(c) == rank and c not in chosen]
                if rng.random() < 0.25:
                    options = [c for c in wilds if c not in chosen] or options
                if not options:
                    break
                chosen.append(rng.choice(options))
            meld = Meld("set", tuple(chosen), rank)
        else:
            suit, size = rng.randrange(4), rng.randint(3, 6)
            low = rng.randint(1, 14 - size)
            for index in range(size):
                natural = card(low + index, suit)
                spare = [c for c in wilds if c not in chosen]
                if (natural not in deck or rng.random() < 0.2) and spare:
                    chosen.append(rng.choice(spare))
                elif natural in deck:
                    chosen.append(natural)
                else:
                    break
            meld = Meld("run", tuple(chosen), low, suit)
        if check(meld, wild) is None:
            deck.difference_update(meld.cards)
            return meld
    return None


def random_case(seed: int, max_hand: int) -> Case:
    """A hand (often near-meldable), the wild rank, own melds and other melds."""
    rng = random.Random(seed)
    wild = rng.randint(1, 13)
    deck = set(range(52))
    own = [m for m in (random_meld(rng, deck, wild) for _ in range(rng.choice((0, 0, 1, 2, 3)))) if m]
    others = [m for m in (random_meld(rng, deck, wild) for _ in range(rng.choice((0, 1, 2, 3)))) if m]
    pool = sorted(deck)
    size = rng.randint(1, max_hand)
    if rng.random() < 0.5:   # one suit, one rank and the wilds: melds likely
        suit, rank = rng.randrange(4), rng.randint(1, 13)
        pool = [c for c in pool if c // 13 == suit or rank_of(c) in (wild, rank)]
    return sorted(rng.sample(pool, min(size, len(pool)))), wild, own, others


def table_wild_meld(rng: random.Random, deck: set[int], wilds: list[int], wild: int,
                    named: list[int]) -> Meld | None:
    """A meld holding one or two of ``wilds`` (taken from the list) standing in, each for a
    card that is often also named elsewhere (``named``, added to) or in the hand to come."""
    count = min(len(wilds), rng.choice((1, 1, 2)))
    if not count:
        return None
    if rng.random() < 0.5:   # a set: naturals of one rank, wilds naming free suits (at random)
        rank = rng.choice([r for r in range(1, 14) if r != wild])
        naturals = [c for c in sorted(deck) if rank_of(c) == rank]
        rng.shuffle(naturals)
        naturals = naturals[:rng.randint(max(1, 3 - count), 4 - count)]
        free = [card(rank, suit) for suit in range(4) if card(rank, suit) not in naturals]
        rng.shuffle(free)
        if len(naturals) + count < 3 or len(free) < count:
            return None
        taken = [wilds.pop() for _ in range(count)]
        meld = Meld("set", (*naturals, *taken), rank, named=(*naturals, *free[:count]))
    else:                    # a run with wilds in some places
        suit, size = rng.randrange(4), rng.randint(3, 5)
        low = rng.randint(1, 14 - size)
        places = [card(low + i, suit) for i in range(size)]
        standing = set(rng.sample(range(size), count))
        if any(rank_of(places[i]) == wild or (i not in standing and places[i] not in deck)
               for i in range(size)):
            return None
        taken = [wilds.pop() for _ in range(count)]
        meld = Meld("run", tuple(taken.pop() if i in standing else places[i] for i in range(size)), low, suit)
    if check(meld, wild) is not None:
        return None
    deck.difference_update(meld.cards)
    named.extend(meld.stands_for(i) for i in meld.wild_slots(wild))
    return meld


def swap_case(seed: int, max_hand: int) -> Case:
    """A table with several wilds standing in (own melds and others', two often naming the
    same card) and a hand holding many of the cards they stand for."""
    rng = random.Random(seed)
    wild = rng.randint(1, 13)
    deck = set(range(52))
    wilds = [c for c in range(52) if rank_of(c) == wild]
    rng.shuffle(wilds)
    named: list[int] = []
    melds = [m for m in (table_wild_meld(rng, deck, wilds, wild, named) for _ in range(6)) if m]
    plain = [m for m in (random_meld(rng, deck, wild) for _ in range(rng.choice((0, 1, 2)))) if m]
    own: list[Meld] = []
    others: list[Meld] = []
    for meld in melds + plain:
        (own if rng.random() < 0.4 else others).append(meld)
    wanted = [c for c in dict.fromkeys(named) if c in deck and rng.random() < 0.8]
    rest = sorted(deck - set(wanted))
    size = rng.randint(max(1, len(wanted)), max(len(wanted), max_hand))
    hand = (wanted + rng.sample(rest, min(len(rest), size - len(wanted))))[:max_hand]
    return sorted(hand), wild, own, others


def swappable_wilds(case: Case) -> int:
    hand, wild, own, others = case
    return sum(1 for meld in (*own, *others) for i in meld.wild_slots(wild) if meld.stands_for(i) in hand)


def describe(case: Case) -> str:
    hand, wild, own, others = case
    return (f"hand {cards_text(hand)}, wild {wild}, own {[meld_text(m, wild) for m in own]}, "
            f"others {[meld_text(m, wild) for m in others]}")


def play_line_through_the_rules(case: Case) -> None:
    """Solve the hand and play the line as a turn: the game's checks must pass."""
    hand, wild, own, others = case
    result = solve_hand(hand, wild, own, others)
    state = RoundState(wild, 3, 2, list(range(52)))   # seat 0 opens, no draw
    state.hands[0] = list(hand)
    state.melds[0] = list(own)
    state.melds[1] = list(others)
    where = [(1, index) for index in range(len(others))]
    assert result.line.discard is not None
    state.play_turn("none", actions_json(result.line, where, 0, wild), result.line.discard)
    assert tuple(sorted(state.hands[0])) == result.line.hand_after
    assert sum(1 for _ in state.hands[0]) == len(result.line.hand_after)
    assert reference.min_deadwood([c for c in hand if c != result.line.discard], wild, own, others) \
        == result.held


def test_solver_agrees_with_brute_force_on_random_hands() -> None:
    for seed in range(HANDS):
        case = random_case(seed, 9)
        hand, wild, own, others = case
        assert min_deadwood(hand, wild, own, others) == reference.min_deadwood(hand, wild, own, others), \
            f"seed {seed}: {describe(case)}"


def test_held_after_discard_and_going_out_agree_with_brute_force() -> None:
    for seed in range(HELD_HANDS):
        case = random_case(10 ** 6 + seed, 8)
        hand, wild, own, others = case
        result = solve_hand(hand, wild, own, others)
        assert result.held == reference.held_after_discard(hand, wild, own, others), describe(case)
        assert result.can_go_out == reference.can_go_out(hand, wild, own, others), describe(case)
        assert result.deadwood == reference.deadwood_keeping_one(hand, wild, own, others), describe(case)


def test_every_line_is_legal_when_played_as_a_turn() -> None:
    for seed in range(HELD_HANDS):
        play_line_through_the_rules(random_case(2 * 10 ** 6 + seed, 9))


def check_swap_cases(seeds: range) -> None:
    """Solver against brute force, and the line played through the rules, on tables with
    several wilds standing in."""
    several = 0
    for seed in seeds:
        case = swap_case(seed, 8)
        hand, wild, own, others = case
        several += swappable_wilds(case) >= 2
        assert min_deadwood(hand, wild, own, others) == reference.min_deadwood(hand, wild, own, others), \
            f"seed {seed}: {describe(case)}"
        result = solve_hand(hand, wild, own, others)
        assert result.held == reference.held_after_discard(hand, wild, own, others), describe(case)
        play_line_through_the_rules(case)
    assert several >= len(seeds) // 3   # the generator does make several swaps possible


def test_solver_agrees_with_brute_force_with_several_swappable_wilds() -> None:
    check_swap_cases(range(3 * 10 ** 6, 3 * 10 ** 6 + SWAP_HANDS))


@pytest.mark.slow
def test_solver_agrees_with_brute_force_with_several_swappable_wilds_many_more() -> None:
    check_swap_cases(range(4 * 10 ** 6, 4 * 10 ** 6 + 20 * SWAP_HANDS))


@pytest.mark.parametrize("text, wild, expected", [
    ("AH 2H 3H 4H 5H 6H 8H 9H TH JH QH 7C 7D 7S 7H", 7, 1),   # all melds but the kept ace
    ("AH 3H 5H 7H 9H JH KH AS 3S 5S 7S 9S JS KS", 2, 90),
    ("AC AD AH AS 3C 3D 3H 3S 5C 5D 5H 5S 2C 2D", 2, 1),
])
def test_biggest_hands_solve_quickly(text: str, wild: int, expected: int) -> None:
    start = time.process_time()   # the work's time, not the wall's: a loaded machine may leave the test waiting
    assert solve_hand(parse_cards(text, "hand"), wild).deadwood == expected
    assert time.process_time() - start < 2.0
