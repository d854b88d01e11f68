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
