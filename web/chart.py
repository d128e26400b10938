"""Server-drawn SVG: the QR code of a link and the score-over-turns chart (no JS library)."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any
from xml.sax.saxutils import escape

import qrcode
import qrcode.exceptions
import qrcode.image.svg

COLOURS = [  # (neighbours differ in lightness as well as hue: red and green look alike to
    # one player in twelve; every other line is dashed too)
    "#b3261e",
    "#0d47a1",
    "#1b5e20",
    "#e65100",
    "#4a148c",
    "#006064",
    "#880e4f",
    "#33691e",
    "#3e2723",
    "#263238",
    "#f57f17",
    "#1a237e",
]


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    """A scalable QR code (the ``qrcode`` package's SVG path image), sized by CSS. Raises
    ValueError for a URL longer than a QR code holds."""
    try:
        img = qrcode.make(
            url,
            image_factory=qrcode.image.svg.SvgPathImage,
            border=2,
            error_correction=qrcode.constants.ERROR_CORRECT_M,
        )
    except (ValueError, qrcode.exceptions.DataOverflowError) as exc:  # (past version 40)
        raise ValueError(f"a URL of {len(url)} characters is too long for a QR code") from exc
    svg = img.to_string(encoding="unicode")
    svg = re.sub(r'\swidth="[^"]*"\s+height="[^"]*"', "", svg, count=1)
    svg = svg.replace("<svg ", '<svg role="img" aria-label="QR code" ', 1)
    return svg.replace("<path ", '<rect width="100%" height="100%" fill="#fff"/><path ', 1)


def axis_step(highest: int) -> int:
    """The score axis's step: the least of 1, 2, 2.5 or 5 times a power of ten that reaches
    ``highest`` in at most five steps, so the axis reads 0 / 2,500 / ... / 12,500 for a
    10,650 lead, never 2,662 / 5,325."""
    power = 1
    while True:
        for factor in (1, 2, 2.5, 5):
            step = int(factor * power)
            if step >= 1 and 5 * step >= highest:
                return step
        power *= 10


FONT_PX = 15
"""The chart's text size in its own pixels: drawn 360 wide, it is shrunk to a 320-px phone's
card, where 13 came out under 10 px; 15 comes out about 12-13."""


DIGIT_PX = 8.7
"""About the width of a digit (or less, a comma) at `FONT_PX`, as of a Latin letter."""


def score_chart(
    state: dict[str, Any] | None, players: list[str], *, width: int = 360, height: int = 220
) -> str:
    """One polyline per player: banked score after each of their turns (from ``history``)."""
    series: dict[str, list[int]] = {p: [0] for p in players}
    for entry in (state or {}).get("history", []):
        series.setdefault(entry["player"], [0]).append(int(entry["score"]))
    highest = max([max(s) for s in series.values()] + [(state or {}).get("target") or 0, 1])
    step = axis_step(highest)
    top = -(-highest // step) * step  # (up to the next step)
    turns = max([len(s) - 1 for s in series.values()] + [1])
    # the legend two to a row where every entry fits half the width (`DIGIT_PX` a letter
    # at 15 px, twice that for a wide CJK one, 28 for the line), else one to a row
    longest = max(  # (no one seated yet: the axes alone)
        (
            sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in f"{name} {s[-1]:,}")
            for name, s in series.items()
        ),
        default=0,
    )
    per_row = 2 if 28 + DIGIT_PX * longest <= (width - 16) / 2 else 1
    legend_rows = -(-len(series) // per_row)
    height += 18 * max(legend_rows - 1, 0)
    # room for the widest label, "10,000" in 58 (a game to 100,000 had cut its "1" off)
    left = max(58, round(DIGIT_PX * len(f"{top:,}")) + 6)
    right, upper, lower = 8, 10, 28 + 18 * legend_rows
    pw, ph = width - left - right, height - upper - lower

    def xy(i: int, v: int) -> str:
        return f"{left + pw * i / turns:.1f},{upper + ph * (1 - v / top):.1f}"

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="score over turns" font-family="system-ui,sans-serif" '
        f'font-size="{FONT_PX}">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
    ]
    for v in range(0, top + 1, step):
        y = upper + ph * (1 - v / top)
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="#ddd"/><text x="{left - 4}" y="{y + 4:.1f}" '
            f'text-anchor="end">{v:,}</text>'
        )
    out.append(
        f'<text x="{left + pw / 2:.0f}" y="{upper + ph + 16}" text-anchor="middle">'
        f"each player's turns (0 to {turns})</text>"
    )
    for n, (name, points) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        dash = ' stroke-dasharray="7 4"' if n % 2 else ""
        path = " ".join(xy(i, v) for i, v in enumerate(points))
        out.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="3"{dash} points="{path}"/>'
        )
        out.append(
            _legend_entry(n, name, points[-1], colour, dash, per_row, width, height, legend_rows)
        )
    out.append("</svg>")
    return "".join(out)


def _legend_entry(
    n: int,
    name: str,
    total: int,
    colour: str,
    dash: str,
    per_row: int,
    width: int,
    height: int,
    rows: int,
) -> str:
    """The ``n``th player's line, name and total in the legend. The total is set
    right-aligned at the end of its cell and the name is clipped short of it: a name
    wider than its letters were taken for (20 W's, 20 CJK letters) had pushed the total
    past the chart's edge ("WWWW…W 14,")."""
    cell = (width - 16) / per_row
    lx = 8 + (n % per_row) * cell
    ly = height - 6 - 18 * (rows - 1 - n // per_row)
    end = lx + cell - (8 if n % per_row < per_row - 1 else 0)
    room = end - 1.1 * DIGIT_PX * len(f"{total:,}") - 6 - (lx + 28)  # (bold: a tenth wider)
    return (
        f'<line x1="{lx:.0f}" x2="{lx + 22:.0f}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" '
        f'stroke-width="3"{dash}/><clipPath id="legend-{n}"><rect x="{lx + 28:.0f}" '
        f'y="{ly - 16}" width="{max(room, 0):.0f}" height="20"/></clipPath>'
        f'<text x="{lx + 28:.0f}" y="{ly}" clip-path="url(#legend-{n})">{escape(name)}</text>'
        f'<text x="{end:.0f}" y="{ly}" text-anchor="end" font-weight="bold">{total:,}</text>'
    )
