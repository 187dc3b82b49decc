"""Numbers as the commands print them: formatted, and never a negative zero
(``-0``, ``-0.0``), which a value that rounds to zero would otherwise show."""

from __future__ import annotations


def number(value: float, spec: str = "") -> str:
    """``format(value, spec)``, with a zero that the format shows as ``-0`` or
    ``-0.0`` shown as ``0``/``+0`` and ``0.0``/``+0.0`` instead (``spec`` keeps its
    width and sign)."""
    text = format(value, spec)
    if "-" in text and not any(digit in text for digit in "123456789"):
        return format(0.0 if isinstance(value, float) else 0, spec)
    return text


__all__ = ["number"]
