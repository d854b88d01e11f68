"""Upgrades keep the proof: every game file kept under tests/golden/files/ that an earlier
version of its ruleset plays, moved to the current rules by `judge upgrade` and played to the
end, passes `judge audit` (the commitment made at move 1 with the version the game began
under; each stretch of the log replayed under its own version), and its site says so. A
forger who edits the version entry, or takes it out, fails the audit."""
from __future__ import annotations

import re
import shutil
import tomllib

import pytest
from typer.testing import CliRunner

from archivekit import site_file
from judge.cli import app
from judge.engine import bots, ruleset
from judge.store import gamefile

from mailkit import flat
from test_old_files import FILES


def judge(*args) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def version_of(path) -> tuple[str, int, bool]:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return data["ruleset"], data["ruleset_version"], bool(data.get("commitment"))


OLDER = [p for p in FILES if version_of(p)[1] < ruleset.get(version_of(p)[0]).version]


def play_out(path, cli_orders: int = 3) -> None:
    """Bots play the game at `path` to the end: the first orders through `judge bot`, the rest
    (to keep the test fast) as the judge's own bots play them, saved by the judge."""
    for _ in range(cli_orders):
        game = gamefile.load(path)
        if game.is_over():
            return
        code, out = judge("bot", path, "--as", game.awaiting()[0])
        assert code == 0, out
    game = gamefile.load(path)
    bots.play_out(game)
    gamefile.save(game, path)


@pytest.mark.parametrize("path", OLDER, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_old_file_upgraded_and_played_to_the_end_passes_audit_and_its_site_says_so(path, tmp_path):
    name, version, committed = version_of(path)
    current = ruleset.get(name).version
    work = tmp_path / "games" / f"{name}.toml"
    work.parent.mkdir()
    shutil.copy(path, work)
    before = work.read_text()
    code, out = judge("upgrade", work)
    if code != 0:  # (stock-round 1: an order of its log no longer fits) refused, the file untouched
        assert code == 3 and "cannot upgrade" in out and "does not replay" in flat(out), out
        assert work.read_text() == before
        return
    game = gamefile.load(work)
    assert game.ruleset.version == current
    assert f"judge: upgrade from version {version} to version {current}" in game.log[-1]
    play_out(work)
    code, out = judge("audit", work)
    site = tmp_path / "site"
    assert judge("site", work.parent, site)[0] == 0
    page = flat(site_file(site, name, name).read_text())
    if not committed:  # made before the judge committed to its seed: nothing to check it against
        assert code == 5 and "made before the judge committed" in out
        return
    assert code == 0, out
    assert flat(f"played by {name} version {version} until move {game.move}, then version {current}") in flat(out)
    assert "judge audit passes" in page


def judge_of(m, version) -> None:
    """The judge of the day when stock-round `version` (a class of versions.py) was the current
    one: its registry holds that version, which knows the earlier ones."""
    rules = version()
    m.setattr(rules, "old_versions", tuple(range(1, rules.version)))
    m.setitem(ruleset._REGISTRY, "stock-round", rules)


def stretches(tmp_path, monkeypatch):
    """The stock-round game of 2026-11-24 (version 3) moved to version 4 while version 4 was
    the current one, played on, then moved to version 6 while version 6 was the current one and
    played to the end: a log of three stretches. (Version 7 takes no such game: its game master
    entered trains before the revenue, which 1830's company turns refuse.)"""
    from judge.rulesets.stock_round.versions import Version4, Version6

    path = tmp_path / "stock-round.toml"
    shutil.copy(next(p for p in FILES if p.parent.name == "2026-11-24" and p.stem == "stock-round"), path)
    with monkeypatch.context() as m:
        judge_of(m, Version4)
        code, out = judge("upgrade", path)
        assert code == 0 and "from stock-round version 3 to version 4" in flat(out), out
        for _ in range(12):
            game = gamefile.load(path)
            assert judge("bot", path, "--as", game.awaiting()[0])[0] == 0
    with monkeypatch.context() as m:
        judge_of(m, Version6)
        code, out = judge("upgrade", path)
        assert code == 0 and "from stock-round version 4 to version 6" in flat(out), out
        play_out(path)
    return path


def test_a_game_upgraded_twice_audits_each_stretch_under_its_version_and_a_forged_entry_fails(tmp_path, monkeypatch):
    path = stretches(tmp_path, monkeypatch)
    code, out = judge("audit", path)
    current = 6  # (the last stretch's: today's judge audits it under version 6's rules)
    assert code == 0, out
    upgrades = [e for e in gamefile.load(path).log if " judge: upgrade " in e]
    assert [e.split(" ", 1)[1] for e in upgrades] == ["judge: upgrade from version 3 to version 4",
                                                      f"judge: upgrade from version 4 to version {current}"]
    first, second = (int(e.split()[0]) for e in upgrades)
    assert flat(f"played by stock-round version 3 until move {first}, then version 4 until move {second}, "
                f"then version {current}") in flat(out)
    text = path.read_text()

    def forged(old: str, new: str) -> str:
        assert old in text
        path.write_text(text.replace(old, new))
        code, out = judge("audit", path)
        assert code in (3, 5), out
        return flat(out)

    # the game claimed to have begun under version 4: not what the commitment of move 1 says
    out = forged(upgrades[0], upgrades[0].replace("from version 3", "from version 2"))
    assert "with stock-round version 2, which the game began under" in out and "changed after the game began" in out
    # the first upgrade taken out: the log no longer begins under the committed version
    out = forged(f'  "{upgrades[0]}",\n', "")
    assert "audit failed" in out or "does not replay" in out
    # the second upgrade moved to a later move: the stretches no longer replay to the saved state
    later = re.sub(r"^\d+", str(second + 1), upgrades[1])
    head, log = text.split("\n[log]\n")
    log = log.replace(f'  "{upgrades[1]}",\n', "")
    at = log.index(f'  "{second + 1} ')
    path.write_text(head + "\n[log]\n" + log[:at] + f'  "{later}",\n' + log[at:])
    code, out = judge("audit", path)
    assert code == 5 and flat(f"the judge's entries: the log gives {later!r} where the saved state keeps "
                              f"{upgrades[1]!r}") in flat(out), out
    # the header set back to the version the game began under
    out = forged(f"ruleset_version = {current}\n", "ruleset_version = 3\n")
    assert "version 3" in out


def test_a_rollback_to_before_an_upgrade_keeps_the_new_rules_and_the_proof(tmp_path, monkeypatch):
    """Upgraded by the judge of version 6 (version 7 takes no game whose trains were entered
    before the revenue), rolled back, played out and audited."""
    from judge.rulesets.stock_round.versions import Version6

    judge_of(monkeypatch, Version6)
    path = tmp_path / "stock-round.toml"
    shutil.copy(next(p for p in FILES if p.parent.name == "2026-11-24-afternoon"), path)
    assert judge("upgrade", path)[0] == 0
    upgraded_at = gamefile.load(path).move
    for _ in range(6):
        game = gamefile.load(path)
        assert judge("bot", path, "--as", game.awaiting()[0])[0] == 0
    for back in range(upgraded_at - 1, 1, -1):  # (a move a standing order played at once cannot be returned to)
        code, out = judge("rollback", path, "--to", back, "--reason", "a mistyped revenue")
        if "played by a standing order" not in out:
            break
    assert code == 0, out
    game = gamefile.load(path)
    current = ruleset.get("stock-round").version
    assert game.ruleset.version == current and game.move == back
    assert game.log[-1] == f"{back} judge: upgrade from version 4 to version {current}"
    assert f"{upgraded_at} judge: upgrade from version 4 to version {current}" in game.corrections[-1]["undone"]
    assert judge("verify", path)[0] == 0
    play_out(path)
    code, out = judge("audit", path)
    assert code == 0 and flat(f"played by stock-round version 4 until move {back}, then version {current}") in flat(out)
