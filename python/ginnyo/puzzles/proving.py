"""The proofs behind a puzzle: that one play (with its orderings) is the best of a
decision by a margin, for each kind of puzzle (docs/PUZZLES.md).

- ``score``: the legal plays, best score first (the core's ranking), grouped as
  ``moves --group`` groups them (the orderings of the same tiles on the same squares,
  :mod:`ginnyo.position.play_groups`); the top group alone at the top score, at
  least ``margin`` points above the next group.
- ``endgame``: a 2-player position with the box empty; every legal first move
  played and the rest solved exactly by the endgame solver (:mod:`ginnyo.endgame.exact`),
  the move's spread its score less the opponent's spread after it; the plays
  of the best spread one group (orderings of the same tiles on the same squares),
  at least ``margin`` above every other first move's.
- ``equity``: the top equity groups simulated (:mod:`ginnyo.simulation.rollouts`,
  as ``best-move --sim`` does), the leader's 95% interval above every other's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterator

from ..endgame.exact import opponent_rack, solve
from ..equity.leaves import LeaveModel
from ..equity.rank import PLAY, Candidate, candidate_notation, rank_position
from ..vocab.play import ScoredPlay
from ..position.play_groups import GroupKey, group_key
from ..position.position import Position
from ..simulation.rollouts import is_late, setup_for
from ..simulation.session import simulate
from ..vocab.tiles import JOKER, rack_code
from .themes import ordered, play_themes

SCORE, EQUITY, ENDGAME = "score", "equity", "endgame"
KINDS = (SCORE, EQUITY, ENDGAME)
#: the node budget of one endgame solve in a proof; a solve that does not finish within it proves nothing
ENDGAME_NODES = 2_000_000
#: the equity groups an equity proof simulates, and the plies played after ours
EQUITY_CANDIDATES, EQUITY_PLIES = 4, 2


@dataclass(frozen=True)
class Puzzle:
    """A decision with its proven solution: ``solution`` every notation that solves
    it, ``margin`` how far it stands above ``second`` (the best other play and its
    value), ``details`` what else the proof found (the endgame's ``spread``, the
    equity's intervals), ``rating`` the starting difficulty (0 until rated)."""

    id: str
    kind: str
    position: Position
    solution: tuple[str, ...]
    margin: float
    themes: tuple[str, ...]
    second: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    rating: int = 0

    def to_json(self) -> dict[str, Any]:
        """The puzzle's JSON line (docs/PUZZLES.md), its keys in a fixed order."""
        return {"id": self.id, "kind": self.kind, "position": self.position.to_dict(),
                "solution": list(self.solution), "margin": self.margin, "themes": list(self.themes),
                "rating": self.rating, "second": self.second, **self.details}

    def named(self, puzzle_id: str) -> Puzzle:
        return replace(self, id=puzzle_id)


# -- score ---------------------------------------------------------------------------------------

def prove_score(position: Position, margin: float) -> Puzzle | None:
    """The score puzzle of ``position``: its top-scoring group of plays, when it
    stands alone at least ``margin`` points above every other group; else None."""
    plays = iter(position.legal_plays)
    top = next(plays, None)
    if top is None:
        return None
    band = [top]
    second: ScoredPlay | None = None
    for scored in plays:
        if scored.score != top.score:
            second = scored
            break
        band.append(scored)
    if len({group_key(scored.play) for scored in band}) > 1 or second is None:
        return None     # two groups share the top score, or there is nothing to beat
    gap = top.score - second.score
    if gap < margin:
        return None
    solution = tuple(sorted(position.notation(scored) for scored in band))
    return Puzzle("", SCORE, position, solution, gap, tuple(ordered(play_themes(position, top))),
                  {"notation": position.notation(second), "score": second.score}, {"score": top.score})


# -- endgame -------------------------------------------------------------------------------------

def first_move_spreads(position: Position, nodes: int = ENDGAME_NODES) -> list[tuple[int, ScoredPlay]] | None:
    """Every legal first move of the endgame ``position`` with its exact spread for
    the player to move (the move's score less what the opponent makes of the rest),
    best first; None when a solve does not finish within ``nodes`` nodes."""
    opponent = opponent_rack(position)
    spreads = []
    for scored in position.legal_plays:
        spread = scored.score - _opponent_spread(position, scored, opponent, nodes)
        if spread is None:
            return None
        spreads.append((spread, scored))
    spreads.sort(key=lambda pair: -pair[0])    # stable: the core's ranking among equal spreads
    return spreads


def _opponent_spread(position: Position, scored: ScoredPlay, opponent: tuple[int, ...], nodes: int) -> Any:
    """The opponent's exact spread after ``scored`` (None: not proven within ``nodes``)."""
    board = dict(position.board)
    board.update(scored.play.placements)
    left = Counter(position.rack)
    left.subtract(JOKER if tile.joker else tile.card for _, tile in scored.play.placements)
    after = Position(position.layout, position.sets, board, opponent,
                     {"players": 2, "unseen": " ".join(rack_code(tile) for tile in sorted(left.elements()))},
                     validate=False)
    result = solve(after, nodes=nodes)    # the player has just played: no pass before the opponent's turn
    return result.spread if result.proven else None


def prove_endgame(position: Position, margin: float, nodes: int = ENDGAME_NODES) -> Puzzle | None:
    """The endgame puzzle of the 2-player endgame ``position``: the first moves of the
    best exact spread, at least ``margin`` above every other first move's; else None
    (also when there is no play, or a solve does not finish within ``nodes``)."""
    spreads = first_move_spreads(position, nodes)
    if not spreads:
        return None
    best = spreads[0][0]
    others = [(spread, scored) for spread, scored in spreads if spread != best]
    if not others or best - others[0][0] < margin:
        return None
    winners = [scored for spread, scored in spreads if spread == best]
    if len({group_key(scored.play) for scored in winners}) > 1:
        return None     # two different plays reach the best spread: no one play to find
    themes = {"endgame"}
    for scored in winners[:1]:
        themes |= play_themes(position, scored)
        if len(scored.play.placements) == len(position.rack):
            themes.add("going-out")
        if scored.score < max(scored.score for _, scored in spreads):
            themes.add("below-top-score")
    second_spread, second = others[0]
    return Puzzle("", ENDGAME, position, tuple(sorted(position.notation(scored) for scored in winners)),
                  best - second_spread, tuple(ordered(themes)),
                  {"notation": position.notation(second), "score": second.score, "spread": second_spread},
                  {"spread": best, "score": winners[0].score})


# -- equity --------------------------------------------------------------------------------------

def equity_groups(position: Position, model: LeaveModel, count: int = EQUITY_CANDIDATES
                  ) -> list[list[Candidate]]:
    """The top ``count`` groups of the position's equity ranking, each a play's
    orderings (one each for a return or a pass), best equity first."""
    groups: dict[GroupKey | tuple[str, tuple[int, ...]], list[Candidate]] = {}
    for candidate in _ranked(position, model):
        key = _candidate_key(position, candidate)
        if key not in groups:
            if len(groups) == count:
                break
            groups[key] = []
        groups[key].append(candidate)
    return list(groups.values())


def _ranked(position: Position, model: LeaveModel) -> Iterator[Candidate]:
    yield from rank_position(position, model, limit=200)


def _candidate_key(position: Position, candidate: Candidate) -> Any:
    if candidate.kind == PLAY:
        from ..native import to_play
        return group_key(to_play(candidate.placements))
    return candidate.kind, candidate.returned


def prove_equity(position: Position, model: LeaveModel, rollouts: int, seed: int,
                 count: int = EQUITY_CANDIDATES) -> Puzzle | None:
    """The equity puzzle of ``position``: the top ``count`` equity groups (one
    ordering of each standing for it) simulated ``rollouts`` times each with
    ``seed``, the leader's 95% interval clear above every other's; else None.
    Late positions (rollouts played to the game's end, ranked by wins) are no such puzzle."""
    context = position.game_context
    if is_late(context.box_size):
        return None
    groups = equity_groups(position, model, count)
    if len(groups) < 2:
        return None
    firsts = [group[0] for group in groups]
    setup = setup_for(position, firsts, EQUITY_PLIES, seed, model)
    results = simulate(setup, rollouts)
    leader, rest = results[0], results[1:]
    # judged as written: the intervals the puzzle reports are disjoint
    if not all(round(leader.low, 3) > round(other.high, 3) for other in rest):
        return None
    top = groups[firsts.index(leader.candidate)]
    second = rest[0]
    themes: set[str] = set()
    if leader.candidate.kind == PLAY:
        from ..native import to_play
        themes |= play_themes(position, position.score(to_play(leader.candidate.placements)))
    else:
        themes.add(leader.candidate.kind)
    if any(other.candidate.score > leader.candidate.score for other in rest):
        themes.add("below-top-score")
    return Puzzle("", EQUITY, position, tuple(sorted(candidate_notation(position, one) for one in top)),
                  round(round(leader.mean, 3) - round(second.mean, 3), 3), tuple(ordered(themes)),
                  {**_sim_json(position, second)},
                  {"rollouts": leader.rollouts, "seed": seed, "plies": EQUITY_PLIES, "interval": [round(leader.low, 3), round(leader.high, 3)],
                   "mean": round(leader.mean, 3),
                   "candidates": [_sim_json(position, result) for result in results]})


def _sim_json(position: Position, result: Any) -> dict[str, Any]:
    return {"notation": candidate_notation(position, result.candidate), "score": result.candidate.score,
            "mean": round(result.mean, 3), "interval": [round(result.low, 3), round(result.high, 3)]}


__all__ = ["ENDGAME", "ENDGAME_NODES", "EQUITY", "EQUITY_CANDIDATES", "EQUITY_PLIES", "KINDS", "Puzzle", "SCORE",
           "equity_groups", "first_move_spreads", "prove_endgame", "prove_equity", "prove_score"]
