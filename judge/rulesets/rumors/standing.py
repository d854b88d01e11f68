"""The standing orders of rumors (judge/engine/standing.py runs them): `auto pass`, `turn N
ORDER`, `ORDER if [COMPANY] FACT OP N`, and `bag ...` in advance for the roll phase. They read
only the player's view, so they cannot depend on a secret."""
from __future__ import annotations

from functools import lru_cache

from judge.engine.errors import IllegalOrder, OrderSyntaxError
from judge.engine.orders import parse_count, pick, words
from judge.rulesets.rumors.helpers import company_in, joined, plural


class Standing:
    """The standing-order vocabulary, mixed into the registered ruleset (ruleset.py)."""

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
            return self.standing_bag(view, player, w, text)
        if w[0] != "turn" and "if" not in w:
            return None  # an ordinary action-phase order
        turn, order, condition = self.standing_parts(view, text)
        return " ".join(x for x in (f"turn {turn}" if turn else "", order, "if " + " ".join(condition) if condition else "") if x)

    def standing_bag(self, view, player, w, text) -> str | None:
        """A `bag` line: in the roll phase the order itself from a player who has not given it
        (`bag none` and `bag extra` too), refused from one who has (it would never be carried
        out: the order given is final); otherwise a roll-phase order in advance."""
        if view is not None and view["phase"] == "roll" and "you" in view:
            given = view["you"].get("bag_order")
            if given is not None:
                shown = "bag " + " ".join(given) if given else "bag none"
                raise IllegalOrder(f"you have given your roll-phase order already ({shown}); it is final and the "
                                   "roll uses it (standing bag orders for later rounds: from the next action phase)",
                                   text)
            if player in view["awaiting"]:
                return None
        if w[1:] in (["extra"], ["none"]):
            return " ".join(w)
        return " ".join(["bag", *(pick(x, self._all_names(view), text, what="company") for x in w[1:])])

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

    def standing_fact(self, view, company, fact, order) -> int | None:
        """A public fact for a condition, read from the player's view; None when it cannot be
        met (fewer shares on the board than a buy's, or fewer empty spaces than a short's)."""
        co = company_in(view, company)
        if fact == "price":
            return co["price"]
        if fact == "pips":
            return co["pips"]
        if fact == "shares":
            return co["filled"]
        n = int(order.split()[2])
        if fact == "cost":
            return self.buy_cost(co, n) if n <= co["filled"] else None
        return self.short_gain(co, n) if n <= 10 - co["filled"] else None

    def standing_order(self, view, player, text):
        w = text.split()
        if text == "auto pass":
            return "pass" if view["phase"] == "action" and view["turns"][:1] == [player] else None
        if w[0] == "bag":
            if view["phase"] != "roll" or player not in view["awaiting"]:
                return None
            if text == "bag extra":
                return self.bag_extra(view["you"]["screen"])
            return "bag" if text == "bag none" else text
        considered = self.standing_considered(view, player, text)
        if considered is None:
            return None
        order, cond = considered
        if cond:
            company, fact, op, n = cond
            value = self.standing_fact(view, company, fact, order)
            if value is None or not self.OPS[op](value, int(n)):
                return None
        return order

    def standing_considered(self, view, player, text) -> tuple[str, tuple[str, ...]] | None:
        """(the order, its condition (company, fact, op, n) or ()) of an action-phase standing
        order `text` that is for this turn of the awaited `player`; None when it is not."""
        if text == "auto pass" or text.startswith("bag ") or view["phase"] != "action" or view["turns"][:1] != [player]:
            return None
        turn, order, cond = self.standing_read(text)
        if turn and 3 - view["turns"].count(player) != turn:
            return None
        return order, (cond if len(cond) != 3 else (order.split()[1], *cond))

    @lru_cache(maxsize=1024)  # (a held order is read at every turn, and again for its note)
    def standing_read(self, text) -> tuple[int, str, tuple[str, ...]]:
        """`standing_parts` of a standing order as the judge wrote it (any company of the game)."""
        turn, order, cond = self.standing_parts(None, text)
        return turn, order, tuple(cond)

    def standing_unmet(self, view, player, text) -> str:
        """Why a conditional order for this turn gave nothing: its fact as it was, and what the
        condition wanted ("cost was $55, wanted <= 30")."""
        considered = self.standing_considered(view, player, text)
        if considered is None or not considered[1]:
            return ""
        order, (company, fact, op, n) = considered
        value = self.standing_fact(view, company, fact, order)
        if value is None:
            verb, k, filled = order.split()[0], order.split()[2], company_in(view, company)["filled"]
            room = plural(filled, "share") + " on its board" if verb == "buy" else plural(10 - filled, "empty space")
            return f"{company} had only {room} for a {verb} of {k}"
        if self.OPS[op](value, int(n)):
            return ""
        said = {"price": f"{company}'s price was ${value}", "cost": f"cost was ${value}", "gain": f"gain was ${value}",
                "pips": f"{company}'s pips were {value}", "shares": f"{company}'s shares on its board were {value}"}
        return f"{said[fact]}, wanted {op} {n}"

    def standing_examples(self, state, player):
        names = list(state["companies"])
        return ["auto pass", "bag none", "bag extra", f"bag {names[0]}", f"bag {names[-1]} {names[0]}",
                "auto pass every round", f"turn 1 buy {names[0]} 1", "turn 2 pass", f"buy {names[1]} 2 if price <= 30",
                f"turn 1 short {names[-1]} 1 if gain >= 40", f"turn 2 dice {names[0]} 6 if pips >= 10",
                f"turn 1 rumor {names[1]} if {names[1]} shares < 5", f"pass if {names[0]} price > 40 every round"]
