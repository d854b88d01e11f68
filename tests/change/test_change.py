"""One change for every entry point (judge/change/unit.py): an order from the shell on a mail
game is saved with the same mails as the same order by mail, archived, journalled; a refused
change leaves the file, the outbox and the archive as they were."""
from __future__ import annotations

import json
import subprocess

from typer.testing import CliRunner

from judge.cli import app
from judge.gateway import inbox
from mailkit import NAMES, OBSERVER, T0, make_site, message, new_game, text

runner = CliRunner()


def reports(mails) -> dict:
    """The reports and notices, by address (the answer to the sender's message left out)."""
    return {m["To"]: (m["Subject"], text(m)) for m in mails if not m["Subject"].startswith("Re:")}


def shell(site, *args):
    return runner.invoke(app, list(args), env={"JUDGE_CONFIG": str(site.root / "judge.toml")})


def test_an_order_from_the_shell_mails_the_reports_an_order_by_mail_would(tmp_path):
    (tmp_path / "m").mkdir(), (tmp_path / "s").mkdir()
    by_mail, by_shell = make_site(tmp_path / "m"), make_site(tmp_path / "s")
    passwords = new_game(by_mail)
    by_shell.game_path().write_bytes(by_mail.game_path().read_bytes())  # the same game (its commitment too)
    by_mail.take(), by_shell.take()
    first = by_mail.load().awaiting()[0]
    inbox.handle(message(f"{first}@players.test", f"game g1\nplayer {first} {passwords[first]}\nbid\n"),
                 by_mail.cfg, by_mail.outbox(), T0)
    result = shell(by_shell, "order", str(by_shell.game_path()), "--as", first, "bid")
    assert result.exit_code == 0, result.output
    sent = reports(by_shell.take())
    assert sent == reports(by_mail.take())
    assert {f"{p}@players.test" for p in NAMES} | {OBSERVER} == set(sent)  # everyone's report changed
    assert by_shell.load().log == by_mail.load().log
    journal = [json.loads(line) for line in (by_shell.cfg.games / "g1.mail.log").read_text().splitlines()]
    assert journal[-1]["sender"] == "judge (shell)"


def test_without_a_configuration_a_shell_order_changes_the_file_alone(tmp_path):
    site = make_site(tmp_path)
    new_game(site, deadline=48)  # (its first deadline: T0 + 48 h)
    site.take()
    first = site.load().awaiting()[0]
    before = site.load().meta["mail"]["deadline"]
    result = runner.invoke(app, ["order", str(site.game_path()), "--as", first, "bid"], env={"JUDGE_CONFIG": ""})
    assert result.exit_code == 0, result.output
    assert site.load().log == [f"1 {first} bid"]
    assert site.take() == []
    # the next player's deadline starts anew, as by mail: tick must not default them on the old one
    assert site.load().meta["mail"]["deadline"] > before


def test_a_refused_order_leaves_the_file_the_outbox_and_the_archive_as_they_were(tmp_path):
    site = make_site(tmp_path)
    archive = tmp_path / "archive"
    subprocess.run(["git", "init", "-q", str(archive)], check=True)
    with open(site.root / "judge.toml", "a") as f:
        f.write(f'[archive]\ngit = "{archive}"\n')
    new_game(site)
    site.take()
    before = site.game_path().read_bytes()
    first = site.load().awaiting()[0]
    result = shell(site, "order", str(site.game_path()), "--as", first, "fly")
    assert result.exit_code != 0 and "fly" in result.output
    assert site.game_path().read_bytes() == before
    assert site.take() == []
    assert subprocess.run(["git", "-C", str(archive), "log", "--oneline"], capture_output=True, text=True).stdout == ""
    result = shell(site, "order", str(site.game_path()), "--as", first, "bid")
    assert result.exit_code == 0, result.output
    log = subprocess.run(["git", "-C", str(archive), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.startswith("mogul/g1: move 2"), log
