"""Tried as a cheating player would (issue 23): anonymous press that stays anonymous (item 6), a
password pasted in press that reaches nobody (item 7), and a Message-ID that another player
cannot pre-empt (item 8)."""
from __future__ import annotations

import os
import string
import subprocess
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.engine import bots
from judge.gateway import deadlines, inbox as gateway
from judge.mail import passwords
from judge.record import public as record
from judge.store import config as configs
from mailkit import GM_ADDRESS, OBSERVER, T0, address, flat, make_site, message, new_game, reply, text, to


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)


@pytest.fixture
def site(tmp_path):
    s = make_site(tmp_path)
    path = tmp_path / "judge.toml"
    path.write_text(path.read_text() + '[archive]\ngit = "archive"\n')
    s.cfg = configs.load(path)
    subprocess.run(["git", "init", "-q", str(tmp_path / "archive")], check=True)
    s.passwords = new_game(s)
    s.take()
    return s


def send(site, who: str, *lines: str, message_id: str | None = None, sender: str = "") -> list:
    body = f"game g1\nplayer {who} {site.passwords[who]}\n" + "".join(f"{line}\n" for line in lines)
    gateway.handle(message(sender or address(who), body, message_id=message_id), site.cfg, site.outbox(), T0)
    return site.take()


def commits(site) -> list[str]:
    """The record in each of the archive's commits, oldest first."""
    repo = site.cfg.archive
    out = []
    for sha in subprocess.run(["git", "-C", str(repo), "rev-list", "--reverse", "HEAD"], capture_output=True,
                              text=True).stdout.split():  # (none before the first change)
        shown = subprocess.run(["git", "-C", str(repo), "show", f"{sha}:mogul/g1.toml"], capture_output=True,
                               text=True, check=True).stdout
        out.append(shown)
    return out


def allow_anonymous_press(site) -> None:
    game = site.load()
    game.meta["mail"]["press"] = "anon"
    from judge.store import gamefile

    gamefile.save(game, site.game_path())


# ---- item 6: anonymous press (issue 35 item 5: held for a judge tick, batched) -----------
def tick(site, minutes: int) -> list:
    deadlines.tick(site.cfg, site.outbox(), T0 + timedelta(minutes=minutes))
    return site.take()


def test_anonymous_press_waits_a_whole_tick_and_goes_in_one_batch_in_a_commit_of_its_own(site):
    """Its commit used to land in the same second as its writer's order, and its mails right
    after that writer's reports. Now nothing of it leaves with the message: the next judge
    tick holds it, the one after sends all that the ticks held, whoever wrote it, one mail per
    recipient, the lines in alphabetical order, in a commit of its own."""
    allow_anonymous_press(site)
    game = site.load()
    first = game.awaiting()[0]
    other = next(p for p in game.players if p != first)
    before = len(commits(site))
    mails = send(site, first, "press anon all who bids next?", f"#{game.move} {bots.choose(game, first)}")
    assert "All applied." in reply(mails, address(first))
    assert not [m for m in mails if "who bids next?" in text(m) and not m["Subject"].startswith("Re:")]
    mails = send(site, other, "press anon all a rumour", f"press anon {first} psst")
    assert [m["To"] for m in mails] == [address(other)]  # the answer alone
    assert tick(site, 1) == [] and len(commits(site)) == before + 1  # held: nothing sent, nothing committed
    late = send(site, other, "press anon all zebra")  # after the first tick: waits for the next but one
    assert [m["To"] for m in late] == [address(other)]
    mails = tick(site, 11)
    everyone = sorted([*map(address, game.players), OBSERVER, GM_ADDRESS])
    assert sorted(m["To"] for m in mails) == everyone  # one mail each
    for m in mails:
        body = text(m)
        assert body.index("a rumour") < body.index("who bids next?") and "zebra" not in body
        assert first not in body and other not in body  # (the mail names no writer)
        assert ("psst" in body) == (m["To"] == address(first))
    archived = commits(site)[before:]
    assert len(archived) == 2  # the order, then the press at the tick: never in one commit
    assert "who bids next?" not in archived[0] and "who bids next?" in archived[1] and "zebra" not in archived[1]
    assert 'from = "anonymous"' in archived[1]
    mails = tick(site, 21)
    assert sorted(m["To"] for m in mails) == everyone and all("zebra" in text(m) for m in mails)
    assert "press_pending" not in site.load().meta["mail"]


def test_anonymous_press_is_never_in_the_mail_that_says_who_is_away(site):
    allow_anonymous_press(site)
    mails = send(site, "carol", "away until 2026-05-09", "press anon all boo", "press anon bob psst")
    assert "All applied." in reply(mails, address("carol"))
    mails += tick(site, 1) + tick(site, 11)
    for m in mails:
        if m["To"] != address("carol") or not m["Subject"].startswith("Re:"):
            body = text(m)
            assert not ("carol is away" in body and ("boo" in body or "psst" in body)), body
    assert [m for m in to(mails, address("bob")) if "psst" in text(m) and "to you only" in text(m)]
    assert not [m for m in to(mails, address("alice")) if "psst" in text(m)]


def test_anonymous_press_in_a_refused_block_is_not_sent(site):
    allow_anonymous_press(site)
    mails = send(site, "carol", "press anon all boo", "zzz")
    assert "Nothing was applied" in reply(mails, address("carol"))
    assert "press_pending" not in site.load().meta["mail"]
    assert tick(site, 1) + tick(site, 11) == []


# ---- item 7: a password pasted in press ---------------------------------------------------
def test_a_password_pasted_in_press_reaches_no_mail_record_or_commit(site):
    secret = site.passwords["alice"]
    mails = send(site, "alice", f"press all my password is {secret} oops", f"press bob {secret}",
                 "set password kangaroo-river-42", "press all new one: kangaroo-river-42")
    assert "All applied." in reply(mails, address("alice"))
    for m in mails:
        assert secret not in text(m) and "kangaroo-river-42" not in text(m), (m["To"], text(m))
    assert any("my password is ******** oops" in text(m) for m in to(mails, address("bob")))
    game = site.load()
    public = record.text(game, "g1")
    assert secret not in public and "kangaroo-river-42" not in public and "********" in public
    assert not any(secret in c or "kangaroo-river-42" in c for c in commits(site))


@pytest.mark.parametrize("line", ["press all ({pw})", "press all {pw}.", "press all try again:{PW}!",
                                  "press bob [{pw}]", "press bob my password:{Pw}", "press all x{pw}y"])
def test_a_password_in_press_is_hidden_whatever_stands_around_it(site, line):
    """Issue 35: only a password standing alone between spaces was hidden; `press all (PW)`
    reached every player and the public record."""
    secret = site.passwords["alice"]
    written = line.format(pw=secret, PW=secret.upper(), Pw=secret.capitalize())
    mails = send(site, "alice", written)
    assert "All applied." in reply(mails, address("alice"))
    assert len([m for m in mails if m["To"] != address("alice")]) >= 1
    for m in mails:
        assert secret not in text(m).lower(), (m["To"], text(m))
    assert "********" in text(to(mails, address("bob"))[-1])
    game = site.load()
    assert secret not in record.text(game, "g1").lower() and secret not in str(game.meta.get("press")).lower()


SURROUNDING = st.text(alphabet=string.ascii_letters + string.digits + string.punctuation + " ", max_size=6)


@settings(max_examples=int(os.environ.get("JUDGE_PASSWORD_EXAMPLES", "25")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=SURROUNDING, after=SURROUNDING, upper=st.lists(st.booleans(), min_size=10, max_size=10),
       to_all=st.booleans())
# Cost (9 s): hypothesis builds the mail around a password; each example is a whole mail
# through the gateway.
def test_no_password_leaves_in_press_whatever_surrounds_it(site, before, after, upper, to_all):
    """Property: the sender's password, in any case and with anything around it (punctuation,
    brackets, letters, nothing), reaches no other player's mail nor the public record."""
    secret = site.passwords["alice"]
    cased = "".join(c.upper() if u else c for c, u in zip(secret, upper))
    mails = send(site, "alice", f"press {'all' if to_all else 'bob'} {before}{cased}{after}")
    assert "All applied." in reply(mails, address("alice"))
    sent = [m for m in mails if m["To"] != address("alice")]
    assert sent and all(secret not in text(m).lower() for m in sent), [text(m) for m in sent]
    game = site.load()
    assert secret not in record.text(game, "g1").lower() and secret not in str(game.meta.get("press")).lower()


# ---- item 8: a Message-ID pre-empted ------------------------------------------------------
def test_another_players_message_id_sent_first_does_not_stop_the_real_message(site):
    game = site.load()
    first = game.awaiting()[0]
    other = next(p for p in game.players if p != first)
    mid = "<future-message@players.test>"
    mails = send(site, other, "help", message_id=mid)  # bob writes first, from his own address
    assert "All applied." in reply(mails, address(other))
    order = f"#{game.move} {bots.choose(game, first)}"
    mails = send(site, first, order, message_id=mid)
    answer = reply(mails, address(first))
    assert "All applied." in answer and "handled before" not in flat(answer)
    assert len(site.load().log) == len(game.log) + 1
    mails = send(site, first, order, message_id=mid)  # the same message delivered again: known
    assert mails == [] and len(site.load().log) == len(game.log) + 1
