"""``ginnyo analyze``'s rows as a table for people: a line a position or a turn,
and the summary of a record's players."""

from __future__ import annotations

from typing import Any

NONE = "-"
NOTATION_WIDTH = 28


def _action(action: dict[str, Any] | None, field: str) -> str:
    """An action's notation and its ``field`` (score or equity), or ``-``."""
    if action is None:
        return f"{NONE:<{NOTATION_WIDTH}} {NONE:>7}"
    from ..support.number_text import number as shown
    value = action[field]
    number = shown(value, "+7.1f") if isinstance(value, float) else f"{value:>7}"
    return f"{action['notation']:<{NOTATION_WIDTH}} {number}"


def position_header(best: bool = True, equity: bool = True) -> str:
    """The heading of the positions' table, with the columns asked for."""
    parts = [f"{'line':>7}"]
    if best:
        parts.append(f"{'best play by score':<{NOTATION_WIDTH}} {'score':>7}")
    if equity:
        parts.append(f"{'best action by equity':<{NOTATION_WIDTH}} {'equity':>7}")
    return "  ".join(parts)


def position_line(row: dict[str, Any]) -> str:
    """One position: its line, the best play and its score, the best action and its equity."""
    parts = [f"{row['line']:>7}"]
    if "best" in row:
        parts.append(_action(row["best"], "score"))
    if "equity" in row:
        parts.append(_action(row["equity"], "equity"))
    return "  ".join(parts)


def turn_header() -> str:
    return (f"{'turn':>4} {'player':<12} {'played':<{NOTATION_WIDTH}} {'score':>7}  "
            f"{'best play by score':<{NOTATION_WIDTH}} {'score':>7}  {'lost':>4}  "
            f"{'best action by equity':<{NOTATION_WIDTH}} {'equity':>7}  {'lost':>6}  {'win lost':>8}  grade")


def _player(player: int, name: str | None) -> str:
    return f"{player}" + (f" {name}" if name else "")


def turn_line(row: dict[str, Any]) -> str:
    """One turn: the move played, the best play, the points lost, the best action, the equity lost."""
    from ..support.number_text import number
    return (f"{row['turn']:>4} {_player(row['player'], row['name'])[:12]:<12} {_action(row['played'], 'score')}  "
            f"{_action(row['best'], 'score')}  {row['points_lost']:>4}  "
            f"{_action(row['equity'], 'equity')}  {number(row['equity_lost'], '>6.1f')}"
            + (f"  {row['win_lost']:>8.1%}  {row['grade']}" if "grade" in row else ""))


def summary_lines(summary: list[dict[str, Any]]) -> list[str]:
    """The players' summary: turns, points and equity lost, shares of best moves."""
    from ..support.number_text import number
    lines = [f"{'player':<16} {'turns':>5} {'points lost':>11} {'equity lost':>11} "
             f"{'best moves':>10} {'best by equity':>14} {'accuracy':>8}"]
    for row in summary:
        shares = [NONE if share is None else f"{share:.0%}" for share in (row["best_moves"], row["best_equity_moves"])]
        lines.append(f"{_player(row['player'], row['name'])[:16]:<16} {row['turns']:>5} {row['points_lost']:>11} "
                     f"{number(row['equity_lost'], '>11.1f')} {shares[0]:>10} {shares[1]:>14} "
                     f"{NONE if row.get('accuracy') is None else format(row['accuracy'], '.1f'):>8}")
    return lines


__all__ = ["position_header", "position_line", "turn_header", "turn_line", "summary_lines"]
