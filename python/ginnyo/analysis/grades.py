"""Graded review of a record: each move's win probability before and after, a grade, accuracy (docs/INFERENCE.md).

``ginnyo analyze RECORD`` adds these to the rows of :mod:`ginnyo.record_analysis`.
A move is judged from its player's side just after it, by the win-probability
model (:mod:`ginnyo.odds.win_probability`): the lead over each other player before
the turn plus the action's equity (score plus leave value), at the box the
player saw.  ``win_before`` is the chance with the best equity action (what
the position offered), ``win_after`` the chance with the move played,
``win_lost`` the difference.  In a 2-player endgame (the box empty) the
endgame solver (:func:`ginnyo.endgame.solve`, within :data:`ENDGAME_NODES`
nodes) gives the exact spread of the best move and of the move played, so
``spread_lost`` is exact (when ``proven``) and the chances are exact too: 1
when the final lead is positive, 1/2 level, 0 behind.  Grades (MAGPIE's
mistake grades): by the win probability lost, below 1% ``none``, below 4%
``small``, below 10% ``medium``, else ``large``; an endgame move by the points
lost, 0 ``none``, up to 5 ``small``, up to 15 ``medium``, else ``large``.  A
player's accuracy is lichess's: the mean over its moves of
``103.1668 * exp(-0.04354 * win_lost_in_percent) - 3.1669``, clamped to 0-100.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..game.actions import Pass, Place, Return
from ..vocab.tiles import rack_code, tile_code
from ..odds.win_probability import WinModel, default_model, leads_of

if TYPE_CHECKING:
    from ..game.game import Game, Turn
    from ..position.position import Position

#: Grades by the win probability lost: the upper bound (exclusive) of each but the last.
GRADE_CUTS = (("none", 0.01), ("small", 0.04), ("medium", 0.10), ("large", math.inf))
#: Endgame grades by the points lost: the upper bound (inclusive) of each but the last.
ENDGAME_GRADE_CUTS = (("none", 0), ("small", 5), ("medium", 15), ("large", math.inf))
GRADES = tuple(name for name, _ in GRADE_CUTS)
ENDGAME_NODES = 2_000_000   # a node budget: the same verdict on every machine
DIGITS = 4


@dataclass(frozen=True)
class TurnFacts:
    """What grading a turn needs beyond its row: the mover's leads before it,
    the box it saw, whether a meld was down after it, and, in a 2-player
    endgame, the positions before and after it."""

    turn: int
    player: int
    players: int
    leads: tuple[float, ...]
    box_size: int
    opened: bool
    endgame: Endgame | None


@dataclass(frozen=True)
class Endgame:
    """A 2-player endgame turn: the positions before it (the mover to move) and
    after it (the opponent to move; None when it ended the game), its score,
    the rest when it ended the game (the opponent's rack penalty less the
    mover's), and whether a pass then would end the game."""

    before: Position
    after: Position | None
    score: int
    rest: int
    pass_ends_before: bool
    pass_ends_after: bool


def grade(win_lost: float) -> str:
    """The grade of a move that lost ``win_lost`` win probability."""
    for name, cut in GRADE_CUTS:
        if win_lost < cut:
            return name
    return GRADE_CUTS[-1][0]


def endgame_grade(points_lost: int) -> str:
    """The grade of an endgame move that lost ``points_lost`` points."""
    for name, cut in ENDGAME_GRADE_CUTS:
        if points_lost <= cut:
            return name
    return ENDGAME_GRADE_CUTS[-1][0]


def accuracy(win_lost: Sequence[float]) -> float | None:
    """lichess's accuracy of moves that lost ``win_lost`` (shares), 0 to 100; None without moves."""
    if not win_lost:
        return None
    marks = [min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * 100 * lost) - 3.1669)) for lost in win_lost]
    return round(sum(marks) / len(marks), 2)


def _position(game: Game, board: Mapping[int, tuple[int, bool]], rack: Sequence[int], unseen: Sequence[int],
              to_move: int) -> Position:
    from ..position.position import Position
    layout = game.layout
    return Position.from_dict({
        "board": {layout.square_name(square): tile_code(card, joker) for square, (card, joker) in board.items()},
        "rack": " ".join(rack_code(tile) for tile in sorted(rack)), "sets": game.sets, "players": 2,
        "to_move": to_move, "unseen": " ".join(rack_code(tile) for tile in sorted(unseen))})


class TurnFactsLog:
    """Each turn's facts, gathered while the record is replayed: :meth:`add` is called with
    the game just after each turn (the replay's ``on_turn``, :func:`ginnyo.game.records.replay`)."""

    def __init__(self) -> None:
        self.facts: list[TurnFacts] = []
        self.passed_before = False     # the last turn was a pass: a pass now ends a 2-player endgame

    def add(self, game: Game, turn: Turn) -> None:
        scores = list(game.scores)
        scores[turn.player] -= turn.score
        returned = turn.action.tiles if isinstance(turn.action, Return) else ()
        box = len(game.box) + len(turn.refill) - len(returned)
        endgame = None
        if game.players == 2 and box == 0 and game.board and not returned:
            endgame = _endgame_pair(game, turn, self.passed_before)
        self.facts.append(TurnFacts(turn.number, turn.player, game.players, tuple(leads_of(scores, turn.player)), box,
                                    game.opened, endgame))
        self.passed_before = isinstance(turn.action, Pass)


def _endgame_pair(game: Game, turn: Turn, passed_before: bool) -> Endgame | None:
    """The :class:`Endgame` of ``turn``, just played in ``game``."""
    from ..vocab.tiles import rack_penalty
    mover, other = turn.player, 1 - turn.player
    placed = dict(turn.action.play.placements) if isinstance(turn.action, Place) else {}
    before_board = {square: tile for square, tile in game.board.items() if square not in placed}
    if not before_board:
        return None
    rack_before = list(turn.rack) + ([] if turn.draw is None else [turn.draw])
    opponent = list(game.racks[other])
    before = _position(game, before_board, rack_before, opponent, mover)
    if game.over:
        rest = sum(rack_penalty(t) for t in opponent) - sum(rack_penalty(t) for t in game.racks[mover])
        return Endgame(before, None, turn.score, rest, passed_before, False)
    after = _position(game, dict(game.board), opponent, list(game.racks[mover]), other)
    return Endgame(before, after, turn.score, 0, passed_before, isinstance(turn.action, Pass))


def add_grades(rows: list[dict[str, Any]], summary: list[dict[str, Any]], facts: Sequence[TurnFacts],
               model: WinModel | None = None) -> None:
    """Add the grading fields to the analysis ``rows`` and ``summary`` (in place)."""
    from ..endgame.exact import solve
    model = model or default_model()
    by_turn = {fact.turn: fact for fact in facts}
    lost_by_player: dict[int, list[float]] = {}
    for row in rows:
        fact = by_turn[row["turn"]]
        played, best = row["played"]["equity"], row["equity"]["equity"]
        if fact.endgame is not None:
            endgame = fact.endgame
            best_result = solve(endgame.before, nodes=ENDGAME_NODES, after_pass=endgame.pass_ends_before)
            reply = None if endgame.after is None else solve(endgame.after, nodes=ENDGAME_NODES,
                                                              after_pass=endgame.pass_ends_after)
            played_spread = endgame.score + (endgame.rest if reply is None else -reply.spread)
            lost = max(0, best_result.spread - played_spread)
            lead = fact.leads[0]
            win_before = _settled(lead + best_result.spread)
            win_after = _settled(lead + played_spread)
            row.update(endgame=True, spread_best=best_result.spread, spread_played=played_spread,
                       spread_lost=lost, proven=best_result.proven and (reply is None or reply.proven),
                       grade=endgame_grade(lost))
        else:
            win_before = _chance(model, fact, best)
            win_after = min(_chance(model, fact, played), win_before)
            row["grade"] = grade(win_before - win_after)
        row.update(win_before=round(win_before, DIGITS), win_after=round(win_after, DIGITS),
                   win_lost=round(max(0.0, win_before - win_after), DIGITS))
        lost_by_player.setdefault(row["player"], []).append(max(0.0, win_before - win_after))
    for entry in summary:
        mine = [row for row in rows if row["player"] == entry["player"]]
        entry["accuracy"] = accuracy(lost_by_player.get(entry["player"], []))
        counts = Counter(row["grade"] for row in mine)
        entry["grades"] = {name: counts.get(name, 0) for name in GRADES}


def _chance(model: WinModel, fact: TurnFacts, equity: float) -> float:
    return model.probability(fact.players, [lead + equity for lead in fact.leads], fact.box_size, fact.opened, 7)


def _settled(final_lead: float) -> float:
    return 1.0 if final_lead > 0 else 0.5 if final_lead == 0 else 0.0


__all__ = ["GRADE_CUTS", "ENDGAME_GRADE_CUTS", "GRADES", "ENDGAME_NODES", "TurnFacts", "grade", "endgame_grade",
           "accuracy", "TurnFactsLog", "add_grades"]
