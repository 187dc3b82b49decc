"""The simulation's rollouts in Python, the yardstick of the compiled ones (ginnycore.simulate).

This is what ginnyo.simulation did before the rollouts moved into C, on the
same deals: each rollout's racks and box come from :func:`ginnyo.simulation.deal`,
and where a returned tile goes from :class:`SplitMix64`, a port of the core's
generator (src/ginnycore/splitmix.pxd).  Every turn is the compiled core's
best play (greedy) or the first action of :func:`ginnyo.equity.rank_actions`
(equity) in the turn's game state; leaves are valued by ginnyo.equity.leaves in the
state they were kept in.  Once a 2-player box is empty the compiled endgame
solver (tested against its own exhaustive yardstick, tests/endgame_reference.py)
is asked for the rest, with the budget the rollouts give it."""

from __future__ import annotations

from functools import partial
from typing import Sequence

from ginnycore import EMPTY_SQUARE, MAX_PLACED, Core
from ginnycore.endgame import Endgame
from ginnyo.equity.rank import PLAY, RETURN, Candidate, rank_actions
from ginnyo.vocab.layout import core_premiums
from ginnyo.equity.leaves import TILES, LeaveModel, LeaveState
from ginnyo.vocab.rules import RACK_SIZE, quiet_turn_limit, tile_to_return
from ginnyo.simulation.rollouts import Setup, deal
from ginnyo.vocab.tiles import JOKER, rack_penalty

MASK = (1 << 64) - 1
MAX_PLIES = 100000          # ginnycore.simulate's bound on a rollout played to the game's end
ROLLOUT_TABLE_BITS = 14     # ... its endgame solver's table
ENDGAME_SMALL_CHECK = 64    # ... and how often that solver looks at its node budget


class SplitMix64:
    """src/ginnycore/splitmix.pxd in Python: the same numbers from the same seed."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def reference_outcomes(setup: Setup, indices: Sequence[int]) -> list[list[float]]:
    """The outcome of every candidate (a column each) in rollouts ``indices`` (a row each)."""
    return reference_rollouts(setup, indices)[0]


def reference_rollouts(setup: Setup, indices: Sequence[int]) -> tuple[list[list[float]], list[list[float]]]:
    """The outcomes and our shares of the win of every candidate (a column
    each) in rollouts ``indices`` (a row each)."""
    core = Core(setup.width, setup.height, *core_premiums(setup.kinds))
    model = setup.model
    context = setup.context
    scores = [context.scores[(context.to_move + offset) % context.players] for offset in range(context.players)]
    rows, win_rows = [], []
    for index in indices:
        hands, box, returns_seed = deal(context.unseen, context.opponent_racks, setup.seed, index)
        row, wins = [], []
        for candidate in setup.candidates:
            points, ended, leaves = play_out(core, setup, model, candidate, [list(h) for h in hands], list(box),
                                             SplitMix64(returns_seed))
            if candidate.kind == RETURN and not setup.plies and not setup.to_end:
                points[0] += model.return_value(context.box_size, root_state(setup))   # the lost turn
            if not ended:
                for seat, (tiles, box_size, state) in leaves.items():
                    points[seat] += model.value(tiles, box_size, state)
            row.append(points[0] - sum(points[1:]) / (context.players - 1))
            wins.append(win_share([score + made for score, made in zip(scores, points)]))
        rows.append(row)
        win_rows.append(wins)
    return rows, win_rows


def win_share(totals: Sequence[float]) -> float:
    """Seat 0's share of the win: 1 alone on top, 1/t tied with t - 1 others, else 0."""
    top = max(totals)
    return 1.0 / sum(1 for total in totals if total == top) if totals[0] == top else 0.0


def root_state(setup: Setup) -> LeaveState:
    """The game state at the decision: its players, a meld down, its stall clock."""
    context = setup.context
    opened = setup.cards.count(EMPTY_SQUARE) < len(setup.cards)
    return LeaveState(context.players, opened, context.quiet_turns,
                      quiet_turn_limit(context.players, opened, rules=context.rules,
                                       stall_rounds=context.stall_rounds))


def play_out(core: Core, setup: Setup, model: LeaveModel, candidate: Candidate, hands: list[list[int]],
             box: list[int], rng: SplitMix64) -> tuple[list[float], bool, dict[int, tuple[list[int], int, LeaveState]]]:
    """One candidate on one deal: (each seat's points, whether the game ended,
    each seat's last leave with the box and game state to value it in)."""
    context = setup.context
    players = context.players
    cards = bytearray(setup.cards)
    jokers = bytearray(setup.jokers)
    racks = [list(setup.rack)] + hands          # racks[0] is ours, then in turn order
    points = [0.0] * players
    leaves: dict[int, tuple[list[int], int, LeaveState]] = {}
    passes = 0
    quiet_limit = partial(quiet_turn_limit, players, rules=context.rules, stall_rounds=context.stall_rounds)
    quiet = context.quiet_turns + (candidate.kind != PLAY)   # the game-end clock (docs/RULES.md §6)
    opened = candidate.kind == PLAY or cards.count(EMPTY_SQUARE) < len(cards)
    rack = racks[0]
    if candidate.kind == PLAY:
        for square, card, joker in candidate.placements:
            cards[square] = card
            jokers[square] = 1 if joker else 0
            rack.remove(JOKER if joker else card)
        points[0] += candidate.score
    elif candidate.kind == RETURN:
        give_back(rack, box, candidate.returned, rng)
    else:
        passes = 1
    leaves[0] = (list(rack), context.box_size, root_state(setup))
    refill(rack, box, True)
    ended = quiet >= quiet_limit(opened)
    ply = 0
    tried = False
    while not ended and (ply < setup.plies or (setup.to_end and ply < MAX_PLIES)):
        seat = (ply + 1) % players
        if setup.endgame_nodes and players == 2 and not box and opened and not tried:
            # the endgame of both racks, from the mover's side: its value when
            # proven within the budget, else the rollout plays on
            tried = True
            counts = bytearray(TILES)
            for tile in racks[seat]:
                counts[tile] += 1
            other = bytearray(TILES)
            for tile in racks[1 - seat]:
                other[tile] += 1
            core.load(cards, jokers, counts)
            after_pass = passes > 0 or quiet + 1 >= quiet_limit(True)
            spread, _, proven, *_ = Endgame(core, other, ROLLOUT_TABLE_BITS, after_pass).solve(
                nodes=setup.endgame_nodes, check_every=ENDGAME_SMALL_CHECK)
            if proven:
                points[seat] += spread
                return points, True, leaves
        rack = racks[seat]
        ours = seat == 0
        if box and len(rack) < MAX_PLACED:
            rack.append(box.pop() if ours else box.pop(0))
        counts = bytearray(TILES)
        for tile in rack:
            counts[tile] += 1
        core.load(cards, jokers, counts)
        state = LeaveState(players, opened, quiet, quiet_limit(opened))
        score, placements, returned = choose(core, rack, len(box), setup.policy, model, state)
        if placements:
            for square, card, joker in placements:
                cards[square] = card
                jokers[square] = 1 if joker else 0
                rack.remove(JOKER if joker else card)
            points[seat] += score
            passes = 0
            quiet = 0
            opened = True
        elif returned:
            give_back(rack, box, returned, rng)
            passes = 0
        else:
            passes += 1
        if not placements:
            quiet += 1
        leaves[seat] = (list(rack), len(box), state)
        refill(rack, box, ours)
        ply += 1
        if passes >= players or quiet >= quiet_limit(opened):
            ended = True
    if ended:
        for seat in range(players):
            points[seat] -= sum(rack_penalty(tile) for tile in racks[seat])
    return points, ended, leaves


def give_back(rack: list[int], box: list[int], returned: Sequence[int], rng: SplitMix64) -> None:
    """Returned tiles leave the rack and go into the box one by one, each at a random place."""
    for tile in returned:
        rack.remove(tile)
    for tile in returned:
        box.insert(rng.below(len(box) + 1), tile)


def refill(rack: list[int], box: list[int], ours: bool) -> None:
    """Draw up to 7: we from the end of the box, the others from the front."""
    while len(rack) < RACK_SIZE and box:
        rack.append(box.pop() if ours else box.pop(0))


def choose(core: Core, rack: list[int], box_size: int, policy: str, model: LeaveModel,
           state: LeaveState | None = None
           ) -> tuple[int, tuple[tuple[int, int, bool], ...], tuple[int, ...]]:
    """A rollout turn: ``(score, placements, returned)``, all empty for a pass."""
    if policy == "equity":
        best = rank_actions(core, rack, box_size, model, limit=1, state=state)[0]
        return best.score, best.placements, best.returned
    found = core.best_play()
    if found is not None:
        return found[0], found[1], ()
    returned = tile_to_return(rack) if box_size else None
    return 0, (), (() if returned is None else (returned,))
