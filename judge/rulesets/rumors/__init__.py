from judge.rulesets.rumors import rules  # noqa: F401 - registers the ruleset
