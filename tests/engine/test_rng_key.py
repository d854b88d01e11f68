"""The generator of a new game is keyed by 128 secret bits (issue 23, item 2): the public record
of a running game pins the 48-bit seed by a search, but without the key the seed gives nothing.
The key lies in [rng] beside the seed, is bound by the commitment, revealed with the seed at the
end and checked by `judge audit`; games made before it (and games made with --seed) keep their
generator and replay and audit as before."""
from __future__ import annotations

import re

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import Game
from judge.engine.rng import Rng
from judge.record import public as record
from judge.store import gamefile
from mailkit import flat

from mailkit import flat

PLAYERS = ["alice", "bob", "carol"]


def judge(*args: str):
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_a_new_game_draws_with_a_128_bit_key_that_its_seed_alone_does_not_give():
    game = Game.new("rumors", PLAYERS)
    key = game.rng.key
    assert re.fullmatch(r"[0-9a-f]{32}", key) and Game.new("rumors", PLAYERS).rng.key != key
    # the seed alone (all a search of the public record could find) deals another game
    unkeyed = Game.new("rumors", PLAYERS, seed=game.rng.seed, salt=game.salt)
    assert unkeyed.rng.key == "" and unkeyed.state != game.state
    keyed = Game.new("rumors", PLAYERS, seed=game.rng.seed, salt=game.salt, key=key)
    assert keyed.state == game.state and keyed.commitment == game.commitment
    assert [Rng(5, 0, key).below(1000) for _ in range(1)] != [Rng(5).below(1000)]


def test_a_seed_given_keeps_the_generator_of_old_games():
    game = Game.new("mogul", PLAYERS, seed=42, salt="0" * 32)
    assert game.rng.key == "" and "key" not in game.to_dict()["rng"]
    assert Game.new("mogul", PLAYERS, seed=42, salt="0" * 32).to_dict() == game.to_dict()


def test_the_key_is_kept_bound_by_the_commitment_revealed_at_the_end_and_audited(tmp_path):
    path = tmp_path / "g.toml"
    code, out = judge("new", "mogul", str(path), *sum((["-p", p] for p in PLAYERS), []))
    assert code == 0, out
    game = gamefile.load(path)
    key = game.rng.key
    assert f'key = "{key}"' in path.read_text()
    assert key not in judge("show", str(path), "--as", "alice")[1] and key not in record.text(game, "g")
    bots.play_out(game)
    gamefile.save(game, path)
    assert flat(f"and the generator's key {key}:") in flat(judge("show", str(path), "--as", "bob")[1])
    code, out = judge("audit", str(path), "--commitment", game.commitment)
    assert code == 0 and out.startswith(f"ok: seed {game.rng.seed}, key, setup and salt match"), out
    finished = tmp_path / "record.toml"
    assert judge("export", str(path), str(finished))[0] == 0
    assert judge("audit", str(finished))[0] == 0  # the finished public record holds the key
    other = key[:-1] + ("0" if key[-1] != "0" else "1")
    path.write_text(path.read_text().replace(key, other))
    code, out = judge("audit", str(path))
    assert code == 5 and "changed after the game began" in out


def test_a_game_file_with_a_bad_key_is_refused_with_its_reason(tmp_path):
    path = tmp_path / "g.toml"
    assert judge("new", "mogul", str(path), *sum((["-p", p] for p in PLAYERS), []))[0] == 0
    key = gamefile.load(path).rng.key
    path.write_text(path.read_text().replace(key, "not-hex"))
    code, out = judge("status", str(path))
    assert code != 0 and flat("[rng] key must be 32 hex digits") in flat(out)
