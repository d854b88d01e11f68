"""The ways the real world broke the mail gateway (issue 12), each played as it was found:
malformed headers, huge Message-IDs, passwords in echoes and logs, half-written changes,
hand-edited game files, and the smaller points."""
import json
import os
import shutil
import stat
import subprocess
import sys
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.store import config, gamefile, seatkeys
from judge.engine.errors import GameFileError, UsageError
from judge.gateway import deadlines, inbox as gateway, parse as mailparse
from judge.mail import mailgame, outbox as outboxes
from judge.mail.mailgame import KEEP_SEEN, MailGame, message_key
from judge.engine.errors import MailError
from judge.mail.passwords import hash_password
from mailkit import (address, block as orders, flat, GM_ADDRESS, killed_before_answering, make_site, message, NAMES,
                     new_game, OBSERVER, reply, send, T0, text, to)

H = timedelta(hours=1)
GOLDEN = Path(__file__).parents[1] / "golden" / "files" / "2026-11-22"


def with_header(raw: bytes, name: str, value: bytes) -> bytes:
    """`raw` with its header `name` replaced by `value` (bytes as they come over the wire)."""
    head, _, body = raw.partition(b"\n\n")
    lines = [line for line in head.split(b"\n") if not line.lower().startswith(name.lower().encode() + b":")]
    return b"\n".join([name.encode() + b": " + value, *lines]) + b"\n\n" + body


def maildir(root: Path, *raws: bytes) -> Path:
    for sub in ("new", "cur", "tmp"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for n, raw in enumerate(raws):
        (root / "new" / f"{n:03d}.msg").write_bytes(raw)
    return root


# ---- 1. one malformed header crashes judge mail -----------------------------------------
@pytest.mark.parametrize("value", [b"<>", b"<", b"", b"<" + b"x" * 5000 + b"@players.test>"])
def test_a_malformed_message_id_is_answered_and_applied(site, value):
    first = site.load().awaiting()[0]
    raw = with_header(message(address(first), orders(first, site.passwords[first], "bid")), "Message-ID", value)
    mails = send(site, raw)
    assert "OK      bid\nAll applied." in reply(mails, address(first))
    assert len(mails) == 5  # the answer, three players' reports, the observer's
    assert send(site, raw) == [] and site.load().log == [f"1 {first} bid"]  # and known when it comes again


def test_a_message_id_hiding_a_line_break_is_applied_answered_and_reported(site):
    first = site.load().awaiting()[0]
    raw = with_header(message(address(first), orders(first, site.passwords[first], "bid")), "Message-ID",
                      b"=?utf-8?q?<a=0D=0AX-Evil:_1@players.test>?=")
    mails = send(site, raw)
    answer = [m for m in mails if m["To"] == address(first) and m["Subject"].startswith("Re:")]
    assert len(answer) == 1 and answer[0]["X-Evil"] is None and answer[0]["In-Reply-To"] is None
    assert sorted(m["To"] for m in mails if "report" in m["Subject"]) == sorted([address(p) for p in NAMES] + [OBSERVER])
    assert site.load().log == [f"1 {first} bid"]


@pytest.mark.parametrize("sender", [b'"', b"Bob Smith", b"<>", b"@", b'"Smith, Bob" <', b"=?utf-8?q?=0D=0A?=",
                                    "j\u00f6rg@players.test".encode()])  # not ASCII: not every server carries it
def test_a_message_without_a_usable_sender_is_logged_and_dropped_and_the_queue_goes_on(site, sender, tmp_path):
    first = site.load().awaiting()[0]
    bad = with_header(message(address(first), orders(first, site.passwords[first], "bid")), "From", sender)
    good = message(address(first), orders(first, site.passwords[first], "bid"))
    box = maildir(tmp_path / "in", bad, good)
    done = gateway.handle_maildir(box, site.cfg, site.outbox(), lambda: T0)
    assert len(done) == 2 and sorted(os.listdir(box / "cur")) == ["000.msg:2,S", "001.msg:2,S"]
    mails = site.take()
    assert "All applied." in reply(mails, address(first))  # the good one, after the bad one
    assert site.load().log == [f"1 {first} bid"]
    logged = [json.loads(line) for line in (site.cfg.games / "mail.log").read_text().splitlines()]
    assert logged[0]["sender"] == "" and logged[0]["outcome"].startswith("ignored")


def test_a_message_the_email_package_cannot_read_gets_an_answer_if_it_has_a_sender(site, monkeypatch):
    from judge.gateway import parse

    def broken(raw):
        raise IndexError("list index out of range")

    monkeypatch.setattr(parse, "_read", broken)  # whatever the email package may still trip over
    mails = send(site, message(address("bob"), "game g1\n"))
    assert [m["To"] for m in mails] == [address("bob")] and "cannot be read (IndexError)" in text(mails[0])
    assert send(site, b"\x00\xff garbage without any header") == []


# ---- 2. a permanent refusal is not temporary (real SMTP: tests/mail/test_outbox.py) ------------
def test_a_stranger_without_address_is_not_answered(site):
    assert send(site, message("Bob Smith", "game g1\nplayer bob x\n")) == []


# ---- 3. a change and its mail are one transaction ---------------------------------------
def test_a_run_killed_before_the_save_sends_nothing_of_its_change(site, monkeypatch):
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, site.passwords[first], "bid"))
    before = site.game_path().read_bytes()

    def killed(game, path):
        raise KeyboardInterrupt  # as if the process died here

    monkeypatch.setattr(gamefile, "save", killed)
    with pytest.raises(KeyboardInterrupt):
        gateway.handle(raw, site.cfg, site.outbox(), T0)
    monkeypatch.undo()
    assert site.game_path().read_bytes() == before
    spool = site.cfg.games / ".mail" / "outbox"
    assert list(spool.glob("*.pending")) and not list(spool.glob("*.eml"))
    deadlines.tick(site.cfg, site.outbox(), T0)  # a run in between sends nothing of it
    assert site.take() == []
    mails = send(site, raw)  # the MTA delivers it again: now it is applied, once
    assert "All applied." in reply(mails, address(first)) and len(mails) == 5
    assert site.load().log == [f"1 {first} bid"] and not list(spool.iterdir())


def test_a_run_killed_after_the_save_has_its_mail_sent_by_the_next_run(site, monkeypatch):
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, site.passwords[first], "bid"))

    def killed(path, base):
        raise KeyboardInterrupt  # died after the game was saved, before its mail was ready

    monkeypatch.setattr(outboxes, "_make_ready", killed)
    with pytest.raises(KeyboardInterrupt):
        gateway.handle(raw, site.cfg, site.outbox(), T0)
    monkeypatch.undo()
    assert site.load().log == [f"1 {first} bid"] and site.take() == []
    deadlines.tick(site.cfg, site.outbox(), T0)  # the next judge tick (or judge mail)
    reports = site.take()
    assert sorted(m["To"] for m in reports) == sorted([address(p) for p in NAMES] + [OBSERVER])
    mails = send(site, raw)  # the message again: its first answer, not "nothing was done"
    assert "OK      bid\nAll applied." in reply(mails, address(first)) and len(mails) == 1


def test_a_killed_runs_mail_survives_a_change_to_a_game_named_like_its_number(site, monkeypatch):
    """The pending mail of g1's change number 2 is neither dropped nor sent early by a change
    to the game named "2" (game names may be digits: "1830")."""
    first = site.load().awaiting()[0]
    monkeypatch.setattr(outboxes, "_make_ready", lambda path, base: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        gateway.handle(message(address(first), orders(first, site.passwords[first], "bid")), site.cfg, site.outbox(), T0)
    monkeypatch.undo()
    assert site.load().meta["mail"]["outbox_tx"] == 2  # committed: its reports must go out
    new_game(site, "2")  # its welcomes are the game "2"'s change number 1
    assert len(site.take()) == len(NAMES) + 1 + len(NAMES) + 1  # both games' mails, nothing lost
    assert not list((site.cfg.games / ".mail" / "outbox").iterdir())


def test_a_run_killed_while_writing_its_answer_has_it_written_again(site, monkeypatch):
    first = site.load().awaiting()[0]
    raw = message(address(first), orders(first, site.passwords[first], "bid"))
    real = outboxes.write_synced

    def killed(path, data, base):
        real(path, data if "reply-" not in path.name else b"", base)
        if "reply-" in path.name:
            raise KeyboardInterrupt  # died after the answer's file was made, before its text was in it

    monkeypatch.setattr(outboxes, "write_synced", killed)
    with pytest.raises(KeyboardInterrupt):
        gateway.handle(raw, site.cfg, site.outbox(), T0)
    monkeypatch.undo()
    mails = send(site, raw)  # the MTA delivers it again
    assert "OK      bid\nAll applied." in reply(mails, address(first)) and all(m["To"] for m in mails)
    spool = site.cfg.games / ".mail" / "outbox"
    (killed_part,) = spool.glob("*.part")
    os.utime(killed_part, (0, 0))  # left long ago; one being written now stays
    (spool / "1.mail.2-1.part").write_bytes(b"being written")
    site.outbox().flush()
    assert [p.name for p in spool.iterdir()] == ["1.mail.2-1.part"] and site.take() == []


def test_judge_new_on_a_game_that_exists_leaves_no_mail_behind(site):
    with pytest.raises(GameFileError, match="exists already"):
        new_game(site)
    assert not list((site.cfg.games / ".mail" / "outbox").iterdir()) and site.take() == []


# ---- 4. huge Message-IDs -----------------------------------------------------------------
def test_huge_message_ids_cannot_grow_the_game_file(site):
    game = site.load()
    seatkeys.ensure(game)  # (its seats' keys to their private pages, as judge new draws them: drawn once)
    gamefile.save(game, site.game_path())
    first = game.awaiting()[0]
    size = site.game_path().stat().st_size
    for n in range(3):  # (a header up to 64 KB is read: issue 24)
        raw = message(address(first), orders(first, site.passwords[first]),
                      message_id=f"<{'x' * 60_000}{n}@players.test>")  # alike but for the end
        assert "Nothing to apply." in reply(send(site, raw), address(first))
    raw = message(address(first), orders(first, site.passwords[first]), message_id=f"<{'x' * 900_000}@players.test>")
    assert "its header is larger than 64 KB. Nothing was changed." in flat(reply(send(site, raw), address(first)))
    grown = site.game_path().stat().st_size - size
    assert grown < 3 * 60  # a 32-digit key each
    assert len(site.load().meta["mail"]["seen"]) == 3  # three messages, none taken for another
    assert all(len(line) < 2000 for line in (site.cfg.games / "g1.mail.log").read_text().splitlines())


def test_the_seen_list_is_bounded_and_forgotten_answers_are_deleted(site, monkeypatch):
    monkeypatch.setattr(mailgame, "KEEP_SEEN", 3)
    first = site.load().awaiting()[0]
    raws = [message(address(first), orders(first, site.passwords[first]), message_id=f"<m{n}@p.test>") for n in range(5)]
    for raw in raws:
        send(site, raw)
    seen = site.load().meta["mail"]["seen"]
    assert seen == [message_key(f"<m{n}@p.test>\n{mailparse.read(raws[n]).fingerprint}", sender=address(first))
                    for n in (2, 3, 4)]
    assert sorted(os.listdir(site.cfg.games / ".mail" / "replies")) == sorted(f"g1.{k}" for k in seen)
    assert KEEP_SEEN == 500


def test_an_old_game_file_with_raw_message_ids_loads_migrates_and_plays(tmp_path):
    """tests/golden/files/2026-11-22/mogul.toml kept the raw Message-IDs in its seen list."""
    site = make_site(tmp_path)
    path = site.cfg.games / "old.toml"
    shutil.copy(GOLDEN / "mogul.toml", path)
    game = gamefile.load(path)
    assert game.meta["mail"]["seen"] == ["<abc@players.test>"]
    who = game.awaiting()[0]
    game.meta["mail"]["players"][who]["password"] = hash_password("known-pass1")  # its own are unknown
    gamefile.save(game, path)
    # the message of the old seen list, delivered again: known, nothing done
    raw = message(address(who), orders(who, "known-pass1", "pass", game="old"), message_id="<abc@players.test>")
    mails = send(site, raw)
    assert "handled before; nothing was done again" in text(mails[0]) and gamefile.load(path).log == game.log
    mails = send(site, message(address(who), orders(who, "known-pass1", f"#{game.move} pass", game="old")))
    assert "All applied." in reply(mails, address(who))
    after = gamefile.load(path)
    assert after.meta["mail"]["seen"][0] == message_key("<abc@players.test>") and len(after.meta["mail"]["seen"]) == 2
    assert not after.differences(after.replay())
    done = deadlines.tick(site.cfg, site.outbox(), T0.replace(year=2027))  # its deadline has long passed
    assert done and "Missed order" in done[0] and len(gamefile.load(path).log) > len(after.log)


# ---- 5. passwords ------------------------------------------------------------------------
def test_a_password_written_twice_is_never_echoed_logged_or_put_in_the_subject(site):
    first = site.load().awaiting()[0]
    pw = site.passwords[first]
    body = f"player {first} {pw}\ngame g1\nplayer {first} {pw}\nplayer {first} {pw}\nbid\n"
    mails = send(site, message(address(first), body, subject=f"game g1 player {first} {pw}"))
    answer = reply(mails, address(first))
    assert "REFUSED" in answer and "one 'player' line for each game block" in answer
    assert f"player {first} ********" in answer
    for m in mails:
        assert pw not in text(m) and pw not in m["Subject"]
    for log in ("g1.mail.log", "mail.log"):
        path = site.cfg.games / log
        assert not path.exists() or pw not in path.read_text()


def test_logs_outbox_and_sent_mails_are_private(site):
    first = site.load().awaiting()[0]
    old_log = site.cfg.games / "g1.mail.log"
    old_log.write_text("")
    old_log.chmod(0o644)  # written by an earlier judge
    gateway.handle(message(address(first), orders(first, site.passwords[first], "bid")), site.cfg, site.outbox(), T0)
    gateway.handle(message(address(first), "game nosuch\n"), site.cfg, site.outbox(), T0)
    assert len(list(site.outbox_dir.glob("new/*"))) == 6
    private = [old_log, site.cfg.games / "mail.log", *site.outbox_dir.glob("new/*"),
               *(site.cfg.games / ".mail" / "replies").iterdir()]
    assert len(private) == 9 and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in private)
    box = site.outbox()
    box.put(mailgame.compose(site.cfg, address("bob"), "x", "welcome, password ...\n"))
    assert [stat.S_IMODE(p.stat().st_mode) for p in (site.cfg.games / ".mail" / "outbox").glob("*.eml")] == [0o600]


def test_judge_toml_holding_a_password_readable_by_others_is_refused(tmp_path):
    (tmp_path / "games").mkdir()
    path = tmp_path / "judge.toml"
    path.write_text('address = "j@x.test"\ngm = "g@x.test"\ngames = "games"\n[smtp]\nhost = "h"\npassword = "pw"\n')
    path.chmod(0o644)
    with pytest.raises(UsageError, match=r"holds the SMTP password but others may read it \(mode 644\): chmod 600"):
        config.load(path)
    path.chmod(0o600)
    assert config.load(path).smtp["password"] == "pw"
    path.write_text('address = "j@x.test"\ngm = "g@x.test"\ngames = "games"\n[smtp]\nhost = "h"\n')
    path.chmod(0o644)  # no password: nothing to hide
    assert config.load(path).smtp["host"] == "h"


# ---- 6. the smaller points ---------------------------------------------------------------
def test_a_hand_edited_deadline_is_refused_clearly_and_tick_goes_on_to_the_next_game(tmp_path):
    site = make_site(tmp_path)
    new_game(site, "a", deadline=48)
    new_game(site, "b", deadline=48)
    site.take()
    path = site.game_path("a")
    path.write_text(path.read_text().replace("deadline_hours = 48", 'deadline_hours = "24"'))
    done = deadlines.tick(site.cfg, site.outbox(), T0 + 60 * H)
    assert done[0] == "a: skipped: game a: [meta.mail] deadline_hours must be a whole number of hours (0 to 8760), not '24'"
    assert done[1].startswith("b: Missed order")
    site.take()
    # a game file the judge cannot use is the host's problem: tried again later, the detail for
    # the game master's log (judge/mail/host.py), nothing of it for the player
    from judge.engine.errors import HostError

    with pytest.raises(HostError, match="deadline_hours"):
        send(site, message(GM_ADDRESS, "game a\nplayer gm x\nstatus\n"))


def test_two_blocks_for_the_same_game_in_one_message_are_both_handled(site):
    pw = site.passwords
    first = site.load().awaiting()[0]
    body = orders("gm", pw["gm"], f"as {first} bid") + orders("gm", pw["gm"], "absent carol")
    raw = message(GM_ADDRESS, body)
    killed_before_answering(site, raw)
    answer = reply(send(site, raw), GM_ADDRESS)  # delivered again: the first run's answer, nothing done twice
    assert answer.count("All applied.") == 2 and "handled before" not in flat(answer)
    game = site.load()
    assert game.log == [f"1 {first} bid"] and game.meta["mail"]["absent"] == ["carol"]
    assert send(site, raw) == [] and site.load().log == game.log


@pytest.mark.parametrize("body, subject, expected", [
    ("", "Re: game g1: move 1, report for alice", "It names game g1 in its subject but has no 'player NAME PASSWORD' line."),
    ("player alice\nbid\n", "Re: game g1: move 1, report for alice", "Its 'player' line does not hold your name and your password"),
    ("hello\n", "orders", "It has no 'game NAME' line (nor 'game NAME' in the subject)."),
])
def test_the_how_to_answer_names_what_is_missing(site, body, subject, expected):
    answer = reply(send(site, message(address("alice"), body, subject=subject)), address("alice"))
    assert flat(expected) in flat(answer) and "Nothing was changed." in flat(answer) and "player YOURNAME YOURPASSWORD" in answer


def test_a_reminder_in_the_grace_period_does_not_say_by_the_deadline(tmp_path):
    site = make_site(tmp_path)
    new_game(site, deadline=48, grace=6, remind=12)
    site.take()
    late = site.load().awaiting()[0]
    done = deadlines.tick(site.cfg, site.outbox(), T0 + 50 * H)  # the first tick after the deadline
    assert done == [f"g1: reminded {late}"]
    body = text(site.take()[0])
    assert "by the deadline" not in flat(body)
    assert "The deadline has passed; if none arrives by the end of the grace period (2026-05-03 18:00 UTC)" in flat(body)


def test_a_replaced_players_old_address_is_told(site):
    mails = send(site, message(GM_ADDRESS, orders("gm", site.passwords["gm"], "replace bob bob2@new.test")))
    told = to(mails, address("bob"))
    assert [m["Subject"] for m in told] == ["game g1: you no longer play bob"]
    assert "Your password no longer works." in flat(text(told[0])) and "Your password:" not in text(told[0])


def test_an_outlook_s_mime_signed_message_is_read(site):
    first = site.load().awaiting()[0]
    msg = EmailMessage()
    msg["From"], msg["Subject"], msg["Message-ID"] = address(first), "orders", "<smime@players.test>"
    msg.set_content(orders(first, site.passwords[first], "bid"))
    msg.add_attachment(b"0\x82\x06\x00signature", maintype="application", subtype="x-pkcs7-signature",
                       filename="smime.p7s")
    msg.replace_header("Content-Type", 'multipart/signed; protocol="application/x-pkcs7-signature"; '
                                       f'micalg=sha-256; boundary="{msg.get_boundary()}"')
    assert "All applied." in reply(send(site, bytes(msg)), address(first))


def test_temporary_files_of_killed_runs_are_removed(site):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = site.cfg.games / f".g1.toml.{int(dead.stdout)}-0.tmp"
    live = site.cfg.games / f".g1.toml.{os.getppid()}-0.tmp"  # a running process's: left alone
    stale.write_text("half a game")
    live.write_text("being written")
    first = site.load().awaiting()[0]
    send(site, message(address(first), orders(first, site.passwords[first], "bid")))
    assert not stale.exists() and live.exists()


# ---- the backstops: a failure that is not the message's fault --------------------------
def test_a_maildir_message_that_keeps_failing_is_put_aside_with_a_note(site, tmp_path, monkeypatch):
    real = gateway.handle_block

    def failing(block, *args):
        if block.game == "g2":
            raise RuntimeError("something the judge trips over")
        return real(block, *args)

    monkeypatch.setattr(gateway, "handle_block", failing)
    first = site.load().awaiting()[0]
    pw = site.passwords[first]
    box = maildir(tmp_path / "in", message(address(first), orders(first, pw, "bid")),
                  message(address("bob"), "game g2\nplayer bob x\n"), message(address(first), orders(first, pw)))
    for run in range(1, 4):
        done = gateway.handle_maildir(box, site.cfg, site.outbox(), lambda: T0)
        assert len(done) == (2 if run == 1 else 0)  # the others are handled at once, not held up
        assert os.listdir(box / "new") == ([] if run == 3 else ["001.msg"])
    assert os.listdir(box / ".Quarantine" / "new") == ["001.msg"] and len(os.listdir(box / "cur")) == 2
    notes = to(site.take(), GM_ADDRESS)
    note = next(m for m in notes if "quarantine" in m["Subject"])
    assert "failed on a message in 3 runs" in text(note) and "RuntimeError: something the judge trips over" in text(note)
    assert f"From: {address('bob')}" in text(note)
    log = (site.cfg.games / "mail.log").read_text()
    assert "failed (1 of 3 runs)" in log and "quarantined after 3 failed runs" in log


def test_a_piped_message_the_judge_fails_on_is_left_to_the_mta(site, monkeypatch):
    monkeypatch.setattr(gateway, "handle_block", lambda *a: 1 / 0)
    with pytest.raises(MailError, match="could not be handled now \\(ZeroDivisionError") as e:
        gateway.handle_piped(message(address("bob"), "game g1\n"), site.cfg, site.outbox(), T0)
    assert e.value.exit_code == 75
    assert "failed: ZeroDivisionError" in (site.cfg.games / "mail.log").read_text()
    assert MailGame(site.load(), "g1").m["seen"] == []


def test_the_count_of_failed_runs_is_written_to_disk_before_the_run_goes_on(site, tmp_path, monkeypatch):
    monkeypatch.setattr(gateway, "handle_block", lambda *a: 1 / 0)
    box = maildir(tmp_path / "in", message(address("bob"), "game g1\nplayer bob x\n"))
    synced, real_fsync = [], os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    gateway.handle_maildir(box, site.cfg, site.outbox(), lambda: T0)
    tries = box / ".judge-tries.json"
    assert json.loads(tries.read_text()) == {"000.msg": 1} and stat.S_IMODE(tries.stat().st_mode) == 0o600
    # a crash (or a power cut) right after cannot lose the count: its file and directory were synced
    assert any(p.startswith(f"{box}/.") and ".judge-tries.json" in p for p in synced) and str(box) in synced, synced


def test_while_mail_cannot_go_out_the_game_master_gets_one_note_of_a_host_problem_an_hour(tmp_path, monkeypatch):
    """The MTA retries a message the judge could not handle: the note waits in the outbox, once."""
    import mailkit
    from judge.mail import host

    monkeypatch.setattr(Path, "home", lambda: tmp_path)  # (where the hour's stamp is kept)
    site = make_site(tmp_path, smtp_port=mailkit.free_port())  # nothing listens there: mail cannot go out
    for _ in range(3):
        host.tell_gm(site.cfg, "the games directory belongs to another user")
    waiting = list((site.cfg.games / ".mail").rglob("*.eml"))
    assert len(waiting) == 1 and "a problem on the judge's host" in waiting[0].read_text()
