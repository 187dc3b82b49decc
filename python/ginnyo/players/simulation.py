"""The simulating player: the top equity candidates played forward against
sampled racks (:mod:`ginnyo.simulation`), the best mean outcome taken; the
exact endgame solver's move once a 2-player game's box is empty.  And the same
simulation of a static position with the odds (:func:`simulate_with_odds`,
``best-move --sim``): each candidate's win probability, the opponents' racks
inferred from their last actions."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from ..endgame.choice import endgame_action
from ..equity.leaves import LeaveModel, default_model
from ..equity.rank import leave_state, rank_actions
from ..simulation.choices import DEFAULT_POLICY, LATE_BOX, POLICIES, ROLLOUT_ENDGAME_NODES
from ..simulation.rollouts import (DEFAULT_CANDIDATES, DEFAULT_MARGIN, DEFAULT_PLIES, DEFAULT_ROLLOUTS, setup_for,
                                   top_candidates)
from ..simulation.session import simulate, simulate_position

if TYPE_CHECKING:
    from ..game.actions import Action
    from ..game.game import View
    from ..odds.inference import Inference, Observed
    from ..position.position import Position
    from ..simulation.rollouts import Setup, SimResult


class SimPlayer:
    """Simulates the top equity candidates and takes the best mean outcome.

    ``rollouts`` deals a decision, ``candidates`` at most, within ``margin``
    points of equity of the best (a lone candidate is taken without simulating),
    ``plies`` turns after ours, the rollout players choosing by ``policy``;
    with at most ``late_box`` tiles in the box (negative: never) the rollouts
    play to the game's end and the candidates are ranked by wins, and a
    2-player rollout whose box runs empty is finished by the endgame solver
    within ``endgame_nodes`` nodes (0: played on by the policy).  Once a
    2-player game's box is empty it plays the endgame solver's move instead.
    With ``infer``, each opponent's rack is dealt from what its last action
    says of the tiles it kept (:mod:`ginnyo.odds.inference`, ``infer_samples``
    racks judged when there are too many to judge all).  With at most
    ``chance_box`` tiles in the box (negative: never) and a fixed horizon, the
    candidates are ranked by the win probability of their outcomes
    (:func:`ginnyo.odds.win_probability.outcome_chances`) instead of the mean.
    Decision ``t`` of a game is seeded from ``(seed, t)``, so a game is
    reproducible; with ``seconds`` (a think-time budget) the rollouts also stop
    once it is spent, and where they stop depends on the machine."""

    name = "sim"

    def __init__(self, seed: int = 0, rollouts: int = DEFAULT_ROLLOUTS, candidates: int = DEFAULT_CANDIDATES,
                 plies: int = DEFAULT_PLIES, margin: float = DEFAULT_MARGIN, model: LeaveModel | None = None,
                 policy: str = DEFAULT_POLICY, late_box: int = LATE_BOX,
                 endgame_nodes: int = ROLLOUT_ENDGAME_NODES, seconds: float | None = None,
                 infer: bool = False, infer_samples: int = 400, chance_box: int = -1) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        self.seed = seed
        self.rollouts = rollouts
        self.candidates = candidates
        self.plies = plies
        self.margin = margin
        self.model = model or default_model()
        self.policy = policy
        self.late_box = late_box
        self.endgame_nodes = endgame_nodes
        self.seconds = seconds
        self.infer = infer
        self.infer_samples = infer_samples
        self.chance_box = chance_box

    def choose(self, view: View) -> Action:
        solved = endgame_action(view)
        if solved is not None:
            return solved
        core = view.core()
        ranked = rank_actions(core, view.rack, view.box_size, self.model, limit=max(self.candidates, 1),
                              state=leave_state(view))
        chosen = top_candidates(ranked, self.candidates, self.margin)
        if len(chosen) <= 1 or self.rollouts < 1:
            return ranked[0].action()
        setup = setup_for(view, chosen, self.plies, self.seed * 1000 + view.turn, self.model, self.policy,
                           self.late_box, self.endgame_nodes)
        if self.infer:
            from dataclasses import replace

            from ..odds.inference import deal_tables, infer, view_observations
            found = view_observations(view)
            tables = deal_tables([None if observed is None else
                                  infer(observed, self.model, samples=self.infer_samples, seed=setup.seed)
                                  for observed in found])
            setup = replace(setup, inferred=tables)
        chance = None
        if 0 <= view.box_size <= self.chance_box and not setup.to_end:
            from ..odds.win_probability import default_model as win_model, leads_of, outcome_chances
            chance = outcome_chances(win_model(), view.players, leads_of(view.scores, view.player), view.box_size,
                                     self.plies)
        return simulate(setup, self.rollouts, seconds=self.seconds, chance=chance,
                        rank_by_chance=chance is not None)[0].candidate.action()


def simulate_with_odds(position: Position, rollouts: int, model: LeaveModel, *,
                       observed: Sequence[Observed | None] | None = None, plies: int = DEFAULT_PLIES,
                       seed: int = 0, threads: int = 1, **settings: Any
                       ) -> tuple[Setup, list[SimResult], list[Inference | None] | None]:
    """``best-move --sim``: :func:`ginnyo.simulation.simulate_position` of a static
    position (``settings``: its other keywords) with each candidate's win probability
    (:func:`ginnyo.odds.win_probability.outcome_chances`); with ``observed`` (each
    opponent's last action, :func:`ginnyo.odds.inference.observations`) the
    opponents' racks dealt from what those actions say they kept.  The setup, the
    results best first, and the inferences (None without ``observed``)."""
    from ..odds.inference import deal_tables, infer_opponents
    from ..odds.win_probability import win_chances
    inferred = None if observed is None else infer_opponents(observed, model, seed=seed, threads=threads)
    chance = win_chances(position, plies)
    setup, results = simulate_position(position, rollouts, model, plies=plies, seed=seed, threads=threads,
                                       inferred=None if inferred is None else deal_tables(inferred), chance=chance,
                                       **settings)
    return setup, results, inferred


def sim_options(kind: str) -> tuple[int, int]:
    """The ``late_box`` and ``endgame_nodes`` of a sim kind's :class:`~ginnyo.players.SimPlayer`."""
    return (-1, 0) if kind in ("sim-spread", "sim-wp") else (LATE_BOX, ROLLOUT_ENDGAME_NODES)


def sim_extras(kind: str) -> tuple[bool, int]:
    """The ``infer`` and ``chance_box`` of a sim kind's :class:`~ginnyo.players.SimPlayer`."""
    if kind == "sim-wp":
        from ..odds.win_probability import SIM_CHANCE_BOX
        return False, SIM_CHANCE_BOX
    return kind == "sim-infer", -1


def hash_seed(text: str) -> int:
    """A 63-bit seed from text, the same in every process (unlike ``hash``)."""
    return random.Random(text).getrandbits(63)


__all__ = ["SimPlayer", "simulate_with_odds", "sim_options", "sim_extras", "hash_seed"]
