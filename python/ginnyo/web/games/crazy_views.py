"""What a seat of a Crazy Rummy table may see: the one place the web decides its hidden information.

A seat sees its own hand, the sizes of the other hands, every meld on the table
(what each wild stands for), the discard pile, the stock's size, the scores and
the steps of every turn -- a draw from the stock without its card, except its
own.  When a round ends, the hands left are shown with their points (the
scoring of docs/RULES.md §7 is public).  It never sees the seed, the stock's
order or another seat's cards in hand.  The advisor's hint is worked out from
:func:`turn_state`, what the seat itself sees.
"""

from __future__ import annotations

from typing import Any, Protocol

from ginnyo.crazy.cards import ROUNDS, card_code, cards_text
from ginnyo.crazy.game import RoundState
from ginnyo.crazy.melds import meld_text
from ginnyo.crazy.state import TurnState
from ginnyo.tiles import RANKS

from ..crazy_match import CrazyMatch
from ..store import CRAZY




class CrazyTable(Protocol):
    """What a view is made from (a :class:`ginnyo.web.crazy_table.CrazyTable`)."""

    id: str
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    match: CrazyMatch
    actions: list[str]


def seat_view(table: CrazyTable, seat: int, rematch: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view of ``seat`` (docs/WEB.md "Crazy Rummy")."""
    match = table.match
    shown = match.shown
    your_turn = not match.over and match.to_move == seat
    wild = shown.wild
    return {
        "id": table.id,
        "game": CRAZY,
        "seat": seat,
        "version": len(table.actions),
        "players": match.players,
        "names": list(table.names),
        "kinds": list(table.kinds),
        "to_move": None if match.over else match.to_move,
        "your_turn": your_turn,
        "finished": match.over,
        "round": shown.number,
        "rounds": ROUNDS,
        "wild": RANKS[wild - 1],
        "dealer": shown.dealer,
        "hand": cards_text(sorted(shown.hands[seat])) if not match.over else "",
        "hand_sizes": [len(hand) for hand in shown.hands] if not match.over else [0] * match.players,
        "melds": [[meld_text(meld, wild) for meld in melds] for melds in shown.melds],
        "discard": cards_text(shown.discard),
        "stock": len(shown.stock),
        "turn": None if match.over else turn_of(match, seat),
        "scores": list(match.scores),
        "rounds_played": [{"round": result.round, "end": result.end, "out": result.out,
                           "points": list(result.points)} for result in match.rounds],
        "last_round": last_round(match),
        "history": [history_entry(entry, seat, table.names) for entry in match.log[-60:]],
        "result": None if not match.over else {"final_scores": list(match.scores),
                                               "winners": list(match.result().winners)},
        "rematch": rematch,
    }


def turn_of(match: CrazyMatch, seat: int) -> dict[str, Any]:
    """The turn so far of the seat to move: drawn or not, from where, the card if ``seat`` may see it."""
    card = match.card
    public = match.draw == "discard"
    return {"seat": match.to_move, "opening": match.round.opening, "drawn": match.drawn,
            "draw": match.draw,
            "card": card_code(card) if card is not None and (public or match.to_move == seat) else None,
            "may_take_discard": bool(match.round.discard) and len(match.round.hands[match.to_move]) > 1}


def last_round(match: CrazyMatch) -> dict[str, Any] | None:
    """The round that ended last: how, who went out, the hands left and their points."""
    if not match.rounds:
        return None
    result = match.rounds[-1]
    return {"round": result.round, "end": result.end, "out": result.out, "points": list(result.points),
            "hands": [cards_text(hand) for hand in match.finished_hands]}


def history_entry(entry: dict[str, Any], seat: int, names: tuple[str, ...]) -> dict[str, Any]:
    """A step as ``seat`` may read it: another seat's draw from the stock names no card."""
    step, who = entry["step"], entry["seat"]
    if "draw" in step:
        if step["draw"] == "none":
            text = "opens the round (8 cards, no draw)"
        elif step["draw"] == "discard":
            text = f"takes {card_code(entry['card'])} from the discard pile"
        elif who == seat and entry["card"] is not None:
            text = f"draws {card_code(entry['card'])} from the stock"
        else:
            text = "draws from the stock"
    elif "discard" in step:
        text = f"discards {step['discard']}"
    elif "swap" in step:
        owner, number = step["swap"]
        text = f"swaps {step['card']} for the wild {step['wild']} in {names[owner]}'s meld {number + 1}"
    elif "lay_off" in step:
        text = f"lays off on meld {step['lay_off'][1] + 1}: {step['meld']}"
    else:
        text = f"melds {step['meld']}"
    return {"round": entry["round"], "seat": who, "text": text}


def turn_state(round_state: RoundState, seat: int, draw: bool = True) -> TurnState:
    """What ``seat`` sees of ``round_state`` as the advisor reads it (its own hand only)."""
    state, _ = round_state.view(seat)
    return state if draw else TurnState(state.round, state.hand, state.melds, state.others, state.discard,
                                        state.stock, False)


__all__ = ["seat_view", "turn_state"]
