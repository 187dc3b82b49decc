"""Whole games of Crazy Rummy (docs/RULES.md §7): the players, 13 rounds for 3 to 6 of them played
through the rules (:mod:`ginnyo.crazy.rounds`), cumulative scores, seeded and replayable.

A game from seed S draws its first dealer and then shuffles each round's deck
with ``random.Random(S)``; its record (:func:`record_lines`) holds every deck and every turn (and the
events outside a turn: a timed game's clock events, a resignation, an abort -- docs/RULES.md "Timed
play" and "Resignation and abort"), and :func:`replay` plays a record again
through the same rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from .advisor import best_turn, play_after_draw
from ..game.events import ABORT, EVENT_KINDS, OVERTIME, Event
from ..support import strict_json
from ..support.files import RECORD_BYTES, quote, read_bounded, text_of
from .cards import card_code, cards_text, parse_cards, parse_one
from .errors import CrazyError
from .melds import meld_text
from .rounds import (Draw, GameResult, RoundResult, RoundState, Turn, ended_early, player_kinds, round_deals,
                     take_event)
from .solver import Action, Line
from .state import TurnState


class Player(Protocol):
    """A seat's decisions: where to draw from, then the play once the card is in hand."""

    def choose_draw(self, state: TurnState) -> Draw: ...
    def play(self, state: TurnState, drawn: int | None, source: Draw) -> Line: ...


class AdvisorPlayer:
    """The turn advisor: the draw and play with the fewest points held expected."""

    def __init__(self) -> None:
        self._advised: tuple[TurnState, Draw, Line] | None = None   # the last choice's line, when known

    def choose_draw(self, state: TurnState) -> Draw:
        best = best_turn(state).best
        self._advised = (state, best.source, best.line) if best.line is not None else None
        return best.source

    def play(self, state: TurnState, drawn: int | None, source: Draw) -> Line:
        if self._advised is not None and self._advised[0] is state and self._advised[1] == source:
            return self._advised[2]   # the line best_turn worked out for this very start
        return play_after_draw(state, drawn, source)


class StockPlayer(AdvisorPlayer):
    """Always draws from the stock, then plays as the advisor."""

    def choose_draw(self, state: TurnState) -> Draw:
        return "none" if not state.draw else "stock"


PLAYER_KINDS: dict[str, Callable[[], Player]] = {"advisor": AdvisorPlayer, "stock": StockPlayer}   # rounds.BOT_KINDS


def actions_json(line: Line, where: list[tuple[int, int]], player: int, wild: int) -> list[dict[str, Any]]:
    """A line's steps as record actions, the melds named by [seat, number] on the table."""
    return [_action_json(action, where, player, wild) for action in line.actions]


def _action_json(action: Action, where: list[tuple[int, int]], player: int, wild: int) -> dict[str, Any]:
    if action.kind == "meld":
        return {"meld": meld_text(action.meld, wild)}
    assert action.target is not None
    name, number = action.target
    ref = [player, number] if name == "melds" else list(where[number])
    if action.kind == "swap":
        return {"swap": ref, "card": card_code(action.cards[0]), "wild": card_code(action.taken)}
    return {"lay_off": ref, "meld": meld_text(action.meld, wild)}


def play_round(number: int, players: Sequence[Player], dealer: int, deck: Sequence[int]) -> RoundResult:
    round_state = RoundState(number, len(players), dealer, deck)
    turns = []
    while round_state.end is None:
        seat = round_state.to_move
        state, where = round_state.view(seat)
        player = players[seat]
        draw = player.choose_draw(state)
        drawn = None
        if draw == "stock":
            drawn = round_state.stock[0]
        elif draw == "discard" and round_state.discard:
            drawn = round_state.discard[-1]
        line = player.play(state, drawn, draw)
        if line.discard is None:
            raise CrazyError(f"round {number}: player {seat} has no card to discard")
        actions = actions_json(line, where, seat, round_state.wild)
        turns.append(round_state.play_turn(draw, actions, line.discard))
    points = round_state.points()
    return RoundResult(number, dealer, tuple(deck), turns, round_state.end, round_state.out, points, points)


def play_game(players: int, seed: int, kinds: Sequence[str] | None = None) -> GameResult:
    """Play the 13 rounds of the game of ``seed``: its first draw is the first dealer (any
    seat alike), then it shuffles each round's deck; the deal passes left each round."""
    names = player_kinds(players, kinds)
    seats = [PLAYER_KINDS[name]() for name in names]
    game = GameResult(players, seed, names)
    totals = [0] * players
    for number, (dealer, deck) in enumerate(round_deals(players, seed), 1):
        result = play_round(number, seats, dealer, deck)
        totals = [total + points for total, points in zip(totals, result.points)]
        result.scores = tuple(totals)
        game.rounds.append(result)
    return game

# -- records ---------------------------------------------------------------------------------

def record_lines(game: GameResult) -> list[str]:
    """The game as JSON lines: a header, each round's deck, turns and end, the final scores; its events
    (clock events, resignations, an abort) where they happened, between turns (the round being played
    when the game ended before its last round: its deal and turns, no end line)."""
    lines: list[dict[str, Any]] = [{"game": "crazy-rummy", "players": game.players, "seed": game.seed,
                                    "kinds": list(game.kinds)}]
    events = list(game.events)
    charged = [0] * game.players   # the overtime charged so far: the running totals hold it

    def events_before(round_number: int, turns: int) -> None:
        while events and events[0][:2] <= (round_number, turns):
            event = events.pop(0)[2]
            line: dict[str, Any] = {"event": event.kind, "player": event.seat}
            if event.kind == OVERTIME:
                line["points"] = event.points
                charged[event.seat] += event.points
            lines.append(line)
    for result in [*game.rounds, *([game.unfinished] if game.unfinished is not None else [])]:
        lines.append({"round": result.round, "dealer": result.dealer, "deck": cards_text(result.deck)})
        for number, turn in enumerate(result.turns):
            events_before(result.round, number)
            lines.append({"round": turn.round, "player": turn.player, "draw": turn.draw,
                          "card": card_code(turn.card) if turn.card is not None else None,
                          "actions": turn.actions, "discard": card_code(turn.discard),
                          "hand": cards_text(turn.hand_after)})
        events_before(result.round, len(result.turns))
        if result is not game.unfinished:
            lines.append({"round": result.round, "end": result.end, "out": result.out,
                          "points": list(result.points),
                          "scores": [total + points for total, points in zip(result.scores, charged)]})
    final: dict[str, Any] = {"scores": list(game.scores), "winners": list(game.winners)}
    if game.out:
        final["out"] = list(game.out)
    lines.append(final)
    return [json.dumps(line) for line in lines]


def read_record(path: str | Path) -> list[str]:
    """The lines of a record file (``-``: standard input); at most
    ``files.RECORD_BYTES`` are read."""
    data = read_bounded(path, RECORD_BYTES, what="game record", error=CrazyError)
    return text_of(data, str(path), CrazyError).splitlines()


def replay(lines: Sequence[str], source: str = "record") -> GameResult:
    """Play a record again through the rules, every deck re-derived from the
    header's seed; raises CrazyError naming the first wrong line (of ``source``).
    JSON with a key given twice, or a number that is not a whole number
    (``1.0``, ``true``), is refused too."""
    reader = _Replay(lines, source)
    return reader.run()


# The fields of each kind of line (docs/FORMAT.md, "Game records"), all required; any other is refused.
HEADER_FIELDS = ("game", "players", "seed", "kinds")
DEAL_FIELDS = ("round", "dealer", "deck")
TURN_FIELDS = ("round", "player", "draw", "card", "actions", "discard", "hand")
ROUND_END_FIELDS = ("round", "end", "out", "points", "scores")
FINAL_FIELDS = ("scores", "winners", "out")   # ``out`` only when a seat is out (on time or resigned)
EVENT_FIELDS = ("event", "player", "points")   # ``points`` only in an overtime line
# The fields of each kind of action in a turn's ``actions``, named by the first of them that it has.
ACTION_FIELDS = {"swap": ("swap", "card", "wild"), "lay_off": ("lay_off", "meld"), "meld": ("meld",)}


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    return strict_json.field(data, key, kind, CrazyError)


def _known(data: dict[str, Any], fields: tuple[str, ...], what: str) -> None:
    strict_json.known_fields(data, fields, what, CrazyError)


def _numbers(data: dict[str, Any], key: str) -> list[int]:
    return strict_json.whole_numbers(data, key, CrazyError)


class _Replay:
    def __init__(self, lines: Sequence[str], source: str) -> None:
        self.lines = [(number, text) for number, text in enumerate(lines, 1) if text.strip()]
        self.position = 0
        self.source = source

    def where(self, number: int) -> str:
        return f"{self.source} line {number}: "

    def next(self, expected: str) -> tuple[int, dict[str, Any]]:
        """The next line's object; past the last line, an error naming the line
        after it, where the ``expected`` line is missing."""
        if self.position >= len(self.lines):
            missing = self.lines[-1][0] + 1 if self.lines else 1
            raise CrazyError(f"{self.where(missing)}missing: {expected} (the record ends too early)")
        number, text = self.lines[self.position]
        self.position += 1
        data = strict_json.loads(text, CrazyError, self.where(number))
        if not isinstance(data, dict):
            raise CrazyError(f"{self.where(number)}not a JSON object")
        return number, data

    def run(self) -> GameResult:
        number, header = self.next("the header")
        if header.get("game") != "crazy-rummy":
            raise CrazyError(f"{self.where(number)}not a Crazy Rummy record (no \"game\": \"crazy-rummy\")")
        header_number = number
        try:
            _known(header, HEADER_FIELDS, "the header")
            players = _field(header, "players", int)
            kinds = _field(header, "kinds", list)
            if not all(isinstance(kind, str) for kind in kinds):
                raise CrazyError(f"field 'kinds': {quote(kinds)} is not a list of strings")
            game = GameResult(players, _field(header, "seed", int), player_kinds(players, kinds, people=True))
        except CrazyError as error:
            raise CrazyError(f"{self.where(number)}{error}") from None
        totals = [0] * players
        game.overtime = [0] * players
        for round_number, (dealer, dealt) in enumerate(round_deals(players, game.seed), 1):
            number, deal = self.next(f"the deal of round {round_number}")
            if round_number == 1:
                self.check_seed(deal, dealt, game, header_number)
            try:
                _known(deal, DEAL_FIELDS, "a deal line")
                if _field(deal, "round", int) != round_number:
                    raise CrazyError(f"expected round {round_number}")
                if _field(deal, "dealer", int) != dealer:
                    raise CrazyError(f"the dealer of round {round_number} is seat {dealer} (the first"
                                     " is drawn from the seed, then the deal passes left each round)")
                deck = parse_cards(_field(deal, "deck", str), "deck")
                if deck != dealt:
                    raise CrazyError(_deck_difference(deck, dealt, game.seed, round_number))
                state = RoundState(round_number, players, dealer, deck)
                state.pass_by(frozenset(game.out))
            except CrazyError as error:
                raise CrazyError(f"{self.where(number)}{error}") from None
            turns: list[Turn] = []
            while state.end is None and not ended_early(players, game.out, game.events):
                number, data = self.next(f"a turn of player {state.to_move} in round {round_number}")
                try:
                    if "event" in data:
                        game.events.append((round_number, len(turns), self.event(state, data, game, turns)))
                    else:
                        turns.append(self.turn(state, data))
                except CrazyError as error:
                    raise CrazyError(f"{self.where(number)}{error}") from None
            if state.end is None:   # one seat left in, or aborted: the game ends, the round being played not scored
                game.unfinished = RoundResult(round_number, state.dealer, tuple(deck), turns, "", None,
                                              (0,) * players, tuple(totals))
                break
            number, end = self.next(f"the end of round {round_number}")
            points = state.points()
            totals = [total + p for total, p in zip(totals, points)]
            try:
                _known(end, ROUND_END_FIELDS, "a round's end line")
                self.check_end(end, {"round": round_number, "end": state.end, "out": state.out,
                                     "points": list(points),
                                     "scores": [total + charged for total, charged in zip(totals, game.overtime)]})
            except CrazyError as error:
                raise CrazyError(f"{self.where(number)}{error}") from None
            game.rounds.append(RoundResult(round_number, state.dealer, tuple(deck), turns, state.end,
                                           state.out, points, tuple(totals)))
        number, final = self.next("the final line of scores and winners")
        try:
            _known(final, FINAL_FIELDS, "the final line")
            if game.out or "out" in final:
                self.check_end(final, {"out": list(game.out)})
        except CrazyError as error:
            raise CrazyError(f"{self.where(number)}{error}") from None
        try:
            self.check_end(final, {"scores": list(game.scores), "winners": list(game.winners)})
        except CrazyError as error:
            raise CrazyError(f"{self.where(number)}final {error}") from None
        if self.position != len(self.lines):
            raise CrazyError(f"{self.where(self.lines[self.position][0])}after the end of the game")
        return game

    @staticmethod
    def event(state: RoundState, data: dict[str, Any], game: GameResult, turns: list[Turn]) -> Event:
        """An event line's overtime charge, loss on time, resignation or abort, taken as the table took it
        (``turns``: those of the round being played, before the event)."""
        _known(data, EVENT_FIELDS, "an event line")
        kind = _field(data, "event", str)
        if kind not in EVENT_KINDS:
            raise CrazyError(f"field 'event': {quote(kind)} is not one of {', '.join(EVENT_KINDS)}")
        if kind != OVERTIME and "points" in data:
            raise CrazyError("field 'points': only an overtime line has points")
        event = Event(kind, _field(data, "player", int), _field(data, "points", int) if kind == OVERTIME else 0)
        played = kind == ABORT and any(turn.player == event.seat
                                       for turn in [*(each for result in game.rounds for each in result.turns), *turns])
        take_event(event, state, game.overtime, game.out, played)
        return event

    def check_seed(self, deal: dict[str, Any], dealt: list[int], game: GameResult, header: int) -> None:
        """Blame the header's seed (line ``header``) for a first deal of another
        shuffle when the later deals are not the seed's either: the seed was
        changed.  Where a later deal is the seed's, the first deal line is at fault."""
        deck = deal.get("deck")
        try:
            cards = parse_cards(deck, "deck") if isinstance(deck, str) else None
        except CrazyError:
            return
        if cards is None or cards == dealt or sorted(cards) != sorted(dealt):
            return
        later = self.later_decks()
        if not later:
            return
        seeded = list(round_deals(game.players, game.seed))
        if any(seeded[number - 1][1] == cards for number, cards in later.items() if 1 < number <= len(seeded)):
            return
        raise CrazyError(f"{self.where(header)}field 'seed': seed {game.seed} deals none of the record's decks "
                         f"(round 1's on line {self.lines[self.position - 1][0]} included): the record is not "
                         f"of seed {game.seed}")

    def later_decks(self) -> dict[int, list[int]]:
        """The decks of the deal lines after the current line, by round (those that read)."""
        decks: dict[int, list[int]] = {}
        for _, text in self.lines[self.position:]:
            try:
                data = json.loads(text)
                if isinstance(data, dict) and "dealer" in data and type(data.get("round")) is int:
                    decks[data["round"]] = parse_cards(data["deck"], "deck")
            except (ValueError, TypeError, KeyError, CrazyError, RecursionError):
                continue
        return decks

    @staticmethod
    def turn(state: RoundState, data: dict[str, Any]) -> Turn:
        _known(data, TURN_FIELDS, "a turn line")
        actions = _field(data, "actions", list)
        for action in actions:
            if isinstance(action, dict):
                kind = next((name for name in ACTION_FIELDS if name in action), None)
                if kind is not None:
                    _known(action, ACTION_FIELDS[kind], f"a {kind} action")
        if (_field(data, "player", int) != state.to_move
                or _field(data, "round", int) != state.number):
            raise CrazyError(f"expected a turn of player {state.to_move} in round {state.number}")
        card = _field(data, "card", (str, type(None)))
        actions = _field(data, "actions", list)
        if not all(isinstance(a, dict) for a in actions):
            raise CrazyError("actions: expected a list of objects")
        draw = _field(data, "draw", str)
        if draw not in ("stock", "discard", "none"):
            raise CrazyError(f"draw {quote(draw)}: expected \"stock\", \"discard\" or \"none\"")
        turn = state.play_turn(draw, actions, parse_one(_field(data, "discard", str), "discard"),
                               parse_one(card, "card") if card is not None else None)
        if cards_text(turn.hand_after) != " ".join(_field(data, "hand", str).split()).upper():
            raise CrazyError(f"hand after the turn is {cards_text(turn.hand_after)}")
        return turn

    @staticmethod
    def check_end(data: dict[str, Any], expected: dict[str, Any]) -> None:
        """Each field of ``expected`` as the record has it, numbers as whole numbers."""
        for key, value in expected.items():
            if isinstance(value, list):
                recorded: Any = _numbers(data, key)
            else:
                recorded = _field(data, key, type(value) if value is not None else (int, type(None)))
            if recorded != value:
                raise CrazyError(f"{key} should be {value!r}, the record says {quote(recorded)}")


def _deck_difference(deck: list[int], dealt: list[int], seed: int, number: int) -> str:
    place = next(index for index, (a, b) in enumerate(zip(deck, dealt)) if a != b) \
        if len(deck) == len(dealt) else min(len(deck), len(dealt))
    shown = card_code(deck[place]) if place < len(deck) else "nothing"
    return (f"deck: card {place + 1} of round {number} is {shown}, but seed {seed} shuffles "
            f"{card_code(dealt[place]) if place < len(dealt) else 'nothing'} there")
