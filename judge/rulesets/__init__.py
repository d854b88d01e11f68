"""One module a ruleset; each registers itself with judge.ruleset.register."""
