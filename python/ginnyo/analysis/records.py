"""A game record analysed turn by turn (``ginnyo analyze RECORD``): the move
played against the best play by score and the best action by equity, the
points and the equity it lost, and a summary per player.

The record is replayed first (:func:`ginnyo.records.replay`: every move and
draw checked), each decision kept as the player saw it (the board, the rack
after the turn's draw, the box's size); then every decision is solved in the
two compiled batch calls of :mod:`ginnyo.analysis`.  A turn's row::

    {"turn": 3, "player": 1, "name": "greedy",
     "played": {"kind": "play", "notation": "8G 7H7C7S", "score": 21, "leave_value": 2.1, "equity": 23.1},
     "best": {"notation": "8F 6H7H8H", "score": 24},
     "equity": {"kind": "play", "notation": "...", "score": 24, "leave_value": 1.5, "equity": 25.5},
     "points_lost": 3, "equity_lost": 2.4}

``points_lost`` is the best play's score less the score of the move played (0
when there is no legal play), ``equity_lost`` the best equity less the played
action's; the summary's ``best_moves`` is the share of turns that lost no
points, ``best_equity_moves`` the share that lost no equity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
from ..native.core import EMPTY_SQUARE, RACK_KINDS
from ..native.encoding import empty_board, encode_rack

from ..game.actions import PASS_WORD, RETURN_WORD, Place, Return
from .positions import BOTH, DIGITS, Notation, best_rows, equity_json, solve
from ..equity.rank import COMPILED_PASS, COMPILED_PLAY, COMPILED_RETURN, compiled_model
from ..equity.leaves import LeaveModel, LeaveState, default_model
from ..game.records import record_names, replay
from ..vocab.rules import quiet_turn_limit
from ..vocab.tiles import JOKER, rack_code

if TYPE_CHECKING:
    from ..game.game import Game, Turn

#: an equity lost below this is rounding, not a loss
EQUITY_TOLERANCE = 1e-6


@dataclass
class Decisions:
    """Every decision of a replayed game as the batch calls take them, and
    the move played at each (its row, without what the analysis adds)."""

    cards: list[bytes] = field(default_factory=list)
    jokers: list[bytes] = field(default_factory=list)
    racks: list[bytes] = field(default_factory=list)
    box_sizes: list[int] = field(default_factory=list)
    states: list[tuple[int, bool, int, int]] = field(default_factory=list)
    played: list[dict[str, Any]] = field(default_factory=list)


def analyze_record(lines: list[tuple[int, dict[str, Any]]], name: str, *, threads: int = 1,
                   model: LeaveModel | None = None, on_turn: Callable[[], None] | None = None
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of every turn of the record ``lines`` (:func:`ginnyo.records.read_record`),
    and the summary row of every player.  ``on_turn`` is called as each turn
    is replayed; a record that breaks the rules raises :class:`RecordError`."""
    model = model or default_model()
    names = record_names(lines)
    decisions = Decisions()
    recorder: list[_Recorder] = []
    from .grades import TurnFactsLog, add_grades     # the graded review: win probability and grades
    facts = TurnFactsLog()

    def record_turn(game: Game, turn: Turn) -> None:
        if not recorder:
            recorder.append(_Recorder(game, model))
        recorder[0].add(game, turn, decisions)
        facts.add(game, turn)
        if on_turn is not None:
            on_turn()

    game = replay(lines, on_turn=record_turn, name=name)
    rows = _turn_rows(game, decisions, names, threads, model)
    summary = summary_rows(rows, game.players, names)
    add_grades(rows, summary, facts.facts)
    return rows, summary


class _Recorder:
    """Keeps the board as it was before each turn and turns each into a decision."""

    def __init__(self, game: Game, model: LeaveModel) -> None:
        self.cards, self.jokers = empty_board(game.layout.size)
        self.notation = Notation(game.layout, EMPTY_SQUARE)
        self.leaves = compiled_model(model)
        self.model = model
        self.quiet_turns = 0        # the game-end clock before the turn (docs/RULES.md §6)

    def add(self, game: Game, turn: Turn, decisions: Decisions) -> None:
        rack = encode_rack(turn.rack)
        if turn.draw is not None:
            rack[turn.draw] += 1
        action = turn.action
        returned = action.tiles if isinstance(action, Return) else ()
        box_size = len(game.box) + len(turn.refill) - len(returned)   # as the player saw it, after the draw
        leave = bytearray(rack)
        if isinstance(action, Place):
            placements = action.play.placements
            kind = COMPILED_PLAY
            text = self.notation.of(self.cards, [square for square, _ in placements],
                                    [tile.card for _, tile in placements], [tile.joker for _, tile in placements])
            for _, placed in placements:
                leave[JOKER if placed.joker else placed.card] -= 1
        elif returned:
            kind = COMPILED_RETURN
            text = " ".join([RETURN_WORD, *(rack_code(tile) for tile in returned)])
            for tile in returned:
                leave[tile] -= 1
        else:
            kind, text = COMPILED_PASS, PASS_WORD
        opened = any(card != EMPTY_SQUARE for card in self.cards)
        state = LeaveState(game.players, opened, self.quiet_turns,
                           quiet_turn_limit(game.players, opened, rules=game.rules, stall_rounds=game.stall_rounds))
        self.quiet_turns = 0 if isinstance(action, Place) else self.quiet_turns + 1
        value = self.leaves.value(leave, box_size, state.as_tuple()) \
            + (self.model.return_value(box_size, state) if returned else 0.0)
        decisions.states.append(state.as_tuple())
        decisions.cards.append(bytes(self.cards))
        decisions.jokers.append(bytes(self.jokers))
        decisions.racks.append(bytes(rack))
        decisions.box_sizes.append(box_size)
        decisions.played.append({"turn": turn.number, "player": turn.player,
                                 "played": equity_json(kind, text, turn.score, value)})
        if isinstance(action, Place):
            for square, placed in action.play.placements:
                self.cards[square] = placed.card
                self.jokers[square] = placed.joker


def _turn_rows(game: Game, decisions: Decisions, names: list[str] | None, threads: int,
               model: LeaveModel) -> list[dict[str, Any]]:
    n = len(decisions.played)
    if not n:
        return []
    size = game.layout.size
    cards = np.frombuffer(b"".join(decisions.cards), dtype=np.uint8).reshape(n, size)
    jokers = np.frombuffer(b"".join(decisions.jokers), dtype=np.uint8).reshape(n, size)
    boards = np.ascontiguousarray(np.concatenate((cards, jokers), axis=1))
    racks = np.frombuffer(b"".join(decisions.racks), dtype=np.uint8).reshape(n, RACK_KINDS).copy()
    box_sizes = np.array(decisions.box_sizes, dtype=np.int32)
    states = np.array(decisions.states, dtype=np.int64).reshape(n, 4)
    solved = solve(game.layout, boards, racks, box_sizes, want=BOTH, threads=threads, model=model, states=states)
    rows = []
    for played, found in zip(decisions.played, best_rows(game.layout, cards, solved)):
        best, equity = found["best"], found["equity"]
        move = played["played"]
        row = {"turn": played["turn"], "player": played["player"],
               "name": names[played["player"]] if names else None, "played": move, "best": best,
               "equity": equity,
               "points_lost": max(0, (best["score"] if best else 0) - move["score"]),
               "equity_lost": round(max(0.0, equity["equity"] - move["equity"]), DIGITS)}
        rows.append(row)
    return rows


def summary_rows(rows: list[dict[str, Any]], players: int, names: list[str] | None) -> list[dict[str, Any]]:
    """A row a player: turns, points and equity lost in all, the shares of
    turns that lost no points and no equity."""
    summary = []
    for player in range(players):
        mine = [row for row in rows if row["player"] == player]
        turns = len(mine)
        summary.append({"player": player, "name": names[player] if names else None, "turns": turns,
                        "points_lost": sum(row["points_lost"] for row in mine),
                        "equity_lost": round(sum(row["equity_lost"] for row in mine), DIGITS),
                        "best_moves": round(sum(row["points_lost"] == 0 for row in mine) / turns, DIGITS)
                        if turns else None,
                        "best_equity_moves": round(sum(row["equity_lost"] < EQUITY_TOLERANCE for row in mine)
                                                   / turns, DIGITS) if turns else None})
    return summary


__all__ = ["analyze_record", "summary_rows", "Decisions", "EQUITY_TOLERANCE"]
