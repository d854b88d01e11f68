"""Mogul, the board game (rules/mogul-board-game.txt, RULINGS.md §2): the card game's auction
with depots on five rail networks and a once-per-game credit.

What differs from `mogul` (judge/rulesets/mogul/), the rest is inherited: 37 stock cards
(company/box), start portfolios from the start-position placard, dividends of 1 per share. The
auction's winner chooses `take`, `sell` (all their box-colour shares, none held sells nothing),
or instead of selling `depot SPACE` (an empty station space of the box-colour network) or, with
all 6 depots built, `move FROM TO`; the second does the other option (takes the card if the
winner sold or built). `credit`, once per game in one's turn of an auction: 3 chips from the
bank, 3 back on the score track. At the crash each depot scores the number of its owner's
depots on each network its space lies on, each share 1, every 5 chips 1; tie: most shares.

The registered class is the rules (here) with the standing-order vocabulary (standing.py), the
sensible bot (bot.py) and the checks (check.py), each before mogul's own; the older versions of
the rules are subclasses in versions.py.
"""
from __future__ import annotations

from collections import Counter
from functools import cached_property, lru_cache

from judge.engine.errors import IllegalOrder, OrderSyntaxError, UsageError
from judge.engine.orders import Order, pick
from judge.engine.ruleset import PILE, WHOLE, Information, emit, register
from judge.engine.seats import clockwise
from judge.rulesets.mogul.cards import CRASH, border, company, shares_of
from judge.rulesets.mogul.rules import Mogul
from judge.rulesets.mogul_board.bot import Bot
from judge.rulesets.mogul_board.check import Check
from judge.rulesets.mogul_board.standing import Standing


@register
class MogulBoard(Standing, Bot, Check, Mogul):
    name = "mogul-board"
    title = "Mogul, the board game"
    version = 2
    old_versions = (1,)
    # What each version changed, for `judge upgrade` (a game moved from version v is told changes[v + 1:])
    changes = {2: ("sell none: a second may keep the box colour's shares (and does, missing the deadline)",)}
    min_players, max_players = 3, 5
    options = ()
    # fewer than 38 rounds (one a card); an auction takes at most 45 bids (every chip once), 4 passes and
    # 1 order of the winner and 1 of the second; each player takes the credit at most once
    max_moves = 38 * (45 + 4 + 2) + 5
    verbs = ("bid", "pass", "take", "sell", "depot", "move", "credit")
    information = Information(secret=True, reveals=(PILE,), orders=dict.fromkeys(verbs, WHOLE))  # (as Mogul's)
    record_keys = ("players", "score_track", "map")  # (its companies have no share price)
    setup_example = 'seats = ["bob", "alice", "dave", "carol"]\n'
    prompt_phrases = {**Mogul.prompt_phrases, "depot": r"build a depot", "move": r"move a depot"}
    score_parts = ("track", "depot_points", "share_points", "chip_points")
    arity = {
        "sell": ((0, 1), "write sell (all your shares of the box colour) or sell none"),
        "depot": ((1, 2, 3), "write depot SPACE (a station's short name, as on the map, or its name)"),
        "move": (2, "write move FROM TO (stations' short names, as on the map)"),
    }
    setup_keys = ("start_player", "seats", "deck")
    payout = "Dividends"
    credit_chips = 3
    credit_each_auction = False
    credit_text = "{player} takes the credit: {k} chips from the bank, {k} back on the score track."
    sell_choices = ("sell", "sell none")  # the sale: all the box-colour shares, or none (version 2)
    sell_usage = "write sell (all your shares of the box colour) or sell none"

    # ---- components ---------------------------------------------------------------------
    def networks(self) -> dict[str, list[str]]:
        return self.data["networks"]

    @cached_property
    def lines_at(self) -> dict[str, list[str]]:
        """Station space -> the networks (colours) it lies on."""
        return {s: [c for c, spaces in self.networks().items() if s in spaces] for s in self.data["stations"]}

    def station(self, word: str, text: str, colour: str | None = None) -> str:
        """The station `word` names: its short name (or a unique start of one) or its whole name
        (`salt lake city`). Unknown: refused listing the stations of the `colour` network (where
        the order must build) rather than all of the map's."""
        stations = self.data["stations"]
        named = [code for code, name in stations.items() if name.lower() == word.lower()]
        if named:
            return named[0]
        try:
            return pick(word, list(stations), text, what="station")
        except OrderSyntaxError:
            if colour is None:
                raise
            listed = ", ".join(f"{code} {stations[code]}" for code in self.networks()[colour])
            raise OrderSyntaxError(f"unknown station '{word}' (the {colour} network's: {listed})", text) from None

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
            order = clockwise(seats, start)
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
        sells = list(self.sell_choices)
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

    credit_words = ", or credit once per game"

    def prompt_words(self, state, player, kinds, legal) -> str:
        if state["phase"] == "auction":
            return self.auction_words(kinds)
        colour = self.sell_colour(state)
        held = self.count(state["players"][player], colour)
        if not held:
            sell = f"sell nothing, as {player} holds no {colour} shares"
        else:
            sell = self.sell_prompt(player, shares_of(held, colour))
        # (with no empty station space on the network, neither a depot nor a move)
        build = "move a depot to" if "move" in kinds else "build a depot on" if "depot" in kinds else ""
        option = f"{sell}, or instead {build} the {colour} network" if build else sell
        return f"take, or {option}" if "take" in kinds else f"the winner took the card: {option}"

    def sell_prompt(self, player: str, shares: str) -> str:
        """The prompt's offer of a sale of `player`'s `shares` (some of the box colour); public,
        so in the third person."""
        return f"sell {player}'s {shares} (all or none)"

    def parse_action(self, state, player, verb, args, text) -> Order:
        if verb == "take":
            if state["phase"] != "winner":
                raise IllegalOrder("the winner took the card: you sell, or build a depot instead", text)
            return Order(player, "take")
        if verb == "sell":
            if not args:
                return Order(player, "sell")
            if args[0] != "none" or "sell none" not in self.sell_choices:
                raise OrderSyntaxError(self.sell_usage, text)
            return Order(player, "sell", ("none",))
        built, most = len(state["players"][player]["depots"]), self.data["depots_each"]
        if verb == "depot":
            if built >= most:
                raise IllegalOrder(f"all your {most} depots are built: move one with move FROM TO", text)
            space = self.station(" ".join(args), text, self.sell_colour(state))
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
        return {"auction": "pass", "winner": "take", "second": "sell none"}.get(state["phase"])


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

    # ---- the orders as a grammar (reports) --------------------------------------------------
    def action_forms(self, state, player, orders, colour, held) -> list:
        from judge.engine.grammar import COLUMN, WIDTH, Form, Word, form

        depots = state["players"][player]["depots"]
        empty = tuple(self.empty_spaces(state, colour))
        price = self.held_by_all(state, colour)
        sell = (f"all your {shares_of(held, colour)} at {price} point{'s' if price != 1 else ''} each" if held
                else f"nothing: you hold no {colour} shares")
        out = [Form("take")] * ("take" in orders) + [Form("sell", note=sell)]
        out += [Form("sell none", note=f"keep your {colour} shares" if held else "the same")] * ("sell none" in orders)
        if len(depots) < self.data["depots_each"]:
            return out + form("depot SPACE", [(Word(empty),)] if empty else [], f"build on the {colour} network")
        room = WIDTH - COLUMN - len("/".join(depots)) - 2  # for the empty spaces of one case (a line)
        cases, chunk = [], []
        for s in empty:
            if chunk and len("/".join([*chunk, s])) > room:
                cases.append(chunk)
                chunk = []
            chunk.append(s)
        cases += [chunk] * bool(chunk)
        return out + form("move FROM TO", [(Word(tuple(depots)), Word(tuple(c))) for c in cases],
                          f"move a depot to the {colour} network")
