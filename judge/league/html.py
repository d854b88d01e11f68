"""The league as HTML for the static site: `fragment` (one <section> a ruleset, to place in a
page of the site) and `page` (a whole page on its own). The same figures as the text table
(judge/league/table.py), every name escaped."""
from __future__ import annotations

from html import escape

from judge.league.table import ALL, Section, figures, share


# each cell says its column (a phone shows a row as a card: templates/site/site.css)
COLUMNS = ["#", "player", "rating", "skill ± sigma", "games", "wins", "on time", "missed", "resigned", "abandoned"]


def fragment(sections: list[Section]) -> str:
    if not any(s.count for s in sections):
        return '<section class="league"><p>No finished games yet.</p></section>\n'
    out = []
    for s in sections:
        title = "All rulesets" if s.ruleset == ALL else escape(s.ruleset)
        count = f"{s.count} finished game{'s' if s.count != 1 else ''}{escape(s.span)}"
        out.append(f'<section class="league" id="league-{escape(s.ruleset)}">\n<h2>{title}</h2>\n<p>{count}</p>\n'
                   "<table class=\"ranking\">\n<thead><tr>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "</tr></thead>\n<tbody>")
        for i, row in enumerate(s.rows, 1):
            f = figures(i, row)
            cells = [i, escape(f['player']), f"{f['rating']:.2f}", f"{f['mu']:.2f} ± {f['sigma']:.2f}", f['games'], f['wins'],
                     share(row.conduct), f['missed'], f['resigned'], f['abandoned']]
            out.append("<tr>" + "".join(f'<td data-label="{c}">{v}</td>' for c, v in zip(COLUMNS, cells)) + "</tr>")
        out.append("</tbody>\n</table>\n</section>")
    return "\n".join(out) + "\n"


def page(sections: list[Section], title: str = "League") -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{escape(title)}</title></head>\n'
            f"<body>\n<h1>{escape(title)}</h1>\n{fragment(sections)}"
            "<p>rating: skill − 3 sigma (Plackett–Luce); on time: orders given before their deadline, of those "
            "awaited under one.</p>\n</body>\n</html>\n")
