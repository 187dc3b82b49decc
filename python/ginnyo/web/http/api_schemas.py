"""The JSON schemas of the web API's bodies and answers (docs/WEB.md, docs/WEB-ANALYSIS.md), for the
OpenAPI document (:mod:`.openapi`): built from the constants the handlers check (field names, limits,
seat kinds, player counts), so that the document and the checks cannot drift apart."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ginnyo.simulation.choices import POLICIES, STOP_LEVELS
from ginnyo.game.clock import INCREMENT_BOUNDS, INITIAL_BOUNDS

from ginnyo.crazy.hints import MAX_CHOSEN
from ginnyo.crazy.match import MAX_STEPS

from ..games.kinds import GAME_KINDS
from .json_schema import object_schema
from .requests import (MAX_ACTION, MAX_CANDIDATES, MAX_LIMIT, MAX_NAME, MAX_PLIES, MAX_ROLLOUTS, MAX_SIMULATION_SEED,
                       MAX_THINK)
from ..store.rows import GINNYO, MAX_SEED

#: A seat's name (``POST /api/games``'s ``names``): the handler collapses runs of whitespace, then asks
#: for at most :data:`MAX_NAME` printable characters, which no JSON Schema keyword says exactly
NAME_FORMAT = "seat-name"
VERSION_LIMIT = 1 << 31
JOB_STATES = ("waiting", "running", "done", "stopped", "failed")


def _whole(low: int, high: int, nullable: bool = True) -> dict[str, Any]:
    """A whole-number field as :func:`.requests.whole_number` reads it (null: left out)."""
    return {"type": "integer", "minimum": low, "maximum": high, "nullable": nullable}


# -- request bodies ------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def player_counts(game: str) -> tuple[int, ...]:
    """The player counts the rules allow ``game`` (its kind's own check, asked of 1 to 10)."""
    counts = []
    for count in range(1, 11):
        try:
            GAME_KINDS[game].check_players(count)
        except ValueError:
            continue
        counts.append(count)
    return tuple(counts)


def new_game_body() -> dict[str, Any]:
    """``POST /api/games``: one branch a game kind and player count, as ``names`` holds one name a seat."""
    branches = []
    for name, kind in GAME_KINDS.items():
        for count in player_counts(name):
            sized = {"minItems": count, "maxItems": count}
            properties = {
                "game": {"type": "string", "enum": [name], "description": "the game kind (default: ginny-o)"},
                "seats": {"type": "array", "items": {"type": "string", "enum": list(kind.seat_kinds)}, **sized,
                          "description": '"human" or a bot kind, one a seat'},
                "names": {"type": "array", "items": {"type": "string", "format": NAME_FORMAT}, **sized,
                          "nullable": True,
                          "description": f"one a seat: at most {MAX_NAME} printable characters once runs of "
                                         "whitespace are one space (empty: the default name)"},
                "seed": _whole(0, MAX_SEED - 1),
                "think": {"type": "number", "exclusiveMinimum": True, "minimum": 0, "maximum": MAX_THINK,
                          "nullable": True, "description": "the sim bots' seconds a move"},
                "watchable": {"type": "boolean", "description": "open to watchers (default: false)"}}
            properties["clock"] = {**object_schema({"initial": _whole(*INITIAL_BOUNDS, nullable=False),
                                                    "increment": _whole(*INCREMENT_BOUNDS)}, ("initial",)),
                                   "nullable": True,
                                   "description": "the time control: seconds a seat, seconds added a turn"}
            branches.append(object_schema(properties, ("seats",) if name == GINNYO else ("game", "seats"),
                                          title=f"{name}, {count} seats"))
    return {"oneOf": branches}


def preview_body() -> dict[str, Any]:
    """``POST /api/games/{game_id}/preview``: a Ginny-O placement, or Crazy Rummy cards or a hint."""
    placements = object_schema({"placements": {"type": "object", "additionalProperties": {"type": "string"},
                                               "description": "square -> tile code (a joker: the card it stands "
                                                              "for in lower case, or * not chosen yet)"}},
                               ("placements",), title="Ginny-O: placements")
    crazy = {"hint": {"type": "boolean", "description": "true: the advisor's best turn"},
             "cards": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                       "maxItems": MAX_CHOSEN, "description": "card codes of the hand"},
             "onto": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2, "nullable": True,
                      "description": "[seat, number] of a meld on the table"}}
    return {"anyOf": [placements,
                      object_schema({**crazy, "hint": {"type": "boolean", "enum": [True]}}, ("hint",),
                                    title="Crazy Rummy: a hint"),
                      object_schema(crazy, ("cards",), title="Crazy Rummy: the steps of chosen cards")]}


def action_body() -> dict[str, Any]:
    """``POST /api/games/{game_id}/actions``: notation (Ginny-O) or steps (Crazy Rummy), and the version."""
    step = {"type": "object", "description": 'a Crazy Rummy step: {"draw": "stock"}, {"meld": ...}, {"discard": ...}'}
    action = {"anyOf": [{"type": "string", "maxLength": MAX_ACTION,
                         "description": "Ginny-O: move notation, return <tiles> or pass"},
                        step, {"type": "array", "items": step, "minItems": 1, "maxItems": MAX_STEPS}]}
    return object_schema({"action": action,
                          "version": {**_whole(0, VERSION_LIMIT), "description": "the version acted on (else 409)"}},
                         ("action",))


def position_field() -> dict[str, Any]:
    return {"anyOf": [{"type": "object", "description": "a docs/FORMAT.md position"},
                      {"type": "string", "description": "JSON text or a position line (never a file name)"}]}


def analysis_body() -> dict[str, Any]:
    """``POST /api/analysis``."""
    return object_schema({"position": position_field(),
                          "limit": {**_whole(1, MAX_LIMIT), "description": "plays in each ranking"}},
                         ("position",))


def simulation_body() -> dict[str, Any]:
    """``POST /api/analysis/simulations``."""
    return object_schema({"position": position_field(),
                          "rollouts": _whole(1, MAX_ROLLOUTS),
                          "candidates": _whole(1, MAX_CANDIDATES),
                          "plies": _whole(0, MAX_PLIES),
                          "seed": _whole(0, MAX_SIMULATION_SEED),
                          "policy": {"type": "string", "enum": list(POLICIES)},
                          "stop": {"type": "integer", "enum": [*sorted(STOP_LEVELS), None], "nullable": True,
                                   "description": "stop once the leader is ahead at this confidence (%)"}},
                         ("position",))


def empty_object() -> dict[str, Any]:
    """A body of no fields (``{}``, or no body at all): an unknown field is a 400."""
    return {"type": "object", "properties": {}, "additionalProperties": False}


# -- answers -------------------------------------------------------------------------------------

def created_answer() -> dict[str, Any]:
    """A made game (or rematch): every seat, the people's tokens and links."""
    seat = object_schema({"seat": {"type": "integer"}, "kind": {"type": "string"}, "name": {"type": "string"},
                          "token": {"type": "string", "description": "a person's seat token (only here)"},
                          "url": {"type": "string"}}, ("seat", "kind", "name"), closed=False)
    return object_schema({"id": {"type": "string"}, "seats": {"type": "array", "items": seat},
                          "hotseat_url": {"type": "string"}}, ("id", "seats"), closed=False)


def seat_view() -> dict[str, Any]:
    """A seat's (or a watcher's) view: one branch a game kind, each listing every field it carries
    (docs/WEB.md "A seat's view"; the fields both kinds share are required)."""
    nullable_int = {"type": "integer", "nullable": True}
    ints = {"type": "array", "items": {"type": "integer"}}
    text = {"type": "string"}
    shared = {"id": text, "seat": {"type": "integer", "nullable": True, "description": "null: a watcher's view"},
              "watching": {"type": "boolean", "description": "present and true in a watcher's view"},
              "version": {"type": "integer"}, "players": {"type": "integer"},
              "names": {"type": "array", "items": text}, "kinds": {"type": "array", "items": text},
              "to_move": nullable_int, "your_turn": {"type": "boolean"}, "finished": {"type": "boolean"},
              "scores": ints, "history": {"type": "array", "items": {"type": "object"}},
              "result": {"type": "object", "nullable": True,
                         "description": "once finished: reason, reason_code, reason_args, final_scores, winners, "
                                        "ranking, out, overtime, aborted, …"},
              "rematch": {"type": "object", "nullable": True},
              "clocks": {"type": "array", "nullable": True, "items": {"type": "object"},
                         "description": "each seat's clock (seat, remaining, running, overtime_penalty)"},
              "analysis_open": {"type": "boolean",
                                "description": "whether the analysis board is handed this game now (fair play)"},
              "watchers": {"type": "integer", "description": "the watchers' sockets open now (a tab each)"}}
    required = ("id", "seat", "version", "players", "names", "kinds", "to_move", "your_turn", "finished",
                "history", "result", "rematch")
    ginnyo = {"position": {"type": "object", "nullable": True,
                           "description": "the seat's decision as FORMAT.md position JSON (its own rack only)"},
              "layout_grid": {"type": "array", "items": text}, "rack_sizes": ints,
              "box": {"type": "integer", "description": "tiles left in the box"},
              "opened": {"type": "boolean"}, "stall": {"type": "object", "nullable": True},
              "can_return": {"type": "boolean"}, "can_pass": {"type": "boolean"},
              "last": {"type": "object", "nullable": True,
                       "description": "the last turn: seat, action, score, squares"}}
    crazy = {"game": {"type": "string", "enum": ["crazy"]}, "round": {"type": "integer"}, "rounds": {"type": "integer"},
             "wild": {**text, "description": "the round's wild rank"}, "dealer": {"type": "integer"},
             "hand": {**text, "nullable": True, "description": "this seat's own cards only (null for a watcher)"},
             "hand_sizes": ints, "melds": {"type": "array", "items": {"type": "array", "items": text}},
             "discard": {**text, "description": "the discard pile, bottom first"},
             "stock": {"type": "integer", "description": "the stock's size"},
             "turn": {"type": "object", "nullable": True}, "out_on_time": ints, "resigned": ints,
             "may_abort": {"type": "boolean"}, "rounds_played": {"type": "array", "items": {"type": "object"}},
             "last_round": {"type": "object", "nullable": True}}
    return {"anyOf": [object_schema({**shared, **ginnyo}, required, closed=False, title="Ginny-O"),
                      object_schema({**shared, **crazy}, (*required, "game"), closed=False, title="Crazy Rummy")]}


def preview_answer() -> dict[str, Any]:
    return {"anyOf": [object_schema({"legal": {"type": "boolean"}, "reason": {"type": "string", "nullable": True},
                                     "reason_code": {"type": "string", "nullable": True}, "reason_args": {"type": "object"},
                                     "score": {"type": "integer"}, "melds": {"type": "array"},
                                     "joker_options": {"type": "object"}}, ("legal", "reason", "score", "melds"),
                                    closed=False, title="Ginny-O: the verdict"),
                      object_schema({"options": {"type": "array"}, "reason": {"type": "string", "nullable": True},
                                     "reason_code": {"type": "string", "nullable": True},
                                     "reason_args": {"type": "object", "nullable": True}},
                                    ("options", "reason", "reason_code", "reason_args"), closed=False,
                                    title="Crazy Rummy: the steps"),
                      object_schema({"hint": {"type": "object"}, "lines": {"type": "array"},
                                     "steps": {"type": "array", "items": object_schema({"code": {"type": "string"},
                                                                                        "args": {"type": "object"}},
                                                                                       ("code", "args"))}},
                                    ("hint", "lines", "steps"), closed=False, title="Crazy Rummy: the hint")]}


def analysis_answer() -> dict[str, Any]:
    return object_schema({"position": {"type": "object"}, "line": {"type": "string"}, "by_score": {"type": "array"},
                          "by_equity": {"type": "array"}, "no_play": {"type": "object", "nullable": True},
                          "endgame": {"type": "object", "nullable": True}},
                         ("position", "line", "by_score", "by_equity", "no_play", "endgame"), closed=False)


def game_position_answer() -> dict[str, Any]:
    """A seat's position handed to the analysis board."""
    return object_schema({"id": {"type": "string"}, "seat": {"type": "integer"}, "finished": {"type": "boolean"},
                          "names": {"type": "array", "items": {"type": "string"}}, "position": {"type": "object"}},
                         ("id", "seat", "finished", "names", "position"))


def job_answer(created: bool = False) -> dict[str, Any]:
    """A simulation job; the one just made also names its event stream."""
    properties: dict[str, Any] = {"id": {"type": "string"}, "state": {"type": "string", "enum": list(JOB_STATES)},
                                  "error": {"type": "string", "nullable": True}, "rollouts": {"type": "integer"},
                                  "asked": {"type": "integer"}, "candidates": {"type": "array"}}
    required: tuple[str, ...] = ("id", "state", "error", "rollouts", "asked", "candidates")
    if created:
        properties["events"] = {"type": "string"}
        required += ("events",)
    return object_schema(properties, required, closed=False)


def review_answer(of_table: bool = False) -> dict[str, Any]:
    properties: dict[str, Any] = {"players": {"type": "integer"}, "names": {"type": "array"},
                                  "turns": {"type": "array"}, "summary": {"type": "array"},
                                  "final": {"type": "object"}}
    required: tuple[str, ...] = ("players", "names", "turns", "summary", "final")
    if of_table:
        properties["game"] = {"type": "string"}
        required += ("game",)
    return object_schema(properties, required, closed=False)


def puzzle_answer() -> dict[str, Any]:
    """A puzzle before an attempt: never its solution (docs/PUZZLES.md)."""
    return object_schema({"id": {"type": "string"}, "kind": {"type": "string", "enum": ["score", "endgame", "equity"]},
                          "position": {"type": "object"}, "themes": {"type": "array", "items": {"type": "string"}},
                          "rating": {"type": "integer"}, "player_rating": {"type": "integer"}, "daily": {"type": "boolean"},
                          "layout_grid": {"type": "array", "items": {"type": "string"}}},
                         ("id", "kind", "position", "themes", "rating", "player_rating", "daily"), closed=False)


def puzzle_attempt_body() -> dict[str, Any]:
    return object_schema({"action": {"type": "string", "maxLength": MAX_ACTION,
                                     "description": "move notation or return <tiles>"}}, ("action",))


def puzzle_placements_body() -> dict[str, Any]:
    return object_schema({"placements": {"type": "object", "additionalProperties": {"type": "string"},
                                         "description": "square -> tile code (a joker: its card in lower case, or *)"}},
                         ("placements",))


def puzzle_attempt_answer() -> dict[str, Any]:
    return object_schema({"id": {"type": "string"}, "correct": {"type": "boolean"}, "rated": {"type": "boolean"},
                          "solution": {"type": "array", "items": {"type": "string"}}, "margin": {"type": "number"},
                          "second": {"type": "object", "nullable": True}, "rating": {"type": "integer"},
                          "puzzle_rating": {"type": "integer"}, "solution_placements": {"type": "object"}},
                         ("id", "correct", "rated", "solution", "margin", "second", "rating", "puzzle_rating"), closed=False)


def puzzle_themes_answer() -> dict[str, Any]:
    return object_schema({"themes": {"type": "object", "additionalProperties": {"type": "integer"}}}, ("themes",))


def health_answer() -> dict[str, Any]:
    return object_schema({"ok": {"type": "boolean", "enum": [True]}}, ("ok",))


def document_answer() -> dict[str, Any]:
    return object_schema({"openapi": {"type": "string"}, "info": {"type": "object"}, "paths": {"type": "object"}},
                         ("openapi", "info", "paths"), closed=False)


def refusal() -> dict[str, Any]:
    """Every refusal: one line of reason (English), and where the app answers it its stable code and
    arguments, for a page to say it in its reader's language."""
    return object_schema({"error": {"type": "string"},
                          "code": {"type": "string", "description": "e.g. not-your-turn, not-a-meld (docs/WEB.md)"},
                          "args": {"type": "object", "description": "what the code's sentence names"}}, ("error",))


__all__ = ["puzzle_answer", "puzzle_attempt_body", "puzzle_placements_body", "puzzle_attempt_answer",
           "puzzle_themes_answer", "NAME_FORMAT", "player_counts", "new_game_body", "preview_body", "action_body",
           "analysis_body", "simulation_body", "empty_object", "created_answer", "seat_view", "preview_answer",
           "analysis_answer", "job_answer", "review_answer", "health_answer", "document_answer", "refusal",
           "game_position_answer"]
