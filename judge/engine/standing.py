"""Standing orders: a player says in advance what to do when their turn comes, and the judge
carries it out as if typed (every ruleset; each ruleset's vocabulary is in its own module,
hooks `standing_parse`, `standing_order`, `standing_stops` of judge/engine/ruleset.py).

- Given at any time, awaited or not, mixed with ordinary orders; `standing` lists one's own,
  `cancel` clears them all, `cancel N` one. Each lasts until the end of the round it was
  given in (`Ruleset.standing_round`), or for good when it ends with `every round`.
- Whenever an awaited player has one that applies, the order it names is checked by the
  ruleset's `parse` and applied exactly as if typed (same log line, same events). One that
  cannot be carried out stops: it is removed, a note in its owner's report says why, and
  the next one that applies is tried; with none left the player is awaited as usual. One
  with a condition that was false when considered at its owner's turn leaves a note why
  (`Ruleset.standing_unmet`), kept as a stopped note is. The same standing order twice is
  refused. (Both in games begun since: NEW_GAME's [meta].)
- Secret: the state keeps them under `state["standing"]` (only while someone has any), the
  owner's view lists them, the game master's lists all; nothing else shows them. The log
  holds each give or cancel as "MOVE PLAYER secret: TEXT" (`is_secret_entry`), at the move
  it was given in (the move number does not advance, since it is public).
- `settle` is run after every order and every logged standing command (not `standing`, which
  a replay never sees), in `Game.submit` and in `Game.replay` alike, so the orders it carries out are replayed from the standing orders
  and checked against the log.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from judge.engine.errors import GameFileError, GameOver, IllegalOrder, JudgeError, NotYourTurn, OrderError, OrderSyntaxError
from judge.engine.orders import Order
from judge.engine.ruleset import GM, Ruleset

SECRET = "secret: "  # the log text of a standing order given or cancelled starts so
EVERY = "every round"
# A stopped standing order's note is shown until its owner next gives an order or standing
# command (it records the move it was made at: "move"). Games begun before kept the older rule,
# for the rest of its round and NOTE_ROUNDS more (a note without "move"): their logs replay to
# the notes they saved. New games say so in [meta] (NOTES_KEY), so that a replay makes the same.
NOTE_ROUNDS = 1
NOTES_KEY, UNTIL_ACTED = "standing_notes", "until the owner acts"
# Two rules of the games begun since, said in [meta] too so that older logs replay as before:
# a standing order with a condition, considered at its owner's turn while its condition is
# false, leaves its owner a note why (`Ruleset.standing_unmet`; shown as a stopped note is, and
# dropped when the order is carried out); and a standing order identical to one its player
# holds is refused, not given twice.
UNMET_KEY, NOTED = "standing_unmet", "noted"
DUPLICATES_KEY, REFUSED = "standing_duplicates", "refused"
NEW_GAME = {NOTES_KEY: UNTIL_ACTED, UNMET_KEY: NOTED, DUPLICATES_KEY: REFUSED}  # a new game's [meta]
MAX_EACH = 20  # standing orders a player may hold at once
MAX_PER_MOVE = 30  # standing orders a player may give or cancel at one move (so also in one message)


FOR_ROUND = re.compile(r"^secret for round (\d+): ")  # given right after an order that ended that round


def is_secret_entry(entry: str) -> bool:
    """Whether a log entry "MOVE PLAYER TEXT" gives or cancels a standing order: its text is
    the player's secret (a public record shows it as a secret order, or not at all). Orders
    carried out by standing orders are logged as ordinary, public entries."""
    if "secret" not in entry:  # (most entries: no need to split them)
        return False
    parts = entry.split(" ", 2)
    return len(parts) == 3 and (parts[2].startswith(SECRET) or bool(FOR_ROUND.match(parts[2])))


@dataclass(frozen=True)
class Command:
    """A line about standing orders: `give` TEXT, `cancel` (all, or number N) or `standing`."""

    player: str
    verb: str
    text: str = ""
    noop: bool = False  # a `cancel` with nothing to cancel: it changes nothing and is not logged

    def __str__(self) -> str:
        if self.verb == "give":
            return self.text
        return " ".join(w for w in (self.verb, self.text) if w)

    @property
    def logged(self) -> bool:
        return self.verb != "standing" and not self.noop


# ---- the state's part ---------------------------------------------------------------------
def orders_of(state: dict, player: str) -> list[dict]:
    return state.get("standing", {}).get(player, {}).get("orders", [])


def notes_of(state: dict, player: str) -> list[dict]:
    """`player`'s notes: of standing orders that stopped, and (with "unmet", the order's text)
    of those whose condition was false when considered."""
    return state.get("standing", {}).get(player, {}).get("stopped", [])


def _mine(state: dict, player: str) -> dict:
    return state.setdefault("standing", {}).setdefault(player, {"orders": [], "stopped": []})


def _tidy(state: dict) -> None:
    """Drop empty places, so a game without standing orders keeps the file it always had."""
    standing = state.get("standing")
    if standing is None:
        return
    for p in [p for p, mine in standing.items() if not mine["orders"] and not mine["stopped"]]:
        del standing[p]
    if not standing:
        del state["standing"]


def listing(state: dict, player: str) -> list[dict]:
    """`player`'s standing orders, numbered as `cancel N` takes them."""
    return [{"number": i, "text": o["text"],
             "until": EVERY if o["text"].endswith(EVERY) else f"the end of round {o['round']}"}
            for i, o in enumerate(orders_of(state, player), 1)]


def describe(state: dict, player: str) -> list[str]:
    """The lines that tell `player` their standing orders (the answer to a standing command)."""
    mine = listing(state, player)
    out = [f"your standing orders (secret until the game ends; then its record shows them): {len(mine) or 'none'}"]
    out += [f"  {o['number']}. {o['text']}" + ("" if o["until"] == EVERY else f" (until {o['until']})") for o in mine]
    return out + [f"  {'note' if 'unmet' in n else 'stopped'}: {n['text']}" for n in notes_of(state, player)]


def add_to_view(view: dict, state: dict, player) -> None:
    """The owner's view lists their standing orders and the notes of those that stopped; the
    game master's lists everyone's. Others see nothing (not even whether there are any)."""
    if player == GM:
        everyone = {p: [o["text"] for o in mine["orders"]] for p, mine in state.get("standing", {}).items()
                    if mine["orders"]}
        if everyone:
            view["standing_orders"] = everyone
        return
    mine, notes = listing(state, player), notes_of(state, player)
    if mine:
        view["standing"] = mine
    if any("unmet" not in n for n in notes):
        view["standing_stopped"] = [n["text"] for n in notes if "unmet" not in n]
    if any("unmet" in n for n in notes):
        view["standing_unmet"] = [n["text"] for n in notes if "unmet" in n]


def check(state: dict, players: list[str], where: str) -> None:
    """Refuse a hand-edited `state.standing` that is not players' tables of orders and notes."""
    standing = state.get("standing")
    if standing is None:
        return

    def entries_ok(entries, optional) -> bool:
        return isinstance(entries, list) and all(
            isinstance(o, dict) and set(o) - optional == {"round", "text"} and type(o["round"]) is int
            and isinstance(o["text"], str) and type(o.get("move", 0)) is int and isinstance(o.get("unmet", ""), str)
            for o in entries)
    if not (isinstance(standing, dict) and standing and set(standing) <= set(players) and all(
            isinstance(mine, dict) and set(mine) == {"orders", "stopped"} and entries_ok(mine["orders"], {"move"})
            and entries_ok(mine["stopped"], {"move", "unmet"}) for mine in standing.values())):
        raise GameFileError(f"{where}: state.standing must map players to their standing orders and stopped "
                            "notes (orders = [{round, text}], stopped = [{round, text}])")


# ---- reading a line -----------------------------------------------------------------------
def parse_command(game, state: dict, player: str, body: str, line: str, blind: bool = False,
                  pending=()) -> Command | None:
    """The standing-order command on `body`, or None when it is an ordinary order. Decided on
    the player's own view only (syntax, the game's data, their own standing orders); `blind`
    (after an order that revealed something or passed the turn) on the view the player wrote
    their message from (`game.state`, the position before the batch), never on the position
    the order made. `pending`: what the batch accepted so far, counted with the log against
    MAX_PER_MOVE."""
    words, rs = body.lower().split(), game.ruleset
    every = words[-2:] == EVERY.split()
    if words[0] not in ("standing", "cancel") and not every and (len(words) < 2 or words[0] not in rs.standing_starts):
        return None  # (standing orders are two words or more: `bid` alone is an ordinary order)
    view = _view(game, game.state if blind else state, player)
    if words[0] not in ("standing", "cancel") and not every and not _maybe(rs, view, player, body):
        return None
    if player == GM:
        raise NotYourTurn("the game master gives no standing orders; give them for a player with 'as PLAYER'", line)
    if not blind and game.ruleset.is_over(state):
        raise GameOver("the game has ended", line)
    if words[0] == "standing":
        if len(words) > 1:
            raise OrderSyntaxError("'standing' (the list of your standing orders) takes nothing after it", line)
        return Command(player, "standing")
    if words[0] == "cancel":
        command = _cancel(state, player, words, line)
        if not orders_of(state, player):
            return Command(player, "cancel", noop=True)
    elif not blind and len(orders_of(state, player)) >= MAX_EACH:
        raise IllegalOrder(f"you hold {MAX_EACH} standing orders already; cancel some first", line)
    else:
        command = Command(player, "give", _canonical(rs, view, player, body, line))
        if game.meta.get(DUPLICATES_KEY) == REFUSED:
            _refuse_duplicate(state, player, command.text, line)
    if given_at_move(game.log, state["move"], player) + sum(
            isinstance(c, Command) and c.logged and c.player == player for c in pending) >= MAX_PER_MOVE:
        raise IllegalOrder(f"you have given or cancelled {MAX_PER_MOVE} standing orders at this move already; "
                           "the next move takes more", line)
    return command


def _refuse_duplicate(state, player, text, line) -> None:
    """Refuse a standing order identical (as the judge writes it: case, spaces, a company's
    prefix do not matter) to one `player` holds: it would only be tried twice."""
    for number, held in enumerate(orders_of(state, player), 1):
        if held["text"] == text:
            raise IllegalOrder(f"you already have this standing order (#{number}): {text}", line)


def given_at_move(log, move: int, player: str) -> int:
    """How many standing orders `player` gave or cancelled at `move`, the log's last move: read
    from the log's end (at most the entries of that move)."""
    head, count = f"{move} ", 0
    for entry in reversed(log):
        if not entry.startswith(head):
            break
        count += entry.startswith(f"{head}{player} ") and is_secret_entry(entry)
    return count


def _cancel(state, player, words, line) -> Command:
    have = len(orders_of(state, player))
    if len(words) == 1:
        return Command(player, "cancel")
    if len(words) != 2 or not words[1].isdigit() or not words[1].isascii():
        raise OrderSyntaxError("write cancel (all your standing orders) or cancel N (one, numbered as listed)", line)
    n = int(words[1][:6])
    if not 1 <= n <= have:
        raise IllegalOrder(f"you have no standing order {n} (you have {have})", line)
    return Command(player, "cancel", str(n))


def _maybe(rs, view, player, body) -> bool:
    """Whether `body` is meant as a standing order of the ruleset's vocabulary."""
    try:
        return rs.standing_parse(view, player, body) is not None
    except JudgeError:
        return True


def _view(game, state, player) -> dict:
    """`player`'s own view of `state`, as a bot reads it (`Game.view(report=False)`): all that a
    player's policy may read."""
    return game.view(player, report=False, state=state)


class _Later(Mapping):
    """`player`'s view of `state`, built on the first look: most standing orders decide from
    the order alone whether they stop (`standing_stops`), and a view costs more than that."""

    def __init__(self, game, state, player):
        self._make, self._view = (lambda: _view(game, state, player)), None

    def _seen(self) -> dict:
        if self._view is None:
            self._view = self._make()
        return self._view

    def __getitem__(self, key):
        return self._seen()[key]

    def __iter__(self):
        return iter(self._seen())

    def __len__(self) -> int:
        return len(self._seen())


def _canonical(rs, view, player, body, line) -> str:
    words = body.split()
    every = [w.lower() for w in words[-2:]] == EVERY.split()
    text = " ".join(words[:-2] if every else words)
    try:
        canonical = rs.standing_parse(view, player, text) if text else None
    except OrderError as e:
        raise e.quoting(line) from None
    if canonical is None:
        forms = "; ".join(rs.standing_forms) or "none"
        raise OrderSyntaxError(f"'{text or EVERY}' is not a standing order of {rs.name} (standing orders: {forms})", line)
    return f"{canonical} {EVERY}" if every else canonical


def apply_command(rs, state: dict, command: Command, round_: int | None = None) -> None:
    """Give or cancel; a standing order given lasts until the end of `round_` (default: the
    round now; the round its player saw, when given right after an order that ended it)."""
    p = command.player
    if command.verb == "give":
        now = rs.standing_round(state) if round_ is None else round_
        _mine(state, p)["orders"].append({"round": now, "text": command.text})
    elif command.verb == "cancel":
        orders = _mine(state, p)["orders"]
        if command.text:
            del orders[int(command.text) - 1]
        else:
            orders.clear()
    _tidy(state)


def command_from_log(rs, state: dict, player: str, text: str) -> tuple[Command, int | None]:
    """The command of a logged "secret: TEXT" entry (replay) and the round it is for (None:
    the round now), checked for its syntax only: it was judged when given."""
    m = FOR_ROUND.match(text)
    round_ = int(m[1]) if m else None
    body = text[m.end():] if m else text[len(SECRET):]
    words = body.lower().split()
    if player not in state["seats"]:
        raise GameFileError(f"'{player}' gives a standing order but is not a player")
    try:
        if words[:1] == ["cancel"]:
            command = _cancel(state, player, words, body)
        else:
            command = Command(player, "give", _canonical(rs, None, player, body, body))
    except JudgeError as e:
        raise GameFileError(f"'{body}' is not a standing order or a cancel: {e}") from None
    if str(command) != body:
        raise GameFileError(f"'{body}' is not written as the judge writes it ('{command}')")
    return command, round_


# ---- carrying them out --------------------------------------------------------------------
def settle(game, state: dict, rng, log: list[str], after: Order | None = None, actor: str | None = None,
           watch: str | None = None, extra=None, cut_first: bool = False, round_: int | None = None) -> tuple:
    """Carry out standing orders while an awaited player has one that applies, appending each
    order carried out to `log`, as `Game.submit` and `Game.replay` do after every order or
    standing command of `actor` (`after`: the order, None for a command).

    `extra(player, cut, log, round)` gives (with `give`) the standing commands `player` gave
    right after their order (first for `actor`, then after each order carried out for a
    player): they are given before anything more is carried out, for the round the player
    saw before that order (`round_`, for the actor's order). With `watch` (the player whose batch is judged),
    return (order, what it showed, the state just after it) for the first order carried out
    after which the rest of that batch may not be judged ("", "", None if none)."""
    rs = game.ruleset
    if actor is not None and actor in state.get("standing", {}):  # the owner has read their notes
        mine = state["standing"][actor]
        mine["stopped"][:] = [n for n in mine["stopped"] if "move" not in n]
    if after is not None:
        _watch_stops(game, state, after)
    if extra is not None and actor is not None:
        extra(actor, cut_first, log, round_)
    cut = ("", "", None)
    if "standing" not in state:
        return cut
    only = actor if after is None else None
    for _ in range(rs.max_moves + 1):
        if "standing" not in state:  # (a cancel given meanwhile may have emptied it)
            return cut
        _expire(rs, state)
        found = _next(game, state, only)
        if found is None:
            _tidy(state)
            return cut
        player, order = found
        log.append(f"{state['move']} {player} {order}")
        before = game.copy_state(state) if watch and not cut[1] else None
        draws, seen = rng.draws, rs.standing_round(state)
        game._apply(state, order, rng)
        cut_now = False
        if before is not None:
            what = game.cut_reason(before, state, rng.draws != draws, watch)
            if what:
                mine = " (carried out by your standing order)" if player == watch else ""
                cut, cut_now = (str(order), what + mine, game.copy_state(state)), True
        _watch_stops(game, state, order)
        if extra is not None:
            extra(player, cut_now, log, seen)
        only = None
    raise RuntimeError(f"{rs.name}: standing orders carried out without end")


def give(rs, state: dict, log: list[str], command: Command, round_: int | None = None) -> None:
    """Log a standing command ("MOVE PLAYER secret: TEXT", or "secret for round N: TEXT" when
    it is for a round other than the one now) and apply it."""
    if not command.logged:
        return
    other = command.verb == "give" and round_ is not None and round_ != rs.standing_round(state)
    head = f"secret for round {round_}: " if other else SECRET
    log.append(f"{state['move']} {command.player} {head}{command}")
    apply_command(rs, state, command, round_)


def _next(game, state, only) -> tuple[str, Order] | None:
    """The first awaited player's first standing order that applies and can be carried out,
    stopping (with a note) each that applies but cannot."""
    rs = game.ruleset
    unmet = game.meta.get(UNMET_KEY) == NOTED and type(rs).standing_unmet is not Ruleset.standing_unmet
    for p in rs.awaiting(state):
        if p == GM or (only and p != only):
            continue
        seen = None  # p's view, built once while nothing changes (a stop changes p's listing)
        for o in list(orders_of(state, p)):
            body = o["text"].removesuffix(" " + EVERY)
            try:
                seen = _view(game, state, p) if seen is None else seen
                text = rs.standing_order(seen, p, body)
                if text is None:
                    if unmet:
                        _note_unmet(rs, state, p, o, rs.standing_unmet(seen, p, body))
                    continue
                order = game._parse(state, p, text, text)
            except JudgeError as e:
                _stop(game, state, p, o, e.message() if isinstance(e, OrderError) else str(e))
                seen = None
                continue
            if unmet:  # (carried out now: why it was not before is past)
                _mine(state, p)["stopped"][:] = [n for n in notes_of(state, p) if n.get("unmet") != o["text"]]
            return p, order
    return None


def _note_unmet(rs, state, player, order: dict, why: str) -> None:
    """Note why `order` (considered now) gave nothing, `why` its condition was false: one note
    an order, the latest, kept as a stopped note is (until its owner acts)."""
    if not why:
        return
    notes = _mine(state, player)["stopped"]
    notes[:] = [n for n in notes if n.get("unmet") != order["text"]]
    notes.append({"round": rs.standing_round(state), "text": f'"{order["text"]}" not fired at move {state["move"]}: {why}',
                  "move": state["move"], "unmet": order["text"]})


def _stop(game, state, player, order: dict, why: str) -> None:
    mine = _mine(state, player)
    mine["orders"].remove(order)
    until_acted = game.meta.get(NOTES_KEY) == UNTIL_ACTED
    mine["stopped"].append({"round": game.ruleset.standing_round(state),
                            "text": f'"{order["text"]}" stopped: {why}'} | ({"move": state["move"]} if until_acted else {}))


def _watch_stops(game, state, order: Order) -> None:
    rs = game.ruleset
    if type(rs).standing_stops is Ruleset.standing_stops:  # (none stop so: no view to build)
        return
    for p, mine in list(state.get("standing", {}).items()):
        if p == order.player or not mine["orders"]:
            continue
        seen = _Later(game, state, p)
        for o in list(mine["orders"]):
            why = rs.standing_stops(seen, order, p, o["text"].removesuffix(" " + EVERY))
            if why:
                _stop(game, state, p, o, why)


def _expire(rs, state) -> None:
    if rs.is_over(state):  # nothing is left to order
        state["standing"].clear()
        return
    now = rs.standing_round(state)
    for mine in state["standing"].values():
        mine["orders"][:] = [o for o in mine["orders"] if o["round"] == now or o["text"].endswith(EVERY)]
        mine["stopped"][:] = [n for n in mine["stopped"] if "move" in n or now - n["round"] <= NOTE_ROUNDS]


# ---- for the proofs and the bots --------------------------------------------------------------
def resample(game, state: dict, player: str, rng) -> dict:
    """`state` (changed in place and returned) with every other player's standing orders and
    notes redrawn: they are secret, so anything consistent with the position will do (no
    awaited player holds one that applies now: it would have been carried out)."""
    rs = game.ruleset
    others = {p: mine for p, mine in state.get("standing", {}).items() if p != player}
    state.setdefault("standing", {})
    for p in others:
        del state["standing"][p]
    awaited = rs.awaiting(state)
    for q in state["seats"]:
        if q == player or rs.is_over(state) or rng.below(3) == 0:
            continue
        choices = [t for t in rs.standing_examples(state, q) if q not in awaited or not _applies(game, state, q, t)]
        orders = [{"round": rs.standing_round(state), "text": rng.choice(choices)}
                  for _ in range(rng.below(3)) if choices]
        stopped = [{"round": rs.standing_round(state), "text": '"auto pass" stopped: redrawn'}] if rng.below(2) else []
        if orders or stopped:
            state["standing"][q] = {"orders": orders, "stopped": stopped}
    _tidy(state)
    return state


def _applies(game, state, player, text) -> bool:
    try:
        return game.ruleset.standing_order(_view(game, state, player), player,
                                           text.removesuffix(" " + EVERY)) is not None
    except JudgeError:
        return True
