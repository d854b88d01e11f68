"""Helpers for the mail tests: a judge site in a temporary directory (judge.toml, a game
directory, a Maildir outbox or a real SMTP server on 127.0.0.1), mail games, messages."""
from __future__ import annotations

import errno
import mailbox
import os
import random
import socket
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from judge.store import config, gamefile
from judge.mail import mailgame
from judge.engine.game import Game
from judge.mail.outbox import open_outbox

NAMES = ["alice", "bob", "carol"]
JUDGE = "judge@judge.test"
GM_ADDRESS = "gm@judge.test"
OBSERVER = "watcher@watch.test"
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def address(player: str) -> str:
    return f"{player}@players.test"


@dataclass
class Site:
    root: Path
    cfg: config.Config

    @property
    def outbox_dir(self) -> Path:
        return self.root / "outbox"

    def outbox(self):
        return open_outbox(self.cfg)

    def game_path(self, name="g1") -> Path:
        return self.cfg.games / f"{name}.toml"

    def load(self, name="g1") -> Game:
        return gamefile.load(self.game_path(name))

    def take(self) -> list[EmailMessage]:
        """The mails sent since the last take (Maildir outbox), removed from it."""
        return take_maildir(self.outbox_dir)


def take_maildir(path: Path) -> list[EmailMessage]:
    """The mails in the Maildir at `path`, in the order of their keys, removed from it."""
    box = mailbox.Maildir(str(path), create=True)
    out = []
    for key in sorted(box.keys()):
        out.append(message_from_bytes(box.get_bytes(key), policy=policy.default))
        box.remove(key)
    return out


def make_site(root: Path, smtp_port: int | None = None, smtp_login: str = "") -> Site:
    """`smtp_login`: TOML lines such as 'user = "judge"' added to [smtp]."""
    (root / "games").mkdir()
    outgoing = f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\n{smtp_login}' if smtp_port else '[maildir]\npath = "outbox"\n'
    path = root / "judge.toml"
    path.write_text(f'address = "{JUDGE}"\ngm = "{GM_ADDRESS}"\ngames = "games"\n{outgoing}')
    path.chmod(0o600)
    return Site(root, config.load(path))


def short_setup(rounds: int = 3, seed: int = 1) -> dict:
    """A mogul setup whose crash card comes up in round `rounds`: a short whole game."""
    trial = Game.new("mogul", NAMES, seed=seed)
    st = trial.state
    deck = [st["revealed"], *st["deck"]]
    deck.remove("crash")
    deck.insert(rounds - 1, "crash")
    return {"start_player": st["start"], "deck": deck,
            "start_cards": {p: st["players"][p]["shares"][0] for p in NAMES}}


def new_game(site: Site, name="g1", *, deadline=0, grace=0, remind=0, now=T0, setup=None, ruleset="mogul") -> dict:
    """A mail game of `ruleset` for alice, bob and carol with one observer; its passwords."""
    game = Game.new(ruleset, NAMES, seed=1, setup=setup or {})
    passwords = mailgame.enable(game, {p: address(p) for p in NAMES}, [OBSERVER], deadline, grace, remind, now)
    box = site.outbox()
    box.commit(name, game, mailgame.MailGame(game, name).welcomes(site.cfg, passwords),
               lambda: gamefile.create(game, site.game_path(name)))
    box.flush()
    return passwords


def send(site: Site, raw: bytes, now=T0) -> list[EmailMessage]:
    """Deliver one message to the gateway; the mails it sent."""
    from judge.gateway import inbox

    inbox.handle(raw, site.cfg, site.outbox(), now)
    return site.take()


def killed_before_answering(site: Site, raw: bytes, now=T0) -> list[EmailMessage]:
    """Deliver one message to a run that dies once its changes are saved, before it writes
    its answer (a kill -9 at that moment); the mails it sent."""
    from judge.gateway import inbox
    from judge.mail.outbox import Outbox

    box = site.outbox()

    def killed(msg, *args):
        if msg["Subject"].startswith("Re:"):
            raise KeyboardInterrupt
        return Outbox.put(box, msg, *args)

    box.put = killed
    try:
        inbox.handle(raw, site.cfg, box, now)
    except KeyboardInterrupt:
        return site.take()
    raise AssertionError("the run answered")


def block(player: str, password: str, *lines: str, game: str = "g1") -> str:
    """A game block: its game and player lines, then `lines`."""
    return f"game {game}\nplayer {player} {password}\n" + "".join(f"{line}\n" for line in lines)


def message(sender: str, body: str, subject: str = "orders", message_id: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = JUDGE
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or make_msgid(domain="players.test")
    msg.set_content(body)
    return bytes(msg)


_HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A loopback port free now that no other test of the run is handed: each pytest-xdist
    worker draws from a range of its own (gw0 10000-11999, gw1 12000-13999, ...) below the
    kernel's ephemeral ports, and never hands out one port twice. A server stopped and started
    again on its port, or a port where "nobody listens", stays its test's: the kernel's port 0
    would give a just-closed port to whichever worker asked next."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    low = 10000 + 2000 * (worker % 11)
    for port in random.Random(os.getpid()).sample(range(low, low + 2000), 2000):
        if port in _HANDED_OUT:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _HANDED_OUT.add(port)
        return port
    raise RuntimeError(f"no free loopback port in {low}-{low + 1999}")


def to(mails, addr: str) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == addr]


def text(mail: EmailMessage) -> str:
    return mail.get_content()


def reply(mails, addr: str) -> str:
    """The text of the judge's answer to `addr` (not a report or a notice)."""
    found = [m for m in mails if m["To"] == addr and m["Subject"].startswith("Re:")]
    assert len(found) == 1, [m["Subject"] for m in mails]
    return text(found[0])


class Server:
    """A real SMTP server on 127.0.0.1 (aiosmtpd) that can be stopped and started again on its
    port, refuse recipients for good (550) or for now (450), or stall each mail (`delay` s)."""

    def __init__(self, refuse=(), busy=(), delay=0.0, **smtp_options):
        self.port = free_port()
        self.mails: list[tuple[list[str], EmailMessage]] = []
        self.refuse, self.busy, self.delay, self.options = set(refuse), set(busy), delay, smtp_options
        self.controller = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such user here"
        if address in self.busy:
            return "450 4.2.1 mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            import asyncio

            await asyncio.sleep(self.delay)
        self.mails.append((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"

    def start(self) -> "Server":
        from aiosmtpd.controller import Controller

        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **self.options)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, addr: str) -> list[EmailMessage]:
        return [m for rcpts, m in self.mails if rcpts == [addr]]


def flat(text: str) -> str:
    """`text` with its line breaks normalised, to find a phrase in a mail or an answer whatever
    the wrap to 78 columns made of it: every run of spaces and line breaks (a wrapped line's
    break and its continuation's indentation among them) one space. Use it on both sides."""
    return " ".join(text.split())


@contextmanager
def small_disk(folder: Path, size: str = "512k"):
    """`folder` made a tmpfs of `size`, a disk that fills up for real. Mounting needs root (CI
    runs as root and must); elsewhere the test is skipped."""
    import pytest

    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=700", "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode != 0:
        if os.environ.get("JUDGE_CI"):
            raise AssertionError(f"CI runs as root and must mount a tmpfs: {done.stderr.decode()}")
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the disk of `folder` (a small_disk) to the last byte; the file that fills it."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as e:
        assert e.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler
