"""A game record's turn as its player saw it, and the inference of each opponent's last action
there (:mod:`ginnyo.odds.inference`): what ``ginnyo infer`` and ``best-move --record`` read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import RecordError
from ..game.actions import Place
from ..game.records import read_record, replay
from ..position.position import Position
from ..vocab.layout import Layout
from ..vocab.tiles import rack_code, tile_code
from .inference import MARGIN, Observed, game_observations, infer_opponents

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel
    from ..game.game import Game, Turn


@dataclass(frozen=True)
class RecordDecision:
    """Turn ``turn`` of a record as its player saw it: the position (after the
    turn's draw, with the game's players, scores and seat) and what it saw of
    each opponent's last action."""

    turn: int
    player: int
    position: Position
    observed: list[Observed | None]


def record_decision(source: str | list[tuple[int, dict[str, Any]]], turn: int | None = None) -> RecordDecision:
    """Turn ``turn`` (default: the record's last) of a game record, replayed and
    checked (:func:`ginnyo.game.records.replay`); RecordError when it has no such turn
    or its board is not the standard one."""
    lines = source if isinstance(source, list) else read_record(source)
    name = source if isinstance(source, str) else "record"
    wanted = turn if turn is not None else sum(1 for _, data in lines[1:] if "end" not in data)
    caught: dict[str, Any] = {"observed": None}

    def on_turn(game: Game, played: Turn) -> None:
        if played.number == wanted - 1 and not game.over:
            caught["observed"] = game_observations(game)
        if played.number != wanted:
            return
        placed = dict(played.action.play.placements) if isinstance(played.action, Place) else {}
        scores = list(game.scores)
        scores[played.player] -= played.score
        caught.update(player=played.player, rack=list(played.rack) + ([] if played.draw is None else [played.draw]),
                      board={square: tile for square, tile in game.board.items() if square not in placed},
                      scores=scores, players=game.players, sets=game.sets, standard=game.layout == Layout.standard())

    replay(lines, on_turn=on_turn, name=name)    # checks the record first
    if "rack" not in caught:
        raise RecordError(f"{name}: the record has no turn {wanted}" if wanted >= 1
                          else f"{name}: the record has no turns")
    if not caught["standard"]:
        raise RecordError(f"{name}: inference reads records of the standard board only")
    layout = Layout.standard()
    position = Position.from_dict({
        "board": {layout.square_name(square): tile_code(card, joker)
                  for square, (card, joker) in caught["board"].items()},
        "rack": " ".join(rack_code(tile) for tile in sorted(caught["rack"])), "sets": caught["sets"],
        "players": caught["players"], "scores": caught["scores"], "to_move": caught["player"]})
    observed = caught["observed"] or [None] * (caught["players"] - 1)
    return RecordDecision(wanted, caught["player"], position, observed)


def record_inferences(source: str | list[tuple[int, dict[str, Any]]], turn: int | None = None,
                      model: LeaveModel | None = None, *, margin: float = MARGIN, seed: int = 0, threads: int = 1,
                      top: int | None = None) -> dict[str, Any]:
    """What ``ginnyo infer --json`` prints: turn ``turn`` of a game record as its
    player saw it (:func:`record_decision`) and the inference of each opponent's
    last action, the next seat first (:meth:`Inference.to_json`, ``top``
    leaves each; ``{"player": P, "turn": None}`` for one that has not acted)."""
    decision = record_decision(source, turn)
    players = len(decision.observed) + 1
    inferences = infer_opponents(decision.observed, model, margin=margin, seed=seed, threads=threads)
    return {"turn": decision.turn, "player": decision.player, "margin": margin,
            "opponents": [{"player": (decision.player + seat) % players, "turn": None} if inference is None
                          else inference.to_json(top) for seat, inference in enumerate(inferences, 1)]}


__all__ = ["RecordDecision", "record_decision", "record_inferences"]
