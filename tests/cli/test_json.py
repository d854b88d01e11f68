"""Answers a program can trust (issue 37, item 4): with --json every command prints one JSON
document on standard output whatever happens, a refusal included ({"ok": false, "error": ...,
"exit": CODE}), with the exit code it has without --json. Driven over every ruleset of the
registry, through successes and refusals, as a program reads them: standard output parsed,
standard error apart."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine.ruleset import GM
from judge.mail import passwords
from mailkit import address, make_site, message
from registry import every_name

def run(*args, code=0, env=None, input=None):
    """`judge ARGS --json`: its standard output parsed as JSON; the exit code must be `code`,
    and a refusal (code not 0 or 6) must be the refusal object."""
    result = CliRunner().invoke(app, [*map(str, args), "--json"], env=env, input=input)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    answer = json.loads(result.stdout)  # one JSON document, nothing else
    if code not in (0, 6):
        assert answer["ok"] is False and answer["exit"] == code and answer["error"], answer
        assert set(answer) <= {"ok", "error", "exit", "created", "done"}
    elif isinstance(answer, dict) and "ok" in answer:
        assert answer["ok"] is True
    return answer


def awaited(path) -> str:
    return run("status", path)["awaiting"][0]


def flag(who: str) -> list[str]:
    return ["--gm"] if who == GM else ["--as", who]


@pytest.mark.parametrize("name", every_name())
def test_every_game_command_answers_json_through_successes_and_refusals(name, tmp_path):
    path = tmp_path / "g.toml"
    made = run("new", name, path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", 3)
    assert made["game_file"] == str(path) and made["players"] == ["ann", "ben", "cy"] and made["move"] == 1
    run("new", name, path, "-p", "ann", "-p", "ben", "-p", "cy", code=3)  # exists already
    run("new", name, tmp_path / "x.toml", "-p", "ann", code=2)  # too few players
    for _ in range(3):
        who = awaited(path)
        moved = run("bot", path, *flag(who))
        assert moved["player"] == who and moved["accepted"]
    who = awaited(path)
    legal = run("orders", path, *flag(who))
    assert isinstance(legal, list) and legal
    assert run("order", path, *flag(who), legal[0])["accepted"]
    run("order", path, *flag(awaited(path)), "no such order at all", code=4)
    other = next(p for p in ["ann", "ben", "cy"] if p not in run("status", path)["awaiting"])
    run("order", path, "--as", other, "pass", code=4)  # not their turn
    run("order", path, code=2)  # neither --as nor --gm
    run("bot", path, "--as", other, code=4)
    run("orders", path, "--as", "nobody", code=4)
    assert run("show", path, "--as", "ann")["player"] == "ann"
    run("show", path, "--as", "ann", "--gm", code=2)
    assert isinstance(run("standings", path), list)
    assert isinstance(run("history", path), list)
    run("history", path, "--at", 2, "--as", "ben")
    assert run("verify", path)["ok"] is True
    assert run("audit", path)["ok"] is True
    run("audit", path, "--commitment", "12", code=2)
    assert run("export", path, tmp_path / "public.toml")["out"] == str(tmp_path / "public.toml")
    record = run("export", path, "-")["record"]
    assert record["game"] == "g" and "state" not in record
    run("verify", tmp_path / "public.toml", code=3)  # a running game's record
    subprocess.run(["git", "init", "-q", str(tmp_path / "archive")], check=True)
    assert run("archive", path, "--git", tmp_path / "archive")["committed"].startswith(f"{name}/g: move ")
    assert run("archive", path, "--git", tmp_path / "archive")["committed"] is None  # nothing new
    run("archive", path, "--git", tmp_path / "none", code=1)
    run("upgrade", path, code=2)  # the current version already
    assert run("rollback", path, "--to", 2, "--reason", "a test")["to"] == 2
    run("rollback", path, "--to", 99, "--reason", "a test", code=2)
    assert run("replace", path, "cy", "dan")["player"] == "dan"
    run("replace", path, "nobody", "eve", code=2)
    assert run("site", path, tmp_path / "site")["games"] == 1
    assert run("link", path, "--as", "ann")["link"].endswith(".html#k=" + run("link", path, "--as", "ann")["link"][-43:])
    for command in ("status", "show", "standings", "history", "verify", "audit", "export", "orders", "bot",
                    "order", "archive", "upgrade", "rollback", "replace", "link"):
        run(command, tmp_path / "missing.toml", *(["-"] if command == "export" else []),
            *(["--as", "ann"] if command in ("orders", "bot", "order", "link") else []),
            *(["--git", tmp_path / "archive"] if command == "archive" else []),
            *(["bid"] if command == "order" else []),
            *(["--to", 1, "--reason", "r"] if command == "rollback" else []),
            *(["a", "b"] if command == "replace" else []), code=3)
    run("status", code=2)  # a command line without its game file


@pytest.mark.parametrize("name", every_name())
def test_bot_games_and_their_audit_answer_json(name, tmp_path):
    path = tmp_path / "done.toml"
    played = run("play", name, "-n", 3, "--seed", 2, "--save", path)
    assert played["game_over"] and played["saved"] == str(path) and played["standings"][0]["rank"] == 1
    audited = run("audit", path)
    assert audited["ok"] and audited["seed"] == 2 and audited["orders"] == played["orders"]
    run("bot", path, "--as", "alice", code=4)  # game over
    run("play", name, "-n", 1, code=2)
    summary = run("simulate", name, "-n", 3, "-g", 1, "--seed", 1)
    assert summary["games"] == 1 and len(summary["lengths"]) == 1
    described = run("help", name)
    assert described["ruleset"] == name and described["text"]
    run("help", name, "nosuchtopic", code=2)


def test_the_commands_without_a_game_answer_json(tmp_path):
    assert {r["name"] for r in run("rulesets")} == set(every_name())
    assert set(run("help")["rulesets"]) == set(every_name())
    run("help", "chess", code=2)
    run("play", "mogul", "-n", 3, "--seed", 1, "--save", tmp_path / "m.toml")
    assert "league" in run("league", tmp_path)
    run("league", tmp_path, "--csv", code=2)  # --json and --csv together
    run("simulate", "chess", code=2)
    run("nosuchcommand", code=2)
    path = tmp_path / "cut.toml"
    run("new", "mogul", path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", 3)
    first = awaited(path)
    cut = run("order", path, "--as", first, "bid", "bid", code=6)  # the first bid passed the turn
    assert cut["accepted"] == ["bid"] and cut["not_judged"] == ["bid"] and "passed the turn" in cut["not_judged_why"][0]
    told = run("order", path, "--as", "ben", "press all hello")
    assert told["accepted"] == [] and "hello" in told["told"]


def test_the_mail_commands_answer_json(tmp_path, monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)
    site = make_site(tmp_path)
    env = {"JUDGE_CONFIG": str(site.root / "judge.toml")}
    made = run("new", "mogul", site.game_path(), *sum((["-p", f"{p}={address(p)}"] for p in ["ann", "ben", "cy"]), []),
               "--observer", "w@watch.test", "--deadline", 24, env=env)
    assert made["game"] == "g1" and sorted(made["passwords"]) == ["ann", "ben", "cy", "gm"] and made["observers"] == 1
    who = made["awaiting"][0]
    site.take()
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    (inbox / "new" / "1.msg").write_bytes(message(address(who), f"game g1\nplayer {who} {made['passwords'][who]}\nbid\n"))
    handled = run("mail", "--maildir", inbox, env=env)["handled"]
    assert len(handled) == 1 and "1 game, answered" in handled[0]
    piped = run("mail", env=env, input=message(address(who), "game g1\nhelp\n").decode())["handled"]
    assert len(piped) == 1
    assert run("tick", env=env)["done"] == []
    set_url = run("notify", "g1", "ntfys://ntfy.example/judge-g1", "--as", who, env=env)
    assert set_url["player"] == who and "ntfy" in set_url["said"] and "judge-g1" not in json.dumps(set_url)
    assert run("notify", "g1", "off", "--public", env=env)["public"] is True
    run("notify", "g1", "ftp://files.example/x", "--as", who, env=env, code=2)  # a scheme [notify] does not allow
    run("tick", env={"JUDGE_CONFIG": str(tmp_path / "none.toml")}, code=2)
    run("watch", env=env, code=2)  # a judge.toml without [imap] (tests/gateway/test_watch.py: its log lines)
    run("new", "mogul", site.game_path("g2"), "-p", "a=a@x.test", "-p", "b", "-p", "c=c@x.test", env=env, code=2)


def test_every_command_takes_json_and_this_file_drives_every_one():
    import typer

    commands = typer.main.get_command(app).commands
    without = [n for n, c in commands.items() if not any("--json" in p.opts for p in c.params)]
    assert not without, f"commands without --json: {without}"
    source = Path(__file__).read_text()
    missing = [n for n in commands if f'run("{n}"' not in source and f'command in ("{n}"' not in source
               and not re.search(rf'for command in \([^)]*"{n}"', source)]
    assert not missing, f"not driven with --json here: {missing}"
