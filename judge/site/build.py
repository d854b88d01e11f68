"""Writing the site: `build` (judge site SOURCE OUT) writes every game found; `update` rewrites
one game's files, the lists of games and, when the league changed, its page (the publishing
step after a change, judge/publish/). The layout:

    OUT/index.html  site.css  site.js  feed.atom  games.json  finished/MONTH.html .json (judge/site/listing.py)
    OUT/league.html  league.json (the league kept in the source's index, judge/site/league.py)
    OUT/RULESET/XY/GAME.html  GAME.atom  GAME.csv  GAME.json (judge/site/pages.py `base`)
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from judge.engine import writes
from judge.engine.errors import JudgeError, UsageError
from judge.site import feeds, league, listing, pages, series, sources
from judge.site.files import read

STATIC = ("site.css", "site.js", "boards.js", "private.js", "reflow.js")
INDEX = listing.INDEX


class Writer:
    """Writes the files of the site in `out`, each only when its text changes (a rebuild leaves
    it untouched), and remembers every file it was given (what a commit of the site takes: one
    written by a judge killed before its commit is committed by the next, which finds it
    written already). It never writes through a symbolic link: a folder of the site that is
    one is refused, and a file that is one is replaced by the file (its target untouched)."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.written: list[Path] = []

    def __call__(self, path: Path, text: str) -> None:
        from judge.store.gamefile import write_atomic

        self.written.append(path)
        if read(path) == text:
            return
        write_atomic(path, text, mode=0o666, sync=False, base=self.out, folders=0o777)  # (derived: made again)


def build(source, out, now: datetime | None = None, aliases: dict | None = None, kept=None,
          sealed: dict | None = None) -> tuple[int, list[str]]:
    """The site of every game at `source` in `out`: (games written, warnings). `aliases`: the
    league's ([league] aliases of judge.toml); `kept`, the league when the caller holds the
    source's index already (else it is brought up to date here); `sealed`, the private views
    of games, keyed by (ruleset, game) (judge/publish/private.py `of_source`)."""
    from judge.league import index

    out = Path(out)
    _check_own(out)
    found, warnings = sources.records(source)
    if kept is None:
        kept, skipped = index.league_of(source, aliases)
        warnings += [w for w in skipped if w not in warnings]
    writes.make_folder(out, out)  # (the folder named: the site's files below it follow no link)
    write = Writer(out)
    shown = listing.Listing(out, write)
    for path, record in found:
        try:
            shown.put(write_game(record, out, now, write, audit_of(record, source, path),
                                 (sealed or {}).get((record["ruleset"], record["game"]))))
        except UsageError:
            raise  # (a link in the site's way: nothing more is written)
        except Exception as e:  # noqa: BLE001 - what judge/record/shape.py does not foresee: named, skipped
            warnings.append(f"skipped {path}: it cannot be shown ({type(e).__name__}: {e})")
            continue
    league.write(out, kept, write)
    _static(out, write)
    shown.save()
    return len(found), [*shown.warnings, *warnings]


def update(out, record: dict, now: datetime | None, audit: dict | None, kept, source=None,
           aliases: dict | None = None, sealed: dict | None = None) -> tuple[list[Path], list[str]]:
    """After a change to one game: its files, the lists of games, and the league's page (drawn
    from the kept league: rewritten only when it changed); return those files (written or
    found as they would be written) and the warnings; `sealed`: the game's private views. A
    site written by an earlier judge (its
    games.json lists every game), or whose lists do not check (judge/site/listing.py), is
    rebuilt from `source`, whole, once."""
    out = Path(out)
    _check_own(out)
    write = Writer(out)
    shown = listing.Listing(out, write)
    if (shown.earlier or shown.warnings) and source is not None:
        return _rebuilt(out, source, now, aliases, kept, shown.warnings, record, sealed)
    writes.make_folder(out, out)  # (the folder named: the site's files below it follow no link)
    shown.put(write_game(record, out, now, write, audit, sealed))
    if shown.warnings and source is not None:  # a month's list that did not check
        return _rebuilt(out, source, now, aliases, kept, shown.warnings, record, sealed)
    league.write(out, kept, write)
    _static(out, write)
    shown.save()
    return write.written, shown.warnings


def _rebuilt(out: Path, source, now, aliases, kept, warnings: list[str], record: dict,
             sealed: dict | None) -> tuple[list[Path], list[str]]:
    """The whole site made again, the game's private views just sealed (and listed in its
    record) written with it."""
    views = {(record["ruleset"], record["game"]): sealed} if sealed else None
    _, said = build(source, out, now, aliases, kept, sealed=views)
    return [p for p in out.rglob("*") if p.is_file()], list(dict.fromkeys([*warnings, *said]))


def _static(out: Path, write) -> None:
    for name in STATIC:
        write(out / name, pages.static(name))


def _check_own(out: Path) -> None:
    """Refuse (UsageError) to write a site into a folder that holds files but no site (no
    games.json): a site never writes over what is not its own (an index.html, a games folder)."""
    from judge.engine.errors import UsageError

    if out.is_symlink() and not out.exists():
        raise UsageError(f"{out} is a symbolic link to nothing ({os.readlink(out)}): give a folder for the site")
    if out.is_dir() and not (out / INDEX).exists() and any(out.iterdir()):
        raise UsageError(f"{out} holds files but no site of the judge ({INDEX}): judge site writes only into an "
                         "empty or new folder or over a site it wrote; choose another folder")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is a file, not a folder for the site")


def audit(record: dict) -> dict | None:
    """For a finished game: whether `judge audit` passes on its record alone ({result, why});
    None while the game runs (nothing to check until the seed is revealed)."""
    from judge.league.index import audit as audited
    from judge.record.public import finished_game

    if not record.get("complete"):
        return None
    try:
        result, why = audited(finished_game(record, record["game"]))
    except JudgeError as e:
        result, why = "fails", str(e)
    except Exception as e:  # noqa: BLE001 - a [game_file] edited into what the engine cannot read
        result, why = "fails", f"its game file cannot be read ({type(e).__name__}: {e})"
    return {"result": result, "why": why}


def audit_of(record: dict, source, path) -> dict | None:
    """`audit(record)`, taken from the index of `source` when it holds the file's row (an
    audit is run once a record)."""
    from judge.league.index import Index

    source = Path(source)
    if record.get("complete") and source.is_dir():
        entry = Index(source).entry(str(Path(path).relative_to(source)))
        if entry is not None and entry.get("kind") == "finished":
            return {"result": entry["row"]["audit"], "why": entry["row"]["why"]}
    return audit(record)


def write_game(record: dict, out: Path, now: datetime | None, write, checked: dict | None,
               sealed: dict | None = None) -> dict:
    """Write one game's page, feed and data; return its summary with its feed entries. A
    finished game's results are its replay's (judge/site/audited.py), marked where its record
    says otherwise. `sealed`: the players' private views (judge/publish/private.py), written
    beside the page as GAME.private.json and carried by it; without them, the page carries
    the file found there when it is of the record's move and head (a site rebuilt from the
    archive's records)."""
    from judge.site import audited

    record, marks = audited.results(record)
    where = pages.base(record["ruleset"], record["game"])
    folder = out / where.rpartition("/")[0]
    name = record["game"]
    private = folder / f"{name}{pages.PRIVATE}"
    if sealed is not None:
        write(private, pages.private_file(sealed))
    else:
        sealed = pages.private_found(read(private), record)
    write(folder / f"{name}.html", pages.game_page(record, checked, marks, sealed))
    data = series.of(record)
    write(folder / f"{name}.csv", series.to_csv(data))
    write(folder / f"{name}.json", series.to_json(record, data))
    feed = folder / f"{name}.atom"
    link = f"{name}.html"
    items = [{**e, "link": f"{link}#move={e['move']}"} for e in feeds.entries(record)][-feeds.PER_GAME:]
    items = feeds.stamp(items, feeds.published(feed), now or datetime.now(timezone.utc))
    write(feed, feeds.atom(f"{name} ({record['ruleset']})", f"urn:judge:{record['ruleset']}/{name}", link, items))
    summary = pages.summary(record, checked, marks)
    prefix = where.rpartition("/")[0] + "/"
    summary["entries"] = [{**e, "link": prefix + e["link"]} for e in items]
    return summary
