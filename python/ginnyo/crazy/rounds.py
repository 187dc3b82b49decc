"""A round of Crazy Rummy (docs/RULES.md §7) being played and the results it leaves: the deal, each turn
checked against the rules, the round's points and the game's totals, and the events outside a turn (a
timed game's clock events, a resignation, an abort);
who deals each round and the deck from a game's seed.  The players and the game loop are
:mod:`ginnyo.crazy.game`'s, the step-by-step table's :mod:`ginnyo.crazy.match`'s.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Iterator, Literal, Sequence

from ..game.events import ABORT, OVERTIME, RESIGN, TIMEOUT, Event
from .cards import NUM_CARDS, ROUNDS, card_code, hand_points, parse_one, wild_rank
from ..errors import Reason
from .errors import CrazyError
from .melds import Meld, meld_text, parse_meld
from .state import TurnState

MIN_PLAYERS, MAX_PLAYERS = 3, 6
HAND_SIZE = 7
TURN_LIMIT = 600   # turns in one round before it is stopped (players who keep trading discards)
Draw = Literal["stock", "discard", "none"]
END_OUT, END_STOCK, END_LIMIT = "out", "stock empty", "turn limit"
BOT_KINDS = ("advisor", "stock")   # the players self-play seats (ginnyo.crazy.game.PLAYER_KINDS makes them)
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
    """A game as played: its rounds scored and its events outside a turn (clock events, resignations, an
    abort), the overtime charged and the seats out of the game (on time or resigned); ``unfinished``: the
    round being played when the game ended before its last round (its deal and turns, not scored: ``end``
    empty, no points)."""

    players: int
    seed: int
    kinds: tuple[str, ...]
    rounds: list[RoundResult] = field(default_factory=list)
    events: list[tuple[int, int, Event]] = field(default_factory=list)   # (round, its turns before it, event)
    overtime: list[int] = field(default_factory=list)   # each seat's charges (none: no clock)
    out: list[int] = field(default_factory=list)   # the seats out (on time or resigned), in the order they went
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
    def aborted(self) -> bool:
        """Whether the game was aborted (it ended with no result)."""
        return aborted(self.events)

    def out_by(self, kind: str) -> list[int]:
        """The seats out by ``kind`` of event (TIMEOUT or RESIGN), in the order they went."""
        return out_by(self.events, kind)

    @property
    def ranking(self) -> list[int]:
        """The seats best first: those still in by their totals (the fewest first), then those out (on time
        or resigned), the last out first."""
        still_in = sorted((seat for seat in range(self.players) if seat not in self.out),
                          key=lambda seat: self.scores[seat])
        return still_in + self.out[::-1]

    @property
    def ranks(self) -> list[int]:
        """Each seat's rank (1 the best): equal totals among the seats still in share a rank."""
        scores, ranks = self.scores, [0] * self.players
        for place, seat in enumerate(self.ranking, 1):
            ranks[seat] = place
            if seat not in self.out:
                ranks[seat] = 1 + sum(1 for other in range(self.players)
                                      if other not in self.out and scores[other] < scores[seat])
        return ranks

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first; none when the game was aborted."""
        if self.aborted:
            return ()
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


def aborted(events: Sequence[tuple[int, int, Event]]) -> bool:
    """Whether ``events`` (each ``(round, turns before it, event)``) hold an abort."""
    return any(event.kind == ABORT for _, _, event in events)


def out_by(events: Sequence[tuple[int, int, Event]], kind: str) -> list[int]:
    """The seats ``events`` put out by ``kind`` (TIMEOUT or RESIGN), in the order they went."""
    return [event.seat for _, _, event in events if event.kind == kind]


def ended_early(players: int, out: Sequence[int], events: Sequence[tuple[int, int, Event]]) -> bool:
    """Whether the game ends before its last round: the seats out (on time or resigned) leave one seat in
    (or none), or it was aborted."""
    return players - len(out) <= 1 or aborted(events)


def take_event(event: Event, state: RoundState, overtime: list[int], out: list[int], has_played: bool) -> None:
    """An event outside a turn (docs/RULES.md "Timed play" and "Resignation and abort"), taken in ``state``:
    an overtime charge (points added to the seat's ``overtime``); a loss on time of the seat to move, or a
    resignation of any seat still in, its turn or not (the seat out of the game: added to ``out``, passed
    by); an abort by a seat still in that has not ``has_played`` a step yet (nothing changes here: the
    caller's game ends with no result).  CrazyError for an event that cannot happen, changing nothing."""
    seat, players = event.seat, len(overtime)
    if event.kind == OVERTIME:
        if not 0 <= seat < players or event.points <= 0:
            raise CrazyError(f"{event.text()}: an overtime charge is of a seat 0..{players - 1}, points above 0")
        overtime[seat] += event.points
        return
    if event.kind not in (TIMEOUT, RESIGN, ABORT):
        raise CrazyError(f"Crazy Rummy takes no {event.kind} of seat {seat}")
    if event.kind == TIMEOUT and seat != state.to_move:
        raise CrazyError(f"{event.text()}: only the seat to move (seat {state.to_move}) runs out of time")
    if not 0 <= seat < players or seat in out:
        raise CrazyError(f"{event.text()}: player {seat} is not in the game")
    if event.kind == ABORT:
        if has_played:
            raise CrazyError(f"{event.text()}: player {seat} has played: the game can no longer be aborted "
                             "(resign instead)")
        return
    out.append(seat)
    state.pass_by(frozenset(out))


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
        self.passed_by: frozenset[int] = frozenset()   # seats out of the game (on time or resigned): no turns

    def pass_by(self, seats: frozenset[int]) -> None:
        """Take no more turns from ``seats`` (out of the game on time or resigned): their hands stay, out of play, and
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

def dealer_of(round_number: int, first_dealer: int, players: int) -> int:
    """The deal passes to the left (the next seat) each round."""
    return (first_dealer + round_number - 1) % players


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
    known = (*BOT_KINDS, PERSON) if people else BOT_KINDS
    for kind in chosen:
        if kind not in known:
            raise CrazyError(f"unknown player {kind!r} (known: {', '.join(known)})")
    if len(chosen) == 1:
        return tuple(chosen * players)
    if len(chosen) != players:
        raise CrazyError(f"{len(chosen)} player kinds for {players} players (give 1 or {players})")
    return tuple(chosen)
