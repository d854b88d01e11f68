"""Every finished game has an end date (`judge play --save` too), `judge league --since`
says which games it cannot place, and "on time" reads "no deadlines" for orders that had
none: through the command line."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import Game
from judge.record import conduct
from judge.store import gamefile

from mailkit import flat


def judge(*args):
    out = CliRunner().invoke(app, [str(a) for a in args])
    return out.exit_code, out.output


def test_judge_play_save_stamps_the_end_and_since_names_the_games_it_cannot_place(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    for name, seed, now in (("friday", 1, "2026-11-27T10:00:00Z"), ("saturday", 2, "2026-11-28T09:30:00Z")):
        code, out = judge("play", "mogul", "-n", 3, "--seed", seed, "--save", d / f"{name}.toml", "-q", "--now", now)
        assert code == 0 and "saved" in out
    assert judge("play", "mogul", "-n", 3, "--seed", 4, "--save", d / "running.toml", "-q", "--moves", 10)[0] == 0
    ended = "judge: ended at 2026-11-27T10:00:00Z with no deadlines"  # the judge's entry (file format 2)
    assert gamefile.load(d / "friday.toml").log[-1].endswith(ended)
    assert not [e for e in gamefile.load(d / "running.toml").log if " judge: " in e]
    old = Game.new("mogul", ["alice", "bob", "carol"], seed=3)
    bots.play_out(old)
    gamefile.create(old, d / "old.toml")  # saved by no change: nothing stamped its end
    assert judge("export", d / "friday.toml", tmp_path / "friday.toml")[0] == 0
    assert ended in (tmp_path / "friday.toml").read_text()

    code, out = judge("league", d)
    assert code == 0 and "League: mogul (3 finished games, ended 2026-11-27 to 2026-11-28; 1 without an end date)" in out
    code, out = judge("league", d, "--since", "2026-11-27")
    assert code == 0 and "League: mogul (2 finished games, ended 2026-11-27 to 2026-11-28)" in out
    assert flat("--since left out 1 finished game whose record does not say when it ended (ended under a judge "
                "that did not keep the date): mogul/old") in flat(out)
    out = CliRunner().invoke(app, ["league", str(d), "--since", "2026-11-28", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["league"][0]["games"] == 1 and "mogul/old" in out.stderr
    assert judge("league", d, "--since", "2026-11-28")[1].count("ended 2026-11-28)") == 1  # one day: said once


def test_on_time_reads_no_deadlines_for_orders_that_had_none(tmp_path):
    """A game played from the shell has no deadlines: its orders are not counted on time. A
    player of a mail game with deadlines and of a shell game is measured on the first alone."""
    d = tmp_path / "games"
    d.mkdir()
    assert judge("play", "mogul", "-n", 3, "--seed", 5, "--save", d / "shell.toml", "-q",
                 "--now", "2026-11-27T10:00:00Z")[0] == 0
    code, out = judge("league", d)
    rows = [line for line in out.splitlines() if line.strip().startswith(("1 ", "2 ", "3 "))]
    assert len(rows) == 3 and all("no deadlines" in r and "%" not in r for r in rows)
    data = json.loads(judge("league", d, "--json")[1])
    assert all(p["reliability"] is None and p["timed"] == 0 and p["orders"] > 0 for p in data["league"][0]["players"])
    code, out = judge("new", "mogul", d / "next.toml", "-p", "alice", "-p", "bob", "-p", "zoe", "--min-reliability", 0.9)
    assert code == 0 and flat("alice has no finished game with deadlines on record yet: admitted") in flat(out)
    assert flat("zoe has no finished game on record yet: admitted") in flat(out)
    (d / "next.toml").unlink()
    # a mail game with deadlines that alice kept and bob missed once (as `judge tick` notes it)
    game = Game.new("mogul", ["alice", "bob", "dora"], seed=6)
    missed = False
    while not game.is_over():
        player = game.awaiting()[0]
        if player == "bob" and not missed:
            conduct.missed(game, "bob", "bob", "2026-11-20T12:00:00Z")
            missed = True
        bots.play_one(game)
    conduct.ended(game, datetime(2026, 11, 26, tzinfo=timezone.utc))
    assert game.log[-1].endswith("judge: ended at 2026-11-26T00:00:00Z")  # (a deadline was missed: it had them)
    gamefile.create(game, d / "mail.toml")
    bob_there = sum(1 for e in game.log if e.split()[1] == "bob")
    rows = {p["player"]: p for p in json.loads(judge("league", d, "--json")[1])["league"][0]["players"]}
    assert rows["bob"]["timed"] == bob_there < rows["bob"]["orders"]  # the shell game's orders are not timed
    assert rows["bob"]["reliability"] == round((bob_there - 1) / bob_there, 4)
    assert rows["alice"]["reliability"] == 1.0 and rows["dora"]["reliability"] == 1.0
    assert rows["carol"]["reliability"] is None
    text = judge("league", d)[1]
    assert f"{100 * (bob_there - 1) / bob_there:.1f}%" in text and "no deadlines" in text
