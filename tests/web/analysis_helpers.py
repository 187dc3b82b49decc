"""Helpers of the analysis and review tests: an app on a fresh data directory, the CLI's answers
and errors for the same input, and a table game played to its end through the API."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any, Iterator

from ginnyo import Position, rack_code
from ginnyo.cli import main
from ginnyo.commands.serve import web_app
from web_helpers import TestClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHIPPED = sorted(EXAMPLES.glob("*.json"))
# best-move --equity hands a 2-player endgame or pre-endgame to its solver; the analysis board
# answers them with the solver's move too, beside the static ranking (docs/WEB-ANALYSIS.md):
# RANKED_STATICALLY are the examples of neither
ENDGAMES = [path for path in SHIPPED if path.stem in ("endgame", "endgame-short")]
PREENDGAMES = [EXAMPLES / "preendgame.json"]
SOLVED = tuple(path.stem for path in (*ENDGAMES, *PREENDGAMES))
RANKED_STATICALLY = [path for path in SHIPPED if path.stem not in SOLVED]
WAIT_SECONDS = 60.0   # how long a test waits for bots or a simulation before failing (a guard, not a timing)


@contextmanager
def client_of(data: Path) -> Iterator[TestClient]:
    with TestClient(web_app(data), raise_server_exceptions=True) as client:
        yield client


def cli(*argv: str) -> tuple[int, str, str]:
    """``ginnyo ARGV``: its exit status, standard output and standard error."""
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def selfplay_record(folder: Path, seed: int) -> Path:
    """A game of greedy against equity, as ``ginnyo selfplay --records FOLDER --seed SEED`` writes it."""
    status, _, err = cli("selfplay", "--games", "1", "--seed", str(seed), "--workers", "1", "--bots", "greedy,equity",
                         "--records", str(folder))
    assert status == 0, err
    return next(folder.glob("*.jsonl"))


def cli_json(*argv: str) -> Any:
    status, out, err = cli(*argv)
    assert status == 0, err
    return json.loads(out)


def cli_error(*argv: str) -> str:
    """The reason ``ginnyo ARGV`` refuses its input with (after ``ginnyo: error:``)."""
    status, _, err = cli(*argv)
    assert status != 0
    line = err.strip().splitlines()[-1]
    assert line.startswith("ginnyo: error: "), line
    return line[len("ginnyo: error: "):]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(client: TestClient, game: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def best_action(seen: dict[str, Any]) -> str:
    """The highest-scoring play of the seat's view, else a return of the tile best-move names, else a pass."""
    position = Position.from_dict(seen["position"])
    best = position.best_play()
    if best is not None:
        return position.notation(best)
    tile = position.tile_to_return()
    return f"return {rack_code(tile)}" if seen["can_return"] and tile is not None else "pass"


def play_to_end(client: TestClient, game: str, token: str) -> dict[str, Any]:
    """Plays the token's seat by best score until the game is over (the bots move meanwhile)."""
    deadline = time.monotonic() + WAIT_SECONDS * 5
    while True:
        seen = view(client, game, token)
        if seen["finished"]:
            return seen
        if seen["your_turn"]:
            answer = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                                 json={"action": best_action(seen), "version": seen["version"]})
            assert answer.status_code == 200, answer.text
        else:
            time.sleep(0.02)
        assert time.monotonic() < deadline, "the game did not end"


# -- the browser tests ----------------------------------------------------------------------------
def served_game_to_end(server: Any, game: str, token: str) -> dict[str, Any]:
    """Plays the token's seat of a ``ginnyo serve`` game by best score until it is over."""
    deadline = time.monotonic() + WAIT_SECONDS * 5
    while True:
        seen = server.view(game, token)
        if seen["finished"]:
            return dict(seen)
        if seen["your_turn"]:
            server.call("POST", f"api/games/{game}/actions", {"action": best_action(seen), "version": seen["version"]},
                        token=token)
        else:
            time.sleep(0.02)
        assert time.monotonic() < deadline, "the game did not end"


__all__ = ["TestClient", "EXAMPLES", "SHIPPED", "ENDGAMES", "RANKED_STATICALLY", "WAIT_SECONDS", "client_of", "cli", "selfplay_record", "cli_json", "cli_error",
           "bearer", "view", "best_action", "play_to_end", "served_game_to_end"]
