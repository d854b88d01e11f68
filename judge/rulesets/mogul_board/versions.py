"""The older versions of mogul-board's rules, each a subclass of the newer rules that overrides
what differs (`Ruleset.at_version` finds them; game files written under them still load and
finish). Not registered: a new game is always played by the current version."""
from __future__ import annotations

from judge.rulesets.mogul_board.rules import MogulBoard


class MogulBoardV1(MogulBoard):
    """Version 1: a sale is just `sell` (all the box-colour shares; with none, nothing), there is
    no `sell none`, and a second who misses the deadline sells."""

    version = 1
    sell_choices = ("sell",)
    sell_usage = "write just sell: you sell all your shares of the box colour, or none and build a depot"

    def sell_prompt(self, shares: str) -> str:
        return f"sell your {shares}"

    def default_order(self, state, player):
        return {"auction": "pass", "winner": "take", "second": "sell"}.get(state["phase"])
