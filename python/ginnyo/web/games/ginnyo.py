"""What a seat may see: the one place the web decides hidden information.

A seat sees the board, its own rack, everyone's scores and rack sizes, the
box's size, the history (another seat's returned tiles only as their number)
and, once the game is over, every rack (the penalty step of docs/RULES.md §6
is public).  It never sees the seed, the box's order or another seat's tiles
during the game.  Every answer and every socket message about a game is made
here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from ginnyo import rack_code
from ginnyo.game.actions import Place, Return
from ginnyo.game import Game, Turn, quiet_turn_limit, tile_set

HUMAN = "human"


class Table(Protocol):
    """What a view is made from (a :class:`ginnyo.web.tables.Table`): the game, its seats, its actions' notation."""

    id: str
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    game: Game
    actions: list[str]


def seat_view(table: Table, seat: int, rematch: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view of ``seat`` (docs/WEB.md "A seat's view"); ``rematch``: this
    seat's entry in the rematch, once there is one."""
    game = table.game
    your_turn = not game.over and game.to_move == seat
    box = len(game.box)
    last = game.history[-1] if game.history else None
    return {
        "id": table.id,
        "seat": seat,
        "version": game.turns_played,
        "players": game.players,
        "names": list(table.names),
        "kinds": list(table.kinds),
        "to_move": None if game.over else game.to_move,
        "your_turn": your_turn,
        "finished": game.over,
        "position": position_of(game, seat),
        "layout_grid": list(game.layout.rows),
        "scores": list(game.scores),
        "rack_sizes": [len(rack) for rack in game.racks],
        "box": box,
        "opened": game.opened,
        "stall": stall_of(game),
        "can_return": your_turn and box > 0,
        "can_pass": your_turn and box == 0 and game.position(seat).best_play() is None,
        "last": None if last is None else {**history_entry(table, last, seat),
                                           "squares": squares_of(game, last)},
        "history": [history_entry(table, turn, seat) for turn in game.history],
        "result": result_of(game),
        "rematch": rematch,
    }


def position_of(game: Game, seat: int) -> dict[str, Any]:
    """The docs/FORMAT.md position ``seat`` sees: the board, its own rack, and as
    unseen every tile it cannot see (the box and the other racks, as one count)."""
    position = game.position(seat)
    unseen = Counter(tile_set(game.sets))
    unseen.subtract(tile.rack_tile for tile in game.board.values())
    unseen.subtract(position.rack)
    data = position.to_dict()
    data.update({"players": game.players, "scores": list(game.scores),
                 "to_move": game.to_move,
                 "unseen": " ".join(rack_code(tile) for tile in sorted(unseen.elements()))})
    return data


def stall_of(game: Game) -> dict[str, int] | None:
    """The game-end clock once a meld is down: turns without a play and the limit."""
    if not game.opened:
        return None
    return {"turns_without_play": game.turns_without_play,
            "limit": quiet_turn_limit(game.players, True, rules=game.rules, stall_rounds=game.stall_rounds)}


def history_entry(table: Table, turn: Turn, seat: int) -> dict[str, Any]:
    """A turn as ``seat`` may read it: another seat's return names only how many tiles."""
    action = table.actions[turn.number - 1]
    if type(turn.action) is Return and turn.player != seat:
        count = len(turn.action.tiles)
        action = f"return {count} tile{'s' if count != 1 else ''}"
    return {"seat": turn.player, "action": action, "score": turn.score}


def squares_of(game: Game, turn: Turn) -> list[str]:
    """The squares a turn covered (none for a return or a pass)."""
    if type(turn.action) is not Place:
        return []
    return [game.layout.square_name(square) for square in turn.action.play.squares]


def result_of(game: Game) -> dict[str, Any] | None:
    """The end of a finished game, every rack included (public once the game is over)."""
    if not game.over:
        return None
    return {"reason": game.end_reason, "penalties": list(game.penalties or []),
            "final_scores": list(game.scores), "winners": game.winners,
            "racks": [" ".join(rack_code(tile) for tile in sorted(rack)) for rack in game.racks]}


class Seats(Protocol):
    """A table of any game kind, as far as its seats go."""

    id: str
    kinds: tuple[str, ...]
    names: tuple[str, ...]


def created_answer(table: Seats, tokens: dict[int, str]) -> dict[str, Any]:
    """The answer to whoever made a game: every seat, and the tokens of the human
    seats given (to this caller only: they are stored hashed, never shown again)."""
    seats = []
    for seat, kind in enumerate(table.kinds):
        entry: dict[str, Any] = {"seat": seat, "kind": kind, "name": table.names[seat]}
        if seat in tokens:
            entry["token"] = tokens[seat]
            entry["url"] = seat_url(table.id, seat, tokens[seat])
        seats.append(entry)
    answer: dict[str, Any] = {"id": table.id, "seats": seats}
    if len(tokens) >= 2:
        answer["hotseat_url"] = hotseat_url(table.id, tokens)
    return answer


def seat_url(game_id: str, seat: int, token: str) -> str:
    """The table's page for one seat (the token in the fragment, which no server log sees)."""
    return f"/play/{game_id}#seat={seat}&token={token}"


def hotseat_url(game_id: str, tokens: dict[int, str]) -> str:
    """The table's page for several seats on one screen."""
    return f"/play/{game_id}#hotseat=" + ",".join(f"{seat}:{token}" for seat, token in sorted(tokens.items()))


__all__ = ["seat_view", "position_of", "created_answer", "seat_url", "hotseat_url", "HUMAN"]
