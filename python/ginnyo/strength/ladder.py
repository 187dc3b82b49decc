"""The strength ladder: match results (``ginnyo match --json`` lines) read back
and drawn as one SVG, a row a match with A's win share, its 95% interval and
the parity line (50% at 2 players, 1/K at K).

A result file holds one JSON object a line, as ``ginnyo match --json >> FILE``
appends them; the fields read are ``bots``, ``games``, ``win_rate``, ``ci95``
and, when present, ``players`` (2 when absent: files written before 3-4
player matches), ``label``, ``leaves`` and ``endgame_deals``.  Other fields
are ignored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Sequence

from ..support import strict_json
from ..errors import MatchResultError
from ..support.files import PATH_CHARS, quote, read_bounded
from .results import MATCH_PLAYERS
from .plots import PLOT_COLOURS, svg_escape

#: the most a result file may take (a match's line is about 400 bytes)
RESULT_BYTES = 1024 * 1024
#: the most rungs a ladder draws
MAX_RUNGS = 100
#: the most characters of a rung's label
LABEL_CHARS = 80


@dataclass(frozen=True)
class Rung:
    """One match of the ladder: its label, player count, games and A's win share with its interval."""

    label: str
    players: int
    games: int
    win_rate: float
    low: float
    high: float

    @property
    def parity(self) -> float:
        """The win share of a player as strong as the field."""
        return 1.0 / self.players

    @property
    def stronger(self) -> bool:
        """Whether the interval lies above the parity: A stronger than the field, at 95%."""
        return self.low > self.parity


def read_rungs(paths: Sequence[str]) -> list[Rung]:
    """The rungs of result files, in order: every line of each file, at most
    :data:`MAX_RUNGS` in all; :class:`MatchResultError` names the file, line and field."""
    rungs: list[Rung] = []
    for path in paths:
        where = f"result file {quote(str(path), PATH_CHARS)}"
        try:
            data = read_bounded(path, RESULT_BYTES, what="match result file", error=MatchResultError)
        except MatchResultError as error:
            raise MatchResultError(f"result file {error}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise MatchResultError(f"{where}: not UTF-8 text") from None
        lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
        if not lines:
            raise MatchResultError(f"{where}: no match result (give 'ginnyo match --json' lines)")
        for number, line in lines:
            if len(rungs) == MAX_RUNGS:
                raise MatchResultError(f"{where} line {number}: more than {MAX_RUNGS} match results")
            line_where = f"{where} line {number}"
            rungs.append(rung_of(strict_json.loads(line, MatchResultError, f"{line_where}: "), line_where))
    return rungs


def rung_of(data: Any, where: str = "match result") -> Rung:
    """A rung from one decoded ``match --json`` object."""
    if not isinstance(data, dict):
        raise MatchResultError(f"{where}: must be a JSON object (a 'ginnyo match --json' line)")
    try:
        bots = strict_json.field(data, "bots", list, MatchResultError)
        if len(bots) != 2 or not all(is_label(bot) for bot in bots):
            raise MatchResultError(f"field 'bots': {quote(bots)} is not two names of players")
        players = data.get("players", 2)
        if not strict_json.is_whole_number(players) or players not in MATCH_PLAYERS:
            raise MatchResultError(f"field 'players': {quote(players)} is not one of "
                                   f"{', '.join(map(str, MATCH_PLAYERS))}")
        games = strict_json.field(data, "games", int, MatchResultError)
        if games < 1:
            raise MatchResultError(f"field 'games': {games} is not a positive number")
        win_rate = _share(data, "win_rate")
        ci95 = strict_json.field(data, "ci95", list, MatchResultError)
        if len(ci95) != 2 or not all(_is_share(bound) for bound in ci95) or not ci95[0] <= win_rate <= ci95[1]:
            raise MatchResultError(f"field 'ci95': {quote(ci95)} is not two shares from 0 to 1 around "
                                   f"the win rate")
        label = data.get("label")
        if label is not None and not is_label(label):
            raise MatchResultError(f"field 'label': {quote(label)} is not a line of 1 to {LABEL_CHARS} characters")
        if label is None:
            label = default_label(bots, data.get("leaves")) + (", endgame deals" if "endgame_deals" in data else "")
    except MatchResultError as error:
        raise MatchResultError(f"{where}: {error}") from None
    return Rung(label, players, games, float(win_rate), float(ci95[0]), float(ci95[1]))


def default_label(bots: list[str], leaves: object) -> str:
    """``equity (leaves-v2) vs equity``: the players, each with its leave file's
    name when the match gave it one."""
    files = leaves if isinstance(leaves, list) and len(leaves) == 2 else [None, None]
    names = [bot if not isinstance(path, str) or not path else f"{bot} ({PurePath(path).stem[:LABEL_CHARS]})"
             for bot, path in zip(bots, files)]
    return f"{names[0]} vs {names[1]}"


def is_label(value: object) -> bool:
    """A name or label: one printable line of 1 to :data:`LABEL_CHARS` characters."""
    return isinstance(value, str) and 0 < len(value) <= LABEL_CHARS and value.isprintable()


def _share(data: dict[str, Any], key: str) -> float:
    value = strict_json.field(data, key, (int, float), MatchResultError)
    if not _is_share(value):
        raise MatchResultError(f"field {key!r}: {quote(value)} is not a share from 0 to 1")
    return float(value)


def _is_share(value: object) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and 0 <= value <= 1)


# -- the picture ----------------------------------------------------------------------------------

ROW, TOP, LEFT, RIGHT, BOTTOM, WIDTH = 34, 56, 330, 230, 62, 900
STRONGER, NOT_STRONGER, PARITY = PLOT_COLOURS[0], PLOT_COLOURS[1], "#888888"


def ladder_svg(rungs: Sequence[Rung], title: str) -> str:
    """The ladder as an SVG: a row a rung, top to bottom in the order given; A's
    win share (dot) and its 95% interval (bar), blue when the interval lies above
    the parity, orange when not; the 50% line dashed across, and a rung of 3 or
    4 players its own parity (1/K) as a short dashed mark."""
    plot = WIDTH - LEFT - RIGHT
    height = TOP + ROW * len(rungs) + BOTTOM
    low = max(0.0, math.floor(20 * (min(min(r.low, r.parity) for r in rungs) - 0.01)) / 20)
    high = min(1.0, math.ceil(20 * (max(max(r.high, r.parity, 0.5) for r in rungs) + 0.01)) / 20)
    low = min(low, 0.5)
    step = 0.05 if high - low <= 0.5 else 0.1

    def x_of(share: float) -> float:
        return LEFT + plot * (share - low) / (high - low)

    bottom = TOP + ROW * len(rungs)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
             f'<text x="{WIDTH // 2}" y="22" text-anchor="middle" font-size="15">{svg_escape(title)}</text>',
             f'<text x="{LEFT + plot // 2}" y="42" text-anchor="middle" fill="#444444">A\'s win share, '
             f'95% interval (Wilson)</text>']
    tick = math.ceil(round(low / step, 6))
    while tick * step <= high + 1e-9:
        x = x_of(tick * step)
        parts.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{bottom}" stroke="#e4e4e4"/>')
        parts.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{round(100 * tick * step)}%</text>')
        tick += 1
    parts.append(f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + plot}" y2="{bottom}" stroke="black"/>')
    half = x_of(0.5)
    parts.append(f'<line x1="{half:.1f}" y1="{TOP - 4}" x2="{half:.1f}" y2="{bottom}" stroke="{PARITY}" '
                 f'stroke-width="1.5" stroke-dasharray="6,4"/>')
    for row, rung in enumerate(rungs):
        middle = TOP + ROW * row + ROW / 2
        colour = STRONGER if rung.stronger else NOT_STRONGER
        parts.append(f'<text x="{LEFT - 10}" y="{middle + 4:.1f}" text-anchor="end">{svg_escape(rung.label)}'
                     f'{"" if rung.players == 2 else f", {rung.players} players"}</text>')
        if rung.players != 2:
            x = x_of(rung.parity)
            parts.append(f'<line x1="{x:.1f}" y1="{middle - ROW / 2 + 3:.1f}" x2="{x:.1f}" '
                         f'y2="{middle + ROW / 2 - 3:.1f}" stroke="{PARITY}" stroke-width="1.5" '
                         f'stroke-dasharray="3,3"/>')
        left, right = x_of(rung.low), x_of(rung.high)
        parts.append(f'<line x1="{left:.1f}" y1="{middle:.1f}" x2="{right:.1f}" y2="{middle:.1f}" '
                     f'stroke="{colour}" stroke-width="3"/>')
        for x in (left, right):
            parts.append(f'<line x1="{x:.1f}" y1="{middle - 6:.1f}" x2="{x:.1f}" y2="{middle + 6:.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<circle cx="{x_of(rung.win_rate):.1f}" cy="{middle:.1f}" r="5" fill="{colour}"/>')
        parts.append(f'<text x="{LEFT + plot + 12}" y="{middle + 4:.1f}">{100 * rung.win_rate:.1f}% '
                     f'[{100 * rung.low:.1f}, {100 * rung.high:.1f}], {rung.games} games</text>')
    parts.append(f'<text x="{WIDTH // 2}" y="{bottom + 42}" text-anchor="middle" fill="#444444">'
                 f'dashed: parity, 50% with 2 players (1/K with K); blue: the interval lies above parity</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def ladder_lines(rungs: Sequence[Rung]) -> list[str]:
    """The ladder as a table for people."""
    width = max(len("match"), *(len(rung.label) for rung in rungs))
    lines = [f"{'match':<{width}}  players  games  win share          95% CI  above parity"]
    for rung in rungs:
        lines.append(f"{rung.label:<{width}}  {rung.players:>7}  {rung.games:>5}  {100 * rung.win_rate:>8.2f}%"
                     f"  [{100 * rung.low:6.2f}%, {100 * rung.high:6.2f}%]  "
                     f"{'yes' if rung.stronger else 'no'} ({100 * rung.parity:.4g}%)")
    return lines


__all__ = ["Rung", "read_rungs", "rung_of", "default_label", "is_label", "ladder_svg", "ladder_lines",
           "LABEL_CHARS", "RESULT_BYTES", "MAX_RUNGS"]
