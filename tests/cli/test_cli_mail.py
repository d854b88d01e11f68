"""The mail commands as a host runs them: judge new with addresses, judge mail, judge tick."""
import mailbox
import re
from datetime import timedelta

from typer.testing import CliRunner

from judge.cli import app
from judge.mail.mailgame import iso, parse_time
from judge.mail.passwords import check_password
from mailkit import GM_ADDRESS, address, flat, make_site, message, text

runner = CliRunner()


def run(site, *args, stdin=None):
    result = runner.invoke(app, list(args), input=stdin, env={"JUDGE_CONFIG": str(site.root / "judge.toml")})
    return result


def new_mail_game(site):
    result = run(site, "new", "mogul", str(site.game_path()), "-p", "alice=Alice@players.test",
                 "-p", "bob=bob@players.test", "-p", "carol=carol@players.test", "--seed", "1",
                 "--deadline", "48", "--grace", "6", "--observer", "watcher@watch.test")
    assert result.exit_code == 0, result.output
    return dict(re.findall(r"^  (\w+): (\w+)", result.output, re.M))


def test_new_prints_the_passwords_once_and_keeps_only_their_hashes(tmp_path):
    site = make_site(tmp_path)
    passwords = new_mail_game(site)
    assert sorted(passwords) == ["alice", "bob", "carol", "gm"]
    raw = site.game_path().read_text()
    assert not any(pw in raw for pw in passwords.values())
    mail = site.load().meta["mail"]
    assert check_password(passwords["alice"], mail["players"]["alice"]["password"])
    assert check_password(passwords["gm"], mail["gm_password"])
    assert mail["players"]["alice"]["address"] == "alice@players.test"
    welcomes = {m["To"]: text(m) for m in site.take()}
    assert sorted(welcomes) == [address(p) for p in ("alice", "bob", "carol")] + ["watcher@watch.test"]
    observer = welcomes["watcher@watch.test"]  # the observer is welcomed at creation, with the public report
    assert "You watch it" in observer and "public report, move 1" in observer
    assert not any(pw in observer for pw in passwords.values()) and "player " not in observer
    assert f"Your password: {passwords['bob']}" in welcomes[address("bob")]
    assert "report for bob, move 1" in welcomes[address("bob")]
    assert passwords["alice"] not in welcomes[address("bob")] and passwords["gm"] not in welcomes[address("bob")]


def test_new_refuses_a_half_mail_game_and_a_file_outside_the_game_directory(tmp_path):
    site = make_site(tmp_path)
    result = run(site, "new", "mogul", str(site.game_path()), "-p", "alice=a@x.test", "-p", "bob", "-p", "carol=c@x.test")
    assert result.exit_code == 2 and "every player is given as NAME=ADDRESS" in result.output
    result = run(site, "new", "mogul", str(site.game_path()), "-p", "a=a@x.test, b@x.test", "-p", "b=b@x.test", "-p", "c=c@x.test")
    assert result.exit_code == 2 and "'a@x.test, b@x.test' is not a mail address" in result.output
    result = run(site, "new", "mogul", str(tmp_path / "g1.toml"), "-p", "a=a@x.test", "-p", "b=b@x.test", "-p", "c=c@x.test")
    assert result.exit_code == 2 and flat("a mail game is a file NAME.toml in") in flat(result.output)
    result = run(site, "new", "mogul", str(tmp_path / "plain.toml"), "-p", "a", "-p", "b", "-p", "c")
    assert result.exit_code == 0  # a game without mail needs no configuration


def test_mail_from_standard_input_and_from_a_maildir(tmp_path):
    site = make_site(tmp_path)
    pw = new_mail_game(site)
    site.take()
    first = site.load().awaiting()[0]
    raw = message(address(first), f"game g1\nplayer {first} {pw[first]}\nbid\n")
    result = run(site, "mail", stdin=raw)
    assert result.exit_code == 0 and "1 game, answered, 4 other mails" in result.output
    inbox = mailbox.Maildir(str(tmp_path / "in"), create=True)
    inbox.add(raw)  # the same message again, and the game master asking for the status
    inbox.add(message(GM_ADDRESS, f"game g1\nplayer gm {pw['gm']}\nstatus\n"))
    result = run(site, "mail", "--maildir", str(tmp_path / "in"))
    assert result.exit_code == 0 and "2 messages handled" in result.output
    assert len(list((tmp_path / "in" / "cur").iterdir())) == 2 and not list((tmp_path / "in" / "new").iterdir())
    assert len(site.load().log) == 1


def test_tick_from_cron_with_a_given_time(tmp_path):
    site = make_site(tmp_path)
    new_mail_game(site)
    first = site.load().awaiting()[0]
    deadline = parse_time(site.load().meta["mail"]["deadline"])
    assert run(site, "tick", "--now", iso(deadline)).output == f"g1: reminded {first}\n"
    assert run(site, "tick", "--now", iso(deadline + timedelta(hours=5))).output == ""  # grace
    result = run(site, "tick", "--now", iso(deadline + timedelta(hours=6)))
    assert result.exit_code == 0 and result.output.startswith(f"g1: Missed order: {first}")
    assert run(site, "tick", "--now", "yesterday").exit_code == 2


def test_without_configuration_the_mail_commands_say_what_is_missing(tmp_path):
    result = runner.invoke(app, ["tick"], env={"JUDGE_CONFIG": ""})
    assert result.exit_code == 2 and "no configuration: give --config judge.toml or set JUDGE_CONFIG" in result.output
    (tmp_path / "bad.toml").write_text('address = "j@x.test"\ngm = "g@x.test"\ngames = "."\n')
    result = runner.invoke(app, ["tick", "--config", str(tmp_path / "bad.toml")])
    assert result.exit_code == 2 and flat("exactly one of [smtp] and [maildir]") in flat(result.output)
