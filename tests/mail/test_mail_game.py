"""A whole game played by mail: three simulated players read their reports from a real SMTP
server on 127.0.0.1 and answer into a real Maildir, which `judge mail --maildir` handles."""
import mailbox
import random
import re
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller

from judge.engine import bots, facts, ruleset as registry
from judge.store import gamefile
from judge.gateway import inbox as gateway
from judge.mail import mailgame
from judge.engine.game import Game
from judge.engine.ruleset import GM
from mailkit import (GM_ADDRESS, NAMES, OBSERVER, T0, address, free_port, make_site, message, new_game, reply,
                     short_setup)


class Collect:
    def __init__(self):
        self.mails = []

    async def handle_DATA(self, server, session, envelope):
        self.mails.append((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


@pytest.fixture
def smtp():
    handler = Collect()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, handler
    controller.stop()


def orders_offered(report: str) -> tuple[int, list[str]]:
    """The orders a player can copy from a report: the templates that take no values (`bid`,
    `take`) and the example line."""
    m = re.search(r"Your orders now, move (\d+) .*\n((?:  .*\n)+)", report)
    if not m:
        return 0, []
    lines = m[2].splitlines()
    bare = [line.strip() for line in lines if re.fullmatch(r"  [a-z]+( {2,}.*)?", line)]
    example = [line.split(": ", 1)[1] for line in lines if line.startswith("  For example: ")]
    return int(m[1]), [b.split("  ")[0] for b in bare] + example


def test_a_whole_game_by_mail_over_smtp_and_a_maildir(tmp_path, smtp):
    controller, server = smtp
    site = make_site(tmp_path, smtp_port=controller.port)
    passwords = new_game(site, setup=short_setup(rounds=3))
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    rng = random.Random(5)
    latest = {}  # each player's last report from the judge
    read = 0
    for _ in range(200):
        for rcpts, mail in server.mails[read:]:
            assert rcpts == [mail["To"]]
            if "report for" in mail["Subject"] or "welcome" in mail["Subject"]:
                latest[mail["To"]] = mail
        read = len(server.mails)
        sent = 0
        for p in NAMES:
            mail = latest.get(address(p))
            move, offered = orders_offered(mail.get_content()) if mail else (0, [])
            if offered:  # reply to the report, quoting it, with the order and a signature
                order = rng.choice(offered)
                quoted = "".join(f"> {line}\n" for line in mail.get_content().splitlines())
                body = f"player {p} {passwords[p]}\n#{move} {order}\n\n{quoted}-- \n{p}, from my phone\n"
                inbox.add(message(address(p), body, subject=f"Re: {mail['Subject']}"))
                del latest[address(p)]
                sent += 1
        if not sent:
            break
        handled = gateway.handle_maildir(tmp_path / "inbox", site.cfg, site.outbox(), lambda: T0)
        assert len(handled) == sent
    game = site.load()
    assert game.is_over() and len(game.log) >= 6
    assert not game.differences(game.replay())
    orders = [e for e in game.log if not facts.is_fact(e)]  # (the judge's entry of the end: no message's)
    assert len(list((tmp_path / "inbox" / "cur").iterdir())) == len(orders)
    assert not list((tmp_path / "inbox" / "new").iterdir())
    finals = [m for _, m in server.mails if "Final standings" in m.get_content()]
    assert sorted(m["To"] for m in finals) == sorted([address(p) for p in NAMES] + [OBSERVER])
    answers = [m for _, m in server.mails if m["Subject"].startswith("Re:")]
    assert len(answers) == len(orders) and all("All applied." in m.get_content() for m in answers)


@pytest.mark.parametrize("rs", registry.every(), ids=lambda r: r.name)
def test_every_ruleset_plays_by_mail(tmp_path, rs):
    """The gateway knows no ruleset: the first moves of each, all given by mail."""
    site = make_site(tmp_path)
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:max(3, rs.min_players)]
    game = Game.new(rs.name, names, seed=2)
    pw = mailgame.enable(game, {p: address(p) for p in names}, [OBSERVER], now=T0)
    gamefile.create(game, site.game_path())
    for moves in range(1, 9):
        game = site.load()
        who = game.awaiting()[0]
        order = bots.choose(game, who, "random")
        sender = GM_ADDRESS if who == GM else address(who)
        gateway.handle(message(sender, f"game g1\nplayer {who} {pw[who]}\n#{game.move} {order}\n"),
                       site.cfg, site.outbox(), T0)
        mails = site.take()
        assert "All applied." in reply(mails, sender)
        if site.load().is_over():
            break
    game = site.load()
    assert len(game.log) == moves and not game.differences(game.replay())
