"""stock-round version 7 (issue 48): the operating round as 1830 runs it, a sequence of company
turns driven by the judge (tobymao/18xx round/operating.rb, g_1830/game.rb operating_round).

The companies operate in 1830's operating order (highest price first; on one price the token
further right, then higher, then the one that arrived first: corporation.rb sort_order_key),
recomputed for those still to operate whenever a turn begins (round/operating.rb
recalculate_order after an emergency sale). In its turn the game master enters, in 1830's
order: the track's cost (`track CO 80`, one tile a turn), a station token (`token CO`, the next
stand-in cost), the run (`operate CO REVENUE pay|withhold`, or `operate CO no route`), then the
buy-train step (`train ...` any number within the limit, then `done`; in a round where no
company operates, `done` alone closes it). Skipping is allowed: a
run entered first means no track and no token. Trains bought never count in that turn's
revenue, and a company buys only in its own turn. A company with a route and no train must buy
before `done`, and only then does its director help (step/train.rb, emergency_money.rb).

Older versions (versions.py, Version6) take back Rules' methods for each hook overridden here."""
from __future__ import annotations

from judge.engine.errors import IllegalOrder, OrderSyntaxError
from judge.engine.orders import Order, parse_count
from judge.engine.ruleset import GM, emit, fail

STEPS = ("track", "token", "run", "buy")  # a company's turn, in 1830's order (g_1830/game.rb operating_round)
TURN_VERBS = ("track", "token", "operate", "train", "done")
NO_ROUTE = "no route"


class Turns:
    """The company turns of version 7 (a mixin of the registered ruleset, before Rules)."""

    helps_note = " (its director helps only a company with a route and no train, in its turn)"

    # ---- state ----------------------------------------------------------------------------
    def operating_keys(self) -> dict:
        """Also the company whose turn it is, its step, and whether it ran a route."""
        return {**super().operating_keys(), "turn_co": "", "step": "", "route": False}

    def new_company(self, seats) -> dict:
        """Also its station tokens placed beyond the home token, and when its token arrived on
        its market space (the operating order's last tie-break)."""
        return {**super().new_company(seats), "tokens": 0, "arrived": 0}

    def apply(self, state, order, rng) -> None:
        """Every token that moved arrives on its space at this move (1830: share_price.rb keeps
        a space's companies in the order they came)."""
        companies = state["companies"]
        before = [c["token"][:] for c in companies.values()]
        super().apply(state, order, rng)
        for was, c in zip(before, companies.values()):
            if c["token"] != was:
                c["arrived"] = state["move"]

    def operating_order(self, state, cos) -> list[str]:
        """`cos` in 1830's operating order (corporation.rb sort_order_key: the higher price, the
        column further right, the row higher up, the first to arrive on the space)."""
        def key(co):
            c = state["companies"][co]
            r, col = c["token"]
            return -self.grid[r][col], -col, r, c["arrived"], self.companies.index(co)
        return sorted(cos, key=key)

    # ---- the round's turns ------------------------------------------------------------------
    def next_operating_round(self, state) -> None:
        super().next_operating_round(state)
        self.begin_turn(state)

    def still_to_operate(self, state) -> list[str]:
        return self.operating_order(state, [co for co in self.operating(state)
                                            if co not in state["operated"] and co != state["turn_co"]])

    def begin_turn(self, state) -> None:
        """The next company in operating order begins its turn; none left: the round is over
        (in a round where no company operates, at the game master's `done`)."""
        state.update(turn_co="", step="", route=False)
        left = self.still_to_operate(state)
        if not left:
            if state["operated"]:
                self.end_operating_round(state)
            return
        state.update(turn_co=left[0], step="track")
        then = f"; then {', '.join(left[1:])}" if left[1:] else ""
        emit(state, f"{left[0]} operates{then}.")

    def do_done(self, state, order) -> None:
        """`done`: the company's turn is over; the next begins (no company operates: the round is over)."""
        if state["turn_co"]:
            self.begin_turn(state)
        else:
            self.end_operating_round(state)

    def why_not_done(self, state) -> str:
        co = state["turn_co"]
        if not co:
            return ""  # no company operates in this round
        c = state["companies"][co]
        if state["step"] != "buy":
            return self.runs_first(co)
        if self.director_helps(state, c) and (self.on_sale(state) or self.pool_trains(state)):
            return (f"{co} has a route and no train: it must buy one in its turn ({self.cheapest(state, co)}, its "
                    "director paying what the treasury lacks; 1830: base.rb must_buy_train?)")
        return ""

    def runs_first(self, co) -> str:
        return (f"{co} runs before it buys (1830: track, token, run, then trains): enter its revenue first "
                f"(operate {co} REVENUE pay|withhold, or operate {co} no route)")

    # ---- the game master's entries -----------------------------------------------------------
    def parse_gm(self, state, verb, args, text) -> Order:
        turn = state.get("turn_co")
        if verb not in TURN_VERBS or not turn or state["emergency"] or state["discard"] or state["phase"] != "operating":
            return super().parse_gm(state, verb, args, text)
        if verb == "done":
            return super().parse_gm(state, verb, args, text)
        if not args:
            raise OrderSyntaxError(f"write {verb} COMPANY ...", text)
        co = self.company(args[0], text)
        if co not in self.operating(state):
            return super().parse_gm(state, verb, args, text)  # not started, not floated
        if co != turn:
            order = ", ".join([turn, *self.still_to_operate(state)])
            raise IllegalOrder(f"it is {turn}'s turn (operating order now: {order}); {co} "
                               f"{'buys trains only in its own turn' if verb == 'train' else 'operates in its own turn'}"
                               " (1830: round/operating.rb)", text)
        step = STEPS.index(state["step"])
        if verb == "train" and step < STEPS.index("buy"):
            raise IllegalOrder(self.runs_first(co), text)
        if verb != "train" and step >= STEPS.index("buy"):
            raise IllegalOrder(f"{co} has run: it may buy trains (train {co} ...) or end its turn (done)", text)
        if verb == "track":
            return self.parse_track(state, co, step, args, text)
        if verb == "token":
            if len(args) != 1:
                raise OrderSyntaxError("write token COMPANY", text)
            why = self.why_not_token(state, co) or (f"{co} has placed a token in this turn" if step > 1 else "")
            if why:
                raise IllegalOrder(why, text)
            return Order(GM, "token", (co,))
        if verb == "operate" and [a.lower() for a in args[1:]] == ["no", "route"]:
            return Order(GM, "operate", (co, NO_ROUTE))
        return super().parse_gm(state, verb, args, text)

    def parse_track(self, state, co, step, args, text) -> Order:
        if len(args) != 2:
            raise OrderSyntaxError("write track COMPANY COST", text)
        cost = parse_count(args[1], text, what="cost")
        why = self.why_not_track(state, co, cost) or (f"{co} lays one tile a turn, before its token (1830)" if step else "")
        if why:
            raise IllegalOrder(why, text)
        return Order(GM, "track", (co, cost))

    def why_not_track(self, state, co, cost) -> str:
        costs = self.data["track_costs"]
        if cost not in costs:
            return (f"a tile costs its terrain: {' or '.join(f'${x}' for x in costs)} (games/stock-round.toml; a tile "
                    "on open ground costs nothing and is not entered)")
        treasury = state["companies"][co]["treasury"]
        if cost > treasury:
            return f"{co} has ${treasury}: track is paid from the treasury alone, never beyond it (1830)"
        return ""

    def why_not_token(self, state, co) -> str:
        c, tokens = state["companies"][co], self.data["tokens"]
        if c["tokens"] >= len(tokens):
            return f"{co} has placed all its {len(tokens)} station tokens beyond its home"
        cost = tokens[c["tokens"]]
        if cost > c["treasury"]:
            return f"{co} has ${c['treasury']}; its next station token costs ${cost}, paid from the treasury alone (1830)"
        return ""

    def do_track(self, state, order) -> None:
        co, cost = order.args
        self.spend(state, co, cost)
        state["step"] = "token"
        emit(state, f"{co} lays track for ${cost}.")

    def do_token(self, state, order) -> None:
        co = order.args[0]
        c = state["companies"][co]
        cost = self.data["tokens"][c["tokens"]]
        self.spend(state, co, cost)
        c["tokens"] += 1
        state["step"] = "run"
        emit(state, f"{co} places a station token for ${cost}.")

    def spend(self, state, co, cost) -> None:
        state["companies"][co]["treasury"] -= cost
        state["bank"] += cost

    def do_operate(self, state, order) -> None:
        co = order.args[0]
        route = order.args[1:] != (NO_ROUTE,)
        if not route:
            emit(state, f"{co} has no route.")
            order = Order(GM, "operate", (co, 0, "withhold"))
        super().do_operate(state, order)
        state.update(step="buy", route=route)

    def gm_orders(self, state) -> list[str]:
        """The entries of the turn's company now, in 1830's order (a step may be skipped)."""
        co, step = state["turn_co"], state["step"]
        if not co:
            return ["done", "end game"]  # no company operates in this round
        orders = []
        if step == "track":
            orders += [f"track {co} {cost}" for cost in self.data["track_costs"] if not self.why_not_track(state, co, cost)]
        if step in ("track", "token") and not self.why_not_token(state, co):
            orders.append(f"token {co}")
        if step != "buy":
            orders += [*self.revenues(co, self.revenue_bound(state, co)), f"operate {co} {NO_ROUTE}"]
        else:
            others = [x for x in self.operating(state) if x != co] if not self.why_no_trades(state) else []
            orders += self.train_orders(state, co, self.on_sale(state), others)
            if not self.why_not_done(state):
                orders.append("done")
        return orders + ["end game"]

    def prompt_words(self, state, player, kinds, legal) -> str:
        co = state.get("turn_co")
        if player != GM or not co or state["emergency"] or state["discard"]:
            return super().prompt_words(state, player, kinds, legal)
        said = {"track": f"track {co} COST", "token": f"token {co} (${self.next_token(state, co)})",
                "operate": f"operate {co} REVENUE pay|withhold (or {NO_ROUTE})",
                "train": f"train {co} TYPE{self.train_form(legal)}", "done": "done", "end": "end game"}
        return f"{co}'s turn: " + ", ".join(said[k] for k in kinds)

    def next_token(self, state, co) -> int:
        tokens = self.data["tokens"]
        return tokens[min(state["companies"][co]["tokens"], len(tokens) - 1)]

    # ---- the director's help: only for a company with a route and no train, in its turn ----
    def director_helps(self, state, c) -> bool:
        """1830: a company with a route and no train must buy one, its director helping
        (base.rb must_buy_train?, MUST_BUY_TRAIN = :route; step/train.rb president_may_contribute?)."""
        return not c["trains"] and state["route"] and c is state["companies"].get(state["turn_co"])

    def helps_trade(self, state, c) -> bool:
        return self.director_helps(state, c) and bool(self.on_sale(state) or self.pool_trains(state))

    def why_not_pay(self, state, buyer, kind, price) -> str:
        """1830: with the director's help another company's train costs at most its face value
        and at most what the treasury and the director's cash hold together; the director sells
        no shares toward it (step/train.rb spend_minmax; emergency_money.rb selling_minimum_shares?:
        shares are sold only while the two together lack the cheapest train, needed_cash)."""
        c = state["companies"][buyer]
        if price < 1 or c["treasury"] >= price or not self.helps_trade(state, c) or price > self.train(kind)["cost"]:
            return super().why_not_pay(state, buyer, kind, price)
        d = c["director"]
        most = c["treasury"] + state["players"][d]["money"]
        if price > most:
            return (f"{buyer} has ${c['treasury']} and its director {d} ${state['players'][d]['money']}: with the director's "
                    f"help it pays another company at most ${most}, what the two hold (1830: no shares are sold "
                    "for another company's train)")
        return ""

    def trade_prices(self, state, buyer, kind) -> list[str]:
        """Also the most a company its director helps may pay (treasury and director together)."""
        c = state["companies"][buyer]
        prices = set(super().trade_prices(state, buyer, kind))
        if self.helps_trade(state, c):
            prices.add(min(self.train(kind)["cost"], c["treasury"] + state["players"][c["director"]]["money"]))
        return sorted(prices)

    def why_not_trade_again(self, state, buyer) -> str:
        """1830 sets no bound but the train limit: a company buys trains only in its own turn,
        in one buy-train step (step/buy_train.rb)."""
        trains, limit = state["companies"][buyer]["trains"], self.train_limit(state)
        if len(trains) >= limit:
            return f"{buyer} owns {len(trains)} trains, the limit is {limit}"
        return ""

    # ---- the Pool's price on the last column -------------------------------------------------
    def right_of(self, r: int, c: int) -> int:
        """One column right; off the last column one row up (the mirror of version 6's left off
        the first column: stock_movement.rb TwoDimensionalMovement#right, up at the right edge),
        on the top row's last space its own price."""
        if c + 1 < len(self.grid[0]):
            return self.grid[r][c + 1]
        return self.grid[max(r - 1, 0)][c]

    # ---- what the reports show, and the check -------------------------------------------------
    def view(self, state, player) -> dict:
        v = super().view(state, player)
        turn = state.get("turn_co", "")
        v["turn_company"], v["step"] = turn, state.get("step", "")
        v["still_to_operate"] = self.still_to_operate(state) if turn else []
        for c in v["companies"]:
            c["tokens"] = state["companies"][c["name"]].get("tokens", 0)
        return v

    def check_1830(self, state) -> None:
        super().check_1830(state)
        turn, step = state.get("turn_co"), state.get("step")
        if turn not in ("", *self.companies) or step not in ("", *STEPS) or bool(turn) != bool(step):
            fail("state.turn_co and state.step must name a company and its step, or neither")
        if turn and state["phase"] != "over" and (state["phase"] != "operating" or not self.operates(state, turn)):
            fail(f"state.turn_co: {turn} does not operate now")
        if type(state.get("route", False)) is not bool:
            fail("state.route must be true or false")
        for co, c in state["companies"].items():
            if not 0 <= c.get("tokens", 0) <= len(self.data["tokens"]):
                fail(f"state.companies.{co}.tokens must be from 0 to {len(self.data['tokens'])}")
            if type(c.get("arrived", 0)) is not int or c.get("arrived", 0) < 0:  # (the operating order's tie-break)
                fail(f"state.companies.{co}.arrived must be a move number")
