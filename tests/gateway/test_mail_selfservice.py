"""Players serve themselves by mail (judge/gateway/selfservice.py), through `judge mail` and `judge tick`
with a real Maildir of incoming mail and a real SMTP server: help, catching up, absence,
resigning, press, their own settings, late notices and an agreed end, in a game of every
ruleset; and no mail, log or file holds a secret or an address where it does not belong."""
import mailbox
import re
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from judge.engine import bots
from judge.store import gamefile
from judge.cli import app
from judge.mail import passwords
from judge.mail.mailgame import parse_time
from judge.engine.ruleset import GM
from mailkit import GM_ADDRESS, JUDGE, T0, Server, address, flat, make_site, message
from registry import every_name

runner = CliRunner()
H = timedelta(hours=1)
NEW_BOB = "bob.new@elsewhere.test"


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)  # each hash keeps its cost: these tests check no password


@pytest.fixture
def server():
    s = Server().start()
    yield s
    s.stop()


def body(mail) -> str:
    return mail.get_content().replace("\r\n", "\n")


class Table:
    """A mail game of `ruleset` for alice, bob and carol on a judge site sending by SMTP."""

    def __init__(self, root, server, ruleset, *new_args):
        self.site, self.server, self.inbox = make_site(root, smtp_port=server.port), server, root / "in"
        for sub in ("tmp", "new", "cur"):
            (self.inbox / sub).mkdir(parents=True, exist_ok=True)
        self.now = T0
        out = self.judge("new", ruleset, str(self.site.game_path()), *[f"-p{p}={address(p)}" for p in ("alice", "bob", "carol")],
                         "--seed", "3", "--deadline", "48", "--remind", "0", *new_args)
        self.pw = dict(re.findall(r"^  (\w+): (\w+)", out, re.M))
        self.secrets = set(self.pw.values())
        self.addresses = {p: address(p) for p in ("alice", "bob", "carol")}
        self.sent = 0
        for to, m in self.mails():  # the welcomes: each with its own player's password only
            assert [p for p, pw in self.pw.items() if pw in body(m)] == [p for p, a in self.addresses.items() if a == to]

    def judge(self, *args, stdin=None) -> str:
        site = ["--config", str(self.site.root / "judge.toml"), "--now", self.now.isoformat()]
        result = runner.invoke(app, [*args, *(site if args[0] in ("new", "mail", "tick") else [])], input=stdin)
        assert result.exit_code == 0, result.output
        return result.output

    def mails(self) -> list:
        """(recipient, mail) of everything the server took since the last call."""
        new = [(to[0], m) for to, m in self.server.mails[self.sent:]]
        self.sent = len(self.server.mails)
        return new

    def write(self, who: str, *lines: str, sender: str = "") -> dict:
        """A message from `who` through the Maildir; {recipient: [bodies]} of what went out."""
        lines = f"game g1\nplayer {who} {self.pw[who]}\n" + "".join(f"{line}\n" for line in lines)
        sender = sender or (GM_ADDRESS if who == GM else self.addresses[who])
        box = mailbox.Maildir(str(self.inbox))
        box.add(message(sender, lines))
        self.judge("mail", "--maildir", str(self.inbox))
        out = {}
        for to, m in sorted(self.mails(), key=lambda x: not str(x[1]["Subject"]).startswith("Re:")):  # answers first
            out.setdefault(to, []).append(body(m))
            self.check_private(to, m)
        return out

    def tick(self) -> dict:
        """`judge tick`; {recipient: [bodies]} of what went out."""
        self.judge("tick")
        out = {}
        for to, m in self.mails():
            out.setdefault(to, []).append(body(m))
            self.check_private(to, m)
        return out

    def answer(self, who: str, *lines: str, **kw) -> tuple[str, dict]:
        out = self.write(who, *lines, **kw)
        mine = kw.get("sender") or (GM_ADDRESS if who == GM else self.addresses[who])
        assert mine in out, {k: v[0][:300] for k, v in out.items()}
        return out[mine][0], out

    def check_private(self, to: str, mail) -> None:
        """No password anywhere; no player's address in another's mail (the game master sees all)."""
        text = body(mail) + str(mail["Subject"])
        assert not any(s in text for s in self.secrets), (to, text)
        if to != GM_ADDRESS:
            others = {a for a in self.addresses.values() if a != to} - set(re.findall(r"[\w.]+@[\w.]+", to))
            confirming = "your new address" in text or "your address was changed" in text
            assert confirming or not any(a in text for a in others), (to, text)

    def game(self):
        return self.site.load()

    def ends_game(self) -> bool:
        """Whether the order `play_one` would give next ends the game."""
        game = self.game()
        who = game.awaiting()[0]
        trial = game.copy()
        trial.submit(who, [bots.choose(game, who)])
        return trial.is_over()

    def play_one(self) -> None:
        """The first awaited player (or the game master) gives the bot's order by mail."""
        game = self.game()
        who = game.awaiting()[0]
        order = bots.choose(game, who)
        text, _ = self.answer(who, f"#{game.move} {order}")
        assert "All applied." in text, text


# Cost (up to 10 s, stock-round): a whole mail game in which every self-service line is sent
# at some point; the game has to reach the moves where each line means something.
@pytest.mark.parametrize("ruleset", every_name())
def test_a_mail_game_where_players_serve_themselves(ruleset, tmp_path, server):
    t = Table(tmp_path, server, ruleset)
    # help and rules, as `judge help` writes them
    text, _ = t.answer("alice", "help", "rules")
    assert "OK      help\n  OK      rules\n" in text and "Orders" in text and "Rules in short" in text
    # a time zone: deadlines in it with UTC beside; an unknown one refused clearly
    text, _ = t.answer("alice", "set zone Mars/Olympus")
    assert "REFUSED \"set zone Mars/Olympus\": unknown time zone 'Mars/Olympus'" in text
    text, _ = t.answer("alice", "set zone Europe/Berlin")
    assert "Deadline for move 1: 2026-05-03 14:00 CEST (2026-05-03 12:00 UTC)." in text
    # press: to one, to all; anonymous only once the game master allows it
    _, out = t.answer("alice", "press bob shall we share the bank?")
    assert "Press in game g1 from alice, to you only:\n\n  shall we share the bank?" in out[address("bob")][0]
    assert set(out) == {address("alice"), address("bob")}
    _, out = t.answer("bob", "press all good luck everyone")
    assert all("Press from bob to all: good luck everyone" in out[address(p)][0] for p in ("alice", "carol"))
    text, _ = t.answer("carol", "press anon all boo")
    assert "NOT SENT \"press anon all boo\": the game master does not allow anonymous press" in flat(text)
    t.answer(GM, "set press anon")
    _, out = t.answer("carol", "press anon all boo")
    assert list(out) == [address("carol")]  # the answer only: the press waits through a judge tick
    assert t.tick() == {}
    out = t.tick()
    assert flat("Press in game g1 from anonymous players, to all (in alphabetical order, not in the order it "
                "was written): boo") in flat(out[address("alice")][0])
    assert not any("carol" in body.split("\n")[0] for bodies in out.values() for body in bodies
                   if "anonymous" in body)
    record = t.judge("export", str(t.site.game_path()), "-")
    assert "good luck everyone" in record and "share the bank" not in record and 'from = "anonymous"' in record
    # a new password, confirmed to the player; the old one stops working
    t.secrets.add("kangaroo-river-42")
    text, out = t.answer("alice", "set password kangaroo-river-42")
    assert "  OK      set password ********\n" in text
    assert any("was changed as you asked" in b for b in out[address("alice")])
    old = t.pw["alice"]
    t.pw["alice"] = "kangaroo-river-42"
    assert "All applied." in t.answer("alice", "set mail all")[0]
    t.pw["alice"] = old
    assert "password for game g1 is not right" in t.answer("alice")[0]
    t.pw["alice"] = "kangaroo-river-42"
    # a new address: a code to the new address, sent back from the old one
    text, out = t.answer("bob", "set address " + NEW_BOB)
    code = re.search(r"confirm (\w+)", out[NEW_BOB][0])[1]
    assert "A code was mailed to " + NEW_BOB in text and code not in text
    assert "not the code" in t.answer("bob", "confirm 00000000")[0]
    _, out = t.answer("bob", f"confirm {code}")
    assert all(any("now goes to " + NEW_BOB in b for b in out[a]) for a in (address("bob"), NEW_BOB))
    t.addresses["bob"] = NEW_BOB
    assert "All applied." in t.answer("bob", "set mail all")[0]
    # away: the others are told until when, nothing more; the deadline waits for the player
    game = t.game()
    away = game.awaiting()[0]
    until = (T0 + 5 * 24 * H).date().isoformat()
    text, out = t.answer(away, f"away until {until}")
    assert f"You are away until {until}: the judge waits for you until then." in flat(text)
    others = [p for p in ("alice", "bob", "carol") if p != away]
    assert all(out[t.addresses[p]][0].startswith(f"{away} is away until {until}.\n\n") for p in others)
    t.now = T0 + 60 * H  # past the deadline: the away player is not defaulted
    assert t.judge("tick") == ""
    text, out = t.answer(away, "back")
    assert all(out[t.addresses[p]][0].startswith(f"{away} is back.") for p in others)
    assert "an absence may last at most 14 days" in t.answer(away, "away until 2026-06-30")[0]
    # resigning: announced to all; the bot plays that seat's turns from now on
    _, out = t.answer("carol", "set mail turn", "resign")
    assert all("carol has resigned" in out[t.addresses[p]][0] for p in ("alice", "bob"))
    assert "carol" not in t.game().awaiting()
    # up to thirty moves of orders by mail (not the last: whatever the ruleset and seed, the game
    # goes on); carol gets nothing, then catches up from one report
    start = t.game().move
    while t.game().move < start + 30 and not t.ends_game():
        t.play_one()
        t.mails()
    assert t.game().move > start
    assert t.game().meta["mail"]["players"]["carol"].get("last_report", 1) <= start
    t.answer("carol", "set mail all")
    t.play_one()
    carol = [body(m) for to, m in t.server.mails if to == [address("carol")]][-1]
    assert f"Since your last report (move {start}" in carol and "report for carol" in carol
    # history and a past report
    text, _ = t.answer("alice", f"history {start}", f"report {start}")
    assert f"Moves since move {start}" in text and f"Your report at move {start}:" in text
    # late notices and the missed count
    game = t.game()
    late = [p for p in game.awaiting() if p != GM]
    if late:
        t.now = t.now + 60 * H
        t.judge("tick")
        told = [body(m) for to, m in t.mails() if to == GM_ADDRESS]
        assert any(f"Late at the deadline of move {game.move}: " in b for b in told)
        assert t.game().meta["mail"]["players"][late[0]]["missed"] == 1
    # an agreed end: those still in agree (carol has resigned); the game master is told
    if not t.game().is_over():
        t.answer("alice", "propose end")
        _, out = t.answer("bob", "agree end")
        assert any("agreed to end the game" in b for b in out[GM_ADDRESS])
        assert t.game().is_over() and t.game().log[-2].endswith(" gm end by agreement")  # (then the end's time)
        assert "game is over" in t.answer("alice", "propose end")[0]
    assert t.judge("verify", str(t.site.game_path())).strip()
    game_file = t.site.game_path().read_text()
    assert not any(s in game_file for s in t.secrets)
    for log in t.site.cfg.games.glob("*.log"):
        assert not any(s in log.read_text() for s in t.secrets), log


def test_a_player_who_misses_deadlines_is_marked_absent_and_weekends_can_be_skipped(tmp_path, server):
    t = Table(tmp_path, server, "mogul")
    t.answer(GM, "set skip_weekends yes", "set absent_after 2")
    late, missed = t.game().awaiting()[0], 0
    while missed < 2:
        if t.game().awaiting()[0] != late:
            t.play_one()
            continue
        move = t.game().move
        t.now += 24 * 7 * H
        t.judge("tick")
        missed += 1
        told = {to: body(m) for to, m in t.mails()}
        assert f"Late at the deadline of move {move}: {late}." in told[address("bob" if late != "bob" else "alice")]
    assert f"{late} has missed 2 deadlines and is marked absent" in told[GM_ADDRESS]
    assert t.game().meta["mail"]["absent"] == [late]
    assert t.game().meta["mail"]["players"][late]["missed"] == 2
    # deadlines count Monday to Friday only: 12 hours from a Friday evening end on Monday
    from judge.mail.settings import weekday_deadline

    assert weekday_deadline(T0.replace(day=8, hour=18), 12).isoformat() == "2026-05-11T06:00:00+00:00"
    deadline = t.game().meta["mail"]["deadline"]
    assert parse_time(deadline).weekday() < 5


def test_judge_new_skip_weekends_puts_the_first_deadline_on_a_weekday(tmp_path, server):
    t = Table(tmp_path, server, "mogul", "--skip-weekends")  # 48 hours from Friday 2026-05-01 12:00
    assert t.game().meta["mail"]["deadline"] == "2026-05-05T12:00:00Z"


def test_a_message_without_a_block_gets_a_how_to_with_an_example(tmp_path, server):
    t = Table(tmp_path, server, "mogul")
    mailbox.Maildir(str(t.inbox)).add(message(address("alice"), "what do I do?\n"))
    t.judge("mail", "--maildir", str(t.inbox))
    (to, mail), = [x for x in t.mails() if x[0] == address("alice")]
    assert "For example:\n  game friday\n  player alice YOURPASSWORD\n  #12 bid" in body(mail)
    assert JUDGE in str(mail["From"])


def test_press_off_from_judge_new_and_the_game_masters_status(tmp_path, server):
    t = Table(tmp_path, server, "rumors", "--press", "off")
    text, _ = t.answer("alice", "press all hello")
    assert 'NOT SENT "press all hello": the game master does not allow press in this game' in flat(text)
    t.answer(GM, "pause")
    awaited = t.game().awaiting()
    t.answer(awaited[0], "resign")  # the bot waits for the game to resume
    assert t.game().awaiting() == awaited and t.game().log == [f"1 judge: resigned {awaited[0]}"]
    t.answer(GM, "resume")
    assert awaited[0] not in t.game().awaiting() and len(t.game().log) >= 1
    text, _ = t.answer(GM, "status")
    assert f"{awaited[0]} <{address(awaited[0])}> (resigned)" in text
    second, last = [p for p in ("alice", "bob", "carol") if p != awaited[0]]
    t.answer(second, "resign")
    text, _ = t.answer(last, "resign")
    assert "REFUSED \"resign\": nobody else is still in the game: end it with 'propose end'" in flat(text)
    _, out = t.answer(last, "propose end")
    assert any("agreed to end the game" in b for b in out[GM_ADDRESS]) and t.game().is_over()
    text, _ = t.answer(GM, "set press loud")
    assert 'REFUSED "set press loud": write one of off, on, anon' in text
    def kept():  # all but the Message-IDs remembered against duplicates
        game = t.game()
        del game.meta["mail"]["seen"]
        return game.to_dict()

    before = kept()
    for line in ("set zone", "away until tomorrow", "history 99999", "report 0", "agree end", "confirm 1234",
                 "set mail sometimes", "set address not-an-address"):
        text, _ = t.answer("alice", line)
        assert f'REFUSED "{line}": ' in text and "Nothing was applied" in text, text
    text, _ = t.answer("alice", "press carol")  # press is no order: not sent, alone
    assert 'NOT SENT "press carol": ' in text and "Nothing to apply." in text, text
    assert kept() == before


def test_a_hand_edited_setting_is_refused_with_its_reason(tmp_path, server):
    t = Table(tmp_path, server, "mogul")
    path = t.site.game_path()
    path.write_text(path.read_text().replace('address = "alice@players.test"',
                                             'address = "alice@players.test"\nzone = "Mars/Olympus"'))
    with pytest.raises(Exception, match="players.alice holds a bad date or time zone"):
        from judge.mail.mailgame import MailGame

        MailGame(gamefile.load(path), "g1")


@pytest.mark.parametrize("name", every_name())
def test_no_self_service_word_hides_an_order_word(name):
    from judge.engine import ruleset
    from judge.gateway.selfservice import COMMANDS

    assert not set(COMMANDS) & set(getattr(ruleset.get(name), "verbs", ()))


def test_a_mail_game_file_of_an_earlier_judge_takes_the_new_lines(tmp_path, server):
    """A game file written before self-service (never edited: copied) loads, and its players
    use the new lines; only the copy's password hash is set here, to write as alice."""
    from pathlib import Path

    from judge.mail.passwords import hash_password

    site = make_site(tmp_path, smtp_port=server.port)
    game = gamefile.load(Path(__file__).parents[1] / "golden/files/2026-11-22/mogul.toml")
    game.meta["mail"]["players"]["alice"]["password"] = hash_password("old-file-pw")
    gamefile.create(game, site.game_path())
    (tmp_path / "in" / "new").mkdir(parents=True)
    for sub in ("tmp", "cur"):
        (tmp_path / "in" / sub).mkdir()
    mailbox.Maildir(str(tmp_path / "in")).add(message(address("alice"), "game g1\nplayer alice old-file-pw\n"
                                                      "set zone Asia/Tokyo\npress all hello from an old game\nrules\n"))
    result = runner.invoke(app, ["mail", "--maildir", str(tmp_path / "in"), "--config", str(site.root / "judge.toml"),
                                 "--now", T0.isoformat()])
    assert result.exit_code == 0, result.output
    answer = [body(m) for to, m in server.mails if to == [address("alice")] and str(m["Subject"]).startswith("Re:")]
    assert "All applied." in answer[0] and "Rules in short" in answer[0]
    assert any("Press from alice to all: hello from an old game" in body(m) for to, m in server.mails
               if to == [address("dave")])
    assert site.load().meta["mail"]["players"]["alice"]["zone"] == "Asia/Tokyo"
