"""bench/count_instructions.py, the instruction-count gate: the committed baseline
holds, counts repeat run to run, a figure 3% over fails, and CI cannot pass
without valgrind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import bench_script, child_environment

count_instructions = bench_script("count_instructions")
SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "count_instructions.py"


def valgrind_or_skip() -> None:
    """Skip when valgrind is missing, except under CI (``CI`` set), where it must be there."""
    missing = count_instructions.valgrind_missing()
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{missing}: CI must run the instruction-count gate")
    pytest.skip(missing)


def gate(*arguments: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True,
                          timeout=timeout, env=child_environment())


@pytest.mark.slow
def test_instruction_counts_stay_within_three_percent_of_the_committed_baseline() -> None:
    valgrind_or_skip()
    run = gate()
    assert run.returncode == 0, run.stdout + run.stderr
    for name in count_instructions.FIGURES:     # every figure printed beside its baseline
        assert any(line.startswith(name + " ") for line in run.stdout.splitlines()), run.stdout


@pytest.mark.slow
def test_instruction_counts_repeat_run_to_run() -> None:
    valgrind_or_skip()
    counts = []
    for _ in range(2):
        run = gate("--figures", "generation,equity,load_line", "--json")
        assert run.returncode == 0, run.stderr
        counts.append(json.loads(run.stdout)["figures"])
    assert counts[0].keys() == counts[1].keys() == {"generation", "equity", "load_line"}
    for name, first in counts[0].items():
        assert abs(counts[1][name] - first) <= 0.001 * first, (name, counts)


def test_a_missing_valgrind_fails_under_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(count_instructions.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="valgrind is not installed"):
        valgrind_or_skip()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="valgrind is not installed"):
        valgrind_or_skip()


def test_a_figure_more_than_three_percent_over_its_baseline_fails_by_name() -> None:
    baseline = {"figures": {"generation": 10_000, "equity": 1_000_000}}
    rows, failures = count_instructions.compare({"generation": 10_300, "equity": 1_030_001}, baseline)
    assert len(failures) == 1 and failures[0].startswith("equity: 1,030,001 instructions a call, +3.0% over")
    assert any(row.split() == ["generation", "10,000", "10,300", "+3.0%"] for row in rows)
    assert count_instructions.compare({"generation": 9_000}, baseline)[1] == []   # faster passes


def test_a_figure_missing_from_the_baseline_fails() -> None:
    _, failures = count_instructions.compare({"rollout": 5}, {"figures": {"generation": 10}})
    assert failures == ["rollout: not in the baseline (run --update)"]


def test_every_figure_runs_and_names_its_stretches_outside_valgrind(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    run = subprocess.run([*count_instructions.inner_command(str(SCRIPT)), "--report", str(report)],
                         capture_output=True, text=True, timeout=600, env=child_environment())
    assert run.returncode == 0, run.stderr
    stretches = json.loads(report.read_text(encoding="utf-8"))["stretches"]
    assert stretches[:2] == [["setup", 0], ["empty", 0]]
    measured = {name: calls for name, calls in stretches if name not in ("setup", "empty")}
    figures = count_instructions.FIGURES
    assert measured == {name: figure.positions * (count_instructions.ROLLOUTS_EACH if name == "rollout" else 1)
                        for name, figure in figures.items()}


def test_each_stretchs_count_has_the_empty_stretch_taken_off() -> None:
    stretches = [("setup", 0, {"Ir": 9_999}), ("empty", 0, {"Ir": 100}), ("generation", 4, {"Ir": 4_100})]
    assert count_instructions.per_call(stretches) == {"generation": 1_000}


def test_the_committed_baseline_holds_every_figure_and_how_it_was_made() -> None:
    baseline = count_instructions.read_baseline(count_instructions.BASELINE)
    assert set(baseline["figures"]) == set(count_instructions.FIGURES)
    assert baseline["made_by"] == "python bench/count_instructions.py --update"
    assert len(baseline["commit"].split()[0]) == 40


def test_a_baseline_without_figures_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "instructions.json"
    bad.write_text('{"figures": {"generation": 1.5}}', encoding="utf-8")
    run = gate("--baseline", str(bad), timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        f"count_instructions: {bad}: field 'figures': must map each figure to its instructions, a whole number"]


def test_update_replaces_the_baseline_whole_and_never_through_a_link(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    figures = {name: 1_000 + index for index, name in enumerate(count_instructions.FIGURES)}
    monkeypatch.setattr(count_instructions, "measure", lambda names: (figures, {"core": "core.so"}))
    baseline = tmp_path / "instructions.json"
    baseline.write_text("old", encoding="utf-8")
    assert count_instructions.main(["--update", "--baseline", str(baseline)]) == 0
    written = count_instructions.read_baseline(baseline)
    assert written["figures"] == figures and set(written["environment"]) == {"python", "numpy", "valgrind", "machine"}
    assert [path.name for path in tmp_path.iterdir()] == ["instructions.json"]    # no temporary left
    link = tmp_path / "link.json"
    link.symlink_to(baseline)
    assert count_instructions.main(["--update", "--baseline", str(link)]) == 1
    assert link.is_symlink() and count_instructions.read_baseline(baseline)["figures"] == figures


def test_an_unknown_figure_is_refused_by_name() -> None:
    run = gate("--figures", "generation,speed", timeout=60)
    assert run.returncode == 2
    assert "argument --figures: not a figure: speed" in run.stderr and "Traceback" not in run.stderr


def _child_naming(stretches: str, marks: int) -> list[str]:
    """A child for :func:`counted` that names ``stretches`` (JSON) and calls the marker ``marks`` times."""
    code = (f"import os, sys\nfor _ in range({marks}): os.ctermid()\n"
            f"open(sys.argv[-1], 'w').write('{{\"stretches\": {stretches}}}')")
    return [sys.executable, "-c", code]


@pytest.mark.slow
def test_a_marker_called_from_elsewhere_is_an_error_not_a_figure() -> None:
    valgrind_or_skip()
    stretches, _ = count_instructions.counted(_child_naming('[["setup", 0], ["work", 1]]', 2))
    assert [(name, calls) for name, calls, _ in stretches] == [("setup", 0), ("work", 1)]
    with pytest.raises(count_instructions.CountError, match=r"dumped 3 times before ctermid\(\), the child "
                                                            r"marked 2 stretches: something else calls"):
        count_instructions.counted(_child_naming('[["setup", 0], ["work", 1]]', 3))


@pytest.mark.slow
def test_a_marker_callgrind_does_not_know_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    valgrind_or_skip()
    monkeypatch.setattr(count_instructions, "MARKER", "no_such_function_in_libc")
    with pytest.raises(count_instructions.CountError, match="never dumped before no_such_function_in_libc"):
        count_instructions.counted(_child_naming('[["work", 1]]', 1))


def test_the_check_says_when_a_figure_runs_over_other_positions_than_its_baseline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(count_instructions, "measure", lambda names: ({"generation": 100}, {"core": "core.so"}))
    baseline = tmp_path / "instructions.json"
    baseline.write_text('{"figures": {"generation": 100}, "positions": {"generation": 7}}', encoding="utf-8")
    assert count_instructions.main(["--figures", "generation", "--baseline", str(baseline)]) == 0
    shown = capsys.readouterr().out
    assert "note: generation now run over other positions than the baseline's: make it again" in shown
