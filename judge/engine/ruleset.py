"""What every ruleset declares and implements, and the registry that finds rulesets by name.

A ruleset is a package judge/rulesets/<name>/ (the name with - as _) whose import registers a
subclass of `Ruleset` with `@register`. `CONTRACT` below lists everything the core reads of a
ruleset or writes for it: what it declares, the hooks it implements (each hook's docstring
says exactly what it means and who calls it), the keys every view has, what is public and
the keys of the state the core owns; docs/architecture.md "A new ruleset" is the checklist made
from it (tests/engine/test_contract.py checks both, and every registered ruleset against it).

A ruleset's state is a plain dict of TOML-able values (str, int, bool, lists, dicts with
string keys; no None). The core owns seven keys of it (`CORE_STATE_KEYS`); the ruleset reads
them and writes none but `events` (through `emit`).
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import cached_property, wraps

from judge.engine import components
from judge.engine.errors import GameFileError, UsageError
from judge.engine.orders import Order
from judge.engine.paths import find

GM = "gm"  # the game master, who may be awaited (dice entered by hand, operating results)
KEEP_EVENTS = 40  # events kept in the state for reports

# The keys of the state the core owns: a ruleset reads them and writes none but `events`.
CORE_STATE_KEYS = {
    "move": "the move number: Game.submit raises it after each order (the secret orders of a "
            "simultaneous phase share one)",
    "seats": "the players in seat order, clockwise (judge/engine/seats.py walks round them)",
    "options": "the game's option values",
    "events": "the recent events, the last KEEP_EVENTS of them (write them with `emit`)",
    "ended": "set by the game master's logged order `end by agreement`: `is_over` and `awaiting` "
             "see it without the ruleset's help",
    "standing": "the players' standing orders (judge/engine/standing.py)",
    "judged": "the judge's own entries of the log replayed so far (judge/engine/facts.py), absent "
              "until the first: an upgrade, a missed deadline, a resignation, a seat handed on, the end",
}
# The keys every view of the ruleset holds (besides those the core adds, `Ruleset.view`).
VIEW_KEYS = {
    "title": "the game's title: the first line of every report and the site's page",
    "standings": "the final standings (`standings`) once the game is over, else what the "
                 "report shows of them while it runs (or []): the report's final table, the "
                 "public record's scores, the site's winners",
}
# The keys of the public view the public record's rows read, where a ruleset has them
# (judge/record/moves.py: the site's chart, prices and board): a ruleset declares which its view
# holds (`record_keys`), and tests/engine/test_contract.py holds it to them both ways.
RECORD_KEYS = {
    "players": "[{name, score or worth}]: each player's public score or worth while the game runs "
               "(the site's chart)",
    "score_track": "[{player, score}]: the public scores on a track, where `players` holds none",
    "companies": "[{name, price, par, pool}]: each company's public share price (the site's prices), "
                 "and its shares in the pool (with `market`)",
    "map": "[{spaces: [{code, owner}]}]: the board's spaces and who holds each (the site's board)",
    "market": "[[{tokens: [company]}]]: the stock market's rows of spaces and the tokens on each "
              "(the site's board)",
}

# What shows hidden facts in play (`Information.reveals`).
GENERATOR = "generator"  # the generator draws during play (dice, a card drawn at random)
PILE = "pile"  # a pile shuffled at setup is turned over in play, with no draw when it turns
SIMULTANEOUS = "simultaneous"  # players give secret orders at once, carried out when the last is in
REVEALS = (GENERATOR, PILE, SIMULTANEOUS)


# How much of an order the public sees in the record while the game runs (`Information.orders`,
# for each first word): WHOLE, or the number of its first words shown (0: none, "secret order";
# 2: "raise 10 [secret]", the rest hidden).
WHOLE = "whole"
SECRET_PART = "[secret]"  # what the public record shows for the hidden rest of an order


@dataclass(frozen=True)
class Information:
    """What of a game is hidden while it runs and what shows it, declared up front (as OpenSpiel's
    `GameType` declares its information and its chance). tests/engine/test_contract.py holds
    every ruleset to its declaration in random games; the fair-play proof needs none of it to
    find an order that showed something (it compares views), and the privacy proof holds each
    order's public form (`orders`) against every other order its player could have given."""

    secret: bool  # something is hidden from some player while the game runs: `resample_hidden` redraws it
    reveals: tuple[str, ...] = ()  # what shows hidden facts in play: GENERATOR, PILE, SIMULTANEOUS
    # What the public sees of each kind of order (its first word, every one of `verbs`): WHOLE,
    # or how many of its first words (0: none). No kind is public unless declared here.
    orders: dict[str, str | int] = field(default_factory=dict)
    # Keys of the game master's view that a player may not be shown but can always work out
    # from what they have seen (the cards left in a pile whose cards were all turned face up):
    # not shown, yet not hidden. The proofs demand no redraw of them, and check that no redraw
    # for a player changes them (tests/proofs/test_privacy.py).
    deducible: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    name: str
    default: bool | int | str
    help: str
    choices: tuple = ()

    def parse(self, text: str):
        t = text.strip().lower()
        if isinstance(self.default, bool):
            if t in ("1", "true", "yes", "on", ""):
                return True
            if t in ("0", "false", "no", "off"):
                return False
            raise UsageError(f"option {self.name} takes true or false, not '{text}'")
        if isinstance(self.default, int):
            if not t.isdigit() or len(t) > 9:
                raise UsageError(f"option {self.name} takes a whole number, not '{text}'")
            return int(t)
        if self.choices and t not in self.choices:
            raise UsageError(f"option {self.name} is one of {', '.join(self.choices)}, not '{text}'")
        return t

    def describe(self) -> str:
        default = str(self.default).lower() if isinstance(self.default, bool) else self.default
        choices = f" ({'/'.join(self.choices)})" if self.choices else ""
        return f"{self.name}={default}{choices}: {self.help}"


def declared_public(info: Information | None, text: str) -> str | None:
    """`text` as `info.orders` shows it to the public (Ruleset.public_order's default)."""
    words = text.split()
    shown = info.orders.get(words[0].lower()) if info and words else None
    if shown == WHOLE:
        return text
    if not isinstance(shown, int) or shown <= 0:
        return None
    return " ".join(words[:shown] + [SECRET_PART])  # (always: how many words follow is hidden too)


def emit(state: dict, text: str, to: list[str] | None = None) -> None:
    """Record an event of the current move: public, or seen only by the players in `to`."""
    event = {"move": state["move"], "text": text}
    if to is not None:
        event["to"] = list(to)
    state["events"].append(event)


def visible_events(state: dict, player: str | None) -> list[dict]:
    return [
        {"move": e["move"], "text": e["text"]}
        for e in state["events"]
        if "to" not in e or player == GM or (player is not None and player in e["to"])
    ]


def new_events(before: list[dict], after: list[dict]) -> list[dict]:
    """The events of `after` that `before` did not hold yet (the state keeps the last
    KEEP_EVENTS, so the oldest of `before` may be gone from `after`)."""
    for start in range(len(before) + 1):
        kept = before[start:]
        if after[:len(kept)] == kept:
            return after[len(kept):]
    return after


def _agreed_end(method, ended):
    """A ruleset's `is_over` or `awaiting` that also sees an end the players agreed on (the
    core's state key `ended`, set by the logged order "gm end by agreement", judge/engine/game.py):
    the game is then over in every ruleset, scored as it stands."""
    @wraps(method)
    def hook(self, state):
        return ended if state.get("ended") else method(self, state)

    return hook


class Ruleset:
    """The declared metadata and the hooks of one game. Instances are stateless."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, ended in (("is_over", True), ("awaiting", [])):
            if name in cls.__dict__:
                setattr(cls, name, _agreed_end(cls.__dict__[name], ended))

    # ---- declared (class attributes; CONTRACT says what reads each) -------------------------
    name = ""  # the registry's name: judge/rulesets/<name with - as _>/ registers it
    title = ""
    version = 1  # the rules a new game is played by; bump it when a change alters play
    # Older versions still played for the game files that were written under them (never
    # strand a running game): each a subclass of the newer rules that overrides what differs
    # and sets its own `version` (`at_version`).
    old_versions: tuple[int, ...] = ()
    # What each version changed from the one before, a few short lines each ({version: (line, ...)}),
    # for `judge upgrade` to tell the game master what a game moved to the current version plays by.
    changes: dict[int, tuple[str, ...]] = {}
    min_players = 3
    max_players = 6
    options: tuple[Option, ...] = ()
    max_moves = 1000  # no game of this ruleset runs longer (accepted orders)
    data_name = ""  # games/<data_name>.toml; defaults to the ruleset's name
    verbs: tuple[str, ...] = ()  # the first word of every order, the players' and the game master's
    information: Information | None = None  # what is hidden and what shows it (every ruleset declares it)
    score_parts: tuple[str, ...] = ()  # the final standings' columns that add up to `score`
    # What the sensible bot does by standing orders (`bot_standing`), held to by tests/engine/test_bots.py:
    bot_standing_exact = False  # the same public orders, so the same games, as the bot ordering by hand
    bot_exchanges_a_round = 0.0  # at most this many exchanges by mail a round (0: fewer than by hand)
    # What each key of a setup file (`judge new --setup`) sets instead of the judge's draws, in
    # a few public words ({"deck": "the pile"}): every report names them (Game.set_by_gm).
    setup_words: dict[str, str] = {}
    setup_example: str = ""  # a setup file of it (TOML), for the tests of what setup_words names
    # How its prompts name each kind of order (the first word of an order -> a regular
    # expression): tests/proofs/test_prompts.py checks that every prompt names exactly the
    # kinds of the legal orders, written apart from the words `prompt_words` writes.
    prompt_phrases: dict[str, str] = {}
    # Which of RECORD_KEYS its public view holds, for the record's rows and the site to draw
    # (none: no chart of scores, no prices, no board). Every ruleset declares it.
    record_keys: tuple[str, ...] | None = None

    @cached_property
    def data(self) -> dict:
        return components.load(find(f"games/{self.data_name or self.name}.toml"))

    def at_version(self, version: int) -> "Ruleset":
        """This ruleset as it played in `version` (itself for the current one). Raise
        GameFileError for a version this judge does not know."""
        if version == self.version:
            return self
        if version not in self.old_versions:
            newer = "a newer judge; upgrade the judge to play it" if version > self.version else "an older judge"
            raise GameFileError(
                f"it was written by {self.name} version {version} ({newer}); this judge plays "
                f"versions {', '.join(map(str, sorted({*self.old_versions, self.version})))}")
        cache = self.__dict__.setdefault("_versions", {})
        if version not in cache:
            kind = self._version_class(version)
            if kind is not None:
                old = kind()
            else:  # a ruleset that still tests `self.version` in its methods
                old = object.__new__(type(self))
                old.__dict__.update({k: v for k, v in self.__dict__.items() if k != "_versions"})
                old.version = version
            cache[version] = old
        return cache[version]

    def set_by_setup(self, setup: dict) -> list[str]:
        """What `setup` sets, in public words (its keys, in the order of `setup_words`; never
        their values, which stay secret until the game is over)."""
        order = list(self.setup_words)
        keys = sorted(setup, key=lambda k: (order.index(k) if k in order else len(order), k))
        return [self.setup_words.get(k, k.replace("_", " ")) for k in keys]

    def changes_since(self, version: int) -> list[str]:
        """What changed for a game moved from `version` to the current one (`changes`)."""
        return [line for v in sorted(self.changes) if version < v <= self.version for line in self.changes[v]]

    def _version_class(self, version: int):
        """The subclass that plays `version` of these rules, or None. An older version is a
        subclass of the newer one (as python-chess does variants), overriding what differs, and
        is not registered: `at_version` finds it among the ruleset's subclasses."""
        todo = list(type(self).__subclasses__())
        while todo:
            kind = todo.pop()
            if kind.__dict__.get("version") == version and kind.name == self.name:
                return kind
            todo += kind.__subclasses__()
        return None

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options) or "none"
        raise UsageError(f"ruleset {self.name} has no option '{name}' (options: {known})")

    def default_options(self) -> dict:
        return {o.name: o.default for o in self.options}

    # ---- hooks every ruleset implements (each docstring: what it means, then who calls it) ----
    def setup(self, state: dict, options: dict, rng, setup: dict) -> None:
        """Fill the initial state (which already holds move, seats, options and events).
        `setup` fixes what would otherwise be drawn from `rng`; raise UsageError if it is bad.
        Called by: Game.new and Game.replay (judge/engine/game.py)."""
        raise NotImplementedError

    def awaiting(self, state: dict) -> list[str]:
        """The players (or GM) whose orders are awaited now; empty when the game is over.
        Public. Called by: Game (whose turn it is, views, status), standing orders, bots,
        judge tick and the gateway."""
        raise NotImplementedError

    def parse(self, state: dict, player: str, text: str) -> Order:
        """The only legality check: the order `text` of `player` in `state`. `player` is awaited,
        or is GM (game master orders reach parse whether or not GM is awaited: refuse those out
        of place with NotYourTurn or IllegalOrder). Raise OrderSyntaxError, IllegalOrder,
        AmbiguousOrder with the reason and `text`. Every order begins with one of `verbs`.
        Called by: Game.submit and Game.replay, before anything changes."""
        raise NotImplementedError

    def apply(self, state: dict, order: Order, rng) -> None:
        """Carry out a parsed order, changing `state` in place and emitting events (`emit`);
        never `move`, which the core raises. Called by: Game.submit and Game.replay."""
        raise NotImplementedError

    def legal_orders(self, state: dict, player: str) -> list[str]:
        """Every order `player` may give now, spelled as the judge accepts them (each parses).
        Called by: Game.view (`orders`, for an awaited player), `default_order`, judge orders,
        the random bot."""
        raise NotImplementedError

    def prompt_words(self, state: dict, player: str, kinds: list[str], legal: list[str]) -> str:
        """What `player` is awaited for, in a few words, naming exactly the `kinds` of order
        (first words: "sell", "buy", ...) and no other; `legal` is `legal_orders`. Public: it
        appears in every report and in the refusal sent to a player who orders out of turn.
        Called by: `prompt` alone, never directly."""
        raise NotImplementedError

    def is_over(self, state: dict) -> bool:
        """Whether the game has ended (an agreed end too: the core wraps the hook). Public.
        Called by: Game and nearly every caller of it."""
        raise NotImplementedError

    def standings(self, state: dict) -> list[dict]:
        """[{player, rank, score, ...}] best first, every player once (whole numbers); at the
        end the final ranking (`score` then made of `score_parts`). Public at every move:
        while the game runs, a ruleset whose scores are secret gives rows of {player, secret,
        public} instead, saying in words what is secret and what is public. Called by: judge
        standings, the public record (a row every move), the league, `winners`, judge simulate."""
        raise NotImplementedError

    def view(self, state: dict, player: str | None) -> dict:
        """What `player` may see (None: the public, GM: everything). JSON-able, with every key
        of VIEW_KEYS. The core adds ruleset, move, player, awaiting, prompts, events,
        game_over, commitment and (for the awaited player) orders. Called by: Game.view, the
        only door to a report, a bot, a standing order and the public record's rows."""
        raise NotImplementedError

    def check(self, state: dict) -> None:
        """Raise GameFileError naming what is inconsistent (conservation, phase, turn).
        Called by: loading a game file (Game.from_dict); the random-play test after every
        order."""
        raise NotImplementedError

    def summary(self, state: dict) -> dict:
        """{round, phase, ...}: the game's own round (a whole number that never goes back,
        above 0 once the game is over) and phase, in public words. Public. Called by:
        Game.status (judge status), `standing_round` (how long a standing order lasts),
        bots.play_out and judge simulate (rounds), the proofs (where a round or phase ends)."""
        raise NotImplementedError

    def resample_hidden(self, state: dict, player: str, rng) -> dict:
        """A changed copy of `state` in which what `player` (None: the public, who knows only
        the public view) may not know (other players' secrets,
        the order of undealt cards, others' secret orders) is redrawn consistently with all that
        `player` has seen. The privacy tests check that `player`'s whole information stays
        byte-for-byte the same; the change must be real whenever something is hidden from
        `player`. Called by: the privacy and fair-play proofs (tests/proofs/), never the judge."""
        raise NotImplementedError

    def bot_order(self, view: dict, rng) -> str:
        """A sensible order chosen from the player's own view only (`view` with `orders`;
        the default, a random legal order, is the random bot's, and every ruleset has a
        sensible one of its own). Called by: judge bot, judge play, judge simulate, a missed
        deadline without a default order."""
        return rng.choice(view["orders"])

    # ---- hooks with a default -------------------------------------------------------------
    def prompt(self, state: dict, player: str, legal: list[str] | None = None) -> str:
        """What `player` is awaited for, in a few words (status, reports, the waiting line, a
        refusal out of turn): the kinds of order in `legal_orders` (`legal`, when the caller has
        them already) put in words by `prompt_words`, so that no prompt offers what `judge
        orders` does not list. The one legality; never override this."""
        if legal is None:
            legal = self.legal_orders(state, player)
        kinds = self.prompt_kinds(state, player, legal)
        return self.prompt_words(state, player, kinds, legal) if kinds else ""

    def prompt_kinds(self, state: dict, player: str, legal: list[str] | None = None) -> list[str]:
        """The kinds of order a prompt names: the first words of `legal_orders`, and the kinds
        of `secret_kinds` (tests/proofs/test_prompts.py compares them over random games)."""
        if legal is None:
            legal = self.legal_orders(state, player)
        return list(dict.fromkeys([*(o.split(None, 1)[0] for o in legal), *self.secret_kinds(state, player)]))

    def secret_kinds(self, state: dict, player: str) -> tuple[str, ...]:
        """Kinds of order the prompt names even when `player` may not give one now, because
        whether they may is their secret (Mogul's bid: their chips): the prompt is public, and
        their own list of orders (`judge orders`, the report's "Your orders now") is exact.
        Called by: `prompt_kinds`, for `prompt` (which no ruleset overrides)."""
        return ()

    def revealed(self, before: dict, after: dict) -> str:
        """What hidden information one order showed in going from `before` to `after` (a card
        turned, another player's secret order carried out), in a few public words such as
        "revealed the next card", or "". Decide it from public facts only: the orders after
        it in the same batch are left unjudged. Draws from the generator count as revealing
        without this hook; a ruleset that turns a shuffled pile (PILE) says it here.
        Called by: Game.cut_reason, for every order of a batch but the last."""
        return ""

    def public_order(self, text: str) -> str | None:
        """A logged order (its canonical text) as the public sees it in the public record while
        the game runs, or None for a secret order (the record shows "secret order"). Decide it
        from the text alone. Default: as `information.orders` declares for its first word (its
        first words, the rest SECRET_PART; a kind not declared there is a secret order).
        Called by: judge/record/entries.py `public_entry` (the one place that asks), the
        notices of judge tick and the gateway."""
        return declared_public(self.information, text)

    def default_order(self, state: dict, player: str) -> str | None:
        """The order given for a player who misses a deadline, or None for none (the sensible
        bot's then). Called by: judge tick (judge/gateway/deadlines.py)."""
        return "pass" if "pass" in self.legal_orders(state, player) else None

    def order_forms(self, state: dict, player: str) -> list:
        """The orders `player` may give now as a short grammar (judge/engine/grammar.py): templates
        with the values each slot may take, standing for exactly `legal_orders`. Like
        legal_orders it may use only what `player` may see. Default: grouped legal orders.
        Called by: Game.view for a report (the order block and its example)."""
        from judge.engine.grammar import from_orders

        return from_orders(self.legal_orders(state, player))

    def report_view(self, state: dict, player: str | None, view: dict) -> None:
        """Add to `player`'s `view` what only their report shows, never a policy's input (a
        bot or standing order reads the view without it): help for a person that costs too
        much to compute at every bot decision. The same rule as `view`: only what they may see.
        Called by: Game.view for a report."""

    def check_players(self, players: list[str], options: dict) -> None:
        """Refuse (UsageError) a table these rules cannot seat with these options.
        Called by: Game.new."""
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            raise UsageError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {n}"
            )

    # ---- standing orders (judge/engine/standing.py runs them; each ruleset has its vocabulary) ----
    standing_starts: tuple[str, ...] = ()  # the first words of this ruleset's standing orders (none: it has none)
    standing_forms: tuple[str, ...] = ()  # how they are written, for messages and reports

    def standing_parse(self, view: dict | None, player: str, text: str) -> str | None:
        """The canonical text of the standing order `text` (`every round` taken off), or None
        when `text` is not one (an ordinary order). Decide on syntax and the game's data, and
        on `view` (the player's own, with `awaiting`) only to tell a standing order from an
        ordinary one; `view` is None on replay. Raise OrderSyntaxError for a malformed one.
        Called by: judge/engine/standing.py for a line that begins with `standing_starts`."""
        return None

    def standing_order(self, view: dict, player: str, text: str) -> str | None:
        """The order the standing order `text` of the awaited `player` gives now, or None when
        it does not apply. Raise IllegalOrder when it applies but cannot be carried out as
        written. `view` is the player's own, as a bot reads it (`Game.view(report=False)`: the
        ruleset's view, `awaiting`, `player`, `move` and, when awaited, `orders`), so a standing
        order cannot depend on a secret. The core checks the order with `parse`. Called by:
        judge/engine/standing.py after every order."""
        return None

    def standing_unmet(self, view: dict, player: str, text: str) -> str:
        """Why the standing order `text` of the awaited `player` gave no order now (after
        `standing_order` gave None) when it was considered and its condition is false, in
        public words from `view` ("cost was $55, wanted <= 30"); "" when it does not apply now
        for any other reason (not its turn or phase). Its owner's next report says it.
        Called by: judge/engine/standing.py."""
        return ""

    def standing_stops(self, view: dict, order: Order, player: str, text: str) -> str:
        """Why the standing order `text` of `player` stops now that `order` was carried out
        (public words, e.g. a sale of a company they hold), or "". `view`: the player's own,
        after the order (a mapping built on the first look: decide from `order` first).
        Called by: judge/engine/standing.py after every order."""
        return ""

    def standing_round(self, state: dict) -> int:
        """The game's own round: standing orders last until it changes (unless `every round`).
        Default: `summary`'s round. Called by: judge/engine/standing.py, judge simulate."""
        return self.summary(state).get("round", 0)

    def standing_examples(self, state: dict, player: str) -> list[str]:
        """Standing orders `player` might hold now (for the proofs, which redraw them; some
        whenever the ruleset has standing orders). Called by: the proofs and the tests."""
        return []

    def bot_standing(self, view: dict, rng, then: str | None = None) -> list[str]:
        """Standing orders the sensible bot writes from its view: at the start of a round
        (`then` None), or with the order `then` it is about to give. Default: none.
        Called by: bots.play_out(standing=True), judge simulate --standing."""
        return []

    def winners(self, state: dict) -> list[str]:
        """The players ranked first once the game is over. Derived: `standings`, `is_over`."""
        if not self.is_over(state):
            return []
        return [s["player"] for s in self.standings(state) if s["rank"] == 1]


# ---- the contract: everything the core reads of a ruleset or writes for it -------------------
# docs/architecture.md "A new ruleset" is `checklist()`; tests/engine/test_contract.py checks it
# and every registered ruleset against it.
FILES = {
    "judge/rulesets/<module>/": "the package, <module> being the name with - as _; its "
                                "__init__.py imports the module that registers the class (`@register`)",
    "games/<name>.toml": "its data (`self.data`), unless `data_name` names another file",
    "templates/<name>/report.txt.j2": "its report, extending templates/base.txt.j2 (its block "
                                      "`final_table` shows every one of `score_parts`): lines of at "
                                      "most 78 columns, at most 80 lines up to 4 players (120 above), "
                                      "an order block of at most 12",
    "templates/<name>/help.txt.j2": "`judge help NAME`: Orders (every one of `verbs`), Terms in the "
                                    "report, Rules in short, written to fit 78 columns; a topic in "
                                    "help-TOPIC.txt.j2",
    "tests/golden/<name>.toml": "its golden game: `python tests/golden/record.py NAME`",
    "tests/golden/files/": "a game file written under each of `old_versions` (none without them)",
    "tests/rulesets/<module>/": "its own tests: the rulebook's examples, rule by rule",
    "docs/<name>.md": "its page, each rule and its test; once the README's table of rulesets "
                      "lists it, a sample report in docs/samples.md",
}
DECLARED = {
    "name": "the registry's name, lower case (`judge new NAME`, the game file, templates/<name>/)",
    "title": "the game's name for people: `judge rulesets`, the view's `title`",
    "version": "the rules a new game is played by: bump it when a change alters play",
    "old_versions": "the older versions still played, each a subclass of the newer rules "
                    "(`at_version`), with `changes` saying what each version changed (`judge upgrade`)",
    "min_players": "with `max_players` and `options` (each an `Option`), the tables a game may be "
                   "set up with; the registry-wide tests play every one",
    "max_moves": "no game runs longer (accepted orders): bots.play_out stops there",
    "verbs": "the first word of every order, the players' and the game master's: a line of a "
             "mail that begins with one is an order (judge/gateway/inbox.py)",
    "information": "`Information(secret, reveals, orders, deducible)`: whether anything is hidden "
                   "while the game runs; what shows it in play: GENERATOR, PILE (needs `revealed`), "
                   "SIMULTANEOUS; what the public sees of each kind of order (`orders`: WHOLE, or "
                   "its first N words; undeclared: nothing); what a player's view leaves out but "
                   "they can work out (`deducible`)",
    "score_parts": "the columns of the final standings that add up to `score`",
    "setup_example": "with `setup_words`: a setup file of it (TOML) that sets something, for "
                     "the tests of what every report, the record, the site and `judge audit` name",
    "prompt_phrases": "how its prompts name each kind of order, a regular expression for each first "
                      "word: every prompt must name exactly the kinds of the legal orders "
                      "(tests/proofs/test_prompts.py), whatever `prompt_words` writes",
    "setup_words": "what each key of its setup file (`judge new --setup`) sets instead of the judge's "
                   "draws, in a few public words ({\"deck\": \"the pile\"}): every report names them, "
                   "never their values (Game.set_by_gm)",
    "record_keys": "which keys of RECORD_KEYS its public view holds (none: `()`), as "
                   "judge/record/moves.py reads them: the site's chart, prices and board; the "
                   "contract test names one declared that the view lacks, or held but not declared",
    "standing_starts": "the first words of its standing orders, with `standing_forms`; none (the "
                       "default) for a ruleset without standing orders",
    "bot_standing_exact": "with `bot_exchanges_a_round`: what the sensible bot's standing orders "
                          "(`bot_standing`) achieve, held to by tests/engine/test_bots.py",
}
HOOKS = ("setup", "awaiting", "parse", "apply", "legal_orders", "prompt_words", "is_over", "standings", "view",
         "check", "summary", "resample_hidden", "bot_order")
DEFAULT_HOOKS = ("secret_kinds", "revealed", "public_order", "default_order", "order_forms", "report_view", "check_players",
                 "standing_parse", "standing_order", "standing_unmet", "standing_stops", "standing_round",
                 "standing_examples", "bot_standing")
PUBLIC = {
    "standings": "at every move: `judge standings`, the public record's scores, the league",
    "summary": "`judge status` prints it to anyone",
    "awaiting": "every report says whom the game waits for",
    "prompt": "(made by the core from `prompt_words`) every report, the waiting line, the refusal "
              "of an order out of turn",
    "public_order": "the public record's log while the game runs",
}
CONTRACT = {
    "Files": FILES,
    "Declared (class attributes)": DECLARED,
    "Hooks every ruleset implements (`Ruleset`'s docstring of each says it in full)": HOOKS,
    "Hooks with a default, overridden where the game needs them": DEFAULT_HOOKS,
    "Keys every view holds (the core adds the others: `Ruleset.view`)": VIEW_KEYS,
    "Keys of the public view the record and the site read, as `record_keys` declares": RECORD_KEYS,
    "Public: anyone may read them at any move, so no secret is in them": PUBLIC,
    "The core's keys of the state: read them, write none but `events` (through `emit`)": CORE_STATE_KEYS,
}


def hook_says(name: str) -> str:
    """A hook's first sentence and who calls it, from its docstring."""
    import inspect

    method = getattr(Ruleset, name)
    text = " ".join(inspect.getdoc(method).split())
    first = re.split(r"(?<!e\.g)\. (?=[A-Z`])", text)[0].rstrip(".") + "."
    called = text[text.index("Called by:"):] if "Called by:" in text else ""
    signature = f"({', '.join(list(inspect.signature(method).parameters)[1:])})"
    return f"`{name}{signature}`: {first}" + (f" {called}" if called else "")


def checklist() -> str:
    """docs/architecture.md's checklist of a new ruleset, made from CONTRACT (markdown)."""
    import textwrap

    out = []
    for heading, terms in CONTRACT.items():
        out.append(f"{heading}:\n")
        for name in terms:
            line = hook_says(name) if isinstance(terms, tuple) else f"`{name}`: {terms[name]}"
            out.append(textwrap.fill(line, 95, initial_indent="- [ ] ", subsequent_indent="  ",
                                     break_long_words=False, break_on_hyphens=False))
        out.append("")
    return "\n".join(out)


def ranked(rows: list[dict], key) -> list[dict]:
    """Sort standings rows best first (smallest `key` first) and number their `rank`;
    rows whose keys are equal share a rank."""
    rows.sort(key=key)
    for i, r in enumerate(rows):
        r["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(r) else i + 1
    return rows


def fail(message: str):
    raise GameFileError(message)


_REGISTRY: dict[str, Ruleset] = {}


def register(cls):
    _REGISTRY[cls.name] = cls()
    return cls


def get(name: str) -> Ruleset:
    """The ruleset called `name`, in any case (`Mogul`, `STOCK-ROUND`)."""
    if name not in _REGISTRY and name.lower() in _REGISTRY:
        name = name.lower()
    if name not in _REGISTRY:
        name = name.lower()
        module = name.replace("-", "_")
        if module.isidentifier() and not module.startswith("_"):
            try:
                importlib.import_module(f"judge.rulesets.{module}")
            except ModuleNotFoundError as e:
                if e.name != f"judge.rulesets.{module}":
                    raise
    if name not in _REGISTRY:
        known = ", ".join(r.name for r in every())
        raise UsageError(f"unknown ruleset '{name}' (known: {known})")
    return _REGISTRY[name]


def every() -> list[Ruleset]:
    for module in _module_names():
        importlib.import_module(f"judge.rulesets.{module}")
    return sorted(_REGISTRY.values(), key=lambda r: r.name)


def _module_names() -> list[str]:
    import pkgutil  # here: loading one game needs no listing of the rulesets

    rulesets = importlib.import_module("judge.rulesets")  # (the layer above, found by name)
    return [m.name for m in pkgutil.iter_modules(rulesets.__path__) if not m.name.startswith("_")]
