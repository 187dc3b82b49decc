"""Every function of the compiled Crazy Rummy solver (ginnycore.crazy) checks its
arguments: bad ones raise ValueError naming the argument, never read memory the
call does not own.  Each case runs in a subprocess, so that a crash fails the test."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap

import pytest

PROBE = textwrap.dedent("""
    import json, sys
    from ginnycore import crazy
    Table = crazy.Table
    outcomes = []
    for call in json.loads(sys.argv[1]):
        try:
            eval(call)
            outcomes.append("ok")
        except ValueError as error:
            outcomes.append("ValueError: " + str(error))
        except Exception as error:
            outcomes.append(type(error).__name__ + ": " + str(error))
    print(json.dumps(outcomes))
""")


def outcomes(calls: list[str]) -> list[str]:
    """What each call does, evaluated in a fresh interpreter (a crash fails here)."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(calls)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"the interpreter died ({done.returncode}): {done.stderr[-500:]}"
    return list(json.loads(done.stdout))


def refused(calls_and_words: list[tuple[str, str]]) -> None:
    results = outcomes([call for call, _ in calls_and_words])
    for (call, word), result in zip(calls_and_words, results):
        assert result.startswith("ValueError") and word in result, f"{call}: {result}"


SOLVERS = ["crazy.deadwood({table}, {hand})", "crazy.arrangement({table}, {hand})",
           "crazy.best_discard({table}, {hand})", "crazy.draw_outcomes({table}, {hand}, 1 << 51)"]


@pytest.mark.parametrize("function", SOLVERS)
def test_each_solver_function_refuses_a_table_that_is_not_one(function: str) -> None:
    refused([(function.format(table=table, hand=7), "table") for table in
             ("None", "7", "'table'", "Table.__new__(Table)", "[1, 2]")])


@pytest.mark.parametrize("function", SOLVERS)
def test_each_solver_function_refuses_a_hand_that_is_not_a_52_bit_mask(function: str) -> None:
    refused([(function.format(table="Table(5)", hand=hand), "hand") for hand in
             ("None", "-1", "1 << 52", "10 ** 40", "'7'", "7.0", "True", "[1, 2]")])


def test_best_discard_refuses_a_keep_that_is_not_a_52_bit_mask() -> None:
    refused([(f"crazy.best_discard(Table(5), 7, {keep})", "keep") for keep in
             ("None", "-1", "1 << 52", "'0'", "2.5")])


def test_draw_outcomes_refuses_draws_that_are_not_a_52_bit_mask_or_are_in_hand() -> None:
    refused([(f"crazy.draw_outcomes(Table(5), 7, {draws})", "draws") for draws in
             ("None", "-1", "1 << 52", "'8'", "4")])


def test_draw_outcomes_is_best_discard_for_each_card_drawn() -> None:
    from ginnycore import crazy
    rng = random.Random(5)
    for _ in range(200):
        wild = rng.randint(1, 13)
        cards = rng.sample(range(52), 14)
        table = crazy.Table(wild, rng.random() < 0.5, [(rng.randint(1, 13), 1 << rng.randrange(4))],
                            [(rng.randrange(4), 4, 6)], rng.sample(range(52), 3))
        hand, draws = sum(1 << c for c in cards[:7]), sum(1 << c for c in cards[7:])
        assert crazy.draw_outcomes(table, hand, draws) == [
            (card, *crazy.best_discard(table, hand | 1 << card)) for card in sorted(cards[7:])]


def test_solver_functions_refuse_hands_too_big_to_search() -> None:
    twenty_one = sum(1 << card for card in range(52) if card % 13 != 4)   # 48 naturals, wild 5
    rng = random.Random(2)   # a table no game reaches: 17 own sets and 17 one-card runs
    cards = rng.sample([card for card in range(52) if card % 13 != 4], 20)
    sets = [(rng.randint(1, 13), rng.randint(0, 15)) for _ in range(17)]
    runs = [(rng.randrange(4), rank, rank) for rank in [rng.randint(1, 13) for _ in range(17)]]
    busy, twenty = f"Table(5, True, {sets}, {runs})", sum(1 << card for card in cards)
    refused([(f"crazy.deadwood(Table(5), {twenty_one})", "too big"),
             (f"crazy.best_discard(Table(5), {twenty_one})", "too big"),
             (f"crazy.arrangement(Table(5), {twenty_one})", "too big"),
             (f"crazy.draw_outcomes(Table(5), {twenty_one}, 1 << 4)", "too big"),
             (f"crazy.deadwood({busy}, {twenty})", "too big")])


def test_table_refuses_each_bad_argument() -> None:
    refused([
        ("Table(None)", "wild_rank"), ("Table(0)", "wild_rank"), ("Table(14)", "wild_rank"),
        ("Table(10 ** 30)", "wild_rank"), ("Table(5.0)", "wild_rank"), ("Table(True)", "wild_rank"),
        ("Table(5, 'yes')", "has_melded"), ("Table(5, None)", "has_melded"),
        ("Table(5, True, None)", "sets"), ("Table(5, True, 7)", "sets"), ("Table(5, True, 'ab')", "sets"),
        ("Table(5, True, [(1, 1)] * 18)", "sets"), ("Table(5, True, iter(range(10 ** 12)))", "sets"),
        ("Table(5, True, [(1,)])", "sets[0]"), ("Table(5, True, [(1, 2, 3)])", "sets[0]"),
        ("Table(5, True, [None])", "sets[0]"), ("Table(5, True, [(0, 1)])", "sets[0] rank"),
        ("Table(5, True, [(1, 16)])", "sets[0] free"), ("Table(5, True, [(1, -1)])", "sets[0] free"),
        ("Table(5, True, [(1, 2 ** 70)])", "sets[0] free"),
        ("Table(5, True, (), None)", "runs"), ("Table(5, True, (), [(0, 1, 3)] * 18)", "runs"),
        ("Table(5, True, (), iter(range(10 ** 12)))", "runs"), ("Table(5, True, (), [(0, 1)])", "runs[0]"),
        ("Table(5, True, (), [(4, 1, 3)])", "runs[0] suit"), ("Table(5, True, (), [(0, 0, 3)])", "runs[0] low"),
        ("Table(5, True, (), [(0, 5, 4)])", "runs[0] high"), ("Table(5, True, (), [(0, 1, 14)])", "runs[0] high"),
        ("Table(5, True, (), [(0, 1, 2 ** 70)])", "runs[0] high"),
        ("Table(5, True, (), (), None)", "swaps"), ("Table(5, True, (), (), [0] * 53)", "swaps"),
        ("Table(5, True, (), (), iter(range(10 ** 12)))", "swaps"), ("Table(5, True, (), (), [52])", "swaps[0]"),
        ("Table(5, True, (), (), [-1])", "swaps[0]"), ("Table(5, True, (), (), ['AC'])", "swaps[0]"),
    ])
    assert outcomes(["Table(5, True, [(7, 8)] * 17, [(0, 1, 3)] * 17, list(range(52)))"]) == ["ok"]


def test_a_swap_reports_the_number_of_the_table_wild_it_takes() -> None:
    # table wilds standing for 8D (card 20), 8C (card 7) and 8C again: 8C takes the first that
    # names it; the two wilds taken and KS make a run (ranks 11 12 13 in spades)
    from ginnycore import crazy
    held, places = crazy.arrangement(crazy.Table(1, True, [], [], [20, 7, 7]), (1 << 7) | (1 << 20) | (1 << 51))
    assert held == 0 and places == [(7, 5, 1), (20, 5, 0), (51, 2, 0)]
