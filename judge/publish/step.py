"""The publishing step of one game: the archive's commit of its public record, its entry in
the index of the league's source (judge/league/index.py) and the league, its site pages, the
site's lists, feeds and league page, and the site's commit. It reads the game as saved, never
takes the game's lock, and writes the same bytes when run twice (git then commits nothing).

A change (judge/change/unit.py) marks its game with its save (judge/publish/marks.py) and runs
this step for its own game once it has left the lock (a change that saved nothing publishes
nothing); `judge tick` runs it for every game still marked, CATCH_UP seconds at most (the rest
at its next run). The mark is cleared only when all is done, so a judge killed anywhere leaves
it for the next change of the game or tick, which finishes the work (a failure, such as a busy
git lock, likewise: a warning, noted in GAME.archive.log).

Publishers of one source take turns under the index's lock; git commits under the archive's
own lock as well (judge/record/archive.py). A command waits for those locks LOCK_WAIT seconds
in all, however many games it publishes (`waiting`). The feed entries a change adds are
stamped with the change's time (kept in the mark), so a game published late reads as if
published at once.
"""
from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from pathlib import Path

from judge.engine.errors import GameFileError
from judge.publish import marks

LOCK_WAIT = 10  # seconds a command waits in all for other judges publishing the same source
CATCH_UP = 30  # seconds judge tick spends publishing the games left marked (then: its next run)


def waiting():
    """Within it, everything published (by `pending` and by every change made) waits for busy
    locks LOCK_WAIT seconds in all (judge tick: one deadline for its whole run)."""
    from judge.store import flock

    return flock.waiting(LOCK_WAIT)


class Warned(str):
    """What could not be published, in words; `cause`: a key of judge/mail/host.py CAUSES when
    it is a state of the host that only the game master can mend (told once an hour), else ""."""
    cause = ""


def pending(cfg, now: datetime, budget: float = CATCH_UP) -> list[str]:
    """`judge tick`'s: the marked games of the games directory (and those an earlier judge
    marked), until `budget` seconds are spent (the rest: the next tick, said); the warnings."""
    start, out = time.monotonic(), []
    marked = marks.pending(cfg.games, earlier=True)
    with waiting():
        for k, path in enumerate(marked):
            if k and time.monotonic() - start >= budget:  # (one game at least: every tick gets on)
                left = len(marked) - k
                out.append(f"{left} marked game{'s' if left != 1 else ''} left for the next judge tick (a tick "
                           f"publishes for {budget:g} s at most): " + ", ".join(p.stem for p in marked[k:k + 10]))
                break
            if warning := publish(cfg, path, now):
                out.append(warning)
    return out


def publish(cfg, game_path, now: datetime) -> str:
    """Publish the game at `game_path` if it is marked, and clear its mark; never raise (what
    a change that saved its game runs once it has left the lock, for that game alone). Return
    a warning (a `Warned`: what was not published, or a derived file made again), or ""."""
    from judge.record import archive

    game_path = Path(game_path).absolute()
    name = game_path.stem
    cause, said = "", []
    try:
        mark = marks.read(game_path)
        if mark is None:
            return ""
        token, when = mark
        if not game_path.exists():  # the game file was removed: nothing left to publish
            marks.clear(game_path, token)
            return ""
        with waiting():  # (one deadline for all the locks of the game; judge tick's, when within it)
            said = _publish(cfg, game_path, _time(when) or now)
        marks.clear(game_path, token)
    except _Failed as e:
        said, cause = [*e.said, str(e)], e.cause
    except Exception as e:  # noqa: BLE001 - the game is saved; publishing must never block or undo it
        said = [f"{name} was not published ({type(e).__name__}: {e}); it will be with the next change or judge tick"]
    if not said:
        return ""
    warning = Warned("; ".join(said))
    warning.cause = cause
    archive.note(game_path, warning, now)
    return warning


class _Failed(Exception):
    """A step that failed, with the warning that says which (and a cause to tell, and what
    was said before it failed)."""

    def __init__(self, text: str, cause: str = "", said: list[str] | None = None):
        super().__init__(text)
        self.cause, self.said = cause, said or []


def _publish(cfg, game_path: Path, now: datetime) -> list[str]:
    """Publish the game; what it said (derived files made again). Raise _Failed."""
    from judge.league import index, records
    from judge.record import archive
    from judge.store import gamefile

    name = game_path.stem
    source = records.site_source(cfg)
    idx = index.Index(source)
    later = "it will be tried again with the next change or judge tick"
    try:
        lock = idx.lock(LOCK_WAIT)
        lock.__enter__()
    except (GameFileError, OSError) as e:
        raise _Failed(f"{name} was not published ({e}); {later}") from None
    said: list[str] = []
    try:
        if idx.kept() is None:  # the source's first index (or a judge before it, or one that does not check)
            idx.refresh(cfg.aliases)
        raw = gamefile.read_bytes(game_path)
        game = gamefile.parse(raw, str(game_path))
        rs = game.ruleset.name
        record, sealed = None, None
        if cfg.archive is not None and cfg.site is not None:
            sealed = _sealed(cfg, game, name, said)
        if cfg.archive is not None:
            try:
                message, path, record = archive.write(game, name, cfg.archive, _row(sealed))
            except Exception as e:  # noqa: BLE001
                raise _Failed(f"the public record of {name} was not archived ({e}); {later}") from None
            where = f"{rs}/{name}.toml"
            raw = path.read_bytes()
            finished = records.finished(record, where, game) if game.is_over() else None
        else:
            path = game_path
            try:
                where = str(game_path.relative_to(Path(source).absolute()))
            except ValueError:
                return idx.warnings  # a game outside the games directory: no index holds it
            finished = records.of_game_file(game, name, where) if game.is_over() else None
        entry = index.entry_of_game(raw, game, finished)
        st = os.stat(path)
        idx.note(where, (st.st_size, st.st_mtime_ns), entry, cfg.aliases)
        said += idx.warnings
        if record is None:
            return said
        files, failed = [path], None
        if cfg.site is not None:
            try:
                written, warned = _site(cfg, idx, record, entry, now, sealed)
                files += written if _inside(cfg.site, cfg.archive) else []
                said += warned
            except Exception as e:  # noqa: BLE001 - the record is committed all the same
                failed = _Failed(f"the site of {name} was not updated ({e}); {later}", said=said)
        try:  # the record and the site's files it changed: one commit
            archive.commit_files(cfg.archive, files, message or f"{rs}/{name}: the site at move {game.move}")
        except Exception as e:  # noqa: BLE001
            raise _Failed(f"the public record of {name} was not archived ({e}); {later}",
                          getattr(e, "cause", ""), said) from None
        if failed:
            raise failed
        return said
    finally:
        lock.__exit__(None, None, None)


def _sealed(cfg, game, name: str, said: list[str]) -> dict | None:
    """Each player's private view, sealed (judge/publish/private.py), or None (said why)."""
    try:
        from judge.publish import private

        return private.for_site(cfg, game, name)
    except Exception as e:  # noqa: BLE001 - the public record and page are published all the same
        said.append(f"the private views of {name} were not sealed ({type(e).__name__}: {e})")
        return None


def _row(sealed: dict | None) -> dict | None:
    if sealed is None:
        return None
    from judge.publish import private

    return private.row(sealed)


def _site(cfg, idx, record: dict, entry: dict, now: datetime, sealed: dict | None = None
          ) -> tuple[list[Path], list[str]]:
    """The site's files of the game (and its lists): those written, or found as written; and
    the warnings (its lists made again)."""
    from judge.engine import writes
    from judge.site import build

    if Path(cfg.site).absolute().is_relative_to(Path(cfg.archive).absolute()):  # the archive's own folder:
        writes.make_folder(cfg.site, cfg.archive)  # no link on the way to it either
    audit = {"result": entry["row"]["audit"], "why": entry["row"]["why"]} if entry["kind"] == "finished" else None
    return build.update(cfg.site, record, now, audit, idx.kept(), cfg.archive, cfg.aliases, sealed)


def _inside(folder: Path, repo: Path) -> bool:
    try:
        Path(folder).resolve().relative_to(Path(repo).resolve())
        return True
    except ValueError:
        return False


def _time(text: str) -> datetime | None:
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return None
