"""The compiled Crazy Rummy hand solver against the plain-Python brute force
(ginnyo.crazy.reference) on seeded random hands and tables, and every line it
builds played through the game's rules.  GINNYO_FULL_CORPUS=1 runs more hands."""

from __future__ import annotations

import random
import time

import pytest

from conftest import FULL_CORPUS
from ginnyo.crazy import reference
from ginnyo.crazy.cards import card, cards_text, parse_cards, rank_of
from ginnyo.crazy.game import RoundState, actions_json
from ginnyo.crazy.melds import Meld, check, meld_text
from ginnyo.crazy.solver import min_deadwood, solve_hand

HANDS = 20000 if FULL_CORPUS else 3000
HELD_HANDS = 3000 if FULL_CORPUS else 400
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


@pytest.mark.parametrize("text, wild, expected", [
    ("AH 2H 3H 4H 5H 6H 8H 9H TH JH QH 7C 7D 7S 7H", 7, 1),   # all melds but the kept ace
    ("AH 3H 5H 7H 9H JH KH AS 3S 5S 7S 9S JS KS", 2, 90),
    ("AC AD AH AS 3C 3D 3H 3S 5C 5D 5H 5S 2C 2D", 2, 1),
])
def test_biggest_hands_solve_quickly(text: str, wild: int, expected: int) -> None:
    start = time.perf_counter()
    assert solve_hand(parse_cards(text, "hand"), wild).deadwood == expected
    assert time.perf_counter() - start < 2.0
