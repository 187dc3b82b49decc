"""Players: a :class:`~ginnyo.game.View` in, an action out.

A player is any object with a ``name`` and a ``choose(view)`` method (the
:class:`Player` protocol).  Here are :class:`GreedyPlayer` (the best-scoring
play) and :class:`RandomPlayer` (a uniformly random legal play); the equity
player (score + leave value) is :class:`ginnyo.players.EquityPlayer` (kind
``equity``; kind ``endgame`` also solves 2-player endgames exactly) and the
simulating one :class:`ginnyo.players.SimPlayer`.  :func:`make_player`
builds them all by name.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..game.actions import PASS, Action, Place, Return
from ..game.game import View
from ..native import to_play
from .kinds import PLAYER_KINDS, SIM_KINDS   # the one list, re-exported here
from ..vocab.rules import tile_to_return


class Player(Protocol):
    name: str

    def choose(self, view: View) -> Action:
        """The action for the turn ``view`` shows (8 tiles on the rack while the box lasts)."""
        ...


def no_play_action(view: View) -> Action:
    """What a player without a play does: return :func:`ginnyo.vocab.rules.tile_to_return`'s
    tile (the one ``best-move`` names, a joker from a rack of only jokers), or
    pass when the box is empty."""
    returned = tile_to_return(view.rack) if view.box_size else None
    return PASS if returned is None else Return((returned,))


class GreedyPlayer:
    """Plays the highest-scoring play (ties as ``best-move`` breaks them)."""

    name = "greedy"

    def choose(self, view: View) -> Action:
        found = view.core().best_play()
        if found is None:
            return no_play_action(view)
        return Place(to_play(found[1]))


class RandomPlayer:
    """Plays a uniformly random legal play; without one, returns a random non-empty
    handful of tiles (one to all), or passes when the box is empty."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Action:
        # sorted, so that the choice does not depend on the core's generation order
        plays = sorted(view.core().legal_plays())
        if plays:
            return Place(to_play(self.rng.choice(plays)[1]))
        if not view.box_size:
            return PASS
        count = self.rng.randint(1, len(view.rack))
        return Return(tuple(sorted(self.rng.sample(view.rack, count))))


class RandomOrBestPlayer:
    """Half the time a random legal play, otherwise the best: the mix that draws
    the test corpus.  It shares the game's generator (``Game.rng``) and picks
    from the plays sorted, so that the corpus does not depend on the order in
    which the core generates them."""

    name = "random-or-best"

    def __init__(self, rng: random.Random, random_share: float = 0.5) -> None:
        self.rng = rng
        self.random_share = random_share

    def choose(self, view: View) -> Action:
        core = view.core()
        plays = sorted(core.legal_plays())
        if not plays:
            return no_play_action(view)
        if self.rng.random() < self.random_share:
            return Place(to_play(self.rng.choice(plays)[1]))
        best = core.best_play()
        assert best is not None, "legal plays but no best play"
        return Place(to_play(best[1]))




#: The rollouts a sim kind given a think-time budget runs at most: as many as the budget allows.
THINK_ROLLOUTS = 1 << 16


def make_player(kind: str, seed: int, seat: int, *, seconds: float | None = None) -> Player:
    """A player of ``kind`` (one of :data:`PLAYER_KINDS`) for ``seat`` of the game
    dealt from ``seed``; a random player's choices are seeded from both.  With
    ``seconds``, a sim kind thinks that long a decision (up to
    :data:`THINK_ROLLOUTS` rollouts) instead of its fixed number of rollouts."""
    if kind == "greedy":
        return GreedyPlayer()
    if kind == "random":
        return RandomPlayer(random.Random(f"ginnyo player {seed} {seat}"))
    if kind in ("equity", "endgame"):   # score plus leave value (ginnyo.equity); endgame: solved exactly
        from .equity import EquityPlayer
        return EquityPlayer(endgame=kind == "endgame")
    if kind in SIM_KINDS:  # Monte Carlo simulation of the top equity candidates (ginnyo.simulation)
        from .simulation import SimPlayer, hash_seed, sim_extras, sim_options
        late_box, endgame_nodes = sim_options(kind)
        infer, chance_box = sim_extras(kind)
        if seconds is None:
            return SimPlayer(seed=hash_seed(f"ginnyo sim {seed} {seat}"), late_box=late_box,
                             endgame_nodes=endgame_nodes, infer=infer, chance_box=chance_box)
        return SimPlayer(seed=hash_seed(f"ginnyo sim {seed} {seat}"), late_box=late_box, endgame_nodes=endgame_nodes,
                         infer=infer, chance_box=chance_box, rollouts=THINK_ROLLOUTS, seconds=seconds)
    if kind.startswith("level") and kind in PLAYER_KINDS:   # graded strength (ginnyo.players.levels)
        from .levels import make_level
        return make_level(kind, seed, seat)
    raise ValueError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")


__all__ = ["Player", "GreedyPlayer", "RandomPlayer", "RandomOrBestPlayer", "make_player",
           "no_play_action", "PLAYER_KINDS", "SIM_KINDS", "THINK_ROLLOUTS"]
