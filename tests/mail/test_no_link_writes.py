"""No write follows a link, anywhere (issue 44, item 9), proved on a whole mail game with the
archive and its site on: every path the judge writes in it (traced through
judge/engine/writes.py's open_write and by comparing the tree before and after each change),
and every folder on the way to it below the judge's folders, is replaced in turn by a link to
a copy outside; the change that wrote it is run again; the copy outside is unchanged (its
files, their bytes and modes), and the judge either wrote beside the link (replaced it), or
refused with a clear message, or never wrote there; the message is never lost and the game
file still loads."""
from __future__ import annotations

import os
import re
import shutil
import stat
from datetime import timedelta
from email.utils import make_msgid
from pathlib import Path

from judge.change import unit
from judge.engine import bots, writes
from judge.engine.game import Game
from judge.gateway import inbox
from judge.mail import mailgame
from judge.mail.outbox import open_outbox
from judge.store import config, gamefile

from mailkit import NAMES, OBSERVER, T0, address, make_site, message, short_setup

ROOTS = ("games", "archive", "outbox", "inbox")  # the folders judge.toml names (the site lies in the archive)
REFUSAL = "is a symbolic link: the judge never writes through one"


def configure(root: Path) -> None:
    import subprocess

    root.mkdir()
    make_site(root)
    (root / "judge.toml").write_text((root / "judge.toml").read_text()
                                     + '[archive]\ngit = "archive"\nsite = "archive/site"\n')
    subprocess.run(["git", "init", "-q", str(root / "archive")], check=True)
    for sub in ("tmp", "new", "cur"):
        (root / "inbox" / sub).mkdir(parents=True)


def create(root: Path) -> dict:
    """Step 0: the game, as `judge new --mail` makes it (welcomes mailed, published)."""
    cfg = config.load(root / "judge.toml")
    game = Game.new("mogul", NAMES, seed=1, setup=short_setup(rounds=2))
    passwords = mailgame.enable(game, {p: address(p) for p in NAMES}, [OBSERVER], 0, 0, 0, T0)
    box = open_outbox(cfg)
    try:
        unit.create(cfg.games / "g1.toml", game, cfg, box, mailgame.MailGame(game, "g1").welcomes(cfg, passwords), T0)
        box.flush()
    finally:
        box.close()
    return passwords


def deliver(root: Path, k: int) -> None:
    """Step k: the message the MTA left in the incoming Maildir, handled as `judge mail
    --maildir` does."""
    cfg = config.load(root / "judge.toml")
    box = open_outbox(cfg)
    try:
        inbox.handle_maildir(root / "inbox", cfg, box, lambda: T0 + timedelta(minutes=k))
    finally:
        box.close()


def tree(root: Path) -> dict[str, tuple]:
    """Every path below `root` (git's own files left to git), with what it is."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if rel.startswith("archive/.git/") and rel != "archive/.git/judge-archive.lock":
                continue
            st = os.lstat(path)
            what = os.readlink(path) if stat.S_ISLNK(st.st_mode) else (
                path.read_bytes() if stat.S_ISREG(st.st_mode) else "folder")
            out[rel] = (stat.S_IFMT(st.st_mode), st.st_mode & 0o777, what)
    return out


class Traced:
    """What open_write was asked to open (below `root`), and what it refused."""

    def __init__(self, monkeypatch):
        self.opened: list[Path] = []
        self.refused: list[str] = []
        real = writes.open_write

        def traced(path, *args, **kwargs):
            self.opened.append(Path(path).absolute())
            try:
                return real(path, *args, **kwargs)
            except writes.LinkRefused as e:
                self.refused.append(str(e))
                raise
        monkeypatch.setattr(writes, "open_write", traced)

    def below(self, root: Path) -> set[str]:
        return {str(p.relative_to(root)) for p in self.opened if p.is_relative_to(root) and p != root}


def written_paths(before: dict, after: dict, opened: set[str]) -> set[str]:
    changed = {p for p in after if before.get(p) != after[p]} | (set(before) - set(after))
    return changed | opened


def kind(rel: str) -> str:
    """A path with the numbers and keys in its names (times, process ids, Message-IDs' keys)
    left out: the paths of one kind are written by the same code."""
    return re.sub(r"[0-9a-f]{16,}|\d+", "N", rel)


def candidates(paths: set[str]) -> set[str]:
    """The paths and each folder on the way to them below the judge's folders."""
    out = set()
    for rel in paths:
        parts = Path(rel).parts
        assert parts[0] in ROOTS, f"the judge wrote {rel}, outside its folders"
        out |= {str(Path(*parts[:n])) for n in range(2, len(parts) + 1)}
    return out


# Cost (about 20 s): one change run again for each of 57 kinds of path the judge writes, each
# replaced by a link; a kind left out is a write the proof does not cover.
def test_no_write_of_a_whole_mail_game_follows_a_link(tmp_path, monkeypatch):
    traced = Traced(monkeypatch)
    root, snaps = tmp_path / "judge", tmp_path / "snaps"
    configure(root)
    shutil.copytree(root, snaps / "0", symlinks=True)
    steps, by_step = [lambda r: create(r)], []
    before = tree(root)
    passwords = create(root)
    after = tree(root)
    by_step.append(written_paths(before, after, traced.below(root)))
    trial = gamefile.load(root / "games" / "g1.toml")
    k = 1
    while not trial.is_over():  # every order of the game, one message each, played ahead
        player = trial.awaiting()[0]
        order = bots.choose(trial, player)
        body = f"game g1\nplayer {player} {passwords[player]}\n#{trial.move} {order}\n"
        raw = message(address(player), body, message_id=make_msgid(idstring=f"m{k}", domain="players.test"))
        trial.submit(player, [order])
        (root / "inbox" / "new" / f"message-{k}").write_bytes(raw)  # (the MTA's)
        shutil.copytree(root, snaps / str(k), symlinks=True)
        traced.opened.clear()
        before = tree(root)
        deliver(root, k)
        after = tree(root)
        by_step.append(written_paths(before, after, traced.below(root)))
        steps.append(lambda r, k=k: deliver(r, k))
        k += 1
    assert gamefile.load(root / "games" / "g1.toml").is_over() and not traced.refused
    assert len(steps) >= 10 and (root / "archive" / "site" / "index.html").is_file()

    first = {}  # each kind of path (and folder on the way), one of them and the first change that wrote it
    for k, paths in enumerate(by_step):
        for rel in sorted(candidates(paths)):
            first.setdefault(kind(rel), (rel, k))
    for must in ("games/g1.toml", "games/g1.mail.log", "games/.publish/g1.lock", "archive/.judge-index",
                 "archive/mogul/g1.toml", "archive/site", "games/.mail/outbox", "inbox/cur"):
        assert kind(must) in first, sorted(first)
    for n, (rel, k) in enumerate(sorted(first.values())):
        check_one(tmp_path / f"try-{n}", snaps / str(k), rel, k, steps[k], traced)


def check_one(place: Path, snap: Path, rel: str, k: int, step, traced: Traced) -> None:
    """The change `step` run again on a copy of `snap` in which `rel` is a link to a copy of
    it outside the judge's folders."""
    root, outside = place / "judge", place / "outside"
    shutil.copytree(snap, root, symlinks=True)
    path = root / rel
    if path.is_dir():  # a folder: a link to a copy of it
        shutil.copytree(path, outside, symlinks=True)
        shutil.rmtree(path)
        target = outside
    else:  # a file: a link to a copy of it (or, for one this change makes, to a file of someone else's)
        outside.mkdir(parents=True)
        if path.exists():
            shutil.copy2(path, outside / "kept")
            path.unlink()
        else:
            (outside / "kept").write_text("not the judge's")
        target = outside / "kept"
    target.chmod(0o755 if target.is_dir() else 0o644)
    path.parent.mkdir(parents=True, exist_ok=True)  # (a folder this change makes, made before it)
    path.symlink_to(target)
    seen = tree(outside)
    traced.opened.clear()
    traced.refused.clear()
    said = ""
    try:
        step(root)
    except Exception as e:  # noqa: BLE001 - a refusal: said below
        said = f"{type(e).__name__}: {e}"
    assert tree(outside) == seen, f"{rel}: written through"
    told = said + "".join(str(v[2]) for p, v in tree(root).items() if p.endswith(".log") and v[0] == stat.S_IFREG)
    beside = not path.is_symlink()
    attempted = {p for p in traced.below(root) if p == rel or p.startswith(rel + "/")}
    assert beside or REFUSAL in told or not attempted, f"{rel}: refused without a word ({traced.refused}, {said})"
    assert not said or REFUSAL in said or "host" in said or not traced.refused, f"{rel}: {said}"
    if k or not said:  # the game still loads (a refused `judge new` made none)
        gamefile.load(root / "games" / "g1.toml")
    if k:  # the message handled (in cur/), or kept to be tried again (in new/)
        kept = [n for sub in ("new", "cur") for n in os.listdir(root / "inbox" / sub) if n.split(":")[0] == f"message-{k}"]
        assert len(kept) == 1, f"{rel}: the message lost"


def test_a_mail_log_that_is_a_link_refuses_the_change_and_the_message_waits(tmp_path):
    """The red team's reproduction: g1.mail.log a link to a file elsewhere (whose mode the judge
    changed to 0600). Now the change is refused before anything is saved: the game unchanged,
    the target's bytes and mode kept, the message left to the MTA (exit 75); once the link is
    gone the same message is applied, once."""
    from judge.engine.errors import HostError
    from judge.mail import host

    from mailkit import new_game, take_maildir

    site = make_site(tmp_path)
    passwords = new_game(site, setup=short_setup(rounds=2))
    take_maildir(site.outbox_dir)
    elsewhere = tmp_path / "elsewhere.log"
    elsewhere.write_text("someone's log\n")
    elsewhere.chmod(0o644)
    log = site.cfg.games / "g1.mail.log"
    log.unlink(missing_ok=True)
    log.symlink_to(elsewhere)
    first = site.load().awaiting()[0]
    raw = message(address(first), f"game g1\nplayer {first} {passwords[first]}\n#1 bid\n")

    def judge_mail():
        with host.guarded(lambda: site.cfg):
            inbox.handle_piped(raw, site.cfg, site.outbox(), T0)

    try:
        judge_mail()
        raise AssertionError("applied")
    except HostError as e:
        assert e.exit_code == 75
    assert site.load().log == [] and elsewhere.read_text() == "someone's log\n"
    assert elsewhere.stat().st_mode & 0o777 == 0o644 and log.is_symlink()
    told = (site.cfg.games / "mail.log").read_text()
    assert f"{log} is a symbolic link: the judge never writes through one" in told
    assert [m for m in take_maildir(site.outbox_dir) if m["To"] == address(first)] == []  # no answer yet
    log.unlink()
    judge_mail()  # the MTA delivers it again
    assert site.load().log == [f"1 {first} bid"] and "All applied." in log.read_text()


def test_a_failure_note_never_goes_through_a_link(tmp_path):
    """GAME.archive.log (the notes of what could not be published) a link, and the archive's
    ruleset folder a link (archive/mogul -> elsewhere), the red team's two reproductions: the
    change is saved, the publishing refused with its reason, nothing written elsewhere; once
    the folder's link is gone the game is published."""
    from typer.testing import CliRunner

    from judge.cli import app

    from archivekit import archived_site, ends_in

    cfg, games, repo, _ = archived_site(tmp_path)
    game, rest = ends_in("mogul", 2, 3)
    gamefile.create(game, games / "friday.toml")
    elsewhere, notes = tmp_path / "elsewhere", tmp_path / "notes.log"
    elsewhere.mkdir()
    notes.write_text("someone's notes\n")
    notes.chmod(0o644)
    (repo / "mogul").symlink_to(elsewhere)
    (games / "friday.archive.log").symlink_to(notes)
    done = CliRunner().invoke(app, ["order", str(games / "friday.toml"), *rest.pop(0), "--config", str(cfg)])
    assert done.exit_code == 0 and f"{repo / 'mogul'} {REFUSAL}" in " ".join(done.stderr.split())
    assert os.listdir(elsewhere) == [] and notes.read_text() == "someone's notes\n"
    assert notes.stat().st_mode & 0o777 == 0o644 and (games / ".publish" / "friday").exists()
    (repo / "mogul").unlink()
    done = CliRunner().invoke(app, ["order", str(games / "friday.toml"), *rest.pop(0), "--config", str(cfg)])
    assert done.exit_code == 0 and (repo / "mogul" / "friday.toml").is_file() and notes.read_text() == "someone's notes\n"
