"""The Ginny-O player kinds that ``selfplay``, ``match`` and ``plot-sim`` take,
each with the few words its help shows: the one list, kept apart from the
players themselves so that building a command's parser imports nothing heavy;
and the shape of what builds a player by kind (:class:`PlayerMaker`)."""

from __future__ import annotations

from typing import Protocol

#: Every player kind, with what it is (docs/FORMAT.md, "Player kinds").
KIND_HELP = {
    "greedy": "the best-scoring play",
    "random": "a random legal play",
    "equity": "score plus leave value",
    "endgame": "equity, solving a 2-player endgame exactly",
    "sim": "simulation, late in the game played to the end and ranked by wins",
    "sim-spread": "the simulation with a fixed horizon and the mean spread throughout",
    "sim-infer": "sim, dealing the opponents' racks from what their last actions say",
    "sim-wp": "sim-spread, ranking late decisions by the win-probability model",
    "level1": "graded strength 1 of 5: by score, finding few of the longer plays",
    "level2": "graded strength 2 of 5: by score, finding most plays",
    "level3": "graded strength 3 of 5: the best score",
    "level4": "graded strength 4 of 5: by equity, missing some long and joker plays",
    "level5": "graded strength 5 of 5: equity with the exact 2-player endgame",
}
PLAYER_KINDS = tuple(KIND_HELP)
#: The simulating kinds: ``sim`` plays late rollouts to the game's end, ranks them
#: by wins and finishes a 2-player rollout's endgame with the solver;
#: ``sim-spread`` is the simulation without these (a fixed horizon, the mean spread);
#: ``sim-infer`` is ``sim`` dealing the opponents' racks from their inferred leaves
#: (ginnyo.odds.inference); ``sim-wp`` is ``sim-spread`` ranking late decisions (at most
#: ``ginnyo.odds.win_probability``'s SIM_CHANCE_BOX tiles in the box) by the win-probability model.
#: (``level1`` to ``level5`` are ginnyo.players.levels' players of graded strength, not sim kinds.)
SIM_KINDS = ("sim", "sim-spread", "sim-infer", "sim-wp")


class PlayerMaker(Protocol):
    """Builds the player of a kind for ``seat`` of the game dealt from ``seed``, as
    :func:`ginnyo.players.players.make_player` does: handed to the code that plays games of
    any kind (``ginnyo.strength.match``), so that it need not import every kind of player."""

    def __call__(self, kind: str, seed: int, seat: int) -> object: ...


def kinds_help(default: str | None = None) -> str:
    """Every kind with its few words, for an option's help: ``greedy (the best-scoring play), ...``;
    ``default`` is marked as such."""
    return ", ".join(f"{kind} ({words}{'; the default' if kind == default else ''})"
                     for kind, words in KIND_HELP.items())


__all__ = ["KIND_HELP", "PLAYER_KINDS", "SIM_KINDS", "PlayerMaker", "kinds_help"]
