"""The Crazy Rummy turn advisor: from the start of a turn, the draw and the play
that leave the fewest points in hand, on average over the card the stock may give.

The stock's top is any card the player cannot see (the stock's and the other
hands'), each as likely.  After each possible draw the player melds, lays off,
swaps and discards as the hand solver finds best; the discard pile's top is
known, and may not be discarded again the same turn (docs/CRAZY-RUMMY.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

from ginnycore import crazy as native

from .cards import card_code, cards_text, mask_of, points
from .errors import CrazyError
from .melds import meld_text
from .solver import Action, Line, make_table, solve_hand
from .state import TurnState

Source = Literal["stock", "discard", "none"]


@dataclass(frozen=True)
class Outcome:
    """What a draw from the stock would lead to."""

    card: int
    held: int
    discard: int


@dataclass(frozen=True)
class DrawOption:
    """One way to start the turn and what it leads to."""

    source: Source                 # "none": the round's opening turn, 8 cards and no draw
    card: int | None               # the discard pile's top, when taking it
    expected_held: float
    go_out_chance: float
    line: Line | None              # the play, when the card is known in advance
    outcomes: tuple[Outcome, ...] = ()   # stock: each card it may give


@dataclass(frozen=True)
class TurnAdvice:
    best: DrawOption
    options: tuple[DrawOption, ...]


def best_turn(state: TurnState) -> TurnAdvice:
    """The options of the turn, and the one with the fewest points held expected (ties:
    the discard pile, whose card is known, before the stock)."""
    options: list[DrawOption] = []
    if not state.draw:
        line = play_after_draw(state, None, "none")
        options.append(DrawOption("none", None, float(line.held), float(line.goes_out), line))
    else:
        if state.discard and len(state.hand) > 1:
            top = state.discard[-1]
            line = play_after_draw(state, top, "discard")
            options.append(DrawOption("discard", top, float(line.held), float(line.goes_out), line))
        options.append(_stock_option(state))
    best = min(options, key=lambda option: option.expected_held)
    return TurnAdvice(best, tuple(options))


def _stock_option(state: TurnState) -> DrawOption:
    table = make_table(state.wild, state.melds, state.others)
    hand = mask_of(state.hand)
    outcomes = []
    for card, held, discard in native.draw_outcomes(table, hand, mask_of(state.unseen())):
        if len(state.hand) == 1 and held != 0:   # one card: keep the drawn one, discard the other
            held, discard = points(card, state.wild), state.hand[0]
        outcomes.append(Outcome(card, held, discard))
    count = len(outcomes)
    return DrawOption("stock", None, sum(o.held for o in outcomes) / count,
                      sum(1 for o in outcomes if o.held == 0) / count, None, tuple(outcomes))


def play_after_draw(state: TurnState, drawn: int | None, source: Source) -> Line:
    """The best play once the turn's card is in hand: the line of the hand solver, or,
    for a player who held one card and cannot go out, discarding that card."""
    if source == "discard" and (not state.discard or drawn != state.discard[-1]):
        raise CrazyError(f"card {card_code(drawn) if drawn is not None else 'none'}: not the discard pile's top")
    if source == "stock" and (drawn is None or drawn in state.seen()):
        raise CrazyError(f"card {card_code(drawn) if drawn is not None else 'none'}: not a card the stock may give")
    hand = [*state.hand, drawn] if drawn is not None else list(state.hand)
    keep = [drawn] if source == "discard" and drawn is not None else []
    result = solve_hand(hand, state.wild, state.melds, state.others, keep=keep)
    if len(state.hand) == 1 and drawn is not None and not result.can_go_out:
        return Line((), state.hand[0], (drawn,), points(drawn, state.wild))
    return result.line


# -- for people and programs ---------------------------------------------------------------

def action_json(action: Action, wild: int) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": action.kind, "meld": meld_text(action.meld, wild),
                            "cards": cards_text(action.cards)}
    if action.target is not None:
        data["target"] = f"{action.target[0]}[{action.target[1]}]"
    if action.kind == "swap":
        data["taken"] = card_code(action.taken)
    return data


def line_json(line: Line, wild: int) -> dict[str, Any]:
    return {"actions": [action_json(action, wild) for action in line.actions],
            "discard": card_code(line.discard) if line.discard is not None else None,
            "hand_after": cards_text(line.hand_after), "held": line.held, "goes_out": line.goes_out}


def advice_json(state: TurnState, advice: TurnAdvice) -> dict[str, Any]:
    def option_json(option: DrawOption) -> dict[str, Any]:
        data: dict[str, Any] = {"draw": option.source,
                                "card": card_code(option.card) if option.card is not None else None,
                                "expected_held": round(option.expected_held, 4),
                                "go_out_chance": round(option.go_out_chance, 4),
                                "line": line_json(option.line, state.wild) if option.line else None}
        if option.outcomes:
            data["outcomes"] = {card_code(o.card): {"held": o.held, "discard": card_code(o.discard)}
                                for o in option.outcomes}
        return data
    return {"round": state.round, "wild": card_code(state.wild - 1)[0],
            "best": option_json(advice.best), "options": [option_json(o) for o in advice.options]}


def advice_lines(state: TurnState, advice: TurnAdvice,
                 describe: Callable[[Line], list[str]] | None = None) -> list[str]:
    """The advice for people; ``describe``: the best line's steps and discard in words (default:
    the steps as the program writes them, ``lay off AH on melds[0] -> ...``)."""
    best = advice.best
    wild_name = card_code(state.wild - 1)[0]
    lines = [f"round {state.round} (wild {wild_name}), hand {cards_text(state.hand)}"]
    if best.source == "stock":
        lines.append(f"draw from the stock: {best.expected_held:.2f} points held on average, "
                     f"goes out {best.go_out_chance:.0%} of the time")
    elif best.source == "discard":
        lines.append(f"take {card_code(best.card or 0)} from the discard pile: {best.expected_held:.0f} points held")
    else:
        lines.append(f"opening turn (no draw): {best.expected_held:.0f} points held")
    for option in advice.options:
        if option is not best:
            what = "the stock" if option.source == "stock" else f"{card_code(option.card or 0)} from the discard pile"
            lines.append(f"  (instead, {what}: {option.expected_held:.2f} points held on average)")
    if best.line is not None and describe is not None:
        lines += ["  " + text for text in describe(best.line)]
    elif best.line is not None:
        lines += ["  " + action.text(state.wild) for action in best.line.actions]
        lines.append(f"  discard {card_code(best.line.discard)}" if best.line.discard is not None else "  no discard")
    if best.line is not None:
        lines.append("  goes out" if best.line.goes_out else
                     f"  keeps {cards_text(best.line.hand_after)} ({best.line.held} points)")
    else:
        lines.append("  then, by the card drawn (card/discard), points held:")
        by_held: dict[int, list[str]] = {}
        for outcome in best.outcomes:
            by_held.setdefault(outcome.held, []).append(f"{card_code(outcome.card)}/{card_code(outcome.discard)}")
        for held in sorted(by_held):
            lines.append(f"    {held:>3}: {' '.join(by_held[held])}")
    return lines
