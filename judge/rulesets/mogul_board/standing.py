"""Mogul, the board game's standing orders: mogul's, with `sell all|none` (all or nothing) and
`depot SPACE` / `move FROM TO` for the winner and the second. They read the player's view only."""
from __future__ import annotations

from judge.engine.errors import IllegalOrder, OrderSyntaxError
from judge.rulesets.mogul.cards import shares_of
from judge.rulesets.mogul.standing import Standing as MogulStanding


class Standing:
    """The standing-order vocabulary of mogul-board (a mixin of the registered ruleset, before
    mogul's own, which it extends)."""

    standing_forms = MogulStanding.standing_forms[:3] + (
        "if winner sell all|none", "if winner depot SPACE", "if winner move FROM TO",
        "if second sell all|none", "if second depot SPACE", "if second move FROM TO")

    def standing_choice(self, role, w, text):
        if w[0] in ("depot", "move"):
            n = 1 if w[0] == "depot" else 2
            if len(w) != n + 1:
                raise OrderSyntaxError(f"write if {role} " + ("depot SPACE" if n == 1 else "move FROM TO"), text)
            return " ".join([w[0], *(self.station(x, text) for x in w[1:])])
        if w == ["sell"]:
            return "sell all"
        return super().standing_choice(role, w, text)

    def standing_action(self, view, player, w):
        """`sell all` is `sell`; `sell none` is `sell none` where the rules know it, else `sell`
        for a player holding none of the box colour; `sell N` is one of the two."""
        if w[0] != "sell":
            return " ".join(w)
        colour = view["revealed"]["box"]
        held = next(r for r in view["players"] if r["name"] == player)["shares"].get(colour, 0)
        if w[1] == "all" or (w[1] != "none" and int(w[1]) == held):
            return "sell"
        if w[1] == "none" or int(w[1]) == 0:
            return "sell none" if held or "sell none" in view["orders"] else "sell"
        raise IllegalOrder(f"you hold {shares_of(held, colour)}, and a sale is all of them or none")

    def standing_examples(self, state, player):
        return ["bid until pot 4", "if winner take", "if winner sell all", "if second sell all",
                "if winner depot NYC", "if second depot PHL", "if second move NYC PHL", "bid until pot 2 every round"]

