"""Mogul's standing orders (judge/engine/standing.py runs them): `bid until pot N [keep K]
[head to head]`, `credit when out of chips [head to head]`, `if winner take|sell ...` and
`if second sell ...`. They read the player's view only, as a bot does."""
from __future__ import annotations

from judge.engine.errors import OrderSyntaxError
from judge.engine.orders import parse_count, words


class Standing:
    """The standing-order vocabulary of mogul (a mixin of the registered ruleset)."""

    standing_starts = ("bid", "if", "credit")
    standing_forms = ("bid until pot N [keep K] [head to head]", "credit when out of chips [head to head]",
                      "if winner take", "if winner sell all|none|N", "if second sell all|none|N")
    roles = ("winner", "second")
    H2H = ["head", "to", "head"]

    def standing_parse(self, view, player, text):
        w = words(text)
        h2h = w[-3:] == self.H2H
        if h2h:
            w = w[:-3]
        if w[:2] == ["bid", "until"]:
            if len(w) not in (4, 6) or w[2] != "pot" or w[4:5] not in ([], ["keep"]):
                raise OrderSyntaxError("write bid until pot N (bid while the pot holds fewer than N chips, then pass), "
                                       "with keep K to stand aside with K chips or fewer, head to head for the "
                                       "last two in the auction", text)
            keep = f" keep {parse_count(w[5], text)}" if len(w) == 6 else ""
            return f"bid until pot {parse_count(w[3], text)}{keep}" + (" head to head" if h2h else "")
        if w[0] == "credit" and w[1:2] == ["when"]:  # ('credit 3' is the order credit, mistyped)
            if w[1:] != ["when", "out", "of", "chips"]:
                raise OrderSyntaxError("write credit when out of chips [head to head]", text)
            return "credit when out of chips" + (" head to head" if h2h else "")
        if w[0] != "if":
            return None
        if len(w) < 3 or w[1] not in self.roles or h2h:
            raise OrderSyntaxError("write if winner ORDER or if second ORDER", text)
        return f"if {w[1]} {self.standing_choice(w[1], w[2:], text)}"

    def standing_choice(self, role: str, w: list[str], text: str) -> str:
        """The canonical choice of `if winner ...` / `if second ...`."""
        if w == ["take"]:
            if role == "second":
                raise OrderSyntaxError("the second takes the card only when the winner sells: write if second sell ...", text)
            return "take"
        if w[0] == "sell" and len(w) == 2:
            return f"sell {w[1] if w[1] in ('all', 'none') else parse_count(w[1], text)}"
        raise OrderSyntaxError(f"write if {role} sell all, if {role} sell none or if {role} sell N"
                               + (", or if winner take" if role == "winner" else ""), text)

    def standing_order(self, view, player, text):
        w = text.split()
        if w[0] in ("bid", "credit"):
            chips = next(r for r in view["players"] if r["name"] == player)["chips"]  # (their own: seen)
            if w[-3:] == self.H2H:
                if len(view["auction"]["in"]) != 2:
                    return None
                w = w[:-3]
            if view["phase"] != "auction" or (len(w) == 6 and chips <= int(w[5])):
                return None
            if w[0] == "credit":
                return "credit" if not chips else None
            return "bid" if view["pot"] < int(w[3]) and chips else "pass"
        role = w[1]
        if view["phase"] != role or view[role] != player:
            return None
        return self.standing_action(view, player, w[2:])

    def standing_action(self, view, player, w: list[str]) -> str:
        """The order of the winner's or second's choice `w` (take, sell all|none|N)."""
        if w[0] == "take":
            return "take"
        return {"none": "sell 0"}.get(w[1], f"sell {w[1]}")

    def standing_examples(self, state, player):
        return ["bid until pot 3", "bid until pot 0", "if winner take", "if winner sell all",
                "if second sell none", "if second sell 1", "bid until pot 6 every round"]
