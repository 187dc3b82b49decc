"""The Crazy Rummy tables: a :class:`~.crazy_match.CrazyMatch` behind the same seams as a
Ginny-O table (:class:`~.tables.SeatTable`): stored, rebuilt, moved by people and advisor bots.

An action is one step of a turn or a list of them (docs/WEB.md "Crazy Rummy"),
stored as the JSON of the steps taken; a bot's turn is one action.  The preview
answers which melds, lay-offs and swaps some chosen cards make (each checked by
the rules as the step itself would be), or the advisor's best turn (``"hint"``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ginnyo.crazy.cards import card_code
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import PLAYER_KINDS, actions_json, record_lines
from ginnyo.crazy.hints import MAX_CHOSEN, MeldNotOnTable, meld_texts
from ginnyo.crazy.hints import hint as advised_turn
from ginnyo.crazy.hints import options as card_options

from .crazy_match import MAX_STEPS, CrazyMatch
from .crazy_views import seat_view
from .errors import BadRequest
from .requests import only_fields
from .store import CRAZY, GameRow
from .tables import SeatTable

SEAT_KINDS = ("human", *PLAYER_KINDS)


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
            return hint(self.match, seat, self.names)
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

def hint(match: CrazyMatch, seat: int, names: tuple[str, ...] = ()) -> dict[str, Any]:
    """The advisor's best turn for the seat to move (:func:`ginnyo.crazy.hints.hint`)."""
    return advised_turn(match, seat, names)


def options(match: CrazyMatch, cards_value: object, onto: object) -> dict[str, Any]:
    """The steps the chosen cards make (:func:`ginnyo.crazy.hints.options`), the request's fields read."""
    if not isinstance(cards_value, list) or not 1 <= len(cards_value) <= MAX_CHOSEN:
        raise BadRequest(f"field 'cards': must be a list of 1 to {MAX_CHOSEN} card codes of the hand")
    try:
        return card_options(match, cards_value, onto)
    except MeldNotOnTable as error:
        raise BadRequest(f"field '{error}") from None


__all__ = ["CrazyTable", "rebuilt", "check_players", "SEAT_KINDS", "hint", "options", "meld_texts", "MAX_CHOSEN"]
