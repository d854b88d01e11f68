"""Problems of the judge's host, kept from players: a configuration the judge cannot read, a
game directory or file it cannot read or write (a full disk, a read-only file system, a
wrong owner or mode, a directory gone), a command run as the wrong user.

`judge mail` runs behind an MTA, which passes what it prints on to the sender in a bounce. So
a host problem there exits 75 (EX_TEMPFAIL: the MTA keeps the message and tries again), prints
one line without paths, writes the detail to the judge's log and tells the game master by
mail, naming the likely cause (at most once an hour for each cause). `judge tick`, run by
cron for the game master, prints one line naming the cause and exits 75 as well.

The note to the game master is sent at once, straight to the SMTP server (or the [maildir]
way out): the outbox lives in the games directory, which may be the very thing that is
broken. Only when it cannot go out now is it put in the outbox; when neither works, nothing
records that it was told, so the next run tries again. The hour is counted by a file for each
cause in the games directory's .mail/ (or, when that cannot be written, the judge user's home
directory, else the system's temporary directory): `tell`, the one way the judge tells the
game master of its host's or its servers' problems (`judge watch`'s too). The judge's log is `mail.log` in the games directory, or
`judge-errors.log` in the judge user's home directory when that cannot be written (or the
configuration cannot be read).
"""
from __future__ import annotations

import errno
import os
import pwd
import tempfile
import time
import traceback
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from judge.engine import writes
from judge.engine.errors import HostError, JudgeError, MailError, UsageError
from judge.mail.journal import record
from judge.mail.outbox import TryLater, Undeliverable, compose, open_outbox

TELL_EVERY = 3600  # seconds between two mails to the game master about the same cause
PUBLIC = "a problem on the judge's host; the message is kept and tried later"
# The likely cause of a host problem: (the key of its hour's stamp, what the one line and the
# note name it, what the game master may do).
CAUSES = {
    "no-space": ("no space left on the disk", "The disk (or the judge user's quota) is full: free some space."),
    "read-only": ("a read-only file system", "The file system is read-only: mount it read-write (a disk error "
                  "makes Linux do that: look at the system's log first)."),
    "permission": ("a wrong owner or mode", "The judge's user may not read or write a file or directory there: a "
                   "wrong owner or mode (a file made by root?). Every judge command must run as the owner of the "
                   "games directory."),
    "missing": ("a file or directory gone", "A file or directory the judge needs is missing (the games directory "
                "itself?)."),
    "wrong-user": ("the wrong user", "A judge command ran as another user than the owner of the games directory: "
                   "run it as that user (the MTA's command too: a ~/.procmailrc of the judge's user)."),
    "configuration": ("judge.toml unreadable", "The configuration judge.toml cannot be read or is not valid."),
    "other": ("an unexpected error", "An unexpected error: the judge's log has its traceback."),
    # the publishing step's (judge/publish/step.py): the game goes on, its archive waits
    "detached-head": ("the archive on a detached HEAD", "The archive's repository has a commit checked out instead "
                      "of its branch: switch back to the branch (git switch BRANCH)."),
    "stale-git-lock": ("git's index.lock held", "A process has held the archive's .git/index.lock for minutes: "
                       "stop it, or remove the lock once no git runs there."),
}
PUBLISHING = ("The games go on and their players are mailed as ever; what is published from them (the archive, "
              "the site, the league) waits, and the next change or judge tick publishes it all once this is mended.")
DIRECTORY_CAUSES = ("no-space", "read-only", "permission")  # a games directory no message can be saved in
_ERRNOS = {errno.ENOSPC: "no-space", errno.EDQUOT: "no-space", errno.EROFS: "read-only", errno.EACCES: "permission",
           errno.EPERM: "permission", errno.ENOENT: "missing"}


def cause_of(error: BaseException) -> str:
    """The key in CAUSES of what most likely made `error`: the errno of an OSError it came
    from, else the words of its text (a GameFileError keeps only the system's words)."""
    seen, e = set(), error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno in _ERRNOS:
            return _ERRNOS[e.errno]
        e = e.__cause__ or e.__context__
    text = str(error)
    for code, key in _ERRNOS.items():
        if os.strerror(code) in text:
            return key
    if "no permission" in text:
        return "permission"
    if "belongs to the user" in text:
        return "wrong-user"
    if "configuration" in text:
        return "configuration"
    return "other"


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def check_user(directory: Path, command: str = "judge") -> None:
    """Refuse to work on the games directory as another user than its owner: files made as
    root (0600) would be unreadable by the judge's user, and every later mail refused."""
    try:
        owner = Path(directory).stat().st_uid
    except OSError:
        return  # a missing directory is told where it is used
    if os.geteuid() != owner:
        name = user_name(owner)
        raise UsageError(f"the games directory {directory} belongs to the user '{name}': run every judge command "
                         f"on its games as '{name}' (e.g. sudo -u {name} {command} ...), not as "
                         f"'{user_name(os.geteuid())}'")


def concerns(game_file: Path, games: Path | None) -> Path | None:
    """The games directory to check for a command on `game_file`: its directory when it is the
    configured games directory or the file is a mail game's; None for games elsewhere."""
    directory = Path(game_file).absolute().parent
    if games is not None and directory.resolve() == Path(games).resolve():
        return directory
    try:
        with open(game_file, "rb") as f:
            head = f.read()
    except OSError:
        return None
    return directory if b"[meta.mail" in head else None


def log_paths(cfg) -> list[Path]:
    paths = [cfg.games / "mail.log"] if cfg is not None else []
    return paths + [Path.home() / "judge-errors.log"]


def write_log(cfg, detail: str, via: str = "mail") -> Path | None:
    """Write a host problem's detail to the judge's log; the log written, None when none could be."""
    now = datetime.now(timezone.utc)
    for path in log_paths(cfg):
        try:
            record(path, now, outcome=("host problem, exit 75: " if via == "mail" else "host problem: ") + detail)
            return path
        except OSError:
            continue
    return None


def report(cfg, error: BaseException, detail: str, via: str = "mail") -> str:
    """A host problem met by `judge mail` or `judge tick` (`via` "mail") or by `judge watch`
    ("watch"): its detail written to the judge's log and the game master told, at most once an
    hour for its cause. What became of the note (`tell`; "" when the game master is not told)."""
    log = write_log(cfg, detail, via)
    first = (detail.splitlines() or [type(error).__name__])[0]  # (an exception without words)
    return tell_gm(cfg, first, cause_of(error), log, via) if cfg is not None else ""


def tell_gm(cfg, detail: str, cause: str = "other", log: Path | None = None, via: str = "mail",
            effect: str = "") -> str:
    """Mail the game master about a host problem and its likely `cause` (a key of CAUSES),
    unless told of that cause in the last hour (the MTA retries often). `log`: the judge's log
    that holds the detail (None: none could be written); `via`: "mail" (an MTA keeps the
    message) or "watch" (it stays in the IMAP folder); `effect`: what it does to the games, when
    not the default (nothing changed, the message kept). What became of the note (`tell`: "" when
    it could be neither sent nor put in the outbox, and the next run tries again)."""
    name, advice = CAUSES[cause]
    if via == "watch":
        folder = (cfg.imap or {}).get("folder", "INBOX")
        kept = (f"a message stays in the IMAP folder {folder} and is handled once the problem is mended, and "
                "judge watch's ticks do their work meanwhile as far as they can")
        output = "judge watch's own output (journalctl --user -u judge-watch under systemd)"
    else:
        kept = ("an incoming message is kept by the MTA and tried again, and judge tick does its work at its next "
                "run once the problem is mended")
        output = "the command's own output (cron mails judge tick's to you)"
    where = (f"The judge's log {log} has the details." if log is not None else
             f"The judge could not write its log ({', '.join(str(p) for p in log_paths(cfg))}): {output} has them.")
    body = (f"The judge could not do its work because of a problem on its host: {name}.\n\n"
            f"  {detail}\n\n{advice} {effect or f'Nothing was changed by the work that failed: {kept}.'} {where} "
            "You are told of each cause at once, then at most once an hour.\n")
    return tell(cfg, cause, f"judge: a problem on the judge's host ({name})", body)


def tell(cfg, key: str, subject: str, body: str) -> str:
    """The one way the judge tells the game master of a problem of its host or its servers:
    a note about `key` (a cause) at once when it is new, then at most once an hour (TELL_EVERY)
    however often the problem is met. Straight to the SMTP server (or the [maildir] way out):
    the outbox lives in the games directory, which may be the very thing that is broken; put
    in the outbox only when it cannot go out now (sent by the next run, or `judge watch`'s
    next try). What became of it: "sent", "queued", "told lately", or "" when neither worked
    (then nothing records that it was told, and the next try tells it)."""
    if _told_lately(cfg, key):
        return "told lately"
    note = compose(cfg, cfg.gm, subject, body)
    box = None
    try:
        box = open_outbox(cfg)
        try:
            box.transport.send(bytes(note))  # at once: the outbox may be what is broken
            fate = "sent"
        except (TryLater, Undeliverable, OSError):
            box.put(note)  # the server is down too: the outbox, when it can be written
            fate = "queued"
    except (OSError, MailError):
        return ""
    finally:
        if box is not None:
            box.close()
    _stamp(cfg, key)
    return fate


def tell_publishing(cfg, warning: str) -> None:
    """A warning of the publishing step (judge/publish/step.py `Warned`) whose cause only the
    game master can mend (a detached HEAD, a git lock held for minutes): told once an hour
    like the host's problems, when the configuration has mail."""
    cause = getattr(warning, "cause", "")
    if not cause or cfg is None or not cfg.has_mail:
        return
    try:  # (written to the judge's log first: the note names it, not a log that could not be written)
        tell_gm(cfg, str(warning), cause, write_log(cfg, str(warning), via="publish"), effect=PUBLISHING)
    except (JudgeError, OSError):
        pass  # (the warning is printed and in GAME.archive.log: the next change tries again)


def _stamps(cfg, key: str) -> list[Path]:
    """Where the hour of `key` is counted, the first that can be written: the games
    directory's .mail/, else the judge user's home directory, else the system's temporary one."""
    return [cfg.games / ".mail" / f"told.{key}", Path.home() / f".judge-told.{key}",
            Path(tempfile.gettempdir()) / f"judge-told.{os.geteuid()}.{key}"]


def _told_lately(cfg, key: str) -> bool:
    for path in _stamps(cfg, key):
        try:
            st = path.stat()
        except OSError:
            continue
        if st.st_uid == os.geteuid() and time.time() - st.st_mtime < TELL_EVERY:
            return True
    return False


def _stamp(cfg, key: str) -> None:
    """Count the hour from now: a file's time (which even a full disk lets the judge set on a
    file that exists), in the first place of `_stamps` that takes it."""
    for path in _stamps(cfg, key):
        try:
            if path.exists() and path.stat().st_uid != os.geteuid():
                continue  # (not the judge's: another user's file in /tmp tells nothing)
            base = cfg.games if path.is_relative_to(cfg.games) else None  # (.mail no link either)
            writes.touch(path, 0o600, base)  # (a link there, another user's in /tmp, is refused)
            return
        except OSError:
            continue


@contextmanager
def guarded(load_config, command: str = "mail"):
    """Run `judge mail`'s or `judge tick`'s work: `load_config()` gives the configuration; any
    problem that is not the message's (the configuration, files, permissions, the user, the
    games directory gone) becomes a HostError with one line (for `judge mail` without paths:
    the MTA may quote it to a player), its detail logged and the game master told. For
    `judge tick` a configuration it cannot load or a wrong user stays the usage error it is
    (the command is wrong, not the host). Yields the configuration."""
    cfg = None
    try:
        cfg = load_config()
        if not cfg.games.is_dir():
            raise HostError(f"the games directory {cfg.games} is gone") from FileNotFoundError(
                errno.ENOENT, os.strerror(errno.ENOENT), str(cfg.games))
        yield cfg
    except MailError:
        raise  # outgoing mail failed: already temporary, and told by the outbox
    except UsageError as e:
        if command != "mail":
            raise
        _report(cfg, e, str(e), command)
    except (HostError, OSError) as e:
        _report(cfg, e, str(e) or repr(e), command)
    except JudgeError:
        raise
    except Exception as e:  # a bug or a host surprise: the traceback goes to the log, not to a player
        _report(cfg, e, f"{type(e).__name__}: {e}\n" + traceback.format_exc(), command)


def _report(cfg, error: BaseException, detail: str, command: str) -> None:
    cause = cause_of(error)
    told = report(cfg, error, detail)
    if command == "mail":
        raise HostError(PUBLIC) from None
    # (one line of at most 78 columns: cron mails it to the game master at every run)
    raise HostError(f"host problem ({CAUSES[cause][0]}): " + ("the game master is told" if told
                                                             else "game master not told yet")) from None


def check_game_user(game_file: Path) -> None:
    """Before a command changes `game_file`: refuse when it lies in the configured games
    directory (--config or JUDGE_CONFIG) or is a mail game, and the user is not the owner of
    its directory. Games elsewhere are not concerned."""
    from judge.store import config as configs

    try:
        games = configs.load(None).games
    except JudgeError:
        games = None
    where = concerns(game_file, games)
    if where is not None:
        check_user(where)
