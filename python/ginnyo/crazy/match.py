"""A whole Crazy Rummy game played step by step, as the web table plays it: 13 rounds dealt
from the seed, each turn's draw, melds, lay-offs, swaps and discard applied one step at a time.

Every step is judged by :mod:`ginnyo.crazy.rounds` itself: a step of the turn so far
by :meth:`RoundState.after` (the round as the turn's steps leave it), the discard
by :meth:`RoundState.play_turn`, which plays the whole turn again on the real
round.  An action that leaves the turn open (a person's step) is taken only if a
discard can then end the turn legally; a whole turn sent as one action (a
bot's) is judged whole, as self-play judges it.

A game also takes the events outside a turn (:mod:`ginnyo.game.events`; docs/RULES.md "Timed play" and
"Resignation and abort"): an overtime charge, penalty points added to the seat's total; a loss on time
of the seat to move, or a resignation of any seat, which puts the seat out of the game: its turn so far
undone, its turns passed by, ranked below the seats still in, and when one seat is left the game ends;
and an abort before the seat's first step, which ends the game with no result.
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

from ..game.events import RESIGN, TIMEOUT, Event
from .cards import ROUNDS, card_code, parse_one
from ..errors import Reason
from .errors import CrazyError
from .rounds import (Draw, GameResult, RoundResult, RoundState, Turn, ended_early, out_by, player_kinds, round_deals,
                     take_event)
from .melds import meld_text, parse_meld
from .solver import solve_hand

DRAWS: tuple[Draw, ...] = ("stock", "discard")
MAX_STEPS = 40   # steps in one action (a whole turn sent at once)
DRAW_FIRST = Reason("draw first: from the stock or the discard pile", "crazy-draw-first")


class CrazyMatch:
    """The game of ``seed`` for ``kinds`` (one a seat): the rounds over, the round being
    played, and the turn so far of the seat to move (its draw and its steps)."""

    def __init__(self, kinds: Sequence[str], seed: int) -> None:
        self.players = len(kinds)
        self.kinds = player_kinds(self.players, kinds, people=True)
        self.seed = seed
        self.deals = list(round_deals(self.players, seed))
        self.rounds: list[RoundResult] = []
        self.turns: list[Turn] = []          # the turns of the round being played
        self.round: RoundState = RoundState(1, self.players, *self.deals[0])
        self.draw: Draw | None = None        # the turn so far: its draw ...
        self.card: int | None = None         # ... the card it drew ...
        self.steps: list[dict[str, Any]] = []   # ... and its melds, lay-offs and swaps
        self.shown: RoundState = self.round  # the round as the turn so far leaves it
        self.log: list[dict[str, Any]] = []  # every step: {"round", "seat", "step", "card"} (the card drawn)
        self.finished_hands: list[list[int]] = []   # the hands left when the last round ended (they score)
        self.overtime = [0] * self.players   # penalty points charged for overtime (RULES "Timed play")
        self.out: list[int] = []             # the seats out of the game (on time or resigned), in the order they went
        self.events: list[tuple[int, int, Event]] = []   # each event: (round, its turns before it, event)

    @property
    def over(self) -> bool:
        return len(self.rounds) == ROUNDS or ended_early(self.players, self.out, self.events)

    @property
    def aborted(self) -> bool:
        return self.result().aborted

    def out_by(self, kind: str) -> list[int]:
        """The seats out by ``kind`` of event (TIMEOUT or RESIGN), in the order they went."""
        return out_by(self.events, kind)

    def has_played(self, seat: int) -> bool:
        """Whether ``seat`` has taken a step of a turn (a draw, or the opening's first step): no abort then."""
        return any(entry["seat"] == seat for entry in self.log)

    @property
    def to_move(self) -> int:
        return self.round.to_move

    @property
    def drawn(self) -> bool:
        """Whether the seat to move has its turn's cards (drawn, or dealt on the opening turn)."""
        return self.draw is not None or self.round.opening

    @property
    def round_totals(self) -> tuple[int, ...]:
        """The points of the rounds played, added up."""
        return self.rounds[-1].scores if self.rounds else (0,) * self.players

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's total: its rounds' points and its overtime charges."""
        return self.result().scores

    @property
    def ranking(self) -> list[int]:
        """The seats best first: those still in by their totals (the fewest first), then those out (on time
        or resigned), the last out first."""
        return self.result().ranking

    @property
    def ranks(self) -> list[int]:
        """Each seat's rank (1 the best): equal totals among the seats still in share a rank."""
        return self.result().ranks

    @property
    def winners(self) -> tuple[int, ...]:
        return self.result().winners

    def apply_event(self, event: Event) -> None:
        """An overtime charge (points added to the seat's total), a loss on time of the seat to move or a
        resignation of any seat still in (the seat out of the game; the turn so far undone when it was the
        seat's), or an abort before the seat's first step (the game over, no result); CrazyError when the
        event cannot happen, changing nothing."""
        if self.over:
            raise CrazyError("the game is over")
        mover = self.to_move
        take_event(event, self.round, self.overtime, self.out, self.has_played(event.seat))
        self.events.append((self.round.number, len(self.turns), event))
        if event.kind in (TIMEOUT, RESIGN) and event.seat == mover:   # the seat out: its turn so far undone
            self.draw, self.card, self.steps = None, None, []
            self.shown = self.round

    def result(self) -> GameResult:
        """The game as played so far, as its record writes it (the round being played, when the game
        ended before its last round, unfinished)."""
        unfinished = None
        if self.over and len(self.rounds) < ROUNDS:
            dealer, deck = self.deals[self.round.number - 1]
            unfinished = RoundResult(self.round.number, dealer, tuple(deck), list(self.turns), "", None,
                                     (0,) * self.players, self.round_totals)
        return GameResult(self.players, self.seed, self.kinds, list(self.rounds), list(self.events),
                          list(self.overtime), list(self.out), unfinished)

    def apply(self, steps: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Take ``steps`` for the seat to move, all or none (CrazyError, the rules' words);
        the steps as stored (codes written out as the record writes them)."""
        if self.over:
            raise CrazyError(Reason("the game is over", "game-over"))
        draw, card, done = self.draw, self.card, list(self.steps)
        shown, written, log = self.shown, [], []
        round_state, turns = self.round, self.turns
        for index, step in enumerate(steps):
            if not isinstance(step, dict):
                raise CrazyError(Reason("a step must be an object: {\"draw\": ...}, {\"meld\": ...}, "
                                        "{\"lay_off\": ...}, {\"swap\": ...} or {\"discard\": ...}", "crazy-bad-step"))
            step = normal_step(step, round_state.wild)
            if "draw" in step:
                if step["draw"] == "none" and round_state.opening and draw is None:
                    draw = "none"
                elif draw is not None or round_state.opening:
                    raise CrazyError(Reason("the turn's card is in hand already: meld, lay off, swap or discard",
                                            "crazy-drawn-already"))
                else:
                    draw = step["draw"]
                shown = round_state.after(draw, done)
                card = _drawn_card(round_state, shown)
            elif "discard" in step:
                if index != len(steps) - 1:
                    raise CrazyError(Reason("the discard ends the turn: no step may follow it", "crazy-discard-ends-turn"))
                draw = _drawn(draw, round_state)
                trial = copy.deepcopy(round_state)
                turns = [*turns, trial.play_turn(draw, done, parse_one(step["discard"], "discard"), card)]
                round_state = shown = trial
            else:
                draw = _drawn(draw, round_state)
                shown = round_state.after(draw, [*done, step])
                done.append(step)
            written.append(step)
            log.append({"round": round_state.number, "seat": self.to_move, "step": step,
                        "card": card if "draw" in step else None})
        if written and "discard" in written[-1]:
            self.round, self.turns = round_state, turns
            self.draw, self.card, self.steps = None, None, []
            self.log += log
            self.shown = self.round
            if self.round.end is not None:
                self._end_round()
        else:   # the turn goes on: it must still be one a discard can end
            can_end_turn(round_state, _drawn(draw, round_state), done, card)
            self.draw, self.card, self.steps, self.shown = draw, card, done, shown
            self.log += log
        return written

    def _end_round(self) -> None:
        state = self.round
        points = state.points()
        totals = tuple(a + b for a, b in zip(self.round_totals, points))
        self.rounds.append(RoundResult(state.number, state.dealer, tuple(self.deals[state.number - 1][1]),
                                       self.turns, state.end or "", state.out, points, totals))
        self.finished_hands = [sorted(hand) for hand in state.hands]
        self.turns = []
        if not self.over:
            dealer, deck = self.deals[state.number]
            self.round = self.shown = RoundState(state.number + 1, self.players, dealer, deck)
            self.round.pass_by(frozenset(self.out))


def _drawn(draw: Draw | None, round_state: RoundState) -> Draw:
    if round_state.opening:
        return "none"
    if draw is None:
        raise CrazyError(DRAW_FIRST)
    return draw


def _drawn_card(before: RoundState, after: RoundState) -> int | None:
    """The card the draw put in the hand of the seat to move."""
    seat = before.to_move
    new = [card for card in after.hands[seat] if card not in before.hands[seat]]
    return new[0] if new else None


def can_end_turn(round_state: RoundState, draw: Draw, steps: list[dict[str, Any]], card: int | None) -> None:
    """CrazyError unless the turn of ``steps`` can still end: some discard ends it legally now,
    or the hand solver finds a way to go out from here (a meld that leaves no card to
    discard cannot be played; one card held, only the held card may go unless going out)."""
    after = round_state.after(draw, steps)
    seat = round_state.to_move
    hand = after.hands[seat]
    reason = Reason("a meld that leaves no card to discard cannot be played", "crazy-no-card-left")
    for discard in hand:
        try:
            copy.deepcopy(round_state).play_turn(draw, steps, discard, card)
            return
        except CrazyError as error:
            reason = error.reason or Reason(str(error), "crazy-refused")
    if hand:
        own = after.melds[seat]
        others = [meld for owner, melds in enumerate(after.melds) if owner != seat for meld in melds]
        keep = [card] if draw == "discard" and card is not None else []
        if solve_hand(hand, after.wild, own, others, keep=keep).can_go_out:
            return
    raise CrazyError(Reason(f"then no discard could end the turn: {reason}", "crazy-turn-cannot-end", reason=str(reason),
                            reason_code=reason.code, reason_args=reason.arguments))


def normal_step(step: dict[str, Any], wild: int) -> dict[str, Any]:
    """A step with its cards and melds as the record writes them (CrazyError when malformed)."""
    if set(step) == {"draw"}:
        if step["draw"] not in (*DRAWS, "none"):
            raise CrazyError(Reason(f"draw {str(step['draw'])[:20]!r}: from \"stock\" or \"discard\"", "crazy-bad-draw"))
        return dict(step)
    if set(step) == {"discard"}:
        return {"discard": card_code(parse_one(step["discard"], "discard"))}
    if set(step) == {"meld"}:
        return {"meld": meld_text(parse_meld(step["meld"], wild, "meld"), wild)}
    if set(step) == {"lay_off", "meld"}:
        return {"lay_off": step["lay_off"], "meld": meld_text(parse_meld(step["meld"], wild, "lay off meld"), wild)}
    if set(step) == {"swap", "card", "wild"}:
        return {"swap": step["swap"], "card": card_code(parse_one(step["card"], "swap card")),
                "wild": card_code(parse_one(step["wild"], "swap wild"))}
    raise CrazyError(Reason("a step is {\"draw\": \"stock\"|\"discard\"}, {\"meld\": \"7C 7D 5H=7S\"}, "
                            "{\"lay_off\": [seat, n], \"meld\": ...}, {\"swap\": [seat, n], \"card\": ..., \"wild\": ...} "
                            "or {\"discard\": \"5H\"}", "crazy-bad-step"))


__all__ = ["CrazyMatch", "normal_step", "can_end_turn", "MAX_STEPS"]
