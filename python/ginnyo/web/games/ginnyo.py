"""Ginny-O at the web table: its live table (:class:`Table`, a :class:`~ginnyo.game.Game` behind the
seams of :class:`~..live.table.SeatTable`), its rebuild from the store, its preview glue, and a seat's
view as the API answers it.

What a seat may see and do is the game's own :class:`~ginnyo.game.View` (``unseen``, ``can_pass``,
``can_return``, ``record_given``); here it is only serialised.  A seat sees the board, its own rack,
everyone's scores and rack sizes, the box's size, the history (another seat's returned tiles only as
their number) and, once the game is over, every rack (the penalty step of docs/RULES.md §6 is
public).  It never sees the seed, the box's order or another seat's tiles during the game.
A watcher (:func:`watcher_view`) sees what a seat sees but a rack: no tiles of its own, every return
as its number, every tile off the board unseen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ginnyo.errors import BadField, GinnyoError
from ginnyo.game.events import Event, is_event_text, parse_event
from ginnyo.game.game import ABORTED, LOST_ON_TIME, RESIGNED, Game, Turn, View
from ginnyo.game.actions import Action, Place, Return, action_notation, parse_action
from ginnyo.game.records import record_text
from ginnyo.position.position import Position
from ginnyo.position.preview import RepeatedSquare
from ginnyo.position.preview import preview as judged_preview
from ginnyo.ratings.games import ranks_of
from ginnyo.vocab.rules import BOX_EMPTY_AND_ALL_PASSED, NOBODY_OPENED, NO_PLAY_FOR_ROUNDS, quiet_turn_limit, unseen_tiles
from ginnyo.vocab.tiles import rack_code

from ..live.fields import only_fields
from ..live.seats import WATCHER
from ..live.table import SeatTable
from ..store.rows import GameRow



def placement_preview(position: Position, placements: object) -> dict[str, Any]:
    """The preview of the ``placements`` field (an object of square name -> tile code) on ``position``:
    the answer of :func:`ginnyo.position.preview.preview`; :class:`BadField` for a malformed field."""
    if not isinstance(placements, dict):
        raise BadField("field 'placements': must be an object of square -> tile code, e.g. {\"H8\": \"7C\"}")
    for name, code in placements.items():
        if not isinstance(code, str):
            raise BadField(f"field 'placements': square {name}: the tile must be a string")
    try:
        return judged_preview(position, placements)
    except RepeatedSquare as error:
        raise BadField(f"field 'placements': {error}") from None


class Player(Protocol):
    """A bot at a Ginny-O table (a :class:`ginnyo.players.players.Player`)."""

    name: str

    def choose(self, view: View) -> Action: ...


class PlayerMaker(Protocol):
    """What makes the bots (:func:`ginnyo.players.players.make_player`, handed in by ``ginnyo serve``): a
    player of ``kind`` for ``seat`` of the game dealt from ``seed``, thinking ``seconds`` a decision."""

    def __call__(self, kind: str, seed: int, seat: int, *, seconds: float | None = None) -> Player: ...


@dataclass(eq=False)
class Table(SeatTable):
    """A Ginny-O game being played (or over): the :class:`Game`, dealt from ``seed`` with the
    ``actions`` applied; the seat to move has drawn (``Game.begin_turn``).  Its bots are made by
    ``players`` when first asked to move."""

    game: Game = field(kw_only=True)
    players: PlayerMaker = field(kw_only=True)
    bots: dict[int, Player] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def to_move(self) -> int:
        return self.game.to_move

    def record_given(self, seat: int) -> bool:
        return View(self.game, seat).record_given

    def parse(self, value: object) -> Action:
        if not isinstance(value, str):
            raise BadField("field 'action': must be a string")
        return parse_action(self.game.position(), value)

    def bot_decision(self, seat: int) -> Callable[[], Any]:
        view, player = self.game.begin_turn(), self.bot(seat)
        return lambda: player.choose(view)

    def view(self, seat: int, rematch: dict[str, Any] | None) -> dict[str, Any]:
        return seat_view(self, seat, rematch)

    def watcher_view(self, rematch: dict[str, Any] | None) -> dict[str, Any]:
        return watcher_view(self, rematch)

    def preview(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        only_fields(body, ("placements",))
        return placement_preview(self.game.position(seat), body.get("placements"))

    def record(self) -> str:
        return record_text(self.game, list(self.names))

    def final_ranks(self) -> list[int] | None:
        if self.game.aborted:
            return None   # no result: not rated
        return ranks_of(self.game.scores)   # the most points first

    def apply(self, action: Action) -> str:
        """Apply ``action`` for the seat to move (``IllegalMoveError`` leaves the game
        unchanged); its notation, as stored."""
        game = self.game
        before, mover = game.position(), game.to_move
        game.apply(action)   # raises before changing anything when the rules forbid it
        return self._applied(action_notation(before, action), mover)

    def apply_event(self, event: Event) -> str:
        mover = self.game.to_move
        self.game.apply_event(event)   # raises before changing anything when it cannot happen
        return self._applied(event.text(), mover)

    def _applied(self, text: str, mover: int) -> str:
        self.actions.append(text)
        self.movers.append(mover)
        if not self.game.over:
            self.game.begin_turn()   # the next seat draws: its view holds its tiles for the decision
        return text

    def overtime_charged(self, seat: int) -> int:
        return self.game.overtime[seat]

    def has_moved(self, seat: int) -> bool:
        return any(turn.player == seat for turn in self.game.history)

    def bot(self, seat: int) -> Player:
        """The bot of ``seat``; a random bot is seeded from the turn too, so that a game
        rebuilt after a restart goes on as it would have."""
        kind = self.kinds[seat]
        if kind == "random":
            return self.players(kind, self.seed * 1000 + self.version, seat)
        if seat not in self.bots:
            self.bots[seat] = self.players(kind, self.seed, seat, seconds=self.think)
        return self.bots[seat]


def rebuilt(row: GameRow, actions: list[str], players: PlayerMaker) -> Table:
    """A Ginny-O table dealt from ``row``'s seed with ``actions`` applied in order, its bots made by ``players``."""
    game = Game.deal(len(row.seats), row.seed)
    table = Table(row.id, row.seats, row.names, row.seed, row.think, game=game, players=players, rematch=row.rematch,
                  watchable=row.watchable)
    game.begin_turn()
    for number, text in enumerate(actions, 1):
        try:
            if is_event_text(text):
                table.apply_event(parse_event(text))
            else:
                table.apply(parse_action(game.position(), text))
        except GinnyoError as error:
            raise RuntimeError(f"game {row.id}: stored action {number} ({text!r}) no longer replays: {error}") from None
    return table


# -- a seat's view, serialised ----------------------------------------------------------

def seat_view(table: Table, seat: int, rematch: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view of ``seat`` (docs/WEB.md "A seat's view"): the game's :class:`View` of the seat as JSON;
    ``rematch``: this seat's entry in the rematch, once there is one."""
    game = table.game
    seen = View(game, seat)
    last = game.history[-1] if game.history else None
    return {
        "id": table.id,
        "seat": seat,
        "version": table.version,
        "players": game.players,
        "names": list(table.names),
        "kinds": list(table.kinds),
        "to_move": None if game.over else game.to_move,
        "your_turn": seen.to_move,
        "finished": game.over,
        "position": position_of(game, seen),
        "layout_grid": list(game.layout.rows),
        "scores": list(game.scores),
        "rack_sizes": list(seen.rack_sizes),
        "box": seen.box_size,
        "opened": game.opened,
        "stall": stall_of(game),
        "can_return": seen.can_return,
        "can_pass": seen.can_pass,
        "last": None if last is None else {**history_entry(table, last, seat),
                                           "squares": squares_of(game, last)},
        "history": [history_entry(table, turn, seat) for turn in game.history],
        "result": result_of(game),
        "rematch": rematch,
    }


def watcher_view(table: Table, rematch: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a watcher sees (docs/WEB.md "A watcher's view"): a seat's view with no rack (``seat`` null, the
    position's rack empty, every tile off the board unseen), every return as its number of tiles;
    ``rematch``: the rematch's id once there is one."""
    game = table.game
    last = game.history[-1] if game.history else None
    board = Position(game.layout, game.sets, game.board, (), validate=False).to_dict()
    board.update({"players": game.players, "scores": list(game.scores), "to_move": game.to_move,
                  "unseen": " ".join(rack_code(tile) for tile in unseen_tiles(
                      game.sets, [tile.rack_tile for tile in game.board.values()]))})
    return {
        "id": table.id,
        "seat": None,
        "watching": True,
        "version": game.turns_played,
        "players": game.players,
        "names": list(table.names),
        "kinds": list(table.kinds),
        "to_move": None if game.over else game.to_move,
        "your_turn": False,
        "finished": game.over,
        "position": board,
        "layout_grid": list(game.layout.rows),
        "scores": list(game.scores),
        "rack_sizes": [len(rack) for rack in game.racks],
        "box": len(game.box),
        "opened": game.opened,
        "stall": stall_of(game),
        "can_return": False,
        "can_pass": False,
        "last": None if last is None else {**history_entry(table, last, WATCHER), "squares": squares_of(game, last)},
        "history": [history_entry(table, turn, WATCHER) for turn in game.history],
        "result": result_of(game),
        "rematch": rematch,
    }


def position_of(game: Game, seen: View) -> dict[str, Any]:
    """The docs/FORMAT.md position the view's seat sees: the board, its own rack, and as
    unseen every tile it cannot see (the view's ``unseen``)."""
    data = game.position(seen.player).to_dict()
    data.update({"players": game.players, "scores": list(game.scores),
                 "to_move": game.to_move,
                 "unseen": " ".join(rack_code(tile) for tile in seen.unseen)})
    return data


def stall_of(game: Game) -> dict[str, int] | None:
    """The game-end clock once a meld is down: turns without a play and the limit."""
    if not game.opened:
        return None
    return {"turns_without_play": game.turns_without_play,
            "limit": quiet_turn_limit(game.players, True, rules=game.rules, stall_rounds=game.stall_rounds)}


def history_entry(table: Table, turn: Turn, seat: int) -> dict[str, Any]:
    """A turn as ``seat`` may read it: another seat's return names only how many tiles."""
    action = turn_texts(table)[turn.number - 1]
    if type(turn.action) is Return and turn.player != seat:
        count = len(turn.action.tiles)
        action = f"return {count} tile{'s' if count != 1 else ''}"
    return {"seat": turn.player, "action": action, "score": turn.score}


def turn_texts(table: Table) -> list[str]:
    """The stored texts of the turns alone (the events -- a resignation, an overtime charge -- left out)."""
    if len(table.actions) == table.game.turns_played:
        return table.actions
    return [text for text in table.actions if not is_event_text(text)]


def squares_of(game: Game, turn: Turn) -> list[str]:
    """The squares a turn covered (none for a return or a pass)."""
    if type(turn.action) is not Place:
        return []
    return [game.layout.square_name(square) for square in turn.action.play.squares]


def result_of(game: Game) -> dict[str, Any] | None:
    """The end of a finished game, every rack included (public once the game is over)."""
    if not game.over:
        return None
    code, arguments = end_code(game.end_reason or "")
    return {"reason": game.end_reason, "reason_code": code, "reason_args": arguments, "penalties": list(game.penalties or []),
            "final_scores": list(game.scores), "winners": game.winners, "ranking": game.ranking,
            "out": list(game.out), "overtime": list(game.overtime), "aborted": game.aborted,
            "racks": [" ".join(rack_code(tile) for tile in sorted(rack)) for rack in game.racks]}


#: how a game ends (its ``end_reason``, a template of the rules' words) -> the end's code in a view
END_CODES = {BOX_EMPTY_AND_ALL_PASSED: "all-passed", NO_PLAY_FOR_ROUNDS: "no-play", NOBODY_OPENED: "nobody-opened",
             RESIGNED: "resigned", LOST_ON_TIME: "lost-on-time", ABORTED: "aborted"}
_END_PATTERNS = [(re.compile(re.escape(template).replace(r"\{rounds\}", r"(?P<count>\d+)")
                             .replace(r"\{player\}", r"(?P<seat>\d+)") + "$"), code) for template, code in END_CODES.items()]


def end_code(reason: str) -> tuple[str, dict[str, int]]:
    """An end reason's code (of :data:`END_CODES`) and arguments (``count``: full rounds, ``seat``: who
    resigned or lost on time), for a page to say it in its reader's words; ``ended`` for words it lacks."""
    for pattern, code in _END_PATTERNS:
        found = pattern.match(reason)
        if found:
            return code, {name: int(value) for name, value in found.groupdict().items()}
    return "ended", {}


__all__ = ["Table", "rebuilt", "seat_view", "watcher_view", "position_of", "Player", "PlayerMaker", "END_CODES", "end_code"]
