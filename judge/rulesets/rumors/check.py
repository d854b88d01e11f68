"""The check of a hand-edited rumors state: conservation of tokens, dice and cards, the phase
and the turn (`judge check`, and every load of a game file)."""
from __future__ import annotations

from collections import Counter

from judge.engine.ruleset import fail
from judge.rulesets.rumors.helpers import contains
from judge.rulesets.rumors.rules import PHASES


class Check:
    """`check` and its parts, mixed into the registered ruleset (ruleset.py)."""

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
        if "recalled" in state and (state["recalled"] is not True or any(
                n for pl in state["players"].values() for n in pl["discards"].values())):
            fail("state.recalled (every discard is back in the supplies) is true, and only while no discard holds a token")
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
            self.check_uncancelled(p, pl, names)
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

    def check_uncancelled(self, p, pl, names) -> None:
        u = pl.get("uncancelled")
        if not isinstance(u, dict) or set(u) != set(names) or any(type(n) is not int or n < 0 for n in u.values()):
            fail(f"state.players.{p}.uncancelled must give a whole number >= 0 for each company in play")
        if any(u[c] and not pl["holdings"][c] for c in names):
            fail(f"state.players.{p}.uncancelled: shares are left uncancelled only beside a holding")

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
