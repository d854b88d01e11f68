"""The mail gateway as players and the game master meet it: replies, reports, refusals."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from judge.gateway import inbox as gateway
from judge.engine.errors import MailError
from judge.engine.game import Game
from mailkit import (address, block as orders, flat, GM_ADDRESS, killed_before_answering, make_site, message, NAMES,
                     new_game, OBSERVER, reply, send, T0, text, to)


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


def test_orders_are_echoed_applied_and_the_changed_reports_go_out(site):
    pw = new_game(site)
    site.take()
    game = Game.new("mogul", NAMES, seed=1)
    first = game.awaiting()[0]
    mails = send(site, message(address(first), orders(first, pw[first], "#1 BID")))
    answer = next(m for m in to(mails, address(first)) if m["Subject"] == "Re: orders (game g1)")
    assert answer["In-Reply-To"] and answer["Auto-Submitted"] == "auto-replied"
    body = text(answer)
    assert "OK      bid" in body and "All applied." in body and "move 2: waiting for" in body
    assert "Deadline" not in body or "No deadline." in body
    # every player's report changed (the pot), the observer gets the public one
    reports = [m for m in mails if "report" in m["Subject"]]
    assert sorted(m["To"] for m in reports) == sorted([address(p) for p in NAMES] + [OBSERVER])
    public = text(to(mails, OBSERVER)[0])
    assert "public report, move 2" in public and "[" not in public.split("Player")[1].split("Waiting")[0]
    assert site.load().log == [f"1 {first} bid"]


def test_one_refused_order_refuses_the_whole_block_with_the_exact_error(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    mails = send(site, message(address(first), orders(first, pw[first], "if winner take", "sell 9", "pass")))
    assert len(mails) == 1  # the reply only: no report changed
    body = text(mails[0])
    assert "OK      if winner take\n" in body
    assert 'REFUSED illegal order "sell 9": the auction is on' in body
    assert "SKIPPED pass" in body and "Nothing was applied" in body and "move 1: waiting for" in body
    mails = send(site, message(address(first), orders(first, pw[first], "sell 9")))
    assert 'REFUSED illegal order "sell 9": the auction is on: bid or pass' in text(mails[0])
    assert site.load().log == []
    last = json.loads((site.cfg.games / "g1.mail.log").read_text().splitlines()[-1])
    assert last["lines"] == ["sell 9"] and last["results"] == ['REFUSED illegal order "sell 9": the auction is on: bid or pass']


def test_wrong_password_forged_sender_and_unknown_game_are_refused_politely(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    other = next(p for p in NAMES if p != first)
    not_right = "password for game g1 is not right, or this message does not come from that player's registered address"
    cases = [
        (address(first), orders(first, "wrong-password", "bid"), not_right),
        ("mallory@evil.test", orders(first, pw[first], "bid"), not_right),  # the same words: nothing to probe
        (address(other), orders(first, pw[first], "bid"), not_right),
        (address(first), orders(first, pw[first], "bid", game="nosuch"), "there is no game called 'nosuch'"),
        (address(first), orders(first, pw[first], "bid", game="../g1"), "there is no game called '../g1'"),
        (address(first), "just chatting\n", "It has no 'game NAME' line"),
    ]
    before = site.game_path().read_bytes()
    for sender, body, refusal in cases:
        mails = send(site, message(sender, body))
        answer = [m for m in mails if m["To"] == sender]
        assert len(answer) == 1 and refusal in flat(text(answer[0])) and "Nothing" in text(answer[0])
        assert pw[first] not in text(answer[0])
        # the right password from another address: its owner is told, and nobody else
        alerts = [m for m in mails if m["To"] != sender]
        if sender != address(first) and pw[first] in body:
            assert [m["To"] for m in alerts] == [address(first)]
            assert f"came from {sender}, not from your address" in flat(text(alerts[0])) and pw[first] not in text(alerts[0])
        else:
            assert alerts == []
    assert site.game_path().read_bytes() == before
    journal = [json.loads(line) for line in (site.cfg.games / "g1.mail.log").read_text().splitlines()]
    assert [e["sender"] for e in journal] == [address(first), "mallory@evil.test", address(other)]
    assert all(e["outcome"].startswith("refused") and "message_id" in e and "time" in e for e in journal)
    assert pw[first] not in (site.cfg.games / "g1.mail.log").read_text()
    assert "unknown game" in (site.cfg.games / "mail.log").read_text()


def test_a_reply_full_of_quoted_text_and_a_signature_gives_only_its_orders(site):
    pw = new_game(site)
    welcome = {m["To"]: m for m in site.take()}
    first = site.load().awaiting()[0]
    quoted = "".join(f"> {line}\n" for line in text(welcome[address(first)]).splitlines())
    body = f"Hello,\n\nplayer {first} {pw[first]}\npass\n\n-- \n{first}\nbid\nsell 3\n\nOn Friday the judge wrote:\n{quoted}"
    mails = send(site, message(address(first), body, subject=f"Re: {welcome[address(first)]['Subject']}"))
    body = reply(mails, address(first))
    assert "OK      pass\nAll applied." in body and "lines):\n  Hello,\n" in body
    assert site.load().log == [f"1 {first} pass"]


def test_the_same_message_delivered_twice_is_applied_once_and_answered_once(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, pw[first], "bid"), message_id="<once@players.test>")
    first_answer = reply(send(site, raw), address(first))
    assert "OK      bid\nAll applied." in first_answer
    assert send(site, raw) == []  # its answer went out: nothing again
    assert site.load().log == [f"1 {first} bid"]
    logged = (site.cfg.games / "mail.log").read_text()
    assert "duplicate: handled before, and its answer went out at" in logged


def test_a_message_whose_run_died_before_answering_gets_its_first_answer_when_delivered_again(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, pw[first], "bid"), message_id="<once@players.test>")
    mails = killed_before_answering(site, raw)
    assert mails == [] and site.load().log == [f"1 {first} bid"]  # applied; its reports wait in the outbox
    again = send(site, raw)
    assert "OK      bid\nAll applied." in reply(again, address(first))  # the answer of the first run
    assert site.load().log == [f"1 {first} bid"]
    assert "its answer queued again" in (site.cfg.games / "g1.mail.log").read_text()
    assert send(site, raw) == []


def test_a_new_message_that_reuses_a_message_id_is_a_new_message(site):
    """Issue 44 item 5: bob's `#4 pass` sent with the Message-ID of his earlier `bid` got the
    old "All applied" and was dropped. A block is the same only if its content is the same."""
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    assert "All applied." in reply(send(site, message(address(first), orders(first, pw[first], "#1 bid"),
                                                      message_id="<reused@players.test>")), address(first))
    for move in (2, 3):
        player = site.load().awaiting()[0]
        send(site, message(address(player), orders(player, pw[player], f"#{move} bid")))
    assert site.load().awaiting() == [first]
    again = reply(send(site, message(address(first), orders(first, pw[first], "#4 pass"),
                                     message_id="<reused@players.test>")), address(first))
    assert "OK      pass\nAll applied." in again and "handled before" not in again
    assert site.load().log[-1] == f"4 {first} pass"


def test_a_block_handled_by_an_earlier_judge_is_still_known_when_delivered_again(site):
    """Earlier judges kept a block's key without the message's content: a message they handled
    (killed before its answer) and delivered again after the upgrade is not applied twice."""
    from judge.gateway import parse as mailparse
    from judge.mail.mailgame import message_key
    from judge.store import gamefile

    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, pw[first], "bid"), message_id="<before@players.test>")
    killed_before_answering(site, raw)
    new = message_key(f"<before@players.test>\n{mailparse.read(raw).fingerprint}", 0, address(first))
    old = message_key("<before@players.test>", 0, address(first))
    game = site.load()
    game.meta["mail"]["seen"] = [old if k == new else k for k in game.meta["mail"]["seen"]]
    gamefile.save(game, site.game_path())
    replies = site.cfg.games / ".mail" / "replies"
    (replies / f"g1.{new}").rename(replies / f"g1.{old}")
    assert "OK      bid\nAll applied." in reply(send(site, raw), address(first))  # its first answer
    assert site.load().log == [f"1 {first} bid"]


def test_oversized_and_binary_messages_are_refused_cleanly(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    before = site.game_path().read_bytes()
    big = message(address(first), orders(first, pw[first], "bid") + "x" * (1024 * 1024 + 1))
    mails = send(site, big)
    assert len(mails) == 1 and "larger than 1024 KB" in text(mails[0])
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["Subject"], msg["Message-ID"] = address(first), "orders", "<bin@players.test>"
    msg.set_content(orders(first, pw[first], "bid"))
    msg.add_attachment(bytes(range(256)), maintype="application", subtype="octet-stream", filename="a.bin")
    mails = send(site, bytes(msg))
    assert len(mails) == 1 and "binary part (application/octet-stream)" in flat(text(mails[0]))
    assert site.game_path().read_bytes() == before


def test_automatic_mail_gets_no_answer(site):
    new_game(site)
    site.take()
    bounced = send(site, message("MAILER-DAEMON@players.test", "game g1\n"))
    assert [m["To"] for m in bounced] == [GM_ADDRESS]  # the sender is never answered, the game master told
    assert send(site, message("judge@judge.test", "game g1\n")) == []


def test_the_game_master_by_mail(site):
    pw = new_game(site)
    site.take()
    gm = lambda *lines: send(site, message(GM_ADDRESS, orders("gm", pw["gm"], *lines)))
    first = site.load().awaiting()[0]
    # a wrong master password changes nothing
    mails = send(site, message(GM_ADDRESS, orders("gm", pw[first], "pause")))
    assert "not right" in text(mails[0])
    mails = gm("status")
    assert len(mails) == 1 and "game master's report, move 1" in text(mails[0]) and "Cards left in the pile 28\nThe pile, top card first:" in text(mails[0])
    assert f"Players: alice <{address('alice')}>, bob <{address('bob')}>" in text(mails[0])
    assert f"Observers: {OBSERVER}" in text(mails[0])
    mails = gm("pause")
    notices = [m for m in mails if m["To"] != GM_ADDRESS or "report" in m["Subject"]]
    assert {m["To"] for m in notices} >= {address(p) for p in NAMES} | {OBSERVER}
    assert all("The game master has paused the game." in text(m) for m in notices)
    refused = send(site, message(address(first), orders(first, pw[first], "bid")))
    assert "the game is paused by the game master" in text(refused[0])
    gm("resume")
    # orders for any player, and absent / present, replace
    mails = gm(f"as {first} bid", "absent carol")
    assert "OK      as " + first + ": bid" in reply(mails, GM_ADDRESS)
    game = site.load()
    assert game.log == [f"1 {first} bid"] and game.meta["mail"]["absent"] == ["carol"]
    mails = gm("present carol", "replace bob bob2@new.test")
    welcome = [m for m in to(mails, "bob2@new.test") if "welcome" in m["Subject"]]
    assert len(welcome) == 1 and "Your password: " in text(welcome[0])
    new_pw = text(welcome[0]).split("Your password: ")[1].split()[0]
    game = site.load()
    assert game.meta["mail"]["absent"] == [] and game.meta["mail"]["players"]["bob"]["address"] == "bob2@new.test"
    old = send(site, message(address("bob"), orders("bob", pw["bob"], "pass")))
    assert "not right" in text(old[0])
    now_ok = send(site, message("bob2@new.test", orders("bob", new_pw)))
    assert "Nothing to apply." in text(now_ok[0]) and "report for bob" in text(now_ok[0])
    # all or none: a bad command refuses the earlier ones too
    mails = gm("pause", "absent nobody")
    assert "unknown player" in text(mails[0]) and not site.load().meta["mail"]["paused"]
    mails = gm("replace carol carol@x.test, mallory@evil.test")
    assert 'REFUSED "replace carol carol@x.test, mallory@evil.test": write replace PLAYER NEW_ADDRESS' in flat(text(mails[0]))


def test_secrets_never_reach_reports_or_replies(site):
    pw = new_game(site)
    every = site.take()
    first = site.load().awaiting()[0]
    every += send(site, message(address(first), orders(first, pw[first], "bid")))
    every += send(site, message(GM_ADDRESS, orders("gm", pw["gm"], "status")))
    hashes = [v["password"] for v in site.load().meta["mail"]["players"].values()]
    for m in every:
        body = text(m)
        assert "scrypt$" not in body and pw["gm"] not in body
        assert all(h not in body for h in hashes)
        assert [p for p in NAMES if pw[p] in body] in ([], [m["To"].split("@")[0]])  # only one's own, at welcome


def test_two_deliveries_for_the_same_game_at_the_same_moment_are_both_applied(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    raws = [message(address(first), orders(first, pw[first], "bid")),
            message(GM_ADDRESS, orders("gm", pw["gm"], "absent carol"))]
    cmd = [sys.executable, "-m", "judge", "mail", "--config", str(site.root / "judge.toml")]
    procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in raws]
    for p, raw in zip(procs, raws):
        p.stdin.write(raw)
        p.stdin.close()
    for p in procs:
        assert p.wait(timeout=60) == 0, p.stderr.read()
    game = site.load()
    assert game.log == [f"1 {first} bid"] and game.meta["mail"]["absent"] == ["carol"]
    assert len(game.meta["mail"]["seen"]) == 2
    assert not game.differences(game.replay())


def test_a_redelivered_password_change_gets_its_first_answer_and_changes_nothing(site):
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    new = "kangaroo-river-42"
    raw = message(address(first), orders(first, pw[first], f"set password {new}", "bid"), message_id="<pw@players.test>")
    killed_before_answering(site, raw)
    saved = site.game_path().read_bytes()
    again = send(site, raw)  # the MTA delivers it again: its password is no longer the player's
    first_answer = reply(again, address(first))
    assert "  OK      set password ********\n  OK      bid\nAll applied." in first_answer
    assert site.game_path().read_bytes() == saved
    # the same Message-ID from another address learns nothing: the usual refusal, no kept answer
    forged = send(site, message("mallory@evil.test", orders(first, "guess-guess", "bid"), message_id="<pw@players.test>"))
    assert len(forged) == 1 and "not right" in text(forged[0]) and "OK      bid" not in text(forged[0])
    assert site.game_path().read_bytes() == saved
    mails = send(site, message(address(first), orders(first, new)))
    assert "Nothing to apply." in reply(mails, address(first))


def test_a_replace_by_mail_is_stamped_with_the_messages_time_as_the_shell_stamps_its_own(site):
    pw = new_game(site)
    site.take()
    when = T0.replace(year=2027, month=2, day=3, hour=4, minute=5)  # the time the gateway handles the message at
    answer = reply(send(site, message(GM_ADDRESS, orders("gm", pw["gm"], "replace bob dave dave@new.test")), now=when),
                   GM_ADDRESS)
    assert "OK      replace bob dave dave@new.test" in answer
    game = site.load()
    assert game.corrections == [{"kind": "replace", "time": "2027-02-03T04:05:00Z", "seat": "bob", "player": "dave",
                                 "previous": "bob", "since": 1}]
    assert not game.differences(game.replay())


def test_a_new_player_is_told_the_name_to_write_and_writes_their_own_as_in_the_shell(site):
    """Issue 35: the welcome of a replacement gave a password but not the name to write after
    'player', and mail wanted the seat's name where the shell takes the new player's."""
    pw = new_game(site)
    site.take()
    seat = site.load().awaiting()[0]
    mails = send(site, message(GM_ADDRESS, orders("gm", pw["gm"], f"replace {seat} dave dave@new.test")))
    (welcome,) = [m for m in to(mails, "dave@new.test") if "welcome" in m["Subject"]]
    body = flat(text(welcome))
    assert f"You take over the seat {seat} from move 1" in body
    assert "write your own name: player dave YOUR-PASSWORD" in body and "player dave YOUR-PASSWORD #1" in body
    password = re.search(r"Your password: (\S+)", text(welcome))[1]
    answer = reply(send(site, message("dave@new.test", orders("Dave", password, "bid"))), "dave@new.test")
    assert "OK      bid\nAll applied." in answer and site.load().log == [f"1 judge: seat {seat} to dave", f"1 {seat} bid"]
    answer = reply(send(site, message("dave@new.test", orders(seat, password, "report"))), "dave@new.test")
    assert "All applied." in answer or "Nothing to apply." in answer  # the seat's name works too
    refused = reply(send(site, message(address(seat), orders(seat, pw[seat], "pass"))), address(seat))
    assert "not right" in flat(refused)  # the old player's password no longer works


def test_the_game_master_ends_a_stock_round_game_by_mail_with_end_game(site):
    pw = new_game(site, ruleset="stock-round")
    for player in NAMES:  # everyone passes: the operating round awaits the game master
        send(site, message(address(player), orders(player, pw[player], "pass")))
    game = site.load()
    assert game.awaiting() == ["gm"] and "end game" in game.view("gm")["orders"]
    help_ = reply(send(site, message(GM_ADDRESS, orders("gm", pw["gm"], "help"))), GM_ADDRESS)
    assert "done, end game" in help_
    # a line 'end' alone ends a mail's orders: nothing after it is read, nothing is applied
    answer = reply(send(site, message(GM_ADDRESS, orders("gm", pw["gm"], "end", "pass"))), GM_ADDRESS)
    assert "Nothing to apply." in answer and not site.load().is_over()
    mails = send(site, message(GM_ADDRESS, orders("gm", pw["gm"], "#4 end game")))
    assert "  OK      end game\nAll applied." in reply(mails, GM_ADDRESS)
    game = site.load()
    assert game.is_over() and game.log[-2:] == ["4 gm end game", "5 judge: ended at 2026-05-01T12:00:00Z with no deadlines"]
    assert not game.differences(game.replay())
    assert all("the game master ends it" in text(m) for m in to(mails, address("alice")))


def test_another_players_message_id_gets_nothing_of_the_first_answer(site):
    pw = new_game(site)
    site.take()
    gm_answer = reply(send(site, message(GM_ADDRESS, orders("gm", pw["gm"], "status"), message_id="<gm@judge.test>")),
                      GM_ADDRESS)
    assert "Players: alice <alice@players.test>" in gm_answer
    saved = site.game_path().read_bytes()
    # a player who has seen the game master's Message-ID (a copy sent to them) writes with it
    # from their own address: the game master's answer (every address, the GM's view) stays theirs
    mails = send(site, message(address("bob"), orders("bob", "no-password-at-all", "status"), message_id="<gm@judge.test>"))
    answer = reply(mails, address("bob"))
    assert "alice@players.test" not in answer and "Players:" not in answer and answer != gm_answer
    assert site.game_path().read_bytes() == saved


def test_a_message_delivered_again_while_mail_is_down_alerts_the_password_owner_once(site):
    pw = new_game(site)
    site.take()
    raw = message("mallory@evil.test", orders("alice", pw["alice"], "bid"))
    shutil.rmtree(site.outbox_dir)
    site.outbox_dir.write_text("")  # the way out is broken: every run exits 75, the MTA delivers again
    for _ in range(3):
        with pytest.raises(MailError):
            gateway.handle(raw, site.cfg, site.outbox(), T0)
    site.outbox_dir.unlink()
    site.outbox().flush()
    mails = site.take()
    assert len(to(mails, address("alice"))) == 1 and len(to(mails, "mallory@evil.test")) == 1
