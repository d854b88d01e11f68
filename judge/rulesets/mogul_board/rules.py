"""Mogul, the board game (rules/mogul-board-game.txt, RULINGS.md §2): the card game's auction
with depots on five rail networks and a once-per-game credit.

What differs from `mogul` (judge/rulesets/mogul.py), the rest is inherited: 37 stock cards
(company/box), start portfolios from the start-position placard, dividends of 1 per share. The
auction's winner chooses `take`, `sell` (all their box-colour shares, none held sells nothing),
or instead of selling `depot SPACE` (an empty station space of the box-colour network) or, with
all 6 depots built, `move FROM TO`; the second does the other option (takes the card if the
winner sold or built). `credit`, once per game in one's turn of an auction: 3 chips from the
bank, 3 back on the score track. At the crash each depot scores the number of its owner's
depots on each network its space lies on, each share 1, every 5 chips 1; tie: most shares.
"""
from __future__ import annotations

from collections import Counter
from functools import cached_property, lru_cache

from judge.engine.errors import GameFileError, IllegalOrder, OrderSyntaxError, UsageError
from judge.engine.orders import Order, pick
from judge.engine.ruleset import emit, fail, register
from judge.rulesets.mogul.rules import CRASH, Mogul, border, company


def shares_of(n: int, colour: str) -> str:
    """'1 red share', '3 red shares'."""
    return f"{n} {colour} share{'s' if n != 1 else ''}"


@register
class MogulBoard(Mogul):
    name = "mogul-board"
    title = "Mogul, the board game"
    version = 2  # 2: `sell none`, the default of a second who misses the deadline
    old_versions = (1,)
    min_players, max_players = 3, 5
    options = ()
    # fewer than 38 rounds (one a card); an auction takes at most 45 bids (every chip once), 4 passes and
    # 1 order of the winner and 1 of the second; each player takes the credit at most once
    max_moves = 38 * (45 + 4 + 2) + 5
    verbs = ("bid", "pass", "take", "sell", "depot", "move", "credit")
    arity = {
        "sell": ((0, 1), "write sell (all your shares of the box colour) or sell none"),
        "depot": (1, "write depot SPACE (a station's short name, as on the map)"),
        "move": (2, "write move FROM TO (stations' short names, as on the map)"),
    }
    setup_keys = ("start_player", "seats", "deck")
    payout = "Dividends"
    credit_chips = 3
    credit_each_auction = False
    credit_text = "{player} takes the credit: {k} chips from the bank, {k} back on the score track."

    # ---- components ---------------------------------------------------------------------
    def networks(self) -> dict[str, list[str]]:
        return self.data["networks"]

    @cached_property
    def lines_at(self) -> dict[str, list[str]]:
        """Station space -> the networks (colours) it lies on."""
        return {s: [c for c, spaces in self.networks().items() if s in spaces] for s in self.data["stations"]}

    def station(self, word: str, text: str) -> str:
        return pick(word, list(self.data["stations"]), text, what="station")

    def owners(self, state) -> dict[str, str]:
        return {s: p for p in state["seats"] for s in state["players"][p]["depots"]}

    def empty_spaces(self, state, colour) -> list[str]:
        owners = self.owners(state)
        return [s for s in self.networks()[colour] if s not in owners]

    def depot_points(self, depots: list[str]) -> int:
        """Each depot scores the number of its owner's depots on each network its space is on."""
        return self._depot_points(tuple(depots))

    @lru_cache(maxsize=4096)  # the bot weighs every move of every depot, again and again
    def _depot_points(self, depots: tuple[str, ...]) -> int:
        per_network = Counter(c for s in depots for c in self.lines_at[s])
        return sum(n * n for n in per_network.values())

    @cached_property
    def also_on(self) -> dict[tuple[str, str], str]:
        """(network, space) -> the other networks the space lies on, as one string."""
        return {(c, s): "".join(o for o in self.lines_at[s] if o != c) for c, spaces in self.networks().items() for s in spaces}

    def describe(self, card: str) -> str:
        c, name = company(card), self.data["companies"][company(card)]["name"]
        return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} ({c}) share with a {border(card)} box ({card})"

    def check_data(self) -> None:
        """Raise GameFileError naming the first inconsistency of games/mogul-board.toml (a game
        master may edit it): card counts per company, placard cards, map spaces and networks."""
        def bad(what):
            raise GameFileError(f"games/{self.name}.toml: {what}")

        d = self.data
        colours = list(d["colours"])
        for table in ("companies", "deck", "networks"):
            if sorted(d[table]) != sorted(colours):
                bad(f"[{table}] must name the colours {', '.join(colours)}, not {', '.join(d[table]) or 'none'}")
        cards = Counter()
        for colour, boxes in d["deck"].items():
            for box, n in boxes.items():
                if box not in colours or box == colour:
                    bad(f"[deck.{colour}] {box} = {n}: a box colour is another company's colour ({', '.join(colours)})")
                if type(n) is not int or n < 0:
                    bad(f"[deck.{colour}] {box} = {n}: a count of cards is a whole number")
                cards[f"{colour}/{box}"] = n
        for colour, info in d["companies"].items():
            held = sum(d["deck"][colour].values())
            if info.get("shares") != held:
                bad(f"[companies.{colour}] shares = {info.get('shares')}, but [deck.{colour}] has {held} {colour} cards "
                    "(each card shows its company's total)")
        for n in range(self.min_players, self.max_players + 1):
            placard = d["placard"].get(str(n))
            if not isinstance(placard, list) or len(placard) != n:
                bad(f"[placard] {n} must list {n} start positions")
            dealt = Counter(c for seat in placard for c in seat)
            for card, k in dealt.items():
                if k > cards.get(card, 0):
                    bad(f"[placard] {n}: the card {card} is not in the deck" if not cards.get(card)
                        else f"[placard] {n}: {k} {card} cards but the deck has {cards[card]}")
        stations = d["stations"]
        for colour, spaces in d["networks"].items():
            for s in spaces:
                if s not in stations:
                    bad(f"[networks] {colour}: {s} is not a station space of [stations]")
            if len(set(spaces)) != len(spaces):
                bad(f"[networks] {colour} lists a station space twice")
        for s in stations:
            lines = [c for c, spaces in d["networks"].items() if s in spaces]
            if not 1 <= len(lines) <= 2:
                bad(f"[stations] {s} lies on {len(lines)} networks; a space lies on one or two")

    # ---- setup --------------------------------------------------------------------------
    def setup(self, state, options, rng, setup) -> None:
        self.check_data()
        order = setup.get("seats")
        if order is not None:
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(state["seats"]):
                raise UsageError(f"setup: seats lists every player once, start position 1 first ({', '.join(state['seats'])})")
            setup = {"start_player": order[0], **setup}
        super().setup(state, options, rng, setup)

    def deal_start_cards(self, seats, rng, setup, start) -> dict:
        """The placard's portfolios: position 1 is the start player, then clockwise."""
        order = setup.get("seats")
        if order is None:
            i = seats.index(start)
            order = seats[i:] + seats[:i]
        placard = self.data["placard"][str(len(seats))]
        return {p: list(placard[i]) for i, p in enumerate(order)}

    def new_player(self, cards) -> dict:
        return {**super().new_player(cards), "depots": []}

    # ---- orders -------------------------------------------------------------------------
    def credit_option(self, state) -> bool:
        return True

    def can_credit(self, state, player) -> str:
        if state["players"][player]["credit"]:
            return "you have taken your credit already (once per game)"
        if state["bank"] < self.credit_chips:
            return f"the bank has fewer than {self.credit_chips} chips"
        return ""

    def sell_options(self, state, player) -> list[str]:
        """`sell` (and `sell none`), or instead a depot built (or moved, with all built) on the
        box network."""
        depots = state["players"][player]["depots"]
        empty = self.empty_spaces(state, self.sell_colour(state))
        sells = ["sell", "sell none"] if self.version >= 2 else ["sell"]
        if len(depots) < self.data["depots_each"]:
            return sells + [f"depot {s}" for s in empty]
        return sells + [f"move {a} {b}" for a in depots for b in empty]

    def action_orders(self, state, player) -> list[str]:
        return (["take"] if state["phase"] == "winner" else []) + self.sell_options(state, player)

    def second_idle(self, state) -> str:
        second, colour = state["second"], self.sell_colour(state)
        if self.count(state["players"][second], colour) or any(o.startswith(("depot", "move")) for o in self.sell_options(state, second)):
            return ""
        return f"{second} has no {colour} shares to sell and cannot build on the {colour} network."

    def prompt(self, state, player) -> str:
        phase = state["phase"]
        if phase == "auction":
            return "bid or pass" + ("" if self.can_credit(state, player) else ", or credit once per game")
        if phase not in ("winner", "second"):
            return ""
        colour = self.sell_colour(state)
        build = "move a depot to" if len(state["players"][player]["depots"]) >= self.data["depots_each"] else "build a depot on"
        held = self.count(state["players"][player], colour)
        shares = shares_of(held, colour)
        if not held:
            sell = f"sell (nothing: no {colour} shares)"
        else:
            sell = f"sell all your {shares} or none" if self.version >= 2 else f"sell your {shares}"
        option = f"{sell}, or instead {build} the {colour} network"
        return f"take, or {option}" if phase == "winner" else f"{option} (the winner took the card)"

    def parse_action(self, state, player, verb, args, text) -> Order:
        if verb == "take":
            if state["phase"] != "winner":
                raise IllegalOrder("the winner took the card: you sell, or build a depot instead", text)
            return Order(player, "take")
        if verb == "sell":
            if not args:
                return Order(player, "sell")
            if self.version < 2 or args[0] != "none":
                usage = "write sell (all your shares of the box colour) or sell none" if self.version >= 2 else \
                    "write just sell: you sell all your shares of the box colour, or none and build a depot"
                raise OrderSyntaxError(usage, text)
            return Order(player, "sell", ("none",))
        built, most = len(state["players"][player]["depots"]), self.data["depots_each"]
        if verb == "depot":
            if built >= most:
                raise IllegalOrder(f"all your {most} depots are built: move one with move FROM TO", text)
            space = self.station(args[0], text)
            self.check_target(state, player, space, text)
            return Order(player, "depot", (space,))
        if built < most:
            raise IllegalOrder(f"you may move a depot only when all {most} are built ({built} are): build with depot SPACE", text)
        src, dst = self.station(args[0], text), self.station(args[1], text)
        if src not in state["players"][player]["depots"]:
            raise IllegalOrder(f"you have no depot on {src}", text)
        self.check_target(state, player, dst, text)
        return Order(player, "move", (src, dst))

    def check_target(self, state, player, space, text) -> None:
        colour = self.sell_colour(state)
        network = self.networks()[colour]
        if space not in network:
            raise IllegalOrder(f"{space} ({self.data['stations'][space]}) is not on the {colour} network ({', '.join(network)})", text)
        owner = self.owners(state).get(space)
        if owner:
            whose = "your" if owner == player else f"{owner}'s"
            raise IllegalOrder(f"{space} holds {whose} depot already; one depot per space", text)

    def default_order(self, state, player):
        second = "sell none" if self.version >= 2 else "sell"
        return {"auction": "pass", "winner": "take", "second": second}.get(state["phase"])

    # ---- standing orders (judge/standing.py) ----------------------------------------------
    standing_forms = Mogul.standing_forms[:3] + ("if winner sell all|none", "if winner depot SPACE", "if winner move FROM TO",
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

    def standing_action(self, state, player, w):
        """`sell all` is `sell`; `sell none` is `sell none` where the rules know it, else `sell`
        for a player holding none of the box colour; `sell N` is one of the two."""
        if w[0] != "sell":
            return " ".join(w)
        colour = self.sell_colour(state)
        held = self.count(state["players"][player], colour)
        if w[1] == "all" or (w[1] != "none" and int(w[1]) == held):
            return "sell"
        if w[1] == "none" or int(w[1]) == 0:
            return "sell none" if held or "sell none" in self.action_orders(state, player) else "sell"
        raise IllegalOrder(f"you hold {shares_of(held, colour)}, and a sale is all of them or none")

    def standing_examples(self, state, player):
        return ["bid until pot 4", "if winner take", "if winner sell all", "if second sell all",
                "if winner depot NYC", "if second depot PHL", "if second move NYC PHL", "bid until pot 2 every round"]

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
        choices = options[:2] + ["sell none"] * (self.version >= 2) + options[2:]  # as action_orders lists them
        chosen = [self.order_value(view, o) for o in choices]
        winner = choices[chosen.index(max(chosen))]
        later = self.after_take(view)
        seconds = choices[1:]
        second_values = [self.order_value(later, o) for o in seconds]
        second = seconds[second_values.index(max(second_values))]

        def choice(o):
            return {"sell": "sell all", "sell none": "sell none"}.get(o, o)
        return lines + [f"if winner {choice(winner)}", f"if second {choice(second)}"]

    # ---- carrying out -------------------------------------------------------------------
    def do_sell(self, state, order) -> None:
        held = self.count(state["players"][order.player], self.sell_colour(state))
        self.sell(state, order.player, 0 if order.args == ("none",) else held)
        self.after_sell_option(state)

    def do_depot(self, state, order) -> None:
        (space,) = order.args
        state["players"][order.player]["depots"].append(space)
        self.emit_depot(state, order.player, f"builds a depot on {space}", space)

    def do_move(self, state, order) -> None:
        src, dst = order.args
        depots = state["players"][order.player]["depots"]
        depots[depots.index(src)] = dst
        self.emit_depot(state, order.player, f"moves a depot from {src} to {dst}", dst)

    def emit_depot(self, state, player, what, space) -> None:
        emit(state, f"{player} {what} ({self.data['stations'][space]}) instead of selling.")
        self.after_sell_option(state)

    # ---- scores -------------------------------------------------------------------------
    def final_points(self, state, player) -> dict:
        pl = state["players"][player]
        return {"depot_points": self.depot_points(pl["depots"]), "share_points": len(pl["shares"]),
                "chip_points": pl["chips"] // 5}

    # ---- views --------------------------------------------------------------------------
    def view(self, state, player) -> dict:
        v = super().view(state, player)
        companies = self.data["companies"]
        card = state["revealed"]
        v["revealed"]["box"] = v["revealed"]["border"]
        v["revealed"]["company_name"] = companies[company(card)]["name"] if card != CRASH else ""
        v["companies"] = {c: {"name": companies[c]["name"], "shares": companies[c]["shares"]} for c in self.colours()}
        v["sold"] = dict(Counter(company(c) for c in state["box"]))
        owners, nets = self.owners(state), self.networks()
        v["map"] = [
            {"colour": c, "company": companies[c]["name"], "spaces": [
                {"code": s, "name": self.data["stations"][s], "owner": owners.get(s, ""),
                 "also": self.also_on[c, s]}
                for s in spaces]}
            for c, spaces in nets.items()
        ]
        for row in v["players"]:
            row["depots"] = list(state["players"][row["name"]]["depots"])
            row["depots_left"] = self.data["depots_each"] - len(row["depots"])
        v["score_track"] = sorted(({"player": r["name"], "score": r["score"]} for r in v["players"]),
                                  key=lambda r: -r["score"])
        return v

    # ---- consistency --------------------------------------------------------------------
    def check(self, state) -> None:
        super().check(state)
        seen = Counter()
        for p, pl in state["players"].items():
            depots = pl.get("depots")
            if not isinstance(depots, list) or not all(isinstance(s, str) and s in self.data["stations"] for s in depots):
                fail(f"state.players.{p}.depots must be a list of station spaces")
            if len(depots) > self.data["depots_each"]:
                fail(f"state.players.{p}.depots: {len(depots)} depots built, but each player has {self.data['depots_each']}")
            if type(pl["credit"]) is not bool:
                fail(f"state.players.{p}.credit must be true or false")
            seen.update(depots)
        twice = sorted(s for s, n in seen.items() if n > 1)
        if twice:
            fail(f"more than one depot on {', '.join(twice)}: one depot per station space")

    # ---- the sensible bot (reads the view only) -------------------------------------------
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

    # ---- the orders as a grammar (reports) --------------------------------------------------
    def action_forms(self, state, player, orders, colour, held) -> list:
        from judge.engine.grammar import Form, Word, form

        depots = state["players"][player]["depots"]
        empty = tuple(self.empty_spaces(state, colour))
        sell = (f"all your {shares_of(held, colour)} at {self.held_by_all(state, colour)} points each" if held
                else f"nothing: you hold no {colour} shares")
        out = [Form("take")] * ("take" in orders) + [Form("sell", note=sell)]
        out += [Form("sell none", note=f"keep your {colour} shares" if held else "the same")] * ("sell none" in orders)
        if len(depots) < self.data["depots_each"]:
            return out + form("depot SPACE", [(Word(empty),)] if empty else [], f"build on the {colour} network")
        return out + form("move FROM TO", [(Word(tuple(depots)), Word(empty))] if empty else [],
                          f"move a depot to the {colour} network")
