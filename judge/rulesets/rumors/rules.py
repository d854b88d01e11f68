"""Rumors, the dice and short-selling stock game (rules/rumors-stock-game.txt, RULINGS.md §3).

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
import re
import itertools
from collections import Counter
from functools import cached_property, lru_cache

from judge.engine.errors import IllegalOrder, NotYourTurn, OrderSyntaxError, UsageError
from judge.engine.orders import Order, parse_count, pick, words
from judge.engine.ruleset import GM, Option, Ruleset, emit, fail, ranked, register

PHASES = ("action", "roll", "gm-roll", "over")
MARKER_COLUMNS = ("Bull 3-5", "Bull 0-2", "Bear 1-2", "Bear 3-5")


def tokens(holding: int) -> int:
    """Tokens a holding takes on the binary multiplier board."""
    return bin(abs(holding)).count("1")


def board_tokens(holding: int, uncancelled: int = 0) -> int:
    """Tokens on the multiplier board for `holding` with `uncancelled` shares left on the
    other side (7 owned as +8x -1x: uncancelled 1, 2 tokens)."""
    return tokens(abs(holding) + uncancelled) + tokens(uncancelled)


def fewest_uncancelled(holding: int, have: int) -> int:
    """The fewest shares left uncancelled so that `holding` fits on the multiplier board with
    `have` tokens (0, fully cancelled, whenever popcount(|holding|) <= have). Some number
    always fits when a buy or short of k brings popcount(k) new tokens: the old board with the
    new tokens beside it, uncancelled, shows the new holding with at most `have` tokens."""
    return next(u for u in itertools.count() if board_tokens(holding, u) <= have)


def columns_of(holding: int, uncancelled: int = 0) -> str:
    """'+4x +1x' for 5 owned, '-2x' for 2 shorted, '+8x -1x' for 7 owned with 1 uncancelled."""
    sign, other = ("+", "-") if holding > 0 else ("-", "+")

    def bits(n, s):
        return [f"{s}{1 << b}x" for b in reversed(range(n.bit_length())) if n >> b & 1]
    return " ".join(bits(abs(holding) + uncancelled, sign) + bits(uncancelled, other))


def joined(names, text: str) -> str:
    """The text with a company written as the rulebook spells it, in words ("Unusual Oil",
    "Game Start"), joined into its name in the judge (UnusualOil)."""
    for c in names:
        spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", r"\\s+", c)
        if spaced != c:
            text = re.sub(rf"(?i)\b{spaced}\b", c, text)
    return text


def marker(filled: int) -> str:
    return f"Bull {5 - filled}" if filled <= 5 else f"Bear {filled - 5}"


def sub_multisets(items: list, min_size: int = 0, max_size: int | None = None) -> list[list]:
    """Every sub-multiset of `items`, as sorted lists."""
    counts = sorted(Counter(items).items())
    found = []
    for pick_counts in itertools.product(*(range(n + 1) for _, n in counts)):
        chosen = [v for (v, _), k in zip(counts, pick_counts) for _ in range(k)]
        if len(chosen) >= min_size and (max_size is None or len(chosen) <= max_size):
            found.append(chosen)
    return sorted(found, key=lambda d: (len(d), d))


def contains(pool: list, wanted: list) -> bool:
    return not Counter(wanted) - Counter(pool)


def remove_all(pool: list, gone: list) -> None:
    for x in gone:
        pool.remove(x)


def dollars(n: int) -> str:
    return f"-${-n}" if n < 0 else f"${n}"


def signed(n: int) -> str:
    return f"-${-n}" if n < 0 else f"+${n}"


def uncancelled(pl: dict, company: str) -> int:
    """Shares left uncancelled on the other side of a player's multiplier board (version 2)."""
    return pl.get("uncancelled", {}).get(company, 0)


def company_in(view: dict, name: str) -> dict:
    """The company `name` as a view shows it."""
    return next(c for c in view["companies"] if c["name"] == name)


def plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


@lru_cache(maxsize=None)
def dice_sums(dice: int) -> tuple[tuple[int, float], ...]:
    """The distribution of the sum of `dice` dice: (sum, probability) pairs."""
    dist = {0: 1.0}
    for _ in range(dice):
        nxt = {}
        for s, p in dist.items():
            for f in range(1, 7):
                nxt[s + f] = nxt.get(s + f, 0.0) + p / 6
        dist = nxt
    return tuple(dist.items())


@register
class Rumors(Ruleset):
    name = "rumors"
    title = "Rumors, the dice and short-selling stock game"
    version = 2  # 2: stock tokens as the rulebook says (public supplies never depend on holdings)
    old_versions = (1,)
    min_players, max_players = 3, 6
    options = (
        Option("dice", "auto", "auto: the judge rolls; manual: the game master enters every roll (judge order GAME --gm 'roll Edison 3 5 6')", ("auto", "manual")),
    )
    max_moves = 350  # rounds * (2 action turns + 1 roll order + 6 one-die gm rolls per player) + setup: 342 for 6
    verbs = ("buy", "short", "dice", "rumor", "bag", "pass", "roll")

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

    # ---- setup --------------------------------------------------------------------------
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
        players = {p: {"money": d["start_money"], "holdings": {c: 0 for c in names},
                       "discards": {c: 0 for c in names}, "screen": []} for p in seats}
        if self.version >= 2:
            for p in seats:
                players[p]["uncancelled"] = {c: 0 for c in names}
            for co in companies.values():  # the bag's tokens all go behind the screens
                co["supply"] -= d["tokens_in_bag"]
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
                if self.version < 2:  # version 1 returned the tokens the holding did not need
                    players[p]["holdings"][c] = n
                    companies[c]["supply"] -= tokens(n)
                else:
                    self.hold(state, p, c, n, n)
            emit(state, f"{p} draws the stock tokens {', '.join(sorted(drawn))} (secret).", to=[p])
        for p in seats:
            dice = self.draw_dice(state, rng, d["dice_drawn"])
            players[p]["screen"] = sorted(dice)
            emit(state, f"{p} draws the dice {', '.join(sorted(dice))} behind the screen (secret).", to=[p])
        state["rumors"] = self.draw_dice(state, rng, d["dice_rolled"] * len(seats))
        emit(state, f"Dice drawn for the company boards: {', '.join(sorted(state['rumors']))}.")
        self.roll_rumors(state, rng, then="action")

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
        """Version 2: `player` holds `holding` with `have` tokens behind the screen. The
        multiplier board shows it cancelled (one side only) when the tokens allow; otherwise
        (own 8, short 1: 7 needs 4x, 2x and 1x) the fewest shares stay uncancelled, rather
        than take change from the public supply. The other tokens lie in the discards."""
        pl = state["players"][player]
        u = fewest_uncancelled(holding, have)
        pl["holdings"][company], pl["uncancelled"][company] = holding, u
        pl["discards"][company] = have - board_tokens(holding, u)

    def change_holding(self, state, player, company, delta) -> None:
        """Version 1: move `player`'s holding by `delta`, taking multiplier tokens from the
        supply (recalling discards if it runs short) and putting freed ones into the discards."""
        pl, co = state["players"][player], state["companies"][company]
        old = pl["holdings"][company]
        need = tokens(old + delta) - tokens(old)
        if need > co["supply"]:
            self.recall_discards(state)
        if need > 0:
            co["supply"] -= need
        else:
            pl["discards"][company] -= need
        pl["holdings"][company] = old + delta

    def tokens_available(self, state, company) -> int:
        """Tokens the supply can give, counting the discards it may recall."""
        return state["companies"][company]["supply"] + sum(pl["discards"][company] for pl in state["players"].values())

    def tokens_needed(self, state, player, company, delta) -> int:
        """Tokens taken from the supply by a buy (delta > 0) or short (delta < 0) of |delta|.
        From version 2 it depends on the order only: a short of k takes k for the board and
        popcount(k) for the multiplier board; a buy takes none."""
        if self.version >= 2:
            return 0 if delta > 0 else -delta + tokens(delta)
        old = state["players"][player]["holdings"][company]
        return max(0, tokens(old + delta) - tokens(old)) - delta  # a buy returns delta board tokens

    def recall_discards(self, state) -> None:
        if not any(n for pl in state["players"].values() for n in pl["discards"].values()):
            return
        for p, pl in state["players"].items():
            for c, n in pl["discards"].items():
                state["companies"][c]["supply"] += n
                pl["discards"][c] = 0
        emit(state, "The supply ran short: every player returns their discarded stock tokens to the supplies.")

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
        seats = state["seats"]
        i = seats.index(state["first"])
        return seats[i:] + seats[:i]

    def start_action(self, state) -> None:
        order = self.clockwise(state)
        state["phase"] = "action"
        state["turns"] = order + order[::-1]
        emit(state, f"Round {state['round']} of {state['rounds']}: action phase, {state['first']} first "
                    f"(order {', '.join(order)}, then back).")

    def is_over(self, state) -> bool:
        return state["phase"] == "over"

    def prompt(self, state, player) -> str:
        phase = state["phase"]
        if phase == "action":
            return "buy, short, dice, rumor or pass"
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
        cost = sum(self.buy_costs(co["price"], co["filled"], n))
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
        if self.tokens_needed(state, player, c, -n) > self.tokens_available(state, c):
            raise IllegalOrder(f"the {c} supply has too few stock tokens to short {n}", text)
        return Order(player, "short", (c, n))

    def parse_dice(self, state, player, args, text) -> Order:
        if len(args) < 2:
            raise OrderSyntaxError("write dice COMPANY FACES (the faces of the dice you take)", text)
        c = self.company(state, args[0], text)
        faces = sorted(self.face(a, text) for a in args[1:])
        board = state["companies"][c]["dice"]
        if not contains(board, faces):
            shows = " ".join(map(str, board)) or "no dice"
            missing = " ".join(map(str, sorted((Counter(faces) - Counter(board)).elements())))
            raise IllegalOrder(f"{c}'s dice show {shows}; there is no {missing} among them to take", text)
        return Order(player, "dice", (c, *faces))

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
        dice = [self.company(state, a, text) for a in args]
        self.need_on_screen(state, player, dice, text)
        left, limit = len(state["players"][player]["screen"]) - len(dice), self.data["screen_limit"]
        if left > limit:
            raise IllegalOrder(f"that keeps {left} dice behind your screen; at most {limit} may stay", text)
        return Order(player, "bag", tuple(dice))

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
        return [n for n in range(1, co["filled"] + 1) if sum(self.buy_costs(co["price"], co["filled"], n)) <= money
                and self.tokens_needed(state, player, c, n) <= self.tokens_available(state, c)]

    def short_counts(self, state, player, c) -> list[int]:
        """The numbers of `c` shares `player` may short now (parse_short's checks)."""
        return [n for n in range(1, 11 - state["companies"][c]["filled"])
                if self.tokens_needed(state, player, c, -n) <= self.tokens_available(state, c)]

    def default_order(self, state, player):
        if state["phase"] == "action":
            return "pass"
        if state["phase"] == "roll":
            screen = state["players"][player]["screen"]
            return " ".join(["bag", *screen[: max(0, len(screen) - self.data["screen_limit"])]])
        return None

    # ---- carrying out -------------------------------------------------------------------
    def apply(self, state, order, rng) -> None:
        getattr(self, f"do_{order.verb}")(state, order, rng)
        if order.verb in ("buy", "short", "dice", "rumor", "pass"):
            state["turns"].pop(0)
            if not state["turns"]:
                state["phase"] = "roll"
                state["bag_orders"] = {}
                emit(state, "Roll phase: every player gives a secret order, bag [COMPANY ...].")

    def public_order(self, text: str) -> str | None:
        """Roll-phase orders stay secret (the public sees only that they were given)."""
        return None if text.split()[0] == "bag" else text

    def revealed(self, before, after) -> str:
        # one reason whether dice were drawn for the game master to roll or not: that can
        # depend on the other players' secret roll-phase orders
        if before["phase"] in ("roll", "gm-roll") and after["phase"] != before["phase"]:
            return "ended the roll phase (the bag, the dice and the next event cards)"
        return ""

    def do_buy(self, state, order, rng) -> None:
        """Take n tokens from the board; version 2 keeps popcount(n) of them behind the screen
        (combined there with what the player holds) and returns the rest to the supply."""
        p, (c, n) = order.player, order.args
        co = state["companies"][c]
        cost = sum(self.buy_costs(co["price"], co["filled"], n))
        state["players"][p]["money"] -= cost
        co["filled"] -= n
        if self.version < 2:
            co["supply"] += n
            self.change_holding(state, p, c, n)
        else:
            co["supply"] += n - tokens(n)
            have = self.screen_tokens(state, p, c) + tokens(n)
            self.hold(state, p, c, state["players"][p]["holdings"][c] + n, have)
        emit(state, f"{p} buys {plural(n, c + ' share')} for ${cost}.")

    def do_short(self, state, order, rng) -> None:
        p, (c, n) = order.player, order.args
        co = state["companies"][c]
        gain = sum(self.short_gains(co["price"], co["filled"], n))
        if self.tokens_needed(state, p, c, -n) > co["supply"]:
            self.recall_discards(state)
        co["supply"] -= n
        co["filled"] += n
        state["players"][p]["money"] += gain
        if self.version < 2:
            self.change_holding(state, p, c, -n)
        else:  # popcount(n) tokens from the supply for the short side, cancelled behind the screen
            co["supply"] -= tokens(n)
            have = self.screen_tokens(state, p, c) + tokens(n)
            self.hold(state, p, c, state["players"][p]["holdings"][c] - n, have)
        emit(state, f"{p} shorts {plural(n, c + ' share')} for ${gain}.")

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
        seats = state["seats"]
        state["first"] = seats[(seats.index(state["first"]) + 1) % len(seats)]
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
        rows = []
        for p in state["seats"]:
            pl = state["players"][p]
            worth = sum(h * state["companies"][c]["price"] for c, h in pl["holdings"].items())
            rows.append({"player": p, "score": pl["money"], "cash": pl["money"] - worth, "cashout": worth})
        return ranked(rows, lambda r: -r["score"])

    def summary(self, state) -> dict:
        return {"round": state["round"], "phase": state["phase"]}

    # ---- views --------------------------------------------------------------------------
    def card_view(self, card_id: int) -> dict:
        if not card_id:
            return {}
        card = self.cards[card_id]
        heads = {"plain": ["change"], "bull-bear": ["Bull", "Bear"], "marker": list(MARKER_COLUMNS)}[card["columns"]]
        return {"id": card_id, "columns": card["columns"], "heads": heads,
                "rows": [{"pips": f"{r[0]}-{r[1]}", "changes": r[2:]} for r in card["rows"]]}

    def company_view(self, c, co) -> dict:
        pips = sum(co["dice"])
        return {
            "name": c, "price": co["price"], "filled": co["filled"], "marker": marker(co["filled"]),
            "spaces": [{"space": s, "modifier": self.modifier(s), "filled": s <= co["filled"]} for s in range(1, 11)],
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
        """Redraw the event cards below each next card, the other players' money, holdings,
        discards (their tokens behind screens add up as before), dice behind screens, the
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
        for c in s["companies"]:  # the tokens behind the others' screens add up as before
            kept = [(pls[q]["holdings"][c] * (-1 if rng.below(2) else 1), uncancelled(pls[q], c),
                     pls[q]["discards"][c]) for q in others]
            rng.shuffle(kept)
            for q, (h, u, d) in zip(others, kept):
                pls[q]["holdings"][c], pls[q]["discards"][c] = h, d
                if "uncancelled" in pls[q]:
                    pls[q]["uncancelled"][c] = u
            giver, taker = rng.choice(others), rng.choice(others)
            moved = rng.below(pls[giver]["discards"][c] + 1)
            pls[giver]["discards"][c] -= moved
            pls[taker]["discards"][c] += moved
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

    # ---- standing orders (judge/standing.py) ----------------------------------------------
    standing_starts = ("auto", "bag", "turn", "buy", "short", "dice", "rumor", "rumour", "pass")
    standing_forms = (
        "auto pass (this round's action turns)",
        "turn N ORDER (at my Nth action turn of this round, N 1 or 2: turn 1 buy Edison 2, turn 2 pass)",
        "ORDER if [COMPANY] FACT OP N (FACT price, cost, gain, pips or shares; OP <= >= < > =: "
        "buy Edison 2 if price <= 30, turn 1 short Nile 1 if gain >= 40)",
        "bag COMPANY ..., bag none or bag extra (the roll phase's order, in advance; extra: just the dice over the limit)")
    FACTS = ("price", "cost", "gain", "pips", "shares")
    OPS = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b,
           ">": lambda a, b: a > b, "=": lambda a, b: a == b}

    def standing_parse(self, view, player, text):
        w = words(text)
        if w[0] == "auto":
            if w != ["auto", "pass"]:
                raise OrderSyntaxError("write auto pass (pass at each of your action turns this round)", text)
            return "auto pass"
        if w[0] == "bag":
            if w == ["bag", "extra"]:
                return "bag extra"
            if view is not None and view["phase"] == "roll" and player in view["awaiting"]:
                return None  # the roll phase's order itself
            if w == ["bag", "none"]:
                return "bag none"
            return " ".join(["bag", *(pick(x, self._all_names(view), text, what="company") for x in w[1:])])
        if w[0] != "turn" and "if" not in w:
            return None  # an ordinary action-phase order
        turn, order, condition = self.standing_parts(view, text)
        return " ".join(x for x in (f"turn {turn}" if turn else "", order, "if " + " ".join(condition) if condition else "") if x)

    def _all_names(self, view) -> list[str]:
        """The companies in play (seen in `view`), or without a view (replay, or after an order
        that revealed something) any company of the game."""
        return [c["name"] for c in view["companies"]] if view is not None else list(self.data["companies"])

    def standing_parts(self, view, text) -> tuple[int, str, list[str]]:
        """(turn or 0, the action order in canonical words, the condition [company, fact, op, n]
        or []) of a `turn N ORDER [if ...]` or `ORDER if ...` standing order; syntax only."""
        names = self._all_names(view)
        w = joined(names, text).split()
        turn = 0
        if w[0].lower() == "turn":
            if len(w) < 3 or w[1] not in ("1", "2"):
                raise OrderSyntaxError("write turn N ORDER, N 1 or 2 (your first or second action turn this round)", text)
            turn, w = int(w[1]), w[2:]
        cut = next((i for i, x in enumerate(w) if x.lower() == "if"), len(w))
        order, cond = w[:cut], w[cut + 1:]
        if cut < len(w) and not cond:
            raise OrderSyntaxError("write ORDER if [COMPANY] FACT OP N, e.g. buy Edison 2 if price <= 30", text)
        action = self._standing_action(order, names, text)
        return turn, " ".join(action), self._standing_condition(cond, action, names, text) if cond else []

    def _standing_action(self, order: list[str], names, text) -> list[str]:
        """The words of a standing order's action (`order`), canonical: [verb, *args]."""
        if not order:
            raise OrderSyntaxError("the order comes before if: ORDER if [COMPANY] FACT OP N, e.g. turn 1 buy Edison 2 "
                                   "if price <= 30", text)
        verb = "rumor" if order[0].lower() == "rumour" else order[0].lower()
        if verb not in ("buy", "short", "dice", "rumor", "pass"):
            raise OrderSyntaxError(f"a standing action is buy, short, dice, rumor or pass, not '{' '.join(order)}'", text)
        args = order[1:]
        if verb == "pass" and args or verb in ("buy", "short") and len(args) != 2 or verb == "dice" and len(args) < 2 \
                or verb == "rumor" and not 1 <= len(args) <= self.data["rumor_limit"]:
            raise OrderSyntaxError(f"write {' '.join(order)} as you would type it (buy COMPANY N, short COMPANY N, "
                                   "dice COMPANY FACES, rumor DICE, pass)", text)
        if verb in ("buy", "short"):
            return [verb, pick(args[0], names, text, what="company"), str(parse_count(args[1], text))]
        if verb == "dice":
            return [verb, pick(args[0], names, text, what="company"), *map(str, sorted(self.face(a, text) for a in args[1:]))]
        return [verb, *(pick(a, names, text, what="company") for a in args)]

    def _standing_condition(self, cond: list[str], action: list[str], names, text) -> list[str]:
        """The condition after `if`, canonical: [company, fact, op, n], without the company
        when it is that of the action (buy, short or dice)."""
        verb = action[0]
        own = action[1] if verb in ("buy", "short", "dice") else None
        company = pick(cond[0], names, text, what="company") if len(cond) == 4 else own
        cond = cond[1:] if len(cond) == 4 else cond
        if len(cond) != 3 or cond[0].lower() not in self.FACTS or cond[1] not in self.OPS:
            raise OrderSyntaxError(f"write if [COMPANY] FACT OP N (FACT {', '.join(self.FACTS)}; OP <= >= < > =)", text)
        fact, n = cond[0].lower(), parse_count(cond[2], text)
        if company is None:
            raise OrderSyntaxError(f"name the company the condition is about: if COMPANY {fact} ...", text)
        if fact in ("cost", "gain") and not (verb == ("buy" if fact == "cost" else "short") and company == own):
            raise OrderSyntaxError(f"'{fact}' is what the shares of this order {'cost' if fact == 'cost' else 'bring'}: "
                                   f"only with {'buy' if fact == 'cost' else 'short'} COMPANY N", text)
        return ([] if company == own else [company]) + [fact, cond[1], str(n)]

    def standing_fact(self, state, player, company, fact, order) -> int | None:
        """A public fact for a condition; None when it cannot be met (fewer shares on the board
        than a buy's, or fewer empty spaces than a short's)."""
        co = state["companies"][company]
        if fact == "price":
            return co["price"]
        if fact == "pips":
            return sum(co["dice"])
        if fact == "shares":
            return co["filled"]
        n = int(order.split()[2])
        if fact == "cost":
            return sum(self.buy_costs(co["price"], co["filled"], n)) if n <= co["filled"] else None
        return sum(self.short_gains(co["price"], co["filled"], n)) if n <= 10 - co["filled"] else None

    def standing_order(self, state, player, text):
        w = text.split()
        if text == "auto pass":
            return "pass" if state["phase"] == "action" and state["turns"][:1] == [player] else None
        if w[0] == "bag":
            if state["phase"] != "roll" or player in state["bag_orders"]:
                return None
            if text == "bag extra":
                return self.default_order(state, player)
            return "bag" if text == "bag none" else text
        if state["phase"] != "action" or state["turns"][:1] != [player]:
            return None
        turn, order, cond = self.standing_parts(None, text)
        if turn and 3 - state["turns"].count(player) != turn:
            return None
        if cond:
            company, fact, op, n = cond if len(cond) == 4 else [order.split()[1], *cond]
            value = self.standing_fact(state, player, company, fact, order)
            if value is None or not self.OPS[op](value, int(n)):
                return None
        return order

    def standing_examples(self, state, player):
        names = list(state["companies"])
        return ["auto pass", "bag none", "bag extra", f"bag {names[0]}", f"bag {names[-1]} {names[0]}",
                "auto pass every round", f"turn 1 buy {names[0]} 1", "turn 2 pass", f"buy {names[1]} 2 if price <= 30",
                f"turn 1 short {names[-1]} 1 if gain >= 40", f"turn 2 dice {names[0]} 6 if pips >= 10",
                f"turn 1 rumor {names[1]} if {names[1]} shares < 5", f"pass if {names[0]} price > 40 every round"]

    def bot_standing(self, view, rng, then=None):
        """At the start of the action phase the bot plans its round from its own view, as if
        nobody else acted before its turns: its two best choices for each of its two turns, each guarded by
        a price limit where the others may change it (a buy at most what it costs now, a short
        at least what it brings now; taking dice while the company's pips are not lower),
        then pass; and `bag extra` for the roll phase."""
        if then is not None or view["phase"] != "action" or view["turns"].count(view["player"]) != 2:
            return []
        plan, seen = [], dict(view, orders=self.orders_in(view))
        for turn in (1, 2):
            gains = self.bot_gains(seen)
            best = sorted((o for o in gains if o in seen["orders"] and gains[o] > gains["pass"]),
                          key=lambda o: -gains[o])[:2]
            plan += [f"turn {turn} {o}{self.bot_guard(seen, o)}" for o in best] + [f"turn {turn} pass"]
            order = best[0] if best else "pass"
            seen = self.planned_view(seen, order)
        return plan + ["bag extra"]

    def bot_guard(self, view, order) -> str:
        w = order.split()
        if w[0] not in ("buy", "short", "dice"):
            return ""
        co = company_in(view, w[1])
        if w[0] == "buy":
            return f" if cost <= {sum(self.buy_costs(co['price'], co['filled'], int(w[2])))}"
        if w[0] == "short":
            return f" if gain >= {sum(self.short_gains(co['price'], co['filled'], int(w[2])))}"
        return f" if pips >= {co['pips']}"

    def planned_view(self, view, order) -> dict:
        """The bot's own view as it expects it after its `order` (nobody else acting): its
        money, holdings, screen, the company boards and the orders left to choose from."""
        v = copy.deepcopy(view)
        w, you = order.split(), v["you"]
        if w[0] == "pass":
            return v
        held = {h["company"]: h for h in you["holdings"]}
        if w[0] in ("buy", "short"):
            co = company_in(v, w[1])
            n = int(w[2])
            if w[0] == "buy":
                you["money"] -= sum(self.buy_costs(co["price"], co["filled"], n))
                co["filled"] -= n
            else:
                you["money"] += sum(self.short_gains(co["price"], co["filled"], n))
                co["filled"] += n
                n = -n
            held.setdefault(w[1], {"company": w[1], "shares": 0})["shares"] += n
            you["holdings"] = [h for h in held.values() if h["shares"]]
        elif w[0] == "dice":
            co = company_in(v, w[1])
            remove_all(co["dice"], [int(f) for f in w[2:]])
            co["pips"] = sum(co["dice"])
            you["screen"] = sorted(you["screen"] + [w[1]] * (len(w) - 2))
        elif w[0] == "rumor":
            remove_all(you["screen"], w[1:])
            v["rumors"] = sorted(v["rumors"] + w[1:])
        v["orders"] = self.orders_in(v)
        return v

    def orders_in(self, view) -> list[str]:
        """The action orders the bot's own `view` allows (but for the supply's stock tokens,
        which seldom run short): it plans when not yet awaited, and for its later turn."""
        you, out = view["you"], []
        for co in view["companies"]:
            c = co["name"]
            out += [f"buy {c} {n}" for n in range(1, co["filled"] + 1)
                    if sum(self.buy_costs(co["price"], co["filled"], n)) <= you["money"]]
            out += [f"short {c} {n}" for n in range(1, 11 - co["filled"])]
            out += [" ".join(["dice", c, *map(str, f)]) for f in sub_multisets(co["dice"], min_size=1)]
        out += [" ".join(["rumor", *d]) for d in sub_multisets(you["screen"], 1, self.data["rumor_limit"])]
        return out + ["pass"]

    # ---- the sensible bot ---------------------------------------------------------------
    def bot_order(self, view, rng) -> str:
        """Buy or short where the expected price after this round beats the space's price;
        move dice (take them, or spread rumors) where that helps what the bot holds."""
        orders = view["orders"]
        if view["phase"] == "roll":
            return self.bot_bag(view, orders)
        if view["phase"] == "gm-roll":
            c = view["rumors"][0]
            return " ".join(["roll", c, *(str(rng.die()) for _ in range(view["rumors"].count(c)))])
        if view["phase"] != "action":
            return rng.choice(orders)
        gains = self.bot_gains(view)
        return max((o for o in gains if o in orders), key=lambda o: gains[o])

    def bot_gains(self, view) -> dict[str, float]:
        """What the sensible bot expects each action order to gain (pass: 2, the least a move
        must gain)."""
        orders = view["orders"]
        held = {h["company"]: h["shares"] for h in view["you"]["holdings"]}
        draws = max(0, self.data["dice_rolled"] * len(view["companies"]) - len(view["rumors"]))
        draws_each = round(draws / len(view["companies"]))
        gains = {"pass": 2.0}  # a move must gain a little more than nothing
        for co in view["companies"]:
            c, h = co["name"], held.get(co["name"], 0)
            dice_now = view["rumors"].count(c) + draws_each
            change = self.expected_change(co, co["pips"], dice_now)
            future = co["price"] + change
            total = 0
            for n, cost in enumerate(self.buy_costs(co["price"], co["filled"], co["filled"]), 1):
                total += future - cost
                gains[f"buy {c} {n}"] = total
            total = 0
            for n, got in enumerate(self.short_gains(co["price"], co["filled"], 10 - co["filled"]), 1):
                total += got - future
                gains[f"short {c} {n}"] = total
            if h:
                for o in orders:
                    if o.startswith(f"dice {c} "):
                        taken = sum(int(f) for f in o.split()[2:])
                        gains[o] = h * (self.expected_change(co, co["pips"] - taken, dice_now) - change)
                        gains[o] -= 0.5 * len(o.split()[2:])  # keep dice for rumors only if worth it
        for o in orders:
            if o.startswith("rumor "):
                put = o.split()[1:]
                gains[o] = sum(
                    held.get(co["name"], 0) * (
                        self.expected_change(co, co["pips"], view["rumors"].count(co["name"]) + draws_each + put.count(co["name"]))
                        - self.expected_change(co, co["pips"], view["rumors"].count(co["name"]) + draws_each))
                    for co in view["companies"] if co["name"] in put)
        return gains

    def expected_change(self, co, pips, dice) -> float:
        """The mean price change of company view `co` at `pips` plus `dice` rolled dice."""
        if not co["active"]:
            return 0.0
        return self._expected_change(co["active"]["id"], pips, co["filled"], dice)

    @lru_cache(maxsize=None)  # the bot asks the same few questions thousands of times a game
    def _expected_change(self, card_id: int, pips: int, filled: int, dice: int) -> float:
        changes = self._card_changes(card_id, filled)
        return sum(p * (changes[min(48, pips + s)] if pips + s >= 0 else self.card_change(card_id, pips + s, filled))
                   for s, p in dice_sums(dice))

    @lru_cache(maxsize=None)
    def _card_changes(self, card_id: int, filled: int) -> tuple[int, ...]:
        """The card's change at each number of pips, 0 to 48."""
        return tuple(self.card_change(card_id, pips, filled) for pips in range(49))

    def bot_bag(self, view, orders) -> str:
        screen = view["you"]["screen"]
        excess = len(screen) - self.data["screen_limit"]
        text = " ".join(["bag", *screen[:max(0, excess)]])
        return text if text in orders else orders[0]

    # ---- consistency --------------------------------------------------------------------
    def check(self, state) -> None:
        d, seats = self.data, state["seats"]
        if list(state["players"]) != seats:
            fail(f"state.players {list(state['players'])} do not match the seats {seats}")
        if state["phase"] not in PHASES:
            fail(f"state.phase '{state['phase']}' is not a phase of {self.name} ({', '.join(PHASES)})")
        if state["rounds"] != d["rounds"][str(len(seats))] or not 1 <= state["round"] <= state["rounds"]:
            fail(f"state.round {state['round']} of {state['rounds']} does not fit {len(seats)} players")
        names = list(state["companies"])
        if len(names) != len(seats) or not set(names) <= set(d["companies"]):
            fail(f"state.companies must be {len(seats)} of {', '.join(d['companies'])}")
        if state["first"] not in seats:
            fail(f"state.first '{state['first']}' is not a player")
        self.check_tokens(state, names)
        self.check_dice(state, names)
        self.check_cards(state)
        self.check_turn(state)

    def check_tokens(self, state, names) -> None:
        for p, pl in state["players"].items():
            if set(pl["holdings"]) != set(names) or set(pl["discards"]) != set(names):
                fail(f"state.players.{p}: holdings and discards must name the companies in play")
            if type(pl["money"]) is not int or (pl["money"] < 0 and not self.is_over(state)):
                fail(f"state.players.{p}.money must be a whole number >= 0")
            if any(type(n) is not int or n < 0 for n in pl["discards"].values()):
                fail(f"state.players.{p}.discards must be whole numbers >= 0")
            if self.version >= 2:
                u = pl.get("uncancelled")
                if not isinstance(u, dict) or set(u) != set(names) or any(type(n) is not int or n < 0 for n in u.values()):
                    fail(f"state.players.{p}.uncancelled must give a whole number >= 0 for each company in play")
                if any(u[c] and not pl["holdings"][c] for c in names):
                    fail(f"state.players.{p}.uncancelled: shares are left uncancelled only beside a holding")
            elif "uncancelled" in pl:
                fail(f"state.players.{p}.uncancelled belongs to version 2 of {self.name}, not version {self.version}")
        for c, co in state["companies"].items():
            if not 0 <= co["filled"] <= 10 or co["supply"] < 0:
                fail(f"state.companies.{c}: filled must be 0 to 10 and supply >= 0")
            if not 1 <= co["price"] <= self.data["split_above"]:
                fail(f"state.companies.{c}.price ${co['price']} is outside $1..${self.data['split_above']}")
            held = sum(self.screen_tokens(state, p, c) for p in state["players"])
            total = co["filled"] + co["supply"] + held
            if total != self.data["tokens"]:
                fail(f"{c} stock tokens do not add up: board {co['filled']}, supply {co['supply']}, "
                     f"multiplier boards and discards {held} make {total}, not {self.data['tokens']}")

    def check_dice(self, state, names) -> None:
        where = Counter(state["bag"]) + Counter(state["rumors"])
        for pl in state["players"].values():
            where += Counter(pl["screen"])
        for c, co in state["companies"].items():
            if any(type(f) is not int or not 1 <= f <= 6 for f in co["dice"]):
                fail(f"state.companies.{c}.dice must show faces 1 to 6")
            where[c] += len(co["dice"])
        for c in names:
            if where[c] != self.data["dice"]:
                fail(f"{c} dice do not add up: bag, Rumors card, screens and board hold {where[c]}, not {self.data['dice']}")
        if set(where) - set(names):
            fail(f"dice of companies not in play: {', '.join(sorted(set(where) - set(names)))}")

    def check_cards(self, state) -> None:
        cards = list(state["undealt"])
        for co in state["companies"].values():
            cards += co["deck"] + co["played"] + ([co["active"]] if co["active"] else [])
        if Counter(cards) != Counter(list(self.cards)):
            fail(f"event cards do not add up: decks, active, played and undealt cards are not the {len(self.cards)} cards")

    def check_turn(self, state) -> None:
        phase, seats = state["phase"], state["seats"]
        if phase == "action" and (not state["turns"] or not set(state["turns"]) <= set(seats)):
            fail("state.turns must name the players still to act in the action phase")
        if phase == "roll":
            if not set(state["bag_orders"]) < set(seats):
                fail("state.bag_orders must name players, and not all of them (the phase would be over)")
            for p, dice in state["bag_orders"].items():
                screen = state["players"][p]["screen"]
                if not contains(screen, dice) or len(screen) - len(dice) > self.data["screen_limit"]:
                    fail(f"state.bag_orders.{p} does not fit the dice behind {p}'s screen")
        elif state["bag_orders"]:
            fail("state.bag_orders must be empty outside the roll phase")
        if phase == "gm-roll" and (state["options"]["dice"] != "manual" or not state["rumors"]
                                   or state["after_roll"] not in ("action", "resolve")):
            fail("state.phase gm-roll needs the dice=manual option, dice on the Rumors card and after_roll")


    # ---- the orders as a grammar (reports) --------------------------------------------------
    def order_forms(self, state, player) -> list:
        from judge.engine.grammar import Form, Numbers, Some, Word, form

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
            dice += [(Word((c,)), Some(tuple(co["dice"]), 1, len(co["dice"])))] if co["dice"] else []
        rumor = [(Some(tuple(screen), 1, min(len(screen), self.data["rumor_limit"])),)] if screen else []
        return [*form("buy COMPANY N", buys), *form("short COMPANY N", shorts), *form("dice COMPANY FACES", dice),
                *form("rumor DICE", rumor), Form("pass")]

    def joined_names(self, state, text) -> str:
        return joined(state["companies"], text)
