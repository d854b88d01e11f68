"""The board drawn as SVG from the public record: Mogul's map (mogul-board: its rail networks,
their station spaces and who holds a depot on each) and the stock market (stock-round: the
price grid, each company's token on it, the shares in the Pool).

The drawing shows the position the page opens at, the last move's, from the record's public
view; each move's row of the record keeps the board when it changed (`board`,
judge/record/moves.py), and boards.js redraws the depots, tokens and Pool of the move shown as
the page steps (the drawing is made here once: the script only moves tokens and recolours
spaces). The report above the drawing keeps the same as text, for screen readers and readers
without JavaScript. A record that does not fit the drawing (an edited one) gets none.

The map of mogul-board is a schematic, as a metro map is: each network is a straight line,
the lines set as the sides of a star (each at the same distance from the centre, turned
evenly), so that two networks cross once, where the space they share lies (the stand-in map
has one such junction for every two networks); a network's other spaces are spread along its
line between the junctions. Spaces two networks share beyond one are drawn on the first
network's line with a ring of the other's colour."""
from __future__ import annotations

import json
import math
from html import escape

from judge.site import charts

MAP_SIZE, MAP_MARGIN, SPACE_R = 600, 44, 11
CELL_W, CELL_H, TOKEN_R = 40, 36, 11
STEP = 0.4  # the least distance between two spaces along a line (the lines lie at distance 1 from the centre)
MOST = 1000  # station or market spaces drawn at most, and 20 networks (a record's view is read as it is)


def figure(record: dict, seats: dict[str, str], colours: dict[str, str]) -> str:
    """The figure of the record's board (with its legend and each move's board for boards.js),
    or "" for a ruleset without one or a record that does not fit."""
    view = record.get("view", {})
    try:
        if isinstance(view.get("map"), list) and len(view["map"]) <= 20 \
                and sum(len(n["spaces"]) for n in view["map"]) <= MOST:
            caption, drawing = "The map", rail_map(view["map"], seats)
        elif isinstance(view.get("market"), list) and sum(len(row) for row in view["market"]) <= MOST:
            caption, drawing = "The stock market", market(view["market"], view.get("companies", []), colours)
        else:
            return ""
        steps = [[r["move"], r["board"]] for r in record.get("moves", []) if isinstance(r, dict) and "board" in r]
        data = json.dumps({"seats": {p: [c, tag] for p, (c, tag) in _tags(seats).items()}, "steps": steps},
                          separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError):
        return ""  # an edited record's board (inf, a date, ...): no drawing, the rest of the page
    when = ("As it stands at the move shown above (without JavaScript: at the last move)" if steps else
            "As it stands at the last move (this record was written before the judge kept the board of each move)")
    return (f'<figure class="board" id="board"><figcaption>{caption} at move <span class="board-move">'
            f'{record.get("move")}</span></figcaption>\n<div class="scroll">{drawing}</div>\n'
            f'<p class="note">{when}; the report lists the same as text.</p>\n'
            f'<script type="application/json" id="board-steps">{data}</script></figure>\n')


def _tags(seats: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Each player's (colour class, tag): the shortest start of their name no other player's
    shares, up to three letters, its first letter a capital."""
    out = {}
    for p, colour in seats.items():
        n = next((k for k in range(1, 4) if not any(q != p and q.lower().startswith(p[:k].lower()) for q in seats)), 3)
        out[p] = (colour, p[:n].capitalize())
    return out


# ---- Mogul's map ----------------------------------------------------------------------------
def layout(networks: list[dict]) -> dict:
    """{space code: (x, y, the networks it lies on)} in a unit drawing centred on 0, each
    network's line ((x, y), (x, y)) and normal, and the junctions (the spaces where two
    cross). Line k lies at distance 1 from the centre, its normal turned by 360/n degrees from
    the last (half a step more for the second half of an even number, so that no two are
    parallel)."""
    n = len(networks)
    angles = [math.pi / 2 + 2 * math.pi * k / n + (math.pi / n if n % 2 == 0 and k >= n // 2 else 0)
              for k in range(n)]
    normal = [(math.cos(a), math.sin(a)) for a in angles]
    along = [(-s, c) for c, s in normal]

    def cross(i, j):  # the point at distance 1 along both normals
        (a, b), (c, d) = normal[i], normal[j]
        k = max(1 + a * c + b * d, 1e-6)  # (never parallel: the normals differ by less than 180 degrees)
        return ((a + c) / k, (b + d) / k)

    codes = [[s["code"] for s in net["spaces"]] for net in networks]
    where: dict[str, tuple[float, float, list[int]]] = {}
    junctions: set[str] = set()
    stops: list[list[tuple[float, str]]] = [[] for _ in networks]
    for i in range(n):
        for j in range(i + 1, n):
            shared = [c for c in codes[i] if c in codes[j]]
            if len(shared) == 1:  # the junction: where the two lines cross
                x, y = cross(i, j)
                where[shared[0]] = (x, y, [i, j])
                junctions.add(shared[0])
                for k in (i, j):
                    stops[k].append((x * along[k][0] + y * along[k][1], shared[0]))
    lines = []
    for k in range(n):
        cuts = [x * along[k][0] + y * along[k][1] for x, y in (cross(k, j) for j in range(n) if j != k)]
        ts = sorted(t for t, _ in stops[k])
        if len(ts) < 2:  # a line with fewer than two junctions: as long as the others cross it
            ts = [min(cuts + [-1.0]), max(cuts + [1.0])]
        marks = sorted({ts[0], ts[-1], *(t for t in cuts if ts[0] <= t <= ts[-1])})
        own = [c for c in codes[k] if c not in where]
        placed = _spread(marks, len(own))
        for code, t in zip(own, placed):
            x, y = normal[k][0] + t * along[k][0], normal[k][1] + t * along[k][1]
            where[code] = (x, y, [k] + [j for j in range(n) if j != k and code in codes[j]])
        lines.append([(normal[k][0] + t * along[k][0], normal[k][1] + t * along[k][1])
                      for t in (min(ts + placed), max(ts + placed))])
    return {"spaces": where, "lines": lines, "normal": normal, "junctions": junctions}


def _spread(marks: list[float], count: int) -> list[float]:
    """`count` places along a line, never nearer than STEP to each other or to a mark (its
    ends, and where other lines cross it): each in turn in the gap between two marks where
    the places would stand widest apart, and beyond the ends when the gaps are full."""
    gaps = list(zip(marks, marks[1:]))
    share = [0] * len(gaps)
    out = []
    for _ in range(count):
        free = [i for i, (a, b) in enumerate(gaps) if (b - a) / (share[i] + 2) >= STEP]
        if free:
            i = max(free, key=lambda i: (gaps[i][1] - gaps[i][0]) / (share[i] + 1))
            share[i] += 1
        else:
            beyond = len(out)
            out.append(marks[-1] + STEP * (beyond // 2 + 1) if beyond % 2 == 0 else marks[0] - STEP * (beyond // 2 + 1))
    return [a + (b - a) * (i + 1) / (m + 1) for (a, b), m in zip(gaps, share) for i in range(m)] + out


def rail_map(networks: list[dict], seats: dict[str, str]) -> str:
    laid = layout(networks)
    spaces, normal = laid["spaces"], laid["normal"]
    xs = [p[0] for p in spaces.values()] + [p[0] for line in laid["lines"] for p in line]
    ys = [p[1] for p in spaces.values()] + [p[1] for line in laid["lines"] for p in line]
    size = max(MAP_SIZE, 12 * len(spaces))  # (a larger map drawn larger, its spaces as far apart)
    scale = (size - 2 * MAP_MARGIN) / max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    width = round((max(xs) - min(xs)) * scale + 2 * MAP_MARGIN)
    height = round((max(ys) - min(ys)) * scale + 2 * MAP_MARGIN)

    def at(x, y):  # (y up in the layout, down on screen)
        return (MAP_MARGIN + (x - min(xs)) * scale, MAP_MARGIN + (max(ys) - y) * scale)
    colour = [charts.company_colour(k, net["colour"]) for k, net in enumerate(networks)]
    tags = _tags(seats)
    out = [f'<svg class="drawing map" viewBox="0 0 {width} {height}" width="{width}" role="img" '
           f'aria-label="The map: each network, its station spaces and who holds a depot on each">']
    for k, ((ax, ay), (bx, by)) in enumerate(laid["lines"]):
        (x1, y1), (x2, y2) = at(ax, ay), at(bx, by)
        out.append(f'<line class="network" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="{colour[k]}"><title>{escape(networks[k]["company"])} ({escape(networks[k]["colour"])})'
                   '</title></line>')
    names = {s["code"]: (s["name"], s.get("owner", "")) for net in networks for s in net["spaces"]}
    for code, (x, y, on) in spaces.items():
        cx, cy = at(x, y)
        name, owner = names[code]
        if code in laid["junctions"]:
            ring, ox, oy = "#222", x, y  # where two lines cross: its label outwards from the centre
        else:
            ring, (ox, oy) = colour[on[0]], normal[on[0]]
        length = math.hypot(ox, oy) or 1
        dx, dy = ox / length, -oy / length
        anchor = "start" if dx > 0.35 else "end" if dx < -0.35 else "middle"
        lx, ly = cx + dx * (SPACE_R + 5), cy + dy * (SPACE_R + 5) + (4 if abs(dy) < 0.6 else 11 if dy > 0 else -3)
        networks_on = ", ".join(f'{networks[k]["colour"]} ({networks[k]["company"]})' for k in on)
        extra = "".join(f'<circle class="also" cx="{cx:.1f}" cy="{cy:.1f}" r="{SPACE_R + 3}" stroke="{colour[k]}"/>'
                        for k in on[1:] if ring != "#222")
        held, tag = tags.get(owner, ("", ""))
        out.append(f'<g class="space" data-space="{escape(code)}">{extra}'
                   f'<circle class="depot{" seat " + held if held else ""}" cx="{cx:.1f}" cy="{cy:.1f}" '
                   f'r="{SPACE_R}" stroke="{ring}"/>'
                   f'<text class="tag" x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle">{escape(tag)}</text>'
                   f'<text class="code" x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}">{escape(code)}</text>'
                   f'<title>{escape(code)} {escape(name)}, on {escape(networks_on)}</title></g>')
    out.append("</svg>")
    legend = {f'{net["company"]} ({net["colour"]})': colour[k] for k, net in enumerate(networks)}
    players = {f"{p} ({tag})": c for p, (c, tag) in tags.items()}
    return "".join(out) + charts.swatches(legend).replace('class="legend"', 'class="legend networks"') \
        + charts.swatches(players)


# ---- the stock market -----------------------------------------------------------------------
def market(grid: list[list[dict]], companies: list[dict], colours: dict[str, str]) -> str:
    rows, cols = len(grid), max(len(r) for r in grid)
    names = [c["name"] for c in companies]
    width, top = cols * CELL_W + 2, rows * CELL_H + 2
    pool_y = top + 14
    height = pool_y + 2 * TOKEN_R + 14
    out = [f'<svg class="drawing market" viewBox="0 0 {width} {height}" width="{width}" data-token="{TOKEN_R}" role="img" '
           'aria-label="The stock market: each company\'s token on its share price, and the shares in the Pool">']
    placed: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            x, y = 1 + c * CELL_W, 1 + r * CELL_H
            par = " par" if cell.get("par") else ""
            out.append(f'<rect class="cell{par}" data-cell="{r},{c}" x="{x}" y="{y}" width="{CELL_W}" '
                       f'height="{CELL_H}"/><text class="price" x="{x + 3}" y="{y + 11}">{int(cell["price"])}</text>')
            stack = cell.get("tokens", [])
            for i, name in enumerate(stack):
                placed[name] = _token_at(x, y, i, len(stack))
    for name in names:
        fill = colours.get(name, "#777")
        x, y, scale = placed.get(name, (0, 0, 1))
        hidden = "" if name in placed else " hidden"
        out.append(f'<g class="token{hidden}" data-company="{escape(name)}" '
                   f'transform="translate({x:.1f},{y:.1f}) scale({scale:.3f})">'
                   f'<circle r="{TOKEN_R}" fill="{fill}"/><text y="3" text-anchor="middle" fill="{charts.ink(fill)}">'
                   f'{escape(name)}</text><title>{escape(name)}</title></g>')
    pool = {c["name"]: c.get("pool", 0) for c in companies}
    out.append(f'<text class="pool-label" x="2" y="{pool_y + TOKEN_R + 4}">Pool</text>')
    for i, name in enumerate(names):
        fill = colours.get(name, "#777")
        x = 50 + i * 64
        empty = "" if pool[name] else " empty"
        out.append(f'<g class="pooled{empty}" data-company="{escape(name)}" transform="translate({x + TOKEN_R},'
                   f'{pool_y + TOKEN_R})"><circle r="{TOKEN_R}" fill="{fill}"/><text y="3" text-anchor="middle" '
                   f'fill="{charts.ink(fill)}">{escape(name)}</text><text class="count" x="{TOKEN_R + 3}" y="4">'
                   f'×{pool[name]}</text></g>')
    out.append("</svg>")
    return "".join(out) + '<p class="legend-note">Shaded: the par prices. A company\'s token sits on its share ' \
                          'price; tokens on one price sit side by side in the order the report lists them.</p>'


def _token_at(x: float, y: float, i: int, n: int) -> tuple[float, float, float]:
    """The centre of the i-th of n tokens on the space at (x, y) and their scale: side by side,
    none over another (made smaller to fit the space: boards.js places them alike)."""
    scale = min(1, (CELL_W - 4) / (2 * TOKEN_R * n))
    step = 2 * TOKEN_R * scale
    return x + CELL_W / 2 - step * (n - 1) / 2 + step * i, y + CELL_H - TOKEN_R * scale - 3, scale
