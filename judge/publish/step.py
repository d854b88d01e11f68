"""The publishing step of one game: the archive's commit of its public record, its entry in
the index of the league's source (judge/league/index.py) and the league, its site pages, the
site's lists, feeds and league page, and the site's commit. It reads the game as saved, never
takes the game's lock, and writes the same bytes when run twice (git then commits nothing).

A change (judge/change/unit.py) marks its game with its save (judge/publish/marks.py) and runs
this step for it once it has left the lock, then for every other game of its directory still
marked; `judge tick` runs it for every marked game. The mark is cleared only when all is done,
so a judge killed anywhere leaves it for the next command or tick, which finishes the work (a
failure, such as a stale git lock, likewise: a warning, noted in GAME.archive.log).

Publishers of one source take turns under the index's lock; git commits under the archive's
own lock as well (judge/record/archive.py). The feed entries a change adds are stamped with the
change's time (kept in the mark), so a game published late reads as if published at once.
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from judge.engine.errors import GameFileError
from judge.publish import marks

LOCK_WAIT = 10  # seconds to wait for another judge publishing the same source (then: the next tick)


def after(cfg, game_path, now: datetime) -> str:
    """What a change runs once it has left the lock: its own game, then every other game of
    the directory still marked (a judge killed earlier). Return the own game's warning, or ""."""
    warning = publish(cfg, game_path, now)
    for other in marks.pending(Path(game_path).absolute().parent):
        if other != Path(game_path).absolute():
            publish(cfg, other, now)
    return warning


def pending(cfg, now: datetime) -> list[str]:
    """`judge tick`'s: every marked game of the games directory (and those an earlier judge
    marked); the warnings."""
    return [w for path in marks.pending(cfg.games, earlier=True) if (w := publish(cfg, path, now))]


def publish(cfg, game_path, now: datetime) -> str:
    """Publish the game at `game_path` if it is marked, and clear its mark; never raise. Return
    a warning, or ""."""
    from judge.record import archive

    game_path = Path(game_path).absolute()
    name = game_path.stem
    try:
        mark = marks.read(game_path)
        if mark is None:
            return ""
        token, when = mark
        if not game_path.exists():  # the game file was removed: nothing left to publish
            marks.clear(game_path, token)
            return ""
        _publish(cfg, game_path, _time(when) or now)
        marks.clear(game_path, token)
        return ""
    except _Failed as e:
        warning = str(e)
    except Exception as e:  # noqa: BLE001 - the game is saved; publishing must never block or undo it
        warning = f"{name} was not published ({type(e).__name__}: {e}); it will be with the next change or judge tick"
    archive.note(game_path, warning, now)
    return warning


class _Failed(Exception):
    """A step that failed, with the warning that says which."""


def _publish(cfg, game_path: Path, now: datetime) -> None:
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
    try:
        if idx.kept() is None:  # the source's first index (or a judge before it): made from every record, once
            idx.refresh(cfg.aliases)
        raw = gamefile.read_bytes(game_path)
        game = gamefile.parse(raw, str(game_path))
        rs = game.ruleset.name
        record = None
        if cfg.archive is not None:
            try:
                message, path, record = archive.write(game, name, cfg.archive)
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
                return  # a game outside the games directory: no index holds it
            finished = records.of_game_file(game, name, where) if game.is_over() else None
        entry = index.entry_of_game(raw, game, finished)
        st = os.stat(path)
        idx.note(where, (st.st_size, st.st_mtime_ns), entry, cfg.aliases)
        if record is None:
            return
        files, failed = [path], None
        if cfg.site is not None:
            try:
                written = _site(cfg, idx, record, entry, now)
                files += written if _inside(cfg.site, cfg.archive) else []
            except Exception as e:  # noqa: BLE001 - the record is committed all the same
                failed = _Failed(f"the site of {name} was not updated ({e}); {later}")
        try:  # the record and the site's files it changed: one commit
            archive.commit_files(cfg.archive, files, message or f"{rs}/{name}: the site at move {game.move}")
        except Exception as e:  # noqa: BLE001
            raise _Failed(f"the public record of {name} was not archived ({e}); {later}") from None
        if failed:
            raise failed
    finally:
        lock.__exit__(None, None, None)


def _site(cfg, idx, record: dict, entry: dict, now: datetime) -> list[Path]:
    """The site's files of the game (and its lists): those written, or found as written."""
    from judge.engine import writes
    from judge.site import build

    if Path(cfg.site).absolute().is_relative_to(Path(cfg.archive).absolute()):  # the archive's own folder:
        writes.make_folder(cfg.site, cfg.archive)  # no link on the way to it either
    audit = {"result": entry["row"]["audit"], "why": entry["row"]["why"]} if entry["kind"] == "finished" else None
    return build.update(cfg.site, record, now, audit, idx.kept(), cfg.archive, cfg.aliases)


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
