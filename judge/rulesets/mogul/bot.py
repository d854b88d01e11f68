"""Mogul's sensible bot: it reads the player's view only (and the published deck)."""
from __future__ import annotations


class Bot:
    """bot_order and bot_standing of mogul (a mixin of the registered ruleset)."""

    def bot_standing(self, view, rng, then=None):
        """The sensible bot's policy for the round: bid while the choice is worth more than the
        pot (with the chips it has now), then take or sell as bot_order would."""
        if then is not None or view["phase"] != "auction":
            return []
        me = self.me_in(view)
        take, sell = self.bot_take_value(view), self.bot_sell_value(view, me)
        def limit(reserve: float) -> int:
            n = 0
            while max(take, sell) - reserve > self.CHIP_VALUE * (n + 1) and n < self.data["chips"]:
                n += 1
            return n
        rich, poor = limit(0.0), limit(1.5)  # with 2 chips or fewer it keeps a reserve
        bids = [f"bid until pot {poor}"] if view["you"]["chips"] <= 2 or rich == poor else \
            [f"bid until pot {rich} keep 2", f"bid until pot {poor}"]
        sells = "sell all" if sell > 0 else "sell none"
        later = self.after_take(view)  # the second chooses after the winner took the card
        second = "sell all" if self.bot_sell_value(later, self.me_in(later)) > 0 else "sell none"
        return bids + ["if winner take" if take >= sell else f"if winner {sells}", f"if second {second}"]

    def me_in(self, view) -> dict:
        return next(p for p in view["players"] if p["name"] == view["player"])

    def after_take(self, view) -> dict:
        """The view as the second will see it: another player holds the revealed card (a copy
        of the view that shares all but that player's row with it)."""
        i = next(i for i, p in enumerate(view["players"]) if p["name"] != view["player"])
        other = dict(view["players"][i])
        c = view["revealed"]["company"]
        other["shares"] = {**other["shares"], c: other["shares"].get(c, 0) + 1}
        other["cards"] = sorted(other["cards"] + [view["revealed"]["card"]])
        return {**view, "players": view["players"][:i] + [other] + view["players"][i + 1:]}

    # ---- the sensible bot (uses only the player's view and the published deck) ----------
    CHIP_VALUE = 0.4  # points a chip is worth while the game runs (5 chips score 1 at the end)

    def bot_order(self, view, rng) -> str:
        """Bid while winning the choice is worth more than the chips; then take or sell
        whichever is worth more; as second, sell when the price beats the shares' premiums."""
        orders = view["orders"]
        me = self.me_in(view)
        take, sell = self.bot_take_value(view), self.bot_sell_value(view, me)
        held = me["shares"].get(view["revealed"]["border"], 0)
        if view["phase"] == "auction":
            chips = view["you"]["chips"]
            reserve = 1.5 if chips <= 2 else 0.0  # keep a chip or two for a better card
            stay = max(take, sell) - reserve > self.CHIP_VALUE * (view["pot"] + 1)
            return "bid" if stay and "bid" in orders else "pass"
        if view["phase"] == "winner" and take >= sell:
            return "take"
        return f"sell {held}" if sell > 0 else "sell 0"

    def bot_premiums(self, view, colour: str) -> float:
        """The premiums one share of `colour` may still earn, about one for each card of that
        company not in sight (most are in the pile; a few were sold)."""
        total = sum(self.data["deck"][colour].values())
        held = sum(p["shares"].get(colour, 0) for p in view["players"])
        return max(0, total - held - (view["revealed"]["company"] == colour))

    def bot_take_value(self, view) -> float:
        return self.bot_premiums(view, view["revealed"]["company"]) + 0.5

    def bot_sell_value(self, view, me) -> float:
        """Points from selling all my shares of the border colour, less their future premiums."""
        colour = view["revealed"]["border"]
        held = me["shares"].get(colour, 0)
        price = sum(p["shares"].get(colour, 0) for p in view["players"])
        return max(0.0, held * (price - self.bot_premiums(view, colour)))

