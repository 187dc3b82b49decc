"""Exact 2-player endgames (docs/ENDGAME.md): once the box is empty, the unseen
tiles are the opponent's rack and the rest of the game can be searched to the end.

:func:`solve` runs the compiled search (:mod:`ginnycore.endgame`) and returns
the final spread for the player to move with the principal variation in move
notation; ``ginnyo endgame POSITION`` prints it.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from ..native.encoding import encode_rack
from ..native.endgame import Endgame

from .. import native
from ..errors import PositionError
from ..vocab.notation import play_notation
from ..vocab.play import Play, ScoredPlay
from ..position.position import Position
from ..vocab.rules import RACK_SIZE
from ..vocab.tiles import JOKER, PlacedTile, rack_penalty
from .search import TABLE_BITS, check_nodes, run_search

#: the most unseen tiles of an endgame: racks are refilled to RACK_SIZE while the box has tiles
MAX_UNSEEN = RACK_SIZE
PASS = "pass"
SIDES = ("to move", "opponent")


@dataclass(frozen=True)
class EndgameMove:
    """One turn of the principal variation: who (0 the player to move, 1 the
    opponent), the play in notation or ``"pass"``, its score, and the play itself
    (None: a pass)."""

    player: int
    notation: str
    score: int
    play: Play | None = None


@dataclass(frozen=True)
class EndgameResult:
    """What :func:`solve` found.  ``spread``: the player to move's points from here
    on minus the opponent's, end penalties included — exact when ``proven``, else
    the value of the best line found so far (its end, at the search horizon,
    scored as if the game ended there).  ``line``: the moves in notation."""

    spread: int
    line: tuple[str, ...]
    proven: bool
    nodes: int
    seconds: float
    moves: tuple[EndgameMove, ...]
    depth: int
    penalties: tuple[int, int]      # what each rack holds at the end of the line (positive)

    def to_json(self) -> dict[str, Any]:
        return {"spread": self.spread, "line": list(self.line), "proven": self.proven,
                "nodes": self.nodes, "seconds": round(self.seconds, 6), "depth": self.depth,
                "moves": [{"player": SIDES[move.player], "move": move.notation, "score": move.score}
                          for move in self.moves],
                "penalties": {SIDES[0]: -self.penalties[0], SIDES[1]: -self.penalties[1]}}


def opponent_rack(position: Position) -> tuple[int, ...]:
    """The opponent's rack of an endgame position: its ``unseen`` tiles (or every
    tile not on the board or the rack).  Raises :class:`PositionError` naming
    the field when the position is no 2-player endgame."""
    context = position.game_context     # checks players, scores, to_move and unseen
    if context.players != 2:
        raise PositionError(f"field 'players': {context.players} players; the endgame solver is for 2")
    if len(context.unseen) > MAX_UNSEEN:
        raise PositionError(f"field 'unseen': {len(context.unseen)} tiles unseen, so the box is not empty: "
                            f"an endgame has at most {MAX_UNSEEN}")
    return context.unseen


def is_endgame(position: Position) -> bool:
    """Whether ``position`` is a 2-player endgame (at most 7 unseen tiles)."""
    try:
        opponent_rack(position)
    except PositionError:
        return False
    return True


def solve(position: Position, seconds: float | None = None, *, after_pass: bool = False,
          table_bits: int = TABLE_BITS, nodes: int | None = None) -> EndgameResult:
    """Search the endgame ``position`` to the end, or for at most ``seconds``
    and about ``nodes`` nodes (a node budget gives the same answer on every
    machine, as games that must replay from their seed need).

    ``after_pass``: the opponent's last turn was a pass (a pass now ends the
    game).  Raises :class:`PositionError` when the position is no endgame and
    ``ValueError`` for a bad ``seconds`` or ``table_bits``.  The search runs in
    a helper thread so that Ctrl-C stops it."""
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not math.isfinite(seconds) or seconds <= 0):
        raise ValueError(f"seconds must be a positive number of seconds, not {seconds!r}")
    if type(table_bits) is not int:
        raise ValueError(f"table_bits must be a whole number, not {table_bits!r}")
    check_nodes(nodes)
    opponent = opponent_rack(position)
    search = Endgame(native.core_of(position), bytes(encode_rack(opponent)), table_bits, after_pass)
    spread, plays, proven, searched, depth, elapsed = run_search(search, float(seconds or 0.0), nodes or 0)
    moves = _line_moves(position, plays)
    racks = [Counter(position.rack), Counter(opponent)]
    for index, (_, placements) in enumerate(plays):
        racks[index % 2].subtract(JOKER if joker else card for _, card, joker in placements)
    penalties = (sum(rack_penalty(t) * n for t, n in racks[0].items()),
                 sum(rack_penalty(t) * n for t, n in racks[1].items()))
    return EndgameResult(spread, tuple(move.notation for move in moves), proven, searched, elapsed,
                         moves, depth, penalties)


def best_endgame_play(position: Position, seconds: float | None = None) -> ScoredPlay | None:
    """The first move of the endgame's best line as a scored play (what ``best-move``,
    the engine's ``go`` and the sim player would play in an endgame), or None
    when that move is a pass (there is no legal play)."""
    first = solve(position, seconds).moves[0]
    if first.play is None:
        return None
    return position.score(first.play)


def _line_moves(position: Position, plays: Sequence[tuple[int, tuple[tuple[int, int, bool], ...]]]
                ) -> tuple[EndgameMove, ...]:
    """The line in notation, each play written on the board it was made on."""
    board = dict(position.board)
    moves = []
    for index, (score, placements) in enumerate(plays):
        if not placements:
            moves.append(EndgameMove(index % 2, PASS, 0))
            continue
        play = native.to_play(placements)
        before = Position(position.layout, position.sets, board, (), validate=False)
        moves.append(EndgameMove(index % 2, play_notation(before, play), score, Play.of(play.placements)))
        board.update((square, PlacedTile(card, joker)) for square, card, joker in placements)
    return tuple(moves)


__all__ = ["EndgameMove", "EndgameResult", "MAX_UNSEEN", "PASS", "SIDES", "best_endgame_play", "is_endgame",
           "opponent_rack", "solve"]
