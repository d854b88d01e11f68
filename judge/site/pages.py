"""The site's HTML pages, rendered by the Jinja templates under templates/site/ from what a
record shows: the index of the games and a page per game."""
from __future__ import annotations

from functools import lru_cache

from judge.engine.paths import resource
from judge.site import boards, charts, replay, series


@lru_cache(maxsize=1)
def _env():
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(resource("templates") / "site")),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              undefined=jinja2.StrictUndefined)


PRIVATE = ".private.json"  # beside GAME.html: the players' private views, sealed (judge/publish/private.py)


def private_file(sealed: dict) -> str:
    import json

    return json.dumps(sealed, indent=1, sort_keys=True) + "\n"


def private_found(text: str | None, record: dict) -> dict | None:
    """The sealed views of GAME.private.json (its text) when they are of the record's move and
    head; else None (the page then carries none)."""
    import json

    try:
        sealed = json.loads(text) if text else None
    except ValueError:
        return None
    head = record.get("log_head", {}).get("hash", "") if isinstance(record.get("log_head"), dict) else ""
    if (isinstance(sealed, dict) and isinstance(sealed.get("views"), list) and sealed.get("move") == record["move"]
            and sealed.get("head") == head and sealed.get("game") == record["game"]):
        return sealed
    return None


def static(name: str) -> str:
    """A file copied as it is (site.css, site.js)."""
    return (resource("templates") / "site" / name).read_text(encoding="utf-8")


def base(ruleset: str, game: str) -> str:
    """Where a game's four files lie in the site, without their ending: RULESET/XY/GAME, XY the
    first two hex digits of the SHA-256 of its name. 256 folders a ruleset keep each folder's
    git tree small: a change rewrites the tree of one of them, whatever the archive holds (one
    folder of 10,000 games' files is a 1.5 MB tree rewritten by every commit)."""
    import hashlib

    return f"{ruleset}/{hashlib.sha256(game.encode()).hexdigest()[:2]}/{game}"


def summary(record: dict, audit: dict | None, marks: list[str] = ()) -> dict:
    """What the index and the feeds show of a game. `audit`: {result: passes, fails or not
    audited; why} of a finished game, None while it runs; `marks`: where the record's results
    are not its replay's (judge/site/audited.py: the record given holds the replay's)."""
    view = record["view"]
    seats = record.get("seats", {})
    standings = view.get("standings") or []
    ended = _ended(record)
    return {
        "key": f"{record['ruleset']}/{record['game']}",
        "game": record["game"], "ruleset": record["ruleset"], "title": view.get("title", record["ruleset"]),
        "href": f"{base(record['ruleset'], record['game'])}.html", "move": record["move"],
        "players": [{"seat": p, "player": seats.get(p, {}).get("player", p)} for p in record["players"]],
        "over": bool(record.get("game_over")),
        "awaiting": [{"player": p, "prompt": view.get("prompts", {}).get(p, "")} for p in view.get("awaiting", [])],
        "deadline": record.get("deadline", ""),
        "winners": [r["player"] for r in standings if r.get("rank") == 1],
        "audit": audit,
        "ended": ended,
        **({"marked": list(marks)} if marks else {}),
    }


def _ended(record: dict) -> str:
    """When the game ended: the judge's entry `ended at TIME` of its log (file format 2), or
    the [league] table's `ended` of a record of format 1; "" when the record says neither."""
    from judge.engine import facts

    league = record.get("league")
    ended = league.get("ended") if isinstance(league, dict) else None
    log = record.get("log")
    return ended if isinstance(ended, str) and ended else facts.ended_in(log if isinstance(log, list) else [])


def reports(record: dict) -> list[dict]:
    """{move, text} of every move the record shows: the report at its start, and the current
    move's as it is now (the current report alone for a record written before `moves`)."""
    from judge.record.moves import reports as decoded

    rows = [r for r in record.get("moves", []) if isinstance(r, dict)]
    if not rows:
        return [{"move": record["move"], "text": record["report"]}]
    shown = [{"move": r["move"], "text": text} for r, text in zip(rows, decoded(rows))]
    if shown[-1]["move"] == record["move"]:  # the current move as it stands now (secret orders given, say)
        shown[-1]["text"] = record["report"]
    return shown


def move_list(record: dict) -> list[dict]:
    """Each move's orders, public events and the log's head after it, and the corrections marked
    where they happened (a rollback at the move it returned to; a seat handed on at the move
    from which)."""
    from judge.engine import chain

    rows = {r["move"]: {"move": r["move"], "orders": list(r.get("orders", [])), "events": list(r.get("events", [])),
                        "corrections": [], "head": r.get("head", "")[:chain.SHOWN]}
            for r in record.get("moves", []) if isinstance(r, dict)}
    if not rows:  # an older record: its log alone
        for entry in record["log"]:
            number, _, rest = entry.partition(" ")
            if number.isdigit():
                rows.setdefault(int(number), {"move": int(number), "orders": [], "events": [], "corrections": [],
                                               "head": ""})[
                    "orders"].append(rest)
    from judge.record.corrections import describe

    for c in record.get("corrections", []):
        move = c.get("to_move", c.get("since"))
        if isinstance(move, int):
            rows.setdefault(move, {"move": move, "orders": [], "events": [], "corrections": [], "head": ""})["corrections"].append(
                {"text": describe(c), "undone": c.get("undone", [])})
    return [rows[m] for m in sorted(rows)]


def standings(record: dict) -> tuple[list[str], list[dict]]:
    """The final standings' columns and rows (at the end)."""
    rows = record["view"].get("standings") or []
    if not record.get("game_over") or not rows:
        return [], []
    columns = [k for k in rows[0] if k not in ("player", "rank")]
    return columns, rows


def game_page(record: dict, audit: str | None, marks: list[str] = (), sealed: dict | None = None) -> str:
    data = series.of(record)
    columns, final = standings(record)
    seats, firms = charts.seats(record["players"]), charts.companies(series.company_names(record, data))
    score_title = "Each player's score or worth at the start of every move"
    price_title = "Each company's share price at the start of every move"
    scores = {} if series.secret(record, data) else data["scores"]
    shown = reports(record)
    return _env().get_template("game.html.j2").render(
        r=record, s=summary(record, audit, marks), view=record["view"], reports=shown, moves=move_list(record),
        replay=replay.script([r["move"] for r in shown], [r["text"] for r in shown]),
        data=data, score_chart=charts.line(score_title, data["moves"], scores, seats), score_title=score_title,
        score_note=series.note(record, data), board=boards.figure(record, seats, firms),
        price_chart=charts.line(price_title, data["moves"], data["prices"], firms), price_title=price_title,
        columns=columns, final=final, sealed=private_file(sealed).replace("</", "<\\/") if sealed else "",
        final_chart=charts.bars("Final standings", [(r["player"], f"{r['rank']}. {r['player']}", r["score"],
                                                     seats.get(r["player"], "#777777"))
                                                    for r in final if "score" in r]))


def league_page(fragment: str, excluded: list, unaudited: list) -> str:
    """The league's page around its HTML (judge/league/html.py `fragment`, escaped there), with
    the finished games it leaves out (their audit fails) and those it counts unaudited."""
    return _env().get_template("league.html.j2").render(league=fragment, excluded=excluded, unaudited=unaudited)


def index_page(running: list[dict], recent: list[dict], months: list[tuple[str, int]]) -> str:
    return _env().get_template("index.html.j2").render(running=running, recent=recent, months=months)


def month_page(month: str, games: list[dict]) -> str:
    return _env().get_template("month.html.j2").render(month=month, games=games)
