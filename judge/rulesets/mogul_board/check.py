"""Mogul, the board game's checks: of the game's data (games/mogul-board.toml, which a game
master may edit) and of a hand-edited state (depots, on top of mogul's checks)."""
from __future__ import annotations

from collections import Counter

from judge.engine.errors import GameFileError
from judge.engine.ruleset import fail


class Check:
    """check_data and check of mogul-board (a mixin of the registered ruleset, before mogul's
    own check, which `check` runs first)."""

    def check_data(self) -> None:
        """Raise GameFileError naming the first inconsistency of games/mogul-board.toml (a game
        master may edit it): card counts per company, placard cards, map spaces and networks."""
        def bad(what):
            raise GameFileError(f"games/{self.name}.toml: {what}")

        d = self.data
        colours = list(d["colours"])
        for table in ("companies", "deck", "networks"):
            if sorted(d[table]) != sorted(colours):
                bad(f"[{table}] must name the colours {', '.join(colours)}, not {', '.join(d[table]) or 'none'}")
        cards = Counter()
        for colour, boxes in d["deck"].items():
            for box, n in boxes.items():
                if box not in colours or box == colour:
                    bad(f"[deck.{colour}] {box} = {n}: a box colour is another company's colour ({', '.join(colours)})")
                if type(n) is not int or n < 0:
                    bad(f"[deck.{colour}] {box} = {n}: a count of cards is a whole number")
                cards[f"{colour}/{box}"] = n
        for colour, info in d["companies"].items():
            held = sum(d["deck"][colour].values())
            if info.get("shares") != held:
                bad(f"[companies.{colour}] shares = {info.get('shares')}, but [deck.{colour}] has {held} {colour} cards "
                    "(each card shows its company's total)")
        for n in range(self.min_players, self.max_players + 1):
            placard = d["placard"].get(str(n))
            if not isinstance(placard, list) or len(placard) != n:
                bad(f"[placard] {n} must list {n} start positions")
            dealt = Counter(c for seat in placard for c in seat)
            for card, k in dealt.items():
                if k > cards.get(card, 0):
                    bad(f"[placard] {n}: the card {card} is not in the deck" if not cards.get(card)
                        else f"[placard] {n}: {k} {card} cards but the deck has {cards[card]}")
        stations = d["stations"]
        for colour, spaces in d["networks"].items():
            for s in spaces:
                if s not in stations:
                    bad(f"[networks] {colour}: {s} is not a station space of [stations]")
            if len(set(spaces)) != len(spaces):
                bad(f"[networks] {colour} lists a station space twice")
        for s in stations:
            lines = [c for c, spaces in d["networks"].items() if s in spaces]
            if not 1 <= len(lines) <= 2:
                bad(f"[stations] {s} lies on {len(lines)} networks; a space lies on one or two")


    def check(self, state) -> None:
        super().check(state)
        seen = Counter()
        for p, pl in state["players"].items():
            depots = pl.get("depots")
            if not isinstance(depots, list) or not all(isinstance(s, str) and s in self.data["stations"] for s in depots):
                fail(f"state.players.{p}.depots must be a list of station spaces")
            if len(depots) > self.data["depots_each"]:
                fail(f"state.players.{p}.depots: {len(depots)} depots built, but each player has {self.data['depots_each']}")
            if type(pl["credit"]) is not bool:
                fail(f"state.players.{p}.credit must be true or false")
            seen.update(depots)
        twice = sorted(s for s, n in seen.items() if n > 1)
        if twice:
            fail(f"more than one depot on {', '.join(twice)}: one depot per station space")

