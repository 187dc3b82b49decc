"""The Ginny-O player kinds that ``selfplay``, ``match`` and ``plot-sim`` take,
each with the few words its help shows: the one list, kept apart from the
players themselves so that building a command's parser imports nothing heavy."""

from __future__ import annotations

#: Every player kind, with what it is (docs/FORMAT.md, "Player kinds").
KIND_HELP = {
    "greedy": "the best-scoring play",
    "random": "a random legal play",
    "equity": "score plus leave value",
    "endgame": "equity, solving a 2-player endgame exactly",
    "sim": "simulation, late in the game played to the end and ranked by wins",
    "sim-spread": "the simulation with a fixed horizon and the mean spread throughout",
}
PLAYER_KINDS = tuple(KIND_HELP)
#: The simulating kinds: ``sim`` plays late rollouts to the game's end, ranks them
#: by wins and finishes a 2-player rollout's endgame with the solver;
#: ``sim-spread`` is the simulation without these (a fixed horizon, the mean spread).
SIM_KINDS = ("sim", "sim-spread")


def kinds_help(default: str | None = None) -> str:
    """Every kind with its few words, for an option's help: ``greedy (the best-scoring play), ...``;
    ``default`` is marked as such."""
    return ", ".join(f"{kind} ({words}{'; the default' if kind == default else ''})"
                     for kind, words in KIND_HELP.items())


__all__ = ["KIND_HELP", "PLAYER_KINDS", "SIM_KINDS", "kinds_help"]
