"""Every finished game has an end date (`judge play --save` too), and `judge league --since`
says which games it cannot place: through the command line."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from judge.cli import app
from judge.store import gamefile

from mailkit import flat


def judge(*args):
    out = CliRunner().invoke(app, [str(a) for a in args])
    return out.exit_code, out.output


def test_judge_play_save_stamps_the_end_and_since_names_the_games_it_cannot_place(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    for name, seed, now in (("friday", 1, "2026-11-27T10:00:00Z"), ("saturday", 2, "2026-11-28T09:30:00Z"),
                            ("old", 3, "2026-11-26T08:00:00Z")):
        code, out = judge("play", "mogul", "-n", 3, "--seed", seed, "--save", d / f"{name}.toml", "-q", "--now", now)
        assert code == 0 and "saved" in out
    assert judge("play", "mogul", "-n", 3, "--seed", 4, "--save", d / "running.toml", "-q", "--moves", 10)[0] == 0
    assert gamefile.load(d / "friday.toml").meta["league"] == {"ended": "2026-11-27T10:00:00Z"}
    assert "league" not in gamefile.load(d / "running.toml").meta
    old = gamefile.load(d / "old.toml")
    del old.meta["league"]  # saved by a judge that kept no end date
    (d / "old.toml").write_text(gamefile.dumps(old))
    assert judge("export", d / "friday.toml", tmp_path / "friday.toml")[0] == 0
    assert 'ended = "2026-11-27T10:00:00Z"' in (tmp_path / "friday.toml").read_text()

    code, out = judge("league", d)
    assert code == 0 and "League: mogul (3 finished games, ended 2026-11-27 to 2026-11-28; 1 without an end date)" in out
    code, out = judge("league", d, "--since", "2026-11-27")
    assert code == 0 and "League: mogul (2 finished games, ended 2026-11-27 to 2026-11-28)" in out
    assert flat("--since left out 1 finished game whose record does not say when it ended (ended under a judge "
                "that did not keep the date): mogul/old") in flat(out)
    out = CliRunner().invoke(app, ["league", str(d), "--since", "2026-11-28", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["league"][0]["games"] == 1 and "mogul/old" in out.stderr
    assert judge("league", d, "--since", "2026-11-28")[1].count("ended 2026-11-28)") == 1  # one day: said once
