"""The procmail recipe of docs/mail-host.md, run by the real procmail (skipped where it is not
installed, but never in CI: .ci/run installs Debian's procmail): orders are applied and
answered, and a `judge mail` that fails or is killed hands exit 75 to the MTA instead of
filing the message in the mailbox; the Maildir recipe files each message where cron's
`judge mail --maildir` answers it. bench/postfix_procmail.sh shows the pipe behind a real
Postfix."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mailkit import address, make_site, message, new_game, reply

PROCMAIL = shutil.which("procmail")
JUDGE = Path(sys.executable).parent / "judge"
DOCS = Path(__file__).parents[2] / "docs" / "mail-host.md"
pytestmark = pytest.mark.skipif((not PROCMAIL or not JUDGE.exists()) and not (os.environ.get("CI") or os.environ.get("JUDGE_CI")),
                                reason="needs procmail and the judge script")


def doc_block(name: str) -> str:
    """The fenced block after <!-- file: NAME --> in docs/mail-host.md."""
    return re.search(rf"<!-- file: {re.escape(name)} -->\n```\n(.*?)```", DOCS.read_text(), re.S)[1]


def delivery(tmp_path, rcfile_text: str, raw: bytes) -> subprocess.CompletedProcess:
    """Deliver as Postfix does to a user whose mailbox_command is procmail: what procmail
    prints (which Postfix puts in a bounce) is in its stdout and stderr."""
    assert PROCMAIL, "procmail is not installed (.ci/run installs Debian's)"
    rc = tmp_path / "procmailrc"
    rc.write_text(rcfile_text)
    # HOME: the judge user's home, where the judge logs a host problem it cannot log elsewhere
    return subprocess.run([PROCMAIL, f"HOME={tmp_path}", f"DEFAULT={tmp_path / 'mbox'}", str(rc)],
                          input=b"From sender@players.test  Sun Nov 22 10:00:00 2026\n" + raw,
                          capture_output=True, timeout=60)


def deliver(tmp_path, rcfile_text: str, raw: bytes) -> int:
    """The exit code procmail hands to the MTA."""
    return delivery(tmp_path, rcfile_text, raw).returncode


def recipe(site, config=None, judge=JUDGE) -> str:
    return (doc_block("~/.procmailrc").replace("/srv/judge/.venv/bin/judge", str(judge))
            .replace("/srv/judge/judge.toml", str(config or site.root / "judge.toml")))


def game_and_orders(tmp_path):
    """A mail game, its first player, and a message of theirs with a good order."""
    site = make_site(tmp_path)
    pw = new_game(site)
    site.take()
    first = site.load().awaiting()[0]
    return site, first, message(address(first), f"game g1\nplayer {first} {pw[first]}\nbid\n")


def test_the_documented_recipe_applies_and_answers(tmp_path):
    site, first, raw = game_and_orders(tmp_path)
    assert deliver(tmp_path, recipe(site), raw) == 0
    assert site.load().log == [f"1 {first} bid"] and "OK      bid" in reply(site.take(), address(first))
    assert not (tmp_path / "mbox").exists()  # handled, not filed


def test_a_failing_judge_mail_hands_exit_75_to_the_mta_and_files_nothing(tmp_path):
    site, first, raw = game_and_orders(tmp_path)
    unreadable = tmp_path / "unreadable.toml"
    unreadable.mkdir()  # a configuration that cannot be read, even by root
    done = delivery(tmp_path, recipe(site, unreadable), raw)
    assert done.returncode == 75
    assert not (tmp_path / "mbox").exists() and site.take() == [] and site.load().log == []
    # what the MTA may quote to the sender names no path, command or error (procmail's own
    # "Program failure (75) of /srv/judge/..." goes to the judge user's procmail.log)
    assert b"/" not in done.stdout + done.stderr and b"configuration" not in done.stdout + done.stderr
    assert "Program failure (75)" in (tmp_path / "procmail.log").read_text()
    assert "cannot read configuration" in (tmp_path / "judge-errors.log").read_text()
    assert deliver(tmp_path, recipe(site), raw) == 0  # fixed: the MTA's next try is applied
    assert site.load().log == [f"1 {first} bid"]


def test_a_judge_mail_killed_by_a_signal_hands_exit_75_to_the_mta(tmp_path):
    """Issue 23: killed (out of memory, kill -9), the judge leaves procmail an exit code of -9;
    the recipe that passed `$?` on made procmail exit 0, and the MTA counted the message
    delivered: lost, unanswered."""
    site, first, raw = game_and_orders(tmp_path)
    killed = tmp_path / "killed-judge"
    killed.write_text(f"#!/bin/sh\n{JUDGE} \"$@\" & wait_for=$!\nkill -KILL $wait_for\nkill -KILL $$\n")
    killed.chmod(0o755)
    assert deliver(tmp_path, recipe(site, judge=killed), raw) == 75
    assert not (tmp_path / "mbox").exists()
    assert deliver(tmp_path, recipe(site), raw) == 0  # the MTA's next try is applied and answered
    assert site.load().log == [f"1 {first} bid"] and "OK      bid" in reply(site.take(), address(first))
    old = recipe(site, judge=killed).replace("EXITCODE=75", "EXITCODE=$?")
    assert deliver(tmp_path, old, message(address(first), "game g1\nplayer x y\n")) == 0  # the old recipe: lost


def test_the_old_recipes_lost_messages_which_is_why_they_changed(tmp_path):
    """The reproduction of issue 13: procmail runs a recipe line without a shell, so an
    environment assignment in front of the command fails, and the message is filed in the
    judge's mailbox with success; without EXITCODE, a failing judge mail is swallowed too."""
    site, first, raw = game_and_orders(tmp_path)
    old = f":0 w\n| JUDGE_CONFIG={site.root / 'judge.toml'} {JUDGE} mail\n"
    assert deliver(tmp_path, old, raw) == 0
    assert (tmp_path / "mbox").exists() and site.load().log == [] and site.take() == []


def test_the_documented_maildir_recipe_files_each_message_for_judge_mail_maildir(tmp_path):
    site, first, raw = game_and_orders(tmp_path)
    rc = doc_block("~/.procmailrc (Maildir)")
    maildir = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):  # made before the first message, as docs/mail-host.md says
        (maildir / sub).mkdir(parents=True)
    assert deliver(tmp_path, rc, raw) == 0
    assert len(os.listdir(maildir / "new")) == 1 and not (tmp_path / "mbox").exists()
    cron = doc_block("crontab (Maildir)").splitlines()[1].split(None, 5)[5]  # the command of its first line
    command = cron.replace("/srv/judge/.venv/bin/judge", str(JUDGE)).replace("/srv/judge/Maildir", str(maildir)) \
        .replace("/srv/judge/judge.toml", str(site.root / "judge.toml"))
    done = subprocess.run(command.split(), capture_output=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert site.load().log == [f"1 {first} bid"] and "OK      bid" in reply(site.take(), address(first))
    assert os.listdir(maildir / "new") == [] and len(os.listdir(maildir / "cur")) == 1
    (maildir / "tmp").rmdir()
    (maildir / "tmp").write_text("not a directory")  # a Maildir that cannot be written: the MTA keeps it
    assert deliver(tmp_path, rc, raw) == 75 and not (tmp_path / "mbox").exists()
