"""The older versions of rumors, still played by the game files written under them (never
strand a running game): each a subclass of the newer rules overriding what differs, found by
`Ruleset.at_version`.

Version 3 (game files written before 2026-11-27): a refusal of dice named the faces missing,
not which die: with dice 3 4 6, `dice Banana 6 6` was refused with "there is no 6 among them"
(version 4: "no second 6"). The words are kept, since a standing order's note saves them.

Version 2 (game files written before 2026-11-24): a short the supply could not cover even
with every discard returned was refused, which told the player the total of all multiplier
boards; `bag none` and `bag extra` were no roll-phase orders, and a second `bag` line after
the roll-phase order became a standing order that was never carried out; an end the players
agreed on was scored on money alone, the holdings not cashed out.

Version 1 (game files written before 2026-11-23): the setup kept only the tokens a holding
needed and returned the rest to the supply, and the supply paid for a multiplier board's
changes (a buy or short took or freed the difference in tokens), so the public supply showed
something of the holdings."""
from __future__ import annotations

from collections import Counter

from judge.engine.orders import pick
from judge.engine.ruleset import fail
from judge.rulesets.rumors.ruleset import Rumors
from judge.rulesets.rumors.tokens import tokens


class RumorsV3(Rumors):
    version = 3

    def dice_missing(self, board, faces) -> str:
        return "no " + " ".join(map(str, sorted((Counter(faces) - Counter(board)).elements())))


class RumorsV2(RumorsV3):
    version = 2
    max_moves = 350

    def mark_recalled(self, state) -> None:
        pass

    def short_covered(self, state, player, company, n) -> bool:
        return self.tokens_needed(state, player, company, -n) <= self.tokens_available(state, company)

    def short_refusal(self, state, company, n) -> str:
        return f"the {company} supply has too few stock tokens to short {n}"

    def do_short(self, state, order, rng) -> None:
        p, (c, n) = order.player, order.args
        co = state["companies"][c]
        gain = self.short_gain(co, n)
        if self.tokens_needed(state, p, c, -n) > co["supply"]:
            self.recall_discards(state)
        self.short_made(state, p, c, n, gain)

    def revealed(self, before, after) -> str:
        return self.roll_revealed(before, after)

    def secret_kinds(self, state, player) -> tuple[str, ...]:
        # a short's legality counted every player's discards
        return ("buy", "short", "rumor") if state["phase"] == "action" else ()

    def shown_short_counts(self, state, player, c) -> list[int]:
        # the legal shorts depend on every player's discards: only the awaited player, whose
        # list of orders shows them already, sees them; the others the board's empty spaces
        if player in self.awaiting(state):
            return self.short_counts(state, player, c)
        return list(range(1, 11 - state["companies"][c]["filled"]))

    def bag_words(self, screen, args):
        return args

    def standing_bag(self, view, player, w, text):
        if w == ["bag", "extra"]:
            return "bag extra"
        if view is not None and view["phase"] == "roll" and player in view["awaiting"]:
            return None  # the roll phase's order itself
        if w == ["bag", "none"]:
            return "bag none"
        return " ".join(["bag", *(pick(x, self._all_names(view), text, what="company") for x in w[1:])])

    def cashed_out(self, state) -> bool:
        return True  # (an agreed end: the money alone, as if cashed out)


class RumorsV1(RumorsV2):
    version = 1

    def new_player(self, names) -> dict:
        pl = super().new_player(names)
        del pl["uncancelled"]
        return pl

    def bag_tokens_kept(self) -> int:
        return 0  # the tokens a holding does not need go back to the supply (take_drawn)

    def take_drawn(self, state, player, company, n) -> None:
        state["players"][player]["holdings"][company] = n
        state["companies"][company]["supply"] -= tokens(n)

    def tokens_needed(self, state, player, company, delta) -> int:
        old = state["players"][player]["holdings"][company]
        return max(0, tokens(old + delta) - tokens(old)) - delta  # a buy returns delta board tokens

    def take_bought(self, state, player, company, n) -> None:
        state["companies"][company]["supply"] += n
        self.change_holding(state, player, company, n)

    def take_shorted(self, state, player, company, n) -> None:
        self.change_holding(state, player, company, -n)

    def change_holding(self, state, player, company, delta) -> None:
        """Move `player`'s holding by `delta`, taking multiplier tokens from the supply
        (recalling discards if it runs short) and putting freed ones into the discards."""
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

    def check_uncancelled(self, p, pl, names) -> None:
        if "uncancelled" in pl:
            fail(f"state.players.{p}.uncancelled belongs to version 2 of {self.name}, not version {self.version}")
