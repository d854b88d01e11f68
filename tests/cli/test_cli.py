"""The command line as a game master uses it: exit codes, messages, and files left intact."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app

from mailkit import flat

runner = CliRunner()


def judge(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "g.toml"
    r = judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11")
    assert r.exit_code == 0, r.output
    return path


def awaited(path) -> str:
    return json.loads(judge("status", path, "--json").output)["awaiting"][0]


def test_rulesets_lists_player_counts_and_options():
    r = judge("rulesets")
    assert r.exit_code == 0
    assert "mogul (version 1): Mogul, the card game, 3-6 players" in r.output
    assert "--option chip_credit=false" in r.output


def test_new_refuses_to_overwrite(game):
    before = game.read_bytes()
    r = judge("new", "mogul", game, "-p", "x", "-p", "y", "-p", "z")
    assert r.exit_code == 3 and "exists already" in r.output
    assert game.read_bytes() == before


@pytest.mark.parametrize("args, code, message", [
    (["new", "chess", "X", "-p", "a", "-p", "b"], 2, "unknown ruleset 'chess'"),
    (["new", "mogul", "X", "-p", "a", "-p", "b"], 2, "3 to 6 players, not 2"),
    (["new", "mogul", "X", "-p", "a", "-p", "b", "-p", "c", "-o", "nope=1"], 2, "no option 'nope'"),
    (["new", "mogul", "X", "-p", "a", "-p", "a", "-p", "c"], 2, "same name"),
    (["new", "mogul", "X", "-p", "gm", "-p", "b", "-p", "c"], 2, "game master's name"),
    (["status", "missing.toml"], 3, "no game file"),
])
def test_bad_commands_get_one_clear_line_and_exit_code(tmp_path, args, code, message):
    args = [str(tmp_path / a) if a in ("X", "missing.toml") else a for a in args]
    r = judge(*args)
    assert r.exit_code == code, r.output
    assert flat(message) in flat(r.output)
    assert not (tmp_path / "X").exists()


def test_a_whole_game_from_the_shell(game):
    st = json.loads(judge("status", game, "--json").output)
    assert st["move"] == 1 and st["game_over"] is False and st["winners"] == [] and len(st["awaiting"]) == 1
    who = st["awaiting"][0]
    while True:  # each `judge bot` answer ends with the line "move N: waiting for WHO (...)" (wrapped)
        r = judge("bot", game, "--as", who)
        assert r.exit_code == 0, r.output
        last = [line for line in r.output.splitlines() if line.startswith("move ")][-1]
        if "the game is over" in last:
            break
        who = re.match(r"move \d+: waiting for (\S+) ", last)[1]
    st = json.loads(judge("status", game, "--json").output)
    assert st["game_over"] and st["winners"] and st["awaiting"] == []
    r = judge("verify", game)
    assert r.exit_code == 0 and "replay to the saved state" in r.output
    rows = json.loads(judge("standings", game, "--json").output)
    assert {"player", "score", "rank"} <= set(rows[0]) and rows[0]["rank"] == 1
    assert "Final ranking" in judge("standings", game).output
    assert "Final standings" in judge("show", game).output


def test_order_show_and_standings(game):
    who = awaited(game)
    r = judge("order", game, "--as", who, "bid")
    assert r.exit_code == 0 and "ok: bid" in r.output and "move 2" in r.output
    report = judge("show", game, "--as", who).output
    assert "You hold 5 chips (secret)" in report and "Your orders now" not in report
    view = json.loads(judge("show", game, "--as", who, "--json").output)
    assert view["you"]["chips"] == 5 and view["move"] == 2
    public = json.loads(judge("show", game, "--json").output)
    assert all("chips" not in p for p in public["players"]) and "you" not in public
    assert "deck" in json.loads(judge("show", game, "--gm", "--json").output)
    assert "Score track" in judge("standings", game).output


def test_orders_from_a_file_and_from_standard_input(game, tmp_path):
    who = awaited(game)
    orders = tmp_path / "orders.txt"
    orders.write_text("# alice's orders\n#1 bid  # stay in\n")
    assert judge("order", game, "--as", who, "-f", orders).exit_code == 0
    who = awaited(game)
    r = judge("order", game, "--as", who, input="pass\n")
    assert r.exit_code == 0 and "ok: pass" in r.output


@pytest.mark.parametrize("orders, code, message", [
    (["dance"], 4, 'syntax error "dance": unknown order'),
    (["#0 bid"], 4, "stale order"),
    (["sell 2"], 4, "illegal order \"sell 2\": the auction is on"),
    (["bid 2", "bid"], 4, "takes nothing after it"),  # the second is not applied either
    (["bid 2"], 4, "takes nothing after it"),
])
def test_a_refused_order_leaves_the_file_byte_for_byte(game, orders, code, message):
    before = game.read_bytes()
    r = judge("order", game, "--as", awaited(game), *orders)
    assert r.exit_code == code and message in r.output
    assert game.read_bytes() == before


def test_wrong_player_and_binary_input(game):
    before = game.read_bytes()
    who = awaited(game)
    other = next(p for p in ("alice", "bob", "carol") if p != who)
    r = judge("order", game, "--as", other, "bid")
    assert r.exit_code == 4 and "not your turn" in r.output
    r = judge("order", game, "--as", "zed", "bid")
    assert r.exit_code == 4 and "no player 'zed'" in r.output
    r = runner.invoke(app, ["order", str(game), "--as", who], input=b"\xff\xfe\x00bid")
    assert r.exit_code == 2 and "not UTF-8" in r.output
    r = judge("order", game, "--as", who, "bid\x00")
    assert r.exit_code == 4 and "control or binary" in r.output
    r = judge("order", game, "--as", who, "bid " * 100)
    assert r.exit_code == 4 and "at most 200 characters" in r.output
    assert game.read_bytes() == before


def test_hand_edited_files_are_refused_with_the_reason(game):
    text = game.read_text()
    cases = {
        "chips": text.replace("chips = 6", "chips = 7", 1),
        "not valid TOML": text.replace("[state]", "[state"),
        "version": text.replace("ruleset_version = 1", "ruleset_version = 9"),
        "unknown ruleset": text.replace('ruleset = "mogul"', 'ruleset = "go"'),
    }
    for needle, edited in cases.items():
        game.write_text(edited)
        r = judge("status", game)
        assert r.exit_code == 3 and flat(needle) in flat(r.output), (needle, r.output)
    game.write_bytes(b"\x00\xff binary")
    assert judge("show", game).exit_code == 3


def test_verify_catches_a_state_that_the_log_does_not_give(game):
    who = awaited(game)
    judge("order", game, "--as", who, "bid")
    text = game.read_text()
    # move one secret chip between players: still 45 chips, but not what the log gives
    edited = text.replace("chips = 5", "chips = 4", 1).replace("chips = 6", "chips = 7", 1)
    game.write_text(edited)
    r = judge("verify", game)
    assert r.exit_code == 5 and "replay differs" in r.output and "chips" in r.output


def test_game_file_diffs_cleanly_between_turns(game):
    before = game.read_text().splitlines()
    judge("order", game, "--as", awaited(game), "bid")
    after = game.read_text().splitlines()
    changed = [line for line in after if line not in before]
    assert 0 < len(changed) <= 12  # move, pot, one player's chips, turn, rng untouched, events, log
    assert any(line.strip().startswith('"1 ') for line in changed)


def test_play_runs_a_whole_bot_game_and_prints_the_final_ranking_once():
    r = judge("play", "mogul", "--players", "4", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "public report" in r.output and r.output.count("Final standings") == 1  # the ranking, once
    assert "Final ranking" not in r.output and "stopped" not in r.output


def test_play_stops_after_n_orders_and_saves_a_running_game(tmp_path):
    path = tmp_path / "long.toml"
    r = judge("play", "stock-round", "-n", "3", "--seed", "4", "--bots", "random", "--moves", "60", "--save", path, "-q")
    assert r.exit_code == 0, r.output
    assert "stopped after 60 orders; move" in r.output and "waiting for" in r.output
    assert "Final standings" not in r.output
    r = judge("verify", path)
    assert r.exit_code == 0 and "ok: 60 orders replay" in r.output, r.output
    r = judge("bot", path, "--as", awaited(path))  # still running: the next order is taken
    assert r.exit_code == 0 and "move 62" in r.output, r.output


def test_play_with_bots_is_the_same_game_as_simulate_plays(tmp_path):
    from judge.store import gamefile
    from judge.engine import simulate

    path = tmp_path / "g.toml"
    r = judge("play", "mogul", "-n", "3", "--seed", "9", "--bots", "random,sensible", "--save", path, "-q")
    assert r.exit_code == 0, r.output
    result = simulate.play_game("mogul", ["alice", "bob", "carol"], 9, {"alice": "random", "bob": "sensible", "carol": "random"})
    from judge.engine import facts

    game = gamefile.load(path)
    orders = [e for e in game.log if not facts.is_fact(e)]  # (--save logs the end's time: the judge's entry)
    assert game.is_over() and len(orders) == result.orders and game.ruleset.winners(game.state) == result.winners
    assert [e.split(" ", 2)[2].split(" at ")[0] for e in game.log if facts.is_fact(e)] == ["ended"]


def test_play_refuses_an_existing_file_before_playing_and_bad_arguments(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text("mine")
    r = judge("play", "mogul", "--save", path)
    assert r.exit_code == 3 and "exists already" in r.output and path.read_text() == "mine"
    r = judge("play", "mogul", "--bots", "clever")
    assert r.exit_code == 2 and "--bots" in r.output
    r = judge("play", "mogul", "--moves", "-1")
    assert r.exit_code == 2 and "--moves" in r.output


def test_real_subprocess_and_python_dash_m(tmp_path):
    path = tmp_path / "sub.toml"
    cmd = [sys.executable, "-m", "judge"]
    r = subprocess.run(cmd + ["new", "mogul", str(path), "-p", "ann", "-p", "ben", "-p", "cat", "--seed", "5"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(cmd + ["order", str(path), "--as", "nobody", "bid"], capture_output=True, text=True)
    assert r.returncode == 4 and r.stderr.startswith("judge: unknown player") and r.stdout == ""
    r = subprocess.run(cmd + ["--help"], capture_output=True, text=True)  # every command, not one
    assert r.returncode == 0 and all(c in r.stdout for c in ("order", "show", "verify", "mail", "simulate"))
    r = subprocess.run(cmd + ["status", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--json" in r.stdout


def test_two_writers_at_once_lose_nothing(tmp_path):
    path = tmp_path / "race.toml"
    judge("new", "mogul", path, "-p", "a", "-p", "b", "-p", "c", "--seed", "2")
    script = (
        "import sys\n"
        "from judge.store import gamefile\nfrom judge.engine import bots\n"
        "for i in range(15):\n"
        "    with gamefile.locked(sys.argv[1]):\n"
        "        g = gamefile.load(sys.argv[1])\n"
        "        if g.is_over(): break\n"
        "        bots.play_one(g, salt=sys.argv[2])\n"
        "        gamefile.save(g, sys.argv[1])\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, str(path), str(k)]) for k in range(3)]
    assert all(p.wait() == 0 for p in procs)
    r = judge("verify", path)
    assert r.exit_code == 0, r.output
    from judge.store import gamefile

    g = gamefile.load(path)
    assert len(g.log) == 45 or g.is_over()
