"""The durable mark that says "publish this game": written with the save of every change
that has a configuration, cleared by the publishing step once everything published from the
game is done, so that a judge killed anywhere in between is finished by the next command or
`judge tick`.

    GAMES/.publish/NAME         "TOKEN TIME": a new token at every change, and the change's time
    GAMES/.publish/NAME.lock    taken for the write of the mark and the save, and for reading
                                or clearing the mark (never for longer)

The mark and the save are made under NAME.lock, the mark first (synced); the publishing step
reads the token under it, publishes the game as saved, then clears the mark only when the
token is still the same: a change saved meanwhile wrote a new token, so its mark stays. The
lock is not the game's: publishing never waits for a change, and a change never waits for a
publication. A folder of marks costs what the marked games cost to list (`pending`).

A mark left by an earlier judge (`.NAME.archive-pending` beside the game file) is read too.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from judge.engine import writes
from judge.store import flock

FOLDER = ".publish"


def _folder(game_path: Path) -> Path:
    return Path(game_path).absolute().parent / FOLDER


def _mark(game_path: Path) -> Path:
    return _folder(game_path) / Path(game_path).stem


def _legacy(game_path: Path) -> Path:
    game_path = Path(game_path).absolute()
    return game_path.with_name(f".{game_path.stem}.archive-pending")


@contextmanager
def _locked(game_path: Path):
    folder = _folder(game_path)
    fd = writes.open_write(folder / f"{Path(game_path).stem}.lock", os.O_RDWR | os.O_CREAT, 0o644, folder.parent, 0o777)
    try:
        flock.take(fd, None)  # (held for a mark's write and a save, or a read: never long)
        yield
    finally:
        os.close(fd)


def marking(game_path, when: str, write):
    """`write` (the save of a change) made a function that marks the game first, under the
    mark's lock."""
    from judge.store.gamefile import write_atomic

    def marked_write() -> None:
        with _locked(game_path):
            write_atomic(_mark(game_path), f"{os.urandom(8).hex()} {when}\n", mode=0o644, base=_folder(game_path).parent)
            write()
    return marked_write


def read(game_path) -> tuple[str, str] | None:
    """(the token, the time of the change) of the game's mark, or None when it has none."""
    with _locked(game_path):
        return _read(game_path)


def _read(game_path) -> tuple[str, str] | None:
    try:
        token, _, when = _mark(game_path).read_text(encoding="utf-8").strip().partition(" ")
        return token, when
    except (OSError, UnicodeDecodeError):
        pass
    return ("earlier judge", "") if _legacy(game_path).exists() else None


def clear(game_path, token: str) -> bool:
    """Remove the game's mark when it still holds `token` (no change was saved since it was
    read); whether the game is left unmarked."""
    with _locked(game_path):
        mark = _read(game_path)
        if mark is not None and mark[0] != token:
            return False
        writes.remove(_mark(game_path), _folder(game_path).parent)
        writes.remove(_legacy(game_path))
        return True


def pending(games_dir, earlier: bool = False) -> list[Path]:
    """The game files of `games_dir` that are marked, by name; with `earlier`, also those an
    earlier judge marked (that lists the games directory: `judge tick` lists it anyway)."""
    games_dir = Path(games_dir)
    names = set()
    try:
        names |= {n for n in os.listdir(games_dir / FOLDER) if not n.endswith(".lock") and not n.startswith(".")}
    except OSError:
        pass
    if earlier:
        try:
            names |= {n[1:-len(".archive-pending")] for n in os.listdir(games_dir)
                      if n.startswith(".") and n.endswith(".archive-pending")}
        except OSError:
            pass
    return [games_dir / f"{n}.toml" for n in sorted(names)]
