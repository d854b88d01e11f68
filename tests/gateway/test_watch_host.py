"""`judge watch` survives its host and says what is wrong (issue 44 item 7), without an IMAP
server: the watcher's own code, its mailbox replaced by a stand-in, its clock by one the test
moves (tests/gateway/test_watch.py runs the watcher against a real Dovecot). The hour's stamps
are written in the test's games directory, or its own home directory, never a shared one."""
from __future__ import annotations

import errno
import time
from pathlib import Path

import pytest

from judge.gateway import deadlines, imap, watch
from judge.gateway.imap import ImapDown
from judge.mail import passwords
from judge.store import config
import fakeclock
from mailkit import (GM_ADDRESS, Server, address, block, fill, flat, make_site, message, new_game, small_disk,
                     text)


@pytest.fixture(autouse=True)
def own_home(tmp_path, monkeypatch):
    """The judge user's home: where a stamp goes when the games directory cannot take it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setattr(Path, "home", lambda: home)
    monkeypatch.setattr(passwords, "N", 2**4)  # cheap hashes: no password is guessed here


@pytest.fixture
def smtp():
    server = Server().start()
    yield server
    server.stop()


def watch_site(root: Path, smtp: Server):
    """A site sending through `smtp`, its [imap] a server on the loopback (never reached:
    the tests hand the watcher its mailbox), its mail game g1 (site.passwords)."""
    site = make_site(root, smtp_port=smtp.port)
    path = root / "judge.toml"
    path.write_text(path.read_text() + '[imap]\nhost = "127.0.0.1"\nuser = "judge"\npassword = "x"\n'
                    'security = "none"\nport = 1143\n')
    site.cfg = config.load(path)
    site.passwords = new_game(site)
    smtp.mails.clear()
    return site


def notes(smtp: Server, subject: str) -> list:
    return [m for m in smtp.to(GM_ADDRESS) if subject in m["Subject"]]


def test_a_full_disk_while_the_server_is_down_is_told_and_the_watcher_goes_on(tmp_path, smtp):
    """Watcher.down() raised OSError (the judge's log could not be written) and the watcher
    exited 1 with no note."""
    site = watch_site(tmp_path, smtp)
    with small_disk(site.cfg.games, "1m"):
        watcher = watch.Watcher(site.cfg, say=lambda _: None)
        fill(site.cfg.games)
        pause = watcher.down(ImapDown("the server closed the connection: Server shutting down."))
    assert pause == 1
    (note,) = notes(smtp, "cannot read the mailbox")
    body = flat(text(note))
    assert "Server shutting down" in body and "stay in the IMAP folder INBOX" in body
    assert "cannot be written now" in body and "MTA" not in body


def test_each_new_cause_of_the_server_is_told_at_once_then_once_an_hour(tmp_path, smtp):
    """After "Server shutting down", a refused password and a certificate for another host
    were never told: every IMAP fault shared one once-an-hour note."""
    site = watch_site(tmp_path, smtp)
    watcher = watch.Watcher(site.cfg, say=lambda _: None)
    faults = [ImapDown("the server closed the connection: Server shutting down."),
              ImapDown("the server refused the login: b'[AUTHENTICATIONFAILED] Authentication failed.'", "login"),
              ImapDown("the server's certificate is refused: Hostname mismatch, certificate is not valid for "
                       "'imap.example.org'.", "certificate")]
    for fault in faults * 3:  # tried again and again
        watcher.down(fault)
    told = notes(smtp, "cannot read the mailbox")
    assert [m["Subject"] for m in told] == ["judge: cannot read the mailbox (the server cannot be reached)",
                                            "judge: cannot read the mailbox (the login is refused)",
                                            "judge: cannot read the mailbox (its certificate is refused)"]
    assert "AUTHENTICATIONFAILED" in text(told[1]) and "password_file" in flat(text(told[1]))
    assert "Hostname mismatch" in flat(text(told[2])) and "cafile" in text(told[2])
    assert sorted(p.name for p in (site.cfg.games / ".mail").glob("told.*")) == [
        "told.imap-certificate", "told.imap-login", "told.imap-unreachable"]


def test_a_host_problem_in_watchs_tick_is_told_naming_the_folder_and_the_log(tmp_path, smtp, monkeypatch):
    """The tick that watch runs logged host faults but never told the game master (cron's
    judge tick does); its notes spoke of the MTA and of logs it never wrote."""
    site = watch_site(tmp_path, smtp)
    lines = []
    watcher = watch.Watcher(site.cfg, say=lines.append)

    def full(path, *args):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(deadlines, "tick_game", full)
    watcher.tick()
    watcher.tick()  # the next tick: the same cause, within the hour
    (note,) = notes(smtp, "a problem on the judge's host")
    assert note["Subject"] == "judge: a problem on the judge's host (no space left on the disk)"
    body = flat(text(note))
    assert "No space left on device" in body and "stays in the IMAP folder INBOX" in body and "MTA" not in body
    assert f"The judge's log {site.cfg.games / 'mail.log'} has the details" in body
    assert "host problem: judge tick: game g1: [Errno 28]" in (site.cfg.games / "mail.log").read_text()
    assert all("host problem" in line for line in lines if " tick: " in line)


class Clock(fakeclock.Clock):
    """The watcher's clock, moved by the test: each wait passes at once."""

    time = staticmethod(time.time)


class Mailbox:
    """A stand-in for imap.Mailbox: its messages, what the watcher marks, how long it waits."""

    idle, uidvalidity = True, 1

    def __init__(self, raws: list[bytes], on_wait):
        self.raws, self.on_wait = dict(enumerate(raws, 1)), on_wait
        self.marked: set[int] = set()

    def waiting(self):
        return [(uid, len(raw)) for uid, raw in self.raws.items() if uid not in self.marked]

    def fetch(self, uid: int, limit: int) -> bytes:
        return self.raws[uid][:limit]

    def mark(self, uid: int) -> None:
        self.marked.add(uid)

    def wait(self, seconds: float) -> bool:
        self.on_wait(seconds)
        return False

    def close(self) -> None:
        pass


def test_mail_held_by_an_smtp_outage_goes_out_within_a_minute_of_the_servers_return(tmp_path, smtp, monkeypatch):
    """The outbox was tried again only when a message or the tick woke the watcher: the answer
    waited 3 min 38 s after the server came back. Now a timer with backoff tries it."""
    site = watch_site(tmp_path, smtp)
    first = site.load().awaiting()[0]
    raw = message(address(first), block(first, site.passwords[first], "bid"), message_id="<held@players.test>")
    clock, waits, back, answered_at = Clock(), [], [], []
    smtp.stop()  # the SMTP server goes away

    def on_wait(seconds):
        if [m for _, m in smtp.mails if m["In-Reply-To"] == "<held@players.test>"]:
            answered_at.append(clock.now)
            watcher.stopping = True
            return
        waits.append(seconds)
        clock.now += seconds
        if not back and clock.now >= 1100:  # the server came back at 1100, during this wait
            smtp.start()
            back.append(1100)
        watcher.stopping = len(waits) > 100

    box = Mailbox([raw], on_wait)
    monkeypatch.setattr(watch, "time", clock)
    monkeypatch.setattr(watch.imap, "Mailbox", lambda settings: box)
    monkeypatch.setattr(watch.signal, "signal", lambda *args: None)  # (pytest keeps its own handlers)
    lines = []
    watcher = watch.Watcher(site.cfg, say=lines.append)
    watcher.run()
    assert box.marked == {1} and site.load().log == [f"1 {first} bid"]
    answered = [m for _, m in smtp.mails if m["In-Reply-To"] == "<held@players.test>"]
    assert len(answered) == 1, lines
    assert answered_at[0] - back[0] <= 60, (waits, lines)  # no message and no tick woke it meanwhile
    assert max(waits) <= watch.MAIL_RETRY_LONGEST and waits[:3] == [1, 2, 4]  # backing off
    assert sum("mail: cannot send" in line for line in lines) == 1 and any("sent again" in line for line in lines)


def test_a_message_that_meets_a_host_problem_stops_no_tick(tmp_path, smtp, monkeypatch):
    """A message whose game the judge cannot write (a host problem) is tried again each pass;
    meanwhile the other games' ticks go on (they did not: the pass raised before its tick)."""
    site = watch_site(tmp_path, smtp)
    ticks = []

    class Bounded(Clock):
        def sleep(self, seconds: float) -> None:
            super().sleep(seconds)
            watcher.stopping = watcher.stopping or self.now > 1000 + 10 * watcher.settings["tick"]

    clock = Bounded()

    class Broken(Mailbox):
        class conn:  # (stopped in the middle of a wait: no polite logout)
            shutdown = staticmethod(lambda: None)

        def waiting(self):
            raise PermissionError(13, "Permission denied", str(site.game_path()))

    box = Broken([], lambda seconds: None)
    monkeypatch.setattr(watch, "time", clock)
    monkeypatch.setattr(watch.imap, "Mailbox", lambda settings: box)
    monkeypatch.setattr(watch.signal, "signal", lambda *args: None)  # (pytest keeps its own handlers)
    watcher = watch.Watcher(site.cfg, say=lambda line: None)

    def tick():
        ticks.append(clock.now)
        watcher.stopping = len(ticks) >= 3

    monkeypatch.setattr(watcher, "tick", tick)
    watcher.run()
    assert len(ticks) == 3 and ticks[-1] - ticks[0] >= 2 * watcher.settings["tick"]
