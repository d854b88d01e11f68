"""The game master's tools on a running game, through the command line: any past report on
demand (judge history), undoing orders (judge rollback) and handing a seat to a new player
(judge replace), each kept in the game file's [[corrections]] trace and the public record."""
from __future__ import annotations

import fcntl
import json
import os
import tomllib

import pytest
from typer.testing import CliRunner

from judge.engine import bots
from judge.store import gamefile
from judge.cli import app
from judge.gateway import inbox as gateway

from mailkit import NAMES, T0, address, make_site, message, new_game, reply


def judge(*args, env=None):
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def awaited(path) -> str:
    return gamefile.load(path).awaiting()[0]


def play(path, n: int) -> None:
    for _ in range(n):
        code, out = judge("bot", path, "--as", awaited(path))
        assert code == 0, out


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "friday.toml"
    code, out = judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11")
    assert code == 0, out
    return path


def test_history_shows_any_past_report_as_it_stood_then(game):
    shown = {}
    for _ in range(8):
        move = gamefile.load(game).move
        shown[move] = {who: judge("show", game, *flags)[1] for who, flags in
                       [("bob", ["--as", "bob"]), ("gm", ["--gm"]), ("public", [])]}
        play(game, 1)
    for move, reports in shown.items():
        assert judge("history", game, "--at", move, "--as", "bob")[1] == reports["bob"]
        assert judge("history", game, "--at", move, "--gm")[1] == reports["gm"]
        assert judge("history", game, "--at", move)[1] == reports["public"]
    code, out = judge("history", game, "--at", 3, "--as", "bob", "--json")
    assert code == 0 and json.loads(out)["move"] == 3 and json.loads(out)["player"] == "bob"


def test_history_lists_the_moves_with_their_public_events(game):
    play(game, 6)
    code, out = judge("history", game)
    g = gamefile.load(game)
    assert code == 0
    for entry in g.log:
        move, player, order = entry.split(" ", 2)
        assert f"move {move}: {player} {order}" in out
    assert "is the start player." in out and "chips" not in out.lower().replace("pot of", "")
    rows = json.loads(judge("history", game, "--json")[1])
    assert [r["move"] for r in rows] == list(range(1, g.move))


def test_history_refuses_a_move_that_never_was(game):
    play(game, 3)
    code, out = judge("history", game, "--at", 9)
    assert code == 2 and "move 9 is not in this game (moves 1 to 4)" in out
    code, out = judge("history", game, "--as", "bob")
    assert code == 2 and "give --at N" in out


def test_rollback_undoes_the_orders_keeps_them_in_the_trace_and_verify_passes(game, tmp_path):
    play(game, 1)
    report_at_2 = judge("show", game, "--as", "alice")[1]
    before = gamefile.load(game)
    play(game, 7)
    undone = [e for e in gamefile.load(game).log if int(e.split()[0]) >= 2]
    code, out = judge("rollback", game, "--to", 2, "--reason", "bob's bid was a typo", "--now", "2026-05-01T12:00:00Z")
    assert code == 0, out
    assert len(undone) > 1 and f"rolled back to move 2: {len(undone)} orders undone" in out
    after = gamefile.load(game)
    assert after.move == 2 and after.log == before.log[:1]
    assert after.state == gamefile.load(game).replay().state
    trace = tomllib.loads(game.read_text())["corrections"]
    assert trace == [{"kind": "rollback", "time": "2026-05-01T12:00:00Z", "from_move": 9, "to_move": 2,
                      "reason": "bob's bid was a typo", "undone": undone}]
    assert judge("verify", game)[0] == 0 and judge("audit", game)[0] == 0
    told = "\nCorrections by the game master\n  #2 The game was rolled back from move 9 to move 2: bob's bid was a typo\n\n"
    shown = judge("show", game, "--as", "alice")[1]
    assert told in shown and shown.replace(told, "", 1) == report_at_2  # the same report, told of the rollback
    judge("export", game, tmp_path / "public.toml")
    public = tomllib.loads((tmp_path / "public.toml").read_text())
    assert public["corrections"][0]["undone"] == undone and public["corrections"][0]["reason"] == "bob's bid was a typo"
    play(game, 2)  # the game goes on from there
    assert judge("verify", game)[0] == 0


@pytest.mark.parametrize("args, message", [
    (["--to", "0", "--reason", "x"], "move 0 is not in this game"),
    (["--to", "5", "--reason", "x"], "nothing to undo: no order was given at move 5 or after"),
    (["--to", "2", "--reason", " "], "give the reason for the rollback"),
])
def test_a_refused_rollback_leaves_the_file_as_it_was(game, args, message):
    play(game, 4)
    before = game.read_bytes()
    code, out = judge("rollback", game, *args)
    assert code == 2 and message in out
    assert game.read_bytes() == before


def test_rollback_and_replace_refuse_at_once_when_another_process_holds_the_game(game):
    play(game, 2)
    before = game.read_bytes()
    fd = os.open(game.with_name(f".{game.name}.lock"), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as a running `judge order` or mail gateway would
    try:
        for args in (["rollback", game, "--to", 1, "--reason", "x"], ["replace", game, "bob", "dave"]):
            code, out = judge(*args)
            assert code == 3 and "in use by another judge process" in out and "try again" in out
    finally:
        os.close(fd)
    assert game.read_bytes() == before


def test_replace_hands_a_seat_on_and_the_public_record_shows_it(game, tmp_path):
    play(game, 3)
    code, out = judge("replace", game, "bob", "dave", "--reason", "bob moved abroad", "--now", "2026-05-02T08:00:00Z")
    assert code == 0 and "dave plays the seat bob from move 4" in out
    g = gamefile.load(game)
    assert g.players == ["alice", "bob", "carol"]  # the seat keeps its name: the log replays
    assert judge("verify", game)[0] == 0
    judge("export", game, tmp_path / "public.toml")
    public = tomllib.loads((tmp_path / "public.toml").read_text())
    assert public["seats"] == {"bob": {"player": "dave", "since": 4}}
    assert public["corrections"] == [{"kind": "replace", "time": "2026-05-02T08:00:00Z", "seat": "bob",
                                      "player": "dave", "previous": "bob", "since": 4, "reason": "bob moved abroad"}]
    # the seat is found by its new player's name too; names in use are refused
    assert judge("replace", game, "dave", "erin")[0] == 0
    code, out = judge("replace", game, "erin", "carol")
    assert code == 2 and "'carol' already plays in this game" in out
    code, out = judge("replace", game, "zoe", "erin2")
    assert code == 2 and "no player 'zoe'" in out
    code, out = judge("replace", game, "alice", "x", "--address", "x@y.test")
    assert code == 2 and "--address is for mail games" in out


def test_in_a_mail_game_every_player_is_told_and_the_new_player_gets_a_password(tmp_path):
    site = make_site(tmp_path)
    passwords = new_game(site)
    site.take()
    path, config = site.game_path(), tmp_path / "judge.toml"
    for _ in range(3):
        game = site.load()
        who = game.awaiting()[0]
        order = bots.choose(game, who)
        gateway.handle(message(address(who), f"game g1\nplayer {who} {passwords[who]}\n{order}\n"), site.cfg,
                       site.outbox(), T0)
    site.take()
    code, out = judge("rollback", path, "--to", 2, "--reason", "a mistake")
    assert code == 2 and "give --config" in out
    code, out = judge("rollback", path, "--to", 2, "--reason", "carol's order was meant for another game",
                      "--config", config)
    assert code == 0, out
    mails = site.take()
    told = {m["To"] for m in mails if "rolled the game back to move 2: carol's order" in m.get_content()}
    assert told >= {address(p) for p in NAMES}
    code, out = judge("replace", path, "carol", "dave", "--config", config)
    assert code == 2 and "needs --address" in out
    code, out = judge("replace", path, "carol", "dave", "--address", "dave@players.test", "--config", config)
    assert code == 0 and "password of dave" in out
    password = out.split("): ")[-1].strip()
    mails = site.take()
    assert any(m["To"] == "dave@players.test" and "welcome" in m["Subject"] for m in mails)
    assert any(m["To"] == address("alice") and "handed the seat carol to dave" in m.get_content() for m in mails)
    assert any(m["To"] == address("carol") and "you no longer play carol" in m["Subject"] for m in mails)  # as by mail
    # the seat keeps its name: dave writes as carol, from his address, with his password
    gateway.handle(message("dave@players.test", f"game g1\nplayer carol {password}\n"), site.cfg,
                   site.outbox(), T0)
    assert "Nothing to apply." in reply(site.take(), "dave@players.test")
    gateway.handle(message(address("carol"), f"game g1\nplayer carol {passwords['carol']}\n"), site.cfg,
                   site.outbox(), T0)
    assert "not right" in reply(site.take(), address("carol"))
    assert judge("verify", path)[0] == 0


def test_the_game_master_replaces_a_player_by_mail_and_the_trace_names_the_new_player(tmp_path):
    site = make_site(tmp_path)
    passwords = new_game(site)
    gateway.handle(message("gm@judge.test", f"game g1\nplayer gm {passwords['gm']}\nreplace bob dave dave@new.test\n"),
                   site.cfg, site.outbox(), T0)
    game = site.load()
    assert game.corrections[-1]["seat"] == "bob" and game.corrections[-1]["player"] == "dave"
    assert game.meta["mail"]["players"]["bob"]["address"] == "dave@new.test"
    assert any("handed the seat bob to dave" in m.get_content() for m in site.take() if m["To"] == address("alice"))


def test_a_finished_game_whose_seed_is_revealed_is_not_rolled_back(game):
    g = gamefile.load(game)
    bots.play_out(g)
    gamefile.save(g, game)
    before = game.read_bytes()
    code, out = judge("rollback", game, "--to", 2, "--reason", "one more try")
    assert code == 2 and "seed is revealed" in out and game.read_bytes() == before


def test_game_files_without_corrections_are_written_back_byte_for_byte():
    from pathlib import Path

    for path in sorted((Path(__file__).parents[1] / "golden" / "files").glob("*/*.toml")):
        assert gamefile.dumps(gamefile.load(path)) == path.read_text(), path.name


def test_history_lists_secret_orders_as_the_public_saw_them_until_the_end(tmp_path):
    path = tmp_path / "r.toml"
    judge("new", "rumors", path, "-p", "ann", "-p", "ben", "-p", "cat", "--seed", "5")
    g = gamefile.load(path)
    while not any(" bag" in e for e in g.log):
        bots.play_one(g)
    gamefile.save(g, path)
    bag = next(e for e in g.log if " bag" in e)
    move, player, order = bag.split(" ", 2)
    listed = judge("history", path)[1]
    assert f"{player} secret order" in listed and order not in listed
    assert "has given their roll-phase order" in listed
    bots.play_out(g)
    gamefile.save(g, path)
    assert f"{player} {order}" in judge("history", path)[1]


def test_a_move_played_by_a_standing_order_has_its_report_and_can_be_rolled_back_past(tmp_path):
    # bob's standing order bids for him the moment alice has bid: move 2 lasted no time at all,
    # yet bob's and alice's reports at move 2 are what the table showed then (bob awaited),
    # and the refusal of a rollback to it is the game master's only (never a broken file)
    game = tmp_path / "g.toml"
    assert judge("new", "mogul", game, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "3")[0] == 0
    assert awaited(game) == "alice"
    before = {who: judge("show", game, "--as", who)[1] for who in ("alice", "bob")}
    assert judge("order", game, "--as", "bob", "bid until pot 5")[0] == 0
    assert judge("order", game, "--as", "alice", "bid")[0] == 0
    assert gamefile.load(game).log[-1] == "2 bob bid"
    for who in ("alice", "bob"):
        code, out = judge("history", game, "--at", 2, "--as", who)
        assert code == 0 and "move 2" in out and "Waiting for: bob" in out, out
        assert ("bid until pot 5" in out) == (who == "bob")
        assert judge("history", game, "--at", 1, "--as", who)[1] == before[who]
    code, out = judge("rollback", game, "--to", 2, "--reason", "typo")
    assert code == 2 and "move 2" in out and "standing order" in out, out
    code, out = judge("rollback", game, "--to", 1, "--reason", "typo")
    assert code == 0 and judge("verify", game)[0] == 0
