"""The league as HTML for the static site: `fragment` (one <section> a ruleset, to place in a
page of the site) and `page` (a whole page on its own). The same figures as the text table
(judge/league/table.py), every name escaped."""
from __future__ import annotations

from html import escape

from judge.league.table import ALL, Section, figures, share


def fragment(sections: list[Section]) -> str:
    if not any(s.games for s in sections):
        return '<section class="league"><p>No finished games yet.</p></section>\n'
    out = []
    for s in sections:
        title = "All rulesets" if s.ruleset == ALL else escape(s.ruleset)
        count = f"{len(s.games)} finished game{'s' if len(s.games) != 1 else ''}{escape(s.span)}"
        out.append(f'<section class="league" id="league-{escape(s.ruleset)}">\n<h2>{title}</h2>\n<p>{count}</p>\n'
                   "<table>\n<thead><tr><th>#</th><th>player</th><th>rating</th><th>skill ± sigma</th><th>games</th>"
                   "<th>wins</th><th>on time</th><th>missed</th><th>resigned</th><th>abandoned</th></tr></thead>\n<tbody>")
        for i, row in enumerate(s.rows, 1):
            f = figures(i, row)
            out.append(f"<tr><td>{i}</td><td>{escape(f['player'])}</td><td>{f['rating']:.2f}</td>"
                       f"<td>{f['mu']:.2f} ± {f['sigma']:.2f}</td><td>{f['games']}</td><td>{f['wins']}</td>"
                       f"<td>{share(row.conduct)}</td><td>{f['missed']}</td><td>{f['resigned']}</td><td>{f['abandoned']}</td></tr>")
        out.append("</tbody>\n</table>\n</section>")
    return "\n".join(out) + "\n"


def page(sections: list[Section], title: str = "League") -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{escape(title)}</title></head>\n'
            f"<body>\n<h1>{escape(title)}</h1>\n{fragment(sections)}"
            "<p>rating: skill − 3 sigma (Plackett–Luce); on time: orders given before their deadline, of those "
            "awaited under one.</p>\n</body>\n</html>\n")
