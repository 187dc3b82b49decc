"""Crazy Rummy at the web table: its live table (a :class:`~..crazy_match.CrazyMatch` behind the seams
of :class:`~..live.table.SeatTable`: stored, rebuilt, moved by people and advisor bots), its preview
glue and a seat's view as the API answers it.

An action is one step of a turn or a list of them (docs/WEB.md "Crazy Rummy"),
stored as the JSON of the steps taken; a bot's turn is one action.  The preview
answers which melds, lay-offs and swaps some chosen cards make (each checked by
the rules as the step itself would be), or the advisor's best turn (``"hint"``).

What a seat sees: its own hand, the sizes of the other hands, every meld on the table
(what each wild stands for), the discard pile, the stock's size, the scores and
the steps of every turn -- a draw from the stock without its card, except its
own.  When a round ends, the hands left are shown with their points (the
scoring of docs/RULES.md §7 is public).  It never sees the seed, the stock's
order or another seat's cards in hand.  The advisor's hint is worked out from
:func:`turn_state`, what the seat itself sees (the round's own ``view``), and what the
seat may do (``may_take_discard``) is the round's own answer.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ginnyo.crazy.advisor import advice_json, advice_lines, best_turn, play_after_draw
from ginnyo.crazy.cards import ROUNDS, card, card_code, cards_text, parse_one, rank_of, suit_of
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import PLAYER_KINDS, RoundState, actions_json, record_lines
from ginnyo.crazy.melds import Meld, meld_text, parse_meld
from ginnyo.crazy.solver import solve_hand
from ginnyo.crazy.state import TurnState
from ginnyo.errors import BadField
from ginnyo.tiles import RANKS

from ..crazy_match import MAX_STEPS, CrazyMatch, can_end_turn
from ..live.table import HUMAN, SeatTable, only_fields
from ..store import CRAZY, GameRow

SEAT_KINDS = (HUMAN, *PLAYER_KINDS)
MAX_CHOSEN = 8        # cards chosen for one preview (a hand holds 8 at most in play)
MAX_OPEN_WILDS = 3    # wilds whose card is worked out in one preview
MAX_OPTIONS = 24


@dataclass(eq=False)
class CrazyTable(SeatTable):
    """A Crazy Rummy game being played (or over): the match dealt from ``seed`` with the ``actions`` applied."""

    game_kind: ClassVar[str] = CRAZY
    match: CrazyMatch = field(kw_only=True)

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def to_move(self) -> int:
        return self.match.to_move

    def parse(self, value: object) -> list[dict[str, Any]]:
        steps: list[Any] = value if isinstance(value, list) else [value]
        if not steps or len(steps) > MAX_STEPS or not all(isinstance(step, dict) for step in steps):
            raise BadField("field 'action': must be a step object ({\"draw\": \"stock\"}, {\"meld\": ...}, "
                             f"{{\"discard\": ...}}, ...) or a list of 1 to {MAX_STEPS} of them")
        return steps

    def apply(self, action: list[dict[str, Any]]) -> str:
        text = json.dumps(self.match.apply(action))
        self.actions.append(text)
        return text

    def bot_decision(self, seat: int) -> Callable[[], Any]:
        """The advisor's turn (as self-play plays it): drawn from what the seat sees, the
        card it draws being the one the stock or the pile gives."""
        round_state = self.match.round
        state, where = round_state.view(seat)
        player = PLAYER_KINDS[self.kinds[seat]]()
        stock_top = round_state.stock[0] if round_state.stock else None
        pile_top = round_state.discard[-1] if round_state.discard else None

        def decide() -> list[dict[str, Any]]:
            draw = player.choose_draw(state)
            drawn = stock_top if draw == "stock" else pile_top if draw == "discard" else None
            line = player.play(state, drawn, draw)
            if line.discard is None:
                raise CrazyError(f"the advisor found no card to discard for seat {seat}")
            return [{"draw": draw}, *actions_json(line, where, seat, round_state.wild),
                    {"discard": card_code(line.discard)}]
        return decide

    def record_given(self, seat: int) -> bool:
        return self.match.over   # before the end, the record would reveal the deal

    def view(self, seat: int, rematch: dict[str, Any] | None) -> dict[str, Any]:
        return seat_view(self, seat, rematch)

    def preview(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """``{"hint": true}``: the advisor's best turn from the seat's view; ``{"cards": [...],
        "onto": [seat, n] | null}``: the steps those cards of the hand make."""
        only_fields(body, ("hint", "cards", "onto"))
        if body.get("hint") is True:
            return hint(self.match, seat)
        return options(self.match, body.get("cards"), body.get("onto"))

    def record(self) -> str:
        return "\n".join(record_lines(self.match.result())) + "\n"


def rebuilt(row: GameRow, actions: list[str]) -> CrazyTable:
    """A Crazy Rummy table dealt from ``row``'s seed with ``actions`` applied in order."""
    try:
        match = CrazyMatch(row.seats, row.seed)
    except CrazyError as error:
        raise RuntimeError(f"game {row.id}: {error}") from None
    table = CrazyTable(row.id, row.seats, row.names, row.seed, row.think, match=match, rematch=row.rematch)
    for number, text in enumerate(actions, 1):
        try:
            table.apply(json.loads(text))
        except (CrazyError, ValueError, TypeError) as error:
            raise RuntimeError(f"game {row.id}: stored action {number} ({text[:60]!r}) no longer replays: "
                               f"{error}") from None
    return table


def check_players(count: int) -> None:
    """ValueError (the rules' words) unless Crazy Rummy is for ``count`` players."""
    CrazyMatch(["human"] * count, 0)


# -- a seat's view, serialised ------------------------------------------------------------

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
            "may_take_discard": match.round.may_take_discard(match.to_move)}


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


# -- the preview -------------------------------------------------------------------------

def hint(match: CrazyMatch, seat: int) -> dict[str, Any]:
    """The advisor's best turn for the seat to move, from what it sees: the whole turn
    before its draw, the play of the cards in hand after it."""
    if not match.drawn or (match.round.opening and not match.steps):
        state = turn_state(match.round, seat)
        advice = best_turn(state)
        return {"hint": advice_json(state, advice), "lines": advice_lines(state, advice)}
    if not match.steps and match.draw is not None:   # drawn, nothing played yet: the play of that card
        state = turn_state(match.round, seat)
        line = play_after_draw(state, match.card, match.draw)
    else:   # the opening turn, or steps taken: the best play of the cards as they are now
        state = turn_state(match.shown, seat, draw=False)
        keep = [match.card] if match.draw == "discard" and match.card is not None else []
        line = solve_hand(list(state.hand), state.wild, state.melds, state.others, keep=keep).line
    texts = [action.text(state.wild) for action in line.actions]
    texts.append(f"discard {card_code(line.discard)}" if line.discard is not None else "no discard")
    return {"hint": {"actions": texts, "held": line.held, "goes_out": line.goes_out}, "lines": texts}


def options(match: CrazyMatch, cards_value: object, onto: object) -> dict[str, Any]:
    """The steps that the chosen cards of the hand make: melds of them alone, or with
    ``onto`` a meld on the table, lay-offs on it (one's own) and swaps of its wilds; each
    step checked as it would be taken.  ``reason``: why none, in the rules' words."""
    if not isinstance(cards_value, list) or not 1 <= len(cards_value) <= MAX_CHOSEN:
        raise BadField(f"field 'cards': must be a list of 1 to {MAX_CHOSEN} card codes of the hand")
    if not match.drawn:
        raise CrazyError("draw first: from the stock or the discard pile")
    chosen = [parse_one(code, "cards") for code in cards_value]
    round_state, seat, wild = match.round, match.to_move, match.round.wild
    hand = match.shown.hands[seat]
    for chosen_card in chosen:
        if chosen_card not in hand:
            raise CrazyError(f"cards: {card_code(chosen_card)} is not in the hand")
    candidates: list[dict[str, Any]] = []
    if onto is None:
        candidates += [{"meld": text} for text in meld_texts([], chosen, wild)]
    else:
        owner, number = _meld_ref(match, onto)
        meld = match.shown.melds[owner][number]
        if owner == seat:
            candidates += [{"lay_off": [owner, number], "meld": text}
                           for text in meld_texts(meld_text(meld, wild).split(), chosen, wild)]
        if len(chosen) == 1:
            candidates += [{"swap": [owner, number], "card": card_code(chosen[0]), "wild": card_code(meld.cards[slot])}
                           for slot in meld.wild_slots(wild)]
    found, reason = [], None
    for step in candidates:
        try:
            draw = match.draw or "none"
            round_state.after(draw, [*match.steps, step])
            can_end_turn(round_state, draw, [*match.steps, step], match.card)
        except CrazyError as error:
            reason = reason or str(error)
            continue
        found.append(step)
        if len(found) == MAX_OPTIONS:
            break
    if not found and reason is None:
        reason = _why_not(chosen, wild, onto is not None)
    return {"options": found, "reason": None if found else reason}


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


def _meld_ref(match: CrazyMatch, onto: object) -> tuple[int, int]:
    melds = match.shown.melds
    if (not isinstance(onto, list) or len(onto) != 2 or not all(type(v) is int for v in onto)
            or not 0 <= onto[0] < len(melds) or not 0 <= onto[1] < len(melds[onto[0]])):
        raise BadField("field 'onto': must be [seat, number] of a meld on the table, or null")
    return onto[0], onto[1]


def _why_not(chosen: list[int], wild: int, onto: bool) -> str:
    if onto:
        return "these cards neither extend that meld nor take one of its wilds"
    try:
        parse_meld([card_code(c) for c in chosen], wild, "meld")
    except CrazyError as error:
        return str(error)
    return "these cards make no meld"   # pragma: no cover - a meld parse_meld accepts is a candidate


__all__ = ["seat_view", "turn_state", "CrazyTable", "rebuilt", "check_players", "SEAT_KINDS", "hint", "options", "meld_texts"]
