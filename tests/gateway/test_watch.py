"""`judge watch` against a real Dovecot (tests/imapkit.py) and the SMTP test server: messages
appended over IMAP are handled as by `judge mail`, answered once, and marked handled on the
server only once saved; killed at random points, dropped mid-fetch, refused a login or shown a
wrong certificate, it applies every order once and answers every message."""
from __future__ import annotations

import configparser
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import imapkit
from imapkit import Cutter, Dovecot
from judge.engine import bots, facts
from judge.gateway import imap, inbox, parse as mailparse, watch
from judge.mail import passwords as hashes
from judge.store import config
from mailkit import (GM_ADDRESS, NAMES, Server, address, block, flat, make_site, message, new_game, short_setup,
                     text)

JUDGE = Path(sys.executable).parent / "judge"
DOCS = Path(__file__).parents[2] / "docs" / "mail.md"


def doc_block(name: str) -> str:
    """The fenced block after <!-- file: NAME --> in docs/mail.md."""
    return re.search(rf"<!-- file: {re.escape(name)} -->\n```[a-z]*\n(.*?)```", DOCS.read_text(), re.S)[1]


def unit_command(site) -> list[str]:
    """The command of docs/mail.md's systemd unit, for this site (%h: the home directory)."""
    unit = configparser.ConfigParser(interpolation=None)
    unit.read_string(doc_block("judge-watch.service"))
    assert unit["Service"]["Restart"] == "always" and "KillSignal" not in unit["Service"]  # SIGTERM stops it
    command = unit["Service"]["ExecStart"].replace("%h/judge/.venv/bin/judge", str(JUDGE))
    return command.replace("%h/judge/judge.toml", str(site.root / "judge.toml")).split()


@pytest.fixture(scope="module")
def dovecot():
    imapkit.require_dovecot()
    server = Dovecot().start()
    yield server
    server.remove()


@pytest.fixture
def cheap(monkeypatch):
    monkeypatch.setattr(hashes, "N", 2**4)  # cheap hashes (each keeps its cost): no password is guessed here


@pytest.fixture
def smtp():
    server = Server().start()
    yield server
    server.stop()


def watch_site(tmp_path, dovecot, smtp, **imap_keys):
    """A judge site whose judge.toml reads a new user's mailbox on `dovecot` and sends through
    `smtp`; its mail game g1 (site.passwords), the welcomes taken. site.user: the IMAP user."""
    site = make_site(tmp_path, smtp_port=smtp.port)
    site.user = dovecot.new_user()
    path = tmp_path / "judge.toml"
    path.write_text(path.read_text() + dovecot.settings(site.user, **imap_keys))
    site.cfg = config.load(path)
    site.passwords = new_game(site)
    smtp.mails.clear()
    return site


class Running:
    """`judge watch` as a process; its log lines in `lines()`."""

    def __init__(self, site, command=None):
        self.site, self.out = site, site.root / f"watch-{time.monotonic_ns()}.log"
        with open(self.out, "wb") as f:
            self.process = subprocess.Popen(command or [str(JUDGE), "watch", "--config", str(site.root / "judge.toml")],
                                            stdout=f, stderr=subprocess.STDOUT, env={**os.environ, "HOME": str(site.root)})

    def lines(self) -> list[str]:
        return self.out.read_text().splitlines()

    def wait_for(self, check, seconds=30.0):
        deadline = time.monotonic() + seconds
        while not check():
            assert self.process.poll() is None, "\n".join(self.lines())
            assert time.monotonic() < deadline, "\n".join(self.lines())
            time.sleep(0.1)

    def stop(self, sig=signal.SIGTERM) -> int:
        self.process.send_signal(sig)
        return self.process.wait(30)


def answers(smtp, message_id: str) -> set[str]:
    """The judge's distinct answers to a message (a mail sent twice by the outbox counts once)."""
    return {m["Message-ID"] for _, m in smtp.mails if m["In-Reply-To"] == message_id}


def orders_message(site, player: str, *lines: str) -> bytes:
    return message(address(player), block(player, site.passwords[player], *lines))


# ---- judge.toml's [imap] ----------------------------------------------------------------
@pytest.mark.parametrize("keys, refused", [
    ('host = "imap.example.org"\nuser = "j"\npassword = "p"\nsecurity = "none"\n', 'security = "none" sends the password'),
    ('host = "imap.example.org"\nuser = "j"\n', 'needs password = "..." or password_file'),
    ('host = "imap.example.org"\nuser = "j"\npassword = "p"\nsecurity = "ssl"\n', 'security is "tls"'),
    ('host = "imap.example.org"\nuser = "j"\npassword = "p"\nmove_to = "INBOX"\n', "three different folders"),
    ('host = "imap.example.org"\nuser = "j"\npassword = "p"\nport = "993"\n', "needs port = NUMBER"),
    ('host = "imap.example.org"\nuser = "j"\npassword = "p"\nidle = true\n', "unknown keys: idle"),
])
def test_a_wrong_imap_table_is_refused_with_what_to_write(tmp_path, keys, refused):
    site = make_site(tmp_path)
    path = tmp_path / "judge.toml"
    path.write_text(path.read_text() + "[imap]\n" + keys)
    with pytest.raises(Exception) as e:
        config.load(path)
    assert refused in str(e.value)


def test_the_imap_defaults_and_a_password_file(tmp_path):
    make_site(tmp_path)
    path = tmp_path / "judge.toml"
    path.write_text(path.read_text() + '[imap]\nhost = "imap.example.org"\nuser = "j"\npassword_file = "pw"\n')
    s = config.load(path).imap
    assert (s["port"], s["security"], s["folder"], s["move_to"], s["quarantine"]) == (993, "tls", "INBOX", "", "Quarantine")
    assert s["password_file"] == str(tmp_path / "pw")
    (tmp_path / "pw").write_text("secret\n")
    (tmp_path / "pw").chmod(0o644)
    with pytest.raises(imap.ImapDown, match="may be read by others"):
        imap.password(s)
    (tmp_path / "pw").chmod(0o600)
    assert imap.password(s) == "secret"


def test_the_documented_judge_toml_reads_imap_and_sends_by_smtp(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "judge.toml").write_text(doc_block("judge.toml"))
    (tmp_path / "judge.toml").chmod(0o600)
    cfg = config.load(tmp_path / "judge.toml")
    assert cfg.imap["host"] == "imap.example.org" and cfg.imap["port"] == 993 and cfg.imap["security"] == "tls"
    assert cfg.smtp["starttls"] and cfg.address == cfg.imap["user"]


# ---- a watcher at work ----------------------------------------------------------------------
def test_watch_answers_each_message_once_marks_it_after_and_stops_cleanly(tmp_path, dovecot, smtp, cheap):
    site = watch_site(tmp_path, dovecot, smtp)
    first = site.load().awaiting()[0]
    early = orders_message(site, first, "bid")
    dovecot.append(site.user, early, message("stranger@players.test", "hello"))  # waiting before it starts
    running = Running(site, unit_command(site))  # as docs/mail.md's systemd unit runs it
    running.wait_for(lambda: not dovecot.unhandled(site.user))
    second = site.load().awaiting()[0]
    late = orders_message(site, second, "pass")
    dovecot.append(site.user, late)  # while it waits (IDLE)
    running.wait_for(lambda: not dovecot.unhandled(site.user) and len(site.load().log) == 2)
    assert running.stop() == 0
    lines = running.lines()
    assert site.load().log == [f"1 {first} bid", f"2 {second} pass"]
    for raw in (early, late):
        assert len(answers(smtp, mailparse.read(raw).message_id)) == 1
    assert "OK      bid" in text(next(m for _, m in smtp.mails if m["In-Reply-To"] == mailparse.read(early).message_id))
    assert all({"$Judged", "\\Seen"} <= flags for _, flags in dovecot.messages(site.user))
    # one line per message and per tick, the way it waits, and its clean stop
    assert sum(" message " in line for line in lines) == 3 and sum(" tick: " in line for line in lines) == 1
    assert any("waiting with IDLE" in line for line in lines) and lines[-1].endswith(" stopped")


def test_sigterm_while_it_handles_messages_stops_it_between_two(tmp_path, dovecot, smtp, cheap):
    site = watch_site(tmp_path, dovecot, smtp)
    game, raws = site.load(), []
    for _ in range(10):  # ten orders in turn, each its own message
        player = game.awaiting()[0]
        raws.append(orders_message(site, player, f"#{game.move} bid"))
        game.submit(player, ["bid"])
    dovecot.append(site.user, *raws)
    running = Running(site)
    running.wait_for(lambda: any(" message " in line for line in running.lines()), seconds=60)
    assert running.stop() == 0
    handled = sum(" message " in line for line in running.lines())
    assert running.lines()[-1].endswith(" stopped") and handled < 10
    # nothing half done: each message applied, answered and marked, or none of these
    assert len(site.load().log) == handled == 10 - len(dovecot.unhandled(site.user))
    assert sum(bool(answers(smtp, mailparse.read(raw).message_id)) for raw in raws) == handled


def test_a_server_that_is_down_is_told_and_one_without_idle_is_asked_again(tmp_path, dovecot, smtp):
    from mailkit import free_port

    site = watch_site(tmp_path, dovecot, smtp)
    with pytest.raises(imap.ImapDown, match="Connection refused"):
        imap.Mailbox(dict(site.cfg.imap, port=free_port()))
    box = imap.Mailbox(site.cfg.imap)
    try:
        box.caps.discard("IDLE")  # as a server without IDLE: a pause, then NOOP
        started = time.monotonic()
        assert box.wait(0.3) and time.monotonic() - started >= 0.3
        assert not box.idle and box.waiting() == []
    finally:
        box.close()


def test_a_host_problem_is_logged_told_once_and_the_watcher_goes_on_once_mended(tmp_path, dovecot, smtp, cheap):
    site = watch_site(tmp_path, dovecot, smtp, poll=1)
    tries = site.cfg.games / ".mail" / "imap-tries.json"
    tries.mkdir(parents=True)  # the count of tries cannot be written (as on a full or read-only disk)
    first = site.load().awaiting()[0]
    dovecot.append(site.user, orders_message(site, first, "bid"))
    running = Running(site)
    running.wait_for(lambda: sum(" failed: " in line for line in running.lines()) >= 2)
    assert site.load().log == [] and dovecot.unhandled(site.user)
    tries.rmdir()  # mended
    running.wait_for(lambda: not dovecot.unhandled(site.user))
    assert running.stop() == 0 and site.load().log == [f"1 {first} bid"]
    notes = [m for rcpts, m in smtp.mails if rcpts == [GM_ADDRESS] and "problem on the judge's host" in m["Subject"]]
    assert len(notes) == 1 and "IsADirectoryError" in text(notes[0])


def test_a_second_watcher_on_the_same_games_is_refused(tmp_path, dovecot, smtp):
    site = watch_site(tmp_path, dovecot, smtp)
    running = Running(site)
    running.wait_for(lambda: any("imap: connected" in line for line in running.lines()))
    second = subprocess.run([str(JUDGE), "watch", "--config", str(tmp_path / "judge.toml")], capture_output=True,
                            text=True, timeout=30)
    assert second.returncode == 2 and "another judge watch is running" in second.stderr
    assert running.stop(signal.SIGINT) == 0  # Ctrl-C: stopped cleanly as well


def test_a_connection_dropped_mid_fetch_is_made_again_and_the_message_handled_once(tmp_path, dovecot, smtp, cheap):
    cutter = Cutter(dovecot.port)
    site = watch_site(tmp_path, dovecot, smtp, port=cutter.port)
    first = site.load().awaiting()[0]
    raw = orders_message(site, first, "bid")
    cutter.armed = True
    dovecot.append(site.user, raw)
    running = Running(site)
    try:
        running.wait_for(lambda: not dovecot.unhandled(site.user))
        assert running.stop() == 0
    finally:
        cutter.close()
    assert cutter.cuts == 1 and site.load().log == [f"1 {first} bid"]
    assert len(answers(smtp, mailparse.read(raw).message_id)) == 1
    lines = running.lines()
    assert any("the connection was lost" in line or "closed the connection" in line for line in lines), lines
    assert sum("imap: connected" in line for line in lines) == 2


# Cost (5 s): a real Dovecot refuses judge watch twice at the watcher's own pace of retries
# before the password file is mended; a faster retry would not be the one the host meets.
def test_a_refused_login_is_tried_again_told_once_and_a_new_password_file_is_read(tmp_path, dovecot, smtp, cheap):
    site = watch_site(tmp_path, dovecot, smtp, password=None, password_file="imap-password")
    secret = tmp_path / "imap-password"
    secret.write_text("not the password\n")
    secret.chmod(0o600)
    first = site.load().awaiting()[0]
    dovecot.append(site.user, orders_message(site, first, "bid"))
    running = Running(site)
    running.wait_for(lambda: sum("trying again" in line for line in running.lines()) >= 2)
    assert site.load().log == []
    secret.write_text(imapkit.PASSWORD + "\n")  # the game master mends it: no restart
    running.wait_for(lambda: not dovecot.unhandled(site.user))
    assert running.stop() == 0
    assert site.load().log == [f"1 {first} bid"]
    notes = [m for rcpts, m in smtp.mails if rcpts == [GM_ADDRESS] and "cannot read the mailbox" in m["Subject"]]
    assert len(notes) == 1 and "AUTHENTICATIONFAILED" in text(notes[0])  # told once, not at every try
    pauses = [line.split("trying again in ")[1] for line in running.lines() if "trying again" in line]
    assert pauses[:2] == ["1 s", "2 s"]  # backing off


def test_a_wrong_certificate_is_refused_and_the_right_one_trusted(tmp_path, dovecot, smtp):
    other = tmp_path / "other"
    other.mkdir()
    imapkit.make_ca(other, "other")
    site = watch_site(tmp_path, dovecot, smtp)
    base = dict(site.cfg.imap, port=dovecot.tls_port, security="tls", host="localhost")
    with pytest.raises(imap.ImapDown, match="certificate is refused: .*(unable to get local issuer|self.signed)"):
        imap.Mailbox(base)  # the system's authorities do not know the test's
    with pytest.raises(imap.ImapDown, match="certificate is refused"):
        imap.Mailbox(dict(base, cafile=str(other / "other.pem")))  # another authority
    with pytest.raises(imap.ImapDown, match="certificate is refused: .*(mismatch|match)"):
        imap.Mailbox(dict(base, host="127.0.0.1", cafile=str(dovecot.ca)))  # a certificate for another name
    for trusted in (dict(base, cafile=str(dovecot.ca)),  # its own authority, its own name
                    dict(base, cafile=str(dovecot.ca), security="starttls", port=dovecot.port)):
        box = imap.Mailbox(trusted)
        try:
            assert box.waiting() == [] and box.idle
        finally:
            box.close()
    with pytest.raises(imap.ImapDown, match="certificate is refused"):  # STARTTLS checks it too
        imap.Mailbox(dict(base, security="starttls", port=dovecot.port, cafile=str(other / "other.pem")))
    watcher = watch.Watcher(dataclass_replace(site.cfg, imap=dict(base, cafile=str(other / "other.pem"))), say=lambda _: None)
    watcher.down(imap.ImapDown("the server's certificate is refused: certificate verify failed"))
    notes = [m for rcpts, m in smtp.mails if rcpts == [GM_ADDRESS]]
    assert len(notes) == 1 and "certificate is refused" in flat(text(notes[0]))


def dataclass_replace(cfg, **changes):
    import dataclasses

    return dataclasses.replace(cfg, **changes)


def test_a_message_it_keeps_failing_on_is_moved_to_quarantine_with_a_note(tmp_path, dovecot, smtp, cheap, monkeypatch):
    site = watch_site(tmp_path, dovecot, smtp)
    real = inbox.handle_block  # the judge trips over every block for g2 (a bug, say)
    monkeypatch.setattr(inbox, "handle_block", lambda block, *a: real(block, *a) if block.game != "g2" else 1 / 0)
    first = site.load().awaiting()[0]
    bad = message(address("bob"), "game g2\nplayer bob x\n")
    dovecot.append(site.user, orders_message(site, first, "bid"), bad)
    watcher = watch.Watcher(site.cfg, say=lambda _: None)
    box = imap.Mailbox(site.cfg.imap)
    try:
        for attempt in range(1, 4):
            done = watcher.handle_waiting(box)
            assert len(done) == (2 if attempt == 1 else 1)  # the good one at once, not held up
            watcher.later.clear()  # (the pause before a failed message is tried again)
        assert watcher.handle_waiting(box) == []
    finally:
        box.close()
    assert site.load().log == [f"1 {first} bid"]
    assert len(dovecot.messages(site.user)) == 1 and len(dovecot.messages(site.user, "Quarantine")) == 1
    note = next(m for rcpts, m in smtp.mails if rcpts == [GM_ADDRESS] and "quarantine" in m["Subject"])
    assert "ZeroDivisionError: division by zero" in text(note) and f"From: {address('bob')}" in text(note)
    log = (site.cfg.games / "mail.log").read_text()
    assert "failed (1 of 3 tries)" in log and "quarantined after 3 failed tries" in log


def test_a_message_over_the_bound_is_fetched_only_up_to_it_and_refused(tmp_path, dovecot, smtp, monkeypatch):
    site = watch_site(tmp_path, dovecot, smtp)
    huge = message(address("alice"), "game g1\n" + "x" * 80 + "\n" * 0 + ("y" * 76 + "\n") * 15000)
    assert len(huge) > mailparse.MAX_MESSAGE
    asked = []
    real = imap.Mailbox.fetch
    monkeypatch.setattr(imap.Mailbox, "fetch", lambda self, uid, limit: asked.append(limit) or real(self, uid, limit))
    dovecot.append(site.user, huge)
    box = imap.Mailbox(site.cfg.imap)
    try:
        (uid, size), = box.waiting()
        assert size >= len(huge)
        watch.Watcher(site.cfg, say=lambda _: None).handle_waiting(box)
    finally:
        box.close()
    assert asked == [mailparse.MAX_MESSAGE + 1]
    answer, = [m for _, m in smtp.mails if m["To"] == address("alice")]
    assert "larger than 1024 KB" in flat(text(answer)) and dovecot.unhandled(site.user) == []


# ---- a whole game by mail, the watcher killed on the way ------------------------------------
def game_messages(site, rounds: int) -> list[tuple[str, bytes]]:
    """Every order of a whole short mogul game, one message each, found by playing ahead."""
    trial, out = site.load(), []
    while not trial.is_over():
        player = trial.awaiting()[0]
        order = bots.choose(trial, player)
        out.append((f"{trial.move} {player} {order}", orders_message(site, player, f"#{trial.move} {order}")))
        trial.submit(player, [order])
    return out


# Cost (10 s): a real Dovecot and a real judge watch, killed and restarted at least twice over a
# whole game; its waits are for the watcher's real work, not sleeps.
def test_a_whole_game_by_mail_with_the_watcher_killed_at_random_points(tmp_path, dovecot, smtp, monkeypatch):
    """Every message applied once and answered once (a mail the outbox sent twice, killed between
    the send and its record, is the same mail: the same Message-ID), every one moved to the
    folder of handled messages, nothing put aside. JUDGE_WATCH_SEED picks the kill points."""
    monkeypatch.setattr(hashes, "N", 2**4)
    seed = int(os.environ.get("JUDGE_WATCH_SEED", random.randrange(10**6)))
    rnd = random.Random(seed)
    site = make_site(tmp_path, smtp_port=smtp.port)
    site.user = dovecot.new_user()
    path = tmp_path / "judge.toml"
    path.write_text(path.read_text() + dovecot.settings(site.user, port=dovecot.tls_port, security="tls",
                                                        host="localhost", cafile=str(dovecot.ca), move_to="Judged"))
    site.cfg = config.load(path)
    site.passwords = new_game(site, setup=short_setup(rounds=2))
    smtp.mails.clear()
    orders = game_messages(site, 2)
    assert len(orders) >= 10
    dovecot.append(site.user, *(raw for _, raw in orders))
    kills = 0
    while dovecot.messages(site.user):  # what the folder still holds is not handled yet
        running = Running(site)
        wanted = rnd.randint(1, 3)  # messages handled in this run before the kill (so none is killed thrice)
        try:
            running.wait_for(lambda: sum(" message " in line for line in running.lines()) >= wanted
                             or not dovecot.messages(site.user), seconds=60)
        except AssertionError:
            if running.process.poll() is None:
                running.process.kill()
            raise
        time.sleep(rnd.uniform(0, 0.1))  # (a quiet machine handles several messages in 0.4 s: too few kills)
        if not dovecot.messages(site.user):
            running.wait_for(lambda: not list((site.cfg.games / ".mail" / "outbox").glob("*.eml")))
            assert running.stop() == 0, running.lines()
            break
        running.process.kill()
        running.process.wait(30)
        kills += 1
    assert kills >= 2, f"seed {seed}"
    # A watcher killed after it moved the last message and before it sent the answer leaves
    # the answer in the outbox for its next run: the host starts it again (systemd), and so
    # does the test, until every message is answered (each once, checked below).
    again = Running(site)
    again.wait_for(lambda: any("imap: connected" in line for line in again.lines()), seconds=60)
    again.wait_for(lambda: all(answers(smtp, mailparse.read(raw).message_id) for _, raw in orders), seconds=60)
    assert again.stop() == 0, again.lines()
    game = site.load()
    logged = [e for e in game.log if not facts.is_fact(e)]  # (the judge's own entry: the end's time)
    assert game.is_over() and logged == [line for line, _ in orders], f"seed {seed}"
    for line, raw in orders:
        assert len(answers(smtp, mailparse.read(raw).message_id)) == 1, (line, f"seed {seed}")
    assert len(dovecot.messages(site.user, "Judged")) == len(orders) and dovecot.messages(site.user, "Quarantine") == []
