"""The advisor at a Crazy Rummy table: the best turn for the seat to move as it stands (before
or after its draw, with steps already taken), and which melds, lay-offs and swaps some chosen
cards of the hand make, each checked as the step itself would be.

The advice speaks as a player sees the table: cards with their suit signs, a meld by its kind,
owner and cards ("lay off A♥ on your run 2♥ 3♥ 4♥", "swap K♣ for 7♦ in Bea's set of kings"),
never the program's indices.  Each line is also a stable code with its arguments (a
:class:`~ginnyo.errors.Reason`: cards as codes, a meld as its kind and text, an owner as a seat), which
the web table's page words in its reader's language (``steps``, docs/WEB.md).
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence

from .advisor import DrawOption, TurnAdvice, advice_json, advice_lines, best_turn, play_after_draw
from .cards import card, card_code, cards_text, parse_one, rank_of, suit_of
from ..errors import MeldNotOnTable, Reason
from .errors import CrazyError
from .rounds import RoundState
from .match import DRAW_FIRST, CrazyMatch, can_end_turn
from .melds import Meld, meld_text, parse_meld
from .solver import Action, Line, solve_hand
from .state import TurnState

MAX_CHOSEN = 8        # cards chosen for one preview (a hand holds 8 at most in play)
MAX_OPEN_WILDS = 3    # wilds whose card is worked out in one preview
MAX_OPTIONS = 24
SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
              "jacks", "queens", "kings")


# -- words for people ----------------------------------------------------------------------------

def card_words(card_id: int) -> str:
    """``A♥``: a card as a player reads it."""
    code = card_code(card_id)
    return code[:-1] + SUIT_SIGNS[code[-1]]


def meld_words(meld: Meld, wild: int) -> str:
    """``run 2♥ 3♥ 4♥`` / ``set of kings K♦ K♠ 7♦ (as K♣)``: a meld's kind and cards, each wild
    standing in followed by what it stands for."""
    cards = " ".join(card_words(physical) + (f" (as {card_words(meld.stands_for(index))})"
                                             if meld.is_standing_in(index, wild) else "")
                     for index, physical in enumerate(meld.cards))
    kind = "run" if meld.kind == "run" else f"set of {RANK_NAMES[meld.rank - 1]}"
    return f"{kind} {cards}"


def owner_words(owner: int, seat: int, names: Sequence[str]) -> str:
    """``your`` / ``Bea's`` / ``seat 2's`` (a seat without a name)."""
    if owner == seat:
        return "your"
    name = names[owner] if owner < len(names) and names[owner] else f"seat {owner + 1}"
    return f"{name}'s"


def line_words(line: Line, round_state: RoundState, seat: int, wild: int, names: Sequence[str]) -> list[Reason]:
    """A turn's play after the draw in words: each step naming the meld it changes as it lies
    then (on ``round_state``, as the seat sees it), and the discard; each with its code (``meld``,
    ``swap``/``swap-own``, ``lay-off``/``lay-off-own``, ``discard``, ``no-discard``) and arguments."""
    state, where = round_state.view(seat)
    lying: dict[tuple[str, int], tuple[int, Meld]] = {("melds", n): (seat, m) for n, m in enumerate(state.melds)}
    lying.update((("others", n), (where[n][0], m)) for n, m in enumerate(state.others))
    own = len(state.melds)
    texts = []
    for action in line.actions:
        if action.kind == "meld" or action.target is None:
            texts.append(Reason(f"meld the {meld_words(action.meld, wild)}", "meld", **_meld_args(action.meld, wild)))
            lying[("melds", own)] = (seat, action.meld)
            own += 1
            continue
        owner, before = lying[action.target]
        meld = f"{owner_words(owner, seat, names)} {meld_words(before, wild)}"
        whose = {"seat": owner, **_meld_args(before, wild)}
        suffix = "-own" if owner == seat else ""
        if action.kind == "swap":
            texts.append(Reason(f"swap {card_words(action.cards[0])} for {card_words(action.taken)} in {meld}",
                                "swap" + suffix, card=card_code(action.cards[0]), wild=card_code(action.taken), **whose))
        else:
            texts.append(Reason(f"lay off {' '.join(card_words(c) for c in action.cards)} on {meld}", "lay-off" + suffix,
                                cards=" ".join(card_code(c) for c in action.cards), **whose))
        lying[action.target] = (owner, action.meld)
    texts.append(Reason(f"discard {card_words(line.discard)}", "discard", card=card_code(line.discard))
                 if line.discard is not None else Reason("no discard", "no-discard"))
    return texts


def _meld_args(meld: Meld, wild: int) -> dict[str, str]:
    """A meld as a hint's arguments: its kind (``run``, ``set``) and its text (``7C 7D 5H=7S``)."""
    return {"kind": meld.kind, "meld": meld_text(meld, wild)}


def advice_steps(advice: TurnAdvice, describe: list[Reason]) -> list[Reason]:
    """The advice before the draw as the page words it, line by line: how to start the turn (``draw-stock``,
    ``take-discard``, ``opening``), the other ways (``instead-stock``, ``instead-discard``), the play
    (``describe``: :func:`line_words`) and what it leaves (``goes-out``, ``keeps``), or for a draw from the
    stock the points held by the card it gives (``by-card``)."""
    best = advice.best
    steps = [_start(best)]
    for option in advice.options:
        if option is not best:
            held = f"{option.expected_held:.2f}"
            steps.append(Reason(f"(instead, the stock: {held} points held on average)", "instead-stock", held=held)
                         if option.source == "stock" else
                         Reason(f"(instead, {card_code(option.card or 0)} from the discard pile: {held} points held "
                                "on average)", "instead-discard", card=card_code(option.card or 0), held=held))
    if best.line is not None:
        steps += describe
        steps.append(Reason("goes out", "goes-out") if best.line.goes_out else
                     Reason(f"keeps {cards_text(best.line.hand_after)} ({best.line.held} points)", "keeps",
                            cards=cards_text(best.line.hand_after), count=best.line.held))
        return steps
    by_held: dict[int, list[str]] = {}
    for outcome in best.outcomes:
        by_held.setdefault(outcome.held, []).append(f"{card_code(outcome.card)}/{card_code(outcome.discard)}")
    steps += [Reason(f"{held} points held after drawing (card/discard) {' '.join(draws)}", "by-card",
                     count=held, draws=" ".join(draws)) for held, draws in sorted(by_held.items())]
    return steps


def _start(best: DrawOption) -> Reason:
    held = f"{best.expected_held:.2f}"
    if best.source == "stock":
        chance = f"{best.go_out_chance:.0%}"
        return Reason(f"draw from the stock: {held} points held on average, goes out {chance} of the time",
                      "draw-stock", held=held, chance=chance)
    if best.source == "discard":
        return Reason(f"take {card_code(best.card or 0)} from the discard pile: {held} points held", "take-discard",
                      card=card_code(best.card or 0), held=held)
    return Reason(f"opening turn (no draw): {held} points held", "opening", held=held)


def steps_json(steps: Sequence[Reason]) -> list[dict[str, Any]]:
    """Lines as the web table sends them beside their English: ``[{"code", "args"}]``."""
    return [{"code": step.code, "args": step.arguments} for step in steps]


# -- the hint ------------------------------------------------------------------------------------

def seat_state(round_state: RoundState, seat: int, draw: bool = True) -> TurnState:
    """What ``seat`` sees of ``round_state`` as the advisor reads it (its own hand only)."""
    state, _ = round_state.view(seat)
    return state if draw else TurnState(state.round, state.hand, state.melds, state.others, state.discard,
                                        state.stock, False)


def hint(match: CrazyMatch, seat: int, names: Sequence[str] = ()) -> dict[str, Any]:
    """The advisor's best turn for the seat to move, from what it sees: the whole turn before its
    draw, the play of the cards in hand after it; ``lines`` in words (``names``: the seats'), ``steps``
    the same as codes and arguments (:func:`advice_steps`, :func:`line_words`)."""
    if not match.drawn or (match.round.opening and not match.steps):
        state = seat_state(match.round, seat)
        advice = best_turn(state)
        described: list[Reason] = []

        def describe(line: Line) -> list[str]:
            described[:] = line_words(line, match.round, seat, state.wild, names)
            return list(described)
        lines = advice_lines(state, advice, describe)
        return {"hint": advice_json(state, advice), "lines": lines, "steps": steps_json(advice_steps(advice, described))}
    if not match.steps and match.draw is not None:   # drawn, nothing played yet: the play of that card
        state, shown = seat_state(match.round, seat), match.round
        line = play_after_draw(state, match.card, match.draw)
    else:   # the opening turn, or steps taken: the best play of the cards as they are now
        state, shown = seat_state(match.shown, seat, draw=False), match.shown
        keep = [match.card] if match.draw == "discard" and match.card is not None else []
        line = solve_hand(list(state.hand), state.wild, state.melds, state.others, keep=keep).line
    texts = line_words(line, shown, seat, state.wild, names)
    return {"hint": {"actions": [str(text) for text in texts], "held": line.held, "goes_out": line.goes_out},
            "lines": [str(text) for text in texts], "steps": steps_json(texts)}


# -- the options of chosen cards -----------------------------------------------------------------

def options(match: CrazyMatch, codes: Sequence[object], onto: object) -> dict[str, Any]:
    """The steps that the chosen cards of the hand (``codes``) make: melds of them alone, or with
    ``onto`` ([seat, number] of a meld on the table) lay-offs on it (one's own) and swaps of its
    wilds; each step checked as it would be taken.  ``reason``: why none, in the rules' words (``reason_code``,
    ``reason_args``: the same as a refusal's code and arguments, docs/WEB.md).
    CrazyError for a card not in hand or before the draw; :class:`MeldNotOnTable` for a bad ``onto``."""
    if not match.drawn:
        raise CrazyError(DRAW_FIRST)
    chosen = [parse_one(code, "cards") for code in codes]
    round_state, seat, wild = match.round, match.to_move, match.round.wild
    hand = match.shown.hands[seat]
    for chosen_card in chosen:
        if chosen_card not in hand:
            raise CrazyError(Reason(f"cards: {card_code(chosen_card)} is not in the hand", "crazy-not-in-hand",
                                    card=card_code(chosen_card)))
    candidates: list[dict[str, Any]] = []
    if onto is None:
        candidates += [{"meld": text} for text in meld_texts([], chosen, wild)]
    else:
        owner, number = meld_ref(match, onto)
        meld = match.shown.melds[owner][number]
        if owner == seat:
            candidates += [{"lay_off": [owner, number], "meld": text}
                           for text in meld_texts(meld_text(meld, wild).split(), chosen, wild)]
        if len(chosen) == 1:
            candidates += [{"swap": [owner, number], "card": card_code(chosen[0]), "wild": card_code(meld.cards[slot])}
                           for slot in meld.wild_slots(wild)]
    found: list[dict[str, Any]] = []
    reason: Reason | None = None
    for step in candidates:
        try:
            draw = match.draw or "none"
            round_state.after(draw, [*match.steps, step])
            can_end_turn(round_state, draw, [*match.steps, step], match.card)
        except CrazyError as error:
            reason = reason or error.reason or Reason(str(error), "crazy-refused")
            continue
        found.append(step)
        if len(found) == MAX_OPTIONS:
            break
    if not found and reason is None:
        reason = _why_not(chosen, wild, onto is not None)
    if found or reason is None:
        return {"options": found, "reason": None, "reason_code": None, "reason_args": None}
    return {"options": found, "reason": str(reason), "reason_code": reason.code, "reason_args": reason.arguments}


def meld_texts(down: list[str], chosen: list[int], wild: int) -> list[str]:
    """The meld texts of the ``down`` meld (its codes, or none) with ``chosen`` added, every
    wild among ``chosen`` standing for itself or for a card the others suggest; only those
    the rules accept as a meld (one text a meld)."""
    wilds = [c for c in chosen if rank_of(c) == wild][:MAX_OPEN_WILDS]
    plain = [card_code(c) for c in chosen if c not in wilds]
    stood = [parse_one(code.partition("=")[2] or code.partition("=")[0], "meld") for code in down]
    stood += [c for c in chosen if c not in wilds]
    ranks, suits = {rank_of(c) for c in stood}, {suit_of(c) for c in stood}
    suggested = sorted({card(r, s) for r in ranks for s in range(4)} | {card(r, s) for s in suits for r in range(1, 14)})
    texts: dict[str, None] = {}
    for standing in itertools.product(*[[w, *suggested] for w in wilds]):
        codes = [card_code(w) if w == named else f"{card_code(w)}={card_code(named)}"
                 for w, named in zip(wilds, standing)]
        try:
            meld: Meld = parse_meld([*down, *plain, *codes], wild, "meld")
        except CrazyError:
            continue
        texts[meld_text(meld, wild)] = None
    return list(texts)


def meld_ref(match: CrazyMatch, onto: object) -> tuple[int, int]:
    """``onto`` as (seat, number) of a meld on the table as the turn so far leaves it."""
    melds = match.shown.melds
    if (not isinstance(onto, list) or len(onto) != 2 or not all(type(v) is int for v in onto)
            or not 0 <= onto[0] < len(melds) or not 0 <= onto[1] < len(melds[onto[0]])):
        raise MeldNotOnTable("onto: must be [seat, number] of a meld on the table, or null")
    return onto[0], onto[1]


def _why_not(chosen: list[int], wild: int, onto: bool) -> Reason:
    if onto:
        return Reason("these cards neither extend that meld nor take one of its wilds", "crazy-no-step-onto")
    try:
        parse_meld([card_code(c) for c in chosen], wild, "meld")
    except CrazyError as error:
        return error.reason or Reason(str(error), "crazy-refused")
    return Reason("these cards make no meld", "crazy-no-meld")   # pragma: no cover - a meld parse_meld accepts is a candidate


__all__ = ["hint", "options", "meld_texts", "meld_ref", "line_words", "meld_words", "card_words", "owner_words",
           "seat_state", "MeldNotOnTable", "MAX_CHOSEN", "MAX_OPEN_WILDS", "MAX_OPTIONS"]
