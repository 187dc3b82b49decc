"""Rack inference: the tiles an opponent kept, read from the action it just made (docs/INFERENCE.md).

A player who saw an opponent play (or return, or pass) can tell which racks
would have made that action a sensible one.  :func:`infer` weighs every rack
the opponent could have held (the hidden tiles drawn from what the inferring
player could not see) by the ways it can be drawn, keeps those for which the
action was within :data:`MARGIN` points of equity of the best (MAGPIE's rule),
and conditions on the tiles the inferring player has seen leave the unseen
pool since (its own draw, the others' plays): a leave's weight is multiplied
by the ways those tiles could still have been drawn from what the leave left.
The judging is the compiled core's (:mod:`ginnycore.infer`); the plain-Python
yardstick is tests/inference_reference.py.  :func:`observations` reads each
opponent's last action from a game's history (a view's or a replayed
record's); :func:`alias_table` turns an inference into what the simulation's
deal draws from (:mod:`ginnycore.simulate`'s ``inferred``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..native.encoding import RACK_KINDS, empty_board, encode_rack

from ..game.actions import Place, Return
from ..equity.rank import compiled_model
from ..equity.leaves import LeaveModel, LeaveState, default_model
from ..vocab.rules import quiet_turn_limit, tile_set
from ..vocab.tiles import JOKER, rack_code

if TYPE_CHECKING:
    from ..game.game import Game, Turn, View
    from ..vocab.layout import Layout
    from ..position.position import Position

#: An action is consistent with a rack when its equity is at most this many points below the rack's best.
MARGIN = 5.0
#: Every hidden multiset is judged when there are at most this many, ...
MAX_LEAVES = 20000
#: ... else this many racks are drawn from the pool.
SAMPLES = 4000
#: An inference that keeps less than this share of what it judged is not trusted: the deal stays uniform.
MIN_KEPT = 1e-9

PLAY, RETURN, PASS = 0, 1, 2   # the compiled inference's action kinds


@dataclass(frozen=True)
class Observed:
    """An opponent's decision as the inferring player saw it: the board before
    it, the tiles it could have come from, the action, and what has been seen since."""

    seat: int                           # the opponent, seats after the inferring player (1 the next)
    player: int                         # the opponent's seat in the game
    turn: int                           # the turn's number
    layout: Layout
    cards: bytes                        # the board before the action
    jokers: bytes
    pool: bytes                         # 53 counts: what the inferring player could not see, less any placed
    rack_size: int                      # the opponent's rack at its decision (after its draw)
    kind: int                           # PLAY, RETURN, PASS
    placements: tuple[tuple[int, int, bool], ...]
    returned: int                       # a return's tile count (the tiles are face down)
    box_size: int
    state: LeaveState
    unseen_now: bytes                   # 53 counts: what the inferring player cannot see now


@dataclass(frozen=True)
class Inference:
    """The opponent's kept tiles: each leave (sorted tiles) with its probability, likeliest first."""

    observed: Observed
    exact: bool                         # every rack judged (else sampled)
    considered: float                   # the weight judged
    kept: float                         # the weight kept (before conditioning)
    leaves: tuple[tuple[tuple[int, ...], float], ...]
    counts: tuple[bytes, ...] = field(default=(), repr=False, compare=False)   # each leave's 53 counts

    @property
    def informative(self) -> bool:
        """Whether any leave is left to draw from."""
        return bool(self.leaves)

    def tile_probabilities(self) -> dict[int, float]:
        """Each tile's probability of being among the kept tiles (at least one copy)."""
        chances: dict[int, float] = {}
        for leave, probability in self.leaves:
            for tile in set(leave):
                chances[tile] = chances.get(tile, 0.0) + probability
        return dict(sorted(chances.items(), key=lambda item: (-item[1], item[0])))

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """The inference as ``ginnyo infer --json`` gives it: the action read,
        how much was judged and kept, the ``top`` likeliest leaves (all: None)
        and each tile's chance of being kept, likeliest first."""
        observed = self.observed
        return {"player": observed.player, "turn": observed.turn, "action": ("play", "return", "pass")[observed.kind],
                "exact": self.exact, "racks_judged": self.considered,
                "kept_share": round(self.kept / self.considered, 6) if self.considered else 0.0,
                "leaves": [{"tiles": " ".join(rack_code(tile) for tile in leave), "probability": round(p, 6)}
                           for leave, p in self.leaves[:top]],
                "tiles": {rack_code(tile): round(p, 6) for tile, p in self.tile_probabilities().items()}}


def infer(observed: Observed, model: LeaveModel | None = None, *, margin: float = MARGIN,
          max_leaves: int = MAX_LEAVES, samples: int = SAMPLES, seed: int = 0, threads: int = 1) -> Inference:
    """The inference of one observed decision (see the module's doc)."""
    exact, considered, kept = judged(observed, model, margin=margin, max_leaves=max_leaves, samples=samples,
                                     seed=seed, threads=threads)
    return _conditioned(observed, exact, considered, kept)


def judged(observed: Observed, model: LeaveModel | None = None, *, margin: float = MARGIN,
           max_leaves: int = MAX_LEAVES, samples: int = SAMPLES, seed: int = 0,
           threads: int = 1) -> tuple[bool, float, list[tuple[bytes, float]]]:
    """The core's judging of one observed decision, before conditioning on what
    was seen since: whether every rack was judged, the weight judged, and each
    rack kept as ``(leave as 53 counts, weight)`` (:func:`ginnycore.infer.infer`)."""
    from ..native import empty_core
    from ..native.infer import infer as compiled_infer
    core = empty_core(observed.layout)
    core.load(observed.cards, observed.jokers, bytes(RACK_KINDS))
    return compiled_infer(
        core, compiled_model(model or default_model()), observed.pool, observed.rack_size, observed.kind,
        observed.placements, observed.returned, observed.box_size, observed.state.as_tuple(), margin,
        max_leaves, samples, seed % 2**64, threads)


def _conditioned(observed: Observed, exact: bool, considered: float, kept: list[tuple[bytes, float]]) -> Inference:
    """The kept leaves summed by leave, conditioned on what was seen since
    (the core's :func:`ginnycore.infer.condition`), normalised."""
    from ..native.infer import condition
    kept_weight, conditioned = condition(observed.pool, observed.unseen_now, kept)
    total = sum(weight for _, weight, _ in conditioned)
    if total <= 0 or kept_weight < MIN_KEPT * considered:
        return Inference(observed, exact, considered, kept_weight, (), ())
    return Inference(observed, exact, considered, kept_weight,
                     tuple((tiles, weight / total) for tiles, weight, _ in conditioned),
                     tuple(counts for _, _, counts in conditioned))


def _counts(tiles: Sequence[int] | Counter[int]) -> bytes:
    counts = encode_rack(tiles.elements() if isinstance(tiles, Counter) else tiles)
    return bytes(counts)


def _used(turn: Turn) -> Counter[int]:
    """The rack tiles a turn's action took from the rack."""
    action = turn.action
    if isinstance(action, Place):
        return Counter(JOKER if tile.joker else tile.card for _, tile in action.play.placements)
    if isinstance(action, Return):
        return Counter(action.tiles)
    return Counter()


def _rack_after(turn: Turn) -> Counter[int]:
    """The rack a player held at the end of its turn (its own knowledge)."""
    rack = Counter(turn.rack)
    if turn.draw is not None:
        rack[turn.draw] += 1
    rack -= _used(turn)
    rack.update(turn.refill)
    return rack


def observations(history: Sequence[Turn], board: Mapping[int, tuple[int, bool]], rack: Sequence[int], box_size: int,
                 dealt: Sequence[int], player: int, players: int, layout: Layout, *, rules: int,
                 stall_rounds: int) -> list[Observed | None]:
    """What ``player`` (holding ``rack`` now, ``box_size`` tiles in the box
    now, ``dealt`` its rack as dealt) saw of each opponent's last action since
    its own last turn, an entry a seat after it (None: no action yet).  Only
    what the player could see is read: a return's count, not its tiles."""
    from ..vocab.rules import sets_for
    everything = Counter(tile_set(sets_for(players)))
    mine = [index for index, turn in enumerate(history) if turn.player == player]
    since = mine[-1] + 1 if mine else 0
    rack_before = _rack_after(history[mine[-1]]) if mine else Counter(dealt)
    drawn = sum((Counter(rack) - rack_before).values())          # the tile drawn this turn, if any
    on_board_now = Counter(JOKER if joker else card for card, joker in board.values())
    unseen_now = _counts(everything - on_board_now - Counter(rack))
    # walk back from now to each turn since ours: the board and the box as they were at it
    box = box_size + drawn
    box_at: dict[int, int] = {}
    for index in range(len(history) - 1, since - 1, -1):
        turn = history[index]
        box += len(turn.refill)
        box -= len(_used(turn)) if isinstance(turn.action, Return) else 0
        box_at[index] = box
        box += 1 if turn.draw is not None else 0
    quiet_at: list[int] = []
    opened_at: list[bool] = []
    quiet, opened = 0, False
    for turn in history:
        quiet_at.append(quiet)
        opened_at.append(opened)
        if isinstance(turn.action, Place):
            quiet, opened = 0, True
        else:
            quiet += 1
    found: list[Observed | None] = []
    for seat in range(1, players):
        opponent = (player + seat) % players
        at = [index for index in range(since, len(history)) if history[index].player == opponent]
        if not at:
            found.append(None)
            continue
        index = at[-1]
        turn = history[index]
        later = {square: tile for later_turn in history[index:] if isinstance(later_turn.action, Place)
                 for square, tile in later_turn.action.play.placements}
        cards, jokers = empty_board(layout.size)
        before: Counter[int] = Counter()
        for square, (card, joker) in board.items():
            if square in later:
                continue
            cards[square] = card
            jokers[square] = 1 if joker else 0
            before[JOKER if joker else card] += 1
        action = turn.action
        placements: tuple[tuple[int, int, bool], ...] = ()
        placed: Counter[int] = Counter()
        if isinstance(action, Place):
            kind = PLAY
            placements = tuple((square, tile.card, bool(tile.joker)) for square, tile in action.play.placements)
            placed = _used(turn)
        elif isinstance(action, Return):
            kind = RETURN
        else:
            kind = PASS
        pool = everything - before - rack_before - placed
        state = LeaveState(players, opened_at[index], quiet_at[index],
                           quiet_turn_limit(players, opened_at[index], rules=rules, stall_rounds=stall_rounds))
        found.append(Observed(seat, opponent, turn.number, layout, bytes(cards), bytes(jokers), _counts(pool),
                              len(turn.rack) + (turn.draw is not None), kind, placements,
                              len(action.tiles) if isinstance(action, Return) else 0, box_at[index], state,
                              unseen_now))
    return found


def view_observations(view: View) -> list[Observed | None]:
    """What a player in a game saw of each opponent's last action (:func:`observations`)."""
    return observations(view.history, view.board, view.rack, view.box_size, view.dealt, view.player,
                        view.players, view.layout, rules=view.rules, stall_rounds=view.stall_rounds)


def game_observations(game: Game) -> list[Observed | None]:
    """What the player to move next in ``game`` (before its draw) saw of each opponent's last action."""
    player = game.to_move
    return observations(game.history, game.board, game.racks[player], len(game.box), game.dealt[player], player,
                        game.players, game.layout, rules=game.rules, stall_rounds=game.stall_rounds)


def infer_opponents(found: Sequence[Observed | None], model: LeaveModel | None = None, *,
                    margin: float = MARGIN, seed: int = 0, threads: int = 1) -> list[Inference | None]:
    """The inference of each observed opponent (None where there is nothing to read)."""
    return [None if observed is None else infer(observed, model, margin=margin, seed=seed, threads=threads)
            for observed in found]


AliasTable = tuple[bytes, tuple[float, ...], tuple[int, ...]]


def alias_table(inference: Inference) -> AliasTable | None:
    """Walker's alias table of an inference's leaves (Vose's construction):
    ``(leaves as 53 counts each, keep, alias)``; None when it has no leaves."""
    if not inference.leaves:
        return None
    n = len(inference.leaves)
    counts = inference.counts if len(inference.counts) == n else tuple(_counts(leave) for leave, _ in inference.leaves)
    leaves = b"".join(counts)
    scaled = [probability * n for _, probability in inference.leaves]
    keep = [1.0] * n
    alias = list(range(n))
    small = [i for i, value in enumerate(scaled) if value < 1.0]
    large = [i for i, value in enumerate(scaled) if value >= 1.0]
    while small and large:
        low, high = small.pop(), large.pop()
        keep[low] = scaled[low]
        alias[low] = high
        scaled[high] -= 1.0 - scaled[low]
        (small if scaled[high] < 1.0 else large).append(high)
    return leaves, tuple(keep), tuple(alias)


def deal_tables(inferences: Sequence[Inference | None]) -> tuple[AliasTable | None, ...] | None:
    """The simulation's ``inferred`` argument: an alias table an opponent seat (None: uniform); None when none."""
    tables = tuple(None if inference is None else alias_table(inference) for inference in inferences)
    return tables if any(table is not None for table in tables) else None


__all__ = ["MARGIN", "MAX_LEAVES", "SAMPLES", "Observed", "Inference", "infer", "observations",
           "view_observations", "game_observations", "infer_opponents", "alias_table", "deal_tables"]
