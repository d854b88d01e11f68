"""One package a ruleset; each registers itself with judge.engine.ruleset.register."""
