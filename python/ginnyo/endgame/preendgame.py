"""Pre-endgames (docs/ENDGAME.md, "Pre-endgame"): two players, 1 to :data:`MAX_BOX`
tiles in the box; the candidate moves ranked by their exact expectation over
the hidden tiles, each line finished by the exact endgame solver.

The tiles we cannot see are the opponent's rack (7) and the box.  Every
distinct opponent rack is enumerated with its exact weight (the number of ways
to deal it), and every draw from the box is a chance node over the distinct
tiles it can give (a draw of several tiles over the distinct handfuls), so the
order of the box is enumerated exactly without listing its permutations; a
return puts its tiles in the box at random places (docs/RULES.md §6), which is
the same as a box mixed again, so draws after it are chance nodes alike.

A line goes on under RULES.md §6 (a turn starts with a draw while the box has
tiles; a play refills to 7, a return draws back up to 7) until a player is to
decide with the box empty: from there the game is of perfect information and
:func:`ginnyo.endgame.search.solve_loaded` finishes it.  A decision taken while the
box still holds tiles, after the one being ranked, follows the rollout policy
of :mod:`ginnyo.simulation` (the highest-scoring play, else return the tile
``best-move`` names): that part is an approximation.  The objective is the
expected final spread: our points from here on minus the opponent's, both end
penalties included.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterator, NamedTuple, Sequence

from ..native.core import EMPTY_SQUARE

from .search import solve_loaded
from ..equity.rank import PLAY, RETURN, Candidate, candidate_notation, rank_actions
from ..errors import DecisionOutOfTime, PositionError
from ..vocab.rules import RACK_SIZE, RULES_VERSION, STALL_ROUNDS, quiet_turn_limit
from ..equity.leaves import LeaveModel, default_model
from ..native import empty_core, encode
from ..native.encoding import encode_rack
from ..position.position import Position
from ..vocab.tiles import JOKER, rack_penalty

#: the most tiles in the box of a pre-endgame this module ranks (B = 3: 720 box orders by 120 racks)
MAX_BOX = 3
#: the plays ranked: the best this many by equity (and always the highest-scoring one)
DEFAULT_PLAYS = 20
#: the returns ranked: the best this many by equity of those :mod:`ginnyo.equity` considers
DEFAULT_RETURNS = 4
#: the budget of each endgame solve in a line (seconds)
ENDGAME_SECONDS = 1.0
#: the transposition table of each endgame solve: small, as a pre-endgame solves many
TABLE_BITS = 16

Rack = tuple[int, ...]      # sorted rack tiles


class Outcome(NamedTuple):
    """The expected spread of a line, whether every endgame solve in it was proven,
    and the probability that it met a decision taken by the rollout policy."""

    spread: Fraction
    proven: bool
    policy: Fraction


@dataclass(frozen=True)
class Choice:
    """One candidate and its expected spread (None when the time ran out first)."""

    candidate: Candidate
    notation: str
    spread: Fraction | None
    proven: bool
    policy: Fraction

    @property
    def expected(self) -> float | None:
        return None if self.spread is None else float(self.spread)

    def to_json(self) -> dict[str, object]:
        return {"notation": self.notation, "kind": self.candidate.kind, "score": self.candidate.score,
                "expected_spread": None if self.spread is None else round(float(self.spread), 4),
                "proven": self.proven, "policy_share": round(float(self.policy), 4)}


@dataclass(frozen=True)
class PreendgameResult:
    """The candidates ranked (evaluated ones best first, then those the time left
    unevaluated, in equity order).  ``proven``: every candidate evaluated and
    every endgame solve proven."""

    choices: tuple[Choice, ...]
    proven: bool
    box: int
    racks: int              # distinct opponent racks
    solves: int             # endgame searches run
    seconds: float
    best: Choice = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "best", self.choices[0])


def preendgame_box(position: Position, rack_size: int = RACK_SIZE) -> int:
    """The number of tiles in the box of a 2-player pre-endgame (1 to
    :data:`MAX_BOX`); :class:`PositionError` naming the field otherwise."""
    context = position.game_context
    if context.players != 2:
        raise PositionError(f"field 'players': {context.players} players; the pre-endgame is for 2")
    box = len(context.unseen) - rack_size
    if not 1 <= box <= MAX_BOX:
        raise PositionError(f"field 'unseen': {len(context.unseen)} tiles unseen; a pre-endgame has "
                            f"{rack_size + 1} to {rack_size + MAX_BOX} (1 to {MAX_BOX} in the box)")
    return box


def is_preendgame(position: Position) -> bool:
    """Whether ``position`` is a 2-player pre-endgame (1 to :data:`MAX_BOX` tiles in the box)."""
    try:
        preendgame_box(position)
    except PositionError:
        return False
    return True


def handfuls(box: Rack, size: int) -> Iterator[tuple[Rack, int]]:
    """Every distinct handful of ``size`` tiles from ``box`` with the number of ways
    to take it (the copies told apart): its weight among ``comb(len(box), size)``."""
    yield from _handfuls(tuple(sorted(Counter(box).items())), size)


def _handfuls(items: tuple[tuple[int, int], ...], size: int) -> Iterator[tuple[Rack, int]]:
    if size == 0:
        yield (), 1
        return
    if not items:
        return
    (tile, count), rest = items[0], items[1:]
    left = sum(n for _, n in rest)
    for take in range(max(0, size - left), min(count, size) + 1):
        for chosen, ways in _handfuls(rest, size - take):
            yield (tile,) * take + chosen, math.comb(count, take) * ways


def _minus(rack: Rack, tiles: Sequence[int]) -> Rack:
    left = list(rack)
    for tile in tiles:
        left.remove(tile)
    return tuple(left)


def _rack_cost(rack: Rack) -> int:
    return sum(rack_penalty(tile) for tile in rack)


class _Search:
    """The expectimax of one decision: the board in core bytes, racks as sorted
    tuples (0 the player to move at the root, 1 the opponent), the box as a
    sorted tuple (its order is random: draws are chance nodes)."""

    def __init__(self, position: Position, rack_size: int, quiet_turns: int, rules: int, stall_rounds: int,
                 deadline: float | None, endgame_seconds: float | None) -> None:
        layout = position.layout
        self.core = empty_core(layout)
        self.rack_size = rack_size
        self.quiet_turns = quiet_turns
        self.rules = rules
        self.stall_rounds = stall_rounds
        self.deadline = deadline
        self.endgame_seconds = endgame_seconds
        self.memo: dict[tuple[object, ...], Outcome] = {}
        self.solved: dict[tuple[object, ...], tuple[int, bool]] = {}
        self.solves = 0

    def _load(self, cards: bytes, jokers: bytes, rack: Rack) -> None:
        self.core.load(cards, jokers, bytes(encode_rack(rack)))

    def _limit(self, cards: bytes) -> int:
        opened = cards.count(EMPTY_SQUARE) < len(cards)
        return quiet_turn_limit(2, opened, rules=self.rules, stall_rounds=self.stall_rounds)

    def candidate(self, cards: bytes, jokers: bytes, rack: Rack, unseen: Rack, candidate: Candidate) -> Outcome:
        """Our ``candidate`` averaged over every opponent rack dealt from ``unseen``."""
        size = min(self.rack_size, len(unseen))
        total = math.comb(len(unseen), size)
        parts = []
        for opponent, ways in handfuls(unseen, size):
            box = _minus(unseen, opponent)
            if candidate.kind == PLAY:
                after, board_jokers = bytearray(cards), bytearray(jokers)
                for square, card, joker in candidate.placements:
                    after[square] = card
                    board_jokers[square] = joker
                kept = _minus(rack, [JOKER if joker else card for _, card, joker in candidate.placements])
                outcome = self.after_turn(bytes(after), bytes(board_jokers), (kept, opponent), box, 0, 0,
                                          candidate.score)
            else:
                kept = _minus(rack, candidate.returned)
                outcome = self.after_turn(cards, jokers, (kept, opponent), tuple(sorted(box + candidate.returned)),
                                          0, self.quiet_turns + 1, 0)
            parts.append((ways, outcome))
        return _mean(parts, total)

    def after_turn(self, cards: bytes, jokers: bytes, racks: tuple[Rack, Rack], box: Rack, mover: int,
                   quiet: int, gained: int) -> Outcome:
        """``mover`` has played (``gained`` points) or returned: they draw up to the
        rack size (a chance node), then the game ends by the stall clock or goes on."""
        sign = 1 if mover == 0 else -1
        need = min(self.rack_size - len(racks[mover]), len(box))
        total = math.comb(len(box), need)
        parts = []
        for drawn, ways in handfuls(box, max(need, 0)):
            rack = tuple(sorted(racks[mover] + drawn))
            now = (rack, racks[1]) if mover == 0 else (racks[0], rack)
            left = _minus(box, drawn)
            if quiet >= self._limit(cards):    # the stall clock ends the game after this turn
                outcome = Outcome(Fraction(_rack_cost(now[1]) - _rack_cost(now[0])), True, Fraction(0))
            else:
                outcome = self.turn(cards, jokers, now, left, 1 - mover, quiet)
            parts.append((ways, outcome))
        mean = _mean(parts, total)
        return Outcome(mean.spread + sign * gained, mean.proven, mean.policy)

    def turn(self, cards: bytes, jokers: bytes, racks: tuple[Rack, Rack], box: Rack, mover: int,
             quiet: int) -> Outcome:
        """``mover``'s turn: the draw that starts it (a chance node), then the decision."""
        key = (cards, jokers, racks, box, mover, quiet)
        found = self.memo.get(key)
        if found is not None:
            return found
        if not box:
            outcome = self.decide(cards, jokers, racks, box, mover, quiet)
        else:
            parts = []
            for tile, ways in sorted(Counter(box).items()):
                rack = tuple(sorted(racks[mover] + (tile,)))
                now = (rack, racks[1]) if mover == 0 else (racks[0], rack)
                parts.append((ways, self.decide(cards, jokers, now, _minus(box, (tile,)), mover, quiet)))
            outcome = _mean(parts, len(box))
        self.memo[key] = outcome
        return outcome

    def decide(self, cards: bytes, jokers: bytes, racks: tuple[Rack, Rack], box: Rack, mover: int,
               quiet: int) -> Outcome:
        """A decision: the exact endgame once the box is empty, else the rollout policy."""
        sign = 1 if mover == 0 else -1
        rack = racks[mover]
        self._load(cards, jokers, rack)
        if not box:
            # a pass now ends the game when the stall clock has one quiet turn left
            after_pass = quiet + 1 >= self._limit(cards)
            spread, proven = self.endgame(cards, jokers, rack, racks[1 - mover], after_pass)
            return Outcome(Fraction(sign * spread), proven, Fraction(0))
        found = self.core.best_play()
        if found is not None:
            score, placements = found
            after, board_jokers = bytearray(cards), bytearray(jokers)
            for square, card, joker in placements:
                after[square] = card
                board_jokers[square] = joker
            kept = _minus(rack, [JOKER if joker else card for _, card, joker in placements])
            now = (kept, racks[1]) if mover == 0 else (racks[0], kept)
            outcome = self.after_turn(bytes(after), bytes(board_jokers), now, box, mover, 0, score)
        else:
            returned = _policy_return(rack)
            kept = _minus(rack, returned)
            now = (kept, racks[1]) if mover == 0 else (racks[0], kept)
            outcome = self.after_turn(cards, jokers, now, tuple(sorted(box + returned)), mover, quiet + 1, 0)
        return Outcome(outcome.spread, outcome.proven, Fraction(1))

    def endgame(self, cards: bytes, jokers: bytes, mover: Rack, other: Rack, after_pass: bool) -> tuple[int, bool]:
        """The endgame loaded in the core, solved once for each distinct state."""
        key = (cards, jokers, mover, other, after_pass)
        found = self.solved.get(key)
        if found is not None:
            return found
        budget = self.endgame_seconds
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                raise DecisionOutOfTime
            budget = left if budget is None else min(budget, left)
        self.solves += 1
        result = solve_loaded(self.core, other, budget, after_pass=after_pass, table_bits=TABLE_BITS)
        self.solved[key] = result
        return result


def _policy_return(rack: Rack) -> Rack:
    """The rollout policy's return without a play: the real tile that costs most
    (ties to the lowest), or a joker from a rack of only jokers."""
    real = [tile for tile in rack if tile != JOKER]
    return (max(real, key=lambda tile: (rack_penalty(tile), -tile)),) if real else (JOKER,)


def _mean(parts: Sequence[tuple[int, Outcome]], total: int) -> Outcome:
    """The weighted mean of outcomes whose weights sum to ``total``."""
    spread = sum((ways * outcome.spread for ways, outcome in parts), Fraction(0)) / total
    policy = sum((ways * outcome.policy for ways, outcome in parts), Fraction(0)) / total
    return Outcome(spread, all(outcome.proven for _, outcome in parts), policy)


def candidates_of(position: Position, box: int, plays: int, returns: int,
                  model: LeaveModel) -> list[Candidate]:
    """The candidates ranked, in equity order: the best ``plays`` plays (and the
    highest-scoring one) and the best ``returns`` returns by equity."""
    from ..native import core_of
    ranked = rank_actions(core_of(position), position.rack, box, model)
    chosen = [c for c in ranked if c.kind == PLAY][:plays] + [c for c in ranked if c.kind == RETURN][:returns]
    top_score = min((c for c in ranked if c.kind == PLAY), key=lambda c: (-c.score, c.sort_key()), default=None)
    if top_score is not None and top_score not in chosen:
        chosen.append(top_score)
    if not chosen:     # no play and no return asked for: the rules still make the player return
        chosen = [c for c in ranked if c.kind == RETURN][:1]
    chosen.sort(key=Candidate.sort_key)
    return chosen


def rank(position: Position, seconds: float | None = None, *, plays: int = DEFAULT_PLAYS,
         returns: int = DEFAULT_RETURNS, endgame_seconds: float | None = ENDGAME_SECONDS,
         quiet_turns: int = 0, rules: int = RULES_VERSION, stall_rounds: int = STALL_ROUNDS,
         model: LeaveModel | None = None, rack_size: int = RACK_SIZE) -> PreendgameResult:
    """The candidates of the pre-endgame ``position`` ranked by expected final spread.

    ``seconds`` bounds the whole decision: candidates are evaluated in equity
    order, each to the end, and the best of those finished is returned with
    ``proven=False`` when the time runs out.  ``endgame_seconds`` bounds each
    endgame solve (an unproven one is used, and flags the result).
    ``quiet_turns``: turns in a row without a play before this one (the stall
    clock).  ``rack_size`` is the game's 7; smaller racks are for the yardstick
    tests.  :class:`PositionError` when the position is no pre-endgame,
    ``ValueError`` for a bad argument."""
    for name, value in (("seconds", seconds), ("endgame_seconds", endgame_seconds)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not math.isfinite(value) or value <= 0):
            raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
    for name, count in (("plays", plays), ("returns", returns), ("quiet_turns", quiet_turns)):
        if type(count) is not int or count < 0:
            raise ValueError(f"{name} must be a whole number >= 0, not {count!r}")
    if type(rack_size) is not int or not 1 <= rack_size <= RACK_SIZE:
        raise ValueError(f"rack_size must be from 1 to {RACK_SIZE}, not {rack_size!r}")
    box = preendgame_box(position, rack_size)
    if not position.rack:
        raise PositionError("field 'rack': empty, but with tiles in the box a turn starts with a draw")
    unseen = position.game_context.unseen
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    search = _Search(position, rack_size, quiet_turns, rules, stall_rounds, deadline, endgame_seconds)
    cards, jokers, _ = encode(position)
    done: list[Choice] = []
    waiting: list[Choice] = []
    for candidate in candidates_of(position, box, plays, returns, model or default_model()):
        notation = candidate_notation(position, candidate)
        if not waiting:
            try:
                outcome = search.candidate(cards, jokers, position.rack, unseen, candidate)
            except DecisionOutOfTime:
                outcome = None
            if outcome is not None:
                done.append(Choice(candidate, notation, outcome.spread, outcome.proven, outcome.policy))
                continue
        waiting.append(Choice(candidate, notation, None, False, Fraction(0)))
    order = {id(choice): index for index, choice in enumerate(done)}
    done.sort(key=lambda choice: (-(choice.spread or 0), order[id(choice)]))
    proven = not waiting and all(choice.proven for choice in done)
    racks = sum(1 for _ in handfuls(unseen, min(rack_size, len(unseen))))
    return PreendgameResult(tuple(done + waiting), proven, box, racks, search.solves,
                            time.perf_counter() - started)


__all__ = ["Choice", "DEFAULT_PLAYS", "DEFAULT_RETURNS", "ENDGAME_SECONDS", "MAX_BOX", "Outcome", "PreendgameResult",
           "handfuls", "is_preendgame", "preendgame_box", "rank"]
