"""One position's analysis, for every face: the plays by score, the actions by equity, the
solver's move and a simulation's results, as the lines ``ginnyo best-move`` prints and as the JSON
objects both ``best-move --json`` and the web table's analysis board (docs/WEB-ANALYSIS.md) serve.

The plays' JSON is :mod:`ginnyo.position.plays_json`'s; this module adds what an analysis
shows beside it (the tiles of each meld, the candidates' melds, the simulation's statistics)
and the explanations for people, each made here once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

from ..endgame.choice import solver_move
from ..endgame.preendgame import MAX_BOX
from ..equity.leaves import default_model
from ..equity.rank import PLAY, Candidate, candidate_json, candidate_line, leave_state, rank_position
from ..game.actions import Place
from ..vocab.melds import tile_value
from ..vocab.notation import play_notation
from ..vocab.play import MeldScore, ScoredPlay
from ..native import ranked_moves
from ..position.play_groups import grouped
from ..position.plays_json import no_play_json, play_to_json
from ..simulation.rollouts import Z95, SimResult
from ..simulation.session import SimulationSession
from ..support.number_text import number
from ..vocab.tiles import rack_code

if TYPE_CHECKING:
    from ..equity.leaves import LeaveModel, LeaveState
    from ..odds.inference import Inference
    from ..position.context import GameContext
    from ..position.position import Position
    from ..simulation.rollouts import PairedLead, Setup

DIGITS = 3                 # the simulation's statistics, rounded
ENDGAME_SECONDS = 1.0      # the endgame solver's budget in an analysis: the answer stays prompt
PREENDGAME_SECONDS = 5.0   # the pre-endgame solver's: it solves every opponent rack and draw (seconds)
SOLVER_SECONDS = (ENDGAME_SECONDS, PREENDGAME_SECONDS)


# -- plays, for people ---------------------------------------------------------------------------

def meld_formula(position: Position, scored: ScoredPlay, meld: MeldScore) -> str:
    """``(8 + 8 + 8x3) x 2`` — how a meld's score was made."""
    layout = position.layout
    placed = dict(scored.play.placements)
    terms, multiplier = [], 1
    for square in meld.squares:
        if square in placed:
            value = tile_value(placed[square], meld.kind)
            factor = layout.tile_multiplier(square)
            terms.append(f"{value}x{factor}" if factor > 1 else str(value))
            multiplier *= layout.meld_multiplier(square)
    text = " + ".join(terms)
    return f"({text}) x {multiplier}" if multiplier > 1 else text


def describe_play(position: Position, scored: ScoredPlay) -> list[str]:
    """Lines for people: notation, score, then one line per meld touched."""
    name = position.layout.square_name
    placed = dict(scored.play.placements)
    lines = [f"{play_notation(position, scored.play)}  {scored.score} points"]
    lines.append(f"  places  {', '.join(f'{name(s)} {t.code}' for s, t in scored.play.placements)}")
    for meld in scored.melds:
        tiles = " ".join((placed.get(square) or position.board[square]).code for square in meld.squares)
        span = f"{name(meld.squares[0])}-{name(meld.squares[-1])}"
        lines.append(f"  {meld.kind:<4} {span:<8} {tiles:<24} {meld_formula(position, scored, meld)}"
                     f" = {meld.score}")
    return lines


def return_line(position: Position) -> str:
    """What a position without a legal play prints: the tiles to return and why."""
    tiles, reason = position.return_advice()
    if not tiles:
        return f"No legal play: {reason}."
    return f"No legal play. Return {' '.join(rack_code(t) for t in tiles)} to the box: {reason}."


def best_play_lines(position: Position) -> list[str]:
    """``best-move``: the highest-scoring play explained, or what to return."""
    best = position.best_play()
    return describe_play(position, best) if best else [return_line(position)]


def best_play_json(position: Position) -> dict[str, Any]:
    """``best-move --json``: the highest-scoring play, or what to return."""
    best = position.best_play()
    return play_to_json(position, best) if best else no_play_json(position)


# -- plays, as JSON with their tiles -------------------------------------------------------------

def play_json(position: Position, scored: ScoredPlay, board: dict[str, str]) -> dict[str, Any]:
    """A play as ``best-move --json`` writes it, with each meld's tiles, board and placed alike
    (``board``: the position's board as JSON)."""
    play = play_to_json(position, scored)
    for meld in play["melds"]:
        meld["tiles"] = [play["placements"].get(square) or board.get(square) for square in meld["squares"]]
    return play


def candidate_melds(position: Position, candidate: Candidate, board: dict[str, str]) -> list[dict[str, Any]]:
    """The melds a candidate play makes, with their tiles and scores (none for a return or pass)."""
    if candidate.kind != PLAY:
        return []
    action = candidate.action()
    assert isinstance(action, Place)
    melds: list[dict[str, Any]] = play_json(position, position.score(action.play), board)["melds"]
    return melds


def described_candidate(position: Position, candidate: Candidate, board: dict[str, str]) -> dict[str, Any]:
    """A candidate as ``best-move --equity --json`` writes it, with its melds and their tiles."""
    return dict(candidate_json(position, candidate), melds=candidate_melds(position, candidate, board))


# -- the solver ------------------------------------------------------------------------------------

def solver_json(position: Position, context: GameContext, board: dict[str, str],
                seconds: tuple[float, float] = SOLVER_SECONDS) -> dict[str, Any] | None:
    """In a 2-player endgame (the box empty) or pre-endgame (1 to :data:`MAX_BOX` tiles in
    the box), the solver's move as ``best-move --equity --json`` prints it
    (:func:`ginnyo.endgame.choice.solver_move`; ``source`` names the solver), within the
    ``seconds`` of the endgame's or the pre-endgame's budget (``proven`` says whether the
    search ended), with the move's placements and melds; None for any other position."""
    if context.players != 2 or context.box_size > MAX_BOX:
        return None
    endgame_seconds, preendgame_seconds = seconds
    budget = endgame_seconds if context.box_size == 0 else preendgame_seconds
    move = solver_move(position, budget, quiet_turns=context.quiet_turns)
    if move is None:        # neither an endgame nor a pre-endgame the solver takes (an empty rack)
        return None
    played = (play_json(position, position.score(move.action.play), board)
              if isinstance(move.action, Place) else {"placements": {}, "melds": []})
    return dict(move.to_json(), placements=played["placements"], melds=played["melds"])


# -- the analysis board's whole report -----------------------------------------------------------

def position_report(position: Position, context: GameContext, limit: int,
                    solver_seconds: tuple[float, float] = SOLVER_SECONDS) -> dict[str, Any]:
    """A position's analysis: the position as JSON and as a line, the premium squares, the first
    ``limit`` plays by score (grouped: each with its count of ``orderings``) and actions by equity, and in a 2-player endgame or pre-endgame the
    solver's move within ``solver_seconds`` (see :func:`solver_json`; the answer of POST /api/analysis)."""
    data = position.to_dict()
    board = data["board"]
    # the orderings of one set of tiles on the same squares are one row, as ``moves --group`` lists them
    by_score = [dict(play_json(position, position.score(play), board), orderings=count)
                for _, play, count in grouped(ranked_moves(position), limit)]
    ranked = equity_ranking(position, limit)
    return {"position": data, "line": position.to_line(), "layout_grid": list(position.layout.rows),
            "players": context.players, "to_move": context.to_move, "scores": list(context.scores),
            "box": context.box_size, "unseen": len(context.unseen),
            "by_score": by_score, "no_play": None if by_score else no_play_json(position),
            "by_equity": [described_candidate(position, candidate, board) for candidate in ranked],
            "endgame": solver_json(position, context, board, solver_seconds)}


# -- equity ---------------------------------------------------------------------------------------

def equity_ranking(position: Position, limit: int | None, model: LeaveModel | None = None) -> list[Candidate]:
    """The first ``limit`` actions (plays, returns, a pass) by equity = score + leave value, best first:
    the one ranking of ``best-move --equity``, the analysis board and the engine's ``go equity``."""
    return rank_position(position, model or default_model(), limit=limit)


def equity_json(position: Position, shown: Sequence[Candidate]) -> dict[str, Any]:
    """``best-move --equity --json``: the box, the best action and those shown."""
    return {"box": position.game_context.box_size, "best": candidate_json(position, shown[0]),
            "candidates": [candidate_json(position, candidate) for candidate in shown]}


def equity_lines(position: Position, shown: Sequence[Candidate], model: LeaveModel) -> list[str]:
    """``best-move --equity``: the actions shown, ranked, and why the first beats the top score."""
    box_size = position.game_context.box_size
    lines = [f"ranked by equity = score + leave value ({box_size} tiles in the box):"]
    lines += [f"{rank:>2}. {candidate_line(position, candidate)}" for rank, candidate in enumerate(shown, 1)]
    why = why_not_the_top_score(position, shown[0], model, box_size, leave_state(position))
    return lines + [why] if why else lines


def why_not_the_top_score(position: Position, first: Candidate, model: LeaveModel, box_size: int,
                          state: LeaveState) -> str:
    """Why the first by equity beats the highest-scoring play: what each keeps and
    what that is worth (empty when the first is that play or an ordering of it, or
    there is no play)."""
    top = position.best_play()
    if top is None or (first.kind == "play" and first.score == top.score
                       and tuple(sorted(placed[0] for placed in first.placements)) == top.play.squares):
        return ""
    leave = list(position.rack)
    for tile in top.play.tiles_used:
        leave.remove(tile)
    value = model.value(leave, box_size, state)
    kept = " ".join(rack_code(tile) for tile in leave) or "nothing"
    first_kept = " ".join(rack_code(tile) for tile in first.leave) or "nothing"
    how = "returns tiles for new ones and" if first.kind == "return" else f"scores {first.score} and"
    return (f"#1 beats the highest-scoring play, {position.notation(top)} for {top.score}: that would keep "
            f"{kept}, worth {number(value, '+.1f')}, equity {number(top.score + value, '+.1f')}; "
            f"#1 {how} keeps {first_kept}, worth {number(first.leave_value, '+.1f')}")


# -- simulation -----------------------------------------------------------------------------------

def simulation_session(position: Position, rollouts: int, *, candidates: int, plies: int, seed: int,
                       seconds: float | None = None, model: LeaveModel | None = None) -> SimulationSession:
    """``best-move --sim``'s simulation of a static position as a session to drive a block at a time
    (the engine's ``go sim``): the top ``candidates`` by equity, ``rollouts`` rollouts of ``plies`` each
    from ``seed``, each candidate's win probability as ``best-move --sim`` gives it; with the same
    settings the same results, whoever drives it (rollout ``i`` is dealt from ``(seed, i)`` alone)."""
    from ..odds.win_probability import win_chances
    from ..simulation.session import position_setup
    setup = position_setup(position, model or default_model(), candidates=candidates, plies=plies, seed=seed)
    return SimulationSession(setup, rollouts, seconds=seconds, chance=win_chances(position, plies))


def result_json(described: dict[str, Any], result: SimResult) -> dict[str, Any]:
    """A candidate's JSON (``described``) with its simulated mean, standard deviation, 95%
    interval (null until two rollouts make one), share of wins (when played to the end) and win
    probability (as ``best-move --sim`` prints it)."""
    made = result.rollouts > 0
    entry = dict(described, mean=round(result.mean, DIGITS) if made else None,
                 stdev=round(result.stdev, DIGITS) if made else None,
                 ci95=[round(result.low, DIGITS), round(result.high, DIGITS)]
                 if math.isfinite(result.half_width) else None)
    if result.wins is not None:
        entry["wins"] = round(result.wins, 4)
    if made and result.chance is not None:   # the win chance best-move --sim prints
        entry["win_probability"] = round(result.chance, 4)
    return entry


def session_json(session: SimulationSession, described: dict[Candidate, dict[str, Any]]) -> dict[str, Any]:
    """A simulation as the analysis board shows it while it runs: its progress and settings, and
    every candidate (``described``: each candidate's JSON, made once) with its statistics so far."""
    setup = session.setup
    return {"rollouts": session.tally.count, "asked": session.asked, "plies": setup.plies, "seed": setup.seed,
            "policy": setup.policy, "to_end": setup.to_end, "box": setup.context.box_size,
            "candidates": [result_json(described[result.candidate], result) for result in session.results()]}


def described_candidates(position: Position, setup: Setup) -> dict[Candidate, dict[str, Any]]:
    """Each simulated candidate's JSON with its melds (made once a simulation)."""
    board = position.to_dict()["board"]
    return {candidate: described_candidate(position, candidate, board) for candidate in setup.candidates}


def simulation_json(position: Position, setup: Setup, results: Sequence[SimResult], asked: int,
                    inferred: Sequence[Inference | None] | None = None) -> dict[str, Any]:
    """``best-move --sim --json``: the settings, and each candidate with its statistics, win
    probability and the leader's paired lead over it."""
    context = position.game_context
    rollouts = results[0].rollouts if results else 0
    candidates = []
    for result in results:
        entry = result_json(candidate_json(position, result.candidate), result)
        entry["win_probability"] = round(chance_of(result), 4)
        if result.paired is not None and rollouts >= 2:
            entry["paired_lead"] = {"lead": round(result.paired.lead, 4), "se": round(result.paired.error, 4),
                                    "by": "wins" if result.paired.by_wins else "outcome"}
        candidates.append(entry)
    return {"rollouts": rollouts, "asked": asked, "plies": setup.plies, "seed": setup.seed,
            "policy": setup.policy, "box": context.box_size, "unseen": len(context.unseen),
            "to_end": setup.to_end, "endgame_nodes": setup.endgame_nodes,
            **({} if inferred is None else {"inferred": [
                None if inference is None or not inference.leaves else len(inference.leaves)
                for inference in inferred]}),
            "candidates": candidates}


def simulation_lines(position: Position, setup: Setup, results: Sequence[SimResult], asked: int,
                     stop: int | None, seconds: float, z: float) -> list[str]:
    """``best-move --sim``: the settings, each candidate ranked with its win chance, mean,
    interval and the leader's paired lead over it (``z`` standard errors), and what the lead means."""
    context = position.game_context
    rollouts = results[0].rollouts if results else 0
    stopped = f" (stopped early of {asked})" if rollouts < asked else ""
    horizon = "played to the game's end, ranked by wins" if setup.to_end else f"{setup.plies} plies after ours"
    lines = [f"{len(results)} candidates x {rollouts} rollouts{stopped}, {horizon} ({setup.policy}), "
             f"seed {setup.seed}: {len(context.unseen)} tiles unseen, {context.box_size} in the box ({seconds:.2f} s)"
             + ("" if setup.inferred is None else "; opponents' racks dealt from their inferred leaves")]
    for rank, result in enumerate(results, 1):
        wins = f"  {'wins' if result.wins is not None else 'win '} {100 * chance_of(result):5.1f}%"
        interval = f"[{number(result.low, '+.1f')}, {number(result.high, '+.1f')}]"
        lines.append(f"{rank:>2}. {candidate_line(position, result.candidate)} {wins} "
                     f"sim {number(result.mean, '+7.1f')}  95% CI {interval}{lead_text(result.paired, z)}")
    if len(results) > 1 and rollouts > 1:
        test = f"; --stop {stop} stops once every low end is above 0" if stop else " (95%)"
        lines.append(f"lead: #1's paired lead over each on the same deals (in win share where their wins differ) "
                     f"± {z:.2f} standard errors{test}")
    return lines


def stop_z(stop: int | None) -> float:
    """The standard errors a lead is shown with: the ``--stop`` level's, else 95% two-sided."""
    from ..simulation.choices import STOP_LEVELS
    return STOP_LEVELS[stop] if stop else Z95


def lead_text(paired: PairedLead | None, z: float) -> str:
    """A non-leader's column: the leader's paired lead over it and its interval (``z`` standard errors)."""
    if paired is None or not math.isfinite(paired.error):
        return ""
    scale, unit = (100, "%") if paired.by_wins else (1, "")
    lead, half = scale * paired.lead, scale * z * paired.error
    low, high = (number(value, "+.1f") + unit for value in (lead - half, lead + half))
    return f"  lead {number(lead, '+.1f')}{unit} [{low}, {high}]"


def chance_of(result: SimResult) -> float:
    """A result's win probability (the simulation was asked for it)."""
    if result.chance is None:
        raise RuntimeError("the simulation gave no win probability")
    return result.chance


__all__ = ["describe_play", "meld_formula", "return_line", "best_play_lines", "best_play_json", "play_json",
           "candidate_melds", "described_candidate", "solver_json", "position_report", "equity_json",
           "equity_lines", "why_not_the_top_score", "result_json", "session_json", "described_candidates",
           "equity_ranking", "simulation_session", "simulation_json", "simulation_lines", "stop_z", "lead_text", "chance_of",
           "ENDGAME_SECONDS", "PREENDGAME_SECONDS", "SOLVER_SECONDS"]
