"""Crazy Rummy at the web table: its live table (a :class:`~ginnyo.crazy.match.CrazyMatch` behind the seams
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
what the seat itself sees (:func:`ginnyo.crazy.hints.hint`) (the round's own ``view``), and what the
seat may do (``may_take_discard``) is the round's own answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from ginnyo.crazy.cards import ROUNDS, card_code, cards_text
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import PLAYER_KINDS, actions_json, record_lines
from ginnyo.crazy.rounds import END_LIMIT, END_OUT, END_STOCK
from ginnyo.crazy.hints import MAX_CHOSEN, meld_texts
from ginnyo.crazy.hints import hint as advised_turn
from ginnyo.crazy.hints import options as card_options
from ginnyo.crazy.match import MAX_STEPS, CrazyMatch
from ginnyo.crazy.melds import meld_text
from ginnyo.errors import BadField, MeldNotOnTable
from ginnyo.game.events import RESIGN, TIMEOUT, Event, is_event_text, parse_event
from ginnyo.game.game import ABORTED, LOST_ON_TIME, RESIGNED
from ginnyo.vocab.tiles import RANKS

from ..live.fields import only_fields
from ..live.table import SeatTable
from ..store.rows import CRAZY, GameRow

#: how a round ends -> its code in a view (``end_code``)
END_CODES = {END_OUT: "out", END_STOCK: "stock-empty", END_LIMIT: "turn-limit"}
#: how the game ended -> its code in a finished view's ``result`` (``reason_code``; ``reason_args`` ``{"seat"}``
#: for the seat whose going left one seat in)
GAME_END_CODES = ("rounds-played", "resigned", "lost-on-time", "aborted")
#: the codes of a history line (``code``, with ``args``): a page words each in its reader's language
HISTORY_CODES = ("opens", "takes-discard", "draws-card", "draws", "discards", "swaps", "lays-off", "melds")


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
        mover = self.match.to_move
        text = json.dumps(self.match.apply(action))
        self.actions.append(text)
        self.movers.append(mover)
        return text

    def seen_part(self, action: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """A draw from the stock that starts a refused action stands: a refusal of the steps after it
        would otherwise tell whether the stock's top card is one named in them, the seat keeping the choice
        of the discard pile (docs/WEB.md "Crazy Rummy")."""
        if len(action) > 1 and action[0] == {"draw": "stock"} and not self.match.drawn:
            return action[:1]
        return None

    def apply_event(self, event: Event) -> str:
        """An overtime charge, a loss on time, a resignation or an abort (docs/RULES.md "Timed play",
        "Resignation and abort"): the match's own rule."""
        mover = self.match.to_move
        self.match.apply_event(event)   # raises before changing anything when it cannot happen
        text = event.text()
        self.actions.append(text)
        self.movers.append(mover)
        return text

    def overtime_charged(self, seat: int) -> int:
        return self.match.overtime[seat]

    def has_moved(self, seat: int) -> bool:
        """Whether ``seat`` has taken a step of a turn (an event stored while another seat was to move is
        none of its steps)."""
        return self.match.has_played(seat)

    def ends_turn(self, text: str) -> bool:
        """A clock's increment is earned by a whole turn: the action whose last step is the discard."""
        if is_event_text(text):
            return False
        steps = json.loads(text)
        return bool(steps) and "discard" in steps[-1]

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

    def watcher_view(self, rematch: dict[str, Any] | None) -> dict[str, Any]:
        return watcher_view(self, rematch)

    def preview(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """``{"hint": true}``: the advisor's best turn from the seat's view; ``{"cards": [...],
        "onto": [seat, n] | null}``: the steps those cards of the hand make."""
        only_fields(body, ("hint", "cards", "onto"))
        if body.get("hint") is True:
            return hint(self.match, seat, self.names)
        return options(self.match, body.get("cards"), body.get("onto"))

    def record(self) -> str:
        return "\n".join(record_lines(self.match.result())) + "\n"

    def final_ranks(self) -> list[int] | None:
        if self.match.aborted:
            return None   # no result: not rated
        return self.match.ranks   # the fewest penalty points first, the seats out (on time or resigned) last


def rebuilt(row: GameRow, actions: list[str]) -> CrazyTable:
    """A Crazy Rummy table dealt from ``row``'s seed with ``actions`` applied in order."""
    try:
        match = CrazyMatch(row.seats, row.seed)
    except CrazyError as error:
        raise RuntimeError(f"game {row.id}: {error}") from None
    table = CrazyTable(row.id, row.seats, row.names, row.seed, row.think, match=match, rematch=row.rematch,
                       watchable=row.watchable)
    for number, text in enumerate(actions, 1):
        try:
            if is_event_text(text):
                table.apply_event(parse_event(text))
            else:
                table.apply(json.loads(text))
        except (CrazyError, ValueError, TypeError) as error:
            raise RuntimeError(f"game {row.id}: stored action {number} ({text[:60]!r}) no longer replays: "
                               f"{error}") from None
    return table


# -- a seat's view, serialised ------------------------------------------------------------

def seat_view(table: CrazyTable, seat: int, rematch: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view of ``seat`` (docs/WEB.md "Crazy Rummy")."""
    return _view_of(table, seat, rematch)


def watcher_view(table: CrazyTable, rematch: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a watcher sees (docs/WEB.md "A watcher's view"): a seat's view with no hand (``seat`` null,
    ``hand`` empty), every draw from the stock without its card."""
    return {**_view_of(table, None, rematch), "watching": True}


def _view_of(table: CrazyTable, seat: int | None, rematch: dict[str, Any] | None) -> dict[str, Any]:
    """The view of ``seat``, of a watcher when None."""
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
        "hand": cards_text(sorted(shown.hands[seat])) if seat is not None and not match.over else "",
        "hand_sizes": [len(hand) for hand in shown.hands] if not match.over else [0] * match.players,
        "melds": [[meld_text(meld, wild) for meld in melds] for melds in shown.melds],
        "discard": cards_text(shown.discard),
        "stock": len(shown.stock),
        "turn": None if match.over else turn_of(match, seat),
        "scores": list(match.scores),
        "out_on_time": match.out_by(TIMEOUT),
        "resigned": match.out_by(RESIGN),
        "may_abort": seat is not None and not match.over and seat not in match.out and not match.has_played(seat),
        "rounds_played": [{"round": result.round, "end": result.end, "end_code": END_CODES.get(result.end),
                           "out": result.out, "points": list(result.points)} for result in match.rounds],
        "last_round": last_round(match),
        "history": [history_entry(entry, seat, table.names) for entry in match.log[-60:]],
        "result": None if not match.over else {**game_end(match), "final_scores": list(match.scores),
                                               "winners": list(match.winners), "ranking": match.ranking,
                                               "out": list(match.out), "overtime": list(match.overtime),
                                               "aborted": match.aborted},
        "rematch": rematch,
    }


def game_end(match: CrazyMatch) -> dict[str, Any]:
    """How the finished game ended: ``reason`` in English, ``reason_code`` (of :data:`GAME_END_CODES`) and
    ``reason_args`` -- its rounds played, an abort, or the last event that left one seat in."""
    if match.aborted:
        return {"reason": ABORTED, "reason_code": "aborted", "reason_args": {}}
    if len(match.rounds) == ROUNDS:
        return {"reason": f"{ROUNDS} rounds played", "reason_code": "rounds-played", "reason_args": {}}
    seat = match.out[-1]
    template, code = (RESIGNED, "resigned") if seat in match.out_by(RESIGN) else (LOST_ON_TIME, "lost-on-time")
    return {"reason": template.format(player=seat), "reason_code": code, "reason_args": {"seat": seat}}


def turn_of(match: CrazyMatch, seat: int | None) -> dict[str, Any]:
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
    return {"round": result.round, "end": result.end, "end_code": END_CODES.get(result.end), "out": result.out,
            "points": list(result.points),
            "hands": [cards_text(hand) for hand in match.finished_hands]}


def history_entry(entry: dict[str, Any], seat: int | None, names: tuple[str, ...]) -> dict[str, Any]:
    """A step as ``seat`` may read it: another seat's draw from the stock names no card.  ``text`` in
    English, ``code`` (of :data:`HISTORY_CODES`) and ``args`` for a page's words (a meld by its owner's
    seat and its number in that seat's row, from 1, as the page shows it)."""
    step, who = entry["step"], entry["seat"]
    args: dict[str, Any] = {}
    if "draw" in step:
        if step["draw"] == "none":
            text, code = "opens the round (8 cards, no draw)", "opens"
        elif step["draw"] == "discard":
            args = {"card": card_code(entry["card"])}
            text, code = f"takes {args['card']} from the discard pile", "takes-discard"
        elif who == seat and entry["card"] is not None:
            args = {"card": card_code(entry["card"])}
            text, code = f"draws {args['card']} from the stock", "draws-card"
        else:
            text, code = "draws from the stock", "draws"
    elif "discard" in step:
        args = {"card": step["discard"]}
        text, code = f"discards {step['discard']}", "discards"
    elif "swap" in step:
        owner, number = step["swap"]
        args = {"card": step["card"], "wild": step["wild"], "owner": owner, "number": number + 1}
        text, code = f"swaps {step['card']} for the wild {step['wild']} in {names[owner]}'s meld {number + 1}", "swaps"
    elif "lay_off" in step:
        args = {"number": step["lay_off"][1] + 1, "meld": step["meld"]}
        text, code = f"lays off on meld {step['lay_off'][1] + 1}: {step['meld']}", "lays-off"
    else:
        args = {"meld": step["meld"]}
        text, code = f"melds {step['meld']}", "melds"
    return {"round": entry["round"], "seat": who, "text": text, "code": code, "args": args}


def hint(match: CrazyMatch, seat: int, names: Sequence[str] = ()) -> dict[str, Any]:
    """The advisor's best turn for the seat to move (:func:`ginnyo.crazy.hints.hint`)."""
    return advised_turn(match, seat, names)


def options(match: CrazyMatch, cards_value: object, onto: object) -> dict[str, Any]:
    """The steps the chosen cards make (:func:`ginnyo.crazy.hints.options`), the request's fields read."""
    if not isinstance(cards_value, list) or not 1 <= len(cards_value) <= MAX_CHOSEN:
        raise BadField(f"field 'cards': must be a list of 1 to {MAX_CHOSEN} card codes of the hand")
    try:
        return card_options(match, cards_value, onto)
    except MeldNotOnTable as error:
        raise BadField(f"field '{error}") from None


__all__ = ["END_CODES", "GAME_END_CODES", "HISTORY_CODES", "seat_view", "watcher_view", "CrazyTable", "rebuilt", "hint", "options",
           "meld_texts", "MAX_CHOSEN"]
