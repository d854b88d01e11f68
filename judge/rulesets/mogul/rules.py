"""Mogul, the card game (rules/mogul-card-game.txt, RULINGS.md §1): a "no thanks" auction.

Each round a share card is revealed, premiums are paid for shares of its company, and the
players auction it: `bid` puts a chip in the pot, `pass` steps out and takes the pot. The
winner chooses `take` (the card) or `sell N` (shares of the card's border colour); the last
player to step out (second) does the other. The crash card ends the game at once.

The registered class combines the rules (here) with the standing-order vocabulary
(standing.py), the sensible bot (bot.py) and the check of a hand-edited state (check.py).
"""
from __future__ import annotations

from collections import Counter

from judge.engine.errors import IllegalOrder, NotYourTurn, OrderSyntaxError, UsageError
from judge.engine.orders import Order, parse_count, words
from judge.engine.ruleset import GM, PILE, WHOLE, Information, Option, Ruleset, emit, ranked, register
from judge.engine.seats import clockwise, next_clockwise
from judge.rulesets.mogul.bot import Bot
from judge.rulesets.mogul.cards import CRASH, border, company, shares_of
from judge.rulesets.mogul.check import Check
from judge.rulesets.mogul.standing import Standing

__all__ = ["CRASH", "Mogul", "border", "company", "shares_of"]


@register
class Mogul(Standing, Bot, Check, Ruleset):
    name = "mogul"
    title = "Mogul, the card game"
    version = 1
    min_players, max_players = 3, 6
    options = (
        Option("fast_start", False, "5 players only: each player is also dealt one share from the shuffled pile"),
        Option("chip_credit", False, "once per auction, in their turn, a player may turn 2 points into 2 chips while the bank has them (order: credit)"),
    )
    max_moves = 2500
    verbs = ("bid", "pass", "take", "sell", "credit")
    setup_example = 'start_player = "carol"\n'
    prompt_phrases = {"bid": r"\bbid\b", "pass": r"\bpass\b", "credit": r"\bcredit\b", "take": r"\btake\b",
                      "sell": r"\bsell\b"}
    # others' chips, the pile's order; a card turns a round; every order public
    information = Information(secret=True, reveals=(PILE,), orders=dict.fromkeys(verbs, WHOLE))
    score_parts = ("track", "chip_points")
    record_keys = ("players",)  # (each player's score: the site's chart)
    bot_standing_exact, bot_exchanges_a_round = True, 1.5
    auction_verbs = ("bid", "pass", "credit")
    arity = {"sell": (1, "write sell N or sell all")}  # verb -> (words after it, usage); others take none
    setup_keys = ("start_player", "start_cards", "fast_start_cards", "deck")
    setup_words = {"start_player": "the start player", "seats": "the seating", "start_cards": "the start cards",
                   "fast_start_cards": "the fast start's cards", "deck": "the pile"}
    payout = "Premiums"  # what the payment for shares of the revealed company is called
    credit_chips = 2  # chips a credit gives and points it costs
    credit_each_auction = True  # credit may be taken again in every auction (else once per game)
    credit_text = "{player} turns {k} points into {k} chips."

    # ---- components ---------------------------------------------------------------------
    def all_cards(self) -> list[str]:
        cards = [f"{bg}/{bd}" for bg, borders in self.data["deck"].items() for bd, n in borders.items() for _ in range(n)]
        return cards + [CRASH]

    def colours(self) -> list[str]:
        return list(self.data["colours"])

    def check_players(self, players, options) -> None:
        super().check_players(players, options)
        if options.get("fast_start") and len(players) != 5:
            raise UsageError("fast_start is played with 5 players (rulebook: 'With five players')")

    # ---- setup --------------------------------------------------------------------------
    def setup(self, state, options, rng, setup) -> None:
        seats = state["seats"]
        unknown = set(setup) - set(self.setup_keys)
        if unknown:
            raise UsageError(f"setup: unknown keys {', '.join(sorted(unknown))} (known: {', '.join(self.setup_keys)})")
        start = setup.get("start_player")
        if start is None:
            start = rng.choice(seats)
        elif start not in seats:
            raise UsageError(f"setup: start_player '{start}' is not a player")
        hands = self.deal_start_cards(seats, rng, setup, start)
        pile = self.remaining(hands)
        if "fast_start_cards" in setup and not options.get("fast_start"):
            raise UsageError("setup: fast_start_cards given but the fast_start option is off")
        if "deck" in setup:
            pile = self.fixed_deck(setup["deck"], pile)
            if options.get("fast_start"):
                self.deal_fast_start(hands, pile, setup, seats)
        else:
            pile.remove(CRASH)
            rng.shuffle(pile)
            if options.get("fast_start"):
                self.deal_fast_start(hands, pile, setup, seats)
            self.insert_crash(pile, rng)
        state.update(
            round=0, phase="auction", start=start, revealed="", deck=pile, box=[],
            pot=0, bank=self.data["chips"] - self.data["chips_each"] * len(seats),
            players={p: self.new_player(hands[p]) for p in seats},
            auction={"in": [], "out": [], "turn": ""}, winner="", second="",
        )
        emit(state, f"{start} is the start player.")
        self.start_round(state)

    def new_player(self, cards: list[str]) -> dict:
        return {"chips": self.data["chips_each"], "score": 0, "shares": cards, "credit": False}

    def deal_start_cards(self, seats, rng, setup, start) -> dict:
        pool = list(self.data["start"]["cards"])
        fixed = setup.get("start_cards", {})
        if not isinstance(fixed, dict):
            raise UsageError("setup: start_cards is a table of player = card")
        hands = {}
        for p, card in fixed.items():
            if p not in seats:
                raise UsageError(f"setup: start_cards names '{p}', who is not a player")
            if card not in pool:
                raise UsageError(f"setup: '{card}' is not one of the start cards left ({', '.join(sorted(set(pool)))})")
            pool.remove(card)
            hands[p] = [card]
        rng.shuffle(pool)
        for p in seats:
            if p not in hands:
                hands[p] = [pool.pop()]
        return hands

    def remaining(self, hands) -> list[str]:
        left = Counter(self.all_cards())
        for cards in hands.values():
            left.subtract(cards)
        return sorted(left.elements())

    def fixed_deck(self, deck, pile) -> list[str]:
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise UsageError("setup: deck is a list of cards, top card first")
        deck = [c.strip().lower() for c in deck]
        if Counter(deck) != Counter(pile):
            missing = Counter(pile) - Counter(deck)
            extra = Counter(deck) - Counter(pile)
            parts = []
            if missing:
                parts.append("missing " + ", ".join(sorted(missing.elements())))
            if extra:
                parts.append("not available " + ", ".join(sorted(extra.elements())))
            raise UsageError(f"setup: the deck must hold exactly the cards not dealt ({'; '.join(parts)})")
        return deck

    def deal_fast_start(self, hands, pile, setup, seats) -> None:
        fixed = setup.get("fast_start_cards", {})
        if not isinstance(fixed, dict):
            raise UsageError("setup: fast_start_cards is a table of player = card")
        for p, card in fixed.items():
            if p not in seats:
                raise UsageError(f"setup: fast_start_cards names '{p}', who is not a player")
            if card not in pile or card == CRASH:
                raise UsageError(f"setup: fast start card '{card}' is not in the pile")
            pile.remove(card)
            hands[p].append(card)
        for p in seats:
            if p not in fixed:
                if pile[0] == CRASH:
                    raise UsageError("setup: the crash card cannot be dealt")
                hands[p].append(pile.pop(0))

    def insert_crash(self, pile, rng) -> None:
        k = self.data["crash_among_last"]
        tail = pile[len(pile) - k:] + [CRASH]
        rng.shuffle(tail)
        pile[len(pile) - k:] = tail

    # ---- rounds -------------------------------------------------------------------------
    def start_round(self, state) -> None:
        state["round"] += 1
        card = state["deck"].pop(0)
        state["revealed"] = card
        if card == CRASH:
            emit(state, f"Round {state['round']}: the crash card is revealed. The game ends.")
            self.finish(state)
            return
        emit(state, f"Round {state['round']}: {self.describe(card)} is revealed.")
        self.pay_premiums(state, card)
        state["auction"] = {"in": clockwise(state["seats"], state["start"]), "out": [], "turn": state["start"]}
        state["winner"] = state["second"] = ""
        state["phase"] = "auction"
        if self.credit_each_auction:
            for pl in state["players"].values():
                pl["credit"] = False

    def describe(self, card: str) -> str:
        return f"a {company(card)} share with a {border(card)} border ({card})"

    def pay_premiums(self, state, card) -> None:
        colour = company(card)
        paid = []
        for p in state["seats"]:
            n = self.count(state["players"][p], colour)
            if n:
                state["players"][p]["score"] += n
                paid.append(f"{p} +{n}")
        if paid:
            emit(state, f"{self.payout} for {colour} shares: {', '.join(paid)}.")

    def count(self, pl: dict, colour: str) -> int:
        return sum(1 for c in pl["shares"] if company(c) == colour)

    def holdings(self, pl: dict) -> dict[str, int]:
        """Shares held of each colour held, in the colours' order (one pass over the cards)."""
        held = {}
        for card in pl["shares"]:
            c = company(card)
            held[c] = held.get(c, 0) + 1
        return {c: held[c] for c in self.colours() if c in held}

    def held_by_all(self, state, colour) -> int:
        return sum(self.count(pl, colour) for pl in state["players"].values())

    def finish(self, state) -> None:
        state["phase"] = "over"
        state["auction"] = {"in": [], "out": [], "turn": ""}
        for s in self.standings(state):
            if s["rank"] == 1:
                emit(state, f"{s['player']} wins with {s['score']} points.")

    # ---- turn ---------------------------------------------------------------------------
    def awaiting(self, state) -> list[str]:
        phase = state["phase"]
        if phase == "auction":
            return [state["auction"]["turn"]]
        if phase == "winner":
            return [state["winner"]]
        if phase == "second":
            return [state["second"]]
        return []

    def is_over(self, state) -> bool:
        return state["phase"] == "over"

    def sell_colour(self, state) -> str:
        return border(state["revealed"])

    def can_credit(self, state, player) -> str:
        """Why `player` may not take credit now, or '' if they may."""
        pl = state["players"][player]
        if not self.credit_option(state):
            return "credit needs the chip_credit option"
        if pl["credit"]:
            return "you have taken credit in this auction already"
        if state["bank"] < 2:
            return "the bank has fewer than 2 chips"
        if pl["score"] < 2:
            return "you have fewer than 2 points to turn into chips"
        return ""

    def credit_option(self, state) -> bool:
        return state["options"]["chip_credit"]

    def legal_orders(self, state, player) -> list[str]:
        if player not in self.awaiting(state):
            return []
        if state["phase"] == "auction":
            orders = (["bid"] if state["players"][player]["chips"] else []) + ["pass"]
            return orders + (["credit"] if not self.can_credit(state, player) else [])
        return self.action_orders(state, player)

    def action_orders(self, state, player) -> list[str]:
        """The orders of the auction's winner or second (phase winner or second)."""
        held = self.count(state["players"][player], self.sell_colour(state))
        sells = [f"sell {n}" for n in range(held + 1)]
        return (["take"] if state["phase"] == "winner" else []) + sells

    def secret_kinds(self, state, player) -> tuple[str, ...]:
        return ("bid",) if state["phase"] == "auction" else ()  # (whether they have chips left is secret)

    def prompt_words(self, state, player, kinds, legal) -> str:
        """Public (everyone reads it), so in the third person."""
        if state["phase"] == "auction":
            return self.auction_words(kinds)
        colour = self.sell_colour(state)
        held = self.count(state["players"][player], colour)
        if not held:
            sell = f"sell nothing, as {player} holds no {colour} shares"
        else:
            sell = f"sell {'' if held == 1 else 'some or all of '}{player}'s {shares_of(held, colour)}"
        return f"take, or {sell}" if "take" in kinds else f"the winner took the card: {sell}"

    credit_words = ", or credit"

    def auction_words(self, kinds) -> str:
        return " or ".join(k for k in ("bid", "pass") if k in kinds) + (self.credit_words if "credit" in kinds else "")

    def parse(self, state, player, text) -> Order:
        if player == GM:
            raise NotYourTurn(f"the game master gives no orders in {self.name}; use --as PLAYER", text)
        w = words(text)
        verb = w[0]
        if verb not in self.verbs:
            raise OrderSyntaxError(f"unknown order '{w[0]}' (orders: {', '.join(self.verbs)})", text)
        args = w[1:]
        if verb in self.arity:
            counts = self.arity[verb][0]
            if len(args) not in (counts if isinstance(counts, tuple) else (counts,)):
                raise OrderSyntaxError(self.arity[verb][1], text)
        elif args:
            raise OrderSyntaxError(f"'{verb}' takes nothing after it", text)
        if state["phase"] == "auction":
            return self.parse_auction(state, player, verb, text)
        if verb in self.auction_verbs:
            raise IllegalOrder(f"the auction is over: {self.prompt(state, player)}", text)
        return self.parse_action(state, player, verb, args, text)

    def parse_auction(self, state, player, verb, text) -> Order:
        pl = state["players"][player]
        if verb == "bid":
            if pl["chips"] < 1:
                credit = "" if self.can_credit(state, player) else f", or take credit first ({self.credit_chips} chips)"
                raise IllegalOrder(f"you have no chips: step out with pass{credit}", text)
            return Order(player, "bid")
        if verb == "pass":
            return Order(player, "pass")
        if verb == "credit":
            why = self.can_credit(state, player)
            if why:
                raise IllegalOrder(why, text)
            return Order(player, "credit")
        raise IllegalOrder(f"the auction is on: {self.prompt(state, player)}", text)

    def parse_action(self, state, player, verb, args, text) -> Order:
        """An order of the auction's winner or second (phase winner or second)."""
        pl = state["players"][player]
        if verb == "take":
            if state["phase"] != "winner":
                raise IllegalOrder("the winner took the card: you must sell (sell 0 sells nothing)", text)
            return Order(player, "take")
        colour = self.sell_colour(state)
        held = self.count(pl, colour)
        n = held if args[0] == "all" else parse_count(args[0], text)
        if n > held:
            have = f"only {held}" if held else "no"
            raise IllegalOrder(f"you hold {have} {colour} share{'s' if held != 1 else ''}", text)
        return Order(player, "sell", (n,))

    def apply(self, state, order, rng) -> None:
        getattr(self, f"do_{order.verb}")(state, order)

    def revealed(self, before, after) -> str:
        return "revealed the next card" if after["round"] != before["round"] else ""

    def do_bid(self, state, order) -> None:
        p = order.player
        state["players"][p]["chips"] -= 1
        state["pot"] += 1
        emit(state, f"{p} bids (pot {state['pot']}).")
        state["auction"]["turn"] = self.next_in(state, p)

    def do_pass(self, state, order) -> None:
        p, auction = order.player, state["auction"]
        pot = state["pot"]
        state["players"][p]["chips"] += pot
        state["pot"] = 0
        emit(state, f"{p} steps out and takes the pot of {pot} chip{'s' if pot != 1 else ''}.")
        nxt = self.next_in(state, p)
        auction["in"].remove(p)
        auction["out"].append(p)
        if len(auction["in"]) > 1:
            auction["turn"] = nxt
            return
        state["winner"], state["second"] = auction["in"][0], p
        auction["turn"] = ""
        state["phase"] = "winner"
        emit(state, f"{state['winner']} wins the auction; {p} is second.")

    def do_credit(self, state, order) -> None:
        pl, k = state["players"][order.player], self.credit_chips
        pl["score"] -= k
        pl["chips"] += k
        pl["credit"] = True
        state["bank"] -= k
        emit(state, self.credit_text.format(player=order.player, k=k))

    def do_take(self, state, order) -> None:
        self.take(state, order.player)
        idle = self.second_idle(state)
        if idle:
            emit(state, idle)
            self.end_round(state, order.player)
        else:
            state["phase"] = "second"

    def second_idle(self, state) -> str:
        """Why the second has nothing to choose after the winner took the card, or ''."""
        second, colour = state["second"], self.sell_colour(state)
        if self.count(state["players"][second], colour) == 0:
            return f"{second} has no {colour} shares to sell."
        return ""

    def do_sell(self, state, order) -> None:
        self.sell(state, order.player, order.args[0])
        self.after_sell_option(state)

    def after_sell_option(self, state) -> None:
        """The sell option is done: the other one takes the card if the winner sold; next round."""
        if state["phase"] == "winner":
            taker = state["second"]
            self.take(state, taker)
        else:
            taker = state["winner"]
        self.end_round(state, taker)

    def take(self, state, player) -> None:
        card = state["revealed"]
        state["players"][player]["shares"].append(card)
        emit(state, f"{player} takes {card}.")

    def sell(self, state, player, n) -> None:
        colour = self.sell_colour(state)
        if n == 0:
            emit(state, f"{player} sells nothing.")
            return
        price = self.held_by_all(state, colour)
        pl = state["players"][player]
        sold = [c for c in pl["shares"] if company(c) == colour][:n]
        for c in sold:
            pl["shares"].remove(c)
        state["box"].extend(sold)
        pl["score"] += n * price
        emit(state, f"{player} sells {shares_of(n, colour)} at {price} each: +{n * price}.")

    def end_round(self, state, taker) -> None:
        state["start"] = taker
        self.start_round(state)

    def next_in(self, state, player) -> str:
        """The next player clockwise from `player` who is still in the auction."""
        return next_clockwise(state["seats"], player, among=state["auction"]["in"])

    def resample_hidden(self, state, player, rng) -> dict:
        """Redraw the pile (the crash stays among the last cards) and the other players' chips."""
        import copy

        s = copy.deepcopy(state)
        deck = s["deck"]
        if CRASH in deck:
            k = min(len(deck), self.data["crash_among_last"] + 1)
            head, tail = deck[: len(deck) - k], deck[len(deck) - k:]
            rng.shuffle(head)
            rng.shuffle(tail)
            deck[:] = head + tail
        if not self.is_over(s):
            others = [q for q in s["seats"] if q != player]
            total = sum(s["players"][q]["chips"] for q in others)
            for q in others:
                s["players"][q]["chips"] = 0
            for _ in range(total):
                s["players"][rng.choice(others)]["chips"] += 1
        return s

    def default_order(self, state, player):
        return {"auction": "pass", "winner": "take", "second": "sell 0"}.get(state["phase"])
    # ---- scores -------------------------------------------------------------------------
    def final_points(self, state, player) -> dict:
        pl = state["players"][player]
        return {"chip_points": pl["chips"] // 5}

    def standings(self, state) -> list[dict]:
        over = self.is_over(state)
        rows = []
        for p in state["seats"]:
            pl = state["players"][p]
            row = {"player": p, "score": pl["score"], "shares": len(pl["shares"])}
            if over:
                extra = self.final_points(state, p)
                row.update(track=pl["score"], chips=pl["chips"], **extra)
                row["score"] = pl["score"] + sum(v for k, v in extra.items() if k.endswith("_points"))
            rows.append(row)
        return ranked(rows, (lambda r: (-r["score"], -r["shares"])) if over else (lambda r: -r["score"]))

    def summary(self, state) -> dict:
        return {"round": state["round"], "phase": state["phase"]}

    # ---- views --------------------------------------------------------------------------
    def view(self, state, player) -> dict:
        over = self.is_over(state)
        card = state["revealed"]
        players = []
        for p in state["seats"]:
            pl = state["players"][p]
            row = {
                "name": p,
                "score": pl["score"],
                "shares": self.holdings(pl),
                "cards": sorted(pl["shares"]),
                "in_auction": p in state["auction"]["in"],
                "credit": pl["credit"],
            }
            if over or player in (p, GM):
                row["chips"] = pl["chips"]
            players.append(row)
        v = {
            "title": self.title,
            "round": state["round"],
            "phase": state["phase"],
            "revealed": {"card": card, "company": "" if card == CRASH else company(card),
                         "border": "" if card == CRASH else border(card)},
            "pot": state["pot"],
            "bank": state["bank"],
            "deck_left": len(state["deck"]),
            "start": state["start"],
            "auction": {"in": state["auction"]["in"], "out": state["auction"]["out"], "turn": state["auction"]["turn"]},
            "winner": state["winner"],
            "second": state["second"],
            "players": players,
            "standings": self.standings(state) if over else [],
        }
        if player in state["players"]:
            v["you"] = {"name": player, "chips": state["players"][player]["chips"]}
        if player == GM:
            v["deck"] = list(state["deck"])
        return v

    # ---- the orders as a grammar (reports) --------------------------------------------------
    def order_forms(self, state, player) -> list:
        from judge.engine.grammar import Form

        orders = self.legal_orders(state, player)
        if state["phase"] == "auction" or not orders:
            return [Form(o) for o in orders]
        colour = self.sell_colour(state)
        return self.action_forms(state, player, orders, colour, self.count(state["players"][player], colour))

    def action_forms(self, state, player, orders, colour, held) -> list:
        """The grammar of the winner's or the second's orders (`held`: their `colour` shares)."""
        from judge.engine.grammar import Form, Numbers, form

        if not held:  # (an example of an order that does something: `take`)
            return [Form("take")] * ("take" in orders) + [Form("sell 0", note=f"nothing: you hold no {colour} shares")]
        price = self.held_by_all(state, colour)
        sell = form("sell N", [(Numbers(tuple(range(held + 1))),)],
                    f"N of your {shares_of(held, colour)} at {price} point{'s' if price != 1 else ''} each")
        return [Form("take")] * ("take" in orders) + sell
