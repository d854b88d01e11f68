"""The league's index of a source: one small row per finished game (judge/league/rows.py) and
the league as it stands, kept beside the records so that `judge league`, the mail `league`
line and the site's league page never read a record again.

Where it is kept: in the folder `.judge-index/` of the source (a games directory, an archive
repository, a folder of exported records), hidden like `.git` (every walk of records passes
hidden folders by) and ignored by git (it holds a `.gitignore` of `*`):

    SOURCE/.judge-index/
      rows/RELATIVE/PATH.toml.json  one a .toml file of the source: its size, time, sha256 and kind
                                    (finished, running, other, skipped), and a finished game's row
      files.json                    the size and time of every file the last walk saw
      league.json                   the league as it stands: each section's tally (judge/league/
                                    table.py), the names met, the games left out and not audited
      counted.json                  which file counts for each game (a game found twice counts once)
      lock                          one writer at a time

A walk (`refresh`) stats every .toml file and reads only those whose size or time changed
(and of those, parses only the ones whose sha256 changed): the same records are read once,
ever. The publishing step after a change (judge/publish/) notes the one file it wrote
(`note`). A finished game added after the last one the league counted (the usual case: the
game that just ended) is added to the kept tallies; anything else (a game taken back by a
rollback, an edited record, other aliases) recomputes the league from the rows.
"""
from __future__ import annotations

import hashlib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from judge.engine import writes
from judge.engine.errors import GameFileError, JudgeError, UsageError
from judge.league import rows as rowmod, table
from judge.league.rows import FAILS, UNAUDITED, GameRow
from judge.record import derived, shape

FOLDER = ".judge-index"
MAX_FILES = 100_000  # .toml files a source may hold
LOCK_TIMEOUT = 60  # seconds to wait for another judge writing the index
FORMAT = 2  # 2: each player's conduct counts the orders awaited under a deadline (timed)


# ---- one file's entry ------------------------------------------------------------------------
def entry_of(path: Path, raw: bytes, where: str) -> dict:
    """The index's entry of the file at `path` holding `raw`: its kind, and for a finished
    game its row (the audit run once, here)."""
    from judge.league import records

    entry = {"hash": hashlib.sha256(raw).hexdigest()}
    try:
        key, game, finished = records.examine(path, raw)
    except JudgeError as e:
        return {**entry, "kind": "skipped", "warning": f"skipped {where}: {e}"}
    if key is None:
        return {**entry, "kind": "other"}
    if finished is None:
        return {**entry, "kind": "running"}
    return {**entry, "kind": "finished", "row": rowmod.as_data(row_of(game, finished, key))}


def entry_of_game(raw: bytes, game, finished) -> dict:
    """The entry of a file holding `raw`, whose game (just saved, or archived) is `game`, and
    `finished` what the league reads of it when it is over (the publishing step's: the game
    is in memory)."""
    entry = {"hash": hashlib.sha256(raw).hexdigest()}
    if finished is None:
        return {**entry, "kind": "running"}
    key = game.commitment or f"{game.ruleset.name}/{finished.game}"
    return {**entry, "kind": "finished", "row": rowmod.as_data(row_of(game, finished, key))}


def row_of(game, finished, key) -> GameRow:
    """The row of a finished game, with its audit."""
    return rowmod.of(finished, key if isinstance(key, str) else "/".join(map(str, key)), *audit(game))


def audit(game) -> tuple[str, str]:
    """(passes, fails or not audited; why) of `judge audit` on a finished game."""
    if not game.commitment:
        return UNAUDITED, "the game was made before the judge committed to a seed: nothing to check it against"
    try:
        problems = game.audit()
    except JudgeError as e:
        problems = [str(e)]
    except Exception as e:  # noqa: BLE001 - a game file edited into what no rule replays
        problems = [f"the log does not replay from the seed and setup ({type(e).__name__}: {e})"]
    return (FAILS, "; ".join(problems)) if problems else (rowmod.PASSES, "")


# ---- the league as it stands -------------------------------------------------------------------
@dataclass
class Kept:
    """The league as the index keeps it (league.json)."""
    aliases: dict = field(default_factory=dict)
    tallies: dict = field(default_factory=dict)  # ruleset (and table.ALL) -> table.Tally
    names: dict = field(default_factory=dict)  # table.Names.shown
    last: list = field(default_factory=list)  # the order of the last game counted
    excluded: list = field(default_factory=list)  # `noted` each finished game whose audit fails
    unaudited: list = field(default_factory=list)  # `noted` each game counted without an audit
    skipped: list = field(default_factory=list)  # the warning of each file that cannot be read
    fresh: bool = True  # False from the moment a row changes until the league is brought up to date

    def sections(self, ruleset: str | None = None) -> list[table.Section]:
        """As `table.league` gives them: one per ruleset, then all of them when there are several."""
        if ruleset is not None:
            tally = self.tallies.get(ruleset)
            return [tally.section() if tally else table.Section(ruleset, [])]
        out = [self.tallies[rs].section() for rs in sorted(self.tallies) if rs != table.ALL]
        if len(out) > 1:
            out.append(self.tallies[table.ALL].section())
        return out

    def add(self, where: str, row: GameRow) -> None:
        """Count one more finished game, which ended after every game counted."""
        names = table.Names(self.aliases)
        names.shown = self.names
        names.meet(row)
        for name in (row.ruleset, table.ALL):
            self.tallies.setdefault(name, table.Tally(name)).add(row, names)
        self.last = list(row.order())
        if row.audit == UNAUDITED:
            self.unaudited.append(noted(where, row))

    def as_data(self) -> dict:
        return {"format": FORMAT, "aliases": self.aliases, "fresh": self.fresh, "last": self.last,
                "names": self.names, "tallies": [t.as_data() for t in self.tallies.values()],
                "excluded": self.excluded, "unaudited": self.unaudited, "skipped": self.skipped}

    @classmethod
    def from_data(cls, data: dict) -> "Kept":
        """The league as league.json keeps it (checked first: KEPT); GameFileError for anything else."""
        problem = derived.fits(data, KEPT)
        if problem or data["format"] != FORMAT:
            raise GameFileError(problem or "another format")
        tallies = {t["ruleset"]: table.Tally.from_data(t) for t in data["tallies"]}
        return cls(data["aliases"], tallies, data["names"], data["last"], data["excluded"], data["unaudited"],
                   data["skipped"], data["fresh"])


NOTE = shape.fields(dict.fromkeys(("game", "ruleset", "ended", "why"), shape.text), ("game", "ruleset", "ended", "why"))
TALLY = shape.fields({"ruleset": shape.text, "count": shape.whole, "first": shape.text, "last": shape.text,
                      "undated": shape.whole,
                      "rows": shape.listing(shape.row(shape.text, shape.number, shape.number, shape.whole, shape.whole,
                                                      *[shape.whole] * len(rowmod.CONDUCT)))},
                     ("ruleset", "count", "first", "last", "undated", "rows"))
KEPT = shape.fields({"format": shape.whole, "aliases": shape.mapping(shape.text), "fresh": shape.truth,
                     "last": shape.listing(shape.text), "names": shape.mapping(shape.text),
                     "tallies": shape.listing(TALLY), "excluded": shape.listing(NOTE),
                     "unaudited": shape.listing(NOTE), "skipped": shape.listing(shape.text)},
                    ("format", "aliases", "fresh", "last", "names", "tallies", "excluded", "unaudited", "skipped"))


def noted(where: str, row: GameRow) -> dict:
    """A game the league leaves out, or counts without an audit, as its output names it."""
    return {"game": where, "ruleset": row.ruleset, "ended": row.ended, "why": row.why}


def counted(entries: dict[str, dict]) -> tuple[list[tuple[str, GameRow]], Kept]:
    """The games the league counts among `entries` (by relative path), in order of their end
    (a game found twice: the first file by path), and a `Kept` holding the rest: the games
    left out and the files skipped."""
    kept, keys, found = Kept(), set(), []
    for where in sorted(entries):
        entry = entries[where]
        if entry.get("kind") == "skipped":
            kept.skipped.append(entry["warning"])
        if entry.get("kind") != "finished":
            continue
        row = rowmod.from_data(entry["row"])
        if not row.counted:
            kept.excluded.append(noted(where, row))
        elif row.key not in keys:
            keys.add(row.key)
            found.append((row.order(), where, row))
    return [(where, row) for _, where, row in sorted(found, key=lambda f: f[0])], kept


def compute(entries: dict[str, dict], aliases: dict | None) -> tuple[Kept, dict[str, str]]:
    """The league of every entry (by relative path), and which file counts for each game."""
    games, kept = counted(entries)
    kept.aliases = dict(aliases or {})
    for where, row in games:
        kept.add(where, row)
    return kept, {row.key: where for where, row in games}


# ---- the index of a source -------------------------------------------------------------------
class Index:
    def __init__(self, source):
        self.source = Path(source)
        self.folder = self.source / FOLDER
        self.warnings: list[str] = []  # its own files that did not check, made again (said once)
        self.remade: dict[str, dict] = {}  # entries made again from their files, to keep

    def _derived(self, name: str, checker=None):
        """One of the index's own files (judge/record/derived.py), or None; one that does not
        check is said in `warnings` (and made again by whoever reads it)."""
        data, warning = derived.read(self.folder / name, checker)
        self._warn(warning)
        return data

    def _warn(self, warning: str) -> None:
        if warning and warning not in self.warnings:
            self.warnings.append(warning)

    # ---- the files kept
    def _row_path(self, where: str) -> Path:
        return self.folder / "rows" / f"{where}.json"

    def entry(self, where: str) -> dict | None:
        """The entry kept of the file at `where`, or None (none, or one that does not check)."""
        entry = self._derived(f"rows/{where}.json")
        if entry is not None and _valid(entry) is None:
            self._warn(derived.said(self._row_path(where), "not an entry of the league's index"))
            return None
        return entry

    def entries(self) -> dict[str, dict]:
        """Every entry kept, by the relative path of its file; one that does not check is made
        again from its file (and kept again by the next writer: `remade`)."""
        out, base = {}, self.folder / "rows"
        for folder, dirs, files in os.walk(base):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".json"):
                    where = str((Path(folder) / name).relative_to(base))[:-len(".json")]
                    entry = self.entry(where)
                    if entry is None and (entry := self._examine(where)) is not None:
                        self.remade[where] = entry
                    if entry is not None:
                        out[where] = entry
        return out

    def _examine(self, where: str) -> dict | None:
        """The entry of the source's file at `where` read now, or None when it is gone."""
        from judge.store import gamefile

        path = self.source / where
        try:
            st = os.stat(path)
            raw = gamefile.read_bytes(path)
        except OSError:
            return None
        except GameFileError as e:
            return {"kind": "skipped", "warning": f"skipped {path}: {e}", "hash": "", "size": st.st_size,
                    "mtime": st.st_mtime_ns}
        return {**entry_of(path, raw, str(path)), "size": st.st_size, "mtime": st.st_mtime_ns}

    def kept(self) -> Kept | None:
        """The league as kept, or None (none yet, an earlier judge's, or one that does not
        check: `warnings` says so; the next writer computes it again from the rows)."""
        data = self._derived("league.json")
        if data is None or (isinstance(data, dict) and data.get("format") != FORMAT):
            return None
        try:
            return Kept.from_data(data)
        except GameFileError as e:
            self._warn(derived.said(self.folder / "league.json", str(e)))
            return None

    def _save(self, name: str, data) -> None:
        from judge.store.gamefile import write_atomic

        write_atomic(self.folder / name, json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n", mode=0o644,
                     sync=False, base=self.source)  # (derived: made again from the records)

    def _put(self, where: str, entry: dict) -> None:
        from judge.store.gamefile import write_atomic

        path = self._row_path(where)
        write_atomic(path, json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n", mode=0o644, sync=False,
                     base=self.source, folders=0o777)

    def _drop(self, where: str) -> None:
        writes.remove(self._row_path(where), self.source)

    @contextmanager
    def lock(self, timeout: float = LOCK_TIMEOUT):
        """The index's lock (one writer at a time), made with the folder when it is missing;
        waited for `timeout` seconds (or to the command's deadline: judge/store/flock.py)."""
        from judge.store import flock

        if not self.folder.is_dir():
            writes.make_folder(self.folder, self.source)
            writes.write_atomic(self.folder / ".gitignore", b"*\n", 0o644, self.source, sync=False)  # (git status clean)
        fd = writes.open_write(self.folder / "lock", os.O_RDWR | os.O_CREAT, 0o644, self.source)
        try:
            if not flock.take(fd, flock.deadline(timeout)):
                raise GameFileError(f"another judge process kept the index {self.folder} locked")
            yield self
        finally:
            os.close(fd)

    # ---- changing it (the lock held)
    def note(self, where: str, stat: tuple[int, int], entry: dict, aliases: dict | None) -> bool:
        """The file at `where` (relative) now has `stat` (size, time) and `entry`: keep it, and
        bring the league up to date; whether the league changed."""
        entry = {**entry, "size": stat[0], "mtime": stat[1]}
        old = self.entry(where)
        if old is not None and {k: v for k, v in old.items() if k not in ("size", "mtime")} == \
                {k: v for k, v in entry.items() if k not in ("size", "mtime")}:
            if (old.get("size"), old.get("mtime")) != stat:
                self._put(where, entry)
            return False
        return self._changed({where: (old, entry)}, aliases)

    def _changed(self, changes: dict[str, tuple], aliases: dict | None) -> bool:
        """Write the changed entries and bring the league up to date: a finished game (or an
        unreadable file) added is added to it; any other change to what it holds recomputes it.
        Whether the league changed."""
        held = ("finished", "skipped")
        kept = self.kept()
        if kept is not None and kept.fresh and kept.aliases == dict(aliases or {}) and \
                not any(e is not None and e.get("kind") in held for change in changes.values() for e in change):
            for where, (_, new) in changes.items():  # running games and other files: not the league's
                self._drop(where) if new is None else self._put(where, new)
            return False
        counted = self._derived("counted.json", shape.mapping(shape.text))  # (which file counts for each game)
        plain = kept is not None and kept.fresh and kept.aliases == dict(aliases or {}) and isinstance(counted, dict) \
            and not any(old is not None and old.get("kind") in held for old, _ in changes.values())
        if kept is not None and kept.fresh:
            kept.fresh = False  # (a judge killed before the league is written recomputes it)
            self._save("league.json", kept.as_data())
        for where, (_, new) in changes.items():
            self._drop(where) if new is None else self._put(where, new)
        for where, (_, new) in sorted(changes.items()):
            if not plain or new is None or new.get("kind") not in held:
                continue
            if new["kind"] == "skipped":
                kept.skipped.append(new["warning"])
                continue
            row = rowmod.from_data(new["row"])
            if not row.counted:
                kept.excluded.append(noted(where, row))
            elif row.key in counted or (kept.last and list(row.order()) <= kept.last):
                plain = False  # found twice, or ended before a game counted: recompute
            else:
                counted[row.key] = where
                kept.add(where, row)
        if plain:
            kept.fresh = True
        else:
            kept, counted = compute(self.entries(), aliases)
            for where, entry in self.remade.items():
                self._put(where, entry)
        self._save("counted.json", counted)
        self._save("league.json", kept.as_data())
        return True

    def refresh(self, aliases: dict | None) -> Kept:
        """Walk the source: read every file new or changed since the last walk, forget the
        files gone; return the league (recomputed when the aliases differ)."""
        from judge.store import gamefile

        found = walk(self.source)
        seen = self._derived("files.json", shape.mapping(shape.row(shape.integer, shape.integer))) or {}
        changes = {}
        for where, stat in found.items():
            if seen.get(where) == list(stat):
                continue
            old = self.entry(where)
            if old is not None and (old.get("size"), old.get("mtime")) == stat:
                continue
            path = self.source / where
            try:
                raw = gamefile.read_bytes(path)
            except GameFileError as e:
                changes[where] = (old, {"kind": "skipped", "warning": f"skipped {path}: {e}", "hash": "",
                                        "size": stat[0], "mtime": stat[1]})
                continue
            digest = hashlib.sha256(raw).hexdigest()
            if old is not None and old.get("hash") == digest:
                self._put(where, {**old, "size": stat[0], "mtime": stat[1]})
                continue
            changes[where] = (old, {**entry_of(path, raw, str(path)), "size": stat[0], "mtime": stat[1]})
        for where in set(seen) - set(found):
            old = self.entry(where)
            if old is not None:
                changes[where] = (old, None)
        self._changed(changes, aliases)
        kept = self.kept()
        if seen != {k: list(v) for k, v in found.items()}:
            self._save("files.json", {k: list(v) for k, v in found.items()})
        return kept


def walk(source: Path) -> dict[str, tuple[int, int]]:
    """(size, time) of every .toml file under `source`, by relative path; hidden folders (.git,
    the index itself) passed by."""
    out = {}
    for folder, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if name.endswith(".toml") and not name.startswith("."):
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                out[os.path.relpath(path, source)] = (st.st_size, st.st_mtime_ns)
                if len(out) > MAX_FILES:
                    raise UsageError(f"{source} holds more than {MAX_FILES} .toml files: name a smaller directory")
    return out


def _valid(entry) -> dict | None:
    """An entry as the index wrote it, or None (an entry edited or cut short is as none: its
    file is read again)."""
    if not isinstance(entry, dict) or entry.get("kind") not in ("finished", "running", "other", "skipped"):
        return None
    try:
        if entry["kind"] == "finished":
            rowmod.from_data(entry["row"])
        elif entry["kind"] == "skipped" and not isinstance(entry["warning"], str):
            return None
    except (GameFileError, KeyError, TypeError):
        return None
    return entry


# ---- what the readers call -------------------------------------------------------------------
def league_of(source, aliases: dict | None = None) -> tuple[Kept, list[str]]:
    """The league of the finished games of `source` (a folder: its index, brought up to date
    and kept; a file: read now), and the warnings of the files passed over."""
    kept, entries, warnings = _read(source, aliases, keep=True)
    return kept or compute(entries, aliases)[0], warnings


def kept_for(source, aliases: dict | None = None) -> Kept | None:
    """The league as the index of the folder `source` keeps it, read and never written (the mail
    `league` line: no record is read, no lock waited for); computed from the rows when it was
    kept with other aliases; None when the source has no index yet."""
    index = Index(source)
    kept = index.kept()
    if kept is None or kept.aliases == dict(aliases or {}):
        return kept
    return compute(index.entries(), aliases)[0]


def from_source(source, aliases: dict | None = None, ruleset: str | None = None,
                since: str | None = None) -> tuple[list[table.Section], list[str]]:
    """The league of the finished games in `source` as sections, and the files passed over."""
    sections, _, _, warnings = read_league(source, aliases, ruleset, since)
    return sections, warnings


def read_league(source, aliases: dict | None = None, ruleset: str | None = None,
                since: str | None = None) -> tuple[list[table.Section], list[dict], list[dict], list[str]]:
    """`judge league`'s: the sections, the finished games left out (their audit fails) and those
    counted without an audit (`noted`, of `ruleset` and ended `since` when given), and the
    files passed over: the kept league, or (`since`) computed from the index's rows."""
    kept, entries, warnings = _read(source, aliases, keep=since is None)
    if kept is None:
        games, kept = counted(entries)
        kept.unaudited = [noted(where, row) for where, row in games if row.audit == UNAUDITED]
        sections = table.league([row for _, row in games], aliases, ruleset, since)
        undated = [f"{row.ruleset}/{row.game}" for _, row in games if not row.ended and (ruleset is None or row.ruleset == ruleset)]
        if since and undated:  # never silently: the games --since cannot place
            warnings.append(f"--since left out {len(undated)} finished game{'s' if len(undated) != 1 else ''} whose "
                            "record does not say when it ended (ended under a judge that did not keep the date): "
                            + ", ".join(undated[:10]) + (f" and {len(undated) - 10} more" if len(undated) > 10 else ""))
    else:
        sections = kept.sections(ruleset)

    def shown(notes):
        return [n for n in notes if (ruleset is None or n["ruleset"] == ruleset)
                and (since is None or n["ended"][:10] >= since)]
    return sections, shown(kept.excluded), shown(kept.unaudited), warnings


def _read(source, aliases: dict | None, keep: bool) -> tuple[Kept | None, dict, list[str]]:
    """(the kept league when `keep`, else None; the entries; the warnings) of `source`."""
    from judge.store import gamefile

    source = Path(source)
    if source.is_dir():
        index = Index(source)
        try:
            with index.lock():
                kept = index.refresh(aliases)
            return (kept if keep else None), ({} if keep else index.entries()), [*index.warnings, *kept.skipped]
        except OSError as e:  # a folder the judge may not write: every record read now
            notes = [f"the league's index could not be kept in {index.folder} ({e.strerror or e}): every record read"]
            entries = {}
            for where in walk(source):
                try:
                    entries[where] = entry_of(source / where, gamefile.read_bytes(source / where), str(source / where))
                except GameFileError as e:
                    entries[where] = {"kind": "skipped", "warning": f"skipped {source / where}: {e}"}
    elif source.is_file():
        entries, notes = {str(source): entry_of(source, gamefile.read_bytes(source), str(source))}, []
    else:
        raise GameFileError(f"no games directory, archive or record at {source}")
    return None, entries, notes + [e["warning"] for e in entries.values() if e.get("kind") == "skipped"]
