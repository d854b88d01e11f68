"""stock-round's `check`: whether a hand-edited state is consistent (money and shares add up,
the phase, turn, sale and emergency make sense)."""
from __future__ import annotations

from judge.engine.ruleset import fail
from judge.rulesets.stock_round.rules import COMPANY, MAX_ROUNDS, PHASES


class Check:
    """The consistency check of the stock round (a mixin of the registered ruleset)."""

    def bank_may_owe(self, state) -> bool:
        """Whether the bank may be below $0: once broken it pays from its reserve (version 4)."""
        return state["broken"]

    def check(self, state) -> None:
        seats = state["seats"]
        if state.get("phase") not in PHASES:
            fail(f"state.phase '{state.get('phase')}' is not one of {', '.join(PHASES)}")
        if list(state["players"]) != seats or list(state["sold_round"]) != seats:
            fail(f"state.players and state.sold_round must list the seats {seats}")
        if list(state["companies"]) != self.companies:
            fail(f"state.companies must be {', '.join(self.companies)}")
        ints = [(f"players.{p}.money", state["players"][p]["money"]) for p in seats]
        if type(state["bank"]) is not int or (state["bank"] < 0 and not self.bank_may_owe(state)):
            fail("state.bank must be a whole number >= 0 (below 0 only once broken, from version 4)")
        for co, c in state["companies"].items():
            ints += [(f"companies.{co}.{k}", c[k]) for k in ("treasury", "pool", "ipo", "held", "offered", "par")]
            ints += [(f"companies.{co}.shares.{p}", c["shares"].get(p)) for p in seats]
        for name, value in ints:
            if type(value) is not int or value < 0:
                fail(f"state.{name} must be a whole number >= 0")
        total = state["bank"] + sum(state["players"][p]["money"] for p in seats)
        total += sum(c["treasury"] for c in state["companies"].values())
        if total != self.data["bank"]:
            fail(f"money does not add up: bank, players and treasuries hold ${total}, not ${self.data['bank']}")
        sale = state["sale"]
        for co, c in state["companies"].items():
            in_sale = sale["left"] if sale and sale["company"] == co else 0
            n = sum(c["shares"][p] for p in seats) + c["pool"] + c["ipo"] + c["held"] + in_sale
            if n != self.data["shares"] or set(c["shares"]) != set(seats):
                fail(f"{co} shares do not add up: players, Pool, company and sale hold {n}, not {self.data['shares']}")
            if c["offered"] > c["held"]:
                fail(f"{co} offers more shares for re-issue than it holds")
            if c["director"]:
                if c["director"] not in seats or c["shares"][c["director"]] < self.data["director_shares"]:
                    fail(f"{co}'s director must be a player holding the director's certificate")
                r, col = c["token"] if len(c["token"]) == 2 else (-1, -1)
                if not (0 <= r < len(self.grid) and 0 <= col < len(self.grid[0])):
                    fail(f"{co}'s token is off the market")
            elif c["ipo"] != self.data["shares"] or c["trains"] or c["treasury"] or c["token"]:
                fail(f"{co} has not started but holds shares, trains, money or a token")
        for t in self.data["trains"]:
            kind = t["type"]
            owned = sum(c["trains"].count(kind) for c in state["companies"].values())
            pool = state["trains"].get("pool", {}).get(kind, 0)
            if owned + state["trains"]["bank"][kind] + state["trains"]["scrapped"][kind] + pool != t["count"]:
                fail(f"{kind} trains do not add up to {t['count']}")
        if any(x not in self.train_types() for c in state["companies"].values() for x in c["trains"]):
            fail("a company owns a train of an unknown type")
        for p in (state["priority"], state["turn"]):
            if p not in seats:
                fail(f"'{p}' (priority deal or turn) is not a player")
        if sale:
            queue_ok = all(q == COMPANY or q in seats for q in sale["queue"])
            if sale["company"] not in self.companies or sale["seller"] not in seats or not sale["queue"] or not queue_ok:
                fail("state.sale is inconsistent: no company, seller or decider")
        if state["phase"] == "reissue":
            if not state["reissue"] or any(not state["companies"][co]["held"] for co in state["reissue"]):
                fail("state.reissue must list companies holding shares of their own")
        self.check_1830(state)

    def check_1830(self, state) -> None:
        """What version 2's 1830 rules keep in the state: the set of operating rounds, trades,
        an emergency, floating, the Pool's limit."""
        for key in ("or_count", "or_in_set", "traded", "emergency"):
            if key not in state:
                fail(f"state.{key} is missing (a version {self.version} game)")
        if not 0 <= state["or_in_set"] <= state["or_count"] <= 3 * MAX_ROUNDS:
            fail("state.or_in_set must be from 0 to state.or_count")
        for co, c in state["companies"].items():
            if type(c.get("floated")) is not bool:
                fail(f"state.companies.{co}.floated must be true or false")
            if c["pool"] > self.data["pool_limit"]:
                fail(f"the Pool holds {c['pool']} {co} shares, more than {self.data['pool_limit']}")
        if state.get("bankrupt", state["seats"][0]) not in state["seats"]:
            fail("state.bankrupt must name a player")
        if any(co not in self.companies for co in state["traded"]):
            fail("state.traded must list companies")
        if any(co not in self.companies for co in state.get("discard", [])):
            fail("state.discard must list companies")
        e = state["emergency"]
        if e and (e.get("company") not in self.started(state) or e.get("train") not in self.train_types()
                  or state["phase"] != "operating" or e.get("seller", e["company"]) not in self.companies):
            fail("state.emergency is inconsistent: no started company or train, or not in an operating round")

