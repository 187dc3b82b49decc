"""Shared fixtures; the helpers themselves are in tests/helpers.py."""

from __future__ import annotations

from typing import Callable

import pytest

from ginnyo import Position
from helpers import position


@pytest.fixture
def make_position() -> Callable[..., Position]:
    return position
