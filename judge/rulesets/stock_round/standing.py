"""stock-round's standing orders (judge/engine/standing.py runs them): the vocabulary, and
what each gives, read from the player's own view only (`view["orders"]` are the legal
orders when the player is awaited), so a standing order cannot depend on a secret."""
from __future__ import annotations

from judge.engine.errors import IllegalOrder, OrderSyntaxError
from judge.engine.orders import pick, words


def fewest_shares_but_of(buying: str):
    """The key that ranks emergency sales `sell CO N`: of a company other than `buying` first, fewest shares first."""
    return lambda o: (o.split()[1] == buying, int(o.split()[2]))


class Standing:
    """The standing-order hooks of the stock round (a mixin of the registered ruleset)."""

    standing_starts = ("decline", "auto", "if", "emergency")
    standing_forms = ("decline offers", "decline offers CO", "if offered CO yes", "if offered CO no", "auto pass",
                      "auto buy CO company|pool", "auto buy to float",
                      "auto buy cheapest company (a share from the company of the cheapest started company I may buy)",
                      "emergency sell [CO ...] (when I must raise money for a train: the fewest shares, of the "
                      "companies listed in that order, or of any but the one buying the train first; give it during an "
                      "operating round, or with every round)")

    def standing_parse(self, view, player, text):
        w = words(text)
        if w[0] == "emergency":
            if w[1:2] != ["sell"]:
                raise OrderSyntaxError("write emergency sell, or emergency sell COMPANY ... (in the order you would sell)", text)
            return " ".join(["emergency sell", *(self.company(x, text) for x in w[2:])])
        if w == ["auto", "buy", "to", "float"]:
            return "auto buy to float"
        if w[:3] == ["auto", "buy", "cheapest"]:
            if w[3:] != ["company"]:
                raise OrderSyntaxError("write auto buy cheapest company", text)
            return "auto buy cheapest company"
        if w[:2] == ["auto", "buy"]:
            if len(w) != 4:
                raise OrderSyntaxError("write auto buy COMPANY company or auto buy COMPANY pool", text)
            co = self.company(w[2], text)
            return f"auto buy {co} {pick(w[3], ('company', 'pool'), text, what='source')}"
        if w[0] == "auto":
            if w != ["auto", "pass"]:
                raise OrderSyntaxError("write auto pass (pass at each of your turns this stock round)", text)
            return "auto pass"
        if w[0] == "decline":
            if w[1:2] != ["offers"] or len(w) > 3:
                raise OrderSyntaxError("write decline offers or decline offers COMPANY", text)
            return " ".join(["decline offers", *(self.company(x, text) for x in w[2:])])
        if len(w) != 4 or w[1] != "offered":
            raise OrderSyntaxError("write if offered COMPANY yes or if offered COMPANY no", text)
        co = self.company(w[2], text)
        return f"if offered {co} {pick(w[3], ('yes', 'no'), text, what='answer')}"

    def standing_order(self, view, player, text):
        w, sale = text.split(), view["sale"]
        if w[0] == "emergency":
            return self.emergency_order(view, w[2:]) if view["emergency"] else None
        if view["emergency"]:
            return None
        if w[0] == "auto":
            if sale or view["phase"] != "stock" or view["turn"] != player:
                return None
            if w[2:] == ["to", "float"]:
                return self.float_buy(view)
            if w[2:3] == ["cheapest"]:
                return self.cheapest_buy(view)
            return "pass" if w[1] == "pass" else f"buy {w[2]} {w[3]}"
        if not sale:
            return None
        co, for_company = sale["company"], sale["deciding"] == "company"
        if w[0] == "decline":
            return "offer no" if w[2:] in ([], [co]) else None
        return f"offer {w[3]}" if w[2] == co and not for_company else None

    def emergency_order(self, view, listed: list[str]) -> str:
        """`emergency sell [CO ...]`: the fewest shares that may be sold, of the first company
        listed that can sell (none listed: of any company but the one buying the train first,
        then of that one). Bankruptcy is never given by a standing order: with no sale left it stops."""
        sales = [o for o in view["orders"] if o != "bankrupt"]
        e = view["emergency"]
        if listed:
            sales = [o for o in sales if o.split()[1] in listed]
            key = (lambda o: (listed.index(o.split()[1]), int(o.split()[2])))
        else:
            key = fewest_shares_but_of(e["company"])
        if not sales:
            which = f"of {', '.join(listed)}" if listed else "at all"
            raise IllegalOrder(f"you must raise ${e['due']} for {e['company']}'s train and can sell no shares {which}")
        return min(sales, key=key)

    def cheapest_buy(self, view) -> str | None:
        """`auto buy cheapest company`: a share from the company of the cheapest started
        company (the first listed among equals) that the player may buy, or None."""
        started = [c for c in view["companies"] if c["director"]]
        return self.first_buy(view, sorted(started, key=lambda c: c["price"]))

    def float_buy(self, view) -> str | None:
        """`auto buy to float`: a share from the company of the started company nearest to
        floating (fewest new shares left) that the player may buy, or None."""
        unfloated = [c for c in view["companies"] if c["director"] and not c["floated"]]
        return self.first_buy(view, sorted(unfloated, key=lambda c: c["new"]))

    def first_buy(self, view, companies) -> str | None:
        """A share from the company of the first of `companies` (from the view) that the player may buy, or None."""
        return next((o for o in (f"buy {c['name']} company" for c in companies) if o in view["orders"]), None)

    def standing_stops(self, view, order, player, text):
        if text != "auto pass" or order.verb != "sell":
            return ""
        co = order.args[0]
        me = next(p for p in view["players"] if p["name"] == player)
        return f"{order.player} sold {co}, which you hold" if me["shares"].get(co) else ""

    def standing_round(self, state):
        """A stock round; orders given during the operating round are for the next one."""
        return state["round"] + (state["phase"] == "operating")

    def standing_examples(self, state, player):
        cos = self.companies
        return ["decline offers", f"decline offers {cos[0]}", f"if offered {cos[1]} yes", "auto pass", f"auto buy {cos[0]} company",
                f"if offered {cos[0]} no every round", "emergency sell every round", f"emergency sell {cos[1]} {cos[0]}",
                "auto buy cheapest company"]
