"""One package a ruleset; each registers itself with judge.engine.ruleset.register."""
from judge.engine.paths import dropped_in

# the rulesets of the dropped-in trees too ($JUDGE_RULESETS_PATH: judge/engine/paths.py)
__path__ += [str(root / "rulesets") for root in dropped_in()]
