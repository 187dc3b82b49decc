"""The words the server composes, in the player's language (issue 42, "A table players love"): every code the
server can send beside an English line -- Crazy Rummy's refusals and preview reasons, its hints, turn history
and round ends, a Ginny-O game's end, the bot kinds' few words -- has its message in every catalogue (the codes
read from the source), and the view says when the analysis board is open (fair play, one rule)."""

from __future__ import annotations

import ast
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import ginnyo
from ginnyo.players.kinds import KIND_HELP
from ginnyo.web.games.crazy import END_CODES as CRAZY_END_CODES
from ginnyo.web.games.crazy import HISTORY_CODES
from ginnyo.web.games.ginnyo import END_CODES, end_code
from ginnyo.web.http.i18n import LANGUAGES, catalogue
from web_helpers import TestClient, client_of

PACKAGE = Path(ginnyo.__file__).parent
HINT_FUNCTIONS = {"line_words", "advice_steps", "_start"}   # ginnyo.crazy.hints: a hint's lines, not refusals


MOST_POLLS = 600   # views asked while the bots play before the seat (a bound, not a timing)

def _reason_codes(source: Path) -> Iterator[tuple[str, str]]:
    """(function, code) of every ``Reason(text, code, ...)`` in ``source``; a code ``"swap" + suffix`` is read
    as both ``swap`` and ``swap-own`` (the suffixes line_words adds)."""
    tree = ast.parse(source.read_text("utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for call in ast.walk(function):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Reason"):
                continue
            code = call.args[1]
            if isinstance(code, ast.Constant):
                yield function.name, str(code.value)
            elif isinstance(code, ast.Attribute):   # another reason's code passed on (``problem.code``)
                continue
            elif isinstance(code, ast.BinOp) and isinstance(code.left, ast.Constant):
                yield function.name, str(code.left.value)
                yield function.name, str(code.left.value) + "-own"
            else:   # pragma: no cover - a code this reading cannot follow
                yield function.name, ast.unparse(code)
    for node in ast.walk(tree):   # module-level reasons (match.DRAW_FIRST)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "Reason":
            code = node.value.args[1]
            assert isinstance(code, ast.Constant)
            yield "", str(code.value)


def crazy_codes() -> tuple[set[str], set[str]]:
    """The refusal codes and the hint codes of every Reason raised or written in ginnyo/crazy/."""
    refusals: set[str] = set()
    hints: set[str] = set()
    for source in (PACKAGE / "crazy").glob("*.py"):
        for function, code in _reason_codes(source):
            (hints if source.name == "hints.py" and function in HINT_FUNCTIONS else refusals).add(code)
    return refusals, hints


def server_keys() -> set[str]:
    """Every message key a code the server sends asks for."""
    refusals, hints = crazy_codes()
    assert "crazy-draw-first" in refusals and "swap-own" in hints and "keeps" in hints   # the reading works
    keys = {f"js.common.refusal.{code}" for code in refusals} | {f"js.crazy.hint.{code}" for code in hints}
    keys |= {f"js.crazy.history.{code}" for code in HISTORY_CODES} | {f"js.crazy.end.{code}" for code in CRAZY_END_CODES.values()}
    keys |= {f"js.table.end.{code}" for code in END_CODES.values()} | {f"js.lobby.kind-help.{kind}" for kind in KIND_HELP}
    keys |= {f"js.crazy.meld-kind.{kind}" for kind in ("run", "set")}
    return keys


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_code_the_server_sends_has_its_message_in_every_catalogue(language: str) -> None:
    messages = catalogue(language)
    missing = [key for key in sorted(server_keys()) if key not in messages and f"{key}.other" not in messages]
    assert not missing, f"{language}: {missing}"


def test_every_end_reason_of_a_ginnyo_game_reads_as_its_code() -> None:
    assert end_code("player 2 resigned") == ("resigned", {"seat": 2})
    assert end_code("no player played for 3 full rounds") == ("no-play", {"count": 3})
    assert end_code("nobody opened in 2 full rounds") == ("nobody-opened", {"count": 2})
    assert end_code("the box is empty and every player in turn had no play") == ("all-passed", {})


# -- through the API --------------------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as made:
        yield made


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _my_turn(client: TestClient, game: str, token: str) -> dict[str, Any]:
    """The seat's view once it is the seat's turn (the bots before it play in their own threads: an
    action sent meanwhile would meet a newer version, a 409)."""
    for _ in range(MOST_POLLS):
        seen: dict[str, Any] = client.get(f"/api/games/{game}", headers=_bearer(token)).json()
        if seen["turn"] is not None and seen["turn"]["seat"] == seen["seat"]:
            return seen
        time.sleep(0.05)
    raise AssertionError(f"seat {seen['seat']} never got the turn: {seen['turn']}")


def test_a_crazy_refusal_and_preview_reason_carry_the_rules_code(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "crazy", "seats": ["human", "advisor", "advisor"], "seed": 3}).json()
    token = made["seats"][0]["token"]
    seen = _my_turn(client, made["id"], token)
    hand = seen["hand"].split()
    if seen["turn"]["opening"]:
        refused = client.post(f"/api/games/{made['id']}/actions", headers=_bearer(token),
                              json={"action": {"draw": "stock"}, "version": seen["version"]})
        assert refused.status_code == 422 and refused.json()["code"] == "crazy-drawn-already"
    else:
        refused = client.post(f"/api/games/{made['id']}/actions", headers=_bearer(token),
                              json={"action": {"discard": hand[0]}, "version": seen["version"]})
        assert refused.status_code == 422 and refused.json()["code"] == "crazy-draw-first"
    hint = client.post(f"/api/games/{made['id']}/preview", headers=_bearer(token), json={"hint": True}).json()
    refusals, hints = crazy_codes()
    assert hint["steps"] and all(step["code"] in hints for step in hint["steps"])
    assert "others[" not in str(hint["steps"]) and "melds[" not in str(hint["steps"])


def test_the_view_says_analysis_is_open_exactly_when_the_board_is_handed_the_game(client: TestClient) -> None:
    people = client.post("/api/games", json={"seats": ["human", "human"], "seed": 4}).json()
    bots = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 4}).json()
    for made, open_now in ((people, False), (bots, True)):
        token = made["seats"][0]["token"]
        assert client.get(f"/api/games/{made['id']}", headers=_bearer(token)).json()["analysis_open"] is open_now
        answer = client.get(f"/api/games/{made['id']}/analysis", headers=_bearer(token))
        assert (answer.status_code == 200) is open_now
