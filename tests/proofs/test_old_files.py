"""Never strand a running game: every game file kept under tests/golden/files/ (written by an
earlier judge, never edited since) still loads, replays its log and plays to the end."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.engine import bots
from judge.store import gamefile

from mailkit import flat

FILES = sorted((Path(__file__).parents[1] / "golden" / "files").glob("*/*.toml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_old_game_file_loads_replays_and_plays_to_the_end(path, tmp_path):
    work = tmp_path / path.name
    shutil.copy(path, work)
    game = gamefile.load(work)
    assert game.differences(game.replay()) == [], "the old log no longer replays to its saved state"
    logged = len(game.log)
    assert not game.is_over() and logged > 0
    bots.play_out(game)
    gamefile.save(game, work)
    again = gamefile.load(work)
    assert again.is_over() and len(again.log) > logged
    assert again.differences(again.replay()) == []


def test_there_is_an_old_file_of_every_older_version_a_ruleset_still_plays():
    """A game file written under each of a ruleset's `old_versions` (a ruleset that has none
    needs none)."""
    import tomllib

    from judge.engine import ruleset

    kept = set()
    for path in FILES:
        with open(path, "rb") as f:
            head = tomllib.load(f)
        kept.add((head["ruleset"], head["ruleset_version"]))
    missing = [f"{rs.name} version {v}" for rs in ruleset.every() for v in rs.old_versions if (rs.name, v) not in kept]
    assert not missing, f"no game file under tests/golden/files/ was written by {', '.join(missing)}"


def test_judge_upgrade_logs_the_change_and_the_game_goes_on_under_the_current_rules(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from judge.engine import ruleset
    from judge.cli import app

    from judge.engine.game import Game

    work = tmp_path / "g.toml"
    game = Game.new("stock-round", bots.NAMES[:4], seed=14)
    for _ in range(50):
        bots.play_one(game)
    gamefile.create(game, work)
    rs = ruleset.get("stock-round")
    monkeypatch.setattr(rs, "old_versions", (*rs.old_versions, rs.version))
    monkeypatch.setattr(rs, "version", rs.version + 1)  # as if the rules had changed since
    before = gamefile.load(work)
    assert before.ruleset.version == rs.version - 1 and before.ruleset is not rs
    result = CliRunner().invoke(app, ["upgrade", str(work)])
    assert result.exit_code == 0, result.output
    assert f"to version {rs.version}" in flat(result.output)
    after = gamefile.load(work)
    upgrade = f"{before.move} judge: upgrade from version {rs.version - 1} to version {rs.version}"
    assert after.ruleset is rs and after.log == [*before.log, upgrade]
    assert after.state["judged"] == [upgrade] and after.state["events"][-1]["text"] == (
        f"From here the game is played by version {rs.version} of the stock-round rules (judge upgrade from "
        f"version {rs.version - 1}).")
    assert {k: v for k, v in after.state.items() if k not in ("judged", "events")} == \
        {k: v for k, v in before.state.items() if k != "events"}
    assert after.differences(after.replay()) == [] and after.audit() == []
    result = CliRunner().invoke(app, ["upgrade", str(work)])
    assert result.exit_code == 2 and "already" in result.output


def test_every_ruleset_says_what_each_of_its_versions_changed():
    """`judge upgrade` tells a game master what changes for a game: every version after the
    oldest a ruleset still plays says what it changed."""
    from judge.engine import ruleset

    for rs in ruleset.every():
        newer = [v for v in range(min((*rs.old_versions, rs.version)) + 1, rs.version + 1)]
        assert all(rs.changes.get(v) for v in newer), f"{rs.name}: changes lacks some of versions {newer}"
        if rs.old_versions:
            assert rs.changes_since(min(rs.old_versions))
