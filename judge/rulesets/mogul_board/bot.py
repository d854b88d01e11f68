"""Mogul, the board game's sensible bot: it reads the player's view only."""
from __future__ import annotations

from collections import Counter


class Bot:
    """bot_order and bot_standing of mogul-board (a mixin of the registered ruleset, before
    mogul's own bot, whose `after_take` it uses)."""

    def bot_standing(self, view, rng, then=None):
        """The sensible bot's policy for the round (bot_order's, exactly): how far to bid, with
        a crowd and head to head, when to take the credit, and its choice as winner and as
        second (that one as the view will be after the winner took the card)."""
        if then is not None or view["phase"] != "auction":
            return []
        options = self.option_orders(view)
        values = [self.order_value(view, o) for o in options]
        take, rest = values[0], max(values[1:])
        best, other = max(take, rest), min(take, rest)
        chip = 1.0 if view["deck_left"] > 8 else 0.4
        me = self.me(view)
        can_credit = not me["credit"] and view["bank"] >= self.credit_chips
        lines = []
        for gain, when in ((best - other, " head to head"), (best, "")):
            if can_credit and gain >= 4 and view["deck_left"] >= 6:
                lines.append("credit when out of chips" + when)
            limit = 0
            while limit * chip < gain and limit < self.data["chips"]:
                limit += 1
            lines += [f"bid until pot {limit} keep 1{when}", f"bid until pot 0{when}"] if gain < 3 else \
                [f"bid until pot {limit}{when}"]
        choices = options[:1] + list(self.sell_choices) + options[2:]  # as action_orders lists them
        chosen = [self.order_value(view, o) for o in choices]
        winner = choices[chosen.index(max(chosen))]
        later = self.after_take(view)
        seconds = choices[1:]
        second_values = [self.order_value(later, o) for o in seconds]
        second = seconds[second_values.index(max(second_values))]

        def choice(o):
            return {"sell": "sell all", "sell none": "sell none"}.get(o, o)
        return lines + [f"if winner {choice(winner)}", f"if second {choice(second)}"]

    def bot_order(self, view, rng) -> str:
        orders = view["orders"]
        if view["phase"] != "auction":
            return max(orders, key=lambda o: self.order_value(view, o))
        me = self.me(view)
        values = [self.order_value(view, o) for o in self.option_orders(view)]
        take, rest = values[0], max(values[1:])
        best, other = max(take, rest), min(take, rest)
        gain = best if len(view["auction"]["in"]) > 2 else best - other  # over passing now
        chip = 1.0 if view["deck_left"] > 8 else 0.4  # what a chip is worth to me
        if "bid" not in orders:
            return "credit" if "credit" in orders and gain >= 4 and view["deck_left"] >= 6 else "pass"
        if view["pot"] * chip >= gain or (me["chips"] == 1 and gain < 3):
            return "pass"
        return "bid"

    def me(self, view) -> dict:
        return next(r for r in view["players"] if r["name"] == view["you"]["name"])

    def option_orders(self, view) -> list[str]:
        """take, sell and the depots I could build (or move) on the revealed box's network."""
        me, box = self.me(view), view["revealed"]["box"]
        net = next(n for n in view["map"] if n["colour"] == box)
        empty = [s["code"] for s in net["spaces"] if not s["owner"]]
        if me["depots_left"]:
            return ["take", "sell"] + [f"depot {s}" for s in empty]
        return ["take", "sell"] + [f"move {a} {b}" for a in me["depots"] for b in empty]

    def future_reveals(self, view, colour) -> float:
        """How many more cards of `colour` I expect to see revealed before the crash."""
        held = sum(r["shares"].get(colour, 0) for r in view["players"])
        unseen = view["companies"][colour]["shares"] - held - view["sold"].get(colour, 0)
        unseen -= view["revealed"]["company"] == colour
        left = view["deck_left"]
        return max(unseen, 0) * max(left - 2.5, 0) / max(left - 1, 1)

    def order_value(self, view, order) -> float:
        """What an order of the winner or second is worth to me, in points at the end."""
        me, w = self.me(view), order.split()
        if w[0] == "take":
            c = view["revealed"]["company"]
            return 1 + self.future_reveals(view, c) + 0.5 * me["shares"].get(c, 0)
        if order == "sell none":
            return 0.0
        if w[0] == "sell":
            box = view["revealed"]["box"]
            k = me["shares"].get(box, 0)
            price = sum(r["shares"].get(box, 0) for r in view["players"])
            return k * (price - 1 - self.future_reveals(view, box))
        depots = me["depots"]
        if w[0] == "depot":  # on each of its networks: n depots score n*n, n+1 score n*n+2n+1
            lines = Counter(c for s in depots for c in self.lines_at[s])
            return sum(2 * lines[c] + 1 for c in self.lines_at[w[1].upper()])
        src, dst = w[1].upper(), w[2].upper()
        return self.depot_points([dst if s == src else s for s in depots]) - self.depot_points(depots)

