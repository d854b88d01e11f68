"""Mail under abuse (issue 24): what a stranger's message may cost is bounded, and no player
can strand a game. Each attack is played as an attacker would send it, without a password or
with one player's; bench/mail_abuse.py times the same messages through `judge mail`."""
import os
from datetime import timedelta
from email.message import EmailMessage

import pytest

from judge.engine import bots, standing
from judge.engine.errors import GameFileError, IllegalOrder, JudgeError
from judge.engine.game import Game
from judge.gateway import deadlines, inbox as gateway, parse as mailparse
from judge.mail import mailgame
from judge.store import gamefile
from mailkit import address, block, flat, GM_ADDRESS, message, NAMES, new_game, reply, send, T0, to

MB = 1024 * 1024


def raw_message(head: bytes, body: bytes = b"game g1\nplayer alice x\nbid\n") -> bytes:
    return head + b"\nMessage-ID: <m1@players.test>\n\n" + body


@pytest.fixture
def hashes(monkeypatch):
    """The password checks made (each one costs a scrypt)."""
    made = []
    real = mailgame.check_password

    def counted(password, stored):
        made.append(password)
        return real(password, stored)

    monkeypatch.setattr(mailgame, "check_password", counted)
    return made


# ---- 1. header decoding ---------------------------------------------------------------------
def test_a_subject_of_many_encoded_words_never_reaches_the_email_package(site):
    words = b" ".join([b"=?utf-8?q?a?="] * 300)  # 4 KB; 20,000 of them took 2.8 GB
    raw = raw_message(b"From: " + address("alice").encode() + b"\nSubject: " + words)
    answer = reply(send(site, raw), address("alice"))
    assert flat("cannot read your message: its subject header is longer than 2 KB. Nothing was changed.") in flat(answer)
    assert len(answer) < 400 and site.load().log == []


def test_encoded_words_are_counted_over_the_whole_header(site):
    fields = b"".join(b"X-Note-%d: =?utf-8?q?a?= =?utf-8?q?b?=\n" % i for i in range(120))
    raw = raw_message(fields + b"From: " + address("alice").encode())
    assert "its header has more than 200 encoded words" in flat(reply(send(site, raw), address("alice")))


def test_a_from_of_many_addresses_is_dropped_unanswered(site):
    many = b", ".join(b"x%d@players.test" % i for i in range(3000))  # 60,000 of them cost 20 s of CPU
    raw = raw_message(b"From: " + address("alice").encode() + b", " + many + b"\nSubject: orders")
    assert send(site, raw) == []  # no usable sender: answering it would only mail a stranger's list
    assert "its from header is longer than 2 KB" in (site.cfg.games / "mail.log").read_text()


@pytest.mark.parametrize("head, why", [
    (b"X-Filler: " + b"a" * 70_000, "its header is larger than 64 KB"),
    (b"".join(b"X-F%d: a\n" % i for i in range(600)) + b"Subject: orders", "its header has more than 500 fields"),
])
def test_a_header_beyond_the_bounds_is_answered_briefly(site, head, why):
    raw = raw_message(head + b"\nFrom: " + address("alice").encode())
    answer = reply(send(site, raw), address("alice"))
    assert why in answer and len(answer) < 400


def test_the_headers_of_mime_parts_are_bounded_before_parsing(site):
    parts = b"".join(b"--b\nContent-Type: text/plain; charset=" + b" ".join([b"=?utf-8?q?a?="] * 250)
                     + b"\n\nbid\n" for _ in range(3))
    raw = (b"From: " + address("alice").encode() + b"\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/mixed; boundary=\"b\"\n\n" + parts + b"--b--\n")
    assert "the header of one of its MIME parts is longer than the judge reads" in flat(reply(send(site, raw), address("alice")))
    many = b"".join(b"--b\nContent-Type: text/plain\n\nbid\n" for _ in range(25))
    raw = raw.split(b"\n\n", 1)[0] + b"\n\n" + many + b"--b--\n"
    assert "it has more than 20 MIME parts" in reply(send(site, raw), address("alice"))


# ---- 2. wrong-password blocks -----------------------------------------------------------------
def test_a_message_of_many_blocks_is_refused_without_checking_a_password(site, hashes):
    body = "".join(block("ann", "wrongpass") for _ in range(300))
    answer = reply(send(site, message(address("alice"), body)), address("alice"))
    assert "holds 300 game blocks; the judge reads at most 10 in one message. Nothing was changed." in flat(answer)
    assert hashes == [] and len(answer) < 400


def test_after_a_failed_login_the_games_other_blocks_are_not_checked(site, hashes):
    first = site.load().awaiting()[0]
    body = block(first, "wrongpass") + block(first, site.passwords[first], "bid") * 4
    answer = reply(send(site, message(address(first), body)), address(first))
    assert len(hashes) == 1 and site.load().log == []
    assert flat(answer).count("not read: an earlier block of this message for the same game gave a wrong player "
                        "name or password. Nothing was changed.") == 4


def test_after_three_failed_logins_no_password_is_checked(site, hashes):
    for name in ("g2", "g3", "g4"):
        new_game(site, name)
    site.take()
    body = "".join(block("alice", "wrongpass", game=g) for g in ("g1", "g2", "g3", "g4"))
    answer = reply(send(site, message(address("alice"), body)), address("alice"))
    assert len(hashes) == 3 and "game g4: not read: 3 earlier blocks of this message gave a wrong" in answer


def test_the_answer_to_a_stranger_is_short(site):
    body = "".join(f"some line {n} " + "x" * 150 + "\n" for n in range(3000)) + block("alice", "wrongpass") * 10
    answer = reply(send(site, message("stranger@else.test", body)), "stranger@else.test")
    assert len(answer.encode()) <= gateway.MAX_STRANGER_ANSWER
    assert "... and 2980 more lines" in answer


def test_a_block_of_too_many_lines_is_refused_before_its_password_is_checked(site, hashes):
    first = site.load().awaiting()[0]
    body = block(first, site.passwords[first], *["standing"] * 2000, "cancel 99")
    answer = reply(send(site, message(address(first), body)), address(first))
    assert "the block has 2001 lines; the judge reads at most 100 lines a block. Nothing was changed." in flat(answer)
    assert hashes == [] and len(answer) < 400


# ---- 3. a refusal costs one pass ------------------------------------------------------------
def test_submit_names_the_refused_line_and_the_orders_before_it():
    game = Game.new("mogul", NAMES, seed=1)
    first = game.awaiting()[0]
    with pytest.raises(JudgeError) as e:
        game.submit(first, ["standing", "standing", "cancel 99"])
    assert e.value.index == 2 and [str(o) for o in e.value.before] == ["standing", "standing"]
    assert str(e.value) == 'illegal order "cancel 99": you have no standing order 99 (you have 0)'
    assert isinstance(e.value, IllegalOrder) and game.log == []
    with pytest.raises(JudgeError) as e:
        game.submit(first, "standing\nfly")
    assert e.value.index == 1 and [str(o) for o in e.value.before] == ["standing"] and "fly" in str(e.value)


def test_an_answer_shows_a_bounded_part_of_its_echo(site):
    other = next(p for p in NAMES if p not in site.load().awaiting())
    body = block(other, site.passwords[other], *[f"press all {'z' * 190}"] * 99, "cancel 99")
    answer = reply(send(site, message(address(other), body)), address(other))
    assert "  ... and 84 more lines like these, not shown" in answer and 'REFUSED illegal order "cancel 99"' in answer
    assert len(answer) < 5000


def test_a_third_block_for_one_game_is_not_read(site):
    first = site.load().awaiting()[0]
    body = block(first, site.passwords[first], "standing") * 3
    answer = reply(send(site, message(address(first), body)), address(first))
    assert "game g1: not read: the judge reads at most 2 blocks for one game in a message. Nothing was changed." in flat(answer)


def test_a_refused_block_is_judged_once(site, monkeypatch):
    calls = []
    real = Game.submit
    monkeypatch.setattr(Game, "submit", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    first = site.load().awaiting()[0]
    body = block(first, site.passwords[first], *["standing"] * 60, "cancel 99")
    answer = reply(send(site, message(address(first), body)), address(first))
    assert calls == [1]  # was 61: every prefix judged again to find the refused line
    assert answer.count("OK      standing") == 60 and 'REFUSED illegal order "cancel 99"' in answer


# ---- 4. no player can strand a game ---------------------------------------------------------
def test_a_cancel_with_nothing_to_cancel_is_not_logged():
    game = Game.new("mogul", NAMES, seed=1)
    other = next(p for p in NAMES if p not in game.awaiting())
    accepted = game.submit(other, ["cancel"] * 50)
    assert [str(c) for c in accepted] == ["cancel"] * 50 and game.log == []
    game.submit(other, ["bid until pot 3", "cancel"])
    assert game.log == [f"1 {other} secret: bid until pot 3", f"1 {other} secret: cancel"]
    assert game.replay().state == game.state


def test_standing_commands_per_move_are_capped():
    game = Game.new("mogul", NAMES, seed=1)
    other = next(p for p in NAMES if p not in game.awaiting())
    for _ in range(standing.MAX_PER_MOVE // 2):
        game.submit(other, ["bid until pot 3", "cancel"])
    with pytest.raises(IllegalOrder, match="30 standing orders at this move already"):
        game.submit(other, ["bid until pot 3"])
    first = game.awaiting()[0]
    game.submit(first, ["bid"])  # the next move takes more
    game.submit(other, ["bid until pot 3"])
    assert game.replay().state == game.state


def test_many_maximal_messages_from_one_player_leave_a_game_that_loads_and_plays(site):
    """Every way a player's lines grow the file, as often as a message and the limits allow."""
    game = site.load()
    other = next(p for p in NAMES if p not in game.awaiting())
    pw = site.passwords[other]
    lines = (["cancel"] * 20 + ["bid until pot 3", "bid until pot 4 every round", "cancel", "standing"] * 10
             + [f"press all {'x' * 1900}"] * 10 + ["set zone Europe/Berlin", "set mail all"] * 5)[:gateway.MAX_LINES]
    body = "".join(block(other, pw, *lines) for _ in range(gateway.MAX_SAME_GAME))
    raw_size = len(body.encode())
    assert raw_size < mailparse.MAX_MESSAGE
    size = site.game_path().stat().st_size
    for n in range(4):
        send(site, message(address(other), body))
    game = site.load()
    assert len(game.log) <= standing.MAX_PER_MOVE  # was 60 a block: every `cancel` logged
    assert len(game.meta["press"]) == 10  # the first block; the others refused at the cap on standing orders
    assert site.game_path().stat().st_size - size < 4 * gateway.MAX_SAME_GAME * 10 * 2000  # the press kept, little else
    assert game.replay().state == game.state
    first = game.awaiting()[0]
    answer = reply(send(site, message(address(first), block(first, site.passwords[first], "bid"))), address(first))
    assert "OK      bid" in answer and site.load().move == 2


def test_a_change_that_would_make_the_file_unloadable_is_refused_and_answered(site, monkeypatch):
    monkeypatch.setattr(gamefile, "MAX_FILE", site.game_path().stat().st_size + 3000)
    other = next(p for p in NAMES if p not in site.load().awaiting())
    before = site.game_path().read_bytes()
    body = block(other, site.passwords[other], *[f"press all {'y' * 1000}"] * 5)
    mails = send(site, message(address(other), body))
    assert "game g1: refused: the change would make the game file larger than the judge loads" in flat(reply(mails, address(other)))
    assert site.game_path().read_bytes() == before and len(mails) == 1  # nothing else sent
    assert not list((site.cfg.games / ".mail" / "outbox").glob("*")) or all(
        p.is_dir() for p in (site.cfg.games / ".mail" / "outbox").iterdir())
    first = site.load().awaiting()[0]  # and it plays on
    assert "OK      bid" in reply(send(site, message(address(first), block(first, site.passwords[first], "bid"))),
                                  address(first))


# ---- 5. resigned seats ----------------------------------------------------------------------
def test_the_bot_plays_a_resigned_seat_however_many_secret_entries_the_log_holds(site, monkeypatch):
    from judge.mail import players

    game = site.load()
    first, other = game.awaiting()[0], next(p for p in NAMES if p not in game.awaiting())
    for _ in range(4):
        game.submit(other, ["bid until pot 3", "cancel"])
    m = mailgame.MailGame(game, "g1").m
    m["players"][first]["resigned"] = True
    monkeypatch.setattr(type(game.ruleset), "max_moves", 5)  # 8 secret entries, no public one
    players.play_resigned(game, m)
    assert first not in game.awaiting() and game.move > 1


# ---- 6. lone surrogates -----------------------------------------------------------------------
def test_a_utf7_part_with_a_lone_surrogate_is_answered(site):
    first = site.load().awaiting()[0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = address(first), "judge@judge.test", "orders", "<u7@p.test>"
    body = block(first, site.passwords[first], "bid", "+2AA-").encode()
    msg.set_content(body, maintype="text", subtype="plain", cte="7bit")
    msg.set_param("charset", "utf-7")
    mails = send(site, bytes(msg))
    answer = reply(mails, address(first))
    assert "OK      bid" in answer and "REFUSED" in answer and "?" in answer
    assert mailparse.readable("a\ud800b") == "a?b"


# ---- 7. the smaller ones ----------------------------------------------------------------------
def test_deeply_nested_toml_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(GameFileError, match="nested too deeply"):
        gamefile.load(path)


def test_a_fifo_or_a_device_is_no_game_file(tmp_path):
    os.mkfifo(tmp_path / "fifo.toml")
    for path in (tmp_path / "fifo.toml", "/dev/zero"):
        with pytest.raises(GameFileError, match="is not a regular file"):
            gamefile.load(path)


def test_tick_passes_over_what_is_not_a_regular_file(site):
    os.mkfifo(site.cfg.games / "fifo.toml")
    (site.cfg.games / "dir.toml").mkdir()
    done = deadlines.tick(site.cfg, site.outbox(), T0)
    assert not any("fifo" in line or "dir" in line for line in done)


def test_a_stock_round_par_that_is_a_table_is_refused_on_loading(tmp_path):
    game = Game.new("stock-round", NAMES, seed=1)
    data = game.to_dict()
    data["state"]["companies"][next(iter(data["state"]["companies"]))]["par"] = {"a": 1}
    with pytest.raises(GameFileError, match="par must be a whole number"):
        Game.from_dict(data, "game.toml")


# ---- the Maildir driver -----------------------------------------------------------------------
def maildir(root, *raws):
    for sub in ("new", "cur", "tmp"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for n, raw in enumerate(raws):
        (root / "new" / f"{n:03d}.msg").write_bytes(raw)
    return root


def test_a_run_killed_on_a_message_counts_toward_its_quarantine(site, tmp_path, monkeypatch):
    first = site.load().awaiting()[0]
    box = maildir(tmp_path / "in", message(address("bob"), "game g1\nplayer bob x\n"),
                  message(address(first), block(first, site.passwords[first], "bid")))
    real = gateway.handle

    def killed(raw, *args):
        if b"player bob" in raw:
            raise KeyboardInterrupt  # as a run killed for its memory: nothing after it is done
        return real(raw, *args)

    monkeypatch.setattr(gateway, "handle", killed)
    for _ in range(gateway.QUARANTINE_AFTER):
        with pytest.raises(KeyboardInterrupt):
            gateway.handle_maildir(box, site.cfg, site.outbox(), lambda: T0)
    done = gateway.handle_maildir(box, site.cfg, site.outbox(), lambda: T0)
    assert os.listdir(box / ".Quarantine" / "new") == ["000.msg"] and len(done) == 1  # the next one handled
    assert site.load().log == [f"1 {first} bid"]
    assert any("quarantine" in m["Subject"] for m in to(site.take(), GM_ADDRESS))


def test_a_maildir_reads_no_more_than_a_message_and_skips_what_is_not_a_file(site, tmp_path):
    first = site.load().awaiting()[0]
    box = maildir(tmp_path / "in", message(address(first), block(first, site.passwords[first], "bid")))
    os.mkfifo(box / "new" / "001.fifo")
    (box / "new" / "002.big").write_bytes(message(address("bob"), "x" * (3 * MB)))
    done = gateway.handle_maildir(box, site.cfg, site.outbox(), lambda: T0)
    assert len(done) == 2 and os.listdir(box / "new") == ["001.fifo"]
    assert "larger than 1024 KB" in reply(site.take(), address("bob"))
    assert gateway.read_message(box / "cur" / os.listdir(box / "cur")[0]) is not None


def test_lines_that_only_ask_are_answered_once_and_at_most_five_a_block(site):
    """90 'help' lines cost one help's answer, and the block's order still counts."""
    game = site.load()
    first = game.awaiting()[0]
    lines = ["help"] * 90 + ["history 1", "rules", "report", "league", "history"] + [bots.choose(game, first)]
    answer = reply(send(site, message(address(first), block(first, site.passwords[first], *lines))), address(first))
    assert "All applied." in answer and site.load().move == game.move + 1
    assert flat(answer).count("'help': answered above.") == 89
    assert "'history': not answered: at most 5 such lines a block." in flat(answer)
    assert len(answer) < 20_000


# ---- issue 44 item 6: press bounded per writer ------------------------------------------------
def test_one_players_waiting_press_never_refuses_anothers_nor_their_orders(site):
    """carol's 500 waiting anonymous lines refused bob's private press and skipped his bid.
    Now the bound is each writer's own, and a refused press line leaves the block's orders."""
    game = site.load()
    game.meta["mail"]["press"] = "anon"
    gamefile.save(game, site.game_path())
    who = game.awaiting()[0]
    game.submit(who, ["bid"])
    flooder = game.awaiting()[0]  # the next to play
    pw = site.passwords
    for lines in (200, 200, 100):  # two blocks of 100 lines a message, at most
        body = "".join(block(flooder, pw[flooder], *(f"press anon all rumour {i}" for i in range(n)))
                       for n in [min(lines, 100)] * (lines // 100))
        assert "All applied." in reply(send(site, message(address(flooder), body)), address(flooder))
    mails = send(site, message(address(who), block(who, pw[who], f"press {flooder} shall we share?", "#1 bid")))
    answer = reply(mails, address(who))
    assert f"OK      press {flooder} shall we share?\n  OK      bid\nAll applied." in answer
    assert [m for m in to(mails, address(flooder)) if "shall we share?" in m.get_content()]
    assert site.load().log == [f"1 {who} bid"]
    answer = reply(send(site, message(address(flooder), block(flooder, pw[flooder], "press anon all one more",
                                                              "#2 bid"))), address(flooder))
    assert (f'NOT SENT "press anon all one more": 500 press lines of yours wait to be sent in this game; send more '
            "after the next judge tick") in flat(answer)
    assert "OK      bid\nAll applied." in answer and site.load().log == [f"1 {who} bid", f"2 {flooder} bid"]
    waiting = site.load().meta["mail"]["press_pending"]
    assert len(waiting) == 500 and {e["by"] for e in waiting} == {flooder}


# ---- issue 35 item 4: the fan-out of press --------------------------------------------------
def test_the_press_of_one_message_reaches_each_recipient_in_one_mail(site):
    """Two blocks of 99 press lines each used to make one mail a line: 198 to bob (and, for
    press to all made anonymous, 991 mails in all). Now one press mail per recipient per game."""
    pw = site.passwords["alice"]
    to_bob = block("alice", pw, *(f"press bob line {i}" for i in range(99))) * 2
    mails = send(site, message(address("alice"), to_bob))
    assert "All applied." in reply(mails, address("alice"))
    (press,) = [m for m in mails if m["To"] == address("bob")]
    assert press["Subject"] == "game g1: press from alice"
    assert press.get_content().count("line 98") == 2 and len(mails) == 2  # the answer and bob's one mail
    game = site.load()
    game.meta["mail"]["press"] = "anon"
    gamefile.save(game, site.game_path())
    anon = block("bob", site.passwords["bob"], *(f"press anon all rumour {i}" for i in range(99))) * 2
    assert "All applied." in reply(send(site, message(address("bob"), anon)), address("bob"))
    for minutes in (10, 20):  # it waits through a judge tick
        deadlines.tick(site.cfg, site.outbox(), T0 + timedelta(minutes=minutes))
    press = [m for m in site.take() if "press from anonymous players" in m["Subject"]]
    assert sorted(m["To"] for m in press) == sorted([*map(address, NAMES), "watcher@watch.test", GM_ADDRESS])
    assert all(m.get_content().count("rumour 98") == 2 for m in press)
