"""The judge as a host runs it: host problems are kept from players (exit 75, the detail in the
judge's log, the game master told), commands as the wrong user are refused, `judge new` with
an address the mail server refuses makes nothing, bounces reach the game master, a message
without a Message-ID is recognised on redelivery."""
import json
import os
import re

import pytest
from aiosmtpd.controller import Controller
from typer.testing import CliRunner

from judge.store import gamefile
from judge.cli import app
from judge.gateway import inbox as gateway
from judge.gateway import parse as mailparse
from mailkit import GM_ADDRESS, T0, address, flat, free_port, make_site, message, new_game, reply, text, to

runner = CliRunner()
ROOT = os.geteuid() == 0


def run(site, *args, stdin=None, home=None):
    env = {"JUDGE_CONFIG": str(site.root / "judge.toml"), "HOME": str(home or site.root)}
    return runner.invoke(app, list(args), input=stdin, env=env)


def first_orders(site, pw):
    first = site.load().awaiting()[0]
    return first, message(address(first), f"game g1\nplayer {first} {pw[first]}\nbid\n")


def no_detail(output: str, site) -> None:
    """What an MTA would pass on to a player: no path, no traceback."""
    assert "Traceback" not in output and str(site.root) not in output and "/" not in output
    assert "problem on the judge's host" in output


def test_an_unreadable_configuration_exits_75_and_the_detail_goes_to_the_log(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    bad = tmp_path / "judge.toml"
    if ROOT:  # root reads any file: a configuration that cannot be read as a file
        bad.unlink()
        bad.mkdir()
    else:
        bad.chmod(0)
    first, raw = first_orders(site, pw)
    result = run(site, "mail", "--config", str(bad), stdin=raw)
    assert result.exit_code == 75
    no_detail(result.output, site)
    logged = (tmp_path / "judge-errors.log").read_text()
    assert "cannot read configuration" in logged and str(bad) in logged
    assert site.load().log == []


def test_outgoing_mail_held_up_exits_75_with_no_host_detail_for_the_mta_to_quote(tmp_path):
    """Issue 25: when Postfix gave up on a deferred message, the player's bounce quoted the
    judge's error: 'cannot send mail through localhost: [Errno 111] Connection refused'."""
    site = make_site(tmp_path)
    pw = new_game(site)
    conf = tmp_path / "judge.toml"  # then the mail server goes away: nobody listens on its port
    conf.write_text(conf.read_text().replace('[maildir]\npath = "outbox"', f'[smtp]\nhost = "127.0.0.1"\nport = {free_port()}'))
    first = site.load().awaiting()[0]
    result = run(site, "mail", stdin=message(address(first), f"game g1\nplayer {first} {pw[first]}\nbid\n"))
    assert result.exit_code == 75
    no_detail(result.output, site)
    assert "127.0.0.1" not in result.output and "Errno" not in result.output and "send mail" not in flat(result.output)
    assert site.load().log == [f"1 {first} bid"]  # applied; its answer waits in the outbox
    logged = (site.cfg.games / "mail.log").read_text()
    assert "cannot send mail through 127.0.0.1" in logged


def test_a_games_directory_the_judge_cannot_write_exits_75_tells_the_gm_once_and_works_once_fixed(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    pw = new_game(site)
    site.take()
    first, raw = first_orders(site, pw)
    real_save = gamefile.save

    def denied(game, path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(gamefile, "save", denied)  # as root, chmod cannot take the right away
    for _ in range(2):  # the MTA tries again: the game master is told once an hour, not each time
        result = run(site, "mail", stdin=raw)
        assert result.exit_code == 75
        no_detail(result.output, site)
    mails = site.take()
    assert [m["To"] for m in mails] == [GM_ADDRESS]  # no answer to the player, one note to the GM
    assert "Permission denied" in flat(text(mails[0])) and flat("owner of the games directory") in flat(text(mails[0]))
    logged = [json.loads(line) for line in (site.cfg.games / "mail.log").read_text().splitlines()]
    assert sum("Permission denied" in e["outcome"] for e in logged) == 2
    monkeypatch.setattr(gamefile, "save", real_save)
    result = run(site, "mail", stdin=raw)  # fixed: the same message is handled
    assert result.exit_code == 0 and site.load().log == [f"1 {first} bid"]
    assert "OK      bid" in reply(site.take(), address(first))


def test_a_broken_game_file_is_the_hosts_problem_not_told_to_the_player(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    site.take()
    first, raw = first_orders(site, pw)
    site.game_path().write_text("format = [broken\n")
    result = run(site, "mail", stdin=raw)
    assert result.exit_code == 75
    no_detail(result.output, site)
    assert to(site.take(), address(first)) == []
    assert "g1.toml is not valid TOML" in (site.cfg.games / "mail.log").read_text()


@pytest.mark.skipif(not ROOT, reason="only root can give the games directory to another user")
def test_commands_by_another_user_than_the_games_directorys_owner_are_refused_naming_the_owner(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    site.take()
    os.chown(site.cfg.games, 65534, 65534)  # the judge's user: nobody
    for path in site.cfg.games.iterdir():
        os.chown(path, 65534, 65534)
    before = site.game_path().read_bytes()
    first = site.load().awaiting()[0]
    result = run(site, "order", str(site.game_path()), "--as", first, "bid")
    assert result.exit_code == 2 and "run every judge command on its games as 'nobody'" in flat(result.output)
    assert flat("sudo -u nobody") in flat(result.output) and "not as 'root'" in flat(result.output)
    assert site.game_path().read_bytes() == before
    assert not (site.cfg.games / f".{site.game_path().name}.lock").exists() or \
        (site.cfg.games / f".{site.game_path().name}.lock").stat().st_uid == 65534
    result = run(site, "tick")
    assert result.exit_code == 2 and "as 'nobody'" in flat(result.output)
    result = run(site, "mail", stdin=first_orders(site, pw)[1])  # a wrong user behind the MTA: kept for later
    assert result.exit_code == 75 and site.game_path().read_bytes() == before
    plain = tmp_path / "elsewhere"  # games elsewhere are not concerned
    plain.mkdir()
    assert run(site, "new", "mogul", str(plain / "x.toml"), "-p", "a", "-p", "b", "-p", "c").exit_code == 0
    assert run(site, "order", str(plain / "x.toml"), "--as", "a", "pass").exit_code in (0, 4)


class Refusing:
    """An SMTP server that refuses one address at RCPT TO, as Postfix does an unknown user."""

    def __init__(self, dead):
        self.dead, self.mails = dead, []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address == self.dead:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(envelope)
        return "250 OK"


def new_args(site, alice="alice@players.test"):
    return ["new", "mogul", str(site.game_path()), "-p", f"alice={alice}", "-p", "bob=bob@players.test",
            "-p", "carol=carol@players.test", "--observer", "watcher@watch.test"]


def test_new_with_an_address_the_server_refuses_makes_nothing_and_can_be_run_again(tmp_path):
    server = Refusing("dead@players.test")
    controller = Controller(server, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        site = make_site(tmp_path, controller.port)
        result = run(site, *new_args(site, "dead@players.test"))
        assert result.exit_code == 2, result.output
        assert "nothing was created: the mail server refuses dead@players.test (550 5.1.1" in flat(result.output)
        assert not site.game_path().exists() and server.mails == []
        result = run(site, *new_args(site))
        assert result.exit_code == 0, result.output
        assert site.game_path().exists()
        assert sorted(r for e in server.mails for r in e.rcpt_tos) == sorted(
            [address(p) for p in ("alice", "bob", "carol")] + ["watcher@watch.test"])
    finally:
        controller.stop()


def test_new_with_the_mail_server_down_makes_nothing_and_exits_75(tmp_path):
    site = make_site(tmp_path, free_port())  # nobody listens there
    result = run(site, *new_args(site))
    assert result.exit_code == 75 and "cannot reach the mail server" in result.output
    assert not site.game_path().exists()


def test_user_at_localhost_is_an_address(tmp_path):
    site = make_site(tmp_path)
    result = run(site, *new_args(site, "alice@localhost"))
    assert result.exit_code == 0, result.output
    assert site.load().meta["mail"]["players"]["alice"]["address"] == "alice@localhost"


# ---- Message-IDs, subjects, bounces, the welcome's example ---------------------------------
DELIVERY = [b"Return-Path: <alice@players.test>\n", b"Delivered-To: judge@judge.test\n",
            b"X-Original-To: judge@judge.test\n",
            b"Received: from mx.players.test (mx.players.test [192.0.2.7])\n\tby judge.test (Postfix) with ESMTP id %d\n",
            b"From alice@players.test  Sun Nov 22 10:00:0%d 2026\n"]


def test_a_message_without_message_id_is_the_same_message_whatever_the_mta_adds():
    raw = b"From: alice@players.test\nTo: judge@judge.test\nSubject: orders\nDate: Sun, 22 Nov 2026 10:00:00 +0000\n\ngame g1\n"
    ids = set()
    for n in range(3):  # each delivery prepends other headers (and the mbox From_ line of procmail)
        added = b"".join(h.replace(b"%d", str(n).encode()) for h in DELIVERY[n:] + DELIVERY[:n])
        ids.add(mailparse.read(added + raw).message_id)
    assert len(ids) == 1 and ids.pop().startswith("<sha256-")
    assert mailparse.read(raw.replace(b"game g1", b"game g2")).message_id != mailparse.read(raw).message_id


def test_a_redelivered_message_without_message_id_is_applied_once(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    raw = (f"From: {address(first)}\nTo: judge@judge.test\nSubject: orders\n\n"
           f"game g1\nplayer {first} {pw[first]}\nbid\n").encode()
    gateway.handle(DELIVERY[3].replace(b"%d", b"1") + raw, site.cfg, site.outbox(), T0)
    gateway.handle(DELIVERY[3].replace(b"%d", b"2") + DELIVERY[1] + raw, site.cfg, site.outbox(), T0)
    assert site.load().log == [f"1 {first} bid"]


def test_answers_name_the_game_in_their_subject(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    gateway.handle(message(address(first), f"game g1\nplayer {first} {pw[first]}\n", "orders"), site.cfg, site.outbox(), T0)
    assert [m["Subject"] for m in site.take()] == ["Re: orders (game g1)"]
    gateway.handle(message(address(first), f"player {first} {pw[first]}\n", "Re: game g1: move 1, report for x"),
                   site.cfg, site.outbox(), T0)
    assert [m["Subject"] for m in site.take()] == ["Re: game g1: move 1, report for x"]


def dsn(recipient: str, returned_subject: str, returned_body: str) -> bytes:
    return (f"From: MAILER-DAEMON@mx.players.test (Mail Delivery System)\nTo: judge@judge.test\n"
            "Subject: Undelivered Mail Returned to Sender\nAuto-Submitted: auto-replied\nMIME-Version: 1.0\n"
            'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\n\n'
            "--B\nContent-Type: text/plain\n\nI'm sorry to have to inform you that your message could not be delivered.\n"
            "--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.players.test\n\n"
            f"Final-Recipient: rfc822; {recipient}\nAction: failed\nStatus: 5.1.1\n"
            f"Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected: User unknown\n\n"
            f"--B\nContent-Type: message/rfc822\n\nFrom: Judge <judge@judge.test>\nTo: {recipient}\n"
            f"Subject: {returned_subject}\n\n{returned_body}\n--B--\n").encode()


def test_bounces_are_reported_to_the_game_master_without_the_returned_mail(tmp_path):
    site = make_site(tmp_path)
    new_game(site)
    site.take()
    raw = dsn("alice@players.test", "game g1: welcome, alice", "Your password: k7mxq2pv4a\n")
    gateway.handle(raw, site.cfg, site.outbox(), T0)
    mails = site.take()
    assert [m["To"] for m in mails] == [GM_ADDRESS] and mails[0]["Subject"] == "judge: undelivered mail in game g1"
    body = text(mails[0])
    assert "to alice@players.test (failed, status 5.1.1: smtp; 550 5.1.1" in body and "replace PLAYER" in body
    assert "k7mxq2pv4a" not in body
    gateway.handle(dsn(GM_ADDRESS, "judge: undelivered mail", "x"), site.cfg, site.outbox(), T0)
    assert site.take() == []  # the game master's own address bounced: logged only, no loop
    assert "concerns the game master's address" in (site.cfg.games / "mail.log").read_text()


def test_the_welcome_shows_a_good_order_message_that_works_as_shown(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    first = site.load().awaiting()[0]
    welcome = next(m for m in site.take() if m["To"] == address(first))
    example = re.search(r"A good order message, whole:\n\n((?:  .*\n)+)", text(welcome))[1]
    assert example.splitlines()[1] == f"  player {first} YOUR-PASSWORD" and example.endswith("  end\n")
    body = example.replace("YOUR-PASSWORD", pw[first]) + "\nthanks, see you\n"
    gateway.handle(message(address(first), body, f"Re: {welcome['Subject']}"), site.cfg, site.outbox(), T0)
    assert "All applied." in reply(site.take(), address(first)) and len(site.load().log) == 1
