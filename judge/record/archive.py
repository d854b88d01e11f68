"""Archiving a game's public record in a git repository, one commit per change, through the
git command-line tool. The record lies at RULESET/GAME.toml in the repository; each commit's
message names the move and what the public saw (`mogul/friday: move 31, alice bids (pot 3)`),
and ends with the log's head then (`Log head: move 30 HEX`, judge/engine/chain.py).

`commit` is what the publishing step after a change calls (judge/publish/): it never runs
under the game's lock, and a judge killed before it is finished by the next command or tick
(the publishing step's mark). A temporary file a killed write left in the archive is removed
under the repository's lock. `commit_files` commits other files written into the repository
(the site's, when it lies inside it).
"""
from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import time
import tomllib
from datetime import datetime, timezone
from pathlib import Path

from judge.record import corrections, public as record
from judge.store import gamefile
from judge.store.steps import step
from judge.engine import chain, writes
from judge.engine.errors import ArchiveError
from judge.engine.ruleset import new_events

GIT_TIMEOUT = 20  # seconds for one git command
LOCK_TIMEOUT = 10  # seconds to wait for another judge committing to the same repository
STALE = 60  # seconds after which git's index.lock, held by no process, is a killed git's: removed
MAX_SUBJECT = 200
MAX_MESSAGE = 60_000  # characters of a commit's message
SPLIT = ("-c", "core.splitIndex=true")  # git's index kept as a shared part and a small one of changes


def _git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    step(f"git {next(a for a in args if not a.startswith('-') and '=' not in a)}")
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=GIT_TIMEOUT)
    except FileNotFoundError:
        raise ArchiveError("the git command is not installed") from None
    except subprocess.TimeoutExpired:
        raise ArchiveError(f"git {args[0]} took longer than {GIT_TIMEOUT} s") from None
    if check and done.returncode:
        lines = (done.stderr or done.stdout).strip().splitlines()
        said = [line for line in lines if line.startswith(("fatal:", "error:"))] or lines[-1:] or [f"exit {done.returncode}"]
        raise ArchiveError(f"git {args[0]} failed in {repo}: {said[0]}")
    return done


def write(game, name: str, repo, sealed: dict | None = None) -> tuple[str, Path, dict]:
    """Write the public record of `game` into `repo` (RULESET/GAME.toml): (the message of its
    commit, "" when the repository holds this record already; its path; the record); `sealed`,
    the row of the private views published with it (judge/record/public.py `build`). Raise
    ArchiveError."""
    repo = Path(repo)
    if not repo.is_dir():
        raise ArchiveError(f"no directory {repo} for the archive (make it a git repository: git init {repo})")
    where = f"{game.ruleset.name}/{name}.toml"
    path = repo / where
    with _repo_lock(repo):
        shown = _git(repo, "show", f"HEAD:{where}", check=False)
        old = shown.stdout if shown.returncode == 0 else None
        previous = _read(old)
        built = record.build(game, name, previous=previous, sealed=sealed)
        new = record.dumps(built)
        _known(new, _as_read(built))  # (what the next change of this game reads as its previous)
        for stale in path.parent.glob(f".{path.name}.*.tmp"):  # a killed write's (we hold the lock)
            writes.remove(stale, repo)
        try:
            written = path.read_text(encoding="utf-8") if gamefile.is_regular(path) else None
        except (OSError, UnicodeDecodeError):
            written = None
        if written != new:  # (a judge killed before its commit wrote it already)
            gamefile.write_atomic(path, new, mode=0o666, base=repo, folders=0o777)  # (the umask's mode, as git's)
    return ("" if old == new else describe(previous, built)), path, built


def commit(game, name: str, repo) -> str:
    """Write the public record of `game` into `repo` and commit it. Return the commit's
    message, or "" when the record is as committed already. Raise ArchiveError."""
    message, path, _ = write(game, name, repo)
    if message:
        commit_files(repo, [path], message)
    return message


def commit_files(repo, paths: list[Path], message: str) -> bool:
    """Commit the files at `paths` (written into the repository `repo`) as they are now, in one
    commit; whether there was anything to commit. Made with git's plumbing (update-index,
    write-tree, commit-tree, update-ref): no walk of the work tree, whatever the archive holds.
    Raise ArchiveError."""
    repo = Path(repo)
    where = [str(Path(p).resolve().relative_to(repo.resolve())) for p in paths]
    if not where:
        return False
    if len(message) > MAX_MESSAGE:  # one argument of commit-tree (Linux takes 128 kB at most)
        message = message[:MAX_MESSAGE].rsplit("\n", 1)[0] + "\n(more in the record)"
    with _repo_lock(repo):
        _check_branch(repo)
        _clear_stale_index_lock(repo)
        # git's index of an archive lists every record and site file (50,000 at 10,000 games):
        # split, a change writes only its own entries (update-index and write-tree: 40 ms at
        # 10,000 games instead of 70-110; bench/archive.py)
        _git(repo, *SPLIT, "update-index", "--add", "--", *where)
        tree = _git(repo, *SPLIT, "write-tree").stdout.strip()
        shown = _git(repo, "rev-parse", "HEAD^{commit}", "HEAD^{tree}", check=False)  # (fails before a first commit)
        head, before = shown.stdout.split()[:2] if shown.returncode == 0 else ("", "")
        if head and before == tree:
            return False
        made = _git(repo, *_identity(repo), "commit-tree", tree, *(["-p", head] if head else []), "-m", message)
        _git(repo, "update-ref", "-m", f"commit: {message.splitlines()[0]}", "HEAD", made.stdout.strip(), head)
    return True


def versions(repo, name: str) -> list[str]:
    """The text of every version the repository's history holds of each file called `name`
    (below any folder), newest first: what was ever published under that name (the private
    views a finished game's audit opens, judge/publish/private.py). Only reads."""
    log = _git(Path(repo), "log", "--format=%H", "--name-only", "--", f":(glob)**/{name}").stdout
    texts, commit = [], ""
    for line in log.splitlines():
        if re.fullmatch(r"[0-9a-f]{40}", line):
            commit = line
        elif line.rpartition("/")[2] == name and commit:
            shown = _git(Path(repo), "show", f"{commit}:{line}", check=False)
            texts.append(shown.stdout if shown.returncode == 0 else "")
    return texts


def note(game_path, warning: str, now: datetime | None = None) -> None:
    """Append a failure to GAME.archive.log beside the game file (the archive's, the site's)."""
    when = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        writes.append(Path(game_path).with_name(f"{Path(game_path).stem}.archive.log"),
                      (json.dumps({"time": when, "outcome": warning}, ensure_ascii=False) + "\n").encode(), 0o666)
    except OSError:  # (a log that is a link is not written, LinkRefused: the warning is said all the same)
        pass


# The records this process wrote or read last, by their text: the next change of a game (judge
# watch, tick, the shell's commands in one process) finds its previous record here instead of
# reading the TOML again (a third of a change's cost in a long game). Read them, never change
# them: moves.build makes its rows anew and describe only compares.
_KNOWN: dict[str, dict] = {}
KNOWN = 16


def _read(text: str | None) -> dict | None:
    """The record committed before: None for none, or for what is not TOML."""
    if not text:
        return None
    if text in _KNOWN:
        return _KNOWN[text]
    try:
        return _known(text, tomllib.loads(text))
    except tomllib.TOMLDecodeError:
        return None


def _known(text: str, data: dict) -> dict:
    if len(_KNOWN) >= KNOWN:
        del _KNOWN[next(iter(_KNOWN))]
    _KNOWN[text] = data
    return data


def _as_read(value):
    """A record built as TOML reads it back: every tuple a list, each container a copy
    (tests/record/test_archive.py proves it equal to the text read again)."""
    if isinstance(value, dict):
        return {k: _as_read(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_read(v) for v in value]
    return value


@functools.cache
def _identity(repo: Path) -> tuple[str, ...]:
    """A committer for a repository (and machine) with none configured."""
    if _git(repo, "config", "user.email", check=False).stdout.strip():
        return ()
    return ("-c", "user.name=judge", "-c", "user.email=judge@localhost")


class _repo_lock:
    """One judge process at a time commits to a repository (mail, tick and the shell may run
    together); give up after LOCK_TIMEOUT seconds, or at the command's deadline (judge/store/
    flock.py: the next change or tick tries again)."""

    def __init__(self, repo: Path):
        self.path = repo / ".git" / "judge-archive.lock"

    def __enter__(self):
        from judge.store import flock

        self.fd = None
        if not self.path.parent.is_dir():  # a worktree or submodule: git's own index lock suffices
            return self
        self.fd = writes.open_write(self.path, os.O_RDWR | os.O_CREAT, 0o644, self.path.parent.parent)  # (.git no link)
        if not flock.take(self.fd, flock.deadline(LOCK_TIMEOUT)):
            os.close(self.fd)
            raise ArchiveError(f"another judge process kept {self.path} locked")
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)


class Stuck(ArchiveError):
    """A state of the repository that no retry mends, told to the game master (`cause`: the
    key of judge/mail/host.py CAUSES that names it)."""

    def __init__(self, text: str, cause: str):
        super().__init__(text)
        self.cause = cause


def _check_branch(repo: Path) -> None:
    """Refuse (Stuck) to commit in a repository on a detached HEAD: the commit would leave its
    branch behind, and what the forge publishes (the branch) would silently stop changing."""
    head = repo / ".git" / "HEAD"
    try:
        attached = head.read_text(encoding="utf-8").startswith("ref:") if head.is_file() else \
            _git(repo, "symbolic-ref", "-q", "HEAD", check=False).returncode == 0
    except (OSError, UnicodeDecodeError):
        return  # (git says what is wrong with the repository itself)
    if not attached:
        raise Stuck(f"the archive's repository {repo} is on a detached HEAD (a commit checked out, not a branch): "
                    "the judge commits nothing there, so that no commit leaves the branch behind; check the branch "
                    f"out again (git -C {repo} switch BRANCH) and the next change or judge tick commits all",
                    "detached-head")


def _clear_stale_index_lock(repo: Path) -> None:
    """Remove git's `index.lock` left by a git process that was killed (older than STALE
    seconds, open in no process); one some process holds that long is Stuck: told. A younger
    one is git at work: the commit fails and the next change or tick tries again."""
    lock = repo / ".git" / "index.lock"
    try:
        age = time.time() - os.lstat(lock).st_mtime
    except OSError:
        return
    if age < STALE:
        return
    if _open_anywhere(lock):
        raise Stuck(f"git's lock {lock} has been held for {int(age // 60)} minutes by a process still running: "
                    "stop that process (or remove the lock once no git runs there)", "stale-git-lock")
    writes.remove(lock, repo)  # (.git no link)


def _open_anywhere(path: Path) -> bool:
    """Whether any process this user may look at holds `path` open (Linux's /proc); True when
    that cannot be told."""
    target = str(path.resolve())
    try:
        pids = [n for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return True
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # (gone, or another user's: its git could not write this repository)
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return True
            except OSError:
                continue
    return False


def describe(old: dict | None, new: dict) -> str:
    """The commit message: the game, the move, and what the public saw since `old` (None: the
    archive's first record of the game)."""
    head = f"{new['ruleset']}/{new['game']}: move {new['move']}"
    if old is None:
        if new["log"] or new.get("corrections"):  # a game archived first while under way
            said = ["first record, the game under way: " + ", ".join(_holders(new))]
            said += [corrections.describe(c) for c in new.get("corrections", [])]
        else:
            said = ["new game for " + ", ".join(new["players"])]
        old = {"log": [], "corrections": new.get("corrections", []), "complete": False, "view": {}}
    else:
        said = [corrections.describe(c) for c in new.get("corrections", [])[len(old.get("corrections", [])):]]
        added = None  # the orders added, when none was undone by a rollback
        if new["log"][:len(old["log"])] == old["log"]:
            added = new["log"][len(old["log"]):]
            events = new_events(old["view"].get("events", []), new["view"].get("events", []))
            said += [e["text"].rstrip(".") for e in events]
            if not said:
                said = [e.partition(" ")[2] for e in added]
        first = int(added[0].split(" ", 1)[0]) if added else None
        if first is not None and first != new["move"]:
            head = f"{new['ruleset']}/{new['game']}: move {first}"
    said += _told(old, new, said)
    if new["complete"] and not old["complete"]:
        said.append("the game is over: the record is complete")
    subject = f"{head}, " + "; ".join(said) if said else head
    logged = new.get("log_head")  # the log's head (judge/engine/chain.py): what every report now shows
    tail = f"\n\n{chain.line(logged)}" if isinstance(logged, dict) else ""
    if len(subject) <= MAX_SUBJECT:
        return subject + tail
    return subject[:MAX_SUBJECT - 3] + "...\n\n" + "\n".join(said) + tail


def _holders(record: dict) -> list[str]:
    """Who plays each seat now ("dave (seat bob)" for a seat handed on)."""
    seats = record.get("seats", {})
    return [f"{seats[p]['player']} (seat {p})" if isinstance(seats.get(p), dict) and "player" in seats[p] else p
            for p in record["players"]]


def _told(old: dict, new: dict, said: list[str]) -> list[str]:
    """What else all were told since `old` that the record keeps: press to all, missed deadlines
    and resignations (the league's facts), and, when nothing else changed (a pause, a resume,
    a deadline set by the game master), the deadline."""
    told = [f"press from {p.get('from', '?')}: {p.get('text', '')}"
            for p in new.get("press", [])[len(old.get("press", [])):] if isinstance(p, dict)]
    facts = new.get("league", {}).get("facts", [])[len(old.get("league", {}).get("facts", [])):]
    for f in facts if isinstance(facts, list) else []:
        if isinstance(f, dict) and f.get("kind") == "missed":
            told.append(f"{f.get('player', f.get('seat'))} missed the deadline of move {f.get('move')}")
        elif isinstance(f, dict) and f.get("kind") == "resigned":
            told.append(f"{f.get('player', f.get('seat'))} resigned")
    if not said and not told and old.get("deadline") != new.get("deadline") and not new["complete"]:
        told.append(f"deadline {new['deadline']}" if new.get("deadline") else "no deadline now")
    return told
