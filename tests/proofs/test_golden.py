"""Golden games: each registered ruleset has a recorded game under tests/golden/ whose orders
replay to the same reports, byte for byte, for every player, the public and the game master.
Record one with `python tests/golden/record.py RULESET`."""
from __future__ import annotations

import difflib
import tomllib
from pathlib import Path

import pytest

from judge.store import gamefile
from judge.engine import ruleset
from judge.engine.errors import GameFileError
from judge.engine.game import Game
from judge.engine.report import render

from registry import every_name, new_game

GOLDEN = Path(__file__).parents[1] / "golden"


def load_golden(name: str) -> dict:
    path = GOLDEN / f"{name}.toml"
    if not path.exists():
        pytest.fail(f"{name} has no golden game: record one with `python tests/golden/record.py {name}`")
    with open(path, "rb") as f:
        return tomllib.load(f)


def diff(expected: str, got: str, label: str) -> str:
    lines = difflib.unified_diff(expected.splitlines(), got.splitlines(), f"{label} (golden)", f"{label} (now)", lineterm="")
    return "\n".join(lines)


@pytest.mark.parametrize("name", every_name())
def test_the_golden_game_replays_to_the_recorded_reports(name):
    golden = load_golden(name)
    rs = ruleset.get(name)
    assert golden["ruleset_version"] == rs.version, (
        f"{name} is now version {rs.version} but its golden game was recorded with version "
        f"{golden['ruleset_version']}: re-record it if the change is meant")
    game = Game.new(name, golden["players"], seed=golden["seed"], options=golden["options"], salt=golden["salt"])
    due: dict[int, list[dict]] = {}
    for shot in golden["reports"]:
        due.setdefault(shot["after"], []).append(shot)
    failures = []

    def compare():
        for shot in due.pop(len(game.log), []):
            got = render(game.view(shot["reader"] or None))
            if got != shot["text"]:
                failures.append(diff(shot["text"], got, f"{name} after {len(game.log)} orders, reader '{shot['reader']}'"))

    compare()
    for entry in golden["orders"]:
        move, player, text = entry.split(" ", 2)
        game.submit(player, [f"#{move} {text}"])
        compare()
    assert not failures, "\n\n".join(failures[:3])
    assert due == {}, f"reports recorded after more orders than the game has: {sorted(due)}"
    assert game.is_over(), "the golden game's orders no longer play to the end"
    assert game.log == golden["orders"]


@pytest.mark.parametrize("name", every_name())
def test_a_game_file_of_a_newer_version_is_refused_naming_both(name, tmp_path):
    rs = ruleset.get(name)
    path = tmp_path / "game.toml"
    gamefile.create(new_game(name, rs.min_players, {}, 1), path)
    text = path.read_text()
    old = text.replace(f"ruleset_version = {rs.version}\n", f"ruleset_version = {rs.version + 1}\n")
    assert old != text
    path.write_text(old)
    with pytest.raises(GameFileError) as e:
        gamefile.load(path)
    message = str(e.value)
    assert f"version {rs.version + 1}" in message and "upgrade the judge" in message
    assert f"versions {', '.join(map(str, sorted({*rs.old_versions, rs.version})))}" in message
    assert path.read_text() == old
