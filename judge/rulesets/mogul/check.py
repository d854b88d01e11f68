"""Mogul's check of a hand-edited state: phases, chips and cards add up, the auction is sound."""
from __future__ import annotations

from collections import Counter

from judge.engine.ruleset import fail
from judge.rulesets.mogul.cards import CRASH


class Check:
    """`check` of mogul (a mixin of the registered ruleset)."""

    def check(self, state) -> None:
        seats = state["seats"]
        if list(state["players"]) != seats:
            fail(f"state.players {list(state['players'])} do not match the seats {seats}")
        if state["phase"] not in ("auction", "winner", "second", "over"):
            fail(f"state.phase '{state['phase']}' is not a phase of {self.name}")
        for p, pl in state["players"].items():
            for key in ("chips", "score"):
                if type(pl[key]) is not int:
                    fail(f"state.players.{p}.{key} must be a whole number")
            if pl["chips"] < 0:
                fail(f"state.players.{p}.chips is negative")
        for key in ("pot", "bank", "round"):
            if type(state[key]) is not int or state[key] < 0:
                fail(f"state.{key} must be a whole number >= 0")
        chips = sum(pl["chips"] for pl in state["players"].values()) + state["bank"] + state["pot"]
        if chips != self.data["chips"]:
            fail(f"chips do not add up: players, bank and pot hold {chips}, not {self.data['chips']}")
        cards = list(state["deck"]) + list(state["box"])
        if state["phase"] != "second":  # in "second" the winner holds the revealed card already
            cards.append(state["revealed"])
        for pl in state["players"].values():
            cards += pl["shares"]
        if Counter(cards) != Counter(self.all_cards()):
            fail(f"cards do not add up: deck, revealed card, shares and box are not the {len(self.all_cards())} cards of the game")
        a = state["auction"]
        for key in ("in", "out"):  # (a pass moves its player from one list to the other)
            if not isinstance(a.get(key), list) or not all(isinstance(p, str) and p in seats for p in a[key]):
                fail(f"state.auction.{key} must be a list of players")
        if state["phase"] == "auction":
            if a["turn"] not in a["in"] or set(a["in"]) & set(a["out"]):
                fail("state.auction is inconsistent: the player to act is not in the auction")
            if sorted(a["in"] + a["out"]) != sorted(seats):
                fail("state.auction.in and out must name every player once between them")
            if len(a["in"]) < 2:
                fail("state.auction.in must hold at least two players while the auction is on")
        elif state["phase"] in ("winner", "second"):
            if state["winner"] not in seats or state["second"] not in seats or state["winner"] == state["second"]:
                fail("state.winner and state.second must be two different players")
        elif state["revealed"] != CRASH:
            fail("the game is over but the crash card is not revealed")

