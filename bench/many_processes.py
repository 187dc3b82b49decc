"""Moves a second and the p99 of a move's answer with 1, 2 and 4 ``ginnyo serve`` processes on one
PostgreSQL database and one Redis, beside one process on SQLite (docs/PERFORMANCE.md, "Many processes").

Each game is two people's seats (hot seat, no bot: the server's own work a move is measured, not a
bot's); clients, one a process served, spread the games over the processes round-robin and post
moves (return a tile, else pass) as fast as the answers come, each to any process.  A script, not a
pytest-benchmark, so that CI never runs it:

    python bench/many_processes.py --games 100 --moves 2000 --processes 1 2 4
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
from web_client import Connection   # noqa: E402 - beside this script
LINE = re.compile(r"^ginnyo: serving on (http://127\.0\.0\.1:(\d+)/)")


def start(data: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(data),
                                "--max-games", "0", "--games-per-minute", "0", "--previews-per-minute", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = LINE.match(line)
    if match is None:
        raise SystemExit(f"the server did not start: {line!r}")
    return process, match.group(1)


def client(urls: list[str], games: list[tuple[str, list[str]]], moves: int, first: int, result: Any) -> None:
    """Post ``moves`` moves over ``games`` (in turn), game i's through ``urls[(first + i) % len(urls)]``;
    put each move's answer time (seconds) on ``result``."""
    connections = [Connection(url, timeout=120) for url in urls]
    views: dict[str, dict[str, Any]] = {}
    times = []
    for number in range(moves):
        index = number % len(games)
        game, tokens = games[index]
        connection = connections[(first + index + number) % len(connections)]
        view = views.get(game)
        if view is None:
            _, view = connection.call("GET", f"/api/games/{game}", tokens[0])
        if not view["finished"] and view["to_move"] != view["seat"]:   # the other seat's turn: its view
            _, view = connection.call("GET", f"/api/games/{game}", tokens[view["to_move"]])
        token = tokens[view["seat"]]
        if view["finished"]:
            continue
        action = f"return {view['position']['rack'].split()[0]}" if view["can_return"] else "pass"
        began = time.perf_counter()
        status, answer = connection.call("POST", f"/api/games/{game}/actions", token,
                                         {"action": action, "version": view["version"]})
        times.append(time.perf_counter() - began)
        views[game] = answer if status == 200 else {}
        if status != 200:
            views.pop(game, None)
    result.put(times)


def run(label: str, urls: list[str], count: int, moves: int) -> None:
    connection = Connection(urls[0], timeout=120)
    games = []
    for seed in range(count):
        status, made = connection.call("POST", "/api/games", body={"seats": ["human", "human"], "seed": seed})
        assert status == 201, made
        games.append((made["id"], [seat["token"] for seat in made["seats"]]))
    clients = max(2, len(urls))
    result: Any = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=client, args=(urls, games[i::clients], moves // clients, i, result))
               for i in range(clients)]
    began = time.perf_counter()
    for worker in workers:
        worker.start()
    times = sorted(sum((result.get() for _ in workers), []))
    elapsed = time.perf_counter() - began
    for worker in workers:
        worker.join()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print(f"{label:<28} {count:>6} games  {len(times) / elapsed:>7.0f} moves/s  p50 {times[len(times) // 2] * 1000:6.1f} ms"
          f"  p99 {p99:6.1f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000], help="games in progress (each a run)")
    parser.add_argument("--moves", type=int, default=2000, help="moves a run")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4], help="PostgreSQL servers a run")
    args = parser.parse_args()
    import services   # the tests' throw-away PostgreSQL and Redis (tests/web/services.py)
    from ginnyo.web.store import Store
    postgres = services.postgresql.__wrapped__()   # type: ignore[attr-defined]
    redis = services.redis.__wrapped__()   # type: ignore[attr-defined]
    server, broker = next(postgres), next(redis)
    home = Path(tempfile.mkdtemp(prefix="ginnyo-bench-"))
    try:
        for count in args.games:
            process, url = start(home / f"sqlite-{count}")
            try:
                run("1 process, SQLite", [url], count, args.moves)
            finally:
                process.send_signal(signal.SIGTERM)
                process.wait()
            for processes in args.processes:
                database = services.new_database(server)
                Store(database=database, migrate=True).close()
                started = [start(home / f"pg-{count}-{processes}-{i}", "--database", database, "--broker", broker)
                           for i in range(processes)]
                try:
                    run(f"{processes} process(es), PostgreSQL", [url for _, url in started], count, args.moves)
                finally:
                    for process, _ in started:
                        process.send_signal(signal.SIGTERM)
                        process.wait()
    finally:
        for generator in (postgres, redis):
            try:
                next(generator)
            except StopIteration:
                pass
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
