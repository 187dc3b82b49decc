"""The Crazy Rummy tables: a :class:`~.crazy_match.CrazyMatch` behind the same seams as a
Ginny-O table (:class:`~.tables.SeatTable`): stored, rebuilt, moved by people and advisor bots.

An action is one step of a turn or a list of them (docs/WEB.md "Crazy Rummy"),
stored as the JSON of the steps taken; a bot's turn is one action.  The preview
answers which melds, lay-offs and swaps some chosen cards make (each checked by
the rules as the step itself would be), or the advisor's best turn (``"hint"``).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ginnyo.crazy.advisor import advice_json, advice_lines, best_turn, play_after_draw
from ginnyo.crazy.cards import card, card_code, parse_one, rank_of, suit_of
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import PLAYER_KINDS, actions_json, record_lines
from ginnyo.crazy.melds import Meld, meld_text, parse_meld
from ginnyo.crazy.solver import solve_hand

from ..crazy_match import MAX_STEPS, CrazyMatch, can_end_turn
from .crazy_views import seat_view, turn_state
from ..http.errors import BadRequest
from ..http.requests import only_fields
from ..store import CRAZY, GameRow
from ..live.registry import SeatTable

SEAT_KINDS = ("human", *PLAYER_KINDS)
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
            raise BadRequest("field 'action': must be a step object ({\"draw\": \"stock\"}, {\"meld\": ...}, "
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
        raise BadRequest(f"field 'cards': must be a list of 1 to {MAX_CHOSEN} card codes of the hand")
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
        raise BadRequest("field 'onto': must be [seat, number] of a meld on the table, or null")
    return onto[0], onto[1]


def _why_not(chosen: list[int], wild: int, onto: bool) -> str:
    if onto:
        return "these cards neither extend that meld nor take one of its wilds"
    try:
        parse_meld([card_code(c) for c in chosen], wild, "meld")
    except CrazyError as error:
        return str(error)
    return "these cards make no meld"   # pragma: no cover - a meld parse_meld accepts is a candidate


__all__ = ["CrazyTable", "rebuilt", "check_players", "SEAT_KINDS", "hint", "options", "meld_texts"]
