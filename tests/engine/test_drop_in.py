"""A ruleset kept out of the judge's tree, dropped in by $JUDGE_RULESETS_PATH (judge/engine/paths.py):
the registry lists it, a game of it is played and its report rendered from its own templates,
with no file of the judge changed (docs/architecture.md "A new ruleset")."""
from __future__ import annotations

import os
import subprocess
import sys

from judge.engine.paths import resource

PACKAGE = '''
from judge.engine.ruleset import register
from judge.rulesets.mogul.rules import Mogul


@register
class Dropped(Mogul):
    name, title, data_name = "dropped", "Dropped Mogul", "dropped"
'''
PLAY = '''
from judge.engine import bots, ruleset
from judge.engine.game import Game
from judge.engine.report import render

print([rs.name for rs in ruleset.every()])
game = Game.new("dropped", ["a", "b", "c"], seed=1)
bots.play_out(game, moves=5)
print(render(game.view("a")).splitlines()[0])
print(ruleset.get("dropped").data["chips_each"])
'''


def test_a_ruleset_dropped_in_from_outside_the_tree_is_found_played_and_reported(tmp_path):
    (tmp_path / "rulesets" / "dropped").mkdir(parents=True)
    (tmp_path / "rulesets" / "dropped" / "__init__.py").write_text(PACKAGE)
    (tmp_path / "templates" / "dropped").mkdir(parents=True)
    (tmp_path / "templates" / "dropped" / "report.txt.j2").write_text('DROPPED {{ v.title }}\n')
    (tmp_path / "games").mkdir()
    mogul = resource("games") / "mogul.toml"  # its data, one number changed: read from the dropped-in tree
    (tmp_path / "games" / "dropped.toml").write_text(mogul.read_text().replace("chips_each = 6", "chips_each = 7"))
    env = {**os.environ, "JUDGE_RULESETS_PATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", PLAY], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    names, heading, chips = out.stdout.splitlines()
    assert "'dropped'" in names and "'mogul'" in names
    assert heading == "DROPPED Dropped Mogul" and chips == "7"
    alone = subprocess.run([sys.executable, "-c", "from judge.engine import ruleset; print([r.name for r in ruleset.every()])"],
                           env={k: v for k, v in os.environ.items() if k != "JUDGE_RULESETS_PATH"}, capture_output=True, text=True)
    assert "'dropped'" not in alone.stdout and "'mogul'" in alone.stdout
