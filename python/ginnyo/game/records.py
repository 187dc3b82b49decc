"""Game records in JSON lines, written from a game and replayed move by move.

A record is a header line (the deal), one line a turn, and an end line::

    {"record": "ginnyo game", "version": 2, "layout": "standard", "sets": 1, "players": 2,
     "names": ["greedy", "greedy"], "seed": 7, "stall_rounds": 3,
     "first_draw": [[[0, "9C"], [1, "KD"]]], "first_player": 1, "racks": ["2C 5D ...", "..."]}
    {"turn": 1, "player": 1, "rack": "2C 5D ...", "draw": "KD", "action": "8G 7H7C7S",
     "score": 21, "refill": "AS 3C 9H", "scores": [0, 21]}
    ...
    {"end": "no player played for 3 full rounds", "penalties": [12, 30], "scores": [120, 88],
     "winners": [0]}

``rack`` is the rack before the turn's draw, ``draw`` the tile drawn before
deciding (null from an empty box), ``action`` a play in move notation,
``return <tiles>`` or ``pass``, ``refill`` the tiles drawn after it, ``scores``
the running totals.  :func:`replay` re-checks every line against the rules, and
every draw against the box that the header's ``seed`` mixes (as
``Game.deal(players, seed)`` does), so a record proves its whole game: the seed
is required, and every number is a JSON whole number (not ``13.0`` or ``true``).

``version`` is the game-end rule the game was played by (``Game.rules``): 2,
docs/RULES.md §6 as amended 2026-12-01, or 1, the stall clock counted from the
first turn; a record replays by its own version's rule.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..support import strict_json
from .actions import Place, action_notation, parse_action
from .events import EVENT_KINDS, OVERTIME, Event
from ..errors import GinnyoError, PositionError, RecordError
from ..support.files import RECORD_BYTES, quote, read_bounded, text_of, write_new
from .game import Box, Game, Turn, first_player
from ..position.position import Position, _parse_layout
from ..vocab.rules import RACK_SIZE, STALL_ROUNDS, check_stall_rounds, sets_for, tile_set
from ..vocab.tiles import PlacedTile, parse_rack_tile, rack_code

RECORD_KIND = "ginnyo game"
RECORD_VERSION = 2            # the version written for a game of the current rules
RECORD_VERSIONS = (1, 2)      # the versions read: each is the rules its game is replayed by
# The fields of each kind of line (docs/FORMAT.md, "Game records"), the same in every version; any
# other is refused.  The header's optional ones: layout, sets, names, stall_rounds.
HEADER_FIELDS = ("record", "version", "layout", "sets", "players", "names", "seed", "stall_rounds",
                 "first_draw", "first_player", "racks")
TURN_FIELDS = ("turn", "player", "rack", "draw", "action", "score", "refill", "scores")
END_FIELDS = ("end", "penalties", "scores", "winners")
EVENT_FIELDS = ("event", "player", "points")   # a resignation, a timeout, an overtime charge, an abort


def _codes(tiles: Iterable[int]) -> str:
    return " ".join(rack_code(tile) for tile in tiles)


# -- writing ---------------------------------------------------------------------------

def record_lines(game: Game, names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The record of ``game`` (finished or not) as JSON-ready objects, one a line.
    Only a game dealt from a seed (:meth:`Game.deal`) has one: its replay
    re-derives every draw from the seed."""
    if game.seed is None:
        raise ValueError("a game without a seed has no record (deal it with Game.deal(players, seed))")
    header: dict[str, Any] = {
        "record": RECORD_KIND, "version": game.rules,   # RECORD_VERSION for today's rules
        "layout": game.layout.to_json(), "sets": game.sets, "players": game.players,
        "names": list(names) if names is not None else None, "seed": game.seed,
        "stall_rounds": game.stall_rounds,
        "first_draw": [[[player, rack_code(tile)] for player, tile in draw] for draw in game.first_draw],
        "first_player": game.first_player,
        "racks": [_codes(rack) for rack in game.dealt],
    }
    lines = [header]
    board: dict[int, PlacedTile] = {}
    scores = [0] * game.players
    events = list(game.events)

    def events_before(turns: int) -> None:
        while events and events[0][0] <= turns:
            event = events.pop(0)[1]
            line: dict[str, Any] = {"event": event.kind, "player": event.seat}
            if event.kind == OVERTIME:
                line["points"] = event.points
                scores[event.seat] -= event.points
            lines.append(line)
    for turn in game.history:
        events_before(turn.number - 1)
        before = Position(game.layout, game.sets, board, (), validate=False)
        scores[turn.player] += turn.score
        lines.append({"turn": turn.number, "player": turn.player, "rack": _codes(turn.rack),
                      "draw": None if turn.draw is None else rack_code(turn.draw),
                      "action": action_notation(before, turn.action), "score": turn.score,
                      "refill": _codes(turn.refill), "scores": list(scores)})
        if isinstance(turn.action, Place):
            board.update(turn.action.play.placements)
    events_before(game.turns_played)
    if game.over:
        lines.append({"end": game.end_reason, "penalties": game.penalties,
                      "scores": list(game.scores), "winners": game.winners})
    return lines


def record_text(game: Game, names: Sequence[str] | None = None) -> str:
    """The record as JSON-lines text."""
    return "".join(json.dumps(line) + "\n" for line in record_lines(game, names))


def write_record(game: Game, path: str | Path, names: Sequence[str] | None = None, *,
                 force: bool = False) -> None:
    """Write the record of ``game`` to ``path``, whole or not at all; an existing
    file is kept unless ``force``, and a symbolic link is never written through."""
    write_new(path, record_text(game, names), force=force, error=RecordError)


# -- reading and replaying ---------------------------------------------------------------

class SeededBox(Box):
    """The box the header's seed mixes, taken from ``Game.deal``: it draws and
    mixes returned tiles in exactly as the game did, and each tile it gives must
    be the one the record says was drawn (``script``, set before each draw)."""

    __slots__ = ("script", "seed")

    def __init__(self, box: Box, seed: int) -> None:
        super().__init__(box.tiles, box.rng)
        self.script: list[int] = []
        self.seed = seed

    def draw(self) -> int:
        if not self.script:
            raise RecordError("the record draws fewer tiles than the rules do")
        recorded = self.script.pop(0)
        tile = super().draw()
        if tile != recorded:
            raise RecordError(f"draws {rack_code(recorded)}, but the box of seed {self.seed} "
                              f"gives {rack_code(tile)}")
        return tile


def read_record(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """The non-blank lines of a record file (``-``: standard input) as
    ``(line number, object)``; at most ``files.RECORD_BYTES`` are read."""
    data = read_bounded(path, RECORD_BYTES, what="game record", error=RecordError)
    return parse_record(text_of(data, str(path), RecordError), str(path))


def parse_record(text: str, source: str = "record") -> list[tuple[int, dict[str, Any]]]:
    """The non-blank lines of record text as ``(line number, object)``; malformed
    JSON and a key given twice are refused with the line number."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        data = strict_json.loads(line, RecordError, where=f"{source} line {number}: ")
        if not isinstance(data, dict):
            raise RecordError(f"{source} line {number}: must be a JSON object")
        lines.append((number, data))
    if not lines:
        raise RecordError(f"{source} line 1: missing: the header (an empty record)")
    return lines


OnTurn = Callable[[Game, Turn], None]


def replay(source: str | Path | list[tuple[int, dict[str, Any]]], *,
           on_turn: OnTurn | None = None, name: str | None = None) -> Game:
    """Replay a record (a path, or lines from :func:`parse_record`), checking every
    turn against the rules; the finished game, or :class:`RecordError` naming the
    line (of the record called ``name``) and what is wrong."""
    if isinstance(source, (str, Path)):
        name, lines = name or str(source), read_record(source)
    else:
        name, lines = name or "record", source
    number, header = lines[0]
    try:
        game = _game_from_header(header)
    except GinnyoError as error:
        raise RecordError(f"{name} line {number}: {error}") from None
    running = [0] * game.players
    for index, (number, data) in enumerate(lines[1:], 1):
        try:
            if "end" in data:
                _check_end(game, data)
                if index + 1 < len(lines):
                    number = lines[index + 1][0]
                    raise RecordError(f"the record goes on after its end line (line {lines[index][0]})")
                return game
            if game.over:
                raise RecordError(f"the game ended after turn {game.turns_played} "
                                  f"({game.end_reason}), but the record goes on")
            if "event" in data:
                event = _replay_event(game, data)
                if event.kind == OVERTIME:
                    running[event.seat] -= event.points
                continue
            turn = _replay_turn(game, data)
            running[turn.player] += turn.score
            scores = _numbers(data, "scores")
            if scores != running:
                raise RecordError(f"scores {scores}, the replay has {running}")
        except GinnyoError as error:
            raise RecordError(f"{name} line {number}: {error}") from None
        if on_turn is not None:
            on_turn(game, turn)
    missing = lines[-1][0] + 1      # the line after the last one is where the record goes wrong
    if game.over:
        raise RecordError(f"{name} line {missing}: missing: the end line (the game ended after turn "
                          f"{game.turns_played})")
    raise RecordError(f"{name} line {missing}: missing: turn {game.turns_played + 1} (the record stops "
                      "before the game is over)")


def record_names(lines: list[tuple[int, dict[str, Any]]]) -> list[str] | None:
    """The player names in a record's header, if it gives them."""
    names = lines[0][1].get("names")
    return names if isinstance(names, list) and all(isinstance(n, str) for n in names) else None


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    return strict_json.field(data, key, kind, RecordError)


def _numbers(data: dict[str, Any], key: str) -> list[int]:
    return strict_json.whole_numbers(data, key, RecordError)


def _tiles(data: dict[str, Any], key: str) -> list[int]:
    try:
        return [parse_rack_tile(code) for code in _field(data, key, str).split()]
    except PositionError as error:
        raise RecordError(f"field {key!r}: {error}") from None


def _game_from_header(header: dict[str, Any]) -> Game:
    if header.get("record") != RECORD_KIND:
        raise RecordError(f"not a ginnyo game record (the first line needs \"record\": \"{RECORD_KIND}\")")
    strict_json.known_fields(header, HEADER_FIELDS, "the header", RecordError)
    version = _field(header, "version", int)
    if version not in RECORD_VERSIONS:
        raise RecordError(f"field 'version': {version!r}, this ginnyo reads "
                          f"{' or '.join(map(str, RECORD_VERSIONS))}")
    players = _field(header, "players", int)
    try:
        sets = sets_for(players)
    except ValueError as error:
        raise RecordError(f"field 'players': {error}") from None
    if "sets" in header and _field(header, "sets", int) != sets:
        raise RecordError(f"field 'sets': {players} players use {sets} set{'s' if sets > 1 else ''}")
    layout = _parse_layout(header.get("layout", "standard"))
    stall_rounds = _field(header, "stall_rounds", int) if "stall_rounds" in header else STALL_ROUNDS
    try:
        check_stall_rounds(stall_rounds)
    except ValueError as error:
        raise RecordError(f"field 'stall_rounds': {str(error).partition(': ')[2]}") from None
    seed = _field(header, "seed", int)
    names = header.get("names")
    if names is not None and (not isinstance(names, list) or len(names) != players
                              or not all(isinstance(n, str) for n in names)):
        raise RecordError(f"field 'names': must be a list of {players} strings")

    draws = _first_draw(_field(header, "first_draw", list), players, sets)
    to_move = _field(header, "first_player", int)
    try:
        winner = first_player(draws, players)
    except ValueError as error:
        raise RecordError(f"field 'first_draw': {error}") from None
    if winner != to_move:
        raise RecordError(f"field 'first_player': the first draw makes player {winner} start, not {to_move}")

    rack_codes = _field(header, "racks", list)
    if len(rack_codes) != players:
        raise RecordError(f"field 'racks': {len(rack_codes)} racks for {players} players")
    racks = [_tiles({"racks": codes}, "racks") for codes in rack_codes]
    box = Counter(tile_set(sets))
    for player, rack in enumerate(racks):
        if len(rack) != RACK_SIZE:
            raise RecordError(f"field 'racks': player {player} is dealt {len(rack)} tiles, not {RACK_SIZE}")
        box.subtract(rack)
    short = sorted(tile for tile, count in box.items() if count < 0)
    if short:
        raise RecordError(f"field 'racks': more {_codes(short)} than {sets} set{'s' if sets > 1 else ''} hold")
    game = Game.deal(players, seed, layout=layout, stall_rounds=stall_rounds, rules=version)
    if draws != game.first_draw:
        raise RecordError(f"field 'first_draw': seed {seed} draws {_draw_text(game.first_draw)}, "
                          f"the record says {_draw_text(draws)}")
    for player, (rack, dealt) in enumerate(zip(racks, game.dealt)):
        if tuple(sorted(rack)) != dealt:
            raise RecordError(f"field 'racks': seed {seed} deals player {player} {_codes(dealt)}, "
                              f"the record says {_codes(sorted(rack))}")
    game.box = SeededBox(game.box, seed)
    return game


def _draw_text(draws: Sequence[Sequence[tuple[int, int]]]) -> str:
    return "; ".join(" ".join(f"{player}:{rack_code(tile)}" for player, tile in draw) for draw in draws)


def _first_draw(value: list[Any], players: int, sets: int) -> list[list[tuple[int, int]]]:
    draws = []
    for draw in value:
        if not isinstance(draw, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int
                and isinstance(pair[1], str) for pair in draw):
            raise RecordError("field 'first_draw': each draw is a list of [player, tile]")
        try:
            pairs = [(player, parse_rack_tile(code)) for player, code in draw]
        except PositionError as error:
            raise RecordError(f"field 'first_draw': {error}") from None
        over = Counter(tile for _, tile in pairs) - Counter(tile_set(sets))
        if over:
            raise RecordError(f"field 'first_draw': more {_codes(sorted(over.elements()))} than the box holds")
        draws.append(pairs)
    return draws


def _replay_turn(game: Game, data: dict[str, Any]) -> Turn:
    box = game.box
    assert isinstance(box, SeededBox)
    strict_json.known_fields(data, TURN_FIELDS, "a turn line", RecordError)
    number = _field(data, "turn", int)
    if number != game.turns_played + 1:
        raise RecordError(f"turn {number}, expected turn {game.turns_played + 1}")
    player = _field(data, "player", int)
    if player != game.to_move:
        raise RecordError(f"turn {number} is player {game.to_move}'s, not player {player}'s")
    rack = sorted(_tiles(data, "rack"))
    if rack != sorted(game.racks[player]):
        raise RecordError(f"player {player}'s rack is {_codes(sorted(game.racks[player]))}, "
                          f"the record says {_codes(rack)}")
    draw = _field(data, "draw", (str, type(None)))
    if draw is None and len(box):
        raise RecordError(f"draws nothing, but the box holds {len(box)} tiles")
    if draw is not None:
        if not len(box):
            raise RecordError(f"draws {draw} from an empty box")
        box.script = _tiles(data, "draw")
        if len(box.script) != 1:
            raise RecordError(f"field 'draw': one tile, not {quote(draw)}")
    try:
        view = game.begin_turn()
    except RecordError as error:
        raise RecordError(f"field 'draw': {error}") from None
    text = _field(data, "action", str)
    action = parse_action(view.position, text)
    box.script = _tiles(data, "refill")
    try:
        turn = game.apply(action)
    except RecordError as error:
        raise RecordError(f"field 'refill': {error}") from None
    except GinnyoError as error:
        raise RecordError(f"{text}: {error}") from None
    if box.script:
        raise RecordError(f"the record draws {_codes(box.script)} more than the rules do")
    score = _field(data, "score", int)
    if score != turn.score:
        raise RecordError(f"{text} scores {turn.score}, the record says {score}")
    return turn


def _replay_event(game: Game, data: dict[str, Any]) -> Event:
    strict_json.known_fields(data, EVENT_FIELDS, "an event line", RecordError)
    kind = _field(data, "event", str)
    if kind not in EVENT_KINDS:
        raise RecordError(f"field 'event': {kind!r} is not one of {', '.join(EVENT_KINDS)}")
    points = _field(data, "points", int) if kind == OVERTIME else 0
    if kind != OVERTIME and "points" in data:
        raise RecordError("field 'points': only an overtime line has points")
    event = Event(kind, _field(data, "player", int), points)
    try:
        game.apply_event(event)
    except GinnyoError as error:
        raise RecordError(f"{event.text()}: {error}") from None
    return event


def _check_end(game: Game, data: dict[str, Any]) -> None:
    strict_json.known_fields(data, END_FIELDS, "the end line", RecordError)
    if not game.over:
        raise RecordError(f"the record ends the game after turn {game.turns_played}, "
                          "but the rules do not end it there")
    reason = _field(data, "end", str)
    if reason != game.end_reason:
        raise RecordError(f"the game ends because {game.end_reason}, the record says {reason!r}")
    for key, expected in (("penalties", game.penalties), ("scores", game.scores), ("winners", game.winners)):
        value = _numbers(data, key)
        if value != expected:
            raise RecordError(f"{key} {value}, the replay has {expected}")


__all__ = ["record_lines", "record_text", "write_record", "read_record", "parse_record",
           "replay", "record_names", "SeededBox", "RECORD_KIND", "RECORD_VERSION",
           "RECORD_VERSIONS", "HEADER_FIELDS", "TURN_FIELDS", "END_FIELDS", "EVENT_FIELDS"]
