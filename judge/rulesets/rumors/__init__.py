"""Rumors, the dice and short-selling stock game: the rules (rules.py) with the standing
orders, bot and check (standing.py, bot.py, check.py), registered in ruleset.py; the older
versions in versions.py."""
from judge.rulesets.rumors import ruleset, versions  # noqa: F401 - registers the ruleset and its versions
