"""Provably honest dice and decks: the judge commits to the seed, the setup and a random salt at
`judge new`, shows the commitment in every report and in `judge status --json`, reveals the seed
and the salt when the game ends, and `judge audit` checks both the commitment and the replay."""
from __future__ import annotations

import json
import re
import tomllib

import pytest
from typer.testing import CliRunner

from archivekit import site_file
from judge.engine import bots, ruleset
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


# ---- what the game master chose: set by a setup file or a given seed, said from move 1 --------
def example(rs) -> tuple[str, str]:
    """The ruleset's example setup file, and what every report must name (its setup_words)."""
    import tomllib

    return rs.setup_example, ", ".join(rs.set_by_setup(tomllib.loads(rs.setup_example)))


def test_every_ruleset_names_what_its_setup_keys_set():
    from judge.engine import ruleset

    for rs in ruleset.every():
        assert rs.setup_words, f"{rs.name}: setup_words says what each key of a setup file sets"
        assert rs.setup_example, f"{rs.name}: setup_example is a setup file that sets something"
        assert all(k in rs.setup_words for k in tomllib.loads(rs.setup_example)), rs.name


def new(tmp_path, name: str, *extra: str):
    path = tmp_path / "games" / "g.toml"
    path.parent.mkdir(exist_ok=True)
    code, out = judge("new", name, str(path), *sum((["-p", p] for p in bots.NAMES[:4]), []), *extra)
    assert code == 0, out
    return path


@pytest.mark.parametrize("name", every_name())
def test_a_setup_file_is_named_in_every_report_the_record_the_site_and_the_audit(name, tmp_path):
    setup, words = example(ruleset.get(name))
    (tmp_path / "setup.toml").write_text(setup)
    path = new(tmp_path, name, "--setup", str(tmp_path / "setup.toml"))  # no --seed: a keyed generator
    said = flat(f"Set by the game master, not drawn by the judge: {words}.")
    for who in (["--as", "alice"], ["--as", "dave"], ["--gm"], []):
        assert said in flat(judge("show", str(path), *who)[1])
    code, record = judge("export", str(path), "-")
    assert said in flat(record) and "Commitment" in record and "start_player" not in record.replace("the start player", "")
    site = tmp_path / "site"
    assert judge("site", str(path.parent), str(site))[0] == 0
    page = flat(site_file(site, name, "g").read_text())
    assert flat(f"revealed when the game is over; set by the game master, not drawn by the judge: {words}.") in page
    game = gamefile.load(path)
    bots.play_out(game)
    gamefile.save(game, path)
    assert said in flat(judge("show", str(path), "--as", "bob")[1])
    code, out = judge("audit", str(path))
    assert code == 0 and flat(f"set by the game master, not drawn by the judge: {words}.") in flat(out), out
    assert "the seed (" not in out  # the judge drew the seed and its key
    assert json.loads(judge("audit", str(path), "--json")[1])["set_by_game_master"] == words.split(", ")
    assert judge("site", str(path.parent), str(site))[0] == 0
    page = flat(re.sub(r"<[^>]+>", "", site_file(site, name, "g").read_text()))
    assert flat(f"judge audit passes (checked when this page was built): every card and roll came from the seed "
                f"committed to at the start; set by the game master, not drawn by the judge: {words}.") in page


def test_a_given_seed_is_named_from_move_1_and_a_drawn_one_is_not(tmp_path):
    seeded = new(tmp_path, "mogul", "--seed", "42")
    report = flat(judge("show", str(seeded), "--as", "alice")[1])
    assert flat("Set by the game master, not drawn by the judge: the seed (and so every draw).") in report
    (tmp_path / "setup.toml").write_text('deck_order_is_not_a_key = 1\n')
    drawn = tmp_path / "drawn.toml"
    assert judge("new", "mogul", str(drawn), "-p", "a", "-p", "b", "-p", "c")[0] == 0
    assert "Set by the game master" not in judge("show", str(drawn), "--as", "a")[1]
    (tmp_path / "both.toml").write_text('start_player = "b"\n')
    both = tmp_path / "both-game.toml"
    assert judge("new", "mogul", str(both), "-p", "a", "-p", "b", "-p", "c", "--seed", "5",
                 "--setup", str(tmp_path / "both.toml"))[0] == 0
    assert flat("not drawn by the judge: the seed (and so every draw), the start player.") in \
        flat(judge("show", str(both))[1])


def test_a_setup_changed_during_play_fails_the_audit(tmp_path):
    (tmp_path / "setup.toml").write_text('start_player = "carol"\n')
    path = new(tmp_path, "mogul", "--setup", str(tmp_path / "setup.toml"))
    published = gamefile.load(path).commitment
    game = gamefile.load(path)
    for _ in range(10):
        bots.play_one(game)
    gamefile.save(game, path)
    text = path.read_text()
    assert '[setup]\nstart_player = "carol"\n' in text
    path.write_text(text.replace('[setup]\nstart_player = "carol"\n', '[setup]\nstart_player = "bob"\n'))
    assert flat("not drawn by the judge: the start player.") in flat(judge("show", str(path))[1])  # it still plays
    game = gamefile.load(path)
    bots.play_out(game)
    gamefile.save(game, path)
    code, out = judge("audit", str(path), "--commitment", published)
    assert code == 5 and "changed after the game began" in out
    # a finished record whose setup was edited: the record is checked alone
    path.write_text(path.read_text().replace('[setup]\nstart_player = "bob"\n', '[setup]\nstart_player = "carol"\n'))
    assert judge("audit", str(path))[0] == 0
    record = tmp_path / "record.toml"
    assert judge("export", str(path), str(record))[0] == 0
    text = record.read_text()
    assert text.count('start_player = "carol"') == 1
    record.write_text(text.replace('start_player = "carol"', 'start_player = "alice"'))
    code, out = judge("audit", str(record), "--commitment", published)
    assert code == 5 and "changed after the game began" in out
