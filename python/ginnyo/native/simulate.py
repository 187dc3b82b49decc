"""The door to ``ginnycore.simulate``, the compiled Monte Carlo rollouts: what
ginnyo uses of it, imported here alone."""

from __future__ import annotations

from ginnycore.simulate import POLICY_EQUITY, POLICY_GREEDY, Rollouts, deal

__all__ = ["POLICY_EQUITY", "POLICY_GREEDY", "Rollouts", "deal"]
