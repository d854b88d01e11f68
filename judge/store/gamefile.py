"""Reading and writing game files: TOML, atomic replacement, an exclusive lock."""
from __future__ import annotations

import fcntl
import os
import stat
from contextlib import contextmanager
from pathlib import Path

from judge.engine import orderlog, writes
from judge.engine.errors import GameFileError, GameFileFull
from judge.engine.game import Game
from judge.store.steps import step

MAX_FILE = 64 * 1024 * 1024


def parse(raw: bytes, where: str) -> Game:
    return Game.from_dict(parse_toml(raw, where), where)


def parse_toml(raw: bytes, where: str) -> dict:
    """The file's TOML contents (the log kept as text when it can be), or GameFileError."""
    import tomllib  # here: `judge new` reads no game file

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError(f"{where} is not UTF-8 text") from None
    try:
        data = _fast_parse(text)
        if data is None:
            data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise GameFileError(f"{where} is not valid TOML: {e}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise GameFileError(f"{where} is not a game file: its TOML is nested too deeply") from None
    return data


def _fast_parse(text: str) -> dict | None:
    """The file's contents when it ends with its log as the judge writes it (the last table,
    plain entries): the rest is parsed as TOML and the log's lines are kept as text
    (judge/orderlog.py). None for any other file, which tomllib then reads whole (and
    refuses with its own message when it is not TOML)."""
    start = text.rfind(orderlog.HEADER)
    if start < 0:
        return None
    tail = text[start + len(orderlog.HEADER):]
    if tail == "]\n":
        log = orderlog.Log()
    elif tail.startswith("\n") and tail.endswith("]\n"):
        log = orderlog.Log.from_lines(tail[1:-2])
    else:
        return None
    if log is None:
        return None
    import tomllib

    try:
        data = tomllib.loads(text[:start + 1])
    except tomllib.TOMLDecodeError:
        return None
    if "log" in data:
        return None
    data["log"] = {"orders": log}
    return data


def read_bytes(path: Path) -> bytes:
    try:
        if path.is_dir():
            raise IsADirectoryError
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # (a FIFO opened so does not wait for a writer)
        with open(fd, "rb") as f:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise GameFileError(f"{path} is not a regular file, so not a game file")
            if info.st_size > MAX_FILE:
                raise GameFileError(f"{path} is larger than any game file ({MAX_FILE} bytes)")
            return f.read(MAX_FILE + 1)
    except FileNotFoundError:
        raise GameFileError(f"no game file {path}") from None
    except IsADirectoryError:
        raise GameFileError(f"{path} is a directory, not a game file") from None
    except PermissionError:
        raise GameFileError(f"no permission to read {path}") from None


def load(path) -> Game:
    path = Path(path)
    return parse(read_bytes(path), str(path))


def dumps(game: Game) -> str:
    """The file's text, exactly as tomli-w writes `game.to_dict()`, but with the log's lines
    kept from the file it was read from, and only new entries formatted."""
    import tomli_w  # here: reading a game (show, status) never writes one

    lines = game.log.lines()
    if lines is None:
        return tomli_w.dumps(game.to_dict(), indent=2)
    head = tomli_w.dumps(game.to_dict(log=False), indent=2)
    return f"{head}{orderlog.HEADER}\n{lines}]\n" if lines else f"{head}{orderlog.HEADER}]\n"


def sync_directory_of(path: Path) -> None:
    """fsync the directory that holds `path`, so that the file's new name survives a crash."""
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path, text: str, mode: int = 0o600, sync: bool = True, base=None, folders: int | None = None) -> None:
    """Replace the file at `path` with `text` atomically (temporary file beside it, fsync,
    rename, fsync of the directory): a crash leaves the old file or the new, never half of
    one. The game file, the public record and the archive's copy of it are all written so.
    `sync=False` (what is derived from them and made again from them: the site, the league's
    index) leaves the flushing to the system: a killed judge still leaves the old file or the
    new; only a crash of the machine may lose the newest. Never through a link below `base`
    (judge/engine/writes.py; by default the file's folder): a file that is a link is replaced
    by the file, its target untouched; `folders`: the mode of missing folders, made."""
    step(f"write {Path(path).name}")
    writes.write_atomic(path, text.encode("utf-8"), mode, base, sync, folders)


def is_regular(path: Path) -> bool:
    """Whether `path` is a regular file itself (not a link to one, a folder or a FIFO)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def bounded_dumps(game: Game) -> str:
    """`dumps(game)`, refused with GameFileFull when the judge could not load it again."""
    text = dumps(game)
    if len(text) > MAX_FILE // 4 and len(text.encode("utf-8")) > MAX_FILE:  # (characters: at most 4 bytes each)
        raise GameFileFull(f"the change would make the game file larger than the judge loads ({MAX_FILE // 2**20} MB); "
                           "nothing was changed")
    return text


def save(game: Game, path) -> None:
    """Replace the game file atomically."""
    write_atomic(path, bounded_dumps(game))


def create(game: Game, path) -> None:
    """Write a new game file; refuse to overwrite one that exists."""
    path = Path(path).absolute()
    if not path.parent.is_dir():
        raise GameFileError(f"no directory {path.parent} for the game file")
    step(f"write {path.name}")
    try:
        writes.write_atomic(path, bounded_dumps(game).encode("utf-8"), replace=False)
    except FileExistsError:
        raise GameFileError(f"{path.name} exists already; the judge never overwrites a game") from None


@contextmanager
def locked(path, wait: bool = True):
    """Hold an exclusive lock on the game (a sidecar .NAME.lock file) for a read-modify-write.
    With wait=False, refuse at once when another process holds it."""
    path = Path(path).absolute()
    lock_path = path.with_name(f".{path.name}.lock")
    try:
        fd = writes.open_write(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise GameFileError(f"cannot lock {path}: {e.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise GameFileError(f"{path.name} is in use by another judge process (an order, the mail "
                                "gateway or tick); nothing was changed: try again in a moment") from None
        _remove_stale_temps(path)
        step(f"lock {path.name}")
        yield path
    finally:
        os.close(fd)
        step(f"unlock {path.name}")


def _remove_stale_temps(path: Path) -> None:
    """Temporary files of this game left by killed processes (.NAME.PID-K.tmp), removed under
    the game's lock; a living process's own are left alone."""
    prefix = f".{path.name}."
    try:
        names = [n for n in os.listdir(path.parent) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):-len(".tmp")].partition("-")[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # alive
        except ProcessLookupError:
            pass
        except PermissionError:  # alive, another user's
            continue
        writes.remove(path.parent / name)

