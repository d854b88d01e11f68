"""Mogul, the card game: its rules (rules.py), with the standing orders, bot and checks."""
from judge.rulesets.mogul import rules  # noqa: F401 - registers the ruleset
