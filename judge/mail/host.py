"""Problems of the judge's host, kept from players: a configuration the judge cannot read, a
game directory or file it cannot read or write, a command run as the wrong user.

`judge mail` runs behind an MTA, which passes what it prints on to the sender in a bounce. So
a host problem there exits 75 (EX_TEMPFAIL: the MTA keeps the message and tries again), prints
one line without paths, writes the detail to the judge's log and tells the game master by
mail (at most once an hour). The judge's log is `mail.log` in the games directory, or
`judge-errors.log` in the judge user's home directory when that cannot be written (or the
configuration cannot be read).
"""
from __future__ import annotations

import os
import pwd
import time
import traceback
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from judge.engine.errors import HostError, JudgeError, UsageError
from judge.mail.journal import record
from judge.engine.errors import MailError
from judge.mail.outbox import compose, open_outbox

TELL_EVERY = 3600  # seconds between two mails to the game master about host problems
PUBLIC = "a problem on the judge's host; the message is kept and tried again later"


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


def write_log(cfg, detail: str) -> None:
    now = datetime.now(timezone.utc)
    for path in log_paths(cfg):
        try:
            record(path, now, outcome="host problem, exit 75: " + detail)
            return
        except OSError:
            continue


def tell_gm(cfg, detail: str) -> None:
    """Mail the game master, unless told in the last hour (the MTA retries often)."""
    stamp = Path.home() / ".judge-host-problem"
    try:
        if time.time() - stamp.stat().st_mtime < TELL_EVERY:
            return
    except OSError:
        pass
    body = ("The judge could not handle an incoming mail because of a problem on its host:\n\n"
            f"  {detail}\n\nThe mail is kept by the MTA and tried again; nothing was changed. Fix the\n"
            "problem (every judge command must run as the owner of the games directory); the\n"
            f"judge's log ({', '.join(str(p) for p in log_paths(cfg))}) has the details.\n")
    box = open_outbox(cfg)
    try:
        box.put(compose(cfg, cfg.gm, "judge: a problem on the judge's host", body))
        stamp.touch()  # queued: it goes out with the outbox, so the next hour's retries add none
        box.flush()
    except (MailError, OSError):
        pass
    finally:
        box.close()


@contextmanager
def guarded(load_config):
    """Run `judge mail`'s work: `load_config()` gives the configuration; any problem that is not
    the message's (the configuration, files, permissions, the user) becomes a HostError with a
    public text, its detail logged and the game master told. Yields the configuration."""
    cfg = None
    try:
        cfg = load_config()
        yield cfg
    except MailError:
        raise  # outgoing mail failed: already temporary, and told by the outbox
    except (HostError, UsageError, OSError) as e:
        _report(cfg, str(e) or repr(e))
    except JudgeError:
        raise
    except Exception as e:  # a bug or a host surprise: the traceback goes to the log, not to a player
        _report(cfg, f"{type(e).__name__}: {e}\n" + traceback.format_exc())


def _report(cfg, detail: str) -> None:
    write_log(cfg, detail)
    if cfg is not None:
        tell_gm(cfg, detail.splitlines()[0])
    raise HostError(PUBLIC) from None


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
