"""Mogul, the card game: its rules (rules.py, which registers the ruleset), with the
standing-order vocabulary (standing.py), the sensible bot (bot.py), the check of a hand-edited
state (check.py) and the cards (cards.py)."""
from judge.rulesets.mogul import rules  # noqa: F401 - registers the ruleset
