"""The board drawings (judge/site/boards.py) as SVG: Mogul's map laid out as a star of lines,
any map a game master may write drawn with every space once, and a record that does not fit
drawn not at all. (In the browser, following the moves: tests/site/test_browser.py.)"""
from __future__ import annotations

import itertools
import math
import re

from judge.engine import bots
from judge.record import public
from judge.site import boards, charts, pages

from registry import new_game

COLOURS = ["blue", "yellow", "red", "green", "brown", "pink"]


def drawn(svg: str) -> dict[str, tuple[float, float]]:
    """Each space's centre in the drawing."""
    out = {}
    for code, group in re.findall(r'<g class="space" data-space="(\w+)">(.*?)</g>', svg):
        x, y = re.search(r'<circle class="depot[^"]*" cx="([\d.]+)" cy="([\d.]+)"', group).groups()
        assert code not in out, f"{code} drawn twice"
        out[code] = (float(x), float(y))
    return out


def lines(svg: str) -> list[tuple[float, float, float, float]]:
    return [tuple(map(float, m)) for m in
            re.findall(r'<line class="network" x1="([\d.-]+)" y1="([\d.-]+)" x2="([\d.-]+)" y2="([\d.-]+)"', svg)]


def off_line(p, line) -> float:
    (x, y), (x1, y1, x2, y2) = p, line
    return abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) / math.hypot(x2 - x1, y2 - y1)


def closest(points) -> float:
    return min(math.dist(a, b) for a, b in itertools.combinations(points, 2))


def test_the_stand_in_map_is_a_star_each_two_networks_crossing_at_their_junction():
    game = new_game("mogul-board", 4, {}, 3)
    bots.play_out(game, moves=200)
    networks = game.view(None)["map"]
    svg = boards.rail_map(networks, charts.seats(game.players))
    at, drawn_lines = drawn(svg), lines(svg)
    assert set(at) == {s["code"] for n in networks for s in n["spaces"]} and len(at) == 45
    for k, network in enumerate(networks):  # every space of a network on its line
        assert all(off_line(at[s["code"]], drawn_lines[k]) < 0.5 for s in network["spaces"]), network["colour"]
    junctions = re.findall(r'data-space="(\w+)"><circle class="depot[^"]*" cx="[\d.]+" cy="[\d.]+" r="11" '
                           r'stroke="#222"', svg)
    assert len(junctions) == 10 and all(sum(s["code"] == j for n in networks for s in n["spaces"]) == 2
                                        for j in junctions)
    assert closest(at.values()) > 2 * boards.SPACE_R + 6  # apart (their labels stand off the line)
    held = {s["code"]: s["owner"] for n in networks for s in n["spaces"] if s["owner"]}
    assert held and all(re.search(f'data-space="{code}">.*?class="depot seat {charts.seats(game.players)[p]}"', svg)
                        for code, p in held.items())


def network(colour: str, codes: list[str]) -> dict:
    return {"colour": colour, "company": colour.title() + " Lines",
            "spaces": [{"code": c, "name": c.title(), "owner": "", "also": ""} for c in codes]}


def test_any_map_a_game_master_writes_is_drawn_with_every_space_once():
    """3, 4 and 6 networks; two networks sharing two spaces, or none: every space is drawn
    once, apart from the others, on its first network's line, with a ring for a second."""
    maps = {
        "three": [network("blue", ["AA", "AB", "A1", "A2"]), network("red", ["AA", "BB", "B1"]),
                  network("green", ["AB", "BB", "C1", "C2", "C3"])],
        "four": [network(c, [f"{c[:2].upper()}{i}" for i in range(6)]) for c in COLOURS[:4]],
        "six, two shared twice": [network(c, [f"{c[:2].upper()}{i}" for i in range(8)]) for c in COLOURS],
    }
    maps["four"][0]["spaces"] += [dict(s) for s in maps["four"][1]["spaces"][:2]]  # blue and yellow share two
    for k in range(5):  # a star of five of the six, the pink network crossing them apart
        for j in range(k + 1, 5):
            shared = {"code": f"J{k}{j}", "name": "Junction", "owner": "", "also": ""}
            maps["six, two shared twice"][k]["spaces"].append(dict(shared))
            maps["six, two shared twice"][j]["spaces"].append(dict(shared))
    for name, networks in maps.items():
        svg = boards.rail_map(networks, charts.seats(["ann", "ben", "cy"]))
        at, drawn_lines = drawn(svg), lines(svg)
        assert set(at) == {s["code"] for n in networks for s in n["spaces"]}, name
        assert closest(at.values()) > 2 * boards.SPACE_R + 2, name
        for k, n in enumerate(networks):
            first = [s["code"] for s in n["spaces"] if not any(s["code"] in (t["code"] for t in m["spaces"])
                                                                for m in networks[:k])]
            assert all(off_line(at[c], drawn_lines[k]) < 0.5 for c in first), (name, n["colour"])
    svg = boards.rail_map(maps["four"], {})
    assert svg.count('class="also"') == 2  # blue's two spaces also on yellow: ringed in yellow
    assert svg.count(f'class="also" ') == len(re.findall(f'class="also" [^>]*stroke="{charts.NAMED["yellow"]}"', svg))


def test_a_record_whose_board_does_not_fit_gets_no_drawing_and_still_its_page():
    game = new_game("mogul-board", 3, {}, 5)
    bots.play_out(game, moves=30)
    record = public.build(game, "edited")
    assert 'id="board"' in pages.game_page(record, None)
    for bad in ([{"colour": "blue"}], "a map", [{"colour": "blue", "company": "B", "spaces": [{"code": 1}]}],
                [network("blue", [f"S{i}" for i in range(2000)])], [network("blue", [])] * 100):
        record["view"]["map"] = bad
        page = pages.game_page(record, None)
        assert 'id="board"' not in page and "public report" in page
    game = new_game("stock-round", 3, {}, 5)
    record = public.build(game, "edited")
    record["view"]["market"] = [[{"price": "cheap", "par": False, "tokens": []}]]
    assert 'id="board"' not in pages.game_page(record, None)
    for market in ([[{"price": math.inf, "par": False, "tokens": []}]], [[{"price": -math.inf, "par": True, "tokens": []}]]):
        record["view"]["market"] = market  # TOML allows inf: the drawing is left out, not the page
        page = pages.game_page(record, None)
        assert 'id="board"' not in page and "public report" in page
    record = public.build(game, "edited")
    record["moves"][-1]["board"] = {"market": [[0, 0, math.nan]]}  # no "NaN" for boards.js to choke on
    assert 'id="board"' not in pages.game_page(record, None)


def test_tokens_on_one_price_sit_side_by_side_inside_the_space():
    """Issue 47, item 3: SFR half under PST. Each token's circle, scaled, clear of the others."""
    grid = [[{"price": 50, "par": False, "tokens": tokens} for tokens in (["A"], ["SFR", "PST"])]]
    svg = boards.market(grid, [{"name": n, "pool": 0} for n in ("A", "SFR", "PST")], charts.companies(["A", "SFR", "PST"]))
    for n in (1, 2, 3):
        placed = [boards._token_at(1, 1, i, n) for i in range(n)]
        for (x, y, s) in placed:  # inside the space
            r = boards.TOKEN_R * s
            assert 1 <= x - r and x + r <= 1 + boards.CELL_W and y + r <= 1 + boards.CELL_H
        for (x1, _, s), (x2, _, _) in zip(placed, placed[1:]):
            assert x2 - x1 >= 2 * boards.TOKEN_R * s - 1e-9  # none over another
    assert svg.count(' scale(1.000)">') == 1  # the token alone keeps its size


def test_a_line_with_the_same_values_as_another_is_lifted_and_dashed():
    """Issue 47, item 3: Gazillioon under Banana, then Edison (rumors' prices moving together)."""
    svg = charts.line("prices", [1, 2, 3], {"Banana": [10, 20, 30], "Gazillioon": [10, 20, 30], "Edison": [10, 20, 25],
                                            "Alone": [5, 6, 7]}, charts.companies(["Banana", "Gazillioon", "Edison", "Alone"]))
    lines = dict(re.findall(r'<polyline[^>]*data-name="(\w+)"[^>]*points="([^"]*)"', svg))
    assert len(set(lines.values())) == 4  # four lines where four are drawn
    assert 'data-name="Banana" data-points="3" points' in svg and 'data-name="Alone" data-points="3" points' in svg
    assert re.search(r'data-name="Gazillioon"[^>]*stroke-dasharray="[^"]+" data-under="1"', svg)
    assert re.search(r'data-name="Edison"[^>]*stroke-dasharray="[^"]+" data-under="2"', svg)
