"""Idle OpenMP threads sleep rather than spin (issue 17, item 11): importing
ginnycore sets ``OMP_WAIT_POLICY=passive`` before libgomp starts, unless the user
chose a policy, and warns when OpenMP started too early for the setting to count.
libgomp shows what it read with ``OMP_DISPLAY_ENV=verbose``: a spin count of 0
is the passive policy (its default spins 300000 times before sleeping)."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys

import pytest

from helpers import child_environment



def _import_ginnycore(code: str = "import ginnycore.core", **environment: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a new interpreter of this tree, with no wait policy set but those given."""
    env = {name: value for name, value in child_environment().items()
           if name not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(OMP_DISPLAY_ENV="verbose", **environment)
    result = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    if "GOMP_SPINCOUNT" not in result.stderr:
        pytest.skip("not libgomp: its settings cannot be read back")
    return result


def test_importing_ginnycore_makes_idle_openmp_threads_sleep() -> None:
    result = _import_ginnycore("import os, ginnycore.core; print(os.environ['OMP_WAIT_POLICY'])")
    assert result.stdout == "passive\n"
    assert "GOMP_SPINCOUNT = '0'" in result.stderr and "RuntimeWarning" not in result.stderr


def test_a_wait_policy_the_user_set_is_kept() -> None:
    result = _import_ginnycore(OMP_WAIT_POLICY="active")
    assert "OMP_WAIT_POLICY = 'ACTIVE'" in result.stderr and "GOMP_SPINCOUNT = '0'" not in result.stderr


def test_openmp_started_before_ginnycore_is_warned_about() -> None:
    library = ctypes.util.find_library("gomp")
    if library is None:
        pytest.skip("no libgomp to start first")
    result = _import_ginnycore(f"import ctypes; ctypes.CDLL({library!r}); import ginnycore.core")
    assert "RuntimeWarning: OpenMP was started before ginnycore, so its idle threads will spin" in result.stderr
    assert "GOMP_SPINCOUNT = '300000'" in result.stderr
