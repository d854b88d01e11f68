"""The procmail recipe of docs/mail.md, run by the real procmail (skipped where it is not
installed): orders are applied and answered, and a failing `judge mail` hands exit 75 to the
MTA instead of filing the message in the mailbox. bench/postfix_procmail.sh shows the same
behind a real Postfix, with ~/.forward too."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mailkit import address, make_site, message, new_game, reply

PROCMAIL = shutil.which("procmail")
JUDGE = Path(sys.executable).parent / "judge"
DOCS = Path(__file__).parents[2] / "docs" / "mail.md"
pytestmark = pytest.mark.skipif(not PROCMAIL or not JUDGE.exists(), reason="needs procmail and the judge script")


def doc_block(name: str) -> str:
    """The fenced block after <!-- file: NAME --> in docs/mail.md."""
    return re.search(rf"<!-- file: {re.escape(name)} -->\n```\n(.*?)```", DOCS.read_text(), re.S)[1]


def deliver(tmp_path, rcfile_text: str, raw: bytes) -> int:
    """Deliver as Postfix does to a user whose mailbox_command is procmail; the exit code."""
    rc = tmp_path / "procmailrc"
    rc.write_text(rcfile_text)
    # HOME: the judge user's home, where the judge logs a host problem it cannot log elsewhere
    done = subprocess.run([PROCMAIL, f"HOME={tmp_path}", f"DEFAULT={tmp_path / 'mbox'}",
                           f"LOGFILE={tmp_path / 'procmail.log'}", str(rc)],
                          input=b"From sender@players.test  Sun Nov 22 10:00:00 2026\n" + raw, timeout=60)
    return done.returncode


def recipe(site, config=None) -> str:
    return (doc_block("~/.procmailrc").replace("/srv/judge/.venv/bin/judge", str(JUDGE))
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
    assert deliver(tmp_path, recipe(site, unreadable), raw) == 75
    assert not (tmp_path / "mbox").exists() and site.take() == [] and site.load().log == []
    assert "cannot read configuration" in (tmp_path / "judge-errors.log").read_text()
    assert deliver(tmp_path, recipe(site), raw) == 0  # fixed: the MTA's next try is applied
    assert site.load().log == [f"1 {first} bid"]


def test_the_old_recipes_lost_messages_which_is_why_they_changed(tmp_path):
    """The reproduction of issue 13: procmail runs a recipe line without a shell, so an
    environment assignment in front of the command fails, and the message is filed in the
    judge's mailbox with success; without EXITCODE, a failing judge mail is swallowed too."""
    site, first, raw = game_and_orders(tmp_path)
    old = f":0 w\n| JUDGE_CONFIG={site.root / 'judge.toml'} {JUDGE} mail\n"
    assert deliver(tmp_path, old, raw) == 0
    assert (tmp_path / "mbox").exists() and site.load().log == [] and site.take() == []
