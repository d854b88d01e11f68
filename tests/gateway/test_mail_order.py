"""Each player's mails in the order of the game's changes, whatever runs at once (issue 35
item 2): real `judge mail` and `judge tick` processes at the same time, a real SMTP server
that records the order in which the outbox hands it the mails."""
from __future__ import annotations

import re
import subprocess
import sys

from judge.mail.outbox import compose
from judge.store import gamefile
from mailkit import GM_ADDRESS, NAMES, OBSERVER, Server, address, make_site, message, new_game, text

PRESS = re.compile(r"(?:Press from \w+ to all: |OK      press all )(\w+-\d+)")


def positions(mails, order: list[str]) -> list[int]:
    """For each mail, the places in the game's order of the press it tells of or answers."""
    return [order.index(tag) for m in mails for tag in PRESS.findall(" ".join(text(m).split("\n")))]


def test_concurrent_messages_and_ticks_reach_every_player_in_the_order_of_the_changes(tmp_path):
    """Six messages of press to all (two a player) and a `judge tick`, all at once: each
    message is one change that every player, the observer and the game master are told of,
    and each sender gets an answer echoing their press line. Every recipient must get the
    changes in the order the game made them, and a sender's answer before the news of any
    change made after their own (the answer used to be written after the game's lock was let
    go, and another run could send the next change's mail first)."""
    server = Server().start()
    try:
        site = make_site(tmp_path, server.port)
        pw, other = new_game(site), new_game(site, "g2")
        server.mails.clear()
        config = ["--config", str(site.root / "judge.toml")]
        runs = []
        for n in range(2):  # (a second block, for another game, after the press: the answer comes later)
            for p in NAMES:
                raw = message(address(p), f"game g1\nplayer {p} {pw[p]}\npress all {p}-{n}\n\n"
                                          f"game g2\nplayer {p} {other[p]}\npress all hello\n")
                runs.append((["mail", *config], raw))
        runs[3:3] = [(["tick", *config], b"")]
        procs = [subprocess.Popen([sys.executable, "-m", "judge", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for args, _ in runs]
        for proc, (_, raw) in zip(procs, runs):
            proc.stdin.write(raw)
            proc.stdin.close()
        assert [proc.wait(timeout=120) for proc in procs] == [0] * len(procs)
    finally:
        server.stop()
    order = [p["text"] for p in gamefile.load(site.game_path()).meta["press"]]
    assert sorted(order) == sorted(f"{p}-{n}" for p in NAMES for n in range(2))
    for who in [*map(address, NAMES), OBSERVER, GM_ADDRESS]:
        seen = positions(server.to(who), order)
        assert len(seen) == len(order) + (2 if who in map(address, NAMES) else 0), who
        assert seen == sorted(seen), (who, seen)


class BusyOnce(Server):
    """A server that answers the first RCPT TO of each address in `busy` with a 450."""

    async def handle_RCPT(self, server, session, envelope, addr, rcpt_options):
        if addr in self.busy:
            self.busy.discard(addr)
            return "450 4.2.1 mailbox busy, try again later"
        envelope.rcpt_tos.append(addr)
        return "250 OK"


def test_a_recipient_refused_for_now_gets_nothing_after_the_refused_mail(tmp_path):
    """A 450 for bob's first mail: his later mails wait behind it (they used to go out, so that
    bob read move 4's report before move 3's), and the others' mails go."""
    server = BusyOnce(busy={address("bob")}).start()
    try:
        site = make_site(tmp_path, server.port)
        box = site.outbox()
        for n in range(3):
            for p in NAMES:
                box.put(compose(site.cfg, address(p), f"mail {n}", f"mail {n} for {p}\n"))
        try:
            box.flush()
        except Exception:  # noqa: BLE001 - MailError: bob's wait
            pass
        assert [m["Subject"] for m in server.to(address("alice"))] == ["mail 0", "mail 1", "mail 2"]
        assert server.to(address("bob")) == []
        site.outbox().flush()
    finally:
        server.stop()
    assert [m["Subject"] for m in server.to(address("bob"))] == ["mail 0", "mail 1", "mail 2"]


def test_the_place_kept_for_an_answer_holds_its_recipients_later_mail_until_its_run_ends(tmp_path):
    site = make_site(tmp_path)
    box = site.outbox()
    place = box.keep_place(address("bob"))
    box.put(compose(site.cfg, address("bob"), "later", "later\n"))
    box.put(compose(site.cfg, address("alice"), "for alice", "for alice\n"))
    box.flush()
    assert [m["Subject"] for m in site.take()] == ["for alice"]  # bob's waits for the answer before it
    ended = subprocess.Popen(["true"])
    ended.wait()
    stamp, _, rest = place.name.partition(".place.")
    place.rename(place.with_name(f"{stamp}.place.{ended.pid}-{rest.split('-')[1]}"))  # as if a killed run's
    box.flush()
    assert [m["Subject"] for m in site.take()] == ["later"]
    assert not list(place.parent.glob("*.place"))


def test_an_answer_written_while_another_run_sends_still_comes_before_its_senders_later_mail(tmp_path):
    """The interleaving of the concurrent test's rare failure, made by hand: a run lists the
    outbox (bob's place, his change's news, the next change's news), then bob's run writes his
    answer at the place and lets the place go, then the first run comes to the place. The
    answer is not in its listing: bob's later mails must wait for a pass that sees it (they
    used to go out, so that bob read the next change's news before his answer)."""
    site = make_site(tmp_path)
    bobs, sender = site.outbox(), site.outbox()
    place = bobs.keep_place(address("bob"))
    for n in (3, 4):
        bobs.put(compose(site.cfg, address("bob"), f"news {n}", f"news {n}\n"))
    kept_for = sender._kept_for

    def answered_meanwhile(name):
        if place.exists():  # (after the listing, before the place is looked at)
            bobs.put(compose(site.cfg, address("bob"), "answer", "answer\n"), place=place)
        return kept_for(name)

    sender._kept_for = answered_meanwhile
    sender.flush()
    bobs.flush()  # bob's run sends once its answer is written
    assert [m["Subject"] for m in site.take()] == ["answer", "news 3", "news 4"]


def test_a_place_holds_its_recipients_later_mail_before_its_file_says_whose_it_is(tmp_path):
    """A place is created empty and its recipient written after: a run that looks at it in
    between still holds the recipient's later mail."""
    site = make_site(tmp_path)
    box = site.outbox()
    place = box.keep_place(address("bob"))
    place.write_bytes(b"")  # (as between its creation and the write of its recipient)
    box.put(compose(site.cfg, address("bob"), "later", "later\n"))
    box.flush()
    assert site.take() == []
    box.put(compose(site.cfg, address("bob"), "answer", "answer\n"), place=place)
    box.flush()
    assert [m["Subject"] for m in site.take()] == ["answer", "later"]
