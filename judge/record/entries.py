"""Which log entries the public may read while a game runs: the one place that decides it."""
from __future__ import annotations

from judge.engine import facts, standing
from judge.engine.game import AGREED_END, Game
from judge.engine.orderlog import LogEntry
from judge.engine.ruleset import GM

SECRET = "secret order"


def secret_entry(game: Game, entry: str) -> bool:
    """Whether a log entry ("MOVE PLAYER ORDER") holds something secret while the game runs,
    all of it or a part: the one place that decides it (the ruleset's `public_order` hook,
    made from what its `information.orders` declares, and standing orders given or cancelled;
    extend here for new kinds of entry). The judge's own entries (judge/engine/facts.py) are
    public: every player was told each."""
    parts = LogEntry.read(entry)
    return parts is None or _shown(game, entry, parts) != parts.text


def public_entry(game: Game, entry: str) -> str:
    """A log entry as the public saw it: "MOVE PLAYER ORDER" with the order as the ruleset's
    `public_order` shows it, or "MOVE PLAYER secret order"."""
    parts = LogEntry.read(entry)
    if parts is None:
        return SECRET
    if parts.player == facts.JUDGE:
        return entry
    shown = _shown(game, entry, parts)
    return str(parts._replace(text=SECRET if shown is None else shown))


def _shown(game: Game, entry: str, parts: LogEntry) -> str | None:
    """The order of an entry as the public reads it (None: a secret order). The judge's own
    entries and the game master's end by agreement are what every player was told; a standing
    order given or cancelled is its player's secret; any other order as the ruleset declares."""
    if parts.player == facts.JUDGE or (parts.player == GM and parts.text == AGREED_END):
        return parts.text
    return None if standing.is_secret_entry(entry) else game.ruleset.public_order(parts.text)


def public_log(game: Game) -> list[str]:
    """The log as the public saw it; the whole log once the game is over. Standing orders
    given or cancelled are left out: even that a player has some is their secret (the orders
    they carry out are ordinary entries)."""
    if game.is_over():
        return list(game.log)
    return public_entries(game, game.log)


def public_entries(game: Game, entries) -> list[str]:
    """Log entries as the public saw them while the game runs, standing orders left out (the
    running log, and the orders a rollback undid)."""
    return [public_entry(game, e) for e in entries if not standing.is_secret_entry(e)]
