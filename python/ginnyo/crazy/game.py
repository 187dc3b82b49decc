"""Whole games of Crazy Rummy (docs/RULES.md §7): 13 rounds for 3 to 6 players, the
turns checked against the rules, cumulative scores, seeded and replayable.

A game from seed S draws its first dealer and then shuffles each round's deck
with ``random.Random(S)``; its record (:func:`record_lines`) holds every deck and every turn (and a
timed game's clock events, docs/RULES.md "Timed play"), and :func:`replay` plays a record again
through the same rules.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, Protocol, Sequence

from .advisor import best_turn, play_after_draw
from ..game.events import OVERTIME, TIMEOUT, Event
from ..support import strict_json
from ..support.files import RECORD_BYTES, quote, read_bounded, text_of
from .cards import NUM_CARDS, ROUNDS, card_code, cards_text, hand_points, parse_cards, parse_one, wild_rank
from ..errors import Reason
from .errors import CrazyError
from .melds import Meld, meld_text, parse_meld
from .solver import Action, Line
from .state import TurnState

MIN_PLAYERS, MAX_PLAYERS = 3, 6
HAND_SIZE = 7
TURN_LIMIT = 600   # turns in one round before it is stopped (players who keep trading discards)
Draw = Literal["stock", "discard", "none"]
END_OUT, END_STOCK, END_LIMIT = "out", "stock empty", "turn limit"


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


PLAYER_KINDS: dict[str, Callable[[], Player]] = {"advisor": AdvisorPlayer, "stock": StockPlayer}
PERSON = "human"   # a person's seat (the web table's games): in records, never in self-play


@dataclass
class Turn:
    """One turn as played (and recorded)."""

    round: int
    player: int
    draw: Draw
    card: int | None
    actions: list[dict[str, Any]]
    discard: int
    hand_after: tuple[int, ...]


@dataclass
class RoundResult:
    round: int
    dealer: int
    deck: tuple[int, ...]          # the shuffled deck, dealt from the front
    turns: list[Turn]
    end: str
    out: int | None
    points: tuple[int, ...]
    scores: tuple[int, ...]        # cumulative after the round


@dataclass
class GameResult:
    """A game as played: its rounds scored and, when played on a clock, its clock events, the overtime
    charged and the seats out on time; ``unfinished``: the round being played when the game ended on
    time (its deal and turns, not scored: ``end`` empty, no points)."""

    players: int
    seed: int
    kinds: tuple[str, ...]
    rounds: list[RoundResult] = field(default_factory=list)
    events: list[tuple[int, int, Event]] = field(default_factory=list)   # (round, its turns before it, event)
    overtime: list[int] = field(default_factory=list)   # each seat's charges (none: no clock)
    timed_out: list[int] = field(default_factory=list)   # the seats out on time, in the order they went
    unfinished: RoundResult | None = None

    @property
    def round_totals(self) -> tuple[int, ...]:
        """The points of the rounds played, added up."""
        return self.rounds[-1].scores if self.rounds else (0,) * self.players

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's total: its rounds' points and its overtime charges."""
        charged = self.overtime or [0] * self.players
        return tuple(total + points for total, points in zip(self.round_totals, charged))

    @property
    def ranking(self) -> list[int]:
        """The seats best first: those still in by their totals (the fewest first), then those out on time,
        the last out first."""
        still_in = sorted((seat for seat in range(self.players) if seat not in self.timed_out),
                          key=lambda seat: self.scores[seat])
        return still_in + self.timed_out[::-1]

    @property
    def ranks(self) -> list[int]:
        """Each seat's rank (1 the best): equal totals among the seats still in share a rank."""
        scores, ranks = self.scores, [0] * self.players
        for place, seat in enumerate(self.ranking, 1):
            ranks[seat] = place
            if seat not in self.timed_out:
                ranks[seat] = 1 + sum(1 for other in range(self.players)
                                      if other not in self.timed_out and scores[other] < scores[seat])
        return ranks

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


def over_on_time(players: int, timed_out: Sequence[int]) -> bool:
    """Whether the seats out on time leave one seat in (or none): the game ends then."""
    return players - len(timed_out) <= 1


def take_clock_event(event: Event, state: RoundState, overtime: list[int], timed_out: list[int]) -> None:
    """An overtime charge (points added to the seat's ``overtime``) or a loss on time of the seat to move in
    ``state`` (out of the game, passed by); CrazyError for any other event, changing nothing."""
    if event.kind == OVERTIME:
        if not 0 <= event.seat < len(overtime) or event.points <= 0:
            raise CrazyError(f"{event.text()}: an overtime charge is of a seat 0..{len(overtime) - 1}, "
                             "points above 0")
        overtime[event.seat] += event.points
    elif event.kind == TIMEOUT:
        if event.seat != state.to_move:
            raise CrazyError(f"{event.text()}: only the seat to move (seat {state.to_move}) runs out of time")
        timed_out.append(event.seat)
        state.pass_by(frozenset(timed_out))
    else:
        raise CrazyError(f"Crazy Rummy takes no {event.kind} of seat {event.seat} (only its clock's events)")


class RoundState:
    """One round being played: hands, melds on the table, stock and discard pile."""

    def __init__(self, number: int, players: int, dealer: int, deck: Sequence[int]) -> None:
        if sorted(deck) != list(range(NUM_CARDS)):
            raise CrazyError(f"round {number}: the deck is not the 52 cards once each")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise CrazyError(f"round {number}: dealer {dealer!r} is not a seat 0..{players - 1}")
        self.number = number
        self.wild = wild_rank(number)
        self.players = players
        self.dealer = dealer
        cards = list(deck)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        for index in range(HAND_SIZE * players):   # one at a time, from the dealer's left
            self.hands[(dealer + 1 + index) % players].append(cards.pop(0))
        self.to_move = (dealer + 1) % players
        self.hands[self.to_move].append(cards.pop(0))   # the 8th card: that player opens
        self.stock = cards                  # the top is the front
        self.discard: list[int] = []
        self.melds: list[list[Meld]] = [[] for _ in range(players)]
        self.opening = True
        self.turns = 0
        self.out: int | None = None
        self.end: str | None = None
        self.passed_by: frozenset[int] = frozenset()   # seats out of the game on time: no turns (RULES "Timed play")

    def pass_by(self, seats: frozenset[int]) -> None:
        """Take no more turns from ``seats`` (out of the game on time): their hands stay, out of play, and
        count at the round's end; the seat to move among them is passed by, and so is the opening turn
        (the next seat draws as on any turn)."""
        self.passed_by = self.passed_by | seats
        if self.to_move in self.passed_by and len(self.passed_by) < self.players:
            self.opening = False
            self.to_move = self._next_seat(self.to_move)

    def _next_seat(self, player: int) -> int:
        """The seat after ``player`` still taking turns."""
        seat = (player + 1) % self.players
        while seat in self.passed_by and seat != player:
            seat = (seat + 1) % self.players
        return seat

    def view(self, player: int) -> tuple[TurnState, list[tuple[int, int]]]:
        """What ``player`` sees, and where each of ``others`` lies: (seat, meld number)."""
        where = [(seat, number) for seat in range(self.players) if seat != player
                 for number in range(len(self.melds[seat]))]
        others = tuple(self.melds[seat][number] for seat, number in where)
        state = TurnState(self.number, tuple(sorted(self.hands[player])), tuple(self.melds[player]), others,
                          tuple(self.discard), len(self.stock), not self.opening)
        return state, where

    def may_take_discard(self, player: int) -> bool:
        """Whether ``player`` may start its turn with the discard pile's top card: the pile holds one and
        the player holds more than one card (one holding a single card draws from the stock)."""
        return bool(self.discard) and len(self.hands[player]) > 1

    def play_turn(self, draw: Draw, actions: Sequence[dict[str, Any]], discard: int,
                  drawn_check: int | None = None) -> Turn:
        """Play the turn of the player to move, checking every step; raises CrazyError."""
        if self.end is not None:
            raise CrazyError(Reason("the round is over", "crazy-round-over"))
        player = self.to_move
        hand = self.hands[player]
        held_one = len(hand) == 1
        held_card = hand[0] if held_one else -1
        card = self._draw(draw, drawn_check)
        for action in actions:
            self._apply(player, action)
        if discard not in hand:
            raise CrazyError(Reason(f"discard {card_code(discard)}: not in hand (a meld that leaves no card "
                                    "to discard cannot be played)", "crazy-discard-not-in-hand", card=card_code(discard)))
        if draw == "discard" and discard == card:
            raise CrazyError(Reason(f"discard {card_code(discard)}: the card taken from the discard pile "
                                    "cannot go back the same turn", "crazy-discard-taken-back", card=card_code(discard)))
        hand.remove(discard)
        if held_one and card is not None and hand and (discard != held_card or hand != [card]):
            raise CrazyError(Reason("holding one card and not going out, a player discards the card held "
                                    "and keeps the one drawn", "crazy-keep-drawn"))
        self.discard.append(discard)
        turn = Turn(self.number, player, draw, card, list(actions), discard, tuple(sorted(hand)))
        self.opening = False
        self.turns += 1
        if not hand:
            self.end, self.out = END_OUT, player
        elif not self.stock:
            self.end = END_STOCK
        elif self.turns >= TURN_LIMIT:
            self.end = END_LIMIT
        self.to_move = self._next_seat(player)
        return turn

    def _draw(self, draw: Draw, drawn_check: int | None) -> int | None:
        """Draw the turn's card into the hand of the player to move (none on the opening turn)."""
        hand = self.hands[self.to_move]
        held_one = len(hand) == 1
        card: int | None = None
        if self.opening:
            if draw != "none":
                raise CrazyError(Reason("the opening turn has no draw (the 8th card was dealt)", "crazy-opening-no-draw"))
        elif draw == "stock":
            if not self.stock:
                raise CrazyError(Reason("the stock is empty", "crazy-stock-empty"))
            card = self.stock.pop(0)
        elif draw == "discard":
            if held_one:
                raise CrazyError(Reason("a player holding one card may only draw from the stock", "crazy-one-card-stock"))
            if not self.discard:
                raise CrazyError(Reason("the discard pile is empty", "crazy-discard-pile-empty"))
            card = self.discard.pop()
        else:
            raise CrazyError(f"draw {draw!r}: a turn starts by drawing from the stock or the discard pile")
        if drawn_check is not None and card != drawn_check:
            raise CrazyError(f"drew {card_code(card) if card is not None else 'nothing'}, "
                             f"the record says {card_code(drawn_check)}")
        if card is not None:
            hand.append(card)
        return card

    def after(self, draw: Draw, actions: Sequence[dict[str, Any]]) -> RoundState:
        """A copy of the round once the player to move has drawn from ``draw`` and played
        ``actions``, the discard still to come (the turn so far); raises CrazyError as
        :meth:`play_turn` would, and changes nothing here."""
        if self.end is not None:
            raise CrazyError(Reason("the round is over", "crazy-round-over"))
        trial = copy.deepcopy(self)
        trial._draw(draw, None)
        for action in actions:
            trial._apply(trial.to_move, action)
        return trial

    def _apply(self, player: int, action: dict[str, Any]) -> None:
        hand = self.hands[player]
        if "meld" in action and len(action) == 1:
            meld = parse_meld(action["meld"], self.wild, "meld")
            self._take_from_hand(hand, meld.cards)
            self.melds[player].append(meld)
            return
        if "swap" in action:
            seat, number = self._meld_ref(action["swap"])
            if not self.melds[player]:
                raise CrazyError(Reason("swap: only a player who has melded may take a wild from the table",
                                        "crazy-swap-before-melding"))
            real = parse_one(action.get("card"), "swap card")
            taken = parse_one(action.get("wild"), "swap wild")
            meld = self.melds[seat][number]
            if taken not in meld.cards or not meld.can_take(meld.cards.index(taken), real, self.wild):
                raise CrazyError(Reason(f"swap: {card_code(real)} is not the real card that {card_code(taken)} "
                                        f"stands for in {meld_text(meld, self.wild)}", "crazy-swap-wrong-card",
                                        card=card_code(real), wild=card_code(taken), meld=meld_text(meld, self.wild)))
            self._take_from_hand(hand, (real,))
            self.melds[seat][number] = meld.swapped(meld.cards.index(taken), real)
            hand.append(taken)
            return
        if "lay_off" in action:
            seat, number = self._meld_ref(action["lay_off"])
            if seat != player:
                raise CrazyError(Reason("lay off: only on one's own melds", "crazy-lay-off-own"))
            old = self.melds[seat][number]
            new = parse_meld(action.get("meld"), self.wild, "lay off meld")
            added = _added_cards(old, new)
            if added is None:
                raise CrazyError(Reason(f"lay off: {meld_text(new, self.wild)} does not extend "
                                        f"{meld_text(old, self.wild)}", "crazy-lay-off-no-extend",
                                        meld=meld_text(new, self.wild), onto=meld_text(old, self.wild)))
            self._take_from_hand(hand, added)
            self.melds[seat][number] = new
            return
        raise CrazyError(f"action {action!r}: not a meld, swap or lay_off")

    def _meld_ref(self, value: object) -> tuple[int, int]:
        if (not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value)
                or not 0 <= value[0] < self.players or not 0 <= value[1] < len(self.melds[value[0]])):
            raise CrazyError(Reason(f"meld {value!r}: no such meld on the table ([seat, number])", "crazy-no-such-meld"))
        return value[0], value[1]

    @staticmethod
    def _take_from_hand(hand: list[int], cards: Sequence[int]) -> None:
        for card in cards:
            if card not in hand:
                raise CrazyError(Reason(f"card {card_code(card)} is not in the hand", "crazy-not-in-hand",
                                        card=card_code(card)))
        for card in cards:
            hand.remove(card)

    def points(self) -> tuple[int, ...]:
        return tuple(hand_points(hand, self.wild) for hand in self.hands)


def _added_cards(old: Meld, new: Meld) -> tuple[int, ...] | None:
    """The cards a lay-off adds, when ``new`` is ``old`` with cards added (a run only at its ends)."""
    if old.kind != new.kind:
        return None
    if old.kind == "set":   # the cards already down keep what they stand for
        stands = dict(zip(new.cards, new.named))
        if new.rank != old.rank or any(stands.get(c) != named for c, named in zip(old.cards, old.named)):
            return None
        return tuple(card for card in new.cards if card not in old.cards)
    offset = old.rank - new.rank
    if new.suit != old.suit or offset < 0 or new.cards[offset:offset + len(old.cards)] != old.cards:
        return None
    return new.cards[:offset] + new.cards[offset + len(old.cards):]


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


def dealer_of(round_number: int, first_dealer: int, players: int) -> int:
    """The deal passes to the left (the next seat) each round."""
    return (first_dealer + round_number - 1) % players


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


def round_deals(players: int, seed: int) -> Iterator[tuple[int, list[int]]]:
    """Each round's dealer and shuffled deck in the game of ``seed``: the one
    place the seed is used, by a game and by the replay of its record."""
    rng = random.Random(seed)
    first_dealer = rng.randrange(players)   # drawn at random, before the shuffles (docs/RULES.md §7)
    for number in range(1, ROUNDS + 1):
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        yield dealer_of(number, first_dealer, players), deck


def player_kinds(players: int, kinds: Sequence[str] | None, *, people: bool = False) -> tuple[str, ...]:
    """One kind for every seat: ``kinds`` names one kind for all or one a seat
    (``people``: a seat may also be a person's, :data:`PERSON`, as in a record of the web table)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CrazyError(f"players: {players} (Crazy Rummy is for {MIN_PLAYERS} to {MAX_PLAYERS})")
    chosen = list(kinds or ["advisor"])
    known = (*PLAYER_KINDS, PERSON) if people else tuple(PLAYER_KINDS)
    for kind in chosen:
        if kind not in known:
            raise CrazyError(f"unknown player {kind!r} (known: {', '.join(known)})")
    if len(chosen) == 1:
        return tuple(chosen * players)
    if len(chosen) != players:
        raise CrazyError(f"{len(chosen)} player kinds for {players} players (give 1 or {players})")
    return tuple(chosen)


# -- records ---------------------------------------------------------------------------------

def record_lines(game: GameResult) -> list[str]:
    """The game as JSON lines: a header, each round's deck, turns and end, the final scores; a timed
    game's clock events where they happened, between turns (the round being played when the game
    ended on time: its deal and turns, no end line)."""
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
    if game.timed_out:
        final["out"] = list(game.timed_out)
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
FINAL_FIELDS = ("scores", "winners", "out")   # ``out`` only when a seat is out on time
EVENT_FIELDS = ("event", "player", "points")   # ``points`` only in an overtime line
CLOCK_EVENTS = (OVERTIME, TIMEOUT)   # the events a Crazy Rummy game takes (no resignation yet)
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
                state.pass_by(frozenset(game.timed_out))
            except CrazyError as error:
                raise CrazyError(f"{self.where(number)}{error}") from None
            turns: list[Turn] = []
            while state.end is None and not over_on_time(players, game.timed_out):
                number, data = self.next(f"a turn of player {state.to_move} in round {round_number}")
                try:
                    if "event" in data:
                        game.events.append((round_number, len(turns), self.event(state, data, game)))
                    else:
                        turns.append(self.turn(state, data))
                except CrazyError as error:
                    raise CrazyError(f"{self.where(number)}{error}") from None
            if state.end is None:   # one seat left in: the game ends, the round being played not scored
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
            if game.timed_out or "out" in final:
                self.check_end(final, {"out": list(game.timed_out)})
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
    def event(state: RoundState, data: dict[str, Any], game: GameResult) -> Event:
        """An event line's overtime charge or loss on time, taken as the table took it."""
        _known(data, EVENT_FIELDS, "an event line")
        kind = _field(data, "event", str)
        if kind not in CLOCK_EVENTS:
            raise CrazyError(f"field 'event': {quote(kind)} is not one of {', '.join(CLOCK_EVENTS)} "
                             f"(a Crazy Rummy game's clock events)")
        if kind != OVERTIME and "points" in data:
            raise CrazyError("field 'points': only an overtime line has points")
        event = Event(kind, _field(data, "player", int), _field(data, "points", int) if kind == OVERTIME else 0)
        take_clock_event(event, state, game.overtime, game.timed_out)
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
