"""stock-round's bots: the sensible player's orders and standing orders, and the game
master's plausible operating results, each read from the reader's view only."""
from __future__ import annotations

from judge.engine.ruleset import GM
from judge.rulesets.stock_round.standing import fewest_shares_but_of


class Bot:
    """The bot hooks of the stock round (a mixin of the registered ruleset)."""

    def float_helps(self, written: list[str]) -> list[str]:
        """The sensible bot's standing order that helps a started company float, unless written."""
        return [] if "auto buy to float" in written else ["auto buy to float"]

    def bot_standing(self, view, rng, then=None):
        """The sensible bot's stock round as standing orders: take an offered share of a company
        with trains for itself, decline every other offer; and, once it has started the
        companies it wants, buy the shares it likes best while it can (each `auto buy` stops
        when it no longer can, and the next applies), then pass."""
        if view["phase"] not in ("reissue", "stock") or view["sale"]:
            return []
        written = [s["text"] for s in view.get("standing", [])]
        offers = [] if written else \
            [f"if offered {c['name']} yes" for c in view["companies"] if c["trains"]] + ["decline offers"]
        if "emergency sell every round" not in written:  # its choice when it must pay toward a train
            offers.append("emergency sell every round")
        me = next(p for p in view["players"] if p["name"] == view["player"])
        cheapest = 2 * min(self.par_prices())
        may_start = any(not c["director"] for c in view["companies"]) and cheapest <= me["money"] * 7 // 10
        helps = self.float_helps(written)
        companies = {c["name"]: c for c in view["companies"]}

        def worth(co, source):
            c = companies[co]
            power = sum(self.train(t)["size"] for t in c["trains"])
            return (power + 3 * (co in me["directs"]), source == "company", -c["price"])
        good = [(c["name"], src) for c in view["companies"] if c["director"] for src in ("company", "pool")
                if src == "company" or c["trains"]]
        good.sort(key=lambda g: worth(*g), reverse=True)
        # A company started later in the round ranks below those with trains or its own director
        # and above the Pool's: its place is known unless it ties with one (by a price not yet set).
        # Those without trains nor its directorship rank cheapest first, companies started
        # later in the round among them: `auto buy cheapest company` says so.
        if any(t.startswith("auto buy ") and t != "auto buy to float" for t in written) or \
                (then or "").startswith("par ") or (len(me["directs"]) < 2 and may_start):
            return offers + helps  # it may start a company: asked at its turns
        first = [g for g in good if worth(*g)[0] > 0]
        return offers + helps + [f"auto buy {co} {src}" for co, src in first] + ["auto buy cheapest company", "auto pass"]

    def bot_order(self, view, rng) -> str:
        orders = view["orders"]
        if view["player"] == GM:
            return self.gm_bot(view, rng)
        if view.get("emergency"):  # the fewest shares of a company other than the one buying the train
            if "bankrupt" in orders:  # (versions 2-5: only with nothing left to sell)
                return "bankrupt"
            return min(orders, key=fewest_shares_but_of(view["emergency"]["company"]))
        if view["sale"]:
            co = next(c for c in view["companies"] if c["name"] == view["sale"]["company"])
            return "offer yes" if view["sale"]["deciding"] != "company" and co["trains"] else "offer no"
        if view.get("discard"):  # the oldest train goes
            return orders[0]
        if orders and all(o.startswith("sell ") for o in orders):  # over the certificate limit
            me = next(p for p in view["players"] if p["name"] == view["player"])
            return min(orders, key=lambda o: (o.split()[1] in me["directs"], int(o.split()[2])))
        if view["phase"] == "reissue":
            co = next(c for c in view["companies"] if c["name"] == view["reissue"][0])
            needs = co["treasury"] < view["trains"]["cost"]
            return f"reissue {co['name']} {co['held'] if needs else 0}"
        me = next(p for p in view["players"] if p["name"] == view["player"])
        # help a started company float before starting another (version 1: every started one operates)
        unfloated = sorted((c for c in view["companies"] if c["director"] and not c["floated"]), key=lambda c: c["new"])
        helps = [f"buy {c['name']} company" for c in unfloated if f"buy {c['name']} company" in orders]
        if helps:
            return helps[0]
        if unfloated:
            orders = [o for o in orders if not o.startswith("par ")]
        pars = [o for o in orders if o.startswith("par ")]
        affordable = [o for o in pars if 2 * int(o.split()[2]) <= me["money"] * 7 // 10]
        if len(me["directs"]) < 2 and affordable:
            return max(affordable, key=lambda o: int(o.split()[2]))
        buys = [o for o in orders if o.startswith("buy ")]
        companies = {c["name"]: c for c in view["companies"]}

        def worth(order):
            c = companies[order.split()[1]]
            power = sum(self.train(t)["size"] for t in c["trains"])
            mine = c["name"] in me["directs"]
            return (power + 3 * mine, order.endswith("company"), -c["price"])

        good = [o for o in buys if o.endswith("company") or companies[o.split()[1]]["trains"]]
        return max(good, key=worth) if good else "pass"

    def gm_bot(self, view, rng) -> str:
        """Plausible operating results: each train earns 10-30 per stop, 5 more in each later
        phase (the cities grow); a company buys a
        train when it can pay for it (with two trains or more: when it keeps as much again; a
        company without trains must buy one, its director helping), and withholds to afford one
        while it has fewer than two or cannot pay for the next."""
        if view.get("turn_company"):
            return self.gm_turn_bot(view, rng)
        orders = view["orders"]
        nxt = view["trains"]["next"]
        for c in view["companies"]:  # one without trains buys the next train, or the cheapest it may (version 6)
            buys = [o for o in orders if o.startswith(f"train {c['name']} ") and len(o.split()) <= 4]  # bank, pool
            if c["floated"] and not c["trains"] and buys:
                return f"train {c['name']} {nxt}" if f"train {c['name']} {nxt}" in buys else \
                    min(buys, key=lambda o: self.train(o.split()[2])["cost"])
        for c in view["companies"]:
            if not c["floated"] or c["name"] in view["operated"]:
                continue
            co = c["name"]
            cost = view["trains"]["cost"]
            if f"train {co} {nxt}" in orders and c["treasury"] >= cost * (1 if len(c["trains"]) < 2 else 2):
                return f"train {co} {nxt}"
            later = self.train_types().index(view["train_phase"])  # cities grow as the phases go on
            return self.run(view, c, rng)
        return "done"

    def run(self, view, c, rng) -> str:
        """The operating result of company `c` (view's): what its trains plausibly earn, paid, or
        withheld to afford a train."""
        co, nxt = c["name"], view["trains"]["next"]
        later = self.train_types().index(view["train_phase"])  # cities grow as the phases go on
        revenue = sum(self.train(t)["size"] * 5 * (2 + later + 2 * rng.below(3)) for t in c["trains"]) // 10 * 10
        revenue = min(revenue, sum(self.train(t)["size"] for t in c["trains"]) * 40)  # what its trains can run
        if not revenue:
            return f"operate {co} 0 withhold"
        saving = nxt and (len(c["trains"]) < 2 or c["treasury"] < view["trains"]["cost"])
        return f"operate {co} {revenue} {'withhold' if saving else 'pay'}"

    def gm_turn_bot(self, view, rng) -> str:
        """Version 7: the turn's entries in 1830's order: now and then track or a token it can
        well afford, its run, then trains: one without a train buys the cheapest it may (another
        company's, which the seller can spare, when cheaper than the bank's; never needing its
        director's shares when a cheaper way exists), one with trains trades a 4, 5 or 6 in for a
        D, or buys the next train when it keeps as much again (with fewer than two: when it can
        pay); then done."""
        orders, co = view["orders"], view["turn_company"]
        c = next(x for x in view["companies"] if x["name"] == co)
        if view["step"] != "buy":
            cheap = [o for o in orders if o.startswith(("track ", "token "))
                     and int(o.split()[2] if o.startswith("track") else self.data["tokens"][c["tokens"]]) * 4 <= c["treasury"]]
            if view["step"] == "track" and cheap and rng.below(3) == 0:
                return cheap[0]
            return self.run(view, c, rng)
        buys = [o for o in orders if o.startswith("train ")]
        if not c["trains"] and buys:
            return min(buys, key=lambda o: self.train_cost(view, c, o))
        trade_ins = [o for o in buys if " trade " in o]
        if trade_ins:
            return trade_ins[-1]
        nxt = view["trains"]["next"]
        if f"train {co} {nxt}" in orders and c["treasury"] >= view["trains"]["cost"] * (1 if len(c["trains"]) < 2 else 2):
            return f"train {co} {nxt}"
        return "done" if "done" in orders else min(buys, key=lambda o: self.train_cost(view, c, o))

    def train_cost(self, view, c, order) -> tuple:
        """How the game master's bot ranks a purchase for a company without trains: first those
        its treasury and its director's cash pay (no shares sold, no bankruptcy where a cheaper
        way exists), then another company's train at face value from one that keeps a train
        before a lower price or a company's last train, then what the director adds, then the price."""
        w = order.split()
        price = int(w[5]) if " from " in order else self.train(w[2])["cost"]
        cash = next(p["money"] for p in view["players"] if p["name"] == c["director"])
        unfair = 0
        if " from " in order:
            seller = next(x for x in view["companies"] if x["name"] == w[4])
            unfair = int(len(seller["trains"]) < 2 or price < self.train(w[2])["cost"])
        help_ = max(0, price - c["treasury"])
        return (help_ > cash, unfair, help_, price)
