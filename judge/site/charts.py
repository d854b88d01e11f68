"""Line and bar charts as inline SVG (no script); the page shows the same numbers in a table.

Text is drawn at its own size in CSS pixels and never scaled, so it reads the same on a phone
as on a desktop: a chart is an SVG as wide as the page with no viewBox, its height fixed in
pixels; what runs along the width is placed in per cent of it (a line chart's lines in a nested
SVG stretched across, x in moves and y in pixels; the bars' lengths), labels are anchored
inside the chart, so none is cut at its edge. Value ticks are round (1, 2 or 5 times a power of
ten). A player's colour is their seat's everywhere on a page (class `seatN`, its colour in
site.css: one place); a company's is its colour name (Mogul's `blue`), else its place in the game."""
from __future__ import annotations

import math
from html import escape

TOP, PLOT, BELOW = 18, 200, 40  # a line chart: room for the top tick's label, the plot, the move axis
ROW = 38  # a bar and its labels
LIFT = 3  # pixels a line is lifted for each line drawn before it that it runs along
DASHES = ["7 4", "2 3", "9 3 2 3"]  # (in screen pixels: the lines' stroke does not scale)
NAMED = {"blue": "#1f5fbf", "yellow": "#d4a800", "red": "#c8102e", "green": "#2e8b3a", "brown": "#8b5a2b",
         "pink": "#e0609a", "black": "#333333", "orange": "#f08020"}
COMPANIES = ["#c8102e", "#1f5fbf", "#2e8b3a", "#d4a800", "#333333", "#8b5a2b", "#f08020", "#e0609a", "#0e8a9a",
             "#7f7f7f"]


def seats(players: list[str]) -> dict[str, str]:
    """Each player's colour, as the class of their seat (seat1 ... seat6, colours in site.css)."""
    return {p: f"seat{i % 6 + 1}" for i, p in enumerate(players)}


def company_colour(i: int, name: str) -> str:
    return NAMED.get(name.lower(), COMPANIES[i % len(COMPANIES)])


def companies(names) -> dict[str, str]:
    return {c: company_colour(i, c) for i, c in enumerate(names)}


def ink(colour: str) -> str:
    """Black or white, whichever reads on `colour` (#rrggbb)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def paint(colour: str, attribute: str, kind: str) -> str:
    """The attributes of an element of class `kind` in `colour`: a seat's class (seatN), else
    the colour given as `attribute` (fill, stroke)."""
    return f' class="{kind} seat {colour}"' if not colour.startswith("#") else f' class="{kind}" {attribute}="{colour}"'


def swatches(colours: dict[str, str]) -> str:
    """The legend: a swatch of each name's colour."""
    items = "".join(f'<li><span class="swatch seat {c}"></span>{escape(n)}</li>' if not c.startswith("#") else
                    f'<li><span class="swatch" style="background:{c}"></span>{escape(n)}</li>'
                    for n, c in colours.items())
    return f'<ul class="legend">{items}</ul>'


def ticks(lo: float, hi: float, count: int = 4) -> list[int]:
    """Round values from at most `lo` to at least `hi`, about `count` steps of 1, 2 or 5 times
    a power of ten (whole numbers: the charts' values are)."""
    raw = max((hi - lo) / count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(k * power for k in (1, 2, 5, 10) if k * power >= raw)
    first, last = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if last == first:
        last += step
    return list(range(int(first), int(last) + 1, int(step)))


def line(title: str, xs: list[int], series: dict[str, list], colours: dict[str, str]) -> str:
    """A line chart of `series` (name -> a value or None at each x, the moves), each in its
    colour (`colours`), a dot at its last point, and its legend."""
    values = [v for vs in series.values() for v in vs if v is not None]
    if not values or not xs:
        return ""
    levels = ticks(min(0, min(values)), max(values))
    lo, hi = levels[0], levels[-1]
    x0, x1 = xs[0], max(xs[-1], xs[0] + 1)
    pad = (x1 - x0) * 0.02
    left, width = x0 - pad, x1 - x0 + 2 * pad

    def pct(x):
        return f"{(x - left) * 100 / width:.2f}%"

    def py(v):
        return (hi - v) * PLOT / (hi - lo)
    height = TOP + PLOT + BELOW
    out = [f'<svg class="chart line" width="100%" height="{height}" role="img" aria-label="{escape(title)}" '
           f'data-series="{len(series)}">']
    for v in levels:
        y = TOP + py(v)
        out.append(f'<line class="grid" x1="0" x2="100%" y1="{y:.1f}" y2="{y:.1f}"/>'
                   f'<text class="tick" x="3" y="{y - 4:.1f}">{v}</text>')
    for x in (t for t in ticks(x0, x1, 5) if x0 <= t <= x1):
        share = (x - left) / width
        anchor = "start" if share < 0.04 else "end" if share > 0.96 else "middle"
        out.append(f'<line class="grid" x1="{pct(x)}" x2="{pct(x)}" y1="{TOP}" y2="{TOP + PLOT + 4}"/>'
                   f'<text class="tick" x="{pct(x)}" y="{TOP + PLOT + 17}" text-anchor="{anchor}">{x}</text>')
    out.append(f'<text class="tick axis" x="50%" y="{height - 6}" text-anchor="middle">move</text>')
    out.append(f'<svg x="0" y="{TOP}" width="100%" height="{PLOT}" viewBox="{left:.2f} 0 {width:.2f} {PLOT}" '
               'preserveAspectRatio="none" overflow="visible">')
    ends, drawn = [], []
    for name, vs in series.items():
        points = [(x, v) for x, v in zip(xs, vs) if v is not None]
        under = _under(points, drawn)
        lift = under * LIFT
        path = " ".join(f"{x},{py(v) - lift:.1f}" for x, v in points)
        dashes = f' stroke-dasharray="{DASHES[(under - 1) % len(DASHES)]}" data-under="{under}"' if under else ""
        out.append(f'<polyline{paint(colours[name], "stroke", "series")} data-name="{escape(name)}" '
                   f'data-points="{len(points)}"{dashes} points="{path}"><title>{escape(name)}</title></polyline>')
        if points:
            x, v = points[-1]
            ends.append(f'<circle{paint(colours[name], "fill", "end")} cx="{pct(x)}" cy="{TOP + py(v) - lift:.1f}" '
                        f'r="3"><title>{escape(name)}: {v} at move {x}</title></circle>')
    out.append("</svg>")
    out += ends
    out.append("</svg>")
    return "".join(out) + swatches({n: colours[n] for n in series})


def _under(points: list[tuple[int, float]], drawn: list[set]) -> int:
    """How many of the lines drawn before run along a quarter or more of this one (the same
    values from one move to the next): it is lifted by LIFT pixels and dashed for each, so that
    a line with another's values is still seen (rumors' prices often move together; a shared
    start alone leaves it as it is). `drawn` takes this line's stretches."""
    stretches = set(zip(points, points[1:])) or set(points)
    drawn.append(stretches)
    return sum(1 for earlier in drawn[:-1] if 4 * len(earlier & stretches) >= len(stretches))


def bars(title: str, rows: list[tuple[str, str, int, str]]) -> str:
    """A horizontal bar a row (name, label, value, colour): the label above the bar's start,
    the value at the chart's right edge, the bar's length in per cent of the width."""
    if not rows:
        return ""
    lo = min(0, min(v for _, _, v, _ in rows))
    hi = max(max(v for _, _, v, _ in rows), lo + 1)

    def share(v):
        return (v - lo) * 100 / (hi - lo)
    out = [f'<svg class="chart bars" width="100%" height="{ROW * len(rows) + 2}" role="img" '
           f'aria-label="{escape(title)}" data-series="1">']
    for i, (name, label, v, colour) in enumerate(rows):
        y = i * ROW
        a, b = sorted((share(0), share(v)))
        out.append(f'<text class="tick label" x="2" y="{y + 14}">{escape(label)}</text>'
                   f'<text class="tick value" x="100%" dx="-2" y="{y + 14}" text-anchor="end">{v}</text>'
                   f'<rect{paint(colour, "fill", "bar")} data-name="{escape(name)}" x="{a:.2f}%" y="{y + 19}" '
                   f'width="{max(b - a, 0.3):.2f}%" height="14"><title>{escape(label)}: {v}</title></rect>')
    out.append("</svg>")
    return "".join(out)
