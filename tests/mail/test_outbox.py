"""Outgoing mail through a real SMTP server on 127.0.0.1 (aiosmtpd): login over STARTTLS with
a throwaway certificate, a server that is down, stopped and started again in the middle of a
game, permanent refusals, and runs killed while they send. Nothing is lost: every change's
mail waits in the outbox until a later `judge mail` or `judge tick` sends it."""
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword

from judge.store import config, gamefile
from judge.gateway import inbox as gateway
from judge.engine.errors import MailError, UsageError
from judge.mail.outbox import compose
from mailkit import GM_ADDRESS, NAMES, OBSERVER, T0, Server, address, flat, make_site, message, new_game, text

LOGIN = 'user = "judge"\npassword = "s3cret"\n'


def orders(player, password, *lines):
    return f"game g1\nplayer {player} {password}\n" + "".join(f"{line}\n" for line in lines)


def spooled(site) -> list[str]:
    folder = site.cfg.games / ".mail" / "outbox"
    return sorted(os.listdir(folder)) if folder.is_dir() else []


def judge(site, *args, stdin=None, timeout=60):
    cmd = [sys.executable, "-m", "judge", *args, "--config", str(site.root / "judge.toml")]
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)


class Logins(Server):
    def __init__(self, **options):
        super().__init__(authenticator=self.authenticate, auth_required=True, **options)
        self.logins = []

    def authenticate(self, server, session, envelope, mechanism, data):
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"judge", b"s3cret")
        self.logins.append(ok)
        return AuthResult(success=ok)


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtp_with_login_sends_every_mail_over_one_connection(tmp_path):
    server = Logins(auth_require_tls=False).start()
    try:
        site = make_site(tmp_path, server.port, LOGIN)
        box = site.outbox()
        for p in ("alice", "bob"):
            box.send(compose(site.cfg, address(p), "hello", f"hello {p}\n"))
        box.close()
    finally:
        server.stop()
    assert server.logins == [True]
    assert [rcpts for rcpts, _ in server.mails] == [[address("alice")], [address("bob")]]
    assert spooled(site) == []  # sent, so gone from the outbox


def make_certificate(folder):
    """A throwaway self-signed certificate for 127.0.0.1, made now (openssl, no network)."""
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=60)
    return key, cert


def test_starttls_and_login_against_a_server_with_a_throwaway_certificate(tmp_path, monkeypatch):
    key, cert = make_certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = Logins(tls_context=context, require_starttls=True, auth_require_tls=True).start()
    try:
        site = make_site(tmp_path, server.port, "starttls = true\n" + LOGIN)
        # not trusted yet: the certificate is checked, the mail waits in the outbox
        box = site.outbox()
        with pytest.raises(MailError, match="CERTIFICATE_VERIFY_FAILED"):
            box.send(compose(site.cfg, address("alice"), "hello", "hello alice\n"))
        box.close()
        assert server.mails == [] and len(spooled(site)) == 1
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the host trusts it
        box = site.outbox()
        box.send(compose(site.cfg, address("bob"), "hello", "hello bob\n"))
        box.close()
    finally:
        server.stop()
    assert server.logins == [True]  # one login, over TLS
    assert [rcpts for rcpts, _ in server.mails] == [[address("alice")], [address("bob")]] and spooled(site) == []


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # (aiosmtpd sees STARTTLS only)
def test_implicit_tls_with_a_private_authority_and_a_password_file(tmp_path):
    """[smtp] security = "tls" (port 465's implicit TLS), cafile (a self-signed or private
    authority, without SSL_CERT_FILE) and password_file (read at every connection)."""
    key, cert = make_certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = Logins(ssl_context=context, auth_require_tls=False).start()
    secret = tmp_path / "smtp-password"
    secret.write_text("s3cret\n")
    secret.chmod(0o600)
    try:
        site = make_site(tmp_path, server.port, 'security = "tls"\nuser = "judge"\npassword_file = "smtp-password"\n')
        box = site.outbox()
        with pytest.raises(MailError, match="CERTIFICATE_VERIFY_FAILED"):  # the system's authorities do not know it
            box.send(compose(site.cfg, address("alice"), "hello", "hello alice\n"))
        box.close()
        path = tmp_path / "judge.toml"
        path.write_text(path.read_text() + 'cafile = "cert.pem"\n')  # (in [smtp], the file's last table)
        site.cfg = config.load(path)
        secret.chmod(0o644)
        box = site.outbox()
        with pytest.raises(MailError, match="may be read by others: chmod 600"):
            box.send(compose(site.cfg, address("bob"), "hello", "hello bob\n"))
        box.close()
        secret.chmod(0o600)
        box = site.outbox()
        box.flush()
        box.close()
    finally:
        server.stop()
    assert server.logins == [True]  # one login, over TLS from the first byte
    assert [rcpts for rcpts, _ in server.mails] == [[address("alice")], [address("bob")]] and spooled(site) == []


@pytest.mark.parametrize("keys, security, port", [
    ("port = 465\n", "tls", 465),
    ('security = "tls"\n', "tls", 465),
    ("port = 587\nstarttls = true\n", "starttls", 587),
    ('security = "starttls"\nport = 587\n', "starttls", 587),
    ("", "none", 25),
])
def test_the_smtp_table_reads_its_security_and_default_port(tmp_path, keys, security, port):
    (tmp_path / "games").mkdir()
    path = tmp_path / "judge.toml"
    path.write_text(f'address = "j@x.test"\ngm = "g@x.test"\ngames = "games"\n[smtp]\nhost = "h"\n{keys}')
    smtp = config.load(path).smtp
    assert (smtp["security"], smtp["port"], smtp["starttls"]) == (security, port, security == "starttls")


@pytest.mark.parametrize("keys, refused", [
    ('security = "ssl"\n', 'security is "tls" (implicit TLS, port 465), "starttls" or "none"'),
    ('security = "tls"\nstarttls = true\n', "with starttls = true"),
    ('password = "a"\npassword_file = "f"\n', "not both"),
    ('cafile = 1\n', 'needs cafile = "..."'),
    ('tls = true\n', "unknown keys: tls"),
])
def test_a_wrong_smtp_table_is_refused_with_what_to_write(tmp_path, keys, refused):
    (tmp_path / "games").mkdir()
    path = tmp_path / "judge.toml"
    path.write_text(f'address = "j@x.test"\ngm = "g@x.test"\ngames = "games"\n[smtp]\nhost = "h"\n{keys}')
    path.chmod(0o600)
    with pytest.raises(UsageError, match=re.escape(refused)):
        config.load(path)


def test_a_server_that_is_down_keeps_the_mail_in_the_outbox_and_the_queue_moves_on(tmp_path):
    server = Server()
    site = make_site(tmp_path, server.port)  # nobody listens there yet
    with pytest.raises(MailError):
        new_game(site)
    game = site.load()
    assert len(spooled(site)) == 4  # the welcomes wait (three players', the observer's)
    inbox = tmp_path / "in"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    (inbox / "new" / "1.a").write_bytes(message(address("alice"), "hello\n"))
    (inbox / "new" / "2.b").write_bytes(message(address("bob"), "game g1\n"))
    done = judge(site, "mail", "--maildir", str(inbox))
    assert done.returncode == 75 and b"cannot send mail" in done.stderr  # EX_TEMPFAIL: the outbox waits
    assert sorted(os.listdir(inbox / "cur")) == ["1.a:2,S", "2.b:2,S"]  # both handled all the same
    assert len(spooled(site)) == 6
    server.start()
    try:
        done = judge(site, "tick")  # the next run sends what waits
        assert done.returncode == 0, done.stderr
    finally:
        server.stop()
    assert sorted(rcpts[0] for rcpts, _ in server.mails) == sorted([address(p) for p in NAMES] + [OBSERVER, address("alice"), address("bob")])
    assert spooled(site) == [] and gamefile.load(site.game_path()).state == game.state


def report_moves(server, addr) -> set[int]:
    return {int(m["Subject"].split("move ")[1].split(",")[0]) for m in server.to(addr) if "report" in m["Subject"]}


def test_an_smtp_outage_in_the_middle_of_a_game_loses_no_report(tmp_path):
    """The server is stopped, the game plays on (the MTA delivers each message again while the
    judge answers 75), the server is started: every player has every report."""
    server = Server().start()
    site = make_site(tmp_path, server.port)
    pw = new_game(site)
    box = site.outbox()
    played, outage = 0, range(3, 7)
    pending = []  # messages the MTA still holds (exit 75)
    while played < 10:
        if played == outage.start:
            server.stop()
        if played == outage.stop:
            server.start()
        game = site.load()
        who = game.awaiting()[0]
        raw = message(address(who), orders(who, pw[who], f"#{game.move} bid"))
        for again in pending + [raw]:
            try:
                gateway.handle_piped(again, site.cfg, box, T0)
                if again in pending:
                    pending.remove(again)
            except MailError:
                box = site.outbox()  # the MTA runs a new judge for the next delivery
                if again not in pending:
                    pending.append(again)
        played += 1
    server.stop()
    game = site.load()
    assert len(game.log) == 10 and pending == []
    for p in NAMES:  # a report of every move after the first, for every player and the observer
        assert report_moves(server, address(p)) == set(range(2, game.move + 1)), p
    assert report_moves(server, OBSERVER) == set(range(2, game.move + 1))
    answers = {}  # each message's answers (a message delivered again after its answer went out gets it again)
    for _, m in server.mails:
        if m["Subject"].startswith("Re:"):
            answers.setdefault(m["In-Reply-To"], set()).add(text(m))
    assert len(answers) == 10 and all(len(a) == 1 and "All applied." in next(iter(a)) for a in answers.values())
    assert spooled(site) == []


def test_tick_with_the_server_down_sends_its_notices_later(tmp_path):
    server = Server().start()
    site = make_site(tmp_path, server.port)
    new_game(site, deadline=48, grace=6, remind=12)
    server.stop()
    late = site.load().awaiting()[0]
    done = judge(site, "tick", "--now", (T0 + timedelta(hours=60)).isoformat())
    assert done.returncode == 75 and b"Missed order" in done.stdout
    assert site.load().log == [f"1 judge: missed {late} by 2026-05-03T12:00:00Z: the default order", f"1 {late} pass"]
    server.mails.clear()
    server.start()
    try:
        assert judge(site, "tick", "--now", (T0 + timedelta(hours=61)).isoformat()).returncode == 0
    finally:
        server.stop()
    assert {rcpts[0] for rcpts, _ in server.mails} == {address(p) for p in NAMES} | {OBSERVER, GM_ADDRESS}
    assert all("Missed order" in text(m) for _, m in server.mails)


def test_a_permanent_refusal_is_logged_told_to_the_game_master_and_blocks_nothing(tmp_path):
    stranger = "stranger@nowhere.test"
    server = Server(refuse={stranger, "bob2@new.test"}).start()
    try:
        site = make_site(tmp_path, server.port)
        pw = new_game(site)
        inbox = tmp_path / "in"
        for sub in ("new", "cur", "tmp"):
            (inbox / sub).mkdir(parents=True)
        first = site.load().awaiting()[0]
        (inbox / "new" / "1").write_bytes(message(stranger, "game g1\nplayer x y\n"))
        (inbox / "new" / "2").write_bytes(message(address(first), orders(first, pw[first], "bid")))
        (inbox / "new" / "3").write_bytes(message(GM_ADDRESS, orders("gm", pw["gm"], "replace bob bob2@new.test")))
        done = judge(site, "mail", "--maildir", str(inbox))
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr  # a 550 is not a reason to deliver the message again
    assert len(os.listdir(inbox / "cur")) == 3 and site.load().log == [f"1 {first} bid", "2 judge: seat bob to a new player"]
    notes = [m for m in server.to(GM_ADDRESS) if "could not be delivered" in m["Subject"]]
    assert {text(m).split("To: ")[1].splitlines()[0] for m in notes} == {"bob2@new.test", stranger}
    welcome_note = next(text(m) for m in notes if "bob2@new.test" in text(m))
    assert "welcome, bob" in welcome_note and "550" in welcome_note and "replace PLAYER NEW_ADDRESS" in welcome_note
    log = (site.cfg.games / "mail.log").read_text()
    assert log.count("undeliverable: 550") == len(notes) and spooled(site) == []
    assert "Your password" not in log


def test_a_recipient_refused_for_now_waits_and_the_others_go(tmp_path):
    server = Server(busy={address("bob")}).start()
    try:
        site = make_site(tmp_path, server.port)
        box = site.outbox()
        for p in NAMES:
            box.put(compose(site.cfg, address(p), "hello", f"hello {p}\n"))
        with pytest.raises(MailError, match="450 4.2.1 mailbox busy"):
            box.flush()
        assert sorted(rcpts[0] for rcpts, _ in server.mails) == [address("alice"), address("carol")]
        assert len(spooled(site)) == 1
        server.busy.clear()
        site.outbox().flush()  # the next run
    finally:
        server.stop()
    assert [rcpts[0] for rcpts, _ in server.mails][-1] == address("bob") and spooled(site) == []
    assert not (site.cfg.games / "mail.log").exists()  # nothing was undeliverable


def test_a_welcome_that_could_not_be_sent_is_sent_later(tmp_path):
    """`replace` gives a new password that only its welcome mail carries: it must not be lost."""
    server = Server().start()
    site = make_site(tmp_path, server.port)
    pw = new_game(site)
    server.stop()
    server.mails.clear()
    done = judge(site, "mail", stdin=message(GM_ADDRESS, orders("gm", pw["gm"], "replace bob bob2@new.test")))
    assert done.returncode == 75
    server.start()
    try:
        assert judge(site, "tick").returncode == 0
    finally:
        server.stop()
    welcome = [m for m in server.to("bob2@new.test") if "welcome" in m["Subject"]]
    assert len(welcome) == 1 and "Your password: " in text(welcome[0])
    assert [m["Subject"] for m in server.to(address("bob"))] == ["game g1: you no longer play bob"]


# Cost (8 s): real judge processes killed while they send over SMTP; each kill point is one
# that lost mail before.
def test_runs_killed_while_sending_lose_no_mail(tmp_path):
    """Each `judge mail` is killed (kill -9) at a different moment while it works; the MTA
    delivers the message again, as it does after a run that did not exit 0. At the end every
    player has every report and every answer."""
    server = Server(delay=0.05).start()
    try:
        site = make_site(tmp_path, server.port)
        pw = new_game(site)
        cmd = [sys.executable, "-m", "judge", "mail", "--config", str(site.root / "judge.toml")]
        kills = 0
        for n in range(4):
            game = site.load()
            who = game.awaiting()[0]
            raw = message(address(who), orders(who, pw[who], f"#{game.move} bid"))
            for attempt in range(5):
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                proc.stdin.write(raw)
                proc.stdin.close()
                if attempt == 0:  # kill the first delivery somewhere in its work
                    time.sleep(0.3 + 0.1 * n)
                    proc.send_signal(signal.SIGKILL)
                    kills += proc.wait(timeout=60) == -signal.SIGKILL
                elif proc.wait(timeout=60) == 0:
                    break
        time.sleep(0.1)
    finally:
        server.stop()
    game = site.load()
    assert kills >= 2 and len(game.log) == 4 and not game.differences(game.replay())
    for p in NAMES:
        assert report_moves(server, address(p)) == set(range(2, game.move + 1)), p
    assert spooled(site) == []
    assert not [n for n in os.listdir(site.cfg.games) if n.endswith(".tmp")]


def answers_to(server, addr) -> list:
    return [m for m in server.to(addr) if m["Subject"].startswith("Re:")]


def test_a_message_that_came_while_the_server_was_down_is_answered_once(tmp_path):
    """Issue 35: the server down, `judge mail` applies the message and exits 75; the server
    back, `judge tick` sends the waiting answer; then the MTA delivers the message again.
    It used to be answered twice."""
    server = Server().start()
    site = make_site(tmp_path, server.port)
    pw = new_game(site)
    server.stop()
    server.mails.clear()
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, pw[first], "bid"))
    assert judge(site, "mail", stdin=raw).returncode == 75
    server.start()
    try:
        assert judge(site, "tick").returncode == 0  # cron: the answer and the reports go out
        assert len(answers_to(server, address(first))) == 1
        again = judge(site, "mail", stdin=raw)  # the MTA's next try
        assert again.returncode == 0 and b"handled before; its answer went out at" in again.stdout
    finally:
        server.stop()
    answers = answers_to(server, address(first))
    assert len(answers) == 1 and "OK bid All applied." in flat(text(answers[0]))
    assert site.load().log == [f"1 {first} bid"] and spooled(site) == []
    logged = (site.cfg.games / "mail.log").read_text()
    assert logged.count("duplicate: handled before, and its answer went out at") == 1


def test_one_message_delivered_three_times_at_once_is_applied_and_answered_once(tmp_path):
    """Three `judge mail` processes with the same message at the same time: one applies it,
    and the log says of the two others that their answer was not sent again."""
    server = Server().start()
    try:
        site = make_site(tmp_path, server.port)
        pw = new_game(site)
        first = site.load().awaiting()[0]
        raw = message(address(first), orders(first, pw[first], "bid"))
        cmd = [sys.executable, "-m", "judge", "mail", "--config", str(site.root / "judge.toml")]
        procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(3)]
        for proc in procs:
            proc.stdin.write(raw)
            proc.stdin.close()
        assert all(proc.wait(timeout=60) == 0 for proc in procs)
    finally:
        server.stop()
    answers = answers_to(server, address(first))
    assert len(answers) == 1 and "OK bid All applied." in flat(text(answers[0]))
    assert site.load().log == [f"1 {first} bid"]
    logs = [(site.cfg.games / name).read_text() for name in ("mail.log", "g1.mail.log")]
    general = [json.loads(line)["outcome"] for line in logs[0].splitlines()]
    assert len(general) == 2 and all("not sent again" in o or "nothing done or sent again" in o for o in general)
    # one answer queued: by the delivery that applied it, or (when a duplicate reached the outbox
    # first, which happens about one run in four) by that one, whose log says "queued again"
    assert sum(log.count("queued again") for log in logs) <= 1
