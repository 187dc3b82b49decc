"""Equity beside best play: the compiled equity ranking (ginnycore.equity) against
the core's best play by score on the same positions in the same run, and
equity self-play against greedy self-play in the Python game loop (what
``ginnyo selfplay --bots equity,equity`` and ``--bots greedy,greedy`` play),
and the same in the compiled game loop (ginnyo.selfplay.compiled.loop_games).
The ratios (targets: equity best move at most 5x best play, equity games at
most 3x greedy games) are printed with the summary."""

from __future__ import annotations

from pytest_benchmark.fixture import BenchmarkFixture

from conftest import COUNTS, FACTS, FASTEST, RESULTS, record
from ginnyo import native
from ginnyo.equity.rank import best_action, compiled_model
from ginnyo.players.equity import EquityPlayer
from ginnyo.game.game import Game, play_game
from ginnyo.equity.leaves import default_model
from ginnyo.players.players import GreedyPlayer
from ginnyo.position.position import Position

GAMES = 60
BEST_PLAY = "best play, core per call (corpus)"
EQUITY_CORE = "equity best move, compiled ranking per call (corpus)"
EQUITY_API = "equity best move, ginnyo.equity.best_action (corpus)"
GREEDY_GAMES = "greedy,greedy 2-player games, Python loop (per game)"
EQUITY_GAMES = "equity,equity 2-player games, Python loop (per game)"


def _ratio(name: str, over: str, target: float) -> None:
    """The ratio of two benchmarks' times an item, of the medians and of the
    fastest rounds (other work on a shared machine only slows a round down)."""
    if name in RESULTS and over in RESULTS:
        median = (RESULTS[name] / COUNTS[name]) / (RESULTS[over] / COUNTS[over])
        fastest = (FASTEST[name] / COUNTS[name]) / (FASTEST[over] / COUNTS[over])
        FACTS[f"ratio: {name} / {over}"] = (f"{median:8.2f} x median, {fastest:8.2f} x fastest "
                                            f"(target <= {target:g} x)")


def test_best_play_core_per_call_on_the_corpus(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    cores = [native.core_of(p) for p in corpus]
    benchmark(lambda: [core.best_play() for core in cores])
    record(BEST_PLAY, benchmark, len(cores))


def test_equity_best_move_compiled_per_call(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    from ginnycore.equity import rank_core
    cores = [native.core_of(p) for p in corpus]
    boxes = [p.game_context.box_size for p in corpus]
    model = compiled_model(default_model())
    pairs = list(zip(cores, boxes))
    ranked = benchmark(lambda: [rank_core(core, model, box, True, 1) for core, box in pairs])
    assert all(len(actions) == 1 for actions in ranked)
    record(EQUITY_CORE, benchmark, len(cores))
    _ratio(EQUITY_CORE, BEST_PLAY, 5)


def test_equity_best_move_through_the_api(benchmark: BenchmarkFixture, corpus: list[Position]) -> None:
    cores = [native.core_of(p) for p in corpus]
    jobs = [(core, p.rack, p.game_context.box_size) for core, p in zip(cores, corpus)]
    model = default_model()
    benchmark(lambda: [best_action(core, rack, box, model) for core, rack, box in jobs])
    record(EQUITY_API, benchmark, len(cores))
    _ratio(EQUITY_API, BEST_PLAY, 5)


def _games(players: list[object]) -> int:
    turns = 0
    for seed in range(2026, 2026 + GAMES):
        turns += play_game(Game.deal(2, seed), players).turns_played
    return turns


def test_greedy_games_python_loop(benchmark: BenchmarkFixture) -> None:
    turns = benchmark.pedantic(_games, args=([GreedyPlayer(), GreedyPlayer()],), rounds=5, iterations=1,
                               warmup_rounds=1)
    assert turns > GAMES
    record(GREEDY_GAMES, benchmark, GAMES)


def test_equity_games_python_loop(benchmark: BenchmarkFixture) -> None:
    turns = benchmark.pedantic(_games, args=([EquityPlayer(), EquityPlayer()],), rounds=5, iterations=1,
                               warmup_rounds=1)
    assert turns > GAMES
    record(EQUITY_GAMES, benchmark, GAMES)
    _ratio(EQUITY_GAMES, GREEDY_GAMES, 3)


C_GAMES = 400
C_GREEDY = "greedy,greedy 2-player games, C loop (per game)"
C_EQUITY = "equity,equity 2-player games, C loop (per game)"


def test_greedy_games_c_loop(benchmark: BenchmarkFixture) -> None:
    from ginnyo.selfplay.compiled import loop_games
    result = benchmark.pedantic(loop_games, args=(C_GAMES, ["greedy", "greedy"], 2026), rounds=5, iterations=1)
    assert (result.turns > 0).all()
    record(C_GREEDY, benchmark, C_GAMES)


def test_equity_games_c_loop(benchmark: BenchmarkFixture) -> None:
    from ginnyo.selfplay.compiled import loop_games
    result = benchmark.pedantic(loop_games, args=(C_GAMES, ["equity", "equity"], 2026), rounds=5, iterations=1)
    assert (result.turns > 0).all()
    record(C_EQUITY, benchmark, C_GAMES)
    _ratio(C_EQUITY, C_GREEDY, 3)
