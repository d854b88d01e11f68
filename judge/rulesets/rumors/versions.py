"""The older versions of rumors, still played by the game files written under them (never
strand a running game): each a subclass of the newer rules overriding what differs, found by
`Ruleset.at_version`.

Version 1 (game files written before 2026-11-23): the setup kept only the tokens a holding
needed and returned the rest to the supply, and the supply paid for a multiplier board's
changes (a buy or short took or freed the difference in tokens), so the public supply showed
something of the holdings."""
from __future__ import annotations

from judge.engine.ruleset import fail
from judge.rulesets.rumors.ruleset import Rumors
from judge.rulesets.rumors.tokens import tokens


class RumorsV1(Rumors):
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
