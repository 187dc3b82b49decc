"""The bridge to the core (``ginnyo.native``): one core call an operation hands
back every play already built with its melds, ranked as ``ScoredPlay.sort_key``;
an illegal play's reason comes from the core's code, worded in
``ginnyo.vocab.illegal``, and says what the plain-Python reference says."""

from __future__ import annotations

import dataclasses
import pickle
import random
import threading

import pytest

import ginnycore
from ginnycore import Core, PlayMaker
from ginnyo import IllegalMoveError, PlacedTile, Play, Position, native
from ginnyo.position import reference
from ginnyo.position.legal import judge_play
from ginnyo.selfplay.corpus import sample_positions
from ginnyo.vocab.illegal import _WORDS
from ginnyo.vocab.play import MeldScore, ScoredPlay
from ginnyo.vocab.tiles import JOKER, NUM_CARDS

from helpers import play, position


def _positions() -> list[Position]:
    return (sample_positions(6, seed=18, stage="early") + sample_positions(6, seed=18, stage="mid")
            + [position({}, "5H 6H 7H * 5C 5S KD")])


def _melds(scored: ScoredPlay) -> list[MeldScore]:
    return sorted(scored.melds, key=lambda meld: meld.squares)


def test_the_core_constants_are_python_ints_of_ginnycore() -> None:
    assert (ginnycore.MAX_PLACED, ginnycore.EMPTY_SQUARE, ginnycore.RACK_KINDS) == (14, 255, JOKER + 1)
    assert ginnycore.MAX_MELDS == ginnycore.MAX_PLACED + 1
    codes = list(ginnycore.ILLEGAL_CODES.values())
    assert len(set(codes)) == len(codes) and all(code < 0 for code in codes)
    assert all(getattr(ginnycore, name) == code for name, code in ginnycore.ILLEGAL_CODES.items())
    scores, squares, cards, jokers = native.Batch(_positions()[:1]).best_plays()
    assert squares.shape[1] == cards.shape[1] == jokers.shape[1] == ginnycore.MAX_PLACED


def test_every_illegal_code_of_the_core_is_worded() -> None:
    assert set(_WORDS) == set(ginnycore.ILLEGAL_CODES.values())


def test_legal_plays_come_ranked_with_the_melds_the_reference_scores() -> None:
    for pos in _positions():
        plays = native.legal_plays(pos)
        assert plays == sorted(plays, key=ScoredPlay.sort_key)
        assert len(plays) == native.core_of(pos).count_plays()
        for scored in plays[:40]:
            expected = reference.score_play(pos, scored.play)
            assert scored.score == expected.score
            assert _melds(scored) == _melds(expected)


def test_best_top_ranked_and_batch_hand_back_the_plays_legal_plays_ranks() -> None:
    positions = _positions()
    batch = native.best_plays_batch(positions, threads=2)
    for pos, from_batch in zip(positions, batch):
        plays = native.legal_plays(pos)
        assert native.best_play(pos) == (plays[0] if plays else None) == from_batch
        assert native.top_plays(pos, 5) == plays[:5]
        assert list(native.ranked_plays(pos)) == plays
        assert list(native.ranked_plays(pos, 3)) == plays[:3]


def test_built_plays_are_ordinary_frozen_dataclass_instances() -> None:
    scored = native.legal_plays(_positions()[-1])[0]
    rebuilt = ScoredPlay(Play(tuple(scored.play.placements)), scored.score,
                         tuple(MeldScore(m.kind, tuple(m.squares), m.score) for m in scored.melds))
    assert scored == rebuilt and hash(scored) == hash(rebuilt) and repr(scored) == repr(rebuilt)
    assert pickle.loads(pickle.dumps(scored)) == scored
    assert all(isinstance(tile, PlacedTile) for _, tile in scored.play.placements)
    with pytest.raises(dataclasses.FrozenInstanceError):
        scored.score = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        scored.melds[0].score = 0  # type: ignore[misc]


def test_the_core_hands_back_melds_as_score_play_gives_them_and_keeps_its_old_shapes() -> None:
    pos = _positions()[-1]
    core = native.core_of(pos)
    plain = core.legal_plays()
    with_melds = core.legal_plays(melds=True)
    assert [(total, placements) for total, placements, _ in with_melds] == plain
    for total, placements, melds in with_melds:
        squares, cards, jokers = zip(*placements)
        scored, found = core.score_play(list(squares), list(cards), list(jokers))
        assert scored == total and found is not None
        assert list(melds) == sorted(found, key=lambda meld: (meld[0], meld[1]))
    assert all(len(item) == 2 for item in core.top_plays(3)) and len(core.best_play() or ()) == 2
    assert core.best_play(melds=True) == core.legal_plays(melds=True, ranked=True)[0]
    assert list(core.ranked_plays(melds=True)) == core.legal_plays(melds=True, ranked=True)


def test_melds_read_from_the_cross_checks_are_the_melds_every_line_walked_gives() -> None:
    """The melds of generated plays come from the cross-checks and the play's
    own line (plays.pxi ``_melds_of``); score_play walks every line through
    every tile (``score_lines``): both agree on every play of 450 positions,
    single tiles (both lines crossing) and jokers among them."""
    singles = jokers = plays = 0
    for stage in ("early", "mid", "late"):
        for pos in sample_positions(150, seed=7, stage=stage):
            core = native.core_of(pos)
            for total, placements, melds in core.legal_plays(melds=True):
                squares, cards, joker_flags = zip(*placements)
                scored, found = core.score_play(list(squares), list(cards), list(joker_flags))
                assert found is not None and scored == total == sum(meld[4] for meld in melds)
                assert list(melds) == sorted(found, key=lambda meld: (meld[0], meld[1]))
                plays += 1
                singles += len(placements) == 1
                jokers += any(joker_flags)
    assert plays > 10_000 and singles > 100 and jokers > 100


def test_legal_plays_with_a_limit_gives_none_when_there_are_more() -> None:
    pos = _positions()[-1]
    core = native.core_of(pos)
    every = core.legal_plays(ranked=True)
    assert len(every) > 2
    assert core.legal_plays(ranked=True, limit=len(every)) == every
    assert core.legal_plays(ranked=True, limit=10 ** 30) == every
    assert core.legal_plays(ranked=True, limit=len(every) - 1) is None
    assert core.legal_plays(limit=1) is None and core.stored_plays() == []
    assert native.legal_plays_upto(pos, 1) is None
    for bad in (0, -1, True, 1.5, "3"):
        with pytest.raises(ValueError, match="limit"):
            core.legal_plays(limit=bad)  # type: ignore[arg-type]


def test_a_view_over_the_buffer_streams_its_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginnyo.position.legal
    pos = _positions()[-1]
    expected = native.legal_plays(pos)
    monkeypatch.setattr(ginnyo.position.legal, "RANKED_BUFFER", 2)
    assert list(pos.legal_plays) == expected and len(pos.legal_plays) == len(expected)


def test_an_operation_loads_this_threads_core_and_builds_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    pos = _positions()[0]
    native.legal_plays(pos)                 # this thread's core for the layout now exists
    built: list[object] = []

    def counted(layout: object) -> Core:
        built.append(layout)
        return Core(1, 1, b"\x01", b"\x01", b"\x00", -1)

    monkeypatch.setattr(native, "empty_core", counted)
    native.legal_plays(pos)
    native.best_play(pos)
    native.top_plays(pos, 2)
    native.judge_play(pos, native.best_play(pos).play)  # type: ignore[union-attr]
    assert built == []


def test_a_position_asked_twice_in_a_row_is_loaded_once_and_other_objects_every_time() -> None:
    first, second = _positions()[:2]
    native.count_plays(first)
    assert native._SCRATCH.position is first
    native.legal_plays(second)
    assert native._SCRATCH.position is second

    class Fields:           # a PositionFields that is not a value: it may change between calls
        def __init__(self, source: Position) -> None:
            self.layout, self.sets, self.board, self.rack = source.layout, source.sets, dict(source.board), source.rack

    changing = Fields(first)
    expected = native.legal_plays(first), native.legal_plays(second)
    assert native.legal_plays(changing) == expected[0]
    assert native._SCRATCH.position is None
    changing.board, changing.rack = dict(second.board), second.rack
    assert native.legal_plays(changing) == expected[1]


def test_listing_the_view_builds_the_ranked_list_once() -> None:
    pos = _positions()[-1]
    listed = list(pos.legal_plays)
    assert listed == native.legal_plays(pos) and len(listed) == len(pos.legal_plays)
    assert listed == sorted(listed, key=ScoredPlay.sort_key)


def test_plays_and_melds_are_slotted_values_without_a_dict() -> None:
    scored = native.legal_plays(_positions()[-1])[0]
    for value in (scored, scored.play, scored.melds[0]):
        assert not hasattr(value, "__dict__")
        with pytest.raises((AttributeError, TypeError)):
            setattr(value, "extra", 1)


def test_threads_each_load_their_own_core() -> None:
    positions = _positions()
    expected = [native.legal_plays(pos) for pos in positions]
    results: dict[int, list[list[ScoredPlay]]] = {}

    def work(index: int) -> None:
        results[index] = [native.legal_plays(pos) for pos in positions for _ in range(3)][::3]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found == expected for found in results.values())


def _random_play(rng: random.Random, pos: Position, legal: list[ScoredPlay]) -> Play:
    """A play that is often illegal, now and then legal, in every way the rules allow."""
    layout = pos.layout
    choice = rng.random()
    if legal and choice < 0.25:         # a legal play with one tile changed or one added
        placements = list(legal[rng.randrange(len(legal))].play.placements)
        square, tile = placements[rng.randrange(len(placements))]
        if rng.random() < 0.5:
            placements.remove((square, tile))
            placements.append((square, PlacedTile(rng.randrange(NUM_CARDS), tile.joker)))
        else:
            step = rng.choice((1, layout.width))
            placements.append((max(square for square, _ in placements) + step * rng.randint(1, 2),
                               PlacedTile(rng.randrange(NUM_CARDS), rng.random() < 0.2)))
        return Play.of(placements)
    if legal and choice < 0.4:          # a legal play moved elsewhere (away from the board, the centre)
        shift = rng.choice((-1, 1)) * rng.randint(1, 6) * layout.width + rng.randint(-2, 2)
        return Play.of((square + shift, tile) for square, tile in legal[rng.randrange(len(legal))].play.placements)
    n = rng.randint(1, 4)
    if choice < 0.8:                    # a line near the tiles (it may cross them, or wrap a row)
        anchor = rng.choice(list(pos.board) or [layout.centre])
        step = rng.choice((1, layout.width))
        first = anchor + rng.randint(-3, 1) * step
        squares = [first + i * step * rng.choice((1, 1, 1, 2)) for i in range(n)]
    else:                               # anywhere, off the board too, a square twice
        squares = [rng.randrange(-2, layout.size + 2) for _ in range(n)]
    tiles = []
    for _ in squares:
        if pos.rack and rng.random() < 0.8:
            rack_tile = rng.choice(pos.rack)
            tiles.append(PlacedTile(rng.randrange(NUM_CARDS), True) if rack_tile == JOKER else PlacedTile(rack_tile))
        else:
            tiles.append(PlacedTile(rng.randrange(NUM_CARDS), rng.random() < 0.2))
    return Play.of(zip(squares, tiles))


def _verdict(check: object, pos: Position, move: Play) -> str | None:
    try:
        check(pos, move)  # type: ignore[operator]
    except IllegalMoveError as error:
        return str(error)
    return None


def test_the_reason_worded_from_the_cores_code_is_the_references_verdict() -> None:
    rng = random.Random(18)
    names = {code: name for name, code in ginnycore.ILLEGAL_CODES.items()}
    seen = set()
    positions = _positions() + [position({}, "5H 6H 7H 7C 7S * *")]
    for pos in positions:
        legal = native.legal_plays(pos)
        core = native.core_of(pos)
        for _ in range(400):
            move = _random_play(rng, pos, legal)
            expected = _verdict(reference.check_play, pos, move)
            assert _verdict(judge_play, pos, move) == expected, (pos.to_dict(), move)
            if expected is None:
                assert judge_play(pos, move) == reference.score_play(pos, move) or \
                    _melds(judge_play(pos, move)) == _melds(reference.score_play(pos, move))
            squares, tiles = zip(*move.placements)
            verdict, detail = core.judge_play(list(squares), [t.card for t in tiles], [t.joker for t in tiles])
            seen.add(names[verdict] if isinstance(verdict, int) else "legal")
    assert seen >= {
        "legal", "ILLEGAL_REPEATED", "ILLEGAL_OFF_BOARD", "ILLEGAL_COVERED", "ILLEGAL_RACK", "ILLEGAL_SHAPE",
        "ILLEGAL_GAP", "ILLEGAL_MELD", "ILLEGAL_SHORT", "ILLEGAL_CENTRE", "ILLEGAL_PLACE"}


def test_a_play_joining_two_areas_is_refused_in_the_references_words() -> None:
    layout = ["R....", ".....", "..S.."]
    pos = Position.from_dict({"layout": layout, "board": {"A1": "3S", "B1": "4S", "C1": "5S",
                                                          "C3": "5H", "D3": "6H", "E3": "7H"}, "rack": "5D"})
    move = play(pos, {"C2": "5D"})
    expected = _verdict(reference.check_play, pos, move)
    assert expected is not None and "areas" in expected
    assert _verdict(judge_play, pos, move) == expected


def test_the_rules_broken_first_are_named_in_the_references_order() -> None:
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "8H 9H 2C")
    # no meld (§4.2) and also far from the board (§4.4): the meld is named, as the reference does
    move = play(pos, {"A1": "8H", "B1": "9H", "C1": "2C"})
    assert _verdict(judge_play, pos, move) == _verdict(reference.check_play, pos, move)
    assert "would not be a meld" in str(_verdict(judge_play, pos, move))


def test_absurd_squares_and_cards_are_refused_in_one_line() -> None:
    pos = _positions()[-1]
    for move in (Play(((10 ** 6, PlacedTile(0)),)), Play(((-(10 ** 9), PlacedTile(0)),)),
                 Play(((112, PlacedTile(300)),)), Play(())):
        with pytest.raises(IllegalMoveError) as error:
            judge_play(pos, move)
        assert "\n" not in str(error.value)


def test_judge_play_says_where_a_play_breaks_its_rule() -> None:
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "8H 9H")
    core = native.core_of(pos)
    h8 = pos.layout.parse_square("H8")
    assert core.judge_play([h8], [5], [False]) == (ginnycore.ILLEGAL_COVERED, (h8, 0, 0))
    assert core.judge_play([h8 + 2], [5], [False]) == (ginnycore.ILLEGAL_RACK, (5, 1, 0))
    with pytest.raises(ValueError):
        core.judge_play([1, 2], [5], [False])
    with pytest.raises(ValueError):
        core.judge_play([10 ** 9], [5], [False])


def test_load_tiles_loads_what_load_does_and_refuses_bad_input() -> None:
    for pos in _positions():
        by_bytes = native.empty_core(pos.layout)
        by_bytes.load(*native.encode(pos))
        assert native.core_of(pos).state() == by_bytes.state()
    core = native.core_of(_positions()[0])
    before = core.state()
    for tiles, rack in (({-1: (0, False)}, []), ({0: (52, False)}, []), ({0: "x"}, []), ({}, [53]),
                        ({}, ["5H"]), ({0: (0,)}, []), ([(0, (0, False))], [])):
        with pytest.raises(ValueError):
            core.load_tiles(tiles, rack)  # type: ignore[arg-type]
        assert core.state() == before


def test_the_batch_scores_each_best_plays_melds_in_the_same_call() -> None:
    positions = _positions()
    scores, squares, cards, jokers, melds = native.Batch(positions).best_plays_with_melds()
    assert melds.shape == (len(positions), ginnycore.MAX_MELDS, 5)
    for row, pos in enumerate(positions):
        best = native.best_play(pos)
        if best is None:
            assert scores[row] == -1
            continue
        expected = [(0 if len(m.squares) < 2 or m.squares[1] - m.squares[0] == 1 else 1, m.squares[0],
                     len(m.squares), 1 if m.kind == "set" else 2, m.score) for m in best.melds]
        assert [tuple(meld) for meld in melds[row].tolist() if meld[0] >= 0] == expected


def test_a_play_maker_takes_only_classes_and_three_kind_names() -> None:
    with pytest.raises(TypeError):
        PlayMaker(ScoredPlay, "Play", MeldScore, PlacedTile, (None, "set", "run"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        PlayMaker(ScoredPlay, Play, MeldScore, 5, (None, "set", "run"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        PlayMaker(ScoredPlay, Play, MeldScore, PlacedTile, ("set", "run"))


def test_one_operations_plays_share_their_equal_melds() -> None:
    for pos in _positions():
        plays = native.legal_plays(pos)
        by_value: dict[MeldScore, MeldScore] = {}
        melds = [meld for scored in plays for meld in scored.melds]
        for meld in melds:
            assert by_value.setdefault(meld, meld) is meld
        if len(set(melds)) < len(melds):
            return
    raise AssertionError("no position whose plays repeat a meld")


def test_built_plays_are_left_out_of_the_cycle_collectors_walks() -> None:
    import gc
    for scored in native.legal_plays(_positions()[-1])[:5] + native.top_plays(_positions()[-1], 2):
        assert not gc.is_tracked(scored) and not gc.is_tracked(scored.play)
        assert not gc.is_tracked(scored.play.placements) and not gc.is_tracked(scored.melds)
        assert not any(gc.is_tracked(meld) or gc.is_tracked(meld.squares) for meld in scored.melds)
