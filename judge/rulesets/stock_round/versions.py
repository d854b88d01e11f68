"""The older versions of stock-round, still played for the game files written under them
(never strand a running game). Each is a subclass of the next newer version overriding the
hook methods that differ; `Ruleset.at_version` finds them (they are not registered)."""
from __future__ import annotations

from judge.engine.errors import OrderSyntaxError
from judge.engine.ruleset import Option, emit
from judge.rulesets.stock_round.check import Check
from judge.rulesets.stock_round.rules import MAX_ROUNDS, PLAYER_VERBS, Rules, plural
from judge.rulesets.stock_round.ruleset import StockRound

V6_GM_VERBS = ("operate", "train", "done", "end")


class Version6(StockRound):
    """Version 6, before issue 48's company turns: the game master enters an operating round's
    results and trains in any order (a company's new trains counting in its revenue if entered
    first), `done` closing the round, each company without a train buying one before it; no
    track or token costs; another company's train bought with the director's help at up to its
    face value, the director selling shares for it; at most as many trains from other companies
    a round as the train limit; a share from the Pool on the last column at the market price.
    Each hook version 7 overrides (turns.py) is Rules' again."""

    version = 6
    verbs = PLAYER_VERBS + V6_GM_VERBS
    gm_verbs = V6_GM_VERBS

    def operating_keys(self) -> dict:
        keys = super().operating_keys()
        for key in ("turn_co", "step", "route"):
            del keys[key]
        return keys

    def new_company(self, seats) -> dict:
        c = super().new_company(seats)
        del c["tokens"], c["arrived"]
        return c

    helps_note = Rules.helps_note
    apply = Rules.apply
    next_operating_round = Rules.next_operating_round
    do_done = Rules.do_done
    why_not_done = Rules.why_not_done
    parse_gm = Rules.parse_gm
    do_operate = Rules.do_operate
    gm_orders = Rules.gm_orders
    prompt_words = Rules.prompt_words
    director_helps = Rules.director_helps
    helps_trade = Rules.helps_trade
    why_not_pay = Rules.why_not_pay
    trade_prices = Rules.trade_prices
    why_not_trade_again = Rules.why_not_trade_again
    right_of = Rules.right_of
    view = Rules.view
    check_1830 = Check.check_1830


class Version5(Version6):
    """Version 5, before issue 36's 1830 rules: a rusting type's trains stay in the open market;
    a director helps pay for any train, and for another company's only from the treasury; the D
    trains are sold after the last 6, with no trade-in; a player over the certificate limit sells
    once and may then pass; a director goes bankrupt only with nothing left to sell, keeping money
    and shares, and ranks last; a company buys one train from other companies a round; the game
    ends after the sets of operating rounds of the option `rounds` (default 6); a share the Pool
    absorbs on the first column pays that column's price."""

    version = 5
    trade_ins = False
    train_sources = " pool or train COMPANY TYPE from COMPANY PRICE"
    bankrupt_last = True
    options = (
        Option("rounds", 6, f"the game ends after this many sets of operating rounds, one set after each "
                            f"stock round (1 to {MAX_ROUNDS}; version 1: operating rounds) unless the game "
                            "master ends it sooner, the bank breaks or a director goes bankrupt"),
    )
    min_rounds = 1

    def rust_open_market(self, state, old) -> None:
        pass

    def on_sale(self, state) -> list[str]:
        nxt = self.next_train(state)
        return [nxt] if nxt else []

    def why_not_afford(self, state, co, kind) -> str:
        c, cost = state["companies"][co], self.train(kind)["cost"]
        if c["treasury"] < cost and not self.director_helps(state, c):
            return f"{co} has ${c['treasury']}; a {kind} train costs ${cost}{self.helps_note}"
        return ""

    def helps_trade(self, state, c) -> bool:
        return False

    def last_set(self, state) -> int:
        return state["options"]["rounds"]

    def cap_words(self, state) -> str:
        return ""

    def absorb_price(self, r, col) -> int:
        return self.cell(r, col - (2 if r == len(self.grid) - 1 else 1))

    def must_sell(self, state, player) -> bool:
        return not state["sold"] and super().must_sell(state, player)

    def trades_a_round(self, limit) -> int:
        return 1

    def traded_words(self, buyer, bought, limit) -> str:
        return f"{buyer} has bought a train from another company in this operating round already"

    def may_go_bankrupt(self, state, sales) -> bool:
        return not sales

    def sell_bankrupt(self, state, p, buying) -> None:
        pass

    def must_buy_order(self, state, co) -> str:
        return f"train {co} {self.next_train(state) or self.pool_trains(state)[0] + ' pool'}"


class Version4(Version5):
    """Version 4: the first event also named the priority deal, which the stock round's first
    event names again."""

    version = 4

    def dealt(self, each: int, priority: str) -> str:
        return f"Each player receives ${each}; {priority} has the priority deal."


class Version3(Version4):
    """Version 3: the 1830 rules without version 4's (issue 26): a broken bank pays only what it
    still has; a purchase is checked against the lower of the phase's limit and the new type's;
    trains over a fallen limit are kept; no forced sale over the certificate limit; any revenue is accepted
    (the listed ones every $20); an emergency sale on the bottom row moves the token one column
    left; trains change hands between companies from phase 3 only."""

    version = 3
    train_sources = " from COMPANY PRICE"
    revenue_step = 20

    def operating_keys(self) -> dict:
        keys = super().operating_keys()
        del keys["discard"]
        return keys

    def new_trains(self) -> dict:
        trains = super().new_trains()
        del trains["pool"]
        return trains

    def bank_pays(self, state, amount) -> int:
        return min(amount, state["bank"])

    def bank_may_owe(self, state) -> bool:
        return False

    def purchase_limit(self, state, kind) -> int:
        return min(self.train_limit(state), self.train(kind)["limit"])

    def crowd(self, state) -> None:
        pass

    def must_sell(self, state, player) -> bool:
        return False

    def why_not_revenue(self, state, co, revenue) -> str:
        return ""

    def emergency_fall(self, c: dict) -> None:
        self.fall(c)

    def why_no_trades(self, state) -> str:
        trade_from = self.train_types()[1]
        if self.train_types().index(self.phase_train(state)["type"]) < 1:
            return f"companies sell each other trains from phase {trade_from} (after the first {trade_from} train)"
        return ""


class Version2(Version3):
    """Version 2: the 1830 rules, with the words of the events before version 3 (a broken bank
    "ends the game at the end of this round"; one operating round "follow" a stock round)."""

    version = 2

    def broken_notice(self, state) -> str:
        return "The bank is broken: the game ends at the end of this round."

    def follow(self, rounds: int) -> str:
        return "follow"


class Version1(Version2):
    """Version 1, before the 1830 rules (issue 14): sales in the first stock round; the
    director's certificate never sold; no Pool limit; no rise when sold out; every started
    company operates; one operating round after each stock round (`rounds` counts operating
    rounds); a company short of money cannot buy a train; no trains between companies."""

    version = 1
    helps_note = ""

    def operating_keys(self) -> dict:
        return {}

    def new_company(self, seats) -> dict:
        c = super().new_company(seats)
        del c["floated"]
        return c

    def sellable(self, state, p, co) -> int:
        c = state["companies"][co]
        return c["shares"][p] - (self.data["director_shares"] if c["director"] == p else 0)

    def why_no_sales(self, state) -> str:
        return ""

    def why_sell_fewer(self, state, co, n, can) -> str:
        return f"you may sell only {plural(can, co + ' share')} (the director's certificate cannot be sold)"

    def swap(self, d, best) -> str:
        return ""

    def operates(self, state, co) -> bool:
        return bool(state["companies"][co]["director"])

    def float_check(self, state, co) -> None:
        pass

    def parse_train(self, state, co, args, text):
        if len(args) != 2:
            raise OrderSyntaxError("write train COMPANY TYPE", text)
        return self.parse_bank_train(state, co, args, text)

    def why_no_trades(self, state) -> str:
        return "version 1 has no trains between companies"

    def must_buy(self, state) -> list[str]:
        return []

    def director_helps(self, state, c) -> bool:
        return False

    def to_operating(self, state) -> None:
        if state["broken"]:
            self.finish(state, "the bank is broken")
            return
        state["or_round"] += 1
        state["operated"] = []
        state["phase"] = "operating"
        emit(state, f"Operating round {state['or_round']}: the game master enters the results.")

    def set_goes_on(self, state) -> bool:
        return False

    def played(self, state) -> int:
        return state["or_round"]

    def played_words(self, state) -> str:
        return plural(state["or_round"], "operating round")

    def float_helps(self, written: list[str]) -> list[str]:
        return []

    def check_1830(self, state) -> None:
        pass
