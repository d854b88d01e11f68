"""stock-round: the 18xx stock round of 1876v2 Trinidad (docs/stock-round.md)."""
from judge.rulesets.stock_round import ruleset, versions  # noqa: F401 - registers the ruleset and its older versions
