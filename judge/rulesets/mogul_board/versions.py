"""The older versions of mogul-board's rules, each a subclass of the newer rules that overrides
what differs (`Ruleset.at_version` finds them; game files written under them still load and
finish). Not registered: a new game is always played by the current version."""
from __future__ import annotations

from judge.engine.errors import IllegalOrder, OrderSyntaxError
from judge.rulesets.mogul.cards import shares_of
from judge.rulesets.mogul_board.rules import MogulBoard

NO_SELL_NONE = "'sell none' does not exist in version 1 of the rules, which this game is played by"


class MogulBoardV1(MogulBoard):
    """Version 1: a sale is just `sell` (all the box-colour shares; with none, nothing), there is
    no `sell none`, and a second who misses the deadline sells."""

    version = 1
    sell_choices = ("sell",)
    sell_usage = "write just sell: you sell all your shares of the box colour, or none and build a depot"

    def sell_prompt(self, player: str, shares: str) -> str:
        return f"sell {player}'s {shares}"

    def default_order(self, state, player):
        return {"auction": "pass", "winner": "take", "second": "sell"}.get(state["phase"])

    def parse_action(self, state, player, verb, args, text):
        if verb == "sell" and args == ["none"]:
            raise OrderSyntaxError(f"{NO_SELL_NONE}: write just sell (all your shares of the box colour), "
                                   "or build a depot instead", text)
        return super().parse_action(state, player, verb, args, text)

    def standing_action(self, view, player, w):
        """`sell none` (or `sell 0`) of a player who holds shares of the box colour cannot be
        carried out: the standing order stops, saying why."""
        order = super().standing_action(view, player, w)
        if order == "sell none":
            colour = view["revealed"]["box"]
            held = next(r for r in view["players"] if r["name"] == player)["shares"].get(colour, 0)
            raise IllegalOrder(f"{NO_SELL_NONE}: sell sells all your {shares_of(held, colour)}; "
                               "build a depot instead to keep them")
        return order
