"""One home for each rule and constant (issue 18, item 4): ginnyo.vocab.rules reads the
compiled ginnycore.rules, no other module defines them again, and the players,
the simulation, the compiled loop and best-move choose the tile to return and
rank plays with the same function."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

import ginnyo
from ginnycore import rules as compiled
from ginnyo.vocab import rules
from ginnyo.game.actions import PASS, Return
from ginnyo.equity.rank import PLAY, Candidate, rank_actions
from ginnyo.errors import RecordError
from ginnyo.game.game import Box, Game
from ginnyo.equity.leaves import FEATURES, STAGES, LeaveModel
from ginnyo.native import core_of
from ginnyo.vocab.play import Play, ScoredPlay, play_rank_key
from ginnyo.players.players import GreedyPlayer, no_play_action
from ginnyo.game.records import parse_record, record_text, replay
from ginnyo.vocab.tiles import JOKER, NUM_CARDS, PlacedTile, parse_rack_tile, rack_code, rack_penalty

from helpers import position
from simulation_reference import choose

PACKAGE = Path(ginnyo.__file__).resolve().parent
SOURCES = Path(compiled.__file__).resolve().parent
NUMBERS = ("RACK_SIZE", "STALL_ROUNDS", "OPENING_GUARD_ROUNDS", "RULES_VERSION", "MIN_PLAYERS", "MAX_PLAYERS",
           "JOKERS_PER_SET", "MAX_STALL_ROUNDS")
FUNCTIONS = ("sets_for", "tile_set", "draw_strength", "quiet_turn_limit", "quiet_end_reason", "tile_to_return",
             "check_rules", "play_rank_key", "rack_penalty")


def tiles(codes: str) -> list[int]:
    return [parse_rack_tile(code) for code in codes.split()]


# -- one definition ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NUMBERS)
def test_each_number_is_the_compiled_rules_value(name: str) -> None:
    assert getattr(rules, name) == getattr(compiled, name)
    assert type(getattr(rules, name)) is int


def test_the_numbers_are_those_of_docs_rules() -> None:
    assert (rules.RACK_SIZE, rules.STALL_ROUNDS, rules.OPENING_GUARD_ROUNDS, rules.RULES_VERSION) == (7, 3, 20, 2)
    assert (rules.MIN_PLAYERS, rules.MAX_PLAYERS, rules.JOKERS_PER_SET) == (2, 4, 2)


def python_definitions(name: str) -> list[str]:
    """The modules of python/ginnyo that assign ``name`` or define a function of that name."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            elif isinstance(node, ast.FunctionDef) and node.name == name and node.col_offset == 0:
                found.append(path.relative_to(PACKAGE).as_posix())
            if any(isinstance(target, ast.Name) and target.id == name for target in targets):
                found.append(path.relative_to(PACKAGE).as_posix())
    return found


@pytest.mark.parametrize("name", NUMBERS + FUNCTIONS)
def test_python_defines_each_rule_once(name: str) -> None:
    home = {"rack_penalty": "vocab/tiles.py", "play_rank_key": "vocab/play.py"}.get(name, "vocab/rules.py")
    assert python_definitions(name) == [home]


@pytest.mark.parametrize("name", NUMBERS + ("sets_for", "rack_penalty", "draw_strength", "quiet_turn_limit",
                                           "rack_tile_to_return"))
def test_the_compiled_core_defines_each_rule_once(name: str) -> None:
    """Only rules.pxd/rules.pyx define them; the loops cimport them."""
    definition = re.compile(rf"^\s*(cp?def\s+[\w\s*]*\b{name}\s*\(|{name}\s*=)", re.MULTILINE)
    found = sorted(path.name for path in SOURCES.glob("*.p[xy][dx]")
                   if definition.search(path.read_text(encoding="utf-8")))
    assert found and set(found) <= {"rules.pxd", "rules.pyx"}, found


def test_old_homes_hand_out_the_same_rules() -> None:
    from ginnyo.game import game
    from ginnyo.simulation import rollouts as simulation
    assert game.RACK_SIZE == rules.RACK_SIZE and game.sets_for is rules.sets_for
    assert game.quiet_turn_limit is rules.quiet_turn_limit and game.tile_set is rules.tile_set
    from ginnyo.position import context
    assert simulation.GameContext is context.GameContext
    assert not hasattr(simulation, "RACK_SIZE") or simulation.RACK_SIZE is rules.RACK_SIZE


# -- the rule functions ------------------------------------------------------------------------------

def test_penalty_of_every_tile_is_the_same_in_python_and_the_core() -> None:
    assert [rack_penalty(tile) for tile in range(JOKER + 1)] == [compiled.rack_penalty(t) for t in range(JOKER + 1)]
    assert [rack_penalty(tile) for tile in tiles("AS KD TC 9H 2C *")] == [15, 10, 10, 9, 2, 0]


def test_sets_for_two_players_is_one_set_and_for_three_or_four_two() -> None:
    assert [rules.sets_for(players) for players in (2, 3, 4)] == [1, 2, 2]


@pytest.mark.parametrize("players", [1, 5, True, 2.0, "2", 10**30, -(10**30)])
def test_sets_for_another_number_of_players_is_a_value_error(players: object) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        rules.sets_for(players)  # type: ignore[arg-type]


def test_tile_set_holds_every_card_per_set_and_two_jokers_per_set() -> None:
    for sets in (1, 2):
        every = rules.tile_set(sets)
        assert len(every) == sets * (NUM_CARDS + rules.JOKERS_PER_SET)
        assert every.count(JOKER) == 2 * sets and every.count(0) == sets


def test_draw_strength_ace_high_joker_low() -> None:
    assert [rules.draw_strength(tile) for tile in tiles("AS KD 2C TH *")] == [14, 13, 2, 10, 0]


@pytest.mark.parametrize("tile", [-1, 53, 10**30, "AS", None, 1.0])
def test_draw_strength_of_no_tile_is_a_value_error(tile: object) -> None:
    with pytest.raises(ValueError, match="tile"):
        rules.draw_strength(tile)  # type: ignore[arg-type]


def test_quiet_turn_limit_stall_once_opened_guard_before_and_rules_1_always_stall() -> None:
    assert rules.quiet_turn_limit(3, True) == rules.STALL_ROUNDS * 3
    assert rules.quiet_turn_limit(3, False) == rules.OPENING_GUARD_ROUNDS * 3
    assert rules.quiet_turn_limit(2, False, rules=1, stall_rounds=5) == 10


@pytest.mark.parametrize("stall_rounds", [0, -3, 10**30, 2.5, True])
def test_a_game_with_no_whole_stall_clock_is_a_value_error(stall_rounds: object) -> None:
    with pytest.raises(ValueError, match="stall_rounds"):
        Game.deal(2, 1, stall_rounds=stall_rounds)  # type: ignore[arg-type]


def test_a_record_with_a_huge_stall_clock_is_refused_naming_the_field() -> None:
    game = Game.deal(2, 4)
    text = record_text(game, ("greedy", "greedy")).replace('"stall_rounds": 3', '"stall_rounds": ' + "9" * 40)
    assert "9" * 40 in text
    with pytest.raises(RecordError, match="field 'stall_rounds'"):
        replay(parse_record(text))


# -- the tile to return: one function for the players, the simulation, the loop and best-move ------

RANDOM_RACKS = [random.Random(f"rack {i}").sample(rules.tile_set(2), random.Random(i).randint(1, 8))
                for i in range(300)]


def counts(rack: list[int]) -> bytes:
    held = bytearray(JOKER + 1)
    for tile in rack:
        held[tile] += 1
    return bytes(held)


def test_tile_to_return_costs_most_ties_to_the_lowest_card_and_keeps_jokers() -> None:
    assert rules.tile_to_return(tiles("2C KD AS * AH")) == parse_rack_tile("AH")   # aces: hearts before spades
    assert rules.tile_to_return(tiles("KD QH JC")) == parse_rack_tile("JC")     # all 10: clubs first
    assert rules.tile_to_return(tiles("* *")) == JOKER
    assert rules.tile_to_return([]) is None


@pytest.mark.parametrize("rack", RANDOM_RACKS[:5] + [[JOKER], []], ids=str)
def test_the_compiled_loop_returns_the_tile_python_returns(rack: list[int]) -> None:
    expected = rules.tile_to_return(rack)
    assert compiled.tile_to_return(counts(rack)) == (-1 if expected is None else expected)


def test_best_move_names_the_tile_the_players_return() -> None:
    """Position.return_advice (best-move's advice) names rules.tile_to_return's tile; on a
    rack of only jokers it advises a pass, the box being unknown (docs/RULES.md §6)."""
    for rack in RANDOM_RACKS:
        named, _ = position({}, " ".join(rack_code(tile) for tile in rack), sets=2).return_advice()
        choice = rules.tile_to_return(rack)
        assert named == ([] if choice == JOKER else [choice]), rack


NO_PLAY_RACK = "2C 7D KH AS 9S"   # no meld can be laid on an empty board from these


def test_the_simulation_returns_the_tile_of_the_rule() -> None:
    """The Python rollouts' greedy turn (the compiled rollouts agree with them:
    tests/simulation/test_simulation_core.py) returns the tile of ginnyo.vocab.rules.tile_to_return."""
    rack = tiles(NO_PLAY_RACK)
    core = core_of(position({}, NO_PLAY_RACK))
    assert choose(core, rack, 10, "greedy", LeaveModel(())) == (0, (), (parse_rack_tile("AS"),))
    assert choose(core, rack, 0, "greedy", LeaveModel(())) == (0, (), ())


def test_the_greedy_player_returns_the_tile_of_the_rule_and_passes_on_an_empty_box() -> None:
    racks = [tiles("2C 7D KH AS 9S 4D 6H"), tiles("3C 8D QH 5S JD 2H 9C")]
    game = Game(2, [list(rack) for rack in racks], Box(tiles("KS QC"), random.Random(0)), 0)
    view = game.begin_turn()
    returned = rules.tile_to_return(view.rack)
    assert returned == parse_rack_tile("AS")
    assert GreedyPlayer().choose(view) == no_play_action(view) == Return((returned,))
    empty = Game(2, [list(rack) for rack in racks], Box([], random.Random(0)), 0)
    assert no_play_action(empty.begin_turn()) == PASS


# -- the ranking of plays ------------------------------------------------------------------------------

def test_equity_and_scored_plays_rank_equal_scores_the_same_real_tile_before_joker() -> None:
    # the same square: a real 7S against a joker standing for 7C (card 6 < 45, but real comes first)
    real = ((40, parse_rack_tile("7S"), False), (41, parse_rack_tile("8S"), True))
    joker = ((40, parse_rack_tile("7C"), True), (41, parse_rack_tile("8S"), False))
    scored = [ScoredPlay(Play.of((s, PlacedTile(c, j)) for s, c, j in p), 7, ()) for p in (joker, real)]
    candidates = [Candidate(PLAY, 7, (), 0.0, p) for p in (joker, real)]
    assert [s.play for s in sorted(scored, key=ScoredPlay.sort_key)][0] == scored[1].play
    assert sorted(candidates, key=Candidate.sort_key)[0].placements == real
    assert play_rank_key(7, real) < play_rank_key(7, joker)


def test_equity_ranks_a_position_s_plays_as_best_move_and_the_core_do() -> None:
    """With every leave worth 0, the equity order of the plays is best-move's order,
    and its first play the core's best play."""
    pos = position({}, "7S 7H *")
    core = core_of(pos)
    zero = LeaveModel(tuple(tuple(0.0 for _ in FEATURES) for _ in STAGES))
    by_equity = [c.placements for c in rank_actions(core, pos.rack, 0, zero) if c.kind == PLAY]
    scored = list(pos.legal_plays)
    by_best_move = [tuple((square, tile[0], tile[1]) for square, tile in s.play.placements) for s in scored]
    assert by_equity == by_best_move
    best = core.best_play()
    assert best is not None and by_equity[0] == best[1]
    # the position has the ties the old equity key broke the other way: a real
    # tile and a joker of a lower card on one square, all else equal
    assert any(a.score == b.score and a.play.jokers_used == b.play.jokers_used and len(a.play) == len(b.play)
               and _real_before_lower_joker(a, b) for a, b in zip(scored, scored[1:]))


def _real_before_lower_joker(first: ScoredPlay, second: ScoredPlay) -> bool:
    for (square, tile), (other_square, other) in zip(first.play.placements, second.play.placements):
        if (square, tile) != (other_square, other):
            return square == other_square and not tile.joker and other.joker and tile.card > other.card
    return False


# -- the compiled loop's end codes -------------------------------------------------------------------

def test_each_end_code_of_the_compiled_loop_has_its_words() -> None:
    from ginnycore import selfplay
    from ginnyo.selfplay.compiled import end_reason
    codes = [selfplay.END_BOX_EMPTY_ALL_PASSED, selfplay.END_NO_PLAY_FOR_ROUNDS, selfplay.END_TURN_LIMIT,
             selfplay.END_NOBODY_OPENED]
    words = [end_reason(code) for code in codes]
    assert len(set(codes)) == 4 and len(set(words)) == 4 and "not over" not in words
    assert words[0] == rules.BOX_EMPTY_AND_ALL_PASSED
    assert words[1] == rules.quiet_end_reason(True) and words[3] == rules.quiet_end_reason(False)
    assert end_reason(0) == "not over"


@pytest.mark.parametrize("value", [-1, JOKER + 1, 2**31 - 1, -(2**31)])
def test_the_compiled_rules_give_a_number_for_any_int(value: int) -> None:
    """ginnycore.rules checks nothing (ginnyo.vocab.rules does), yet every int gives a number, none a crash."""
    assert compiled.sets_for(value) in (1, 2)
    assert compiled.rack_penalty(value) == 0 and compiled.draw_strength(value) == 0
    assert compiled.quiet_turn_limit(value, True, value) == value * value
    assert compiled.quiet_turn_limit(value, False, 5) == compiled.OPENING_GUARD_ROUNDS * value
    with pytest.raises(OverflowError):
        compiled.rack_penalty(2**40)
    with pytest.raises(ValueError, match="52 counts, not 53"):
        compiled.tile_to_return(bytes(52))
