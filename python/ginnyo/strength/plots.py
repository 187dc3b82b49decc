"""The pictures of matches, as SVG: a match's scores (``ginnyo match --plot``),
the win rate against the rollout count (``ginnyo plot-sim``), and what the
ladder's picture shares with them (the colours, escaping)."""

from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .results import DealResult, MatchSummary


# -- the plot -------------------------------------------------------------------------------------

PLOT_COLOURS = ("#1f6fb4", "#d9622b")


def scores_svg(summary: MatchSummary, results: Sequence[DealResult], bins: int = 40) -> str:
    """An SVG picture: the distributions of A's and the field's final scores
    (left) and of the score difference A - the field's mean (right), with their means."""
    from ..support.number_text import number
    a, b = summary.bots   # escaped as they go into the picture
    a_scores = [score for result in results for score in result.a_scores]
    b_scores = [score for result in results for field in result.field_scores for score in field]
    differences = [difference for result in results for difference in result.differences()]
    field = b if summary.players == 2 else f"{b} (the field of {summary.players - 1})"
    versus = b if summary.players == 2 else "the field's mean"
    rate = "win rate" if summary.players == 2 else f"{summary.players} players, win share"
    width, height, margin = 980, 380, 48
    panel = (width - 3 * margin) // 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width // 2}" y="20" text-anchor="middle" font-size="15">'
             f'{svg_escape(a)} vs {svg_escape(b)}: {summary.games} games, {rate} '
             f'{100 * summary.win_rate:.1f}% [{100 * summary.low:.1f}%, {100 * summary.high:.1f}%]</text>']
    parts += _histogram(margin, 40, panel, height - 90, [a_scores, b_scores], bins,
                        [f"{a} (mean {statistics.fmean(a_scores):.1f})",
                         f"{field} (mean {statistics.fmean(b_scores):.1f})"],
                        "final score")
    parts += _histogram(2 * margin + panel, 40, panel, height - 90, [differences], bins,
                        [f"{a} - {versus} (mean {number(statistics.fmean(differences), '+.1f')})"],
                        "score difference")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _histogram(left: int, top: int, width: int, height: int, series: Sequence[Sequence[float]], bins: int,
               labels: list[str], axis: str) -> list[str]:
    low = min(min(values) for values in series)
    high = max(max(values) for values in series)
    step = max(1.0, (high - low + 1) / bins)
    counts = []
    for values in series:
        row = [0] * bins
        for value in values:
            row[min(bins - 1, int((value - low) / step))] += 1
        counts.append(row)
    peak = max(max(row) for row in counts) or 1
    bottom = top + height
    legend_top, top = top, top + 20 * len(series) + 6   # the legend above the bars
    height = bottom - top
    parts = [f'<line x1="{left}" y1="{bottom}" x2="{left + width}" y2="{bottom}" stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="black"/>',
             f'<text x="{left + width // 2}" y="{bottom + 34}" text-anchor="middle">{axis}</text>']
    bar = width / bins
    for number, row in enumerate(counts):
        colour = PLOT_COLOURS[number % len(PLOT_COLOURS)]
        for index, count in enumerate(row):
            if count:
                bar_height = height * count / peak
                parts.append(f'<rect x="{left + index * bar:.1f}" y="{bottom - bar_height:.1f}" '
                             f'width="{bar:.1f}" height="{bar_height:.1f}" fill="{colour}" fill-opacity="0.5"/>')
        mean = statistics.fmean(series[number])
        x = left + (mean - low) / step * bar
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="{colour}" '
                     f'stroke-width="2" stroke-dasharray="5,3"/>')
        parts.append(f'<rect x="{left + 10}" y="{legend_top + 2 + 20 * number}" width="12" height="12" '
                     f'fill="{colour}" fill-opacity="0.6"/><text x="{left + 28}" y="{legend_top + 12 + 20 * number}">'
                     f'{svg_escape(labels[number])}</text>')
    for tick in range(5):
        tick_value = low + step * bins * tick / 4
        x = left + width * tick / 4
        parts.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{tick_value:.0f}</text>')
    parts.append(f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{peak}</text>')
    parts.append(f'<text x="{left - 6}" y="{bottom}" text-anchor="end">0</text>')
    return parts


def svg_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- the plot of plot-sim -------------------------------------------------------------------------

def win_rate_svg(rows: Sequence[tuple[int, MatchSummary]], opponent: str) -> str:
    """An SVG picture: the sim player's win rate (with its 95% interval) against
    the rollouts a decision, on a log scale."""
    width, height, left, right, top, bottom = 640, 400, 70, 30, 50, 60
    plot_width, plot_height = width - left - right, height - top - bottom
    low = min(0.45, min(summary.low for _, summary in rows) - 0.02)
    high = max(0.55, max(summary.high for _, summary in rows) + 0.02)
    first, last = math.log2(rows[0][0]), math.log2(rows[-1][0])
    span = (last - first) or 1.0

    def x_of(count: int) -> float:   # 24 px in from both ends of the axis
        return left + 24 + (plot_width - 48) * ((math.log2(count) - first) / span if len(rows) > 1 else 0.5)

    def y_of(rate: float) -> float:
        return top + plot_height * (high - rate) / (high - low)

    games = rows[0][1].games
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width // 2}" y="24" text-anchor="middle" font-size="15">sim vs {svg_escape(opponent)}: '
             f'win rate against rollouts a decision ({games} games each)</text>',
             f'<line x1="{left}" y1="{top + plot_height}" x2="{left + plot_width}" y2="{top + plot_height}" '
             f'stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_height}" stroke="black"/>',
             f'<line x1="{left}" y1="{y_of(0.5):.1f}" x2="{left + plot_width}" y2="{y_of(0.5):.1f}" stroke="gray" '
             f'stroke-dasharray="5,3"/>',
             f'<text x="{left + plot_width // 2}" y="{height - 16}" text-anchor="middle">rollouts a decision</text>',
             f'<text x="18" y="{top + plot_height // 2}" text-anchor="middle" '
             f'transform="rotate(-90 18 {top + plot_height // 2})">win rate (95% CI)</text>']
    for tick in range(math.ceil(low * 20), math.floor(high * 20) + 1):   # every 5%
        rate = tick / 20
        parts.append(f'<text x="{left - 6}" y="{y_of(rate) + 4:.1f}" text-anchor="end">{5 * tick}%</text>')
    points = []
    for count, summary in rows:
        x = x_of(count)
        points.append(f"{x:.1f},{y_of(summary.win_rate):.1f}")
        parts.append(f'<line x1="{x:.1f}" y1="{y_of(summary.low):.1f}" x2="{x:.1f}" y2="{y_of(summary.high):.1f}" '
                     f'stroke="{PLOT_COLOURS[0]}" stroke-width="2"/>')
        parts.append(f'<circle cx="{x:.1f}" cy="{y_of(summary.win_rate):.1f}" r="4" fill="{PLOT_COLOURS[0]}"/>')
        parts.append(f'<text x="{x:.1f}" y="{top + plot_height + 18}" text-anchor="middle">{count}</text>')
    parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{PLOT_COLOURS[0]}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


__all__ = ["PLOT_COLOURS", "scores_svg", "win_rate_svg", "svg_escape"]
