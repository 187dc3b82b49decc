"""The door to ``ginnycore.infer``, the compiled rack inference: what ginnyo
uses of it, imported here alone."""

from __future__ import annotations

from ginnycore.infer import condition, infer

__all__ = ["condition", "infer"]
