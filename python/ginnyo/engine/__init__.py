"""The line engine: the server behind ``ginnyo engine`` (server) and a client that drives one as a
subprocess (client).

The names below are those of :mod:`ginnyo.engine.server`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .server import (
    Engine, serve, ProtocolError, LineTooLong, error_line, failure_lines, candidate_line,
    NO_MOVE)

__all__ = [
    "Engine", "serve", "ProtocolError", "LineTooLong", "error_line", "failure_lines",
    "candidate_line", "NO_MOVE"]

__getattr__ = lazy_names(__name__, {"server": __all__})
