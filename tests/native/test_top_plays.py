"""The first N plays in ranking order from the core's bounded heap
(``Core.top_plays``, ``Core.ranked_plays``) against the full ranked list and the
plain-Python reference, and ``moves`` / ``go top N`` / the lazy view using them
in bounded memory."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from ginnyo import native
from ginnyo.position import reference
from ginnyo.selfplay.corpus import sample_positions
from ginnyo.engine.server import Engine, candidate_line
from ginnyo.vocab.play import ScoredPlay
from ginnyo.position.position import Position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MID_CORPUS = ROOT / "bench" / "corpus-mid.jsonl"
CorePlay = tuple[int, tuple[tuple[int, int, bool], ...]]


def core_tuple(scored: ScoredPlay) -> CorePlay:
    return scored.score, tuple((square, tile.card, tile.joker) for square, tile in scored.play.placements)


@cache
def corpus() -> list[Position]:
    """Seeded game positions of every stage and the benchmark's mid-game ones."""
    lines = MID_CORPUS.read_text(encoding="utf-8").splitlines()[:60]
    return sample_positions(40, seed=17) + [Position.from_json(line) for line in lines]


@cache
def ranked_in_python(position_json: str) -> list[CorePlay]:
    """Every play the core generates, ranked by ScoredPlay.sort_key in Python."""
    return [core_tuple(scored) for scored in native.legal_plays(Position.from_json(position_json))]


def cuts(length: int) -> list[int]:
    return sorted({1, 2, 3, 5, 17, max(length // 2, 1), max(length, 1), length + 1})


def big_position(side: int, rack: str) -> dict[str, object]:
    """A ``side`` x ``side`` board of R squares (S in the middle), a set of kings
    at the centre: every line of the board may hold a new area, so millions of plays."""
    rows = ["R" * side for _ in range(side)]
    middle = side // 2
    rows[middle] = "R" * middle + "S" + "R" * (side - middle - 1)
    letter = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    row = middle + 1
    board = {f"{letter[middle - 1]}{row}": "KH", f"{letter[middle]}{row}": "KS", f"{letter[middle + 1]}{row}": "KD"}
    return {"layout": rows, "sets": 2, "board": board, "rack": rack}


def test_top_plays_are_the_first_n_of_the_full_ranked_list_on_the_corpus() -> None:
    for position in corpus():
        full = ranked_in_python(position.to_json())
        core = native.core_of(position)
        for n in cuts(len(full)):
            assert core.top_plays(n) == full[:n], (n, position.to_json())


def test_the_corpus_cuts_between_plays_of_equal_score() -> None:
    """Ties at the cut: the tie-break, not the score, decides what is kept."""
    tied = 0
    for position in corpus():
        full = ranked_in_python(position.to_json())
        tied += sum(1 for n in cuts(len(full)) if n < len(full) and full[n - 1][0] == full[n][0])
    assert tied >= 20


def test_top_plays_match_the_plain_python_reference() -> None:
    for position in sample_positions(12, seed=5):
        expected = sorted(reference.legal_plays(position), key=ScoredPlay.sort_key)
        for n in cuts(len(expected)):
            found = position.top_plays(n)
            assert [(s.play, s.score, s.melds) for s in found] == \
                [(s.play, s.score, s.melds) for s in expected[:n]], (n, position.to_json())


def test_ranked_plays_in_small_passes_give_the_full_ranked_list() -> None:
    """Each pass keeps the plays after the last one given: with a buffer of one
    play every pass boundary falls between tied plays somewhere."""
    for position in corpus()[::4]:
        full = ranked_in_python(position.to_json())
        core = native.core_of(position)
        for buffer in (1, 2, 7, 1000):
            assert list(core.ranked_plays(buffer=buffer)) == full, (buffer, position.to_json())
        for limit in cuts(len(full)):
            assert list(core.ranked_plays(limit, buffer=3)) == full[:limit]


def test_best_play_is_the_first_of_top_plays() -> None:
    for position in corpus()[::5]:
        core = native.core_of(position)
        best = core.best_play()
        assert core.top_plays(1) == ([best] if best is not None else [])


def test_top_plays_of_a_position_without_plays_is_empty() -> None:
    core = native.core_of(Position.load(EXAMPLES / "no-play.json"))
    assert core.top_plays(3) == []
    assert list(core.ranked_plays()) == []


@pytest.mark.parametrize("bad", [0, -1, -(10 ** 30), "5", 2.5, True, None])
def test_top_plays_refuses_a_count_below_one_or_not_a_whole_number(bad: object) -> None:
    core = native.core_of(Position.load(EXAMPLES / "extend.json"))
    with pytest.raises(ValueError, match="^n must be"):
        core.top_plays(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^n must be"):
        Position.load(EXAMPLES / "extend.json").top_plays(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, -3, "1", 1.0])
def test_ranked_plays_refuses_a_bad_limit_or_buffer(bad: object) -> None:
    core = native.core_of(Position.load(EXAMPLES / "extend.json"))
    with pytest.raises(ValueError, match="^limit must be"):
        core.ranked_plays(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^buffer must be"):
        core.ranked_plays(buffer=bad)  # type: ignore[arg-type]


def test_a_huge_count_gives_every_play_without_allocating_it() -> None:
    position = Position.load(EXAMPLES / "opening.json")
    full = ranked_in_python(position.to_json())
    core = native.core_of(position)
    assert core.top_plays(10 ** 30) == full
    assert list(core.ranked_plays(2 ** 63, buffer=10 ** 20)) == full


def test_ranked_plays_keep_the_board_they_started_on() -> None:
    position = Position.load(EXAMPLES / "extend.json")
    full = ranked_in_python(position.to_json())
    core = native.core_of(position)
    plays = core.ranked_plays(buffer=4)
    first = next(plays)
    core.apply([s for s, _, _ in first[1]], [c for _, c, _ in first[1]], [j for _, _, j in first[1]])
    assert [first, *plays] == full


def test_legal_plays_view_iterates_lazily_in_ranking_order() -> None:
    position = Position.load(EXAMPLES / "opening.json")
    view = iter(position.legal_plays)
    assert next(view) == native.legal_plays(position)[0]
    assert position.legal_plays.top(4) == native.legal_plays(position)[:4]


def test_moves_prints_the_same_list_as_ranking_every_play(capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.cli import main
    from ginnyo.position.plays_json import play_to_json
    for name in ("opening.json", "extend.json", "no-play.json"):
        position = Position.load(EXAMPLES / name)
        full = native.legal_plays(position)
        assert main(["moves", "--json", str(EXAMPLES / name)]) == 0
        assert capsys.readouterr().out == json.dumps([play_to_json(position, s) for s in full]) + "\n"
        assert main(["moves", "--json", "--limit", "7", str(EXAMPLES / name)]) == 0
        assert capsys.readouterr().out == json.dumps([play_to_json(position, s) for s in full[:7]]) + "\n"
        for limit in (None, 3, 10 ** 12):
            assert main(["moves", str(EXAMPLES / name)] + ([] if limit is None else ["--limit", str(limit)])) == 0
            lines = capsys.readouterr().out.splitlines()
            shown = full if limit is None else full[:limit]
            if shown:
                width = len(str(len(shown)))
                assert lines == [f"{i:>{width}}. {position.notation(s):<28} {s.score:>4}"
                                 for i, s in enumerate(shown, 1)]
            else:
                assert lines[0].startswith("No legal play")


def test_moves_numbers_more_plays_than_its_first_chunk_to_the_width_of_their_count(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.cli import main
    from ginnyo.commands.moves import LISTED_BEFORE_COUNTING
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(big_position(12, "* * 5C 7C")), encoding="utf-8")
    position = Position.load(path)
    full = native.legal_plays(position)
    assert 10_000 <= len(full) and LISTED_BEFORE_COUNTING < 9_999
    for limit, width in ((None, 5), (9_999, 4)):
        assert main(["moves", str(path)] + ([] if limit is None else ["--limit", str(limit)])) == 0
        shown = full[:limit]
        assert capsys.readouterr().out.splitlines() == [
            f"{i:>{width}}. {position.notation(s):<28} {s.score:>4}" for i, s in enumerate(shown, 1)]


def test_moves_refuses_a_limit_of_zero(capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["moves", "--limit", "0", str(EXAMPLES / "opening.json")])
    assert stop.value.code == 2
    assert "--limit" in capsys.readouterr().err


def test_go_top_n_lists_the_first_n_of_the_ranked_plays() -> None:
    position = Position.load(EXAMPLES / "opening.json")
    engine = Engine()
    engine.position = position
    full = native.legal_plays(position)
    assert engine.go("top 6") == [candidate_line(rank, s.score, position.notation(s))
                                  for rank, s in enumerate(full[:6], 1)] \
        + [f"bestmove {position.notation(full[0])}"]


def _peak_kilobytes(code: str, *args: str) -> tuple[int, str]:
    """Run ``code`` in a fresh interpreter; its peak resident memory (KB) and output."""
    probe = ("import resource, subprocess, sys; run = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
             " print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); print(run.stdout, end='');"
             " sys.exit(run.returncode)")
    done = subprocess.run([sys.executable, "-c", probe, sys.executable, "-c", code, *args],
                          capture_output=True, text=True, check=True)
    peak, _, output = done.stdout.partition("\n")
    return int(peak), output


def test_moves_limit_5_on_millions_of_plays_stays_small(tmp_path: Path) -> None:
    """8.4 million legal plays: ranking them all took past 60 s and 6 GB."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big_position(26, "* * * * 4C 5C 6C 7C 8C 9C TC JC QC KC")), encoding="utf-8")
    assert native.core_of(Position.load(path)).count_plays() == 8_380_322
    peak, output = _peak_kilobytes("import sys; from ginnyo.cli import main; raise SystemExit(main(sys.argv[1:]))",
                                   "moves", "--limit", "5", "--json", str(path))
    assert peak < 200_000
    found = json.loads(output)
    assert [play["score"] for play in found] == [1294356] * 4 + [1294336]


def test_ranked_plays_made_directly_need_a_core() -> None:
    from ginnycore.core import RankedPlays
    with pytest.raises(TypeError):
        RankedPlays(None, None, 1)  # type: ignore[arg-type]


def test_iterating_the_view_of_millions_of_plays_stays_small(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big_position(26, "* * * * 4C 5C 6C 7C 8C 9C TC JC QC KC")), encoding="utf-8")
    code = ("import itertools, sys; from ginnyo import Position;"
            " plays = Position.load(sys.argv[1]).legal_plays;"
            " print([p.score for p in itertools.islice(plays, 6)], plays.count())")
    peak, output = _peak_kilobytes(code, str(path))
    assert peak < 200_000
    assert output == f"{[1294356] * 4 + [1294336] * 2} 8380322\n"


@pytest.mark.slow
def test_moves_without_a_limit_streams_hundreds_of_thousands_of_plays_in_bounded_memory(tmp_path: Path) -> None:
    """386 620 plays: listing them as objects first took about 600 MB."""
    path = tmp_path / "many.json"
    path.write_text(json.dumps(big_position(16, "* * * 4C 5C 6C 7C 8C")), encoding="utf-8")
    position = Position.load(path)
    assert native.core_of(position).count_plays() == 386_620
    peak, output = _peak_kilobytes("import sys; from ginnyo.cli import main; raise SystemExit(main(sys.argv[1:]))",
                                   "moves", str(path))
    assert peak < 120_000
    lines = output.splitlines()
    assert len(lines) == 386_620
    best = position.top_plays(3)
    assert lines[:3] == [f"{i:>6}. {position.notation(s):<28} {s.score:>4}"
                         for i, s in enumerate(best, 1)]
    assert lines[-1].startswith("386620. ")


@pytest.mark.slow
def test_engine_moves_streams_hundreds_of_thousands_of_plays_in_bounded_memory(tmp_path: Path) -> None:
    """The engine's ``moves`` writes its info lines as the core ranks them."""
    position = Position.from_dict(big_position(16, "* * * 4C 5C 6C 7C 8C"))
    script = tmp_path / "session.txt"
    script.write_text(f"position {position.to_line()}\nmoves\nquit\n", encoding="utf-8")
    code = ("import sys; from ginnyo.engine import serve;"
            " raise SystemExit(serve(open(sys.argv[1], 'rb'), sys.stdout))")
    peak, output = _peak_kilobytes(code, str(script))
    assert peak < 120_000
    lines = output.splitlines()
    assert lines[-1] == "movesok 386620" and len(lines) == 386_621
    best = position.top_plays(2)
    assert lines[:2] == [candidate_line(rank, s.score, position.notation(s))
                         for rank, s in enumerate(best, 1)]
