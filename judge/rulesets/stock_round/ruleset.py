"""The registered stock-round ruleset: the current rules (rules.py, and turns.py: version 7's
company turns) with their standing orders (standing.py), bots (bot.py) and check (check.py)."""
from __future__ import annotations

from judge.engine.ruleset import WHOLE, Information, register
from judge.rulesets.stock_round.bot import Bot
from judge.rulesets.stock_round.check import Check
from judge.rulesets.stock_round.rules import Rules
from judge.rulesets.stock_round.standing import Standing
from judge.rulesets.stock_round.turns import Turns


@register
class StockRound(Standing, Bot, Turns, Check, Rules):
    """Stock Round (1876v2 Trinidad), the current version."""

    # holdings, money and the trains to come are public in 18xx, and so is every order
    information = Information(secret=False, orders=dict.fromkeys(Rules.verbs, WHOLE))
    score_parts = ("money", "shares")
    record_keys = ("players", "companies", "market")
    bot_standing_exact = True
