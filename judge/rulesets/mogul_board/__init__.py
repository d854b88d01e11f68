"""Mogul, the board game: its rules (rules.py, which registers the ruleset; they build on
mogul's), the standing-order vocabulary (standing.py), the sensible bot (bot.py), the checks
(check.py) and the older versions of the rules (versions.py)."""
from judge.rulesets.mogul_board import rules, versions  # noqa: F401 - registers the ruleset and its older versions
