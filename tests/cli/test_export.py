"""`judge export` never writes over anything but an earlier public record of the same game
(issue 23, item 9): `judge export t.toml t.toml` used to leave a public record where the game
was, its secrets gone for ever."""
from __future__ import annotations

from typer.testing import CliRunner

from judge.cli import app
from judge.store import gamefile

from mailkit import flat


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def new(path, *more):
    code, out, err = judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", *more)
    assert code == 0, err


def test_export_refuses_to_write_over_the_game_file_itself(tmp_path):
    game = tmp_path / "t.toml"
    new(game)
    before = game.read_bytes()
    code, out, err = judge("export", game, game)
    assert code == 2 and flat("is not an earlier public record of game t") in flat(err) and "never over a game file" in flat(err)
    assert game.read_bytes() == before and gamefile.load(game).rng.key  # the secrets are still there


def test_export_refuses_another_file_or_another_games_record(tmp_path):
    game, other = tmp_path / "t.toml", tmp_path / "other" / "t.toml"
    new(game)
    other.parent.mkdir()
    new(other)  # another game of the same name
    elsewhere = tmp_path / "elsewhere.toml"
    assert judge("export", other, elsewhere)[0] == 0
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    for target in (notes, elsewhere, other, tmp_path):
        before = target.read_bytes() if target.is_file() else None
        code, _, err = judge("export", game, target)
        assert code == 2 and flat("not an earlier public record of game t") in flat(err), (target, err)
        assert before is None or target.read_bytes() == before


def test_export_writes_a_new_file_and_over_its_own_earlier_record(tmp_path):
    game, out = tmp_path / "t.toml", tmp_path / "public.toml"
    new(game, "--seed", "3")
    assert judge("export", game, out)[0] == 0
    first = out.read_text()
    assert judge("bot", game, "--as", gamefile.load(game).awaiting()[0])[0] == 0
    code, said, err = judge("export", game, out)
    assert code == 0 and flat(said).startswith("wrote the public record of t at move 2") and out.read_text() != first
