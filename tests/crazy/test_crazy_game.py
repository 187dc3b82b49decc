"""Crazy Rummy turn advisor, whole games, records and the ``ginnyo crazy`` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import FULL_CORPUS
from ginnyo.cli import main
from ginnyo.crazy import reference
from ginnyo.crazy.advisor import best_turn, play_after_draw
from ginnyo.crazy.cards import card_code, parse_cards, points
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.game import PLAYER_KINDS, play_game, record_lines, replay
from ginnyo.crazy.rounds import BOT_KINDS, player_kinds
from ginnyo.crazy.selfplay import run
from ginnyo.crazy.state import load_state

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "crazy"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the advisor -------------------------------------------------------------------------------

def test_advisor_takes_the_discard_that_goes_out() -> None:
    state = load_state(EXAMPLES / "midround.json")
    advice = best_turn(state)
    assert advice.best.source == "discard" and card_code(advice.best.card or 0) == "9H"
    assert advice.best.line is not None and advice.best.line.goes_out


def test_advisor_stock_expectation_is_the_mean_over_unseen_cards() -> None:
    state = load_state(EXAMPLES / "swap.json")
    stock = next(option for option in best_turn(state).options if option.source == "stock")
    unseen = state.unseen()
    assert [o.card for o in stock.outcomes] == unseen
    expected = [reference.held_after_discard([*state.hand, card], state.wild, state.melds, state.others)
                for card in unseen]
    assert [o.held for o in stock.outcomes] == expected
    assert stock.expected_held == pytest.approx(sum(expected) / len(expected))
    assert stock.go_out_chance == pytest.approx(expected.count(0) / len(expected))


def test_advisor_is_deterministic() -> None:
    for path in sorted(EXAMPLES.glob("*.json")):
        state = load_state(path)
        assert best_turn(state) == best_turn(state)


def test_advisor_never_discards_the_card_taken_from_the_pile() -> None:
    state = load_state({"round": 3, "hand": "KS KH 4D 9C", "discard": "KD"})
    line = play_after_draw(state, parse_cards("KD", "x")[0], "discard")
    assert line.discard != parse_cards("KD", "x")[0]


def test_advisor_with_one_card_draws_from_the_stock_and_keeps_the_drawn_card() -> None:
    state = load_state({"round": 3, "hand": "KS", "melds": ["4D 5D 6D"], "discard": "KD"})
    advice = best_turn(state)
    assert [option.source for option in advice.options] == ["stock"]
    seven = parse_cards("7D", "x")[0]
    assert play_after_draw(state, seven, "stock").goes_out          # 7D lays off, KS goes
    queen = parse_cards("QC", "x")[0]
    line = play_after_draw(state, queen, "stock")
    assert line.discard == parse_cards("KS", "x")[0] and line.hand_after == (queen,)
    assert line.held == points(queen, 3)


def test_opening_turn_has_no_draw() -> None:
    advice = best_turn(load_state(EXAMPLES / "opening.json"))
    assert [option.source for option in advice.options] == ["none"]


# -- whole games ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_seeded_game_is_reproducible_and_its_record_replays(players: int) -> None:
    game = play_game(players, 11)
    lines = record_lines(game)
    assert record_lines(play_game(players, 11)) == lines
    assert replay(lines).scores == game.scores
    assert len(game.rounds) == 13


def test_different_seeds_deal_different_games() -> None:
    assert record_lines(play_game(4, 1)) != record_lines(play_game(4, 2))


def test_every_kind_a_seat_may_name_is_a_player_self_play_makes() -> None:
    assert tuple(PLAYER_KINDS) == BOT_KINDS
    assert all(player_kinds(3, [kind]) == (kind,) * 3 for kind in BOT_KINDS)
    with pytest.raises(CrazyError, match="unknown player 'human'"):
        player_kinds(3, ["human"])


def test_replay_names_the_first_wrong_line() -> None:
    lines = record_lines(play_game(3, 4))
    turn = json.loads(lines[2])
    other = next(code for code in ("AC", "2C", "3C") if code != turn["discard"])
    turn["discard"] = other
    tampered = lines[:2] + [json.dumps(turn)] + lines[3:]
    with pytest.raises(CrazyError, match="record line 3"):
        replay(tampered)
    end = next(i for i, line in enumerate(lines) if '"end"' in line)
    data = json.loads(lines[end])
    data["points"][0] += 1
    with pytest.raises(CrazyError, match=f"record line {end + 1}: points"):
        replay(lines[:end] + [json.dumps(data)] + lines[end + 1:])
    with pytest.raises(CrazyError, match="ends too early"):
        replay(lines[:-1])


def changed(lines: list[str], index: int, **fields: object) -> list[str]:
    """The record ``lines`` with fields of line ``index`` (0-based) changed."""
    data = json.loads(lines[index])
    data.update(fields)
    return lines[:index] + [json.dumps(data)] + lines[index + 1:]


def test_replay_re_derives_every_deck_from_the_seed() -> None:
    lines = record_lines(play_game(3, 4))
    deck = json.loads(lines[1])["deck"].split()
    # the deck of another shuffle: every card once, so only the seed tells it is wrong
    with pytest.raises(CrazyError, match="record line 2: deck: card 1 of round 1 is .*, but seed 4 shuffles"):
        replay(changed(lines, 1, deck=" ".join(deck[1:] + deck[:1])))
    with pytest.raises(CrazyError, match="record line 1: field 'seed': missing"):
        replay([json.dumps({k: v for k, v in json.loads(lines[0]).items() if k != "seed"})] + lines[1:])
    # another seed deals none of the record's decks: the header's seed is at fault
    with pytest.raises(CrazyError, match="record line 1: field 'seed': seed 5 deals none of the record's decks"):
        replay(changed(lines, 0, seed=5))


def test_replay_refuses_a_key_given_twice_with_its_line() -> None:
    lines = record_lines(play_game(3, 4))
    twice = lines[2][:-1] + ', "player": 0}'
    with pytest.raises(CrazyError, match="record line 3: malformed JSON: key 'player' appears twice"):
        replay(lines[:2] + [twice] + lines[3:])


@pytest.mark.parametrize(("index", "field", "value"), [
    (0, "players", 3.0), (0, "seed", True), (1, "round", 1.0), (1, "dealer", False),
    (2, "player", None), (2, "round", True),
])
def test_replay_refuses_numbers_that_are_not_whole_numbers(index: int, field: str, value: object) -> None:
    lines = record_lines(play_game(3, 4))
    if value is None:   # the recorded number, written as a float
        value = float(json.loads(lines[index])[field])
    with pytest.raises(CrazyError, match=f"record line {index + 1}: field '{field}': {value!r} is not a whole number"):
        replay(changed(lines, index, **{field: value}))


def test_replay_refuses_end_lines_whose_numbers_are_not_whole_numbers() -> None:
    lines = record_lines(play_game(3, 4))
    end = next(i for i, line in enumerate(lines) if '"end"' in line)
    data = json.loads(lines[end])
    for key in ("points", "scores"):
        with pytest.raises(CrazyError, match=f"record line {end + 1}: field '{key}': .* not a list of whole numbers"):
            replay(changed(lines, end, **{key: [float(v) for v in data[key]]}))
    with pytest.raises(CrazyError, match=f"record line {end + 1}: field 'round': True"):
        replay(changed(lines, end, round=True))
    final = json.loads(lines[-1])
    with pytest.raises(CrazyError, match=f"record line {len(lines)}: final field 'winners'"):
        replay(changed(lines, len(lines) - 1, winners=[float(v) for v in final["winners"]]))


def test_replay_refuses_a_meld_reference_of_true() -> None:
    for seed in range(20):                # the first seeded game with a swap off meld [p, 1]
        lines = record_lines(play_game(3, seed))
        found = [(index, json.loads(line)) for index, line in enumerate(lines)
                 if any(action.get("swap", [None, None])[1] == 1 for action in json.loads(line).get("actions", []))]
        if found:
            break
    index, data = found[0]
    action = next(a for a in data["actions"] if a.get("swap", [None, None])[1] == 1)
    owner = action["swap"][0]
    action["swap"] = [owner, True]
    with pytest.raises(CrazyError, match=rf"record line {index + 1}: meld \[{owner}, True\]: no such meld"):
        replay(lines[:index] + [json.dumps(data)] + lines[index + 1:])


def test_replay_reads_a_record_file_bounded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "crazy", "replay", "/dev/zero")
    assert code == 2 and "larger than a game record may be" in err and err.count("\n") == 1
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b"\xe9\n")
    code, _, err = run_cli(capsys, "crazy", "replay", str(path))
    assert code == 2 and "not a text file" in err and err.count("\n") == 1


def test_selfplay_runs_are_seeded() -> None:
    games = 6 if FULL_CORPUS else 3
    first = run(games, 4, seed=7, kinds=["advisor", "stock", "advisor", "stock"])
    again = run(games, 4, seed=7, kinds=["advisor", "stock", "advisor", "stock"])
    assert first == again and [r.seed for r in first] == list(range(7, 7 + games))
    assert run(1, 4, seed=8, kinds=["advisor", "stock", "advisor", "stock"])[0] == first[1]


# -- the command line ------------------------------------------------------------------------------

@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_best_turn_runs_on_every_shipped_state(capsys: pytest.CaptureFixture[str], example: str) -> None:
    code, out, err = run_cli(capsys, "crazy", "best-turn", str(EXAMPLES / example))
    assert code == 0 and err == "" and "points held" in out
    code, out, err = run_cli(capsys, "crazy", "best-turn", "--json", str(EXAMPLES / example))
    data = json.loads(out)
    assert code == 0 and data["best"]["draw"] in ("stock", "discard", "none")
    assert {"expected_held", "go_out_chance", "line"} <= set(data["best"])


def test_best_turn_human_output_shows_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crazy", "best-turn", str(EXAMPLES / "midround.json"))
    assert code == 0
    assert out.splitlines()[1] == "take 9H from the discard pile: 0 points held"
    assert "  meld 3C 4C 5H=5C 6C" in out and "  discard KS" in out and "goes out" in out


def test_solve_prints_deadwood_and_going_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crazy", "solve", '{"round": 5, "hand": "3C 4C 6C 5H KS 9D 9H 9S"}')
    assert code == 0 and "deadwood 10, 0 points held" in out and "can go out" in out
    code, out, _ = run_cli(capsys, "crazy", "solve", "--json", '{"round": 9, "hand": "4C 5C 6C"}')
    data = json.loads(out)
    assert (data["deadwood"], data["held"], data["can_go_out"]) == (15, 9, False)


def test_state_from_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    text = (EXAMPLES / "midround.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    code, out, _ = run_cli(capsys, "crazy", "best-turn", "--json", "-")
    assert code == 0 and json.loads(out)["best"]["card"] == "9H"


def test_selfplay_and_replay_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "crazy", "selfplay", "--games", "2", "--players", "3", "--seed", "5",
                             "--workers", "1", "--records", str(tmp_path))
    assert code == 0
    assert "2 games of 3 players, seeds 5..6" in out and "rounds ended" in out and "wrote 2 records" in out
    record = tmp_path / "crazy-6.jsonl"
    code, out, _ = run_cli(capsys, "crazy", "replay", str(record))
    assert code == 0 and out.splitlines()[-1].startswith("ok:") and "round 13" in out
    lines = record.read_text().splitlines()
    deals = [index for index, line in enumerate(lines) if '"deck"' in line]
    second = json.loads(lines[deals[1]])   # round 2: the deal passed one seat left
    assert second["dealer"] == (json.loads(lines[deals[0]])["dealer"] + 1) % 3
    second["dealer"] = (second["dealer"] + 1) % 3
    lines[deals[1]] = json.dumps(second)
    record.write_text("\n".join(lines))
    code, out, err = run_cli(capsys, "crazy", "replay", str(record))
    assert code == 2 and f"crazy-6.jsonl line {deals[1] + 1}" in err and "passes left" in err
    assert err.count("\n") == 1


def test_crazy_help_and_top_level_listing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["crazy", "--help"])
    assert raised.value.code == 0 and "best-turn" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "crazy" in capsys.readouterr().out


def test_ginny_o_commands_do_not_import_crazy_rummy() -> None:
    code = ("import sys; from ginnyo.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if 'crazy' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_solver_modules_example_holds() -> None:
    import doctest

    import ginnyo.crazy.solver
    assert doctest.testmod(ginnyo.crazy.solver).failed == 0


def test_replay_stops_at_an_older_rank_only_set_wild_that_could_mean_two_cards() -> None:
    lines = record_lines(play_game(3, 0))
    assert replay(lines).scores == play_game(3, 0).scores
    for index, line in enumerate(lines):   # the first 3-card set with a wild: its wild names the rank only
        for action in json.loads(line).get("actions", []):
            codes = str(action.get("meld", "")).split()
            if len(codes) == 3 and len({code.split("=")[-1][0] for code in codes}) == 1 and "=" in action["meld"]:
                old = " ".join(code[:-1] if "=" in code else code for code in codes)   # 5H=7S -> 5H=7
                lines[index] = line.replace(action["meld"], old)
                with pytest.raises(CrazyError, match=rf"record line {index + 1}: meld: .* must name the card"):
                    replay(lines)
                return
    raise AssertionError("no set with a wild in the game of seed 0")
