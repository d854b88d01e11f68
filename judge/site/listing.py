"""The site's lists of games, kept so that publishing one game rewrites lists whose length does
not grow with the archive:

    OUT/index.html  feed.atom     the running games, the RECENT games that ended last, the months
    OUT/games.json                what those show of each game (with its feed entries), and the
                                  number of games that ended each month
    OUT/finished/MONTH.html .json every game that ended that month (YYYY-MM; `undated`: records
                                  that do not say when their game ended), the latest first

A change of a running game rewrites the index, its data and the site's feed (the newest
PER_SITE entries of the running and recent games); the change that ends a game also rewrites
its month. `judge site` builds the same lists from every record.

games.json and the month files are the judge's own derived files (judge/record/derived.py):
checked field by field before the index or a month page is drawn from them. One that does not
check is made again from the records, with one warning (`warnings`; the publishing step then
rebuilds the whole site from the archive, judge/site/build.py `update`)."""
from __future__ import annotations

import json
from pathlib import Path

from judge.record import derived
from judge.record.shape import fields, listing, mapping, optional, text, truth, whole
from judge.site import feeds, pages

INDEX = "games.json"
MONTHS = "finished"
UNDATED = "undated"
RECENT = 50

# what pages.summary gives, and what the index, the month pages and the site's feed read of it
_SUMMARY = {"key": text, "game": text, "ruleset": text, "title": text, "href": text, "move": whole,
            "players": listing(fields({"seat": text, "player": text}, ("seat", "player"))), "over": truth,
            "awaiting": listing(fields({"player": text, "prompt": text}, ("player", "prompt"))), "deadline": text,
            "winners": listing(text), "audit": optional(fields({"result": text, "why": text}, ("result", "why"))),
            "ended": text}
SUMMARY = fields(_SUMMARY, tuple(_SUMMARY))
ENTRY = fields({"id": text, "title": text, "lines": listing(text), "move": whole, "updated": text, "link": text,
                "time": optional(text)}, ("id", "title", "lines", "move", "updated", "link"))
LISTED = fields({**_SUMMARY, "entries": listing(ENTRY)}, (*_SUMMARY, "entries"))
GAMES = fields({"running": mapping(LISTED), "recent": listing(LISTED), "months": mapping(whole)},
               ("running", "recent", "months"))
MONTH = fields({"month": text, "games": listing(SUMMARY)}, ("games",))


def month_of(summary: dict) -> str:
    return summary["ended"][:7] if summary.get("ended") else UNDATED


def _newest_first(summaries) -> list[dict]:
    return sorted(summaries, key=lambda s: (s.get("ended", ""), s["key"]), reverse=True)


def listed(out: Path) -> int:
    """How many games the site at `out` lists (running, and finished in every month)."""
    data, warning = derived.read(Path(out) / INDEX, GAMES)
    return 0 if data is None else len(data["running"]) + sum(data["months"].values())


class Listing:
    def __init__(self, out: Path, write_file):
        self.out, self.write_file = Path(out), write_file
        self.warnings: list[str] = []  # a list that did not check, made again from the records
        data, warning = derived.read(self.out / INDEX)
        self.earlier = isinstance(data, dict) and set(data) == {"games"}  # an earlier judge's site (it listed all)
        if data is not None and not self.earlier:
            warning = derived.remade(self.out / INDEX, data, GAMES)
        if warning:
            self.warnings.append(warning)
        if self.earlier or warning or data is None:
            data = {"running": {}, "recent": [], "months": {}}
        self.running, self.recent, self.months = data["running"], data["recent"], data["months"]
        self._month: dict[str, dict] = {}  # month -> {key: summary}, read when needed
        self._changed: set[str] = set()

    def month(self, name: str) -> dict:
        if name not in self._month:
            data, warning = derived.read(self.out / MONTHS / f"{name}.json", MONTH)
            if warning:
                self.warnings.append(warning)
            self._month[name] = {g["key"]: g for g in data["games"]} if data is not None else {}
        return self._month[name]

    def put(self, summary: dict) -> None:
        """Show the game as `summary` says (its place: running, or the month it ended)."""
        key = summary["key"]
        self.recent = [s for s in self.recent if s["key"] != key]
        if summary["over"]:
            self.running.pop(key, None)
            if month_of(summary) != UNDATED and UNDATED in self.months and key in self.month(UNDATED):
                self._place(UNDATED, key, None)  # (filed as undated by a judge that missed the log's date)
            self._place(month_of(summary), key, {k: v for k, v in summary.items() if k != "entries"})
            self.recent = _newest_first([*self.recent, summary])[:RECENT]
            return
        if key not in self.running:  # new here, or a rollback took back the end of a game listed as over
            for name in {month_of(summary), UNDATED}:
                if name in self.months and key in self.month(name):
                    self._place(name, key, None)
        self.running[key] = summary

    def _place(self, name: str, key: str, summary: dict | None) -> None:
        """The game in (or, `summary` None, out of) the month `name`, whose files are then
        written again (unchanged bytes are not: a judge killed while writing them is caught up)."""
        games = self.month(name)
        if summary is None:
            games.pop(key, None)
        else:
            games[key] = summary
        self._changed.add(name)
        if games:
            self.months[name] = len(games)
        else:
            self.months.pop(name, None)

    def save(self) -> None:
        """Write what changed: the index, its data, the site's feed and the months changed."""
        for name in sorted(self._changed):
            games = _newest_first(self.month(name).values())
            self.write_file(self.out / MONTHS / f"{name}.json",
                            json.dumps({"month": name, "games": games}, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
            self.write_file(self.out / MONTHS / f"{name}.html", pages.month_page(name, games))
        running = [self.running[k] for k in sorted(self.running)]
        months = sorted(self.months.items(), reverse=True)
        self.write_file(self.out / "index.html", pages.index_page(running, self.recent, months))
        items = sorted((e for g in [*running, *self.recent] for e in g["entries"]), key=lambda e: (e["updated"], e["move"]))
        self.write_file(self.out / "feed.atom", feeds.atom("Every game", "urn:judge:site", "index.html",
                                                          items[-feeds.PER_SITE:]))
        self.write_file(self.out / INDEX, json.dumps({"running": self.running, "recent": self.recent, "months": self.months},
                                                     indent=1, ensure_ascii=False, sort_keys=True) + "\n")
        self._changed.clear()
