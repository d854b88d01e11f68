"""A game: header, random generator, state and log; submitting orders; replay.

The log of accepted orders is the source of truth: `replay()` rebuilds the state from the
header (ruleset, options, setup, seed) and the log, and must give the saved state exactly.
"""
from __future__ import annotations

import marshal
import os
import re

from judge.engine import chain, facts, grammar, ruleset as registry
from judge.engine.errors import (
    LogEndsEarly,
    GameFileError,
    GameOver,
    JudgeError,
    NotYourTurn,
    OrderSyntaxError,
    StaleOrder,
    EarlyOrder,
    UnknownPlayer,
    UsageError,
    OrderError,
)
from judge.engine.orderlog import Log, LogEntry
from judge.engine.orders import Order, comment_note, order_lines, split_move
from judge.engine import standing
from judge.engine.rng import KEY_HEX, Rng
from judge.engine.ruleset import GM, KEEP_EVENTS, Ruleset, emit, visible_events

# The file format a new game is written in. 2: the judge logs the league's facts as entries of
# its own (judge/engine/facts.py; format 1 kept them in [meta.league]), and the commitment names
# the format, so that no file can pass for the other. Both are read.
FORMAT = 2
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")
# The top-level keys of a game file (tables last, [log] the very last: judge/orderlog.py).
KEYS = ("format", "ruleset", "ruleset_version", "commitment", "players", "options", "setup", "rng", "meta", "state",
        "corrections", "log")
# The game master's order that ends any game early when its players agree (the mail command
# `agree end`, judge/gateway/selfservice.py): logged like any order, so replay ends it exactly.
AGREED_END = "end by agreement"


def _copy(value):
    """A deep copy of a state (TOML values only, which marshal copies fastest)."""
    return marshal.loads(marshal.dumps(value))


class Accepted(list):
    """The orders a submission applied; `unjudged` holds the lines after an order that
    revealed hidden information (`revealed_by`, which `revealed` what), left unjudged."""

    unjudged: list[str] = []
    revealed_by = revealed = ""

    def not_judged(self, lines: list[str] | None = None) -> list[str]:
        """One line per unjudged order (or per line of `lines`, which come after the batch), naming
        the order that cut the batch (public words only)."""
        return [f'not judged "{line}": it comes after "{self.revealed_by}", which {self.revealed}; '
                "send it again once you have seen the result" for line in (self.unjudged if lines is None else lines)]


def commitment(rs: Ruleset, players, options, setup, seed: int, salt: str, key: str = "",
               file_format: int = 1) -> str:
    """The SHA-256 that binds a game to everything hidden at its start: published in every
    report from move 1, checked by `judge audit` once the seed, the generator's key (games
    made since there is one) and the salt are revealed; and to its file format (from 2)."""
    import json

    try:
        from _sha256 import sha256  # what hashlib.sha256 is, without loading OpenSSL (as rng.py does)
    except ImportError:  # pragma: no cover - another Python
        from hashlib import sha256

    made = {"ruleset": rs.name, "ruleset_version": rs.version, "players": list(players),
            "options": options, "setup": setup, "seed": seed, "salt": salt, **({"key": key} if key else {}),
            **({"format": file_format} if file_format > 1 else {})}
    return sha256(json.dumps(made, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Game:
    def __init__(self, ruleset: Ruleset, players, options, setup, rng: Rng, state, log, meta=None,
                 salt: str = "", commitment: str = "", corrections=None, file_format: int = FORMAT):
        self.ruleset = ruleset
        self.players = list(players)
        self.options = options
        self.setup = setup
        self.rng = rng
        self.state = state
        self.log = log
        self.meta = meta if meta is not None else {}
        # Games made before the judge committed to its seed have neither (they still play).
        self.salt = salt
        self.commitment = commitment
        # The game master's corrections (rollbacks, seats handed on): judge/record/corrections.py.
        self.corrections = corrections if corrections is not None else []
        self.format = file_format  # the file format (FORMAT): what the file holds and the judge logs

    # ---- creating -----------------------------------------------------------------------
    @classmethod
    def new(cls, ruleset_name: str, players: list[str], *, seed: int | None = None,
            options: dict[str, str] | None = None, setup: dict | None = None, salt: str | None = None,
            key: str | None = None) -> "Game":
        """A new game. Without a `seed` the judge draws one (48 bits) and a secret key for the
        generator (128 bits, `key`, unless given); a game made with a seed draws as games always
        did, without a key, so that the same seed gives the same game."""
        rs = registry.get(ruleset_name)
        check_names(players)
        values = rs.default_options()
        for name, text in (options or {}).items():
            values[name] = rs.option(name).parse(text) if isinstance(text, str) else text
        rs.check_players(players, values)
        if key is None:
            key = os.urandom(KEY_HEX // 2).hex() if seed is None else ""
        if seed is None:
            seed = int.from_bytes(os.urandom(6), "big")
        if not 0 <= seed < 2**63:
            raise UsageError("the seed is a whole number from 0 to 2**63-1")
        setup = setup or {}
        rng = Rng(seed, key=key)
        state = cls._initial_state(rs, players, values, rng, setup)
        salt = os.urandom(16).hex() if salt is None else salt
        return cls(rs, players, values, setup, rng, state, [], dict(standing.NEW_GAME),
                   salt=salt, commitment=commitment(rs, players, values, setup, seed, salt, key, FORMAT))

    @staticmethod
    def _initial_state(rs, players, options, rng, setup) -> dict:
        state = {"move": 1, "seats": list(players), "options": dict(options), "events": []}
        rs.setup(state, options, rng, setup)
        del state["events"][:-KEEP_EVENTS]
        return state

    # ---- asking -------------------------------------------------------------------------
    @property
    def move(self) -> int:
        return self.state["move"]

    def awaiting(self) -> list[str]:
        return self.ruleset.awaiting(self.state)

    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def player_name(self, name: str, line: str = "") -> str:
        """The seated player called `name` (any case), or GM. A seat handed on to a new player
        (judge replace) answers to the new player's name as well: the seat keeps its name."""
        if name.lower() == GM:
            return GM
        for p in self.players:
            if p.lower() == name.lower():
                return p
        handed = set()
        for c in reversed(self.corrections):
            if c.get("kind") == "replace" and c.get("seat") not in handed:
                handed.add(c.get("seat"))
                if str(c.get("player", "")).lower() == name.lower():
                    return c["seat"]
        raise UnknownPlayer(f"no player '{name}' in this game (players: {', '.join(self.players)})", line)

    def view(self, player: str | None, *, report: bool = True, state: dict | None = None) -> dict:
        """The ruleset's view plus what every report shows: who is awaited and for what (public),
        the events `player` may see, and `player`'s own orders now (for a `report`, also as the
        short grammar of orders; a bot or a standing order reads only the list, and neither
        events nor prompts).
        `state`: another position of this game (standing orders are judged mid-batch)."""
        rs, state = self.ruleset, self.state if state is None else state
        v = rs.view(state, player)
        awaiting = rs.awaiting(state)
        v.setdefault("ruleset", rs.name)
        v.setdefault("move", state["move"])
        v.setdefault("player", player or "")
        v["awaiting"] = awaiting
        orders = v["orders"] if "orders" in v else rs.legal_orders(state, player) if player in awaiting else []
        if report:  # (a bot or a standing order reads no prompt: they cost every awaited player's orders)
            v["prompts"] = {p: rs.prompt(state, p, orders if p == player else None) for p in awaiting}
        v["events"] = visible_events(state, player) if report else []
        v["game_over"] = rs.is_over(state)
        v["commitment"] = self.commitment
        chosen = self.set_by_gm()
        if chosen:
            v["set_by_gm"] = chosen
        if v["game_over"] and self.commitment:
            v["seed"], v["salt"] = self.rng.seed, self.salt
            if self.rng.key:
                v["key"] = self.rng.key
        v.setdefault("orders", orders)
        if report:
            rs.report_view(state, player, v)
            grammar_forms = rs.order_forms(state, player) if player in awaiting else []
            v["order_forms"] = grammar.render(grammar_forms)
            v["example"] = grammar.example(grammar_forms)
        standing.add_to_view(v, state, player)
        recent = recent_corrections(self.corrections, state["move"], player)
        if recent:
            v["corrections"] = recent
        return v

    def set_by_gm(self) -> list[str]:
        """What the game master set rather than the judge's committed generator, in public
        words for every report: the seed of a committed game whose generator has no secret
        key (given to `judge new --seed`, or made before keys: nothing shows it was drawn),
        and what the setup file sets (the ruleset's `setup_words`). Bound by the commitment."""
        seed = ["the seed (and so every draw)"] if self.commitment and not self.rng.key else []
        return seed + self.ruleset.set_by_setup(self.setup)

    def status(self) -> dict:
        rs, state = self.ruleset, self.state
        awaiting = self.awaiting()
        return {
            "ruleset": rs.name,
            **rs.summary(state),
            "move": self.move,
            "awaiting": awaiting,
            "expecting": {p: rs.prompt(state, p) for p in awaiting},
            "game_over": rs.is_over(state),
            "winners": rs.winners(state),
            "commitment": self.commitment,
            "log_head": self.log_head(),
        }

    def log_head(self) -> dict | None:
        """{move, hash}: the head of the log's hash chain after the last move ended (the whole log
        once the game is over; judge/engine/chain.py), or None for a game made before the judge
        committed to its seed."""
        key = (self._log.version, self.move, self.commitment, self.salt)
        kept = getattr(self, "_head", None)  # (made once a position: every report and answer shows it)
        if kept is None or kept[0] is not self._log or kept[1] != key:
            kept = self._head = (self._log, key, chain.head(self.commitment, self.salt, self.log,
                                                            None if self.is_over() else self.move - 1))
        return kept[2]

    def head_line(self) -> str:
        """`Log head: move N HEX`, the line every report and answer ends with ("" without a chain)."""
        return chain.line(self.log_head())

    def waiting_line(self) -> str:
        """`move N: waiting for P (what)`, players awaited for the same thing named together
        (`P, Q (what)`), or the winners at the end; wrapped to 78 columns."""
        from judge.engine.report import wrap

        st = self.status()
        if st["game_over"]:
            return wrap(f"move {st['move']}: the game is over; winners: {', '.join(st['winners'])}")
        alike: dict[str, list[str]] = {}
        for p in st["awaiting"]:
            alike.setdefault(st["expecting"][p], []).append(p)
        waits = ", ".join(f"{', '.join(ps)} ({what})" for what, ps in alike.items())
        return wrap(f"move {st['move']}: waiting for {waits}")

    @property
    def log(self) -> Log:
        """The logged orders, "MOVE PLAYER ORDER" each (a list of strings to the rest of the code)."""
        return self._log

    @log.setter
    def log(self, entries) -> None:
        self._log = entries if isinstance(entries, Log) else Log(entries)

    def _like(self, state: dict, rng: Rng, *, ruleset: Ruleset | None = None, meta=None, corrections=None) -> "Game":
        """This game's header (players, options, setup, commitment) with another position."""
        return Game(ruleset or self.ruleset, self.players, self.options, self.setup, rng, state, self.log.copy(),
                    self.meta if meta is None else meta, self.salt, self.commitment,
                    self.corrections if corrections is None else corrections, self.format)

    def copy(self) -> "Game":
        """An independent copy (state, generator, log and meta), to try orders on."""
        return self._like(_copy(self.state), self.rng.at(self.rng.draws), meta=_copy(self.meta),
                          corrections=_copy(self.corrections))

    def with_state(self, state: dict, rng: Rng | None = None) -> "Game":
        """This game in another position (and generator): for the proofs that redraw what a
        player may not know."""
        return self._like(state, rng or self.rng)

    # ---- ordering -----------------------------------------------------------------------
    def submit(self, player: str, text: str | list[str], *, more: bool = False) -> "Accepted":
        """Validate the orders of `player` in sequence and apply all of them, or none.

        No batch looks past hidden information: once an order reveals something (a card, a
        roll, another player's secret) or passes the turn to another player (whose standing
        orders are secret), the lines after it are not judged at all, so neither their
        acceptance nor their refusal can tell the player what happened. They come back in
        `Accepted.unjudged`, to be sent again once the player has seen the result. New
        standing orders are still taken after that point (judged on their syntax alone).
        Standing orders are carried out after every order and standing command, but those
        given right after an order are all given first (judge/engine/standing.py).

        `more`: lines of the same message follow this batch (the mail gateway's block), so its
        last order is watched as well; when it cuts, `Accepted.revealed` says so and the caller
        leaves the following lines unjudged."""
        lines = order_lines(text) if isinstance(text, str) else list(text)
        if not lines:
            note = comment_note(text) if isinstance(text, str) else ""
            raise OrderSyntaxError("no orders given" + (f": {note}" if note else ""))
        player = self.player_name(player)
        accepted, unjudged = Accepted(), []
        try:
            return self._submit(player, lines, accepted, unjudged, more)
        except JudgeError as e:  # the refused line's index, so that nobody judges the batch again to find it
            raise e.at_line(len(accepted) + len(unjudged), accepted) from None

    def _submit(self, player: str, lines: list[str], accepted: "Accepted", unjudged: list[str],
                more: bool = False) -> "Accepted":
        start = self.move
        # All or none: a batch is judged on a copy. A single line needs none: its parse (or its
        # standing command's) is the only check, made before anything changes, and carrying it
        # out (with any standing orders it sets off) refuses nothing.
        state = self.state if len(lines) == 1 else _copy(self.state)
        rng = self.rng.at(self.rng.draws)
        entries = []
        cut, k = ("", ""), 0

        def following(player_: str, cut_now: bool, log: list[str], round_: int | None) -> None:
            """Give the standing commands right after the current line, before anything is
            carried out; at a cut, every new standing order of the batch (the rest unjudged)."""
            nonlocal k
            if player_ != player:
                return
            while k < len(lines) and (c := self._standing_line(state, player, lines[k], start, blind=cut_now, pending=accepted)) is not None:
                accepted.append(c)
                standing.give(self.ruleset, state, log, c, round_)
                k += 1
            if cut_now:
                for rest in lines[k:]:
                    c = self._standing_line(state, player, rest, start, gives_only=True, pending=accepted)
                    if c is None:
                        unjudged.append(rest)
                    else:
                        accepted.append(c)
                        standing.give(self.ruleset, state, log, c, round_)
                k = len(lines)

        while k < len(lines):
            line, k = lines[k], k + 1
            watch = None if (k == len(lines) and not more) or player == GM else player  # the GM sees everything
            command = self._standing_line(state, player, line, start, pending=accepted)
            if command is not None:
                accepted.append(command)
                standing.give(self.ruleset, state, entries, command)
                # (`standing` and a cancel of nothing are not logged: a replay never sees them, so
                # they settle nothing, nor count as the owner's acting on their notes)
                found = standing.settle(self, state, rng, entries, actor=player, watch=watch,
                                        extra=following) if command.logged else ("", "", None)
            else:
                order = self._parse(state, player, split_move(line)[1], line)
                entries.append(f"{state['move']} {player} {order}")
                before = None if watch is None else _copy(state)
                draws, seen = rng.draws, self.ruleset.standing_round(state)
                self._apply(state, order, rng)
                accepted.append(order)
                what = "" if before is None else self.cut_reason(before, state, rng.draws != draws, player)
                if what:
                    cut = (str(order), what)
                found = standing.settle(self, state, rng, entries, after=order, actor=player,
                                        watch=None if what else watch, extra=following, cut_first=bool(what),
                                        round_=seen)
            if found[1] and not cut[1]:
                cut = found[:2]
        self.state, self.rng = state, rng
        self.log.extend(entries)
        if cut[1]:
            accepted.revealed_by, accepted.revealed = cut
            accepted.unjudged = unjudged
        return accepted

    def _standing_line(self, state, player, line, start, gives_only=False, blind=False, pending=()):
        """The standing-order command on `line` (judged on `state`), or None for an ordinary
        order; with `gives_only` (after a cut), None for anything but a new standing order.
        Right after an order that cut the batch (`blind`, `gives_only`), only the syntax and
        the player's own standing orders are judged, never the position the order made."""
        blind = blind or gives_only
        number, body = split_move(line)
        if gives_only and body.lower().split()[0] in ("cancel", "standing"):
            return None
        command = standing.parse_command(self, state, player, body, line, blind=True, pending=pending) if gives_only else None
        if gives_only and (command is None or command.verb != "give"):
            return None
        if number is not None and number < start:
            raise StaleOrder(f"written for move {number}, but the game is at move {state['move']}", line)
        if number is not None and number > state["move"] and not blind:
            raise EarlyOrder(f"written for move {number}, a move that has not come: the game is at move "
                             f"{state['move']}", line)
        return command or standing.parse_command(self, state, player, body, line, blind=blind, pending=pending)

    def cut_reason(self, before: dict, after: dict, drew: bool, player: str) -> str:
        """What an order in `player`'s batch showed, past which the rest of the batch may not be
        judged (public words), or "": something hidden revealed, a draw from the generator, or
        the turn passed to another player (whose standing orders are secret)."""
        rs = self.ruleset
        what = rs.revealed(before, after) or ("drew from the random generator" if drew else "")
        others = [p for p in rs.awaiting(after) if p not in (player, GM)]
        return what or (f"passed the turn to {', '.join(others)}" if others else "")

    copy_state = staticmethod(_copy)

    def check_turn(self, player: str, line: str = "", state: dict | None = None) -> None:
        """Refuse an order of `player` now: the game is over, or it is not their turn.
        The game master's orders always reach the ruleset, which refuses those out of place."""
        rs, state = self.ruleset, self.state if state is None else state
        if rs.is_over(state):
            raise GameOver("the game has ended", line)
        awaiting = rs.awaiting(state)
        if player != GM and player not in awaiting:
            who = ", ".join(awaiting)
            raise NotYourTurn(f"waiting for {who} ({rs.prompt(state, awaiting[0])})", line)

    def _parse(self, state: dict, player: str, body: str, line: str) -> Order:
        rs = self.ruleset
        words = body.split()
        if words and words[0].lower() not in rs.verbs and player != GM and not rs.is_over(state):
            self._unknown_word(state, player, body, line)  # a typo ('bdi') is that, whoever's turn it is
        self.check_turn(player, line, state)
        if player == GM and body.strip().lower() == AGREED_END:
            return Order(GM, "end", ("by", "agreement"))
        try:
            return rs.parse(state, player, body)
        except OrderError as e:
            if e.line == body and body != line:
                raise e.quoting(line) from None
            raise

    def _unknown_word(self, state: dict, player: str, body: str, line: str) -> None:
        """Raise the ruleset's own refusal of a line that begins with no order word (its parse
        refuses the word before it reads the position, so nothing of that is told)."""
        try:
            self.ruleset.parse(state, player, body)
        except OrderSyntaxError as e:
            raise (e.quoting(line) if e.line == body and body != line else e) from None
        except OrderError:
            pass

    def _apply(self, state: dict, order: Order, rng: Rng) -> None:
        rs = self.ruleset
        if order.player == GM and str(order) == AGREED_END:
            state["ended"] = "agreement"  # every ruleset's is_over sees it (judge/engine/ruleset.py)
            state["events"].append({"move": state["move"], "text": "The players agreed to end the game here; "
                                    "it is scored as it stands."})
            state["move"] += 1
            return
        before = rs.awaiting(state)
        rs.apply(state, order, rng)
        after = rs.awaiting(state)
        # A secret order in a simultaneous phase does not end the move for the others.
        if not (len(before) > 1 and set(after) == set(before) - {order.player}):
            state["move"] += 1
        if len(state["events"]) > KEEP_EVENTS:
            del state["events"][:-KEEP_EVENTS]

    # ---- replay -------------------------------------------------------------------------
    def replay(self) -> "Game":
        """A new game built from the header and the log alone. Each stretch of the log is
        replayed under the version of the rules it was played with (judge/engine/facts.py: the
        game begins under the first upgrade's `from`); while it runs, `self.ruleset` is the
        version of the stretch replayed, so that every hook sees it."""
        header, log = self.ruleset, list(self.log)  # (a plain list: indexed a few times per entry)
        begun = facts.first_version(log, header.version)
        try:
            self.ruleset = self.at_version(begun)
            state, rng = self._replayed(log)
            if self.ruleset.version != header.version:
                raise GameFileError(f"the log leaves the game at {header.name} version {self.ruleset.version}, "
                                    f"but the file says version {header.version}")
        finally:
            self.ruleset = header
        return self._like(state, rng)

    def at_version(self, version: int) -> Ruleset:
        """This game's ruleset as it played in `version` (GameFileError for one this judge lacks)."""
        if version == self.ruleset.version:
            return self.ruleset
        return registry.get(self.ruleset.name).at_version(version)

    def _replayed(self, log: list[str]) -> tuple[dict, Rng]:
        rng = self.rng.at(0)
        state = self._initial_state(self.ruleset, self.players, self.options, rng, self.setup)
        i, n = 0, len(log)

        def given(who: str, cut_now: bool, given_: list[str], round_: int | None) -> None:
            """Give the standing commands logged right after, before anything is carried out
            (each for the round its entry names)."""
            rs = self.ruleset
            while (j := i + 1 + len(given_)) < n and self._given_with(log[j], who, state["move"]):
                standing.give(rs, state, given_, *standing.command_from_log(rs, state, who, log[j].split(" ", 2)[2]))

        while i < n:
            entry = log[i]
            parts = LogEntry.read(entry)
            if parts is None:
                raise GameFileError(f"log entry {i + 1} is not 'MOVE PLAYER ORDER': {entry!r}")
            move, player, text = parts
            if move != state["move"]:
                raise GameFileError(f"log entry {i + 1} ({entry!r}) is for move {move}, but replay is at move {state['move']}")
            if player == facts.JUDGE:
                try:
                    state, rng = self._judged(state, rng, facts.read(move, text), log, i)
                except JudgeError as e:
                    raise GameFileError(f"log entry {i + 1} ({entry!r}) does not replay: {e}") from None
                i += 1
                continue
            carried = []
            rs = self.ruleset
            try:
                if standing.is_secret_entry(entry):
                    standing.apply_command(rs, state, *standing.command_from_log(rs, state, player, text))
                    standing.settle(self, state, rng, carried, actor=player, extra=given)
                else:
                    order = self._parse(state, player, text, text)
                    self._apply(state, order, rng)
                    # (without standing orders, and none given right after, there is nothing to settle)
                    if "standing" in state or (i + 1 < n and standing.is_secret_entry(log[i + 1])):
                        standing.settle(self, state, rng, carried, after=order, actor=player, extra=given)
            except JudgeError as e:
                raise GameFileError(f"log entry {i + 1} ({entry!r}) does not replay: {e}") from None
            if carried:
                logged = log[i + 1:i + 1 + len(carried)]
                if logged != carried:
                    k = next(k for k, e in enumerate(carried) if k >= len(logged) or logged[k] != e)
                    raise (LogEndsEarly if k == len(logged) else GameFileError)(f"log entry {i + 2 + k}: the standing orders give {carried[k]!r} there, "
                                        f"but the log says {logged[k] if k < len(logged) else 'nothing more'!r}")
            i += 1 + len(carried)
        return state, rng

    # ---- the judge's own entries (judge/engine/facts.py) ---------------------------------
    def note(self, text: str) -> None:
        """Log one of the judge's entries at the current move and carry it out (an upgrade
        replays the whole log under the new version: GameFileError when an order no longer
        fits, the game unchanged)."""
        fact = facts.read(self.move, text)
        self.state, self.rng = self._judged(self.state, self.rng, fact, self.log, len(self.log), replaying=False)
        self.log.append(str(fact))

    def _judged(self, state: dict, rng: Rng, fact: facts.Fact, log: list[str], i: int,
                replaying: bool = True) -> tuple[dict, Rng]:
        """Carry out the judge's entry `fact`, entry `i` of `log` (the entries before it are
        the game so far; `replaying`: those after it are logged too): the state (a new one
        after an upgrade) and the generator. Refused (GameFileError) where it cannot stand: an
        upgrade from another version than the game's, a fact of no seat."""
        kind, args = fact.kind, fact.args
        if kind == "upgrade":
            old, new = args
            if old != self.ruleset.version or new <= old:
                raise GameFileError(f"an upgrade from version {old} to version {new}, but the game is played by "
                                    f"{self.ruleset.name} version {self.ruleset.version} there")
            rs = self.at_version(new)
            prior = [e for e in log[:i] if not (facts.is_fact(e) and " upgrade from version " in e)]
            rejudged = Game(rs, self.players, self.options, self.setup, self.rng.at(0), {}, prior, self.meta,
                            self.salt, self.commitment, self.corrections, self.format).replay()
            kept = state.get(facts.KEY, [])
            state, rng = rejudged.state, rejudged.rng
            state[facts.KEY] = list(kept)
            emit(state, f"From here the game is played by version {new} of the {rs.name} rules "
                        f"(judge upgrade from version {old}).")
            del state["events"][:-KEEP_EVENTS]
            self.ruleset = rs
        elif kind != "ended" and args[0] not in self.players:
            raise GameFileError(f"{args[0]} is not a seat of this game")
        elif kind == "missed" and replaying:
            after = LogEntry.read(log[i + 1]) if i + 1 < len(log) else None
            if after is None or after.player != args[0] or after.move != fact.move or standing.is_secret_entry(log[i + 1]):
                raise GameFileError(f"it is not followed by the order the judge gave for {args[0]} at move {fact.move}")
        elif kind == "resigned" and facts.text("resigned", args[0]) in {e.split(" ", 2)[2] for e in state.get(facts.KEY, [])}:
            raise GameFileError(f"{args[0]} has resigned already")
        elif kind == "seat" and not (args[1] == facts.UNNAMED or (NAME.match(args[1]) and args[1].lower() != GM)):
            raise GameFileError(f"'{args[1]}' is not a player's name")
        elif kind == "ended" and (not self.ruleset.is_over(state) or facts.ended(state)):
            raise GameFileError("the game is not over" if not self.ruleset.is_over(state) else "the game's end is logged already")
        facts.recorded(state, str(fact))
        return state, rng

    @staticmethod
    def _given_with(entry: str, player: str, move: int) -> bool:
        return standing.is_secret_entry(entry) and entry.startswith(f"{move} {player} ")

    def audit(self, heads: list[tuple[int, str]] = ()) -> list[str]:
        """What is wrong with this game's honesty: the seed, setup and salt do not give the
        commitment published at the start, the log is not the one in which each of `heads`
        ((move, hex digits): a head its players were sent, judge/engine/chain.py) was sent, or
        the log does not replay to the saved state."""
        if not self.commitment:
            return ["this game was made before the judge committed to its seed: nothing to check it against"
                    + (" (it has no log chain either, so no head can be checked)" if heads else "")]
        try:
            begun = self.at_version(facts.first_version(self.log, self.ruleset.version))
        except JudgeError as e:
            return [f"the log names the version the game began under, but {e}"]
        made = commitment(begun, self.players, self.options, self.setup, self.rng.seed, self.salt, self.rng.key,
                          self.format)
        if made != self.commitment:
            return [f"the seed, key, setup and salt (with {begun.name} version {begun.version}, which the game began "
                    f"under) give {made}, not the commitment {self.commitment} published at the start: they were "
                    "changed after the game began"]
        chained = (chain.check(self.commitment, self.salt, self.log, list(heads), self.corrections, self.ended)
                   if heads else [])
        try:
            return chained + self.differences(self.replay())
        except JudgeError as e:
            return chained + [f"the log does not replay from the seed and setup: {e}"]

    def ended(self, log: list[str]) -> bool:
        """Whether `log` (with this game's header) replays to a finished game: a log no rollback
        can have returned from (judge/engine/chain.py `rolled_back`). One that does not replay
        is not taken for finished (its heads then match nothing of a player's anyway)."""
        other = self.copy()
        other.log = list(log)
        try:
            return other.replay().is_over()
        except JudgeError:
            return False

    def upgraded(self) -> "Game":
        """This game moved to the current version of its ruleset by an entry of the judge in its
        log (judge/engine/facts.py: the log before it replayed under the current rules, the
        game going on from there), or GameFileError naming the first logged order that no
        longer fits."""
        current = registry.get(self.ruleset.name)
        if self.ruleset.version == current.version:
            raise UsageError(f"the game is already played by {current.name} version {current.version}")
        new = self.copy()
        try:
            new.note(facts.text("upgrade", self.ruleset.version, current.version))
        except GameFileError as e:
            raise GameFileError(f"cannot upgrade to {current.name} version {current.version}: {e}") from None
        return new

    def differences(self, other: "Game") -> list[str]:
        """Where two games' rng and state differ, as dotted paths (`other` replayed, this one
        saved); the first of the judge's entries that differs by its words."""
        out = []
        if self.rng.to_dict() != other.rng.to_dict():
            out.append(f"rng: {self.rng.to_dict()} != {other.rng.to_dict()}")
        kept, replayed = self.state.get(facts.KEY, []), other.state.get(facts.KEY, [])
        if kept != replayed:
            k = next(k for k in range(max(len(kept), len(replayed))) if kept[k:k + 1] != replayed[k:k + 1])
            out.append(f"the judge's entries: the log gives {replayed[k] if k < len(replayed) else 'no more'!r} where "
                       f"the saved state keeps {kept[k] if k < len(kept) else 'no more'!r}")
        _diff({k: v for k, v in self.state.items() if k != facts.KEY},
              {k: v for k, v in other.state.items() if k != facts.KEY}, "state", out)
        return out

    # ---- the file's contents ------------------------------------------------------------
    def to_dict(self, log: bool = True) -> dict:
        """The file's contents (without the log when `log` is false: judge/store/gamefile.py
        writes the log's lines itself)."""
        committed = {"commitment": self.commitment} if self.commitment else {}
        rng = {**self.rng.to_dict(), "salt": self.salt} if self.commitment else self.rng.to_dict()
        data = {
            "format": self.format,
            "ruleset": self.ruleset.name,
            "ruleset_version": self.ruleset.version,
            **committed,
            "players": self.players,
            "options": self.options,
            "setup": self.setup,
            "rng": rng,
            "meta": self.meta,
            "state": self.state,
            **({"corrections": self.corrections} if self.corrections else {}),
        }
        if log:
            data["log"] = {"orders": list(self.log)}
        return data

    @classmethod
    def from_dict(cls, data: dict, where: str = "the game file") -> "Game":
        try:
            return cls._from_dict(data, where)
        except JudgeError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as e:
            raise GameFileError(f"{where} is inconsistent: {type(e).__name__} {e}") from None

    @classmethod
    def _from_dict(cls, data: dict, where: str) -> "Game":
        def need(key, kind):
            if key not in data:
                raise GameFileError(f"{where} has no '{key}'")
            if not isinstance(data[key], kind):
                raise GameFileError(f"{where}: '{key}' has the wrong type")
            return data[key]

        if not 1 <= need("format", int) <= FORMAT:
            raise GameFileError(f"{where} is in file format {data['format']}; this judge reads formats 1 to {FORMAT}")
        try:
            rs = registry.get(need("ruleset", str))
        except UsageError as e:
            raise GameFileError(f"{where}: {e}") from None
        try:
            rs = rs.at_version(need("ruleset_version", int))
        except GameFileError as e:
            raise GameFileError(f"{where}: {e}") from None
        players = need("players", list)
        try:
            check_names(players)
        except UsageError as e:
            raise GameFileError(f"{where}: {e}") from None
        options = need("options", dict)
        if set(options) != {o.name for o in rs.options}:
            raise GameFileError(f"{where}: options are {sorted(options)}, expected {sorted(o.name for o in rs.options)}")
        for o in rs.options:
            if type(options[o.name]) is not type(o.default):
                raise GameFileError(f"{where}: option {o.name} has the wrong type")
        setup = need("setup", dict)
        rng_d = need("rng", dict)
        seed, draws = rng_d.get("seed"), rng_d.get("draws")
        if not (isinstance(seed, int) and isinstance(draws, int) and seed >= 0 and draws >= 0):
            raise GameFileError(f"{where}: [rng] needs whole numbers seed and draws")
        committed, salt, key = data.get("commitment", ""), rng_d.get("salt", ""), rng_d.get("key", "")
        if not (_is_hex(committed, 64) and _is_hex(salt, 32)) and (committed or salt):
            raise GameFileError(f"{where}: 'commitment' must be 64 hex digits with [rng] salt of 32")
        if key and not (_is_hex(key, KEY_HEX) and committed):
            raise GameFileError(f"{where}: [rng] key must be {KEY_HEX} hex digits, in a game with a commitment")
        meta = data.get("meta", {})
        state = need("state", dict)
        log = need("log", dict).get("orders")
        if not isinstance(log, Log) and not (isinstance(log, list) and all(isinstance(e, str) for e in log)):
            raise GameFileError(f"{where}: [log] orders must be a list of strings")
        if not isinstance(state.get("move"), int) or state["move"] < 1:
            raise GameFileError(f"{where}: state.move must be a whole number >= 1")
        if state.get("seats") != players:
            raise GameFileError(f"{where}: state.seats does not match the players {players}")
        if state.get("options") != options:
            raise GameFileError(f"{where}: state.options does not match [options]")
        if not isinstance(state.get("events"), list):
            raise GameFileError(f"{where}: state.events must be a list")
        unknown = set(data) - set(KEYS)
        if unknown:
            raise GameFileError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
        if not all(_is_event(e) for e in state["events"]):
            raise GameFileError(f"{where}: state.events must be tables of move, text and (optionally) to")
        if not isinstance(meta, dict):
            raise GameFileError(f"{where}: [meta] must be a table")
        corrections = data.get("corrections", [])
        if not (isinstance(corrections, list) and all(isinstance(c, dict) and isinstance(c.get("kind"), str)
                                                      for c in corrections)):
            raise GameFileError(f"{where}: [[corrections]] must be tables with a kind")
        rs.check(state)
        standing.check(state, players, where)
        _probe(rs, state, players, where)
        if not _log_matches_move(log, state["move"]):
            raise GameFileError(f"{where}: the log does not end at move {state['move'] - 1}, where the state is")
        return cls(rs, players, options, setup, Rng(seed, draws, key), state, log, meta, salt, committed, corrections,
                   data["format"])


def _is_hex(text, length: int) -> bool:
    return isinstance(text, str) and len(text) == length and all(c in "0123456789abcdef" for c in text)


def _is_event(e) -> bool:
    return (isinstance(e, dict) and type(e.get("move")) is int and isinstance(e.get("text"), str)
            and set(e) <= {"move", "text", "to"} and isinstance(e.get("to", []), list))


def _probe(rs: Ruleset, state: dict, players: list[str], where: str) -> None:
    """Run the read-only hooks once, so that a hand-edited state which passes the ruleset's
    check() but would break a report or a prompt is refused on loading, not halfway through."""
    awaiting = rs.awaiting(state)
    if not set(awaiting) <= {*players, GM}:
        raise GameFileError(f"{where}: the state awaits {', '.join(map(str, awaiting))}, who are not all players")
    rs.is_over(state)
    rs.summary(state)
    rs.standings(state)
    for who in [*players, GM, None]:
        rs.view(state, who)
    for p in awaiting:
        rs.prompt(state, p)
        rs.legal_orders(state, p)
        rs.order_forms(state, p)


def _log_matches_move(log: list[str], move: int) -> bool:
    """The last entry is for the move before `move`, or for `move` itself when it is a
    simultaneous phase's secret order (those share the move number until all are in)."""
    if not log:
        return move == 1
    last = LogEntry.read(log[-1])
    return last is not None and last.move in (move - 1, move)


RECENT_CORRECTIONS = 10  # moves for which a report shows a rollback or a seat handed on


def recent_corrections(corrections: list[dict], move: int, player: str | None) -> list[dict]:
    """The game master's corrections made in the last RECENT_CORRECTIONS moves up to `move`,
    as a report shows them: a rollback (with, for its owner alone, the standing orders it
    undid; the game master sees everyone's) or a seat handed on."""
    out = []
    for c in corrections:
        at = c.get("to_move") if c.get("kind") == "rollback" else c.get("since")
        if c.get("kind") not in ("rollback", "replace") or not isinstance(at, int) or not 0 <= move - at <= RECENT_CORRECTIONS:
            continue
        shown = {k: c[k] for k in ("kind", "from_move", "to_move", "reason", "seat", "player", "previous", "since")
                 if k in c}
        lost = c.get("standing_undone") or {}
        if player == GM and lost:
            shown["standing_undone"] = [f"{p}: {'; '.join(texts)}" for p, texts in lost.items()]
        elif player in lost:
            shown["standing_undone"] = list(lost[player])
        out.append(shown)
    return out


def check_names(players) -> None:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise UsageError("players must be a list of names")
    for p in players:
        if not NAME.match(p):
            raise UsageError(f"player name '{p}' must start with a letter a-z or A-Z and hold only such letters, digits, - and _ "
                             "(at most 20)")
        if p.lower() == GM:
            raise UsageError(f"'{GM}' is the game master's name and cannot be a player's")
    lowered = [p.lower() for p in players]
    if len(set(lowered)) != len(lowered):
        raise UsageError("two players have the same name")


def _diff(a, b, path, out, limit=20):
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'saved' if k in a else 'replayed'} state")
            else:
                _diff(a[k], b[k], f"{path}.{k}", out, limit)
    elif a != b:
        out.append(f"{path}: saved {a!r}, replayed {b!r}")
