"""The 18xx stock round of 1876v2 Trinidad (rules/stock-round.txt, RULINGS.md §4).

Stock rounds of player turns (sell shares of one company, then buy at most one share, or
pass) alternate with operating rounds in which the game master enters each company's result.
A sale runs "Anyone wants a share?": from the seller's left every player, then the company
(its director decides), may take one offered share at market price; a pass in which nobody
takes one makes the Pool absorb a share at a reduced price. Every decision is an order.

Everything is public, as in all 18xx games; the market, trains and limits are in
games/stock-round.toml (a documented stand-in).

These are the current rules; the registered ruleset (ruleset.py) adds the standing orders,
the bots and the check. Older versions are subclasses overriding the hook methods that differ
(versions.py): version 2 brought the 1830 rules the variant leans on (RULINGS §4), which
version 1 lacks; version 4 plays them as 18xx.games does (issue 26, docs/stock-round.md);
version 5 changes only the words of the first event; version 6 plays 1830's trains, the
director's help and bankruptcy as 18xx.games does (issue 36); version 7 plays the operating
round as 1830's company turns (issue 48: turns.py, whose hooks come before these).
"""
from __future__ import annotations

import copy
from functools import cached_property, lru_cache

from judge.engine.errors import IllegalOrder, NotYourTurn, OrderSyntaxError, UsageError
from judge.engine.orders import Order, parse_count, pick, words
from judge.engine.ruleset import GM, Option, Ruleset, emit, ranked
from judge.engine.seats import clockwise, next_clockwise

COMPANY = "*company"  # the company's own decision in a sale's queue of deciders
PHASES = ("reissue", "stock", "operating", "over")
PLAYER_VERBS = ("sell", "buy", "par", "pass", "offer", "reissue", "bankrupt", "discard")
GM_VERBS = ("track", "token", "operate", "train", "done", "end")  # track and token: version 7
MAX_ROUNDS = 20


def by_1830(reason: str) -> str:
    """A refusal by a rule 1876v2 takes from 1830, saying why an 1830 rule applies: the
    rulebook lists only how 1876v2 differs from 1830 (docs/stock-round.md, "Where each rule
    comes from")."""
    return f"{reason} (a rule of 1830, which 1876v2 keeps where its rulebook is silent: docs/stock-round.md)"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def choose(word: str, choices: tuple[str, ...], text: str, what: str) -> str:
    """pick() among lower-case `choices`, at once for a word written in full (nearly always)."""
    return word if word in choices else pick(word, choices, text, what=what)


class Rules(Ruleset):
    """The rules of the current version (setup, parsing, applying, views, standings)."""

    verbs = PLAYER_VERBS + GM_VERBS  # every order begins with one of these
    gm_verbs = GM_VERBS  # the game master's (version 6 and before: no track or token)
    name = "stock-round"
    setup_example = 'priority = "carol"\n'
    prompt_phrases = {"sell": r"\bsell\b", "buy": r"\bbuy\b", "par": r"\bpar\b", "pass": r"\bpass\b",
                      "offer": r"\boffer (yes|no)\b", "bankrupt": r"\bbankrupt\b", "discard": r"\bdiscard\b",
                      "reissue": r"\breissue\b", "operate": r"\boperate\b", "train": r"\btrain [A-Z]{2,}\b",
                      "track": r"\btrack [A-Z]{2,}\b", "token": r"\btoken [A-Z]{2,}\b",
                      "done": r"\bdone\b", "end": r"\bend game\b"}
    title = "Stock Round (1876v2 Trinidad)"
    version = 7
    old_versions = (1, 2, 3, 4, 5, 6)
    # What each version changed, for `judge upgrade` (a game moved from version v is told changes[v + 1:])
    changes = {
        2: ("the 1830 rules the variant leans on: no sales in the first stock round, the director's "
            "certificate passing on a sale, the Pool's 50% limit, sold-out companies rising, only floated "
            "companies operating, operating rounds by phase, the director's emergency money, trains "
            "between companies",),
        3: ("a broken bank's notice says which set of operating rounds is the last",),
        4: ("a broken bank pays in full to the end (its reserve is unlimited once broken)",
            "a purchase's train limit is that of the phase before it",
            "trains over a fallen limit go to the open market (discard CO TYPE)",
            "a company may buy a train from the open market at face value (train CO TYPE pool)",
            "a player over the certificate limit must sell at the start of their turn",
            "revenue is at most what the company's trains can run ($40 a stop)",
            "an emergency sale on the bottom row leaves the token where it is",
            "trains change hands between companies from phase 2"),
        5: ("the first event says the money each player receives, no longer also who has the priority "
            "deal (the round's first event says it)",),
        6: ("rusting removes every train of the old type, those in the open market too",
            "the D is on sale from the first 6, and a 4, 5 or 6 may be traded in for $300 off (train CO D trade 4)",
            "a company whose director helps pay for a train may buy only the cheapest available (the open market's "
            "included), or another company's train at most at its face value",
            "a player over the certificate limit sells until at the limit (more than one sale a turn if need be)",
            "a director may go bankrupt once their shares cannot raise what they owe: their shares go to the Pool, "
            "their money to the bank, and the game ends ranked by value",
            "a company buys trains from other companies up to its train limit in an operating round (was one)",
            "a share the Pool absorbs on the first column (not the bottom row) pays the price one row down",
            f"a new game ends as 1830 ends, when the bank breaks or a director goes bankrupt (at the latest after "
            f"{MAX_ROUNDS} sets); the option rounds, which an upgraded game keeps, ends it after that many sets"),
        7: ("an operating round is a sequence of company turns in 1830's operating order (highest price first), the "
            "judge naming whose turn it is; in its turn the game master enters track (track CO COST), a station "
            "token (token CO), the run (operate CO REVENUE pay|withhold, or operate CO no route), then the "
            "company's trains, then done",
            "track and station tokens cost money, paid from the treasury and never beyond it (stand-ins in "
            "games/stock-round.toml)",
            "a company buys trains only in its own turn, after it has run: trains bought never count in that "
            "turn's revenue; no limit but the train limit on trains bought from other companies",
            "a company with a route and no train must buy one before its turn ends (no longer before the round "
            "ends); only then does its director help",
            "with the director's help another company's train costs at most what the treasury and the director's "
            "cash hold together, and no shares are sold for it",
            "a share from the Pool on the last column costs the price one row up"),
    }
    min_players, max_players = 3, 6
    options = (
        Option("rounds", 0, f"the game ends as 1830 ends, after the set of operating rounds in which the bank "
                            f"breaks or at once when a director goes bankrupt (at the latest after {MAX_ROUNDS} sets); "
                            f"rounds=1 to {MAX_ROUNDS} also ends it after that many sets of operating rounds (one set "
                            "follows each stock round)"),
    )
    min_rounds = 0  # the least value of the option `rounds` (0: 1830's end alone)
    # Per stock round, each player buys at most 6 shares of each company before selling it
    # and sells it at most 6 times (no buying back after a sale): at most 60 acting turns a
    # player, 720 orders for 6 players, 2,166 passes, 2,160 sale decisions, 5 re-issues; an
    # operating round takes at most 6 orders plus the 20 trains of the game. Version 2: up to 3
    # operating rounds a set, each with at most 5 results, 5 trains bought from companies
    # (version 6: 20, up to each one's limit of 4), 50 emergency sales and `done`; the trains
    # of the open market (discarded, traded in) at most 40 more. Version 6 ends after at most
    # MAX_ROUNDS sets without the option `rounds`. Version 7: each company's turn also takes a
    # track, a token and its `done` (15 more orders a round, 45 a set).
    max_moves = MAX_ROUNDS * 5400 + 80

    # ---- components ---------------------------------------------------------------------
    @cached_property  # (read for nearly every order)
    def companies(self) -> list[str]:
        return list(self.data["companies"])

    @cached_property  # (for company(): every company by its name in lower case, the first of equals as pick() finds)
    def companies_by_name(self) -> dict[str, str]:
        return {co.lower(): co for co in reversed(self.companies)}

    def company(self, word: str, text: str) -> str:
        """The company `word` names (pick(): its name in any case, or a unique beginning of it)."""
        return self.companies_by_name.get(word.lower()) or pick(word, self.companies, text, what="company")

    @cached_property
    def grid(self) -> list[list[int]]:
        return self.data["market"]["grid"]

    def train(self, kind: str) -> dict:
        return self.trains_by_type[kind]

    @cached_property  # asked for every possible train trade in every list of orders
    def trains_by_type(self) -> dict[str, dict]:
        return {t["type"]: t for t in reversed(self.data["trains"])}  # (the first of a type, as a search finds)

    @lru_cache(maxsize=None)  # asked for every possible train trade in every list of orders
    def train_types(self) -> list[str]:
        return [t["type"] for t in self.data["trains"]]

    @lru_cache(maxsize=None)  # asked for each company and par value in every list of orders
    def par_prices(self) -> dict[int, list[int]]:
        return {self.grid[r][c]: [r, c] for r, c in self.data["market"]["par"]}

    @cached_property
    def market_cells(self) -> list[list[tuple]]:
        """((row, column), price, is a par space) of every market space, row by row."""
        pars = {tuple(rc) for rc in self.data["market"]["par"]}
        return [[((r, c), price, (r, c) in pars) for c, price in enumerate(row)] for r, row in enumerate(self.grid)]

    @lru_cache(maxsize=1024)  # (every view shows the market; it changes only when a token moves)
    def market(self, placed: tuple) -> list[list[dict]]:
        """The market's spaces with the tokens `placed` ((row, column), company) on them, for
        views (shared between them: read only)."""
        tokens = {}
        for rc, co in placed:
            tokens.setdefault(rc, []).append(co)
        return [[{"price": price, "par": par, "tokens": tokens.get(rc, [])} for rc, price, par in row]
                for row in self.market_cells]

    def cell(self, row: int, col: int) -> int:
        grid = self.grid
        return grid[row][max(0, min(col, len(grid[0]) - 1))]

    def price(self, state, co) -> int:
        r, c = state["companies"][co]["token"]  # (always on the market: check() and every move keep it there)
        return self.grid[r][c]

    def pool_price(self, state, co) -> int:
        return self.right_of(*state["companies"][co]["token"])

    def right_of(self, r: int, c: int) -> int:
        """The price one column right of (r, c): a share from the Pool; on the last column the
        market's own price (version 7: one row up, turns.py)."""
        return self.cell(r, c + 1)

    def cert_limit(self, state) -> int:
        return self.cert_limits[len(state["seats"])]

    @cached_property  # (read whenever a player may take a share)
    def cert_limits(self) -> dict[int, int]:
        """The certificate limit by the number of players."""
        table = self.data["cert_limit"]
        return {n: table[str(n)] for n in range(self.min_players, self.max_players + 1) if str(n) in table}

    def check_players(self, players, options) -> None:
        super().check_players(players, options)
        if not self.min_rounds <= options.get("rounds", self.option("rounds").default) <= MAX_ROUNDS:
            raise UsageError(f"option rounds is from {self.min_rounds} to {MAX_ROUNDS}")

    # ---- setup --------------------------------------------------------------------------
    setup_words = {"priority": "the priority deal"}

    def setup(self, state, options, rng, setup) -> None:
        seats = state["seats"]
        unknown = set(setup) - {"priority"}
        if unknown:
            raise UsageError(f"setup: unknown keys {', '.join(sorted(unknown))} (known: priority)")
        priority = setup.get("priority") or rng.choice(seats)
        if priority not in seats:
            raise UsageError(f"setup: priority '{priority}' is not a player")
        each = self.data["start_money"] // len(seats)
        state.update(
            round=0, or_round=0, phase="stock", bank=self.data["bank"] - each * len(seats), broken=False,
            priority=priority, turn=priority, passes=0, last_actor="", sold="",
            sold_round={p: [] for p in seats}, reissue=[], operated=[], sale={},
            **self.operating_keys(),
            players={p: {"money": each} for p in seats},
            companies={co: self.new_company(seats) for co in self.companies},
            trains=self.new_trains(),
        )
        emit(state, self.dealt(each, priority))
        self.start_stock_round(state)

    def dealt(self, each: int, priority: str) -> str:
        """The setup's event (the stock round's first, next, names the priority deal)."""
        return f"Each player receives ${each}."

    def operating_keys(self) -> dict:
        """The state's keys of sets of operating rounds, trades between companies, an emergency
        and the companies that must discard trains over the limit."""
        return {"or_count": 1, "or_in_set": 0, "traded": [], "emergency": {}, "discard": []}

    def new_trains(self) -> dict:
        """The trains in the bank, scrapped (rusted) and in the open market (discarded over a limit)."""
        types = [t["type"] for t in self.data["trains"]]
        return {"bank": {t["type"]: t["count"] for t in self.data["trains"]}, "scrapped": dict.fromkeys(types, 0),
                "pool": dict.fromkeys(types, 0)}

    def new_company(self, seats) -> dict:
        return {"director": "", "par": 0, "token": [], "treasury": 0, "shares": {p: 0 for p in seats},
                "pool": 0, "ipo": self.data["shares"], "held": 0, "offered": 0, "trains": [], "floated": False}

    # ---- holdings -----------------------------------------------------------------------
    def certs(self, state, p) -> int:
        """Certificates of `p`: the director's certificate (2 shares) counts as one."""
        n = 0
        for c in state["companies"].values():  # (a loop: twice as fast as sum() of a generator)
            n += c["shares"][p] - (c["director"] == p)
        return n

    def why_not_hold(self, state, p, co, shares=1, certs=1) -> str:
        if co in state["sold_round"][p]:
            return f"you sold {co} shares this stock round and may not buy them back in it"
        have = state["companies"][co]["shares"][p]
        if have + shares > self.data["holding_limit"]:
            return f"you would hold more than {self.data['holding_limit'] * 10}% of {co}"
        limit = self.cert_limit(state)
        if self.certs(state, p) + certs > limit:
            return f"you would hold more than {limit} certificates"
        return ""

    def why_not_buy(self, state, p, co, source) -> str:
        c = state["companies"][co]
        if not c["director"]:
            return f"{co} has not started: start it with par {co} PRICE"
        why = self.why_not_hold(state, p, co)
        if why:
            return why
        if source == "pool":
            if not c["pool"]:
                return f"the Pool holds no {co} shares"
            cost = self.pool_price(state, co)
        else:
            if not c["ipo"] + c["offered"]:
                return f"{co} offers no share (no new one left, none offered for re-issue)"
            cost = self.price(state, co)
        money = state["players"][p]["money"]
        return f"you have ${money}; a {co} share from the {source} costs ${cost}" if money < cost else ""

    def why_not_par(self, state, p, co, par) -> str:
        c = state["companies"][co]
        if c["director"]:
            return f"{co} has started already (director {c['director']}): buy its shares"
        pars = self.par_prices()
        if par not in pars:
            return f"a par value is one of {', '.join(map(str, pars))}"
        money = state["players"][p]["money"]
        if money < 2 * par:
            return f"you have ${money}; the director's certificate at par {par} costs ${2 * par}"
        return self.why_not_hold(state, p, co, shares=self.data["director_shares"])

    def sellable(self, state, p, co) -> int:
        """Shares of `co` that `p` may sell in a stock round (1830): none in the first stock
        round; the director may sell the certificate when another player holds 2 shares or more
        (and so takes the directorship); never more than the Pool could take within its 50%."""
        c = state["companies"][co]
        n = c["shares"][p]
        if state["round"] == 1:
            return 0
        if c["director"] == p and self.others_most(state, p, co) < self.data["director_shares"]:
            n -= self.data["director_shares"]
        return max(0, min(n, self.data["pool_limit"] - c["pool"]))

    def others_most(self, state, p, co) -> int:
        most = 0
        for q, n in state["companies"][co]["shares"].items():  # (a loop: twice as fast as max() of a generator)
            if q != p and n > most:
                most = n
        return most

    def why_not_sell(self, state, p, co, n) -> str:
        c = state["companies"][co]
        held = c["shares"][p]
        why = self.why_no_sales(state)
        if why:
            return why
        if not held:
            return f"you hold no {co} shares"
        if n > held:
            return f"you hold only {plural(held, co + ' share')}"
        can = self.sellable(state, p, co)
        return self.why_sell_fewer(state, co, n, can) if n > can else ""

    def why_no_sales(self, state) -> str:
        return by_1830("no shares are sold in the first stock round") if state["round"] == 1 else ""

    def why_sell_fewer(self, state, co, n, can) -> str:
        """Why a sale of `n` shares of `co` is refused when only `can` may be sold."""
        c = state["companies"][co]
        room = self.data["pool_limit"] - c["pool"]
        if n > room:
            return (f"the Pool holds {plural(c['pool'], co + ' share')} and may hold at most {self.data['pool_limit']} "
                    f"(50%): you may sell at most {room}")
        return (f"you may sell only {plural(can, co + ' share')}: you keep the director's certificate until another "
                f"player holds {self.data['director_shares']} or more {co} shares to take the directorship")

    def fix_director(self, state, co) -> None:
        """Another player holding more shares than the director takes the directorship
        (the nearest to the director's left on a tie)."""
        c = state["companies"][co]
        d = c["director"]
        if max(c["shares"].values()) <= c["shares"][d]:
            return  # (the usual case: nobody holds more than the director)
        best = d
        for q in self.round_from(state, d)[1:]:
            if c["shares"][q] > c["shares"][best]:
                best = q
        if best != d:
            c["director"] = best
            emit(state, f"{best} holds more {co} shares than {d} and becomes its director{self.swap(d, best)}.")

    def swap(self, d, best) -> str:
        """How the director's certificate changes hands (1830), in the event's words."""
        return f" ({d} exchanges the director's certificate for two of {best}'s shares)"

    def left_of(self, state, p) -> str:
        """The player to the left of `p` (round_from(state, p)[1], without building the round)."""
        return next_clockwise(state["seats"], p)

    def round_from(self, state, p) -> list[str]:
        return clockwise(state["seats"], p)

    # ---- money --------------------------------------------------------------------------
    def bank_pay(self, state, amount) -> int:
        """Pay `amount` from the bank; it breaks when it cannot pay in full, and then pays from
        its reserve, unlimited (1830; base.rb GAME_END_CHECK bank: :full_or, bank.rb check_cash)."""
        short = amount > state["bank"]
        paid = self.bank_pays(state, amount)
        state["bank"] -= paid
        if short and not state["broken"]:
            state["broken"] = True
            emit(state, self.broken_notice(state))
        return paid

    def bank_pays(self, state, amount) -> int:
        return amount

    def broken_notice(self, state) -> str:
        last = "this" if state["phase"] == "operating" else "the next"
        return f"The bank is broken: the game ends after {last} set of operating rounds."

    # ---- whose order --------------------------------------------------------------------
    def awaiting(self, state) -> list[str]:
        phase = state["phase"]
        if phase == "over":
            return []
        if state["sale"]:
            head = state["sale"]["queue"][0]
            return [state["companies"][state["sale"]["company"]]["director"] if head == COMPANY else head]
        if state.get("emergency"):
            return [state["companies"][state["emergency"]["company"]]["director"]]
        if state.get("discard"):
            return [state["companies"][state["discard"][0]]["director"]]
        if phase == "reissue":
            return [state["companies"][state["reissue"][0]]["director"]]
        if phase == "stock":
            return [state["turn"]]
        return [GM]

    def is_over(self, state) -> bool:
        return state["phase"] == "over"

    def prompt_words(self, state, player, kinds, legal) -> str:
        sale = state["sale"]
        if sale:
            co = sale["company"]
            who = f" for {co} itself" if sale["queue"][0] == COMPANY else ""
            return f"offer yes or offer no: take one offered {co} share at ${self.price(state, co)}{who}"
        if state.get("emergency"):
            e = state["emergency"]
            raise_ = f"raise ${self.due(state)} for {e['company']}'s {e['train']} train"
            if "sell" in kinds and "bankrupt" in kinds:
                return f"{raise_}: sell shares to the Pool (sell COMPANY N), or bankrupt, as no sales can raise it all"
            if "sell" in kinds:
                return f"{raise_}: sell shares to the Pool (sell COMPANY N)"
            return f"{raise_}: no sale is possible, so bankrupt"
        if state.get("discard"):
            co = state["discard"][0]
            return f"discard {co} TYPE: {co} owns more trains than the limit of {self.train_limit(state)}"
        phase = state["phase"]
        if phase == "reissue":
            co = state["reissue"][0]
            return f"reissue {co} N: how many of its {state['companies'][co]['held']} own shares {co} offers for re-issue"
        if phase == "stock":
            if self.must_sell(state, player):
                return f"sell shares first: over the certificate limit of {self.cert_limit(state)}"
            named = [words for kind, words in (("sell", "sell"), ("buy", "buy one share"), ("par", "par a company"),
                                               ("pass", "pass")) if kind in kinds]
            return ", or ".join([", ".join(named[:-1]), named[-1]]) if len(named) > 2 else " or ".join(named)
        results = ["operate CO REVENUE pay|withhold" if "operate" in kinds else "",
                   f"train CO TYPE{self.train_form(legal)}" if "train" in kinds else "",
                   "done" if "done" in kinds else "", "end game"]
        return "operating results: " + ", ".join(r for r in results if r)

    def train_form(self, legal: list[str]) -> str:
        """How the train purchases `legal` now are written: ` [pool|from CO PRICE]` when a
        train of the open market and one of another company may be bought."""
        forms = [f for f, there in (("pool", any(o.startswith("train") and o.endswith(" pool") for o in legal)),
                                    ("from CO PRICE", any(o.startswith("train") and " from " in o for o in legal)))
                 if there]
        return f" [{'|'.join(forms)}]" if forms else ""

    def legal_orders(self, state, player) -> list[str]:
        if player not in self.awaiting(state):
            return []
        if state["sale"]:
            return ["offer yes", "offer no"]
        if state.get("emergency"):
            sales = [f"sell {co} {n}" for co in self.companies for n in self.emergency_sales(state, co)]
            return sales + ["bankrupt"] if self.may_go_bankrupt(state, sales) else sales
        if state.get("discard"):
            co = state["discard"][0]
            return [f"discard {co} {t}" for t in self.train_types() if t in state["companies"][co]["trains"]]
        phase = state["phase"]
        if phase == "reissue":
            co = state["reissue"][0]
            return [f"reissue {co} {n}" for n in range(state["companies"][co]["held"] + 1)]
        if phase == "operating":
            return self.gm_orders(state)
        orders = []
        if self.must_sell(state, player):
            return [f"sell {co} {n}" for co in self.companies for n in range(1, self.sellable(state, player, co) + 1)]
        for co in self.companies:
            if not state["sold"]:
                orders += [f"sell {co} {n}" for n in range(1, self.sellable(state, player, co) + 1)]
            orders += [f"buy {co} {src}" for src in ("pool", "company") if not self.why_not_buy(state, player, co, src)]
            orders += [f"par {co} {par}" for par in self.par_prices() if not self.why_not_par(state, player, co, par)]
        return orders + ["pass"]

    def gm_orders(self, state) -> list[str]:
        """The game master's orders: every train purchase (from another company: at $1 and at
        its cost), and for each company to operate a range of typical revenues (any multiple of
        10 is accepted)."""
        orders = []
        on_sale = self.on_sale(state)
        operating = self.operating(state)
        trading = not self.why_no_trades(state)
        for co in operating:
            orders += self.train_orders(state, co, on_sale, operating if trading else ())
            if co in state["operated"]:
                continue
            orders += self.revenues(co, self.revenue_bound(state, co))
        if not self.why_not_done(state):
            orders.append("done")
        return orders + ["end game"]

    def train_orders(self, state, co, on_sale, sellers) -> list[str]:
        """Every train `co` may buy now: from the bank (trading one in), the open market, and
        each of `sellers` at the prices of trade_prices()."""
        orders = []
        for kind in on_sale:
            if not self.why_not_train(state, co, kind):
                orders.append(f"train {co} {kind}")
            orders += [f"train {co} {kind} trade {old}" for old in self.train_types()
                       if self.trade_in_cost(kind, old) and old in state["companies"][co]["trains"]
                       and not self.why_not_trade_in(state, co, kind, old)]
        orders += [f"train {co} {t} pool" for t in self.pool_trains(state) if not self.why_not_pool_train(state, co, t)]
        # (the checks of why_not_trade, each asked once where it holds for many trades: the
        # phase, the buyer, then for each train another company owns, the price)
        for seller in sellers if sellers and not self.why_not_trade_again(state, co) else ():
            if seller == co:
                continue
            for t in sorted(set(state["companies"][seller]["trains"])):
                orders += [f"train {co} {t} from {seller} {price}" for price in self.trade_prices(state, co, t)
                           if not self.why_not_pay(state, co, t, price)]
        return orders

    def trade_prices(self, state, buyer, kind) -> list[int]:
        """The prices listed for a train of another company (any price of at least $1 is accepted)."""
        return sorted({1, self.train(kind)["cost"]})

    revenue_step = 10  # the revenues listed: every multiple of 10 the game master may enter

    def revenue_bound(self, state, co) -> int:
        """The most `co`'s trains can run: $40 a stop of each train (0 without a train)."""
        return sum(self.train(t)["size"] for t in state["companies"][co]["trains"]) * 40

    @lru_cache(maxsize=None)  # (listed for every company in every operating round)
    def revenues(self, co: str, top: int) -> tuple[str, ...]:
        """The operating results listed for `co`: withhold nothing, then every multiple of
        `revenue_step` up to `top`, paid or withheld."""
        step = self.revenue_step
        return (f"operate {co} 0 withhold", *(f"operate {co} {rev} {how}" for rev in range(step, top + 1, step)
                                             for how in ("pay", "withhold")))

    def why_not_revenue(self, state, co, revenue) -> str:
        """Parse and the listed orders agree: no more than the trains can run."""
        top = self.revenue_bound(state, co)
        if revenue <= top:
            return ""
        trains = state["companies"][co]["trains"]
        if not trains:
            return f"{co} owns no train: its revenue is 0 (operate {co} 0 withhold)"
        return f"{co}'s trains ({' '.join(trains)}) run at most ${top} ($40 a stop)"


    def default_order(self, state, player):
        if state["sale"]:
            return "offer no"
        if state.get("emergency"):
            return None  # the director's choice of shares: the judge's bot picks for a late director
        if state.get("discard"):
            return self.legal_orders(state, player)[0]  # the oldest train
        if state["phase"] == "stock" and self.must_sell(state, player):
            return None  # which shares: the judge's bot picks for a late player
        if state["phase"] == "reissue":
            return f"reissue {state['reissue'][0]} 0"
        return "pass" if state["phase"] == "stock" else None

    def started(self, state) -> list[str]:
        companies = state["companies"]
        return [co for co in self.companies if companies[co]["director"]]

    def operating(self, state) -> list[str]:
        """The companies that operate (operates())."""
        return [co for co in self.companies if self.operates(state, co)]

    def operates(self, state, co) -> bool:
        """Whether `co` operates: once floated (60% sold, 1830)."""
        c = state["companies"][co]
        return bool(c["director"]) and c["floated"]

    def float_check(self, state, co) -> None:
        c = state["companies"][co]
        if not c["floated"] and self.data["shares"] - c["ipo"] >= self.data["float_shares"]:
            c["floated"] = True
            emit(state, f"{co} floats ({self.data['float_shares'] * 10}% sold): it operates from the next operating round.")

    # ---- parsing ------------------------------------------------------------------------
    def parse(self, state, player, text) -> Order:
        w = words(text)
        if not w:
            raise OrderSyntaxError("an empty order", text)
        verb, args = w[0], w[1:]
        if player == GM:
            return self.parse_gm(state, verb, args, text)
        if verb in GM_VERBS:
            raise NotYourTurn(f"'{verb}' is the game master's order (operating results)", text)
        if verb not in PLAYER_VERBS:
            raise OrderSyntaxError(f"unknown order '{verb}' (orders: {', '.join(PLAYER_VERBS)})", text)
        if state.get("emergency"):
            return self.parse_emergency(state, player, verb, args, text)
        if verb == "bankrupt":
            raise IllegalOrder("bankrupt is for a director who cannot raise the money for a company's train", text)
        if state.get("discard"):
            return self.parse_discard(state, player, verb, args, text)
        if verb == "discard":
            raise IllegalOrder("discard is for a director whose company owns more trains than the limit", text)
        if state["sale"]:
            if verb != "offer":
                raise IllegalOrder(f"a sale of {state['sale']['company']} is in progress: {self.prompt(state, player)}", text)
            if len(args) != 1:
                raise OrderSyntaxError("write offer yes or offer no", text)
            return Order(player, "offer", (choose(args[0], ("yes", "no"), text, "answer"),))
        if state["phase"] == "reissue":
            return self.parse_reissue(state, player, verb, args, text)
        if verb == "offer":
            raise IllegalOrder("no share is on offer: offer answers a sale", text)
        if verb == "reissue":
            raise IllegalOrder("directors declare re-issues at the start of a stock round only", text)
        if verb != "sell" and self.must_sell(state, player):
            raise IllegalOrder(f"you hold {self.certs(state, player)} certificates, over the limit of "
                               f"{self.cert_limit(state)}: sell shares first (sell COMPANY N)", text)
        if verb == "pass":
            if args:
                raise OrderSyntaxError("'pass' takes nothing after it", text)
            return Order(player, "pass")
        if not args:
            raise OrderSyntaxError(f"write {verb} COMPANY ...", text)
        co = self.company(args[0], text)
        if verb == "sell":
            if len(args) != 2:
                raise OrderSyntaxError("write sell COMPANY N", text)
            n = parse_count(args[1], text)
            if n == 0:
                raise OrderSyntaxError("sell at least 1 share (or pass)", text)
            if state["sold"] and not self.must_sell(state, player):
                raise IllegalOrder(f"you sold {plural(state['sold'], 'share')} this turn: buy one share or pass", text)
            why = self.why_not_sell(state, player, co, n)
            if why:
                raise IllegalOrder(why, text)
            return Order(player, "sell", (co, n))
        if verb == "buy":
            if len(args) != 2:
                raise OrderSyntaxError("write buy COMPANY pool or buy COMPANY company", text)
            source = choose(args[1], ("pool", "company"), text, "source")
            why = self.why_not_buy(state, player, co, source)
            if why:
                raise IllegalOrder(why, text)
            return Order(player, "buy", (co, source))
        if len(args) != 2:
            raise OrderSyntaxError("write par COMPANY PRICE", text)
        par = parse_count(args[1], text, what="price")
        why = self.why_not_par(state, player, co, par)
        if why:
            raise IllegalOrder(why, text)
        return Order(player, "par", (co, par))

    def must_sell(self, state, player) -> bool:
        """1830: a player over the certificate limit must sell before anything else, while they
        can sell, and (version 6) again after a sale that leaves them over it: a turn's one sale
        of the variant gives way, as 1830 re-checks after every action (step/buy_sell_par_shares.rb
        actions: ['sell_shares'] while must_sell?)."""
        if state["sale"] or self.certs(state, player) <= self.cert_limit(state):
            return False
        return any(self.sellable(state, player, co) for co in self.companies)

    def parse_discard(self, state, player, verb, args, text) -> Order:
        co = state["discard"][0]
        if verb != "discard":
            raise IllegalOrder(f"{co} must discard a train first: {self.prompt(state, player)}", text)
        if len(args) != 2:
            raise OrderSyntaxError("write discard COMPANY TYPE", text)
        if self.company(args[0], text) != co:
            raise IllegalOrder(f"discard a train of {co}", text)
        kind = pick(args[1], self.train_types(), text, what="train")
        if kind not in state["companies"][co]["trains"]:
            raise IllegalOrder(f"{co} owns no {kind} train", text)
        return Order(player, "discard", (co, kind))

    def parse_emergency(self, state, player, verb, args, text) -> Order:
        e = state["emergency"]
        if verb == "bankrupt":
            if args:
                raise OrderSyntaxError("'bankrupt' takes nothing after it", text)
            sales = self.legal_orders(state, player)
            if "bankrupt" not in sales:
                raise IllegalOrder(f"you can still raise money: {', '.join(sales[:4])}{' ...' if len(sales) > 4 else ''}", text)
            return Order(player, "bankrupt")
        if verb != "sell":
            raise IllegalOrder(f"{e['company']} needs a {e['train']} train: {self.prompt(state, player)}", text)
        if len(args) != 2:
            raise OrderSyntaxError("write sell COMPANY N", text)
        co = self.company(args[0], text)
        n = parse_count(args[1], text)
        if n == 0:
            raise OrderSyntaxError("sell at least 1 share", text)
        why = self.why_not_emergency_sale(state, player, co, n)
        if why:
            raise IllegalOrder(why, text)
        return Order(player, "sell", (co, n))

    def due(self, state) -> int:
        """What the director must still raise for the emergency train."""
        e = state["emergency"]
        c = state["companies"][e["company"]]
        return self.train_price(e) - c["treasury"] - state["players"][c["director"]]["money"]

    def why_not_emergency_sale(self, state, p, co, n) -> str:
        """1830: to the Pool within its 50%; not giving up the directorship of the company
        buying the train; no more shares than needed."""
        why = self.why_not_dump(state, p, co, n, state["emergency"]["company"])
        if why:
            return why
        price = self.price(state, co)
        if (n - 1) * price >= self.due(state):
            return f"you need ${self.due(state)}: {plural(n - 1, co + ' share')} at ${price} will do (sell no more than needed)"
        return ""

    def why_not_dump(self, state, p, co, n, buying) -> str:
        """Why `p` may not sell `n` shares of `co` to the Pool toward a train of company `buying`,
        need aside (step/emergency_money.rb sellable_bundle?: the Pool within its 50%, the
        certificate only to a holder of 2, never the directorship of `buying`)."""
        c = state["companies"][co]
        held = c["shares"][p]
        if not held:
            return f"you hold no {co} shares"
        if n > held:
            return f"you hold only {plural(held, co + ' share')}"
        room = self.data["pool_limit"] - c["pool"]
        if n > room:
            return f"the Pool holds {plural(c['pool'], co + ' share')} and may hold at most {self.data['pool_limit']} (50%)"
        if c["director"] == p:
            keep = self.data["director_shares"]
            if co == buying:
                keep = max(keep, self.others_most(state, p, co))
                if held - n < keep:
                    return f"you would give up the directorship of {co}, whose train you pay for: sell at most {held - keep}"
            elif self.others_most(state, p, co) < keep and held - n < keep:
                return f"you keep the director's certificate of {co} (nobody else holds {keep} shares): sell at most {held - keep}"
        return ""

    def liquidity(self, state, p, buying) -> int:
        """What director `p` can raise toward a train of company `buying` by selling shares to the
        Pool at today's prices: of each company the most they may sell (1830: base.rb liquidity,
        value_for_sellable: the largest sellable bundle at the current price)."""
        total = 0
        for co in self.started(state):
            total += self.most_dumped(state, p, co, buying) * self.price(state, co)
        return total

    def most_dumped(self, state, p, co, buying) -> int:
        """The most shares of `co` that `p` may sell to the Pool toward `buying`'s train, need aside."""
        return next((n for n in range(state["companies"][co]["shares"][p], 0, -1)
                     if not self.why_not_dump(state, p, co, n, buying)), 0)

    def may_go_bankrupt(self, state, sales) -> bool:
        """1830: a director may go bankrupt when what they can raise selling shares falls short
        of what they must pay (base.rb can_go_bankrupt?: the liquidity, `sales` or not)."""
        e = state["emergency"]
        return self.liquidity(state, state["companies"][e["company"]]["director"], e["company"]) < self.due(state)

    def emergency_sales(self, state, co) -> list[int]:
        p = self.awaiting(state)[0]
        held = state["companies"][co]["shares"][p]
        return [n for n in range(1, held + 1) if not self.why_not_emergency_sale(state, p, co, n)]

    def parse_reissue(self, state, player, verb, args, text) -> Order:
        co = state["reissue"][0]
        if verb != "reissue":
            raise IllegalOrder(f"directors declare re-issues first: {self.prompt(state, player)}", text)
        if len(args) != 2:
            raise OrderSyntaxError("write reissue COMPANY N", text)
        named = self.company(args[0], text)
        if named != co:
            raise IllegalOrder(f"declare for {co} now", text)
        n = parse_count(args[1], text)
        held = state["companies"][co]["held"]
        if n > held:
            raise IllegalOrder(f"{co} holds only {plural(held, 'share')} of its own", text)
        return Order(player, "reissue", (co, n))

    def parse_gm(self, state, verb, args, text) -> Order:
        if verb not in self.gm_verbs:
            raise OrderSyntaxError(f"the game master's orders are {', '.join(self.gm_verbs)}; players' orders go with --as NAME", text)
        if verb == "done" and args:
            raise OrderSyntaxError("'done' takes nothing after it", text)
        if verb == "end":  # `end game`; a plain `end` (older logs, the shell) is the same order
            if args not in ([], ["game"]):
                raise OrderSyntaxError("write end game", text)
            if state["sale"]:
                raise IllegalOrder("a sale is in progress: end the game when it is complete", text)
            return Order(GM, "end", ("game",))
        if state.get("emergency"):
            e = state["emergency"]
            director = state["companies"][e["company"]]["director"]
            raise NotYourTurn(f"{director} is raising money for {e['company']}'s {e['train']} train; the results go on after that", text)
        if state.get("discard"):
            co = state["discard"][0]
            raise NotYourTurn(f"{state['companies'][co]['director']} is discarding {co}'s trains over the limit; "
                              "the results go on after that", text)
        if state["phase"] != "operating":
            raise NotYourTurn(f"the stock round is on; operating results come after it ({self.prompt(state, self.awaiting(state)[0])})", text)
        if verb == "done":
            why = self.why_not_done(state)
            if why:
                raise IllegalOrder(why, text)
            return Order(GM, "done")
        if not args:
            raise OrderSyntaxError(f"write {verb} COMPANY ...", text)
        co = self.company(args[0], text)
        if not state["companies"][co]["director"]:
            raise IllegalOrder(f"{co} has not started", text)
        if not self.operates(state, co):
            c = state["companies"][co]
            raise IllegalOrder(by_1830(f"{co} has not floated: {self.data['shares'] - c['ipo']} of its "
                                       f"{self.data['shares']} shares are sold; it operates once "
                                       f"{self.data['float_shares']} are"), text)
        if verb == "train":
            return self.parse_train(state, co, args, text)
        if len(args) != 3:
            raise OrderSyntaxError("write operate COMPANY REVENUE pay or operate COMPANY REVENUE withhold", text)
        if co in state["operated"]:
            raise IllegalOrder(f"{co} has operated in this round already", text)
        revenue = parse_count(args[1], text, what="revenue")
        if revenue % 10:
            raise IllegalOrder("revenues are multiples of 10", text)
        why = self.why_not_revenue(state, co, revenue)
        if why:
            raise IllegalOrder(why, text)
        how = choose(args[2], ("pay", "withhold"), text, "choice")
        if how == "pay" and not revenue:
            raise IllegalOrder("there is nothing to pay: operate with 0 withhold", text)
        return Order(GM, "operate", (co, revenue, how))

    def parse_train(self, state, co, args, text) -> Order:
        """`train CO TYPE` from the bank, `train CO TYPE pool` from the open market, `train CO
        TYPE trade OLD` from the bank trading in a train, or `train CO TYPE from SELLER PRICE` (1830)."""
        if len(args) == 5 and args[2] == "from":
            return self.parse_trade(state, co, args, text)
        if len(args) == 4 and args[2] == "trade" and self.trade_ins:
            return self.parse_trade_in(state, co, args, text)
        if len(args) == 3 and args[2] == "pool":
            return self.parse_pool_train(state, co, args, text)
        if len(args) != 2:
            raise OrderSyntaxError(f"write train COMPANY TYPE or train COMPANY TYPE{self.train_sources}", text)
        return self.parse_bank_train(state, co, args, text)

    def parse_bank_train(self, state, co, args, text) -> Order:
        kind = pick(args[1], self.train_types(), text, what="train")
        why = self.why_not_train(state, co, kind)
        if why:
            raise IllegalOrder(why, text)
        return Order(GM, "train", (co, kind))

    train_sources = " pool, train COMPANY TYPE trade TYPE or train COMPANY TYPE from COMPANY PRICE"
    trade_ins = True  # (version 6) a train bought from the bank trading in an older one

    def parse_trade_in(self, state, co, args, text) -> Order:
        kind, old = (pick(a, self.train_types(), text, what="train") for a in (args[1], args[3]))
        why = self.why_not_trade_in(state, co, kind, old)
        if why:
            raise IllegalOrder(why, text)
        return Order(GM, "train", (co, kind, "trade", old))

    def trade_in_cost(self, kind, old) -> int:
        """What a `kind` train from the bank costs trading in an `old` one, or 0 when it cannot be
        traded in for it (1830: a D for $800 with a 4, 5 or 6, g_1830/game.rb TRAINS `discount`)."""
        t = self.train(kind)
        off = t.get("discount", {}).get(old, 0) if self.trade_ins else 0
        return t["cost"] - off if off else 0

    def trade_in_words(self, kind) -> str:
        """"$800 trading in a 4, 5 or 6" for a type that takes trade-ins, else ""."""
        olds = [old for old in self.train_types() if self.trade_in_cost(kind, old)]
        if not olds:
            return ""
        costs = sorted({self.trade_in_cost(kind, old) for old in olds})
        listed = ", ".join(olds[:-1]) + " or " + olds[-1] if len(olds) > 1 else olds[0]
        return f"${'/$'.join(map(str, costs))} trading in a {listed}"

    def why_not_trade_in(self, state, co, kind, old) -> str:
        """1830: the company pays the rest from its treasury; its director pays nothing toward a
        trade-in (step/train.rb buy_train_action: 'Cannot contribute funds when exchanging')."""
        cost = self.trade_in_cost(kind, old)
        if not cost:
            offers = self.trade_in_words(kind)
            return f"a {kind} train is bought trading in a {old} train only where 1830 allows it" + \
                (f" ({offers})" if offers else f" (no train is traded in for a {kind})")
        sale = self.on_sale(state)
        if kind not in sale:
            return self.why_not_on_sale(sale)
        c = state["companies"][co]
        if old not in c["trains"]:
            return f"{co} owns no {old} train"
        if c["treasury"] < cost:
            return f"{co} has ${c['treasury']}; a {kind} train trading in a {old} costs ${cost} (its director pays nothing toward it)"
        return ""

    def parse_pool_train(self, state, co, args, text) -> Order:
        kind = pick(args[1], self.train_types(), text, what="train")
        why = self.why_not_pool_train(state, co, kind)
        if why:
            raise IllegalOrder(why, text)
        return Order(GM, "train", (co, kind, "pool"))

    def pool_trains(self, state) -> list[str]:
        """The types of the trains in the open market (discarded over a limit), oldest first."""
        pool = state["trains"].get("pool", {})
        return [t for t in self.train_types() if pool.get(t)]

    def why_not_pool_train(self, state, co, kind) -> str:
        """1830: a train of the open market at its face value, within the limit."""
        if kind not in self.pool_trains(state):
            return f"the open market has no {kind} train"
        why = self.why_not_afford(state, co, kind)
        if why:
            return why
        c, limit = state["companies"][co], self.train_limit(state)
        if len(c["trains"]) >= limit:
            return f"{co} owns {plural(len(c['trains']), 'train')}, the limit is {limit}"
        return ""

    def parse_trade(self, state, buyer, args, text) -> Order:
        kind = pick(args[1], self.train_types(), text, what="train")
        seller = self.company(args[3], text)
        price = parse_count(args[4], text, what="price")
        why = self.why_not_trade(state, buyer, kind, seller, price)
        if why:
            raise IllegalOrder(why, text)
        return Order(GM, "train", (buyer, kind, "from", seller, price))

    def why_not_trade(self, state, buyer, kind, seller, price) -> str:
        """1830: from phase 3 a company may buy a train of another company at any agreed price
        of at least $1. The judge's choice: one such purchase per company and operating round."""
        why = self.why_no_trades(state)
        if why:
            return why
        if seller == buyer:
            return f"{buyer} cannot buy its own train"
        if kind not in state["companies"][seller]["trains"]:
            return f"{seller} owns no {kind} train"
        return self.why_not_pay(state, buyer, kind, price) or self.why_not_trade_again(state, buyer)

    def why_not_pay(self, state, buyer, kind, price) -> str:
        """From the treasury; or (version 6) for a company that must buy a train, at most the
        train's face value, its director paying what the treasury lacks (1830: base.rb
        EBUY_FROM_OTHERS = :value; step/train.rb spend_minmax, president_may_contribute? is
        must_buy_train?: no train while the depot has one)."""
        if price < 1:
            return "a train between companies costs at least $1"
        c = state["companies"][buyer]
        treasury = c["treasury"]
        if treasury >= price:
            return ""
        if not self.helps_trade(state, c):
            return f"{buyer} has ${treasury}; the {kind} train costs ${price}"
        cost = self.train(kind)["cost"]
        if price > cost:
            return f"{buyer} has ${treasury}: with its director's help it pays at most the {kind} train's face value, ${cost}"
        d = c["director"]
        most = state["players"][d]["money"] + self.liquidity(state, d, buyer)
        if treasury + most < price:
            return f"{buyer} has ${treasury} and its director {d} can raise at most ${most} more: the {kind} train costs ${price}"
        return ""

    def helps_trade(self, state, c) -> bool:
        """Whether the director helps company `c` buy another company's train (1830: one
        without trains while the bank or the open market has one)."""
        return not c["trains"] and bool(self.on_sale(state) or self.pool_trains(state))

    def why_not_trade_again(self, state, buyer) -> str:
        """Why `buyer` may buy no train of another company now: it is at the train limit, or it
        has bought as many from other companies in this operating round as the limit lets it
        hold. 1830 sets no other bound: a company buys trains in its own turn only, when it
        sells none (step/buy_train.rb; round/operating.rb), so it never buys more in a round;
        the judge, whose game master enters a round's trades in any order, counts them, and so
        every operating round ends (versions 2-5: one such purchase a round, the judge's choice)."""
        trains, limit = state["companies"][buyer]["trains"], self.train_limit(state)
        bought = state["traded"].count(buyer)
        if bought >= self.trades_a_round(limit):
            return self.traded_words(buyer, bought, limit)
        if len(trains) >= limit:
            return f"{buyer} owns {plural(len(trains), 'train')}, the limit is {limit}"
        return ""

    def trades_a_round(self, limit) -> int:
        return limit

    def traded_words(self, buyer, bought, limit) -> str:
        return (f"{buyer} has bought {plural(bought, 'train')} from other companies in this operating round, "
                f"as many as its limit of {limit} (1830: a company buys trains in its own turn only)")

    def why_no_trades(self, state) -> str:
        """Why no company may buy a train of another now, or "": 1830 sets no phase for it
        (18xx.games g_1830 and Rails' 1830 alike; versions 2 and 3: from phase 3)."""
        return ""

    def why_not_done(self, state) -> str:
        todo = [co for co in self.operating(state) if co not in state["operated"]]
        if todo:
            return f"still to operate: {', '.join(todo)}"
        nxt = self.next_train(state)
        bare = self.must_buy(state) if nxt or self.pool_trains(state) else []
        if bare:
            return (f"{bare[0]} owns no train and must buy one: {self.must_buy_order(state, bare[0])} "
                    "(its director pays what the treasury lacks)")
        return ""

    def must_buy_order(self, state, co) -> str:
        """The train named to a company that must buy one: the cheapest available."""
        return self.cheapest(state, co)

    def must_buy(self, state) -> list[str]:
        """The operating companies without a train, each of which must buy one (1830)."""
        return [co for co in self.operating(state) if not state["companies"][co]["trains"]]

    def next_train(self, state) -> str:
        bank = state["trains"]["bank"]
        for t in self.train_types():  # (loops here and below: a generator costs twice as much)
            if bank[t]:
                return t
        return ""

    def phase_train(self, state) -> dict:
        """The newest train type sold: it names the phase (the first type before any is sold)."""
        bank = state["trains"]["bank"]
        for t in reversed(self.data["trains"]):
            if bank[t["type"]] < t["count"]:
                return t
        return self.data["trains"][0]

    def train_limit(self, state) -> int:
        return self.phase_train(state)["limit"]

    def on_sale(self, state) -> list[str]:
        """The types the bank sells now, oldest first: the next in order and (version 6) any
        type whose `available_on` phase has begun (1830: the D from the first 6, g_1830/game.rb
        TRAINS `available_on`; depot.rb available_upcoming_trains)."""
        nxt = self.next_train(state)
        if not nxt:
            return []
        bank, types = state["trains"]["bank"], self.train_types()
        phase = types.index(self.phase_train(state)["type"])
        return [t for t in types if bank[t] and (t == nxt or types.index(self.train(t).get("available_on", t)) <= phase)]

    def why_not_on_sale(self, sale: list[str]) -> str:
        if not sale:
            return "the bank has no trains left"
        listed = " and ".join(f"a {t} (${self.train(t)['cost']})" for t in sale)
        return f"the train{'s' if len(sale) > 1 else ''} on sale {'are' if len(sale) > 1 else 'is'} {listed}"

    def why_not_train(self, state, co, kind) -> str:
        sale = self.on_sale(state)
        if kind not in sale:
            return self.why_not_on_sale(sale)
        why = self.why_not_afford(state, co, kind)
        if why:
            return why
        c, limit = state["companies"][co], self.purchase_limit(state, kind)
        if len(c["trains"]) >= limit:
            return f"{co} owns {plural(len(c['trains']), 'train')}, the limit is {limit}"
        return ""

    def purchase_limit(self, state, kind) -> int:
        """The train limit a purchase of a `kind` from the bank is checked against: that of the
        phase in which it starts (1830, step/train.rb room?); trains over the limit of the phase
        it begins are discarded after it, the trains it rusts gone (crowd)."""
        return self.train_limit(state)

    helps_note = " (its director pays only for a company without trains)"

    def why_not_afford(self, state, co, kind) -> str:
        """A train from the bank or the open market at its cost: from the treasury, or with the
        director's help for a company without trains, then (version 6) only the cheapest train
        available, the open market's included (1830: base.rb EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST,
        step/train.rb check_for_cheapest_train; depot.rb depot_trains holds the discarded)."""
        c, cost = state["companies"][co], self.train(kind)["cost"]
        if c["treasury"] >= cost:
            return ""
        if not self.director_helps(state, c):
            return f"{co} has ${c['treasury']}; a {kind} train costs ${cost}{self.helps_note}"
        cheapest = self.cheapest(state, co)
        least = self.train(cheapest.split()[2])["cost"]
        if cost <= least:
            return ""
        return f"{co} has ${c['treasury']}: with its director's help it may buy only the cheapest train available ({cheapest}, ${least})"

    def cheapest(self, state, co) -> str:
        """The cheapest train available to `co` as its order: `train CO TYPE` from the bank
        (the first among equals) or `train CO TYPE pool` from the open market."""
        offers = [f"train {co} {t}" for t in self.on_sale(state)] + [f"train {co} {t} pool" for t in self.pool_trains(state)]
        return min(offers, key=lambda o: self.train(o.split()[2])["cost"])

    def director_helps(self, state, c) -> bool:
        """Whether the director pays what the treasury of company `c` lacks for a train (1830: without trains)."""
        return not c["trains"]

    # ---- applying -----------------------------------------------------------------------
    def apply(self, state, order, rng) -> None:
        getattr(self, f"do_{order.verb}")(state, order)

    def do_sell(self, state, order) -> None:
        if state.get("emergency"):
            self.emergency_sale(state, order)
            return
        p, (co, n) = order.player, order.args
        state["companies"][co]["shares"][p] -= n
        if co not in state["sold_round"][p]:
            state["sold_round"][p].append(co)
        state["sold"], state["last_actor"], state["passes"] = co, p, 0
        state["sale"] = {"company": co, "seller": p, "left": n, "bought": 0, "queue": []}
        emit(state, f"{p} offers {plural(n, co + ' share')} at ${self.price(state, co)}: anyone wants a share?")
        self.fix_director(state, co)
        self.new_pass(state)
        self.advance_sale(state)

    def new_pass(self, state) -> None:
        sale = state["sale"]
        sale["queue"] = self.round_from(state, sale["seller"])[1:] + [COMPANY]
        sale["bought"] = 0

    def can_take(self, state, who, price) -> bool:
        """Whether `who` may take a share offered at `price` in the sale."""
        co = state["sale"]["company"]
        if who == COMPANY:
            return state["companies"][co]["treasury"] >= price
        return state["players"][who]["money"] >= price and not self.why_not_hold(state, who, co)

    def advance_sale(self, state) -> None:
        """Skip those who cannot take a share; at the end of a pass offer again, or let the
        Pool absorb one share when nobody took one; finish when no share is left."""
        sale = state["sale"]
        co = sale["company"]
        while sale["left"]:
            price = self.price(state, co)  # (it changes only when the Pool absorbs a share)
            while sale["queue"] and not self.can_take(state, sale["queue"][0], price):
                sale["queue"].pop(0)
            if sale["queue"]:
                return
            if not sale["bought"]:
                self.pool_absorbs(state, co, sale["seller"])
            if sale["left"]:
                self.new_pass(state)
        state["sale"] = {}
        emit(state, f"The sale of {co} is complete; {co} stands at ${self.price(state, co)}.")

    def pool_absorbs(self, state, co, seller) -> None:
        c = state["companies"][co]
        price = self.absorb_price(*c["token"])
        self.fall(c)
        state["players"][seller]["money"] += self.bank_pay(state, price)
        c["pool"] += 1
        state["sale"]["left"] -= 1
        emit(state, f"Nobody took a {co} share: the Pool absorbs one for ${price}; {co} falls to ${self.price(state, co)}.")

    def absorb_price(self, r, col) -> int:
        """What the Pool pays absorbing a share: the price one column left, on the bottom row two
        (the variant); and (version 6) left of the first column is one row down, as 18xx.games
        moves a token left (stock_movement.rb TwoDimensionalMovement#left: down at the left edge;
        #down: not below the bottom row). Versions 1-5 paid the first column's own price there."""
        bottom = len(self.grid) - 1
        for _ in range(2 if r == bottom else 1):
            if col:
                col -= 1
            elif r < bottom:
                r += 1
        return self.grid[r][col]

    def fall(self, c: dict) -> None:
        """A share sold to the Pool: the company `c`'s token one row down (on the bottom row,
        one column left)."""
        r, col = c["token"]
        c["token"] = [r, max(col - 1, 0)] if r == len(self.grid) - 1 else [r + 1, col]

    def emergency_fall(self, c: dict) -> None:
        """A share the director sells to the Pool in an emergency (1830, stock_movement.rb
        `down`): the token one row down; on the bottom row it stays."""
        r, col = c["token"]
        c["token"] = [min(r + 1, len(self.grid) - 1), col]

    def do_offer(self, state, order) -> None:
        sale = state["sale"]
        co, seller = sale["company"], sale["seller"]
        head = sale["queue"].pop(0)
        who = co if head == COMPANY else head
        if order.args[0] == "no":
            emit(state, f"{who} does not take a {co} share.")
        else:
            price = self.price(state, co)
            c = state["companies"][co]
            if head == COMPANY:
                c["treasury"] -= price
                c["held"] += 1
            else:
                state["players"][head]["money"] -= price
                c["shares"][head] += 1
            state["players"][seller]["money"] += price
            sale["left"] -= 1
            sale["bought"] += 1
            emit(state, f"{who} takes a {co} share from {seller} for ${price}.")
            self.fix_director(state, co)
        self.advance_sale(state)

    def do_buy(self, state, order) -> None:
        p, (co, source) = order.player, order.args
        c = state["companies"][co]
        if source == "pool":
            cost = self.pool_price(state, co)
            c["pool"] -= 1
            state["bank"] += cost
        else:
            cost = self.price(state, co)
            if c["ipo"]:
                c["ipo"] -= 1
            else:
                c["offered"] -= 1
                c["held"] -= 1
            c["treasury"] += cost
        state["players"][p]["money"] -= cost
        c["shares"][p] += 1
        emit(state, f"{p} buys a {co} share from the {source} for ${cost}.")
        self.fix_director(state, co)
        self.float_check(state, co)
        self.acted(state, p)

    def do_par(self, state, order) -> None:
        p, (co, par) = order.player, order.args
        c = state["companies"][co]
        n = self.data["director_shares"]
        c.update(director=p, par=par, token=list(self.par_prices()[par]), treasury=n * par, ipo=c["ipo"] - n)
        c["shares"][p] = n
        state["players"][p]["money"] -= n * par
        emit(state, f"{p} starts {co} ({self.data['companies'][co]}) at par ${par}, paying ${n * par} for the director's certificate.")
        self.float_check(state, co)
        self.acted(state, p)

    def acted(self, state, p) -> None:
        state["last_actor"], state["passes"] = p, 0
        self.end_turn(state)

    def do_pass(self, state, order) -> None:
        p = order.player
        if state["sold"]:
            emit(state, f"{p} buys nothing.")
        else:
            state["passes"] += 1
            emit(state, f"{p} passes.")
        self.end_turn(state)

    def end_turn(self, state) -> None:
        state["sold"] = ""
        if state["passes"] >= len(state["seats"]):
            self.end_stock_round(state)
            return
        state["turn"] = self.left_of(state, state["turn"])

    def do_reissue(self, state, order) -> None:
        co, n = order.args
        state["reissue"].pop(0)
        state["companies"][co]["offered"] = n
        emit(state, f"{order.player} offers {plural(n, co + ' share')} for re-issue.")
        if not state["reissue"]:
            state["phase"] = "stock"

    # ---- rounds -------------------------------------------------------------------------
    def start_stock_round(self, state) -> None:
        state["round"] += 1
        emit(state, f"Stock round {state['round']} begins; {state['priority']} has the priority deal.")
        self.bump(state)
        for p in state["seats"]:
            state["sold_round"][p] = []
        state.update(turn=state["priority"], passes=0, last_actor="", sold="")
        order = self.round_from(state, state["priority"])
        queue = []
        for p in order:
            for co in self.companies:
                c = state["companies"][co]
                c["offered"] = 0
                if c["director"] == p and c["held"]:
                    queue.append(co)
        state["reissue"] = queue
        state["phase"] = "reissue" if queue else "stock"

    def mix(self, state, co) -> tuple:
        types = self.train_types()
        return tuple(sorted((types.index(t) for t in state["companies"][co]["trains"]), reverse=True))

    def bump(self, state) -> None:
        """The company with the most modern train mix moves one row up; a full tie moves none."""
        mixes = {co: self.mix(state, co) for co in self.started(state) if state["companies"][co]["trains"]}
        if not mixes:
            return
        best = max(mixes.values())
        leaders = [co for co, m in mixes.items() if m == best]
        if len(leaders) > 1:
            emit(state, f"{' and '.join(leaders)} tie for the most modern trains: no company moves up.")
            return
        co = leaders[0]
        token = state["companies"][co]["token"]
        if token[0] == 0:
            emit(state, f"{co} has the most modern trains but is on the top row already.")
            return
        token[0] -= 1
        emit(state, f"{co} has the most modern trains and moves up to ${self.price(state, co)}.")

    def end_stock_round(self, state) -> None:
        if state["last_actor"]:
            state["priority"] = self.left_of(state, state["last_actor"])
        emit(state, f"Everybody passes: stock round {state['round']} ends; {state['priority']} has the priority deal.")
        self.to_operating(state)

    def to_operating(self, state) -> None:
        """After a stock round: sold-out companies rise, and the set of operating rounds of the phase begins."""
        self.sold_out_rise(state)
        phase = self.phase_train(state)
        state.update(or_count=phase["rounds"], or_in_set=0, phase="operating")
        emit(state, f"Phase {phase['type']}: {plural(phase['rounds'], 'operating round')} {self.follow(phase['rounds'])} "
                    f"stock round {state['round']}.")
        self.next_operating_round(state)

    def follow(self, rounds: int) -> str:
        return "follow" if rounds > 1 else "follows"

    def next_operating_round(self, state) -> None:
        state["or_round"] += 1
        state["or_in_set"] += 1
        state.update(operated=[], traded=[])
        emit(state, f"Operating round {state['or_round']} ({state['or_in_set']} of {state['or_count']} after stock round "
                    f"{state['round']}): the game master enters the results.")

    def sold_out_rise(self, state) -> None:
        """1830: a company whose shares are all held by players rises one row."""
        for co in self.started(state):
            c = state["companies"][co]
            if c["ipo"] or c["pool"] or c["held"]:
                continue
            if c["token"][0] == 0:
                emit(state, f"{co} is sold out but on the top row already.")
                continue
            c["token"][0] -= 1
            emit(state, f"{co} is sold out (all its shares held by players) and rises to ${self.price(state, co)}.")

    def do_operate(self, state, order) -> None:
        co, revenue, how = order.args
        c = state["companies"][co]
        state["operated"].append(co)
        r, col = c["token"]
        if how == "pay":
            per = revenue // 10
            for p in state["seats"]:
                state["players"][p]["money"] += self.bank_pay(state, per * c["shares"][p])
            c["treasury"] += self.bank_pay(state, per * (c["pool"] + c["held"]))
            c["token"] = [r, col + 1] if col + 1 < len(self.grid[0]) else [max(r - 1, 0), col]
            emit(state, f"{co} earns ${revenue} and pays ${per} a share; {co} rises to ${self.price(state, co)}.")
        else:
            c["treasury"] += self.bank_pay(state, revenue)
            c["token"] = [r, col - 1] if col else [min(r + 1, len(self.grid) - 1), col]
            emit(state, f"{co} earns ${revenue} and withholds it; {co} falls to ${self.price(state, co)}.")

    def do_train(self, state, order) -> None:
        if len(order.args) == 5:
            self.trade(state, *order.args)
            return
        co, kind = order.args[:2]
        if order.args[2:3] == ("trade",):
            self.trade_in(state, co, kind, order.args[3])
            return
        if order.args[2:] == ("pool",):
            if state["companies"][co]["treasury"] < self.train(kind)["cost"]:  # the director helps (why_not_pool_train)
                self.emergency(state, co, kind, pool=True)
            else:
                self.buy_pool_train(state, co, kind)
            return
        c, t = state["companies"][co], self.train(kind)
        if c["treasury"] < t["cost"]:  # the director helps a company without trains (why_not_train)
            self.emergency(state, co, kind)
            return
        self.buy_train(state, co, kind)

    def trade(self, state, buyer, kind, _, seller, price) -> None:
        b, s = state["companies"][buyer], state["companies"][seller]
        if b["treasury"] < price:  # the director helps (why_not_pay)
            self.emergency(state, buyer, kind, price=price, seller=seller)
            return
        s["trains"].remove(kind)
        b["trains"].append(kind)
        b["treasury"] -= price
        s["treasury"] += price
        state["traded"].append(buyer)
        emit(state, f"{buyer} buys a {kind} train from {seller} for ${price}.")

    def emergency(self, state, co, kind, pool=False, price=0, seller="") -> None:
        """1830: the director pays what the treasury lacks, selling shares if need be (for a
        train of the bank, of the open market with `pool`, or of company `seller` at `price`)."""
        e = state["emergency"] = {"company": co, "train": kind}
        if pool:
            e["pool"] = True
        if seller:
            e.update(price=price, seller=seller)
        c = state["companies"][co]
        d = c["director"]
        if self.due(state) <= 0:
            self.fund_train(state)
            return
        which = f"{seller}'s {kind} train" if seller else f"a {kind} train"
        emit(state, f"{co} has ${c['treasury']} for {which} (${self.train_price(e)}); its director {d} has "
                    f"${state['players'][d]['money']} and must sell shares to raise ${self.due(state)} more.")

    def train_price(self, e) -> int:
        """What the train of emergency `e` costs: its face value, or the price agreed with the seller."""
        return e.get("price") or self.train(e["train"])["cost"]

    def fund_train(self, state) -> None:
        e = state["emergency"]
        co, kind = e["company"], e["train"]
        c = state["companies"][co]
        d = c["director"]
        pays = self.train_price(e) - c["treasury"]
        state["players"][d]["money"] -= pays
        c["treasury"] += pays
        pool = e.get("pool", False)
        state["emergency"] = {}
        emit(state, f"{d} pays ${pays} toward {co}'s {kind} train.")
        if e.get("seller"):
            self.trade(state, co, kind, "from", e["seller"], e["price"])
        elif pool:
            self.buy_pool_train(state, co, kind)
        else:
            self.buy_train(state, co, kind)

    def emergency_sale(self, state, order) -> None:
        """To the Pool at market price; the token moves one row down a share (1830), on the
        bottom row one column left."""
        p, (co, n) = order.player, order.args
        self.sell_to_pool(state, p, co, n)
        if self.due(state) <= 0:
            self.fund_train(state)
        else:
            emit(state, f"{p} must still raise ${self.due(state)}.")

    def sell_to_pool(self, state, p, co, n) -> None:
        c = state["companies"][co]
        price = self.price(state, co)
        c["shares"][p] -= n
        c["pool"] += n
        state["players"][p]["money"] += self.bank_pay(state, n * price)
        for _ in range(n):
            self.emergency_fall(c)
        emit(state, f"{p} sells {plural(n, co + ' share')} to the Pool for ${n * price}; {co} falls to ${self.price(state, co)}.")
        self.fix_director(state, co)

    def do_bankrupt(self, state, order) -> None:
        e = state["emergency"]
        emit(state, f"{order.player} cannot raise ${self.due(state)} for {e['company']}'s {e['train']} train and goes bankrupt.")
        self.sell_bankrupt(state, order.player, e["company"])
        state["emergency"] = {}
        state["bankrupt"] = order.player
        self.finish(state, f"{order.player} is bankrupt")

    def sell_bankrupt(self, state, p, buying) -> None:
        """1830: the bankrupt's shares go to the Pool, company by company in operating order,
        each the most the emergency's rules let them sell (the Pool within 50%, the certificate
        only to a holder of 2, not the directorship of `buying`), the price falling a row a share
        and directorships changing as they do; then all their money goes to the bank
        (step/bankrupt.rb sell_bankrupt_shares and process_bankrupt, player.set_cash(0, bank);
        corporation.rb sort_order_key: the highest price first)."""
        def operating_order(co):
            r, col = state["companies"][co]["token"]
            return -self.grid[r][col], -col, r, self.companies.index(co)
        for co in sorted(self.started(state), key=operating_order):
            most = self.most_dumped(state, p, co, buying)
            if most:
                self.sell_to_pool(state, p, co, most)
        money = state["players"][p]["money"]
        state["players"][p]["money"] = 0
        state["bank"] += money
        emit(state, f"{p}'s ${money} goes to the bank.")

    def trade_in(self, state, co, kind, old) -> None:
        """1830: the traded train goes to the open market (depot.rb reclaim_train), before the
        new one is bought (so a traded 4 rusts at once with the first D)."""
        state["companies"][co]["trains"].remove(old)
        state["trains"]["pool"][old] += 1
        self.buy_train(state, co, kind, self.trade_in_cost(kind, old), f", trading in a {old} train (to the open market)")

    def buy_train(self, state, co, kind, cost=None, how="") -> None:
        c, t = state["companies"][co], self.train(kind)
        first = state["trains"]["bank"][kind] == t["count"]
        cost = t["cost"] if cost is None else cost
        c["treasury"] -= cost
        state["bank"] += cost
        state["trains"]["bank"][kind] -= 1
        c["trains"].append(kind)
        emit(state, f"{co} buys a {kind} train for ${cost}{how}.")
        if first and t["rusts"]:
            self.rust(state, kind, t["rusts"])
        if first:
            self.crowd(state)

    def rust(self, state, kind, old) -> None:
        """The first `kind` train rusts every `old` train: the companies' and (version 6) those
        in the open market (1830: base.rb rust_trains! rusts every train of the type, the
        depot's discarded ones included, depot.rb remove_train)."""
        for other in state["companies"].values():
            n = other["trains"].count(old)
            other["trains"] = [x for x in other["trains"] if x != old]
            state["trains"]["scrapped"][old] += n
        emit(state, f"The first {kind} train rusts every {old} train.")
        self.rust_open_market(state, old)

    def rust_open_market(self, state, old) -> None:
        n = state["trains"]["pool"][old]
        if n:
            state["trains"]["pool"][old] = 0
            state["trains"]["scrapped"][old] += n
            emit(state, f"The {old} train in the open market rusts too." if n == 1 else
                 f"The {n} {old} trains in the open market rust too.")

    def crowd(self, state) -> None:
        """1830: companies over the limit of the phase just begun discard trains to the open
        market, their directors choosing which (step/discard_train.rb)."""
        limit = self.train_limit(state)
        state["discard"] = [co for co in self.companies if len(state["companies"][co]["trains"]) > limit]
        for co in state["discard"]:
            emit(state, f"{co} owns {plural(len(state['companies'][co]['trains']), 'train')}, over the limit of {limit}: "
                        f"its director {state['companies'][co]['director']} discards to the open market.")

    def do_discard(self, state, order) -> None:
        co, kind = order.args
        c = state["companies"][co]
        c["trains"].remove(kind)
        state["trains"]["pool"][kind] += 1
        emit(state, f"{co} discards a {kind} train to the open market.")
        if len(c["trains"]) <= self.train_limit(state):
            state["discard"].pop(0)

    def buy_pool_train(self, state, co, kind) -> None:
        c, cost = state["companies"][co], self.train(kind)["cost"]
        c["treasury"] -= cost
        state["bank"] += cost
        state["trains"]["pool"][kind] -= 1
        c["trains"].append(kind)
        emit(state, f"{co} buys a {kind} train from the open market for ${cost}.")

    def do_done(self, state, order) -> None:
        """`done`: the operating round is over (version 7: the company's turn, turns.py)."""
        self.end_operating_round(state)

    def end_operating_round(self, state) -> None:
        emit(state, f"Operating round {state['or_round']} is over.")
        if self.set_goes_on(state):
            self.next_operating_round(state)
        elif state["broken"]:
            self.finish(state, "the bank is broken")
        elif self.played(state) >= self.last_set(state):
            self.finish(state, f"{self.played_words(state)} have been played{self.cap_words(state)}")
        else:
            self.start_stock_round(state)

    def set_goes_on(self, state) -> bool:
        """Whether another operating round of the set follows the one just over."""
        return state["or_in_set"] < state["or_count"]

    def last_set(self, state) -> int:
        """The set of operating rounds after which the game ends, the bank unbroken: the option
        `rounds`, or (version 6, without it) MAX_ROUNDS, so that every game ends (1830 ends only
        by the bank or a bankruptcy, base.rb GAME_END_CHECK; the judge's bots and a game whose
        companies never operate need a last round)."""
        return state["options"]["rounds"] or MAX_ROUNDS

    def played(self, state) -> int:
        """What the option `rounds` counts: sets of operating rounds (one set after each stock round)."""
        return state["round"]

    def played_words(self, state) -> str:
        return f"{plural(state['round'], 'set')} of operating rounds"

    def cap_words(self, state) -> str:
        return "" if state["options"]["rounds"] else ", the most a game plays"

    def do_end(self, state, order) -> None:
        if state.get("emergency"):
            state["emergency"] = {}
        self.finish(state, "the game master ends it")

    def finish(self, state, why) -> None:
        state["phase"] = "over"
        rows = self.standings(state)
        winners = [r["player"] for r in rows if r["rank"] == 1]
        emit(state, f"The game ends ({why}); {' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with ${rows[0]['score']}.")

    # ---- scores -------------------------------------------------------------------------
    def standings(self, state) -> list[dict]:
        return self.ranked_worth(state, {co: self.price(state, co) for co, c in state["companies"].items() if c["token"]})

    def ranked_worth(self, state, prices: dict) -> list[dict]:
        """The standings: each player's money plus shares at the market `prices`, best first."""
        rows = []
        for p in state["seats"]:
            money = state["players"][p]["money"]
            shares = sum(state["companies"][co]["shares"][p] * price for co, price in prices.items())
            rows.append({"player": p, "score": money + shares, "money": money, "shares": shares})
        last = state.get("bankrupt", "") if self.bankrupt_last else ""  # (versions 2-5: a bankrupt player ranks last)
        return ranked(rows, lambda r: (r["player"] == last, -r["score"]))

    bankrupt_last = False  # 1830 ranks everyone by value, the bankrupt too (base.rb result, player.rb value)

    def summary(self, state) -> dict:
        return {"round": state["round"], "phase": state["phase"], "operating_rounds": state["or_round"]}

    def resample_hidden(self, state, player, rng) -> dict:
        """Nothing is secret in 18xx (holdings, money and the trains to come are public):
        the state is returned unchanged, as a copy."""
        return copy.deepcopy(state)

    # ---- views --------------------------------------------------------------------------
    def view(self, state, player) -> dict:
        grid, homes, seats, companies_now = self.grid, self.data["companies"], state["seats"], state["companies"]
        placed, prices, companies = [], {}, []
        for co in self.companies:  # (one pass: views are read for every standing order)
            c = companies_now[co]
            price = pool_price = 0
            if c["token"]:
                r, col = c["token"]
                price, pool_price = grid[r][col], self.right_of(r, col)
                prices[co] = price
            if c["director"]:
                placed.append(((r, col), co))
            companies.append({
                "name": co, "home": homes[co], "director": c["director"], "price": price, "par": c["par"],
                "pool_price": pool_price, "treasury": c["treasury"], "trains": list(c["trains"]), "pool": c["pool"],
                "new": c["ipo"], "held": c["held"], "offered": c["offered"],
                "holders": {p: n for p, n in c["shares"].items() if n}, "floated": self.operates(state, co),
            })
        market = self.market(tuple(placed))
        standings = self.ranked_worth(state, prices)
        worth = {r["player"]: r["score"] for r in standings}
        players = []
        for p in seats:
            shares, directs, certs = {}, [], 0
            for co in self.companies:
                c = companies_now[co]
                n = c["shares"][p]
                if n:
                    shares[co] = n
                    certs += n
                if c["director"] == p:
                    directs.append(co)
                    certs -= 1
            players.append({"name": p, "money": state["players"][p]["money"], "certs": certs, "worth": worth[p],
                            "shares": shares, "directs": directs})
        emergency = {}
        if state.get("emergency"):
            e = state["emergency"]
            emergency = {"company": e["company"], "train": e["train"], "due": self.due(state),
                         "director": state["companies"][e["company"]]["director"]}
        passed = self.round_from(state, state["turn"])[-state["passes"]:] if state["phase"] == "stock" and state["passes"] else []
        sale = {}
        if state["sale"]:
            s = state["sale"]
            head = s["queue"][0]
            sale = {"company": s["company"], "seller": s["seller"], "left": s["left"], "price": self.price(state, s["company"]),
                    "deciding": "company" if head == COMPANY else head, "awaiting": self.awaiting(state)[0],
                    "still_asked": [s["company"] if q == COMPANY else q for q in s["queue"]]}
        nxt, phase = self.next_train(state), self.phase_train(state)
        return {
            "title": self.title, "round": state["round"], "operating_round": state["or_round"],
            "rounds": state["options"]["rounds"], "phase": state["phase"], "bank": state["bank"], "broken": state["broken"],
            "priority": state["priority"], "turn": state["turn"], "sold": state["sold"], "cert_limit": self.cert_limit(state),
            "market": market, "companies": companies, "players": players, "sale": sale,
            "reissue": list(state["reissue"]), "operated": list(state["operated"]), "passed": passed,
            "or_in_set": state.get("or_in_set", 0), "or_count": state.get("or_count", 0), "emergency": emergency,
            "train_phase": phase["type"], "phase_rounds": phase["rounds"],
            "trains": {"next": nxt, "cost": self.train(nxt)["cost"] if nxt else 0, "limit": phase["limit"],
                       "on_sale": [{"type": t, "cost": self.train(t)["cost"], "trade_in": self.trade_in_words(t)}
                                   for t in self.on_sale(state)],
                       "bank": dict(state["trains"]["bank"]), "scrapped": dict(state["trains"]["scrapped"]),
                       "pool": {t: n for t, n in state["trains"].get("pool", {}).items() if n}},
            "discard": list(state.get("discard", [])), "must_sell": self.must_sell(state, state["turn"])
            if state["phase"] == "stock" and not state.get("emergency") else False,
            "standings": standings,
        }

    # ---- the orders as a grammar (reports) --------------------------------------------------
    def order_forms(self, state, player) -> list:
        from judge.engine.grammar import grouped

        return grouped(self.legal_orders(state, player), {"sell": "sell COMPANY N", "buy": "buy COMPANY FROM",
                                                          "par": "par COMPANY PRICE", "reissue": "reissue COMPANY N"})
