"""The judge's notices and alerts are written as paragraphs and wrapped once, by the one wrap
(issue 35 item 7): a text broken by hand at about 78 columns and wrapped again came out
ragged ("...your correct password, but / it came / from ..."). Every notice and alert of a
game played through the gateway and `judge tick`, and every note to the game master, with a
long game name and long addresses, is checked: no line of a paragraph is shorter than half
a mail's line but its last."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from judge.engine.report import WIDTH
from judge.gateway import bounces, deadlines, inbox as gateway
from judge.mail import host, passwords
from judge.mail.outbox import Outbox, Undeliverable
from judge.store import gamefile
from mailkit import GM_ADDRESS, T0, address, block, make_site, message, new_game, text

NAME = "the-long-friday-evening-game-of-the-club"
STRANGER = "mallory.writing.from.elsewhere@another-domain.example"
FOOTER = re.compile(r"^(Deadline for move \d+|No deadline\.|The game is over\.|The game is paused)")


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)


def without_report(body: str) -> str:
    """The mail's text without the reports it holds (tables, not prose): from a report's
    heading (the line above its rule of '=') to the footer's deadline line."""
    lines, out, skipping = body.replace("\r\n", "\n").split("\n"), [], False
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and lines[i + 1] == "=" * 66:
            skipping = True
        elif skipping and FOOTER.match(line):
            skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out)


def paragraphs(body: str) -> list[list[str]]:
    """The prose of a mail: each paragraph a line at the margin and its wrapped continuation
    lines (4 columns in), and the lines at the margin right under it. Indented lines (a list,
    a quoted press line, an order to copy) and blank lines end a paragraph."""
    found, current = [], []
    for line in without_report(body).split("\n"):
        if line and not line.startswith(" ") or (current and re.match(r"^ {4}\S", line)):
            current.append(line)
            continue
        if current:
            found.append(current)
        current = []
    return found + ([current] if current else [])


def ragged(body: str) -> list[list[str]]:
    """The paragraphs with a line shorter than half a mail's line that is not their last (unless
    the next word, a path or an address longer than the rest of the line, could not go on it)."""
    return [p for p in paragraphs(body)
            if any(len(line) < WIDTH // 2 and len(line) + 1 + len(after.split()[0]) <= WIDTH
                   for line, after in zip(p, p[1:]))]


def test_the_check_finds_a_text_broken_by_hand_and_wrapped_again():
    from judge.engine.report import wrap

    by_hand = ("A message to game friday-evening gave your name (alice) and your correct password, but it came\n"
               "from mallory@example.org, not from your address alice@example.org.\n")  # (the alert)
    assert ragged(wrap(by_hand)) and not ragged(wrap(by_hand.replace(" came\nfrom", " came from")))


def test_every_notice_and_alert_is_wrapped_once(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    pw = new_game(site, NAME, deadline=48, grace=6, remind=12)
    mails = site.take()  # the welcomes

    def send(sender, *lines, who=None, now=T0):
        gateway.handle(message(sender, block(who, pw[who], *lines, game=NAME)), site.cfg, site.outbox(), now)
        mails.extend(site.take())

    game = gamefile.load(site.cfg.games / f"{NAME}.toml")
    first = game.awaiting()[0]
    send(STRANGER, "bid", who="alice")  # the right password from another address: alice is alerted
    send(address("alice"), "set password kangaroo-river-42", who="alice")
    pw["alice"] = "kangaroo-river-42"
    send(address("bob"), "set address robert.the.second.of.his.name@a-rather-long-domain.example", who="bob")
    code = re.search(r"confirm ([0-9a-f]{8})", text(mails[-1]))[1]
    send(address("bob"), f"confirm {code}", who="bob")
    send(GM_ADDRESS, "set press anon", "absent carol", "pause", who="gm")
    send(GM_ADDRESS, "resume", "present carol", who="gm")
    send(address("carol"), "away until 2026-05-02", "press alice meet me at the club", "press anon all psst",
         "propose end", who="carol")
    for hours in (1, 40, 60, 80):  # the press, a reminder, a missed order, carol back from her absence
        deadlines.tick(site.cfg, site.outbox(), T0 + timedelta(hours=hours))
        mails.extend(site.take())
    send(GM_ADDRESS, f"replace {first} dorothea dorothea.the.new.player@another-long-domain.example", who="gm")
    box = site.outbox()  # the notes to the game master
    gateway.quarantine(*_maildir(tmp_path), RuntimeError("something the judge trips over"), site.cfg, box, T0)
    box.put(gateway.compose(site.cfg, "dead.address.of.a.player@nowhere-at-all.example", f"game {NAME}: welcome",
                            "hello\n"))
    monkeypatch.setattr(box.transport, "send", _refusing(box.transport.send))
    box.flush()
    mails.extend(site.take())
    _, note = bounces.report(_bounce(), site.cfg, "Undelivered Mail Returned to Sender")
    monkeypatch.setattr(host.Path, "home", lambda: tmp_path)
    host.tell_gm(site.cfg, "[Errno 28] No space left on device: '/srv/judge/games/.friday.toml.lock'", "no-space")
    mails.extend([note, *site.take()])
    told = [m for m in mails if not str(m["Subject"]).startswith("Re:")]
    kinds = {re.sub(r"game \S+: |, move \d+.*|, \w+$", "", str(m["Subject"])) for m in told}
    assert len(kinds) >= 14, kinds  # (the notices and alerts this game made)
    for m in told:
        assert ragged(text(m)) == [], (m["Subject"], text(m))


def _maildir(root):
    box = root / "in"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    raw = message(STRANGER, "game x\n")
    (box / "new" / "1.msg").write_bytes(raw)
    return box, "1.msg", raw


def _refusing(send):
    def refusing(data: bytes) -> None:
        if b"\nTo: dead.address" in data:
            raise Undeliverable("550 5.1.1 <dead.address.of.a.player@nowhere-at-all.example>: Recipient "
                                "address rejected: User unknown in virtual mailbox table")
        send(data)
    return refusing


def _bounce() -> bytes:
    return (b"From: MAILER-DAEMON@judge.test\nTo: judge@judge.test\nSubject: Undelivered Mail Returned to Sender\n"
            b"Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\n"
            b"Content-Type: text/plain\n\nsorry\n--b\nContent-Type: message/delivery-status\n\n"
            b"Reporting-MTA: dns; judge.test\n\nFinal-Recipient: rfc822; dead.address.of.a.player@nowhere.example\n"
            b"Action: failed\nStatus: 5.1.1\n\n--b--\n")
