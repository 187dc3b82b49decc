"""The game review's API (docs/WEB-ANALYSIS.md "Reviews"): a finished game's turns, each with the board it
was played on, the move against the best by score and by equity (``ginnyo analyze``'s rows), the
points and equity it lost, its graded review (win probability before and after, the grade:
:mod:`ginnyo.analysis.grades`), the scores after it, and a summary a player (with its accuracy).

A review is of a finished table game (any of its seats' tokens; 409 while it is played, as its
record would reveal the box) or of a record uploaded as text (``ginnyo selfplay --records``'s
files), replayed and checked as ``ginnyo analyze`` checks it: a record that breaks the rules is a
422 naming the line, in the CLI's words.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ginnyo.errors import GinnyoError
from ginnyo.position.position import Position
from ginnyo.game.actions import Place
from ginnyo.analysis.grades import ENDGAME_GRADE_CUTS, GRADE_CUTS
from ginnyo.analysis.records import analyze_record
from ginnyo.game.records import parse_record, record_names, replay

from ..games.ginnyo import end_code
from . import requests as fields
from .pages import page_response
from .errors import BadRequest, Illegal
from .limits import ANALYSES, limited

if TYPE_CHECKING:
    from ginnyo.game.game import Game, Turn

    from ..live.registry import Tables

RECORD_NAME = "record"       # what a refusal calls an uploaded record
#: a move that lost at least this much equity is marked as one where the game turned
BIG_LOSS = 10.0
#: the graded review's cut-offs (:mod:`ginnyo.analysis.grades`) for the page to state: each grade
#: with its upper bound of the win probability lost (below it) or of an endgame's points lost (up to it)
GRADE_CUTS_JSON = {kind: [[name, None if math.isinf(cut) else cut] for name, cut in cuts]
                   for kind, cuts in (("win_lost", GRADE_CUTS), ("spread_lost", ENDGAME_GRADE_CUTS))}


def turn_boards(lines: list[tuple[int, dict[str, Any]]]) -> tuple[Game, list[dict[str, Any]]]:
    """The replayed game and, a turn, what the review draws: the board before the move (square
    name -> tile code), the mover's rack after the draw, the squares the move covered, the scores
    after it (before the penalties of the end), and the decision as a docs/FORMAT.md position (for the analysis board)."""
    turns: list[dict[str, Any]] = []
    board: dict[str, str] = {}
    scores: list[int] = []

    def on_turn(game: Game, turn: Turn) -> None:
        nonlocal board, scores
        if not scores:
            scores = [0] * game.players
        layout = game.layout
        rack = [*turn.rack, *([] if turn.draw is None else [turn.draw])]
        decision = Position(layout, game.sets, {square: tile for square, tile in game.board.items()
                                                if layout.square_name(square) in board}, rack).to_dict()
        decision.update(players=game.players, scores=list(scores), to_move=turn.player)
        squares = ([layout.square_name(square) for square, _ in turn.action.play.placements]
                   if isinstance(turn.action, Place) else [])
        scores[turn.player] += turn.score    # the game's own scores lose the penalties at the end
        turns.append({"board": dict(board), "rack": decision["rack"], "squares": squares,
                      "scores": list(scores), "position": decision})
        board = {layout.square_name(square): tile.code for square, tile in sorted(game.board.items())}

    game = replay(lines, on_turn=on_turn, name=RECORD_NAME)
    return game, turns


def review_of(text: str) -> dict[str, Any]:
    """The review of record ``text``; 422 in ``ginnyo analyze``'s words when it does not replay."""
    try:
        lines = parse_record(text, RECORD_NAME)
        for number, line in lines:
            fields.no_lone_surrogate(line, f"{RECORD_NAME} line {number}")
        rows, summary = analyze_record(lines, RECORD_NAME)
        game, boards = turn_boards(lines)
    except GinnyoError as error:
        raise Illegal(" ".join(str(error).split("\n"))) from None
    names = record_names(lines) or [f"Player {seat + 1}" for seat in range(game.players)]
    for row, drawn in zip(rows, boards):
        row.update(drawn, name=names[row["player"]], big_loss=row["equity_lost"] >= BIG_LOSS)
    end = lines[-1][1]
    reason = end.get("end")
    code, arguments = end_code(reason) if isinstance(reason, str) else (None, {})
    return {"players": game.players, "names": names, "layout_grid": list(game.layout.rows), "sets": game.sets,
            "big_loss": BIG_LOSS, "grade_cuts": GRADE_CUTS_JSON, "turns": rows, "summary": summary,
            "final": {"reason": reason, "reason_code": code, "reason_args": arguments, "penalties": end.get("penalties"), "scores": end.get("scores"),
                      "winners": end.get("winners"), "board": _final_board(game)}}


def _final_board(game: Game) -> dict[str, str]:
    return {game.layout.square_name(square): tile.code for square, tile in sorted(game.board.items())}


async def review_record(request: Request) -> Response:
    """POST /api/review: the body is the record itself (JSON lines, UTF-8)."""
    limited(request, ANALYSES)
    data = await fields.bounded_body(request, fields.MAX_RECORD, "the record")
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        raise BadRequest("the record is not UTF-8 text") from None
    return JSONResponse(await run_in_threadpool(review_of, text))


async def review_game(request: Request) -> Response:
    """GET /api/games/{id}/review: a finished table game's review, for any of its seats."""
    tables: Tables = request.app.state.tables
    table = tables.get(request.path_params["game_id"])
    seat = tables.seat_of(table, fields.bearer_token(request))
    text = await run_in_threadpool(tables.record, table, seat)   # 409 while the game is played
    answer = await run_in_threadpool(review_of, text)
    answer["game"] = table.id
    return JSONResponse(answer)


async def review_page(request: Request) -> Response:
    return page_response("review", request)


routes = [
    Route("/review", review_page),
    Route("/review/{game_id}", review_page),
    Route("/api/review", review_record, methods=["POST"]),
    Route("/api/games/{game_id}/review", review_game),
]

__all__ = ["routes", "review_of", "turn_boards", "BIG_LOSS", "GRADE_CUTS_JSON"]
