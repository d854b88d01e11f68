"""Deadlines and grace with a fake clock: reminders, default orders, the bot for absent players."""
import json
from datetime import timedelta

import pytest

from judge.engine import bots
from judge.gateway import deadlines, inbox as gateway
from mailkit import GM_ADDRESS, NAMES, OBSERVER, T0, address, flat, make_site, message, new_game, reply, text

H = timedelta(hours=1)


@pytest.fixture
def site(tmp_path):
    s = make_site(tmp_path)
    s.passwords = new_game(s, deadline=48, grace=6, remind=12)
    s.take()
    return s


def tick(site, now):
    return deadlines.tick(site.cfg, site.outbox(), now), site.take()


def test_a_reminder_before_the_deadline_then_the_default_order_after_the_grace(site):
    late = site.load().awaiting()[0]
    assert tick(site, T0 + 35 * H) == ([], [])
    done, mails = tick(site, T0 + 36 * H)
    assert done == [f"g1: reminded {late}"] and [m["To"] for m in mails] == [address(late)]
    assert "Deadline for move 1: 2026-05-03 12:00 UTC (and 6 hours' grace after it)." in text(mails[0])
    assert tick(site, T0 + 40 * H) == ([], [])  # reminded once
    assert tick(site, T0 + 53 * H) == ([], [])  # in the grace period
    done, mails = tick(site, T0 + 54 * H)
    assert done == [f"g1: Missed order: {late} gave no order for move 1 by the deadline (2026-05-03 12:00 UTC); "
                    "the judge ordered 'pass' for them (the default order)."]
    assert {m["To"] for m in mails} == {address(p) for p in NAMES} | {OBSERVER, GM_ADDRESS}
    assert all(text(m).startswith(f"Missed order: {late} gave no order") for m in mails)
    game = site.load()
    assert game.log == [f"1 judge: missed {late} by 2026-05-03T12:00:00Z: the default order", f"1 {late} pass"]
    assert not game.differences(game.replay()) and game.audit() == []  # the judge's entry, in the log
    assert game.meta["mail"]["deadline"] == "2026-05-05T18:00:00Z"  # the next move's, from now
    journal = [json.loads(line) for line in (site.cfg.games / "g1.mail.log").read_text().splitlines()]
    assert [e["sender"] for e in journal] == ["judge tick", "judge tick"] and "Missed order" in journal[1]["outcome"]


def test_the_bot_plays_for_a_player_marked_absent(site):
    late = site.load().awaiting()[0]
    gateway.handle(message(GM_ADDRESS, f"game g1\nplayer gm {site.passwords['gm']}\nabsent {late}\n"),
                           site.cfg, site.outbox(), T0)
    assert "OK      absent" in reply(site.take(), GM_ADDRESS)
    expected = bots.choose(site.load(), late)
    done, mails = tick(site, T0 + 54 * H)
    assert f"the judge ordered '{expected}' for them (the judge's bot plays for an absent player)" in done[0]
    assert site.load().log == [f"1 judge: missed {late} by 2026-05-03T12:00:00Z: the judge's bot plays for an "
                               f"absent player", f"1 {late} {expected}"]


def test_an_order_in_time_moves_the_deadline_and_a_paused_game_waits(site):
    late = site.load().awaiting()[0]
    pw = site.passwords
    gateway.handle(message(address(late), f"game g1\nplayer {late} {pw[late]}\nbid\n"), site.cfg, site.outbox(), T0 + 10 * H)
    assert "Deadline for move 2: 2026-05-03 22:00 UTC" in reply(site.take(), address(late))
    gateway.handle(message(GM_ADDRESS, f"game g1\nplayer gm {pw['gm']}\npause\n"), site.cfg, site.outbox(), T0 + 11 * H)
    site.take()
    assert tick(site, T0 + 100 * H) == ([], [])
    gateway.handle(message(GM_ADDRESS, f"game g1\nplayer gm {pw['gm']}\nresume\n"), site.cfg, site.outbox(), T0 + 100 * H)
    assert "Deadline for move 2: 2026-05-07 16:00 UTC" in reply(site.take(), GM_ADDRESS)
    assert site.load().log == [f"1 {late} bid"]


def test_a_game_without_deadline_is_left_alone(tmp_path):
    site = make_site(tmp_path)
    new_game(site, name="slow")
    site.take()
    assert tick(site, T0 + 10000 * H) == ([], [])


def test_a_missed_secret_order_is_announced_without_its_words():
    from judge.engine.game import Game

    rumors = Game.new("rumors", ["a", "b", "c"], seed=5)
    assert deadlines._public(rumors, "bag Edison Nile") == "a secret order"  # another's roll-phase bag
    assert deadlines._public(rumors, "pass") == "'pass'"


def test_the_game_masters_reminder_does_not_promise_a_default_order(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site, deadline=48, grace=6, remind=12, ruleset="stock-round")
    site.take()
    for player in ("alice", "bob", "carol"):  # everyone passes: the operating round awaits the game master
        gateway.handle(message(address(player), f"game g1\nplayer {player} {pw[player]}\npass\n"), site.cfg, site.outbox(), T0)
    site.take()
    assert site.load().awaiting() == ["gm"]
    done, mails = tick(site, T0 + 36 * H)
    assert done == ["g1: reminded gm"] and [m["To"] for m in mails] == [GM_ADDRESS]
    body = text(mails[0])
    assert "the default order for you" not in flat(body)
    assert flat("The judge gives no default order for the game master: the game waits for you.") in flat(body)
    assert tick(site, T0 + 60 * H) == ([], [])  # and indeed: nothing is given for the game master
    assert site.load().awaiting() == ["gm"]


def test_a_player_whose_absence_runs_out_is_told_once_that_they_are_back_and_what_awaits_them(site):
    from judge.engine.report import render

    pw = site.passwords
    late = site.load().awaiting()[0]
    idle = next(p for p in NAMES if p != late)
    for player, until in ((late, "2026-05-05"), (idle, "2026-05-03")):
        gateway.handle(message(address(player), f"game g1\nplayer {player} {pw[player]}\naway until {until}\n"),
                       site.cfg, site.outbox(), T0)
    site.take()
    tick(site, T0 + 36 * H)  # the reminder
    # 2026-05-04 00:10: idle's absence has run out; the deadline (and its grace) has passed, late is away
    done, mails = tick(site, T0 + 60 * H + H / 6)
    assert done == [f"g1: back from an absence: {idle}"] and [m["To"] for m in mails] == [address(idle)]
    body = text(mails[0])
    assert mails[0]["Subject"] == "game g1: you are back, move 1"
    assert flat(body).startswith(flat("Your absence from game g1 has ended (you were away until 2026-05-03). "
                                      "The game is not waiting for an order of yours now."))
    assert render(site.load().view(idle), mail=True) in body and "Deadline for move 1: 2026-05-03 12:00 UTC" in body
    # 2026-05-06 00:10: late's has run out too; awaited past the deadline, late gets a whole new one
    done, mails = tick(site, T0 + 108 * H + H / 6)
    assert done == [f"g1: back from an absence: {late}"] and [m["To"] for m in mails] == [address(late)]
    body = text(mails[0])
    assert flat(body).startswith(flat("Your absence from game g1 has ended (you were away until 2026-05-05). "
                                      "The game is waiting for your order for move 1."))
    assert render(site.load().view(late), mail=True) in body
    assert "Deadline for move 1: 2026-05-08 00:10 UTC (and 6 hours' grace after it)." in body
    assert "You are away" not in body and "away_until" not in site.load().meta["mail"]["players"][late]
    assert site.load().log == []  # not defaulted on coming back
    assert tick(site, T0 + 108 * H + H / 3) == ([], [])  # told once
    done, _ = tick(site, T0 + 162 * H + H / 6)  # the new deadline and its grace acts as usual
    assert f"Missed order: {late} gave no order for move 1 by the deadline (2026-05-08 00:10 UTC)" in done[0]
