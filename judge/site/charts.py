"""Line and bar charts as inline SVG (no script): one polyline a series, its points in
`data-points`, and a legend; the page shows the same numbers in a table beside it."""
from __future__ import annotations

from html import escape

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 260, 44, 10, 10, 26
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
NAMED = {"blue": "#1f5fbf", "yellow": "#d4a800", "red": "#c8102e", "green": "#2e8b3a", "brown": "#8b5a2b",
         "pink": "#e0609a", "black": "#333333", "orange": "#f08020"}


def colour(i: int, name: str) -> str:
    return NAMED.get(name.lower(), COLOURS[i % len(COLOURS)])


def line(title: str, xs: list[int], series: dict[str, list]) -> str:
    """A line chart of `series` (name -> a value or None at each x)."""
    values = [v for vs in series.values() for v in vs if v is not None]
    if not values or not xs:
        return ""
    lo, hi = min(0, min(values)), max(values)
    hi = hi if hi > lo else lo + 1
    x0, x1 = xs[0], xs[-1] if xs[-1] > xs[0] else xs[0] + 1
    w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x):
        return LEFT + (x - x0) * w / (x1 - x0)

    def py(y):
        return TOP + (hi - y) * h / (hi - lo)
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
           f'data-series="{len(series)}" preserveAspectRatio="none">']
    for k in range(5):  # the value axis
        y = lo + (hi - lo) * k / 4
        out.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py(y):.1f}" y2="{py(y):.1f}"/>'
                   f'<text class="tick" x="{LEFT - 4}" y="{py(y) + 4:.1f}" text-anchor="end">{round(y)}</text>')
    out.append(f'<text class="tick" x="{LEFT}" y="{HEIGHT - 8}">move {x0}</text>'
               f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">move {xs[-1]}</text>')
    for i, (name, vs) in enumerate(series.items()):
        points = [(x, v) for x, v in zip(xs, vs) if v is not None]
        path = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in points)
        out.append(f'<polyline class="series" data-name="{escape(name)}" data-points="{len(points)}" '
                   f'points="{path}" stroke="{colour(i, name)}"><title>{escape(name)}</title></polyline>')
    out.append("</svg>")
    legend = "".join(f'<li><span class="swatch" style="background:{colour(i, n)}"></span>{escape(n)}</li>'
                     for i, n in enumerate(series))
    return "".join(out) + f'<ul class="legend">{legend}</ul>'


def bars(title: str, rows: list[tuple[str, int]]) -> str:
    """A horizontal bar a row (the final standings)."""
    if not rows:
        return ""
    hi = max(max(v for _, v in rows), 1)
    lo = min(0, min(v for _, v in rows))
    bar_h, width = 24, WIDTH - 140
    height = bar_h * len(rows) + 4

    def px(v):
        return 120 + (v - lo) * width / (hi - lo)
    out = [f'<svg class="chart bars" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}" '
           f'data-series="1">']
    for i, (name, v) in enumerate(rows):
        y = 2 + i * bar_h
        a, b = sorted((px(0), px(v)))
        out.append(f'<text class="tick" x="114" y="{y + 16}" text-anchor="end">{escape(name)}</text>'
                   f'<rect class="bar" x="{a:.1f}" y="{y + 3}" width="{max(b - a, 1):.1f}" height="{bar_h - 6}" '
                   f'fill="{colour(i, name)}"/><text class="tick" x="{b + 4:.1f}" y="{y + 16}">{v}</text>')
    out.append("</svg>")
    return "".join(out)
