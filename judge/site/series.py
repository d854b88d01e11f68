"""The per-move series a game page charts, from the record's `moves` rows: each player's public
score or worth and each company's share price at the start of every move; as CSV and JSON."""
from __future__ import annotations

import csv
import io
import json


def of(record: dict) -> dict:
    """{players, companies, moves: [...], scores: {player: [value or None per move]},
    prices: {company: [value or None per move]}}."""
    rows = [r for r in record.get("moves", []) if isinstance(r, dict)]
    players = list(record.get("players", []))
    moves = [r.get("move") for r in rows]
    scores = {p: [] for p in players}
    companies: list[str] = []
    for r in rows:
        for name, _ in r.get("prices", []):
            if name not in companies:
                companies.append(name)
    prices = {c: [] for c in companies}
    for r in rows:
        shown = r.get("scores") or []
        for i, p in enumerate(players):
            scores[p].append(shown[i] if len(shown) == len(players) else None)
        now = dict((name, value) for name, value in r.get("prices", []))
        for c in companies:
            prices[c].append(now.get(c))
    if not any(v is not None for values in scores.values() for v in values):
        scores = {}
    return {"players": players, "companies": companies, "moves": moves, "scores": scores, "prices": prices}


def secret(record: dict, data: dict) -> bool:
    """Whether no player's score or worth was public before the end (rumors: holdings are
    secret until then; at the end only the final standings show it)."""
    before = data["moves"][:-1] if record.get("game_over") else data["moves"]
    return not any(v is not None for vs in data["scores"].values() for v in vs[:len(before)])


def note(record: dict, data: dict) -> str:
    """What the page says in place of the chart of scores when there is none."""
    if not data["moves"]:
        return "This record was written by an earlier judge and holds no moves: no charts."
    if record.get("game_over"):
        return "Each player's worth is secret until the end, so it has no chart: the final scores are below."
    return "Each player's worth is secret until the end: the final scores will be shown here then."


def company_names(record: dict, data: dict) -> list[str]:
    """The companies in the order of the game (the public view's), then any other the prices
    name: the order that gives each its colour on every chart and drawing of the page."""
    shown = record.get("view", {}).get("companies")
    names = [c.get("name") for c in shown if isinstance(c, dict)] if isinstance(shown, list) else []
    return [n for n in names if isinstance(n, str)] + [c for c in data["companies"] if c not in names]


def to_csv(data: dict) -> str:
    """One line a move: the move, each player's score, each company's price (empty: none public)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["move", *(f"score {p}" for p in data["scores"]), *(f"price {c}" for c in data["prices"])])
    for i, move in enumerate(data["moves"]):
        w.writerow([move, *("" if v[i] is None else v[i] for v in data["scores"].values()),
                    *("" if v[i] is None else v[i] for v in data["prices"].values())])
    return out.getvalue()


def to_json(record: dict, data: dict) -> str:
    rows = [r for r in record.get("moves", []) if isinstance(r, dict)]
    moves = [{"move": r.get("move"), "orders": r.get("orders", []), "events": r.get("events", []),
              "scores": {p: v[i] for p, v in data["scores"].items() if v[i] is not None},
              "prices": {c: v[i] for c, v in data["prices"].items() if v[i] is not None}}
             for i, r in enumerate(rows)]
    return json.dumps({"game": record.get("game"), "ruleset": record.get("ruleset"), "players": data["players"],
                       "companies": data["companies"], "moves": moves}, indent=1, ensure_ascii=False) + "\n"
