from judge.rulesets.stock_round import rules  # noqa: F401 - registers the ruleset
