"""The one way the judge writes on disk: `open_write`, which never follows a symbolic link.

Every file the judge writes, every folder it makes to write into, every rename, removal and
lock lies below a folder the game master named (the games directory, the archive, the site,
a Maildir: `base`, by default the file's own folder), trusted as named, links and all. Below
it nothing is followed: `open_write` opens the folders on the way one at a time, each with
O_NOFOLLOW | O_DIRECTORY relative to the one before (openat), and the file itself with
O_NOFOLLOW. A link anywhere below `base` is refused (LinkRefused) before anything is written,
and no race can slip one in: a folder swapped for a link after it was checked is never used
by name again, its descriptor is. (A folder moved away *with* the judge's descriptor open is
written into where it now lies: it is still the judge's folder, not a link's target.)

The helpers below (an atomic replacement, an append, a rename, a removal) are made of
`open_write` and of calls relative to the folder's descriptor it gives (`dir_fd`), never of
a path walked again by the system. tests/store/test_writes.py checks that no other module of
judge/ opens a file for writing, makes a folder, renames or removes one on its own.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from judge.engine.errors import LinkRefused

FOLDER = os.O_RDONLY | os.O_DIRECTORY  # `flags` of open_write for a folder (with O_CREAT: made when missing)


def open_write(path, flags: int = os.O_WRONLY | os.O_CREAT, mode: int = 0o600, base=None,
               folders: int | None = None) -> int:
    """A descriptor of the file at `path` opened with `flags` (O_WRONLY, O_RDWR for a lock,
    O_APPEND, O_CREAT, O_EXCL), or with FOLDER the folder at `path` (FOLDER | O_CREAT: made
    when missing, with `mode`); never through a link below `base` (`path` itself included).
    `folders`: the mode of the missing folders on the way, made (None: they must exist).
    Raise LinkRefused, or the OSError of the system."""
    path = Path(path).absolute()
    base = path.parent if base is None else Path(base).absolute()
    parts = path.relative_to(base).parts
    if not parts and not flags & os.O_DIRECTORY:
        raise ValueError(f"{path} is no file below {base}")
    try:
        fd = os.open(base, FOLDER | os.O_CLOEXEC)
    except FileNotFoundError:
        if folders is None and not (flags & os.O_DIRECTORY and flags & os.O_CREAT and not parts):
            raise
        os.makedirs(base, mode=folders or mode, exist_ok=True)  # (the named folder itself, as named)
        fd = os.open(base, FOLDER | os.O_CLOEXEC)
    at = base
    try:
        for k, part in enumerate(parts):
            at = at / part
            if k < len(parts) - 1:
                inner = _folder(fd, part, at, folders)
            elif flags & os.O_DIRECTORY:
                inner = _folder(fd, part, at, mode if flags & os.O_CREAT else None)
            else:
                return _open(fd, part, at, flags, mode)
            os.close(fd)
            fd = inner
        fd, done = -1, fd
        return done
    finally:
        if fd >= 0:
            os.close(fd)


def refusal(at: Path, what: str = "file") -> LinkRefused:
    return LinkRefused(f"{at} is a symbolic link: the judge never writes through one (remove it, and the judge "
                       f"writes a {what} of its own there)")


def check_file(path) -> None:
    """Refuse (LinkRefused) when the file at `path` is a link, before work that ends by
    writing it (a change's mail log, written after its save) begins."""
    if os.path.islink(path):
        raise refusal(Path(path).absolute())


def _open(parent: int, name: str, at: Path, flags: int, mode: int) -> int:
    try:
        return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=parent)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR) and _is_link(parent, name):
            raise refusal(at) from None
        raise


def _folder(parent: int, name: str, at: Path, make: int | None) -> int:
    """The folder `name` in the folder `parent`, made (with mode `make`) when missing."""
    for _ in range(2):
        try:
            return os.open(name, FOLDER | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
        except FileNotFoundError:
            if make is None:
                raise
            try:
                os.mkdir(name, make, dir_fd=parent)
            except FileExistsError:  # made meanwhile (by another judge, or as a link: seen at the next open)
                pass
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(parent, name):
                raise refusal(at, "folder") from None
            raise
    return os.open(name, FOLDER | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)


def _is_link(parent: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return False


class Folder:
    """The folder at `path` (below `base`; None: the folder as named), opened by open_write
    (made when `make` is a mode), for what is done by name inside it:
    `with Folder(path, base) as f: f.replace(a, b)`."""

    def __init__(self, path, base=None, make: int | None = None):
        self.path = Path(path).absolute()
        flags = FOLDER | (os.O_CREAT if make is not None else 0)
        self.fd = open_write(self.path, flags, make or 0o777, self.path if base is None else base, folders=make)

    def __enter__(self) -> "Folder":
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.fd)

    def open(self, name: str, flags: int, mode: int = 0o600) -> int:
        """The file `name` in the folder, opened with `flags`, never through a link."""
        return _open(self.fd, name, self.path / name, flags, mode)

    def replace(self, src: str, dst: str) -> None:
        """Rename `src` to `dst` in the folder (over a file, or a link, never its target)."""
        os.replace(src, dst, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def link(self, src: str, dst: str) -> None:
        """A second name `dst` for `src`; FileExistsError when `dst` exists (even as a link)."""
        os.link(src, dst, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)

    def remove(self, name: str, missing_ok: bool = True) -> None:
        try:
            os.unlink(name, dir_fd=self.fd)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def sync(self) -> None:
        os.fsync(self.fd)


def _fill(fd: int, data: bytes, sync: bool) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    if sync:
        os.fsync(fd)


def write_new(path, data: bytes, mode: int = 0o600, base=None, sync: bool = True) -> None:
    """A new file at `path` (FileExistsError when one is there, even a link), synced; on a
    failure (a full disk) none is left behind."""
    fd = open_write(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode, base)
    try:
        _fill(fd, data, sync)
    except BaseException:
        os.close(fd)
        remove(path, base)
        raise
    os.close(fd)


def write_atomic(path, data: bytes, mode: int = 0o600, base=None, sync: bool = True, folders: int | None = None,
                 replace: bool = True) -> None:
    """Replace the file at `path` with `data` atomically: a temporary file beside it (named by
    the process id: .NAME.PID-K.tmp), flushed, renamed over it (over a link, never through
    it), the folder synced. `sync=False` leaves the flushing to the system; `folders`: the
    mode of the folders on the way, made when missing; `replace=False`: a new file only
    (FileExistsError when one is there), never a half one."""
    path = Path(path).absolute()
    with Folder(path.parent, base, make=folders) as folder:
        for k in range(1000):
            tmp = f".{path.name}.{os.getpid()}-{k}.tmp"
            try:
                fd = folder.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
                break
            except FileExistsError:  # another thread's, or left by a crashed process
                continue
        else:
            raise FileExistsError(errno.EEXIST, "cannot make a temporary file", str(path))
        try:
            try:
                _fill(fd, data, sync)
            finally:
                os.close(fd)
            if replace:
                folder.replace(tmp, path.name)
            else:
                folder.link(tmp, path.name)
                folder.remove(tmp)
        except BaseException:
            folder.remove(tmp)
            raise
        if sync:
            folder.sync()


def append(path, data: bytes, mode: int = 0o600, base=None, narrow: bool = False) -> None:
    """Append `data` to the file at `path` (made when missing, with `mode`); with `narrow`, a
    file made wider by an earlier judge is narrowed to `mode` (the file itself: never a
    link's target)."""
    fd = open_write(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, mode, base)
    try:
        if narrow and os.fstat(fd).st_mode & 0o777 & ~mode:
            os.fchmod(fd, mode)
        os.write(fd, data)
    finally:
        os.close(fd)


def touch(path, mode: int = 0o600, base=None) -> None:
    """Set the time of the file at `path` to now (made when missing, with `mode`)."""
    fd = open_write(path, os.O_WRONLY | os.O_CREAT, mode, base)
    try:
        os.utime(fd)
    finally:
        os.close(fd)


def make_folder(path, base=None, mode: int = 0o777) -> None:
    """The folder at `path` and those on the way to it below `base`, made when missing."""
    os.close(open_write(path, FOLDER | os.O_CREAT, mode, base, folders=mode))


def rename(src, dst, base=None) -> None:
    """Move the file `src` to `dst` (both below `base`), over a file or link at `dst`."""
    src, dst = Path(src).absolute(), Path(dst).absolute()
    if src.parent == dst.parent:
        with Folder(src.parent, base) as folder:
            folder.replace(src.name, dst.name)
        return
    with Folder(src.parent, base) as a, Folder(dst.parent, base) as b:
        os.replace(src.name, dst.name, src_dir_fd=a.fd, dst_dir_fd=b.fd)


def remove(path, base=None, missing_ok: bool = True) -> None:
    """Remove the file (or link) at `path`; a folder on the way that is a link is refused."""
    path = Path(path).absolute()
    try:
        folder = Folder(path.parent, base)
    except FileNotFoundError:
        if missing_ok:
            return
        raise
    with folder:
        folder.remove(path.name, missing_ok)


def remove_tree(path, base=None) -> None:
    """Remove the folder at `path` and all it holds, links removed, never followed."""
    path = Path(path).absolute()
    with Folder(path.parent, base) as folder:
        _clear(folder.fd, path.name)


def _clear(parent: int, name: str) -> None:
    try:
        fd = os.open(name, FOLDER | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
    except OSError:  # a file or a link: removed itself
        try:
            os.unlink(name, dir_fd=parent)
        except FileNotFoundError:
            pass
        return
    try:
        for inner in os.listdir(fd):
            _clear(fd, inner)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent)


def check_below(base, path) -> None:
    """Refuse (LinkRefused) when a folder below `base` down to `path` (itself included) is a
    link: before a program that writes there on its own (git) is run on `path`."""
    os.close(Folder(path, base).fd)
