"""Helpers of the Crazy Rummy web tests: a person's seat played through the API as the advisor would
play it, from nothing but that seat's view (as another program would)."""

from __future__ import annotations

from typing import Any, Callable

from ginnyo.crazy.cards import card_code, parse_one, wild_rank
from ginnyo.crazy.game import AdvisorPlayer, actions_json, play_game
from ginnyo.crazy.state import TurnState

Call = Callable[[dict[str, Any]], dict[str, Any]]   # POST an action (its body), the new view


def turn_state(view: dict[str, Any]) -> TurnState:
    """The advisor's state of the seat's view at the start of its turn."""
    seat = view["seat"]
    others = [meld for owner, melds in enumerate(view["melds"]) if owner != seat for meld in melds]
    return TurnState.from_dict({"round": view["round"], "hand": view["hand"], "melds": view["melds"][seat],
                                "others": others, "discard": view["discard"], "stock": view["stock"],
                                "draw": not view["turn"]["opening"]})


def advisor_steps(view: dict[str, Any], draw_card: Callable[[str], dict[str, Any]]) -> list[dict[str, Any]]:
    """The rest of the seat's turn as the advisor plays it (``draw_card(source)``: draws, the view after)."""
    seat = view["seat"]
    state = turn_state(view)
    where = [(owner, number) for owner, melds in enumerate(view["melds"]) if owner != seat
             for number in range(len(melds))]
    player = AdvisorPlayer()
    source = player.choose_draw(state)
    drawn = None
    if source != "none":
        after = draw_card(source)
        drawn = parse_one(after["turn"]["card"], "card")
    line = player.play(state, drawn, source)
    assert line.discard is not None
    return [*actions_json(line, where, seat, wild_rank(view["round"])), {"discard": card_code(line.discard)}]


def swap_seed(seats: int, first: int = 1, last: int = 60) -> int:
    """A seed whose game, every seat the advisor, has seat 0 swap a wild off the table (found by self-play)."""
    for seed in range(first, last):
        game = play_game(seats, seed)
        for result in game.rounds:
            if any(turn.player == 0 and any("swap" in action for action in turn.actions) for turn in result.turns):
                return seed
    raise AssertionError(f"no seed in {first}..{last - 1} has seat 0 swap a wild")


__all__ = ["turn_state", "advisor_steps", "swap_seed"]
