"""The memory a game in play takes in ``ginnyo serve`` (issue 40; docs/WEB.md, "Limits"): a real server
on a fresh data directory, its resident memory (Linux's /proc/PID/status VmRSS) read before and after
making N games through the API, and again after a restart that loads them all from the database.

    PYTHONPATH=python:src python bench/web_memory.py [N] [SEATS...]   # default: 2000 human human
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time

import httpx

LINE = re.compile(r"serving on (http://[^ ]+)")


def resident_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start(data: str) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", data,
                               "--games-per-minute", "0", "--previews-per-minute", "0", "--max-games", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    match = LINE.search(server.stdout.readline())
    assert match, "the server did not start"
    return server, match.group(1)


def settled(pid: int) -> int:
    time.sleep(1.0)
    return resident_kib(pid)


def main(count: int, seats: list[str]) -> None:
    with tempfile.TemporaryDirectory() as data:
        server, url = start(data)
        try:
            with httpx.Client(base_url=url, timeout=60) as client:
                client.get("/api/health")
                empty = settled(server.pid)
                for seed in range(count):
                    answer = client.post("/api/games", json={"seats": seats, "seed": seed})
                    assert answer.status_code == 201, answer.text
                made = settled(server.pid)
        finally:
            server.terminate()
            server.wait(60)
        server, url = start(data)
        try:
            loaded = settled(server.pid)
        finally:
            server.terminate()
            server.wait(60)
    print(f"{count} games of {' '.join(seats)}: {empty / 1024:.0f} MiB empty, {made / 1024:.0f} MiB after making "
          f"them ({(made - empty) / count:.1f} KiB a game), {loaded / 1024:.0f} MiB after a restart loading them "
          f"({(loaded - empty) / count:.1f} KiB a game)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=2000, help="the games to make (default 2000)")
    parser.add_argument("seats", nargs="*", default=["human", "human"], help="their seat kinds (default: human human)")
    arguments = parser.parse_args()
    main(arguments.count, arguments.seats)
