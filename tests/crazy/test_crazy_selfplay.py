"""Crazy Rummy games run to the end: the hand from issue 17 that crashed the line
builder, the README's self-play command, and (slow) 20 000 seeded games at 3 to 6
players with no abort."""

from __future__ import annotations

import json

import pytest

from ginnyo.cli import main
from ginnyo.crazy import reference
from ginnyo.crazy.cards import card_code, parse_cards
from ginnyo.crazy.game import actions_json
from ginnyo.crazy.rounds import RoundState
from ginnyo.crazy.melds import parse_meld
from ginnyo.crazy.selfplay import run
from ginnyo.crazy.solver import solve_hand
from ginnyo.support.workers import default_workers

ISSUE_HAND = "3C 4C 8C 8D 2S 5C"
ISSUE_RUN = "7C AH=8C 9C"
SOAK_GAMES = 20000   # over 3, 4, 5 and 6 players alike


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_issue_state_with_a_rank_only_set_wild_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    state = json.dumps({"round": 1, "hand": ISSUE_HAND, "others": ["8H 8S AS=8", ISSUE_RUN]})
    code, out, err = run_cli(capsys, "crazy", "solve", state)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "others[0]" in err and "AS=8C or AS=8D" in err


@pytest.mark.parametrize("named, held, swapped", [
    ("8D", 0, {"8C": "AH", "8D": "AS"}),   # both swaps, each wild to its own card
    ("8C", 2, {"8C": "AS"}),                # two wilds name 8C: one swap (the first wild)
])
def test_the_issue_hand_swaps_each_card_for_the_wild_that_names_it(
        capsys: pytest.CaptureFixture[str], named: str, held: int, swapped: dict[str, str]) -> None:
    others = [f"8H 8S AS={named}", ISSUE_RUN]
    code, out, err = run_cli(capsys, "crazy", "solve", "--json",
                             json.dumps({"round": 1, "hand": ISSUE_HAND, "others": others}))
    assert code == 0 and err == ""
    line = json.loads(out)["line"]
    assert line["held"] == held
    assert {a["cards"]: a["taken"] for a in line["actions"] if a["kind"] == "swap"} == swapped
    hand = parse_cards(ISSUE_HAND, "hand")
    melds = [parse_meld(text, 1, "others") for text in others]
    assert reference.held_after_discard(hand, 1, (), melds) == held
    # the line is a legal turn
    state = RoundState(1, 3, 2, list(range(52)))
    state.hands[0], state.melds[1] = list(hand), list(melds)
    result = solve_hand(hand, 1, (), melds)
    assert result.line.discard is not None
    state.play_turn("none", actions_json(result.line, [(1, 0), (1, 1)], 0, 1), result.line.discard)
    assert sorted(card_code(c) for c in state.hands[0]) == sorted(line["hand_after"].split())


def test_the_readme_selfplay_command_plays_its_100_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "crazy", "selfplay", "--games", "100", "--players", "4",
                             "--seed", "0", "--workers", str(min(2, default_workers())))
    assert code == 0 and "100 games of 4 players, seeds 0..99" in out
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_twenty_thousand_seeded_games_at_3_to_6_players_never_abort(players: int) -> None:
    games = SOAK_GAMES // 4
    results = run(games, players, seed=players * 10 ** 6, workers=default_workers())
    assert len(results) == games
    assert all(len(result.round_ends) == 13 for result in results)
