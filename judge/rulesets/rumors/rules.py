"""Rumors, the dice and short-selling stock game (rules/rumors-stock-game.txt, RULINGS.md §3):
the rules (setup, orders, carrying them out, resolution, scores and views). The registered
ruleset (ruleset.py) adds its standing orders (standing.py), its bot (bot.py) and the check of
a hand-edited state (check.py); older versions are subclasses (versions.py).

Each round: an action phase in snake order (buy, short, take a company's dice, put dice on
the Rumors card, or pass), a simultaneous secret roll phase (every player puts dice from
behind their screen into the bag), then the judge fills and rolls the Rumors card and each
company's price moves by its pip sum on its active event card. Money, holdings, screens
and roll-phase orders are secret; the company boards and event cards are public.

Stock tokens: a holding of n shares (owned > 0, shorted < 0) lies on the binary multiplier
board as popcount(n) tokens; tokens leaving a multiplier board go to the player's secret
discards; every company's 30 tokens are on its board, in its supply, on multiplier boards
or in discards. From version 2 the tokens move as the rulebook says, so that the public
supply never depends on a secret holding: the four tokens drawn at setup stay behind the
screen, a buy of k returns k - popcount(k) board tokens to the supply and a short of k takes
k + popcount(k) from it, whoever gives them; combining and cancelling happen behind the
screen with the player's own tokens (see `screen_tokens`, `hold`). Version 1 (game files
written before) kept only the tokens a holding needed and settled the rest with the supply.
"""
from __future__ import annotations

import copy
from collections import Counter
from functools import cached_property, lru_cache
from itertools import accumulate

from judge.engine.errors import IllegalOrder, NotYourTurn, OrderSyntaxError, UsageError
from judge.engine.orders import Order, parse_count, pick, words
from judge.engine.ruleset import GENERATOR, GM, PILE, SIMULTANEOUS, WHOLE, Information, Option, Ruleset, emit, ranked
from judge.engine.seats import clockwise, next_clockwise
from judge.rulesets.rumors.helpers import contains, dollars, joined, marker, plural, remove_all, signed, sub_multisets
from judge.rulesets.rumors.tokens import board_tokens, columns_of, fewest_uncancelled, tokens, uncancelled

ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth", 9: "ninth",
            10: "tenth"}

PHASES = ("action", "roll", "gm-roll", "over")
MARKER_COLUMNS = ("Bull 3-5", "Bull 0-2", "Bear 1-2", "Bear 3-5")


class Rules(Ruleset):
    """The rules of rumors as a new game plays them (ruleset.py registers them with their
    standing orders, bot and check; versions.py keeps the older versions)."""

    name = "rumors"
    title = "Rumors, the dice and short-selling stock game"
    version = 4
    old_versions = (1, 2, 3)
    # What each version changed, for `judge upgrade` (a game moved from version v is told changes[v + 1:])
    changes = {
        2: ("stock tokens as the rulebook says: the public supplies never depend on the holdings",),
        3: ("a short is legal on public facts: the discards return to the supply first",
            "bag none and bag extra are roll-phase orders; a second bag order is refused",
            "an end the players agree on cashes out the holdings"),
        4: ("a refusal of dice names the die that is missing (\"no second 6\"), in a standing order's note too",),
    }
    min_players, max_players = 3, 6
    options = (
        Option("dice", "auto", "auto: the judge rolls; manual: the game master enters every roll (judge order GAME --gm 'roll Edison 3 5 6')", ("auto", "manual")),
    )
    # rounds * (2 action turns + 1 roll order + 6 one-die gm rolls per player) + setup: 342 for
    # 6 players, and a short not made (at most one an action turn): 72 more
    max_moves = 430
    verbs = ("buy", "short", "dice", "rumor", "bag", "pass", "roll")
    setup_example = 'first_player = "dave"\ncompanies = ["Nile", "Banana", "Edison", "Gazillioon"]\n'
    prompt_phrases = {"buy": r"\bbuy\b", "short": r"\bshort\b", "dice": r"\bdice\b(?! may stay)",
                      "rumor": r"\brumor\b", "pass": r"\bpass\b", "bag": r"\bbag\b", "roll": r"\broll COMPANY\b"}
    # secret money, holdings and screens; the dice, the event cards shuffled at setup, the roll phase's orders
    # (the roll phase's orders are secret: the public sees only that they were given)
    information = Information(secret=True, reveals=(GENERATOR, PILE, SIMULTANEOUS),
                              orders={**dict.fromkeys(verbs, WHOLE), "bag": 0})
    score_parts = ("cash", "cashout")
    record_keys = ("companies",)  # (the players' holdings are secret: no chart while it runs)
    bot_exchanges_a_round = 2.0  # (its bots plan their round at its start: README "exchanges by mail")

    # ---- components ---------------------------------------------------------------------
    @cached_property
    def cards(self) -> dict[int, dict]:
        return {c["id"]: c for c in self.data["card"]}

    def card_change(self, card_id: int, pips: int, filled: int) -> int:
        card = self.cards[card_id]
        row = next(r for r in card["rows"] if r[0] <= pips <= r[1])
        if card["columns"] == "plain":
            return row[2]
        if card["columns"] == "bull-bear":
            return row[2] if filled <= 5 else row[3]
        m = 5 - filled  # Bull m for m >= 0, Bear -m
        return row[2 + (0 if m >= 3 else 1 if m >= 0 else 2 if m >= -2 else 3)]

    def modifier(self, space: int) -> int:
        return self.data["modifiers"][space - 1]

    def buy_costs(self, price: int, filled: int, n: int) -> list[int]:
        """What each of n shares costs, lowest filled space first."""
        return [max(0, price + self.modifier(s)) for s in range(filled, filled - n, -1)]

    def short_gains(self, price: int, filled: int, n: int) -> list[int]:
        """What each of n shorted shares brings, highest empty space first."""
        return [max(0, price + self.modifier(s)) for s in range(filled + 1, filled + n + 1)]

    def buy_totals(self, company: dict, n: int) -> list[int]:
        """What a buy of 1, 2, ..., n shares of `company` costs in all now: the one price of a
        buy, for carrying it out, refusing it, a standing order's `cost` and the report
        (`company`: a state's or a view's, its `price` and `filled` spaces)."""
        return list(accumulate(self.buy_costs(company["price"], company["filled"], n)))

    def short_totals(self, company: dict, n: int) -> list[int]:
        """What a short of 1, 2, ..., n shares of `company` brings in all now (as `buy_totals`)."""
        return list(accumulate(self.short_gains(company["price"], company["filled"], n)))

    def buy_cost(self, company: dict, n: int) -> int:
        return self.buy_totals(company, n)[-1] if n > 0 else 0

    def short_gain(self, company: dict, n: int) -> int:
        return self.short_totals(company, n)[-1] if n > 0 else 0

    # ---- setup --------------------------------------------------------------------------
    setup_words = {"first_player": "the first player", "companies": "the companies in play"}

    def setup(self, state, options, rng, setup) -> None:
        d, seats = self.data, state["seats"]
        unknown = set(setup) - {"first_player", "companies"}
        if unknown:
            raise UsageError(f"setup: unknown keys {', '.join(sorted(unknown))} (known: first_player, companies)")
        names = self.setup_companies(setup, len(seats), rng)
        first = setup.get("first_player")
        if first is None:
            first = rng.choice(seats)
        elif first not in seats:
            raise UsageError(f"setup: first_player '{first}' is not a player")
        rounds = d["rounds"][str(len(seats))]
        deck = sorted(self.cards)
        rng.shuffle(deck)
        companies = {}
        for c in names:
            dealt, deck = deck[:rounds], deck[rounds:]
            companies[c] = {"price": d["start_price"], "filled": d["filled_after_reset"],
                            "supply": d["tokens"] - d["filled_after_reset"], "dice": [],
                            "active": dealt[0], "deck": dealt[1:], "played": []}
        players = {p: self.new_player(names) for p in seats}
        for co in companies.values():
            co["supply"] -= self.bag_tokens_kept()
        state.update(round=1, rounds=rounds, phase="action", first=first, turns=[],
                     companies=companies, undealt=deck, players=players,
                     bag=[c for c in names for _ in range(d["dice"])], rumors=[],
                     bag_orders={}, after_roll="")
        emit(state, f"Companies in play: {', '.join(names)}. {first} is the first player.")
        bag = [c for c in names for _ in range(d["tokens_in_bag"])]
        rng.shuffle(bag)
        for p in seats:
            drawn, bag = bag[:d["tokens_drawn"]], bag[d["tokens_drawn"]:]
            for c, n in Counter(drawn).items():
                self.take_drawn(state, p, c, n)
            emit(state, f"{p} draws the stock tokens {', '.join(sorted(drawn))} (secret).", to=[p])
        for p in seats:
            dice = self.draw_dice(state, rng, d["dice_drawn"])
            players[p]["screen"] = sorted(dice)
            emit(state, f"{p} draws the dice {', '.join(sorted(dice))} behind the screen (secret).", to=[p])
        state["rumors"] = self.draw_dice(state, rng, d["dice_rolled"] * len(seats))
        emit(state, f"Dice drawn for the company boards: {', '.join(sorted(state['rumors']))}.")
        self.roll_rumors(state, rng, then="action")

    def new_player(self, names) -> dict:
        return {"money": self.data["start_money"], "holdings": {c: 0 for c in names},
                "discards": {c: 0 for c in names}, "screen": [], "uncancelled": {c: 0 for c in names}}

    def bag_tokens_kept(self) -> int:
        """Tokens of each company that leave the supply for the bag at setup and stay behind
        the screens (all of them: the public supply never depends on who drew what)."""
        return self.data["tokens_in_bag"]

    def take_drawn(self, state, player, company, n) -> None:
        """`player` drew `n` tokens of `company` from the bag at setup: a holding of n."""
        self.hold(state, player, company, n, n)

    def setup_companies(self, setup, n, rng) -> list[str]:
        all_names = self.data["companies"]
        if "companies" not in setup:
            chosen = list(all_names)
            rng.shuffle(chosen)
            return [c for c in all_names if c in chosen[:n]]
        chosen = setup["companies"]
        if not isinstance(chosen, list) or len(chosen) != n or len(set(chosen)) != n or not set(chosen) <= set(all_names):
            raise UsageError(f"setup: companies is a list of {n} different companies from {', '.join(all_names)}")
        return [c for c in all_names if c in chosen]

    def draw_dice(self, state, rng, n) -> list[str]:
        bag = state["bag"]
        return [bag.pop(rng.below(len(bag))) for _ in range(min(n, len(bag)))]

    # ---- stock tokens -------------------------------------------------------------------
    def screen_tokens(self, state, player, company) -> int:
        """The tokens of `company` behind `player`'s screen: multiplier board and discards."""
        pl = state["players"][player]
        return board_tokens(pl["holdings"][company], uncancelled(pl, company)) + pl["discards"][company]

    def hold(self, state, player, company, holding, have) -> None:
        """`player` holds `holding` with `have` tokens behind the screen. The
        multiplier board shows it cancelled (one side only) when the tokens allow; otherwise
        (own 8, short 1: 7 needs 4x, 2x and 1x) the fewest shares stay uncancelled, rather
        than take change from the public supply. The other tokens lie in the discards."""
        pl = state["players"][player]
        u = fewest_uncancelled(holding, have)
        pl["holdings"][company], pl["uncancelled"][company] = holding, u
        pl["discards"][company] = have - board_tokens(holding, u)

    def tokens_available(self, state, company) -> int:
        """Tokens the supply can give, counting the discards it may recall."""
        return state["companies"][company]["supply"] + sum(pl["discards"][company] for pl in state["players"].values())

    def tokens_needed(self, state, player, company, delta) -> int:
        """Tokens taken from the supply by a buy (delta > 0) or short (delta < 0) of |delta|.
        It depends on the order only: a short of k takes k for the board and popcount(k) for
        the multiplier board; a buy takes none."""
        return 0 if delta > 0 else -delta + tokens(delta)

    def recall_discards(self, state, always: bool = False) -> None:
        """Every player returns every discarded token to the supplies (the rulebook's "Stock
        Tokens"); a public event, even with nothing discarded when `always`. Everyone knows
        then that no discard is left (`recalled`), until the next buy or short."""
        self.mark_recalled(state)
        if not always and not any(n for pl in state["players"].values() for n in pl["discards"].values()):
            return
        for p, pl in state["players"].items():
            for c, n in pl["discards"].items():
                state["companies"][c]["supply"] += n
                pl["discards"][c] = 0
        emit(state, "The supply ran short: every player returns their discarded stock tokens to the supplies.")

    def mark_recalled(self, state) -> None:
        state["recalled"] = True  # public: every discard is back in the supplies

    def short_covered(self, state, player, company, n) -> bool:
        """Whether a short of n may be ordered as far as the tokens go: always, unless everyone
        knows the discards are back in the supplies already and the supply cannot cover it
        (public facts only: the supply, and whether the discards have just returned)."""
        return not state.get("recalled") or n + tokens(n) <= state["companies"][company]["supply"]

    def short_refusal(self, state, company, n) -> str:
        supply = state["companies"][company]["supply"]
        return (f"the {company} supply holds {plural(supply, 'stock token')} and every discard is back in the "
                f"supplies: a short of {n} needs {n + tokens(n)}")

    def reset_board(self, state, company) -> None:
        co, want = state["companies"][company], self.data["filled_after_reset"]
        if want - co["filled"] > co["supply"]:
            self.recall_discards(state)
        target = min(want, co["filled"] + co["supply"])
        co["supply"] -= target - co["filled"]
        co["filled"] = target

    # ---- turn ---------------------------------------------------------------------------
    def awaiting(self, state) -> list[str]:
        phase = state["phase"]
        if phase == "action":
            return state["turns"][:1]
        if phase == "roll":
            return [p for p in self.clockwise(state) if p not in state["bag_orders"]]
        if phase == "gm-roll":
            return [GM]
        return []

    def clockwise(self, state) -> list[str]:
        return clockwise(state["seats"], state["first"])

    def start_action(self, state) -> None:
        order = self.clockwise(state)
        state["phase"] = "action"
        state["turns"] = order + order[::-1]
        emit(state, f"Round {state['round']} of {state['rounds']}: action phase, {state['first']} first "
                    f"(order {', '.join(order)}, then back).")

    def is_over(self, state) -> bool:
        return state["phase"] == "over"

    def secret_kinds(self, state, player) -> tuple[str, ...]:
        # whether a player has the money to buy, or dice behind the screen for a rumor, is secret
        return ("buy", "rumor") if state["phase"] == "action" else ()

    def prompt_words(self, state, player, kinds, legal) -> str:
        phase = state["phase"]
        if phase == "action":
            named = [k for k in ("buy", "short", "dice", "rumor", "pass") if k in kinds]
            return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
        if phase == "roll":  # the same words for everyone: the size of a screen is secret
            return f"secret roll-phase order: bag [COMPANY ...], at most {self.data['screen_limit']} dice may stay"
        if phase == "gm-roll":
            where = "the company boards (setup)" if state["after_roll"] == "action" else "the Rumors card"
            return f"roll COMPANY FACES for {where}: " + self.to_roll(state)
        return ""

    def to_roll(self, state) -> str:
        return ", ".join(f"{c} {n}" for c, n in sorted(Counter(state["rumors"]).items()))

    def names(self, state) -> list[str]:
        return list(state["companies"])

    # ---- orders -------------------------------------------------------------------------
    def parse(self, state, player, text) -> Order:
        w = words(self.joined_names(state, text))
        verb = "rumor" if w[0] == "rumour" else w[0]
        if verb not in self.verbs:
            raise OrderSyntaxError(f"unknown order '{w[0]}' (orders: {', '.join(self.verbs)})", text)
        args = w[1:]
        phase = state["phase"]
        if player == GM:
            if verb != "roll":
                raise NotYourTurn("the game master only enters rolls (roll COMPANY FACES)", text)
            if phase != "gm-roll":
                raise NotYourTurn("no roll is awaited from the game master now", text)
            return self.parse_roll(state, args, text)
        if verb == "roll":
            raise IllegalOrder("only the game master enters rolls", text)
        if phase == "roll" and verb != "bag":
            raise IllegalOrder("it is the roll phase: give your secret order bag [COMPANY ...]", text)
        if phase == "action" and verb == "bag":
            raise IllegalOrder("dice go into the bag in the roll phase; it is the action phase", text)
        return getattr(self, f"parse_{verb}")(state, player, args, text)

    def company(self, state, word, text) -> str:
        return pick(word, self.names(state), text, what="company")

    def company_and_count(self, state, verb, args, text) -> tuple[str, int]:
        if len(args) != 2:
            raise OrderSyntaxError(f"write {verb} COMPANY N", text)
        if args[0].isdigit() and not args[1].isdigit():  # 'buy 2 Edison': the company comes first
            c = self.company(state, args[1], text)
            raise OrderSyntaxError(f"the company comes first: write '{verb} {c} {args[0]}'", text)
        c = self.company(state, args[0], text)
        n = parse_count(args[1], text)
        if n < 1:
            raise IllegalOrder(f"{verb} at least one share", text)
        return c, n

    def parse_buy(self, state, player, args, text) -> Order:
        c, n = self.company_and_count(state, "buy", args, text)
        co, pl = state["companies"][c], state["players"][player]
        if n > co["filled"]:
            raise IllegalOrder(f"{c} has only {plural(co['filled'], 'share')} on its board", text)
        cost = self.buy_cost(co, n)
        if cost > pl["money"]:
            raise IllegalOrder(f"{plural(n, c + ' share')} cost ${cost}; you have ${pl['money']}", text)
        if self.tokens_needed(state, player, c, n) > self.tokens_available(state, c):
            raise IllegalOrder(f"the {c} supply has too few stock tokens for that holding", text)
        return Order(player, "buy", (c, n))

    def parse_short(self, state, player, args, text) -> Order:
        c, n = self.company_and_count(state, "short", args, text)
        empty = 10 - state["companies"][c]["filled"]
        if n > empty:
            raise IllegalOrder(f"{c} has only {plural(empty, 'empty space')} on its board", text)
        if not self.short_covered(state, player, c, n):
            raise IllegalOrder(self.short_refusal(state, c, n), text)
        return Order(player, "short", (c, n))

    def parse_dice(self, state, player, args, text) -> Order:
        if len(args) < 2:
            raise OrderSyntaxError("write dice COMPANY FACES (the faces of the dice you take)", text)
        c = self.company(state, args[0], text)
        faces = sorted(self.face(a, text) for a in args[1:])
        board = state["companies"][c]["dice"]
        if not contains(board, faces):
            shows = " ".join(map(str, board)) or "no dice"
            raise IllegalOrder(f"{c}'s dice show {shows}; there is {self.dice_missing(board, faces)} among them to take", text)
        return Order(player, "dice", (c, *faces))

    def dice_missing(self, board, faces) -> str:
        """The dice of `faces` that `board` lacks: "no 2", "no second 6", "no second or third 5
        and no 1" (version 3 wrote the missing faces alone: "no 6" for a second 6)."""
        have, want = Counter(board), Counter(faces)
        out = []
        for f in sorted(want):
            if want[f] > have[f]:
                nth = " or ".join(ORDINALS.get(k, f"{k}th") for k in range(have[f] + 1, want[f] + 1))
                out.append(f"no {nth} {f}" if have[f] else f"no {f}")
        return " and ".join(out)

    def face(self, word, text) -> int:
        n = parse_count(word, text, what="die face")
        if not 1 <= n <= 6:
            raise OrderSyntaxError(f"a die shows 1 to 6, not {n}", text)
        return n

    def parse_rumor(self, state, player, args, text) -> Order:
        limit = self.data["rumor_limit"]
        if not 1 <= len(args) <= limit:
            raise OrderSyntaxError(f"write rumor COMPANY [COMPANY ...]: 1 to {limit} dice from behind your screen", text)
        dice = [self.company(state, a, text) for a in args]
        self.need_on_screen(state, player, dice, text)
        return Order(player, "rumor", tuple(dice))

    def need_on_screen(self, state, player, dice, text) -> None:
        screen = state["players"][player]["screen"]
        if not contains(screen, dice):
            have = ", ".join(screen) or "no dice"
            raise IllegalOrder(f"behind your screen you have {have}", text)

    def parse_bag(self, state, player, args, text) -> Order:
        dice = [self.company(state, a, text) for a in self.bag_words(state["players"][player]["screen"], args)]
        self.need_on_screen(state, player, dice, text)
        left, limit = len(state["players"][player]["screen"]) - len(dice), self.data["screen_limit"]
        if left > limit:
            raise IllegalOrder(f"that keeps {left} dice behind your screen; at most {limit} may stay", text)
        return Order(player, "bag", tuple(dice))

    def bag_words(self, screen, args: list[str]) -> list[str]:
        """`bag none` and `bag extra` (the words of the report and of the standing orders) as
        the dice they put into the bag: none, or just those over the screen's limit."""
        if [a.lower() for a in args] == ["none"]:
            return []
        if [a.lower() for a in args] == ["extra"]:
            return self.bag_extra(screen).split()[1:]
        return args

    def parse_pass(self, state, player, args, text) -> Order:
        if args:
            raise OrderSyntaxError("'pass' takes nothing after it", text)
        return Order(player, "pass")

    def parse_roll(self, state, args, text) -> Order:
        if len(args) < 2:
            raise OrderSyntaxError(f"write roll COMPANY FACES (to roll: {self.to_roll(state)})", text)
        c = self.company(state, args[0], text)
        faces = [self.face(a, text) for a in args[1:]]
        n = state["rumors"].count(c)
        if len(faces) > n:
            have = f"only {plural(n, c + ' die', c + ' dice')}" if n else f"no {c} dice"
            raise IllegalOrder(f"the Rumors card holds {have} to roll (to roll: {self.to_roll(state)})", text)
        return Order(GM, "roll", (c, *sorted(faces)))

    def legal_orders(self, state, player) -> list[str]:
        if player not in self.awaiting(state):
            return []
        phase = state["phase"]
        if phase == "gm-roll":  # one die an order; several faces of one company are accepted too
            return [f"roll {c} {f}" for c in sorted(set(state["rumors"])) for f in range(1, 7)]
        pl = state["players"][player]
        if phase == "roll":
            least = len(pl["screen"]) - self.data["screen_limit"]
            return [" ".join(["bag", *d]) for d in sub_multisets(pl["screen"], min_size=least)]
        out = []
        for c, co in state["companies"].items():
            out += [f"buy {c} {n}" for n in self.buy_counts(state, player, c)]
            out += [f"short {c} {n}" for n in self.short_counts(state, player, c)]
            out += [" ".join(["dice", c, *map(str, f)]) for f in sub_multisets(co["dice"], min_size=1)]
        out += [" ".join(["rumor", *d]) for d in sub_multisets(pl["screen"], 1, self.data["rumor_limit"])]
        return out + ["pass"]

    def buy_counts(self, state, player, c) -> list[int]:
        """The numbers of `c` shares `player` may buy now (parse_buy's checks)."""
        co, money = state["companies"][c], state["players"][player]["money"]
        available = self.tokens_available(state, c)
        return [n for n, cost in enumerate(self.buy_totals(co, co["filled"]), 1)
                if cost <= money and self.tokens_needed(state, player, c, n) <= available]

    def short_counts(self, state, player, c) -> list[int]:
        """The numbers of `c` shares `player` may short now (parse_short's checks)."""
        return [n for n in range(1, 11 - state["companies"][c]["filled"]) if self.short_covered(state, player, c, n)]

    def default_order(self, state, player):
        if state["phase"] == "action":
            return "pass"
        if state["phase"] == "roll":
            return self.bag_extra(state["players"][player]["screen"])
        return None

    def bag_extra(self, screen: list[str]) -> str:
        """The roll-phase order that bags just the dice over the screen's limit."""
        return " ".join(["bag", *screen[: max(0, len(screen) - self.data["screen_limit"])]])

    # ---- carrying out -------------------------------------------------------------------
    def apply(self, state, order, rng) -> None:
        if getattr(self, f"do_{order.verb}")(state, order, rng) is False:
            return  # a short not made: the same player orders again
        if order.verb in ("buy", "short", "dice", "rumor", "pass"):
            state["turns"].pop(0)
            if not state["turns"]:
                state["phase"] = "roll"
                state["bag_orders"] = {}
                emit(state, "Roll phase: every player gives a secret order, bag [COMPANY ...].")

    def revealed(self, before, after) -> str:
        """The end of the roll phase, and (public facts: the supply before, the board after) a
        short that returned every discard to the supplies, made or not."""
        if before["phase"] == "action":
            if after["phase"] == "action" and after["turns"] == before["turns"]:
                return "returned every discard to the supplies, and the short was not made"
            for c, co in after["companies"].items():
                k = co["filled"] - before["companies"][c]["filled"]
                if k > 0 and k + tokens(k) > before["companies"][c]["supply"]:
                    return "returned every discard to the supplies"
        return self.roll_revealed(before, after)

    def roll_revealed(self, before, after) -> str:
        # one reason whether dice were drawn for the game master to roll or not: that can
        # depend on the other players' secret roll-phase orders
        if before["phase"] in ("roll", "gm-roll") and after["phase"] != before["phase"]:
            return "ended the roll phase (the bag, the dice and the next event cards)"
        return ""

    def do_buy(self, state, order, rng) -> None:
        p, (c, n) = order.player, order.args
        co = state["companies"][c]
        cost = self.buy_cost(co, n)
        state["players"][p]["money"] -= cost
        co["filled"] -= n
        self.take_bought(state, p, c, n)
        emit(state, f"{p} buys {plural(n, c + ' share')} for ${cost}.")

    def do_short(self, state, order, rng) -> bool:
        """A short of n needs n + popcount(n) tokens from the supply. If it holds fewer, every
        discard returns first (public); if even then the supply cannot cover it, nothing is
        shorted and the same player orders again (False)."""
        p, (c, n) = order.player, order.args
        co = state["companies"][c]
        gain = self.short_gain(co, n)
        if self.tokens_needed(state, p, c, -n) > co["supply"]:
            self.recall_discards(state, always=True)
            if self.tokens_needed(state, p, c, -n) > co["supply"]:
                emit(state, f"Even so the {c} supply holds {plural(co['supply'], 'stock token')}, and a short of {n} "
                            f"needs {n + tokens(n)}: nothing is shorted, and {p} orders again.")
                return False
        self.short_made(state, p, c, n, gain)
        return True

    def short_made(self, state, p, c, n, gain) -> None:
        co = state["companies"][c]
        co["supply"] -= n
        co["filled"] += n
        state["players"][p]["money"] += gain
        self.take_shorted(state, p, c, n)
        emit(state, f"{p} shorts {plural(n, c + ' share')} for ${gain}.")

    def take_bought(self, state, player, company, n) -> None:
        """The n tokens taken from the board by a buy: popcount(n) of them go behind the screen
        (combined there with what the player holds), the rest return to the supply."""
        state.pop("recalled", None)  # (the player's discard may hold tokens again)
        state["companies"][company]["supply"] += n - tokens(n)
        have = self.screen_tokens(state, player, company) + tokens(n)
        self.hold(state, player, company, state["players"][player]["holdings"][company] + n, have)

    def take_shorted(self, state, player, company, n) -> None:
        """popcount(n) tokens from the supply for the short side of the multiplier board,
        cancelled behind the screen against what the player owns."""
        state.pop("recalled", None)
        state["companies"][company]["supply"] -= tokens(n)
        have = self.screen_tokens(state, player, company) + tokens(n)
        self.hold(state, player, company, state["players"][player]["holdings"][company] - n, have)

    def do_dice(self, state, order, rng) -> None:
        p, c, faces = order.player, order.args[0], list(order.args[1:])
        remove_all(state["companies"][c]["dice"], faces)
        state["players"][p]["screen"] = sorted(state["players"][p]["screen"] + [c] * len(faces))
        emit(state, f"{p} takes {plural(len(faces), c + ' die', c + ' dice')} showing {' '.join(map(str, faces))}.")

    def do_rumor(self, state, order, rng) -> None:
        p, dice = order.player, list(order.args)
        remove_all(state["players"][p]["screen"], dice)
        state["rumors"].extend(dice)
        emit(state, f"{p} puts {', '.join(dice)} on the Rumors card.")

    def do_pass(self, state, order, rng) -> None:
        emit(state, f"{order.player} passes.")

    def do_bag(self, state, order, rng) -> None:
        p, dice = order.player, list(order.args)
        state["bag_orders"][p] = dice
        emit(state, f"{p} has given their roll-phase order.")
        emit(state, f"{p}'s secret roll-phase order: {'bag ' + ', '.join(dice) if dice else 'nothing into the bag'}.", to=[p])
        if self.awaiting(state):
            return
        for q, gone in state["bag_orders"].items():
            remove_all(state["players"][q]["screen"], gone)
            state["bag"].extend(gone)
        state["bag_orders"] = {}
        want = self.data["dice_rolled"] * len(state["seats"]) - len(state["rumors"])
        drawn = self.draw_dice(state, rng, max(0, want))
        state["rumors"].extend(drawn)
        emit(state, f"Drawn from the bag onto the Rumors card: {', '.join(sorted(drawn)) or 'nothing'}.")
        self.roll_rumors(state, rng, then="resolve")

    def roll_rumors(self, state, rng, then: str) -> None:
        """Roll the Rumors card's dice (the judge, or the game master with dice=manual)."""
        if state["options"]["dice"] == "manual" and state["rumors"]:
            state["phase"], state["after_roll"] = "gm-roll", then
            return
        rolled = {}
        for c in sorted(state["rumors"]):
            face = rng.die()
            self.place_die(state, c, face)
            rolled.setdefault(c, []).append(face)
        state["rumors"] = []
        if rolled:
            emit(state, "Rolled: " + ", ".join(f"{c} {' '.join(map(str, sorted(f)))}" for c, f in rolled.items()) + ".")
        self.after_roll(state, then)

    def place_die(self, state, company, face) -> None:
        dice = state["companies"][company]["dice"]
        dice.append(face)
        dice.sort()

    def do_roll(self, state, order, rng) -> None:
        c, faces = order.args[0], order.args[1:]
        for f in faces:
            state["rumors"].remove(c)
            self.place_die(state, c, f)
        emit(state, f"The game master rolls {c}: {' '.join(map(str, faces))}.")
        if not state["rumors"]:
            then, state["after_roll"] = state["after_roll"], ""
            self.after_roll(state, then)

    def after_roll(self, state, then) -> None:
        state["after_roll"] = ""
        if then == "action":
            self.start_action(state)
        else:
            self.resolve(state)

    # ---- resolution ---------------------------------------------------------------------
    def resolve(self, state) -> None:
        for c, co in state["companies"].items():
            pips = sum(co["dice"])
            change = self.card_change(co["active"], pips, co["filled"])
            old = co["price"]
            co["price"] += change
            emit(state, f"{c}: {pips} pips on card {co['active']} at {marker(co['filled'])}: "
                        f"{signed(change)}, ${old} -> {dollars(co['price'])}.")
            if co["price"] > self.data["split_above"]:
                self.split(state, c)
            elif co["price"] <= 0:
                self.bankrupt(state, c)
        for c, co in state["companies"].items():
            co["played"].append(co["active"])
            co["active"] = co["deck"].pop(0) if co["deck"] else 0
            self.reset_board(state, c)
        if state["round"] == state["rounds"]:
            self.finish(state)
            return
        state["round"] += 1
        state["first"] = next_clockwise(state["seats"], state["first"])
        self.start_action(state)

    def split(self, state, company) -> None:
        co = state["companies"][company]
        while co["price"] > self.data["split_above"]:
            old = co["price"]
            co["price"] = (old + 1) // 2
            for pl in state["players"].values():
                pl["holdings"][company] *= 2
                if "uncancelled" in pl:  # both sides double: the same tokens, one column left
                    pl["uncancelled"][company] *= 2
            emit(state, f"{company} splits: every holding doubles, the price goes from ${old} to ${co['price']}.")

    def bankrupt(self, state, company) -> None:
        co = state["companies"][company]
        for pl in state["players"].values():
            co["supply"] += board_tokens(pl["holdings"][company], uncancelled(pl, company))
            pl["holdings"][company] = 0
            if "uncancelled" in pl:
                pl["uncancelled"][company] = 0
        co["price"] = self.data["start_price"]
        co["supply"] += co["filled"]
        co["filled"] = 0
        self.reset_board(state, company)
        emit(state, f"{company} goes bankrupt: all its stock returns to the supply; its price is reset to ${co['price']}.")

    def finish(self, state) -> None:
        state["phase"], state["turns"] = "over", []
        for p, pl in state["players"].items():
            worth = sum(h * state["companies"][c]["price"] for c, h in pl["holdings"].items())
            pl["money"] += worth
            emit(state, f"{p} cashes out {signed(worth)} and ends with {dollars(pl['money'])}.")
        for s in self.standings(state):
            if s["rank"] == 1:
                emit(state, f"{s['player']} wins with {dollars(s['score'])}.")

    # ---- scores -------------------------------------------------------------------------
    def standings(self, state) -> list[dict]:
        if not self.is_over(state):
            prices = ", ".join(f"{c} ${co['price']}" for c, co in state["companies"].items())
            return [{"player": p, "secret": "money and holdings, until the end",
                     "public": f"every action-phase order and its price; prices {prices}"} for p in state["seats"]]
        rows, cashed = [], self.cashed_out(state)
        for p in state["seats"]:
            pl = state["players"][p]
            worth = sum(h * state["companies"][c]["price"] for c, h in pl["holdings"].items())
            cash = pl["money"] - worth if cashed else pl["money"]
            rows.append({"player": p, "score": cash + worth, "cash": cash, "cashout": worth})
        return ranked(rows, lambda r: -r["score"])

    def cashed_out(self, state) -> bool:
        """Whether the money already holds the cash-out (the last round was played); an end the
        players agreed on is scored as the rulebook's end, the holdings cashed out."""
        return state["phase"] == "over"

    def summary(self, state) -> dict:
        return {"round": state["round"], "phase": state["phase"]}

    # ---- views --------------------------------------------------------------------------
    def card_view(self, card_id: int) -> dict:
        if not card_id:
            return {}
        columns, heads, rows = self._card_parts(card_id)
        return {"id": card_id, "columns": columns, "heads": list(heads),
                "rows": [{"pips": pips, "changes": list(changes)} for pips, changes in rows]}

    @lru_cache(maxsize=None)  # (every view shows two cards of each company)
    def _card_parts(self, card_id: int) -> tuple:
        card = self.cards[card_id]
        heads = {"plain": ("change",), "bull-bear": ("Bull", "Bear"), "marker": MARKER_COLUMNS}[card["columns"]]
        return card["columns"], heads, tuple((f"{r[0]}-{r[1]}", tuple(r[2:])) for r in card["rows"])

    def company_view(self, c, co) -> dict:
        pips = sum(co["dice"])
        return {
            "name": c, "price": co["price"], "filled": co["filled"], "marker": marker(co["filled"]),
            "spaces": [{"space": s, "modifier": m, "filled": s <= co["filled"]}
                       for s, m in enumerate(self.data["modifiers"], 1)],
            "dice": list(co["dice"]), "pips": pips, "supply": co["supply"],
            "active": self.card_view(co["active"]), "next": self.card_view(co["deck"][0] if co["deck"] else 0),
            "change_now": self.card_change(co["active"], pips, co["filled"]) if co["active"] else 0,
            "deck_left": len(co["deck"]), "played": list(co["played"]),
        }

    def player_view(self, state, p) -> dict:
        pl = state["players"][p]
        holdings = [{"company": c, "shares": h, "columns": columns_of(h, uncancelled(pl, c))}
                    for c, h in pl["holdings"].items() if h]
        v = {"name": p, "money": pl["money"], "holdings": holdings, "discards": dict(pl["discards"]),
             "screen": list(pl["screen"])}
        if p in state["bag_orders"]:
            v["bag_order"] = list(state["bag_orders"][p])
        return v

    def report_view(self, state, player, view) -> None:
        if "you" in view and state["phase"] == "action" and player in state["turns"]:
            view["you"]["trade"] = self.trade_view(state, player)

    def trade_view(self, state, player) -> dict[str, dict]:
        """For a player with a turn still to come this action phase, in their report: what each
        buy and short they may order now costs or brings in all, by company ({"buy": [[N, $],
        ...], "short": [...]}). The prices are public; the buys stop where their money does."""
        trade = {}
        for c, co in state["companies"].items():
            buys, shorts = self.buy_totals(co, co["filled"]), self.short_totals(co, 10 - co["filled"])
            trade[c] = {"buy": [[n, buys[n - 1]] for n in self.buy_counts(state, player, c)],
                        "short": [[n, shorts[n - 1]] for n in self.shown_short_counts(state, player, c)]}
        return trade

    def shown_short_counts(self, state, player, c) -> list[int]:
        """The shorts of `c` a report shows `player` (from version 3 the legal ones: public)."""
        return self.short_counts(state, player, c)

    def view(self, state, player) -> dict:
        over = self.is_over(state)
        v = {
            "title": self.title, "round": state["round"], "rounds": state["rounds"], "phase": state["phase"],
            "first": state["first"], "turns": list(state["turns"]), "dice_mode": state["options"]["dice"],
            "screen_limit": self.data["screen_limit"],
            "companies": [self.company_view(c, co) for c, co in state["companies"].items()],
            "rumors": sorted(state["rumors"]),
            "ordered": [p for p in self.clockwise(state) if p in state["bag_orders"]],
            "setup_roll": state["phase"] == "gm-roll" and state["after_roll"] == "action",
            "standings": self.standings(state) if over else [],
        }
        if player in state["players"]:
            v["you"] = self.player_view(state, player)
        if player == GM or over:
            v["players"] = [self.player_view(state, p) for p in state["seats"]]
        if player == GM:
            v["bag"] = sorted(state["bag"])
            v["undealt"] = list(state["undealt"])
            v["decks"] = {c: list(co["deck"]) for c, co in state["companies"].items()}
        return v

    def resample_hidden(self, state, player, rng) -> dict:
        """Redraw the event cards below each next card, the other players' money, holdings and
        how their tokens lie behind the screens (`redraw_tokens`), dice behind screens, the
        bag, and their roll-phase orders."""
        s = copy.deepcopy(state)
        if player == GM:
            return s
        decks = [co["deck"] for co in s["companies"].values()]
        pool = s["undealt"] + [x for deck in decks for x in deck[1:]]
        rng.shuffle(pool)
        for deck in decks:
            k = max(0, len(deck) - 1)
            deck[1:], pool = pool[:k], pool[k:]
        s["undealt"] = pool
        if self.is_over(s):
            return s
        others = [q for q in s["seats"] if q != player]
        pls = s["players"]
        giver, taker = rng.choice(others), rng.choice(others)
        amount = rng.below(pls[giver]["money"] + 1)
        pls[giver]["money"] -= amount
        pls[taker]["money"] += amount
        for c in s["companies"]:
            self.redraw_tokens(s, others, c, rng)
        dice = s["bag"] + [x for q in others for x in pls[q]["screen"]]
        rng.shuffle(dice)
        for q in others:
            n = len(pls[q]["screen"])
            pls[q]["screen"], dice = sorted(dice[:n]), dice[n:]
        s["bag"] = dice
        for q in s["bag_orders"]:
            if q != player:
                screen = list(pls[q]["screen"])
                rng.shuffle(screen)
                least = max(0, len(screen) - self.data["screen_limit"])
                s["bag_orders"][q] = screen[: least + rng.below(len(screen) - least + 1)]
        return s


    def redraw_tokens(self, s, others, company, rng) -> None:
        """The others' tokens of `company` redrawn behind their screens: their number there
        adds up as before (the public knows it from the supply and the board), but who holds
        them, how many lie on each multiplier board (the total of all boards included) and
        which holding they show is secret; after a return of the discards (`recalled`) everyone
        knows the discards are empty."""
        pls = s["players"]
        have = {q: self.screen_tokens(s, q, company) for q in others}
        giver, taker = rng.choice(others), rng.choice(others)
        moved = rng.below(have[giver] + 1)
        have[giver] -= moved
        have[taker] += moved
        for q in others:
            on_board = have[q] if s.get("recalled") else rng.below(have[q] + 1)
            bits = list(range(max(7, on_board)))
            rng.shuffle(bits)
            holding = sum(1 << b for b in bits[:on_board]) * (-1 if rng.below(2) else 1)
            pls[q]["holdings"][company], pls[q]["discards"][company] = holding, have[q] - on_board
            if "uncancelled" in pls[q]:
                pls[q]["uncancelled"][company] = 0

    # ---- the orders as a grammar (reports) --------------------------------------------------
    def order_forms(self, state, player) -> list:
        from judge.engine.grammar import Faces, Form, Numbers, Some, Word, form

        if player not in self.awaiting(state):
            return []
        phase = state["phase"]
        if phase == "gm-roll":
            return form("roll COMPANY FACE", [(Word(tuple(sorted(set(state["rumors"])))), Numbers(tuple(range(1, 7))))])
        screen = state["players"][player]["screen"]
        if phase == "roll":
            least = max(0, len(screen) - self.data["screen_limit"])
            return [Form("bag DICE", ((Some(tuple(screen), least, len(screen)),),))]
        buys, shorts, dice = [], [], []
        for c, co in state["companies"].items():
            ok = self.buy_counts(state, player, c)
            buys += [(Word((c,)), Numbers(tuple(ok)))] if ok else []
            ok = self.short_counts(state, player, c)
            shorts += [(Word((c,)), Numbers(tuple(ok)))] if ok else []
            dice += [(Word((c,)), Faces(tuple(co["dice"]), 1, len(co["dice"])))] if co["dice"] else []
        rumor = [(Some(tuple(screen), 1, min(len(screen), self.data["rumor_limit"])),)] if screen else []
        return [*form("buy COMPANY N", buys), *form("short COMPANY N", shorts), *form("dice COMPANY FACES", dice),
                *form("rumor DICE", rumor), Form("pass")]

    def joined_names(self, state, text) -> str:
        return joined(state["companies"], text)
