"""Provably honest dice and decks: the judge commits to the seed, the setup and a random salt at
`judge new`, shows the commitment in every report and in `judge status --json`, reveals the seed
and the salt when the game ends, and `judge audit` checks both the commitment and the replay."""
from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from judge.engine import bots
from judge.store import gamefile
from judge.cli import app

from mailkit import flat
from registry import every_name


def judge(*args: str):
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def finished(name: str, path) -> str:
    code, out = judge("new", name, str(path), *sum((["-p", p] for p in bots.NAMES[:4]), []), "--seed", "42")
    assert code == 0, out
    game = gamefile.load(path)
    bots.play_out(game)
    gamefile.save(game, path)
    return game.commitment


@pytest.mark.parametrize("name", every_name())
def test_audit_passes_on_a_finished_game_and_the_reports_reveal_seed_and_salt(name, tmp_path):
    path = tmp_path / "g.toml"
    code, out = judge("new", name, str(path), *sum((["-p", p] for p in bots.NAMES[:4]), []), "--seed", "42")
    first_report = judge("show", str(path), "--as", "alice")[1]
    commitment = re.search(r"Commitment: ([0-9a-f]{64})", first_report)[1]
    assert json.loads(judge("status", str(path), "--json")[1])["commitment"] == commitment
    assert "The seed was" not in first_report and "salt" not in first_report  # revealed only at the end
    game = gamefile.load(path)
    bots.play_out(game)
    gamefile.save(game, path)
    last_report = judge("show", str(path), "--as", "bob")[1]
    assert f"The seed was 42 and the salt {game.salt}" in " ".join(last_report.split()) and commitment in last_report
    code, out = judge("audit", str(path), "--commitment", commitment)
    assert code == 0, out
    assert " ".join(out.split()).startswith(f"ok: seed 42, setup and salt match the commitment {commitment}")


def test_audit_fails_on_a_game_whose_seed_was_edited_after_the_start(tmp_path):
    path = tmp_path / "g.toml"
    finished("mogul", path)
    text = path.read_text()
    path.write_text(text.replace("seed = 42\n", "seed = 43\n"))
    code, out = judge("audit", str(path))
    assert code == 5 and "audit failed" in out and "changed after the game began" in out


def test_audit_fails_when_the_commitment_was_recomputed_but_differs_from_the_published_one(tmp_path):
    from judge.engine.game import commitment

    path = tmp_path / "g.toml"
    published = finished("rumors", path)
    game = gamefile.load(path)
    game.setup = {"first": "bob"}  # a game master who edits the setup and the commitment alike
    game.commitment = commitment(game.ruleset, game.players, game.options, game.setup, game.rng.seed, game.salt)
    gamefile.save(game, path)
    code, out = judge("audit", str(path), "--commitment", published)
    assert code == 5 and f"not {published}" in flat(out)


def test_audit_fails_when_the_log_does_not_replay_from_the_seed(tmp_path):
    path = tmp_path / "g.toml"
    finished("mogul", path)
    game = gamefile.load(path)
    game.rng.draws += 1  # a draw that did not come from replaying the log
    gamefile.save(game, path)
    code, out = judge("audit", str(path))
    assert code == 5 and "rng" in out


def test_the_salt_is_new_for_every_game_and_hides_the_seed(tmp_path):
    commitments = set()
    for k in range(3):
        path = tmp_path / f"g{k}.toml"
        assert judge("new", "mogul", str(path), "-p", "a", "-p", "b", "-p", "c", "--seed", "7")[0] == 0
        commitments.add(gamefile.load(path).commitment)
    assert len(commitments) == 3


def test_a_game_from_before_commitments_still_plays_and_audit_says_so(tmp_path):
    import shutil
    from pathlib import Path

    old = Path(__file__).parents[1] / "golden" / "files" / "2026-11-22" / "mogul.toml"
    path = tmp_path / "old.toml"
    shutil.copy(old, path)
    assert "Commitment" not in judge("show", str(path), "--as", "alice")[1]
    code, out = judge("audit", str(path))
    assert code == 5 and "made before the judge committed" in out
