"""The league's facts are the log's: missed deadlines (with the order the judge gave), resignations,
seats handed on and the end of a game are entries of the judge in its log, replayed and audited
like orders; the league reads them from the log alone, so no table beside it changes a rating,
and a forger who edits one in a finished record fails `judge audit`. Games running when the
judge began logging them (file format 1, tests/golden/files/2026-11-27-league) keep their facts
in [meta.league] to their end, read as before."""
from __future__ import annotations

import shutil
import tomllib
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, facts
from judge.gateway import deadlines
from judge.league import table
from judge.league.records import gather
from judge.record import public
from judge.store import gamefile

from mailkit import T0, flat, make_site
from test_league_games import played  # noqa: F401 (the five mail games of the league's test, finished)

GOLDEN = __import__("pathlib").Path(__file__).parents[1] / "golden" / "files" / "2026-11-27-league"


def judge(*args) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def entries(p, name: str) -> list[str]:
    return [e.split(" ", 1)[1] for e in p.site.load(name).log if facts.is_fact(e)]


def league_json(source) -> str:
    return table.as_json(table.league(gather(source)[0]))


def test_the_facts_are_entries_of_the_judge_and_no_table_holds_them(played):
    p, _, awaited = played
    for name in ("win0", "win1", "win2", "quit", "handed"):
        game = p.site.load(name)
        record = tomllib.loads((p.archive / "mogul" / f"{name}.toml").read_text())
        assert game.format == 2 and "league" not in game.meta and "league" not in record
        assert entries(p, name)[-1].startswith("judge: ended at 2026-") and facts.ended(game.state)
        assert judge("audit", p.archive / "mogul" / f"{name}.toml")[0] == 0
        for i, e in enumerate(game.log):  # the judge's order for a missed deadline follows its entry
            if " judge: missed " in e:
                seat = e.split()[3]
                assert game.log[i + 1].startswith(f"{e.split()[0]} {seat} ")
    assert any(e.startswith("judge: missed carol by ") for e in entries(p, "win0"))
    assert [e for e in entries(p, "quit") if "ended" not in e] == ["judge: resigned bob"]
    handed = entries(p, "handed")
    assert "judge: seat carol to dave" in handed and not any(" missed " in e for e in handed)  # rolled back
    undone = p.site.load("handed").corrections[0]["undone"]
    assert any(f" judge: missed {awaited} by " in e for e in undone)  # the rollback took it out of the log


def forged(path, out, change) -> None:
    """The finished record at `path` with its log (the record's and its game file's alike, as a
    forger would edit both) changed by `change(log)`, written to `out`."""
    data = tomllib.loads(path.read_text())
    for log in (data["log"], data["game_file"]["log"]["orders"]):
        log[:] = change(list(log))
    out.write_text(public.dumps(data))


def replace_first(old: str, new: str):
    def change(log):
        k = next(k for k, e in enumerate(log) if old in e)
        log[k] = log[k].replace(old, new)
        return log
    return change


def missed_before_an_order_of(seat: str):
    """A forged missed deadline put before an order `seat` gave in time."""
    def change(log):
        k = next(k for k, e in enumerate(log) if e.split()[1] == seat and k and " judge: " not in log[k - 1])
        log.insert(k, f"{log[k].split()[0]} judge: missed {seat} by 2026-05-02T12:00:00Z: the default order")
        return log
    return change


FORGERIES = {  # name: (game, change of its log, what the audit names)
    "a missed deadline laid on another seat": ("win0", replace_first(" judge: missed carol ", " judge: missed alice "),
                                               "is not followed by the order the judge gave for alice"),
    "a missed deadline added": ("win1", missed_before_an_order_of("bob"), "the judge's entries: the log gives"),
    "a resignation taken out": ("quit", lambda log: [e for e in log if " judge: resigned " not in e],
                                "where the saved state keeps '"),
    "a seat handed to someone else": ("handed", replace_first(" judge: seat carol to dave", " judge: seat carol to zed"),
                                      "the log gives"),
    "the end's time moved": ("win2", replace_first(" judge: ended at 2026-", " judge: ended at 2025-"),
                             "judge: ended at 2025-"),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_fact_edited_in_a_finished_record_fails_audit_naming_it(played, tmp_path, forgery):
    p, _, _ = played
    name, change, named = FORGERIES[forgery]
    out = tmp_path / f"{name}.toml"
    forged(p.archive / "mogul" / f"{name}.toml", out, change)
    code, said = judge("audit", out)
    assert code == 5 and "audit failed" in said and named in flat(said), said


def test_no_table_beside_the_log_changes_a_rating(played, tmp_path):
    p, _, _ = played
    records = tmp_path / "records"
    shutil.copytree(p.archive, records, ignore=shutil.ignore_patterns(".git"))
    before = league_json(records)
    path = records / "mogul" / "win0.toml"
    data = tomllib.loads(path.read_text())
    data["league"] = {"ended": "2020-01-01T00:00:00Z", "facts": [  # 40 missed deadlines of bob, a stranger's, a resignation
        *({"kind": "missed", "seat": "bob", "player": "bob", "move": m, "after": 0} for m in range(1, 41)),
        {"kind": "missed", "seat": "bob", "player": "zoe", "move": 3, "after": 0},
        {"kind": "resigned", "seat": "carol", "player": "carol", "move": 2, "after": 0}]}
    path.write_text(public.dumps(data))
    assert league_json(records) == before and judge("audit", path)[0] == 0
    games = tmp_path / "games"  # the game directory's files alike: their [meta.league]
    shutil.copytree(p.site.cfg.games, games)
    before = league_json(games)
    game = gamefile.load(games / "win0.toml")
    game.meta["league"] = data["league"]
    gamefile.save(game, games / "win0.toml")
    assert league_json(games) == before


def test_a_game_of_the_earlier_format_finishes_keeping_its_facts_in_meta_and_the_league_reads_them(tmp_path):
    """The mail game of mogul saved by the judge of 2026-11-27 (carol missed a deadline, bob
    resigned, dave's seat handed to erin, all in [meta.league] and [[corrections]]) finishes
    through `judge tick` and the bots; its facts stay where they were, the league reads them."""
    site = make_site(tmp_path)
    path = site.game_path("old")
    shutil.copy(GOLDEN / "mogul.toml", path)
    game = gamefile.load(path)
    assert game.format == 1 and [f["kind"] for f in game.meta["league"]["facts"]] == ["missed", "resigned"]
    trial = game.copy()
    bots.play_out(trial)
    game = gamefile.load(path)
    bots.play_out(game, moves=len(trial.log) - 3)  # all but the last orders in time
    gamefile.save(game, path)
    now = T0
    while not gamefile.load(path).is_over():  # the rest given by the judge at each deadline
        now += timedelta(days=30)
        assert deadlines.tick(site.cfg, site.outbox(), now)
    game = gamefile.load(path)
    kept = game.meta["league"]
    assert not any(facts.is_fact(e) for e in game.log) and "judged" not in game.state
    assert kept["ended"].startswith("20") and len(kept["facts"]) > 2 and kept["facts"][2]["kind"] == "missed"
    record = tomllib.loads(public.text(game, "old"))
    assert record["league"] == kept and judge("audit", path)[0] == 0
    [fin], _ = gather(path)
    assert len(fin.missed) == len(kept["facts"]) - 1 and fin.resigned == [(kept["facts"][1]["move"], "bob", "bob")]
    assert fin.final("dave") == "erin" and fin.ended == kept["ended"]


def test_a_rollback_logs_again_the_resignation_and_the_seat_handed_on_it_goes_back_over(tmp_path):
    from mailkit import address, new_game

    site = make_site(tmp_path)
    config = ["--config", site.root / "judge.toml"]
    new_game(site, setup=None)
    path = site.game_path()

    def order(*args):
        code, out = judge("order", path, *args, *config)
        assert code == 0, out

    order("--as", site.load().awaiting()[0], "bid")
    back = site.load().move
    order("--as", "bob", "resign")
    code, out = judge("replace", path, "carol", "dave", "--address", address("dave"), *config)
    assert code == 0, out
    while len(site.load().log) < 8:
        game = site.load()
        order("--as", game.awaiting()[0], bots.choose(game, game.awaiting()[0]))
    assert judge("rollback", path, "--to", back, "--reason", "a lost mail", *config)[0] == 0
    game = site.load()
    assert game.move == back and game.log[-2:] == [f"{back} judge: resigned bob", f"{back} judge: seat carol to dave"]
    assert judge("verify", path)[0] == 0
    bots.play_out(game)
    gamefile.save(game, path)
    assert judge("audit", path)[0] == 0
    [fin], _ = gather(path)
    assert fin.resigned == [(back, "bob", "bob")] and fin.spans["carol"] == [(1, "carol"), (back, "dave")]
