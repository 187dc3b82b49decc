"""The puzzle API (docs/PUZZLES.md, "The page and its API"): the next puzzle never gives its
solution away, an answer is judged by its play and rates the player and the puzzle, the guest
is a cookie."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from web_helpers import TestClient, client_of
from ginnyo.puzzles.solving import ShippedPuzzle, shipped_puzzles
from ginnyo.web.http.puzzles import GUEST_COOKIE

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def attempt(client: TestClient, puzzle: str, action: Any) -> Any:
    return client.post(f"/api/puzzles/{puzzle}/attempt", json={"action": action})


def next_puzzle(client: TestClient, theme: str | None = None) -> dict[str, Any]:
    answer = client.get("/api/puzzles/next", params={"theme": theme} if theme else None)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def shipped(puzzle_id: str) -> ShippedPuzzle:
    return shipped_puzzles()[puzzle_id]


def test_the_next_puzzle_never_gives_its_solution_away(client: TestClient) -> None:
    for _ in range(5):
        puzzle = next_puzzle(client)
        line = shipped(puzzle["id"]).line
        assert {"id", "kind", "position", "themes", "rating"} <= set(puzzle)
        text = str(puzzle)
        assert "solution" not in puzzle and "second" not in puzzle and "margin" not in puzzle
        assert all(notation not in text for notation in line["solution"])
        assert puzzle["position"] == line["position"]


def test_the_first_puzzle_is_near_a_newcomers_rating(client: TestClient) -> None:
    assert next_puzzle(client)["rating"] == 1500   # 120 shipped puzzles start at 1500, a newcomer's rating


def test_a_correct_answer_is_correct_and_raises_the_rating(client: TestClient) -> None:
    puzzle = next_puzzle(client)
    answer = attempt(client, puzzle["id"], shipped(puzzle["id"]).line["solution"][0])
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert result["correct"] is True and result["rated"] is True
    assert result["rating"] > puzzle["player_rating"] and result["puzzle_rating"] < puzzle["rating"]
    assert result["solution"] == shipped(puzzle["id"]).line["solution"]
    assert next_puzzle(client)["player_rating"] == result["rating"]


def test_a_wrong_answer_is_wrong_lowers_the_rating_and_shows_why(client: TestClient) -> None:
    puzzle = next_puzzle(client)
    line = shipped(puzzle["id"]).line
    result = attempt(client, puzzle["id"], line["second"]["notation"]).json()
    assert result["correct"] is False
    assert result["rating"] < puzzle["player_rating"] and result["puzzle_rating"] > puzzle["rating"]
    assert (result["solution"], result["margin"], result["second"]) == (line["solution"], line["margin"],
                                                                        line["second"])


def test_any_ordering_of_the_solution_counts() -> None:
    ordered = [puzzle for puzzle in shipped_puzzles().values() if len(puzzle.line["solution"]) > 1]
    assert ordered
    for puzzle in ordered[:10]:
        assert all(puzzle.solves(notation) for notation in puzzle.line["solution"])


def test_another_ordering_than_the_listed_one_counts_through_the_api(client: TestClient) -> None:
    puzzle = next(puzzle for puzzle in shipped_puzzles().values() if len(puzzle.line["solution"]) > 1)
    result = attempt(client, puzzle.id, puzzle.line["solution"][-1]).json()
    assert result["correct"] is True


def test_a_play_spelled_otherwise_is_judged_by_its_tiles() -> None:
    puzzle = next(puzzle for puzzle in shipped_puzzles().values() if puzzle.line["kind"] == "score")
    start, tiles = puzzle.line["solution"][0].split(" ", 1)
    assert puzzle.solves(f"  {start}   {tiles} ")


def test_an_illegal_or_unreadable_action_is_422_and_no_attempt(client: TestClient) -> None:
    puzzle = next_puzzle(client)
    covered = next(iter(puzzle["position"]["board"]))
    for action in ("nonsense", f"{covered[1:]}{covered[0]} AS", "pass"):
        answer = attempt(client, puzzle["id"], action)
        assert answer.status_code == 422, (action, answer.text)
        assert list(answer.json()) == ["error", "code", "args"] and "\n" not in answer.json()["error"]
    assert next_puzzle(client)["player_rating"] == puzzle["player_rating"]


def test_unknown_puzzle_404_unknown_field_400_and_json_only(client: TestClient) -> None:
    assert attempt(client, "no-such-puzzle", "8H 7C").status_code == 404
    puzzle = next_puzzle(client)["id"]
    answer = client.post(f"/api/puzzles/{puzzle}/attempt", json={"action": "8H 7C", "hint": True})
    assert answer.status_code == 400 and "hint" in answer.json()["error"]
    answer = client.post(f"/api/puzzles/{puzzle}/attempt", content='{"action": "8H 7C"}',
                         headers={"Content-Type": "text/plain"})
    assert answer.status_code == 415
    assert attempt(client, puzzle, 7).status_code == 400


def test_the_theme_filter_gives_only_puzzles_of_the_theme(client: TestClient) -> None:
    for _ in range(4):
        assert "joker" in next_puzzle(client, "joker")["themes"]
    answer = client.get("/api/puzzles/next", params={"theme": "nope"})
    assert answer.status_code == 400 and "theme" in answer.json()["error"]


def test_the_themes_are_counted(client: TestClient) -> None:
    themes = client.get("/api/puzzles/themes").json()["themes"]
    assert themes["endgame"] == sum(1 for puzzle in shipped_puzzles().values() if puzzle.line["kind"] == "endgame")
    assert themes["joker"] == sum(1 for puzzle in shipped_puzzles().values() if "joker" in puzzle.themes)


def test_a_puzzle_answered_is_not_offered_again_soon(client: TestClient) -> None:
    seen = set()
    for _ in range(6):
        puzzle = next_puzzle(client, "double-meld")   # one puzzle holds it
        seen.add(puzzle["id"])
    assert len(seen) == 1
    first = next_puzzle(client)
    attempt(client, first["id"], shipped(first["id"]).line["solution"][0])
    assert all(next_puzzle(client)["id"] != first["id"] for _ in range(8))


def test_a_puzzle_answered_again_is_not_rated_again(client: TestClient) -> None:
    puzzle = next_puzzle(client)
    solution = shipped(puzzle["id"]).line["solution"][0]
    once = attempt(client, puzzle["id"], solution).json()
    again = attempt(client, puzzle["id"], solution).json()
    assert again["correct"] is True and again["rated"] is False and again["rating"] == once["rating"]


def test_the_daily_puzzle_is_the_same_all_day_for_everyone(client: TestClient, tmp_path: Path) -> None:
    first = client.get("/api/puzzles/daily").json()
    assert "solution" not in first and first["daily"] is True
    with client_of(tmp_path / "other") as other:
        assert other.get("/api/puzzles/daily").json()["id"] == first["id"]
    assert client.get("/api/puzzles/daily").json()["id"] == first["id"]


def test_the_daily_puzzle_changes_with_the_day() -> None:
    import datetime
    from ginnyo.puzzles.solving import daily_puzzle
    days = [datetime.date(2027, 1, 1) + datetime.timedelta(days=n) for n in range(10)]
    assert len({daily_puzzle(shipped_puzzles(), day).id for day in days}) > 5


def test_the_guest_is_an_httponly_samesite_cookie_made_once(client: TestClient) -> None:
    answer = client.get("/api/puzzles/next")
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{GUEST_COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "set-cookie" not in client.get("/api/puzzles/next").headers   # kept by the client: not made again
    client.cookies.clear()
    page = client.get("/puzzles")
    assert page.status_code == 200 and GUEST_COOKIE in page.headers["set-cookie"]


def test_two_guests_have_their_own_ratings(client: TestClient, tmp_path: Path) -> None:
    puzzle = next_puzzle(client)
    attempt(client, puzzle["id"], shipped(puzzle["id"]).line["solution"][0])
    client.cookies.clear()
    assert next_puzzle(client)["player_rating"] == 1500


def test_the_preview_judges_a_placement_on_the_puzzle(client: TestClient) -> None:
    puzzle = next(puzzle for puzzle in shipped_puzzles().values() if puzzle.line["kind"] == "score"
                  and "joker" not in puzzle.themes)
    action = puzzle.position.parse(puzzle.line["solution"][0])
    name = puzzle.position.layout.square_name
    placements = {name(square): tile.code for square, tile in action.placements}
    answer = client.post(f"/api/puzzles/{puzzle.id}/preview", json={"placements": placements}).json()
    assert answer["legal"] is True and answer["score"] == puzzle.line["score"]
    answer = client.post(f"/api/puzzles/{puzzle.id}/preview", json={"placements": {"A1": "ZZ"}}).json()
    assert answer["legal"] is False


def test_a_signed_in_account_is_the_player_and_keeps_its_rating_across_browsers(tmp_path: Path) -> None:
    ours = {"Origin": "http://127.0.0.1"}
    with client_of(tmp_path) as first:
        signed = first.post("/api/accounts", json={"name": "Ann", "password": "a long passphrase"}, headers=ours)
        assert signed.status_code == 201, signed.text
        puzzle = next_puzzle(first)
        foreign = first.post(f"/api/puzzles/{puzzle['id']}/attempt",
                             json={"action": shipped(puzzle["id"]).line["solution"][0]},
                             headers={"Origin": "http://evil.example"})
        assert foreign.status_code == 403   # a write signed in by the cookie, from another site
        answer = first.post(f"/api/puzzles/{puzzle['id']}/attempt",
                            json={"action": shipped(puzzle["id"]).line["solution"][0]}, headers=ours)
        assert answer.status_code == 200 and answer.json()["rated"] is True, answer.text
        rating = answer.json()["rating"]
        first.cookies.delete(GUEST_COOKIE)   # another browser of the same account: no guest cookie, same rating
        assert next_puzzle(first)["player_rating"] == rating
        first.delete("/api/session", headers=ours)
        assert next_puzzle(first)["player_rating"] == 1500   # signed out: a new guest
