"""Atom feeds: one entry a change the public saw (a move with its orders and public events, a
correction), per game and for the whole site. An entry keeps the time it was first published
(read back from the feed already in the site), so a rebuild changes only new entries."""
from __future__ import annotations

from datetime import datetime
from html import escape
from pathlib import Path

from judge.record.corrections import describe

PER_GAME = 50  # entries in a game's feed (the newest)
PER_SITE = 100


def entries(record: dict) -> list[dict]:
    """{id, title, lines, time (a correction's own, else None), link} of the game's changes,
    oldest first: every move's orders and events, the corrections at the move they happened."""
    where = f"{record['ruleset']}/{record['game']}"
    version = len(record.get("corrections", []))  # a move played again after a rollback is a new entry
    out = []
    for row in record.get("moves", []):
        if not (row.get("orders") or row.get("events")):
            continue
        out.append({"id": f"urn:judge:{where}:move:{row['move']}:{version}", "time": None,
                    "title": f"{where}: move {row['move']}" + (f", {'; '.join(row['orders'])}" if row.get("orders") else ""),
                    "lines": list(row.get("orders", [])) + list(row.get("events", [])), "move": row["move"]})
    for k, c in enumerate(record.get("corrections", [])):
        move = c.get("to_move", c.get("since", 0))
        text = describe(c)
        out.append({"id": f"urn:judge:{where}:correction:{k + 1}", "time": c.get("time"), "title": f"{where}: {text}",
                    "lines": [text] + [f"undone: {u}" for u in c.get("undone", [])], "move": move})
    if record.get("complete"):
        out.append({"id": f"urn:judge:{where}:over", "time": None, "title": f"{where}: the game is over",
                    "lines": ["The game is over; the seed and salt are revealed."], "move": record.get("move", 0)})
    return out


def published(path: Path) -> dict[str, str]:
    """id -> updated of the entries of an existing feed (none when it is missing or unreadable)."""
    import xml.etree.ElementTree as ET

    from judge.store.gamefile import is_regular

    try:
        if not is_regular(path) or path.stat().st_size > 16 * 1024 * 1024:  # (never a link, a FIFO)
            return {}
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}
    ns = "{http://www.w3.org/2005/Atom}"
    return {e.findtext(f"{ns}id", ""): e.findtext(f"{ns}updated", "") for e in root.iter(f"{ns}entry")}


def stamp(items: list[dict], known: dict[str, str], now: datetime) -> list[dict]:
    """Each entry with its time: as published before, else its own, else now."""
    text = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    return [{**e, "updated": known.get(e["id"]) or e["time"] or text} for e in items]


def atom(title: str, feed_id: str, link: str, items: list[dict]) -> str:
    """The feed of `items` (stamped), newest first."""
    items = sorted(items, key=lambda e: (e["updated"], e["move"]), reverse=True)
    updated = items[0]["updated"] if items else "1970-01-01T00:00:00Z"
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
           f"<title>{escape(title)}</title>", f"<id>{escape(feed_id)}</id>", f"<updated>{updated}</updated>",
           f'<link href="{escape(link)}"/>', "<author><name>judge</name></author>"]
    for e in items:
        body = "\n".join(e["lines"])
        out += ["<entry>", f"<title>{escape(e['title'])}</title>", f"<id>{escape(e['id'])}</id>",
                f"<updated>{e['updated']}</updated>", f'<link href="{escape(e.get("link", link))}"/>',
                f'<content type="text">{escape(body)}</content>', "</entry>"]
    out.append("</feed>")
    return "\n".join(out) + "\n"
