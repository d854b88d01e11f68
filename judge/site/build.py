"""Writing the site: `build` (judge site SOURCE OUT) writes every game found; `update` rewrites
one game's files and the index after an archived change ([archive] site), and commits them to
the archive repository when the site lies in it. The layout:

    OUT/index.html  site.css  site.js  feed.atom  games.json (what the index and feed show of each game)
    OUT/league.html  league.json (what the league reads of each finished game)
    OUT/RULESET/GAME.html  GAME.atom  GAME.csv  GAME.json
"""
from __future__ import annotations

import json
import tomllib
from datetime import datetime, timezone
from pathlib import Path

from judge.engine.errors import JudgeError
from judge.site import feeds, league, pages, series, sources

STATIC = ("site.css", "site.js", "boards.js")
INDEX = "games.json"


def build(source, out, now: datetime | None = None, aliases: dict | None = None) -> tuple[int, list[str]]:
    """The site of every game at `source` in `out`: (games written, warnings). `aliases`: the
    league's ([league] aliases of judge.toml)."""
    out = Path(out)
    _check_own(out)
    records, warnings = sources.records(source)
    out.mkdir(parents=True, exist_ok=True)
    games = _known(out)
    for record in records:
        games[_key(record)] = write_game(record, out, now)
    warnings += league.build(out, records, aliases, _write)
    write_index(out, games, now)
    return len(records), warnings


def _check_own(out: Path) -> None:
    """Refuse (UsageError) to write a site into a folder that holds files but no site (no
    games.json): a site never writes over what is not its own (an index.html, a games folder)."""
    from judge.engine.errors import UsageError

    if out.is_dir() and not (out / INDEX).exists() and any(out.iterdir()):
        raise UsageError(f"{out} holds files but no site of the judge ({INDEX}): judge site writes only into an "
                         "empty or new folder or over a site it wrote; choose another folder")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is a file, not a folder for the site")


def audit(record: dict) -> str | None:
    """For a finished game: "ok" when `judge audit` passes on its record alone, else what fails;
    None while the game runs (nothing to check until the seed is revealed)."""
    from judge.record.public import finished_game

    if not record.get("complete"):
        return None
    try:
        problems = finished_game(record, record["game"]).audit()
    except JudgeError as e:
        problems = [str(e)]
    return "ok" if not problems else "; ".join(problems)


def write_game(record: dict, out: Path, now: datetime | None) -> dict:
    """Write one game's page, feed and data; return its summary with its feed entries."""
    folder = out / record["ruleset"]
    folder.mkdir(parents=True, exist_ok=True)
    name = record["game"]
    checked = audit(record)
    _write(folder / f"{name}.html", pages.game_page(record, checked))
    data = series.of(record)
    _write(folder / f"{name}.csv", series.to_csv(data))
    _write(folder / f"{name}.json", series.to_json(record, data))
    feed = folder / f"{name}.atom"
    link = f"{name}.html"
    items = [{**e, "link": f"{link}#move={e['move']}"} for e in feeds.entries(record)][-feeds.PER_GAME:]
    items = feeds.stamp(items, feeds.published(feed), now or datetime.now(timezone.utc))
    _write(feed, feeds.atom(f"{name} ({record['ruleset']})", f"urn:judge:{record['ruleset']}/{name}", link, items))
    summary = pages.summary(record, checked)
    prefix = f"{record['ruleset']}/"
    summary["entries"] = [{**e, "link": prefix + e["link"]} for e in items]
    return summary


def write_index(out: Path, games: dict, now: datetime | None) -> None:
    listed = [games[k] for k in sorted(games)]
    for name in STATIC:
        _write(out / name, pages.static(name))
    _write(out / "index.html", pages.index_page(listed))
    items = sorted((e for g in listed for e in g["entries"]), key=lambda e: (e["updated"], e["move"]))
    _write(out / "feed.atom", feeds.atom("Every game", "urn:judge:site", "index.html", items[-feeds.PER_SITE:]))
    _write(out / INDEX, json.dumps({"games": listed}, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def update(site_dir, game, game_path, archive_dir=None, now: datetime | None = None, aliases: dict | None = None) -> str:
    """Rewrite the site's files of the game at `game_path` and the index after a change, and
    commit them when the site lies in the archive repository; never raise. Return a warning, or ""."""
    if site_dir is None:
        return ""
    name = Path(game_path).stem
    try:
        out = Path(site_dir)
        out.mkdir(parents=True, exist_ok=True)
        record = _record(game, name, archive_dir)
        sources.check(record, name)
        games = _known(out)
        games[_key(record)] = write_game(record, out, now)
        league.update(out, record, archive_dir, aliases, _write)
        write_index(out, games, now)
        if archive_dir is not None:
            _commit(Path(archive_dir), out, f"{record['ruleset']}/{name}: the site at move {record['move']}")
        return ""
    except Exception as e:  # noqa: BLE001 - the game is saved; the site must never block it
        from judge.record import archive

        warning = f"the site of {name} was not updated ({e}); it will be written again with the next change"
        archive.note(game_path, warning, now)
        return warning


def _record(game, name: str, archive_dir) -> dict:
    """The game's public record: the archive's, just committed (by this process, else read from
    the repository), when it is this game's now; else built, reusing its rows."""
    from judge.record import archive, entries, public

    previous = None
    if archive_dir is not None:
        previous = archive.last_record(archive_dir, game.ruleset.name, name)
        path = Path(archive_dir) / game.ruleset.name / f"{name}.toml"
        try:
            previous = previous or tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            previous = None
        if previous and previous.get("move") == game.move and previous.get("commitment") == game.commitment \
                and previous.get("log") == entries.public_log(game) and previous.get("game_over") == game.is_over() \
                and "moves" in previous:
            return previous
    return public.build(game, name, previous=previous)


def _commit(repo: Path, out: Path, message: str) -> None:
    from judge.record import archive  # (its git runner and lock: one judge commits at a time)

    try:
        where = str(out.resolve().relative_to(repo.resolve()))
    except ValueError:
        return  # a site outside the archive: written, not committed
    with archive._repo_lock(repo):
        archive._git(repo, "add", "-A", "--", where)
        if archive._git(repo, "diff", "--cached", "--quiet", "--", where, check=False).returncode:
            archive._git(repo, *archive._identity(repo), "commit", "-q", "-m", message, "--", where)


def _key(record: dict) -> str:
    return f"{record['ruleset']}/{record['game']}"


def _known(out: Path) -> dict:
    """The games the site shows already (from its games.json), by ruleset/game."""
    try:
        listed = json.loads((out / INDEX).read_text(encoding="utf-8"))["games"]
        return {f"{g['ruleset']}/{g['game']}": g for g in listed}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _write(path: Path, text: str) -> None:
    """Write a file of the site unless it holds `text` already (a rebuild leaves it untouched)."""
    from judge.store.gamefile import write_atomic

    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    write_atomic(path, text, mode=0o666)
