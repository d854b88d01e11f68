"""Only audited games count (issue 34, item 4): a forger swaps the winner's and the loser's
holdings in a finished record; `judge audit` fails on it, and so the league leaves the game out
and says why (text and --json), and the site marks it on its page, in its index and on the
league page. A game made before the judge committed to a seed cannot be audited: it is counted
and marked "not audited". The audit is run once a record (its row keeps the result)."""
from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import tomli_w
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import Game
from judge.record import public
from judge.store import gamefile

from mailkit import flat
from registry import new_game
from archivekit import site_file

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "files"


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def finished(seed: int):
    game = new_game("mogul", 3, {}, seed)
    bots.play_out(game)
    return game


def forge(path: Path) -> tuple[str, str]:
    """Swap the holdings of the record's winner and its last in its game file (what decides the
    standings): (the winner, the forger who now comes first)."""
    data = tomllib.loads(path.read_text())
    game = public.finished_game(data, str(path))
    ranked = sorted(game.ruleset.standings(game.state), key=lambda r: r["rank"])
    winner, forger = ranked[0]["player"], ranked[-1]["player"]
    held = data["game_file"]["state"]["players"]
    held[winner], held[forger] = held[forger], held[winner]
    path.write_text(tomli_w.dumps(data, multiline_strings=True))
    forged = public.finished_game(tomllib.loads(path.read_text()), str(path))
    assert sorted(forged.ruleset.standings(forged.state), key=lambda r: r["rank"])[0]["player"] == forger
    return winner, forger


def test_a_forged_record_is_left_out_of_the_league_and_marked_on_the_site(tmp_path, monkeypatch):
    records = tmp_path / "records" / "mogul"
    records.mkdir(parents=True)
    for k, seed in enumerate((1, 2, 3)):
        (records / f"g{k}.toml").write_text(public.text(finished(seed), f"g{k}"))
    winner, forger = forge(records / "g1.toml")
    assert judge("audit", records / "g1.toml")[0] != 0  # what anyone can check
    audits = []
    real = Game.audit
    monkeypatch.setattr(Game, "audit", lambda self: audits.append(1) or real(self))
    code, out, err = judge("league", records.parent)
    assert code == 0 and not err and len(audits) == 3
    assert "League: mogul (2 finished games" in out
    assert flat("Left out, judge audit fails (1 game):") in flat(out)
    assert flat("mogul/g1.toml: state.players") in flat(out)  # where the record differs from its replay
    data = json.loads(judge("league", records.parent, "--json")[1])
    assert [n["game"] for n in data["left_out"]] == ["mogul/g1.toml"] and "state.players" in data["left_out"][0]["why"]
    assert data["league"][0]["games"] == 2 and len(audits) == 3  # audited once a record, not once a read
    # the site says so on the game's page, in the index and on the league page
    code, out, err = judge("site", records.parent, tmp_path / "site")
    assert code == 0, err
    page = site_file(tmp_path / "site", "mogul", "g1").read_text()
    assert "judge audit fails" in page and "The league leaves this game out" in page
    assert "audit FAILS: left out of the league" in (tmp_path / "site" / "index.html").read_text()
    league = (tmp_path / "site" / "league.html").read_text()
    assert "judge audit</code> fails" in league and "<strong>mogul/g1.toml</strong>" in league
    assert json.loads((tmp_path / "site" / "league.json").read_text())["left_out"][0]["game"] == "mogul/g1.toml"
    assert len(audits) == 3  # the site took the audits from the index's rows
    # put right again (the honest record), the game counts at once
    (records / "g1.toml").write_text(public.text(finished(2), "g1"))
    code, out, _ = judge("league", records.parent)
    assert "League: mogul (3 finished games" in out and "Left out" not in out and len(audits) == 4


def test_a_game_from_before_the_commitment_is_counted_and_marked_not_audited(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    old = gamefile.load(GOLDEN / "2026-11-22" / "mogul.toml")
    assert not old.commitment
    bots.play_out(old)
    gamefile.create(old, games / "old.toml")
    gamefile.create(finished(4), games / "new.toml")
    code, out, err = judge("league", games)
    assert code == 0 and "League: mogul (2 finished games" in out
    assert flat("Counted without an audit (1 game made before the judge committed to a seed") in flat(out)
    assert "  old.toml" in out and "Left out" not in out
    assert json.loads(judge("league", games, "--json")[1])["not_audited"][0]["game"] == "old.toml"
    assert judge("site", games, tmp_path / "site")[0] == 0
    page = site_file(tmp_path / "site", "mogul", "old").read_text()
    assert "Not audited" in page and "judge audit passes" not in page
    assert "not audited" in (tmp_path / "site" / "index.html").read_text()
    assert "Counted, not audited" in (tmp_path / "site" / "league.html").read_text()
    shutil.rmtree(tmp_path / "site")


def test_the_site_and_the_league_take_results_from_the_replay_never_from_a_field_no_audit_covers(tmp_path):
    """Issue 44, item 3: editing `[view].standings` (and `standings`, and the last move's scores)
    alone made the site show the forger as the winner while `judge audit` passed. The site now
    takes every result from the replay the audit performs, shows the record's own as marked,
    and the league never read them."""
    records = tmp_path / "records" / "mogul"
    records.mkdir(parents=True)
    game = finished(5)
    path = records / "g.toml"
    path.write_text(public.text(game, "g"))
    ranked = sorted(game.ruleset.standings(game.state), key=lambda r: r["rank"])
    winner, forger = ranked[0]["player"], ranked[-1]["player"]
    data = tomllib.loads(path.read_text())
    edited = [{**r, "rank": 1 if r["player"] == forger else r["rank"] + 1} for r in data["view"]["standings"]]
    data["view"]["standings"] = data["standings"] = sorted(edited, key=lambda r: r["rank"])
    data["moves"][-1]["scores"] = list(reversed(data["moves"][-1]["scores"]))
    data["moves"][3]["orders"] = [f"{forger} pass"]  # (what the feed and the move list say)
    path.write_text(tomli_w.dumps(data, multiline_strings=True))
    assert judge("audit", path)[0] == 0  # no audit covers those fields
    code, out, err = judge("site", records.parent, tmp_path / "site")
    assert code == 0, err
    page = site_file(tmp_path / "site", "mogul", "g").read_text()
    assert f"The game is over; winners: <strong>{winner}</strong>" in page
    assert "The record says otherwise" in page and f"1. {forger}" in page and "not its replay" in page
    real = "; ".join(e.split(" ", 1)[1] for e in game.log if e.startswith("4 "))
    assert "its orders at move 4 are not its replay" in page and f'move 4</a>: {real}<' in page
    head = game.log_head()  # what a player compares with the last report they were sent
    assert f"Log head: move {head['move']} <code>{head['hash'][:16]}</code>: a report a player received" in page
    index = (tmp_path / "site" / "index.html").read_text()
    assert f"winners: {winner};" in index and "the record says otherwise" in index
    shown = json.loads(site_file(tmp_path / "site", "mogul", "g").with_suffix(".json").read_text())
    assert list(shown["moves"][-1]["scores"].values()) == data["moves"][-1]["scores"][::-1]  # the replay's
    league = json.loads(judge("league", records.parent, "--json")[1])["league"][0]["players"]
    assert next(p for p in league if p["player"] == winner)["wins"] == 1
    assert next(p for p in league if p["player"] == forger)["wins"] == 0
