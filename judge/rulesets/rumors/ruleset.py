"""The registered rumors ruleset: the rules (rules.py) with their standing orders (standing.py),
the sensible bot (bot.py) and the check of a hand-edited state (check.py)."""
from __future__ import annotations

from judge.engine.ruleset import register
from judge.rulesets.rumors.bot import Bot
from judge.rulesets.rumors.check import Check
from judge.rulesets.rumors.rules import Rules
from judge.rulesets.rumors.standing import Standing


@register
class Rumors(Standing, Bot, Check, Rules):
    """Rumors as a new game plays it (`version`); versions.py holds the older versions."""
