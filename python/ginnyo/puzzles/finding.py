"""Finding puzzles: the decisions of seeded games between strong bots, or of game
records, proved (:mod:`.proving`) and rated (:mod:`.rating`) one game at a time,
over worker processes; the same puzzles for a seed whatever the workers.

A game gives at most :attr:`Budget.score` score puzzles (chosen by the seed
among its decisions that prove), its first endgame decision that proves, and
one equity puzzle tried on one mid-game decision chosen by the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..endgame.exact import is_endgame
from ..equity.leaves import default_model
from ..game.game import Game, Turn, View, play_game
from ..game.records import read_record, replay
from ..players.players import make_player
from ..position.position import Position
from ..vocab.tiles import PlacedTile, rack_code
from ..support.workers import Batches, run_batches
from .proving import ENDGAME, EQUITY, SCORE, Puzzle, prove_endgame, prove_equity, prove_score
from .rating import rating

#: the bots of the seeded games: equity players that solve the endgame exactly
BOTS = "endgame"
PLAYERS = 2


@dataclass(frozen=True)
class Budget:
    """What a game may give: ``score`` score puzzles at most, each ``margin``
    points clear; an endgame ``endgame_margin`` points of spread clear; an equity
    puzzle tried with ``rollouts`` rollouts a candidate (0: none)."""

    margin: float = 10
    endgame_margin: float = 5
    score: int = 2
    rollouts: int = 0


@dataclass(frozen=True)
class Decision:
    """A decision of a game: its name (``game``-``turn``) and the position its player saw."""

    name: str
    turn: int
    position: Position


def game_decisions(seed: int) -> list[Decision]:
    """Every decision of the seeded 2-player game between :data:`BOTS` players."""
    game = Game.deal(PLAYERS, seed)
    decisions: list[Decision] = []

    def keep(view: View) -> None:
        decisions.append(Decision(f"g{seed}", view.turn, _seen(view)))
    play_game(game, [make_player(BOTS, seed, seat) for seat in range(PLAYERS)], on_decision=keep)
    return decisions


def _seen(view: View) -> Position:
    """The position ``view``'s player decides in, with the game fields (the
    ``unseen`` tiles written out in an endgame only: elsewhere they are the default)."""
    context = {"players": view.players, "scores": list(view.scores), "to_move": view.player}
    if view.players == 2 and not view.box_size:
        context["unseen"] = " ".join(map(rack_code, view.game_context.unseen))
    return Position(view.layout, view.sets, dict(view.board), view.rack, context, validate=False)


def record_decisions(path: str | Path) -> list[Decision]:
    """Every decision of the game record at ``path``, checked by its replay."""
    name = Path(path).stem
    decisions: list[Decision] = []
    board: dict[int, PlacedTile] = {}

    def keep(game: Game, turn: Turn) -> None:
        rack = list(turn.rack) + ([turn.draw] if turn.draw is not None else [])
        scores = list(game.scores)
        scores[turn.player] -= turn.score
        context = {"players": game.players, "scores": scores, "to_move": turn.player}
        position = Position(game.layout, game.sets, dict(board), rack, context, validate=False)
        if game.players == 2 and turn.draw is None and is_endgame(position):
            context["unseen"] = " ".join(map(rack_code, position.game_context.unseen))
            position = Position(game.layout, game.sets, dict(board), rack, context, validate=False)
        decisions.append(Decision(name, turn.number, position))
        board.clear()
        board.update(game.board)
    replay(read_record(path), on_turn=keep, name=str(path))
    return decisions


def puzzles_of(decisions: Sequence[Decision], seed: int, budget: Budget) -> list[Puzzle]:
    """The puzzles of one game's ``decisions``, proved and rated, in turn order;
    the choices among them seeded from ``seed`` and the game's name."""
    if not decisions:
        return []
    rng = random.Random(f"ginnyo puzzles {seed} {decisions[0].name}")
    found: list[tuple[int, Puzzle]] = []
    endgame = [is_endgame(d.position) for d in decisions]   # 2 players (the solver's check), the box empty
    others = [d for d, late in zip(decisions, endgame) if not late]
    scored = [(d, p) for d in others if (p := prove_score(d.position, budget.margin)) is not None]
    for decision, proved in rng.sample(scored, min(budget.score, len(scored))):
        found.append((decision.turn, proved.named(f"{decision.name}-t{decision.turn}-{SCORE}")))
    for decision in (d for d, late in zip(decisions, endgame) if late):
        solved = prove_endgame(decision.position, budget.endgame_margin)
        if solved is not None:
            found.append((decision.turn, solved.named(f"{decision.name}-t{decision.turn}-{ENDGAME}")))
            break
    middle = [d for d in others if d.position.board and d.position.legal_plays]
    if budget.rollouts and middle:
        decision = rng.choice(middle)
        simulated = prove_equity(decision.position, default_model(), budget.rollouts, rng.randrange(2 ** 32))
        if simulated is not None:
            found.append((decision.turn, simulated.named(f"{decision.name}-t{decision.turn}-{EQUITY}")))
    found.sort(key=lambda pair: pair[0])
    return [replace(puzzle, rating=rating(puzzle)) for _, puzzle in found]


def _games(seeds: list[int], seed: int, budget: Budget) -> list[tuple[int, list[Puzzle]]]:
    return [(game, puzzles_of(game_decisions(game), seed, budget)) for game in seeds]


def _records(paths: list[tuple[int, str]], seed: int, budget: Budget) -> list[tuple[int, list[Puzzle]]]:
    return [(index, puzzles_of(record_decisions(path), seed, budget)) for index, path in paths]


def make_puzzles(games: int, seed: int, budget: Budget, *, workers: int = 1,
                 on_games: Callable[[int], None] | None = None) -> list[Puzzle]:
    """The puzzles of the seeded games ``seed`` to ``seed + games - 1``, in game order."""
    seeds = range(seed, seed + games)
    return _collected(partial(_games, seed=seed, budget=budget), seeds, workers, on_games)


def record_puzzles(paths: Sequence[str | Path], seed: int, budget: Budget, *, workers: int = 1,
                   on_games: Callable[[int], None] | None = None) -> list[Puzzle]:
    """The puzzles of the game records ``paths``, in their order."""
    indexed = [(index, str(path)) for index, path in enumerate(paths)]
    return _collected(partial(_records, seed=seed, budget=budget), indexed, workers, on_games)


def _collected(function: Callable[[list], list[tuple[int, list[Puzzle]]]], items: Sequence[object],  # type: ignore[type-arg]
               workers: int, on_games: Callable[[int], None] | None) -> list[Puzzle]:
    by_game: dict[int, list[Puzzle]] = {}
    # small batches: a game takes about a second, and the bar should move
    for batch in run_batches(function, Batches(items, 2), workers=workers):
        by_game.update(batch)
        if on_games is not None:
            on_games(len(batch))
    return [puzzle for game in sorted(by_game) for puzzle in by_game[game]]


def puzzle_lines(puzzles: Iterable[Puzzle]) -> str:
    """The puzzles as JSON lines (docs/PUZZLES.md)."""
    import json
    return "".join(json.dumps(puzzle.to_json(), separators=(",", ":")) + "\n" for puzzle in puzzles)


__all__ = ["BOTS", "Budget", "Decision", "PLAYERS", "game_decisions", "make_puzzles", "puzzle_lines",
           "puzzles_of", "record_decisions", "record_puzzles"]
