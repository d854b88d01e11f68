from judge.rulesets.mogul_board import rules  # noqa: F401 - registers the ruleset
