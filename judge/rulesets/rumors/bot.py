"""The sensible bot of rumors: it reads only its own view, plans its round as standing orders
(`bot_standing`) and chooses an order (`bot_order`) from the expected price changes."""
from __future__ import annotations

import copy
from functools import lru_cache

from judge.rulesets.rumors.helpers import company_in, remove_all, sub_multisets


@lru_cache(maxsize=None)
def dice_sums(dice: int) -> tuple[tuple[int, float], ...]:
    """The distribution of the sum of `dice` dice: (sum, probability) pairs."""
    dist = {0: 1.0}
    for _ in range(dice):
        nxt = {}
        for s, p in dist.items():
            for f in range(1, 7):
                nxt[s + f] = nxt.get(s + f, 0.0) + p / 6
        dist = nxt
    return tuple(dist.items())


class Bot:
    """The bot's hooks, mixed into the registered ruleset (ruleset.py)."""

    def bot_standing(self, view, rng, then=None):
        """At the start of the action phase the bot plans its round from its own view, as if
        nobody else acted before its turns: its two best choices for each of its two turns, each guarded by
        a price limit where the others may change it (a buy at most what it costs now, a short
        at least what it brings now; taking dice while the company's pips are not lower),
        then pass; and `bag extra` for the roll phase."""
        if then is not None or view["phase"] != "action" or view["turns"].count(view["player"]) != 2:
            return []
        plan, seen = [], dict(view, orders=self.orders_in(view))
        for turn in (1, 2):
            gains = self.bot_gains(seen)
            best = sorted((o for o in gains if o in seen["orders"] and gains[o] > gains["pass"]),
                          key=lambda o: -gains[o])[:2]
            plan += [f"turn {turn} {o}{self.bot_guard(seen, o)}" for o in best] + [f"turn {turn} pass"]
            order = best[0] if best else "pass"
            seen = self.planned_view(seen, order)
        return plan + ["bag extra"]

    def bot_guard(self, view, order) -> str:
        w = order.split()
        if w[0] not in ("buy", "short", "dice"):
            return ""
        co = company_in(view, w[1])
        if w[0] == "buy":
            return f" if cost <= {self.buy_cost(co, int(w[2]))}"
        if w[0] == "short":
            return f" if gain >= {self.short_gain(co, int(w[2]))}"
        return f" if pips >= {co['pips']}"

    def planned_view(self, view, order) -> dict:
        """The bot's own view as it expects it after its `order` (nobody else acting): its
        money, holdings, screen, the company boards and the orders left to choose from."""
        v = copy.deepcopy(view)
        w, you = order.split(), v["you"]
        if w[0] == "pass":
            return v
        held = {h["company"]: h for h in you["holdings"]}
        if w[0] in ("buy", "short"):
            co = company_in(v, w[1])
            n = int(w[2])
            if w[0] == "buy":
                you["money"] -= self.buy_cost(co, n)
                co["filled"] -= n
            else:
                you["money"] += self.short_gain(co, n)
                co["filled"] += n
                n = -n
            held.setdefault(w[1], {"company": w[1], "shares": 0})["shares"] += n
            you["holdings"] = [h for h in held.values() if h["shares"]]
        elif w[0] == "dice":
            co = company_in(v, w[1])
            remove_all(co["dice"], [int(f) for f in w[2:]])
            co["pips"] = sum(co["dice"])
            you["screen"] = sorted(you["screen"] + [w[1]] * (len(w) - 2))
        elif w[0] == "rumor":
            remove_all(you["screen"], w[1:])
            v["rumors"] = sorted(v["rumors"] + w[1:])
        v["orders"] = self.orders_in(v)
        return v

    def orders_in(self, view) -> list[str]:
        """The action orders the bot's own `view` allows (but for the supply's stock tokens,
        which seldom run short): it plans when not yet awaited, and for its later turn."""
        you, out = view["you"], []
        for co in view["companies"]:
            c = co["name"]
            out += [f"buy {c} {n}" for n in range(1, co["filled"] + 1)
                    if self.buy_cost(co, n) <= you["money"]]
            out += [f"short {c} {n}" for n in range(1, 11 - co["filled"])]
            out += [" ".join(["dice", c, *map(str, f)]) for f in sub_multisets(co["dice"], min_size=1)]
        out += [" ".join(["rumor", *d]) for d in sub_multisets(you["screen"], 1, self.data["rumor_limit"])]
        return out + ["pass"]

    def bot_order(self, view, rng) -> str:
        """Buy or short where the expected price after this round beats the space's price;
        move dice (take them, or spread rumors) where that helps what the bot holds."""
        orders = view["orders"]
        if view["phase"] == "roll":
            return self.bot_bag(view, orders)
        if view["phase"] == "gm-roll":
            c = view["rumors"][0]
            return " ".join(["roll", c, *(str(rng.die()) for _ in range(view["rumors"].count(c)))])
        if view["phase"] != "action":
            return rng.choice(orders)
        gains = self.bot_gains(view)
        return max((o for o in gains if o in orders), key=lambda o: gains[o])

    def bot_gains(self, view) -> dict[str, float]:
        """What the sensible bot expects each action order to gain (pass: 2, the least a move
        must gain)."""
        orders = view["orders"]
        held = {h["company"]: h["shares"] for h in view["you"]["holdings"]}
        draws = max(0, self.data["dice_rolled"] * len(view["companies"]) - len(view["rumors"]))
        draws_each = round(draws / len(view["companies"]))
        gains = {"pass": 2.0}  # a move must gain a little more than nothing
        for co in view["companies"]:
            c, h = co["name"], held.get(co["name"], 0)
            dice_now = view["rumors"].count(c) + draws_each
            change = self.expected_change(co, co["pips"], dice_now)
            future = co["price"] + change
            total = 0
            for n, cost in enumerate(self.buy_costs(co["price"], co["filled"], co["filled"]), 1):
                total += future - cost
                gains[f"buy {c} {n}"] = total
            total = 0
            for n, got in enumerate(self.short_gains(co["price"], co["filled"], 10 - co["filled"]), 1):
                total += got - future
                gains[f"short {c} {n}"] = total
            if h:
                for o in orders:
                    if o.startswith(f"dice {c} "):
                        taken = sum(int(f) for f in o.split()[2:])
                        gains[o] = h * (self.expected_change(co, co["pips"] - taken, dice_now) - change)
                        gains[o] -= 0.5 * len(o.split()[2:])  # keep dice for rumors only if worth it
        for o in orders:
            if o.startswith("rumor "):
                put = o.split()[1:]
                gains[o] = sum(
                    held.get(co["name"], 0) * (
                        self.expected_change(co, co["pips"], view["rumors"].count(co["name"]) + draws_each + put.count(co["name"]))
                        - self.expected_change(co, co["pips"], view["rumors"].count(co["name"]) + draws_each))
                    for co in view["companies"] if co["name"] in put)
        return gains

    def expected_change(self, co, pips, dice) -> float:
        """The mean price change of company view `co` at `pips` plus `dice` rolled dice."""
        if not co["active"]:
            return 0.0
        return self._expected_change(co["active"]["id"], pips, co["filled"], dice)

    @lru_cache(maxsize=None)  # the bot asks the same few questions thousands of times a game
    def _expected_change(self, card_id: int, pips: int, filled: int, dice: int) -> float:
        changes = self._card_changes(card_id, filled)
        return sum(p * (changes[min(48, pips + s)] if pips + s >= 0 else self.card_change(card_id, pips + s, filled))
                   for s, p in dice_sums(dice))

    @lru_cache(maxsize=None)
    def _card_changes(self, card_id: int, filled: int) -> tuple[int, ...]:
        """The card's change at each number of pips, 0 to 48."""
        return tuple(self.card_change(card_id, pips, filled) for pips in range(49))

    def bot_bag(self, view, orders) -> str:
        text = self.bag_extra(view["you"]["screen"])
        return text if text in orders else orders[0]
