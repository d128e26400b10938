"""The score chart on the history card: an SVG drawn from the game's turns."""

from __future__ import annotations

import re

from web import chart


def _point(xy: str) -> tuple[float, float]:
    x, y = xy.split(",")
    return float(x), float(y)


def _lines(svg: str) -> list[list[tuple[float, float]]]:
    """Each polyline's points, in the order of the players."""
    return [
        [_point(xy) for xy in points.split()]
        for points in re.findall(r'<polyline[^>]* points="([^"]*)"', svg)
    ]


def legend(svg: str) -> list[tuple[str, str]]:
    """Each player's name and total as the legend writes them."""
    return re.findall(r'clip-path="url\(#legend-\d+\)">([^<]*)</text><text [^>]*>([\d,]+)<', svg)


def test_the_chart_rises_with_the_score_up_to_the_target_and_the_last_turn() -> None:
    """Higher scores are drawn higher, the axis reaches the target even while every score is
    far below it, and the last turn is at the right edge."""
    history = [
        {"player": "Ann", "score": 500},
        {"player": "Bob", "score": 0},
        {"player": "Ann", "score": 1_500},
    ]
    svg = chart.score_chart({"history": history, "target": 10_000}, ["Ann", "Bob"])
    labels = re.findall(r'text-anchor="end">([\d,]+)</text>', svg)
    assert labels == ["0", "2,000", "4,000", "6,000", "8,000", "10,000"]
    assert "each player's turns (0 to 2)" in svg
    ann, bob = _lines(svg)
    assert ann[0][1] > ann[1][1] > ann[2][1]  # (SVG's y grows downwards)
    assert {y for _x, y in bob} == {ann[0][1]}
    assert ann[-1][0] == 360 - 8  # (the width less the right margin)


def test_the_chart_escapes_names() -> None:
    """A name is text in the SVG, never markup."""
    svg = chart.score_chart(None, ["<b>Ann</b> & Co"])
    assert legend(svg) == [("&lt;b&gt;Ann&lt;/b&gt; &amp; Co", "0")] and "<b>" not in svg


def test_the_axis_labels_fit_left_of_the_plot_for_any_target() -> None:
    """The labels end 4 px left of the plot, drawn right-aligned: a game to 100,000 had its
    top label cut to "00,000" at the card's edge, the margin made for "10,000"."""
    for target, widest in ((10_000, "10,000"), (100_000, "100,000"), (1_000_000, "1,000,000")):
        svg = chart.score_chart({"history": [], "target": target}, ["Ann"])
        labels = re.findall(r'<text x="([\d.]+)"[^>]*text-anchor="end">([\d,]+)</text>', svg)
        assert labels[-1][1] == widest
        ends = {float(x) for x, _ in labels}
        assert len(ends) == 1 and ends.pop() >= chart.DIGIT_PX * len(widest)
        plot_left = _lines(svg)[0][0][0]
        assert plot_left > chart.DIGIT_PX * len(widest)  # (the line starts past them)


def test_a_wide_name_never_pushes_its_total_off_the_chart() -> None:
    """The total is set right-aligned inside its legend cell and the name clipped short of
    it: 20 W's (each about 14 px where a letter was taken for 8.7) had cut "14,850" to
    "14," at the chart's edge (a review at 390 px)."""
    names = ["W" * 20, "李" * 20, "Ann", "Bob"]
    history = [{"player": name, "score": 14_850} for name in names]
    svg = chart.score_chart({"history": history, "target": 100_000}, names)
    assert legend(svg) == [(name, "14,850") for name in names]
    clips = {
        int(n): (float(x), float(w))
        for n, x, w in re.findall(
            r'<clipPath id="legend-(\d+)"><rect x="([\d.]+)" y="[\d.-]+" width="([\d.]+)"', svg
        )
    }
    ends = [float(x) for x in re.findall(r'<text x="([\d.]+)"[^>]*font-weight="bold">', svg)]
    assert len(clips) == len(ends) == 4
    for n, end in enumerate(ends):
        assert end <= 360 - 8  # (the total ends inside the chart)
        x, w = clips[n]
        assert x + w <= end - chart.DIGIT_PX * len("14,850")  # (the name stops before it)
    # two to a row where short names fit half the width, each total at its cell's end
    svg = chart.score_chart({"history": history[2:], "target": 10_000}, names[2:])
    ends = [float(x) for x in re.findall(r'<text x="([\d.]+)"[^>]*font-weight="bold">', svg)]
    assert ends[0] < 180 < ends[1] <= 352
