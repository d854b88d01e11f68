"""What every player of a mail game was told of each seat's conduct, kept for the league
(judge/league/): the missed deadlines ("Missed order: bob gave no order for move 12 by the
deadline ...") and the resignations ("bob has resigned ..."), and when the game ended.

They live in the game file's [meta.league] (the rest of [meta] is private) and are shown in
the public record under [league]. Every fact is one all players were mailed; none depends on
a secret (no order's words, no address):

    [meta.league]
    ended = "2026-05-09T12:00:00Z"   # stamped by the change that first finds the game over
    deadlines = true                 # stamped with it: whether the game had deadlines
    facts = [
      { kind = "missed", seat = "bob", player = "bob", move = 12, deadline = "...", after = 0 },
      { kind = "resigned", seat = "carol", player = "dave", move = 30, after = 1 },
    ]

`player` is who held the seat then (its registered name, after any replacement); `after` is
how many corrections the game had then, so that a later rollback over the move undoes a missed
deadline (its order was undone). Files without [meta.league] load unchanged."""
from __future__ import annotations

from datetime import timezone

KEY = "league"


def _facts(game) -> list:
    return game.meta.setdefault(KEY, {}).setdefault("facts", [])


def _fact(game, kind: str, seat: str, player: str, **extra) -> None:
    _facts(game).append({"kind": kind, "seat": seat, "player": player, "move": game.move,
                         **extra, "after": len(game.corrections)})


def missed(game, seat: str, player: str, deadline: str) -> None:
    """`seat`, played by `player` (corrections.holder), gave no order for the move now awaited
    by `deadline`: the judge gives one (call this before it does)."""
    _fact(game, "missed", seat, player, deadline=deadline)


def resigned(game, seat: str, player: str) -> None:
    """The seat's player resigned: the judge's bot plays the seat from now on."""
    _fact(game, "resigned", seat, player)


def ended(game, now) -> None:
    """Stamp the time the game ended, the first time a change (or `judge play --save`) finds it
    over (the league takes games in order of their end), and whether it had deadlines (a mail
    game's, or a deadline missed: every player was told them)."""
    kept = game.meta.setdefault(KEY, {})
    if isinstance(kept, dict) and "ended" not in kept:
        kept["ended"] = now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        mail = game.meta.get("mail")
        kept["deadlines"] = bool(isinstance(mail, dict) and mail.get("deadline_hours")) or any(
            isinstance(f, dict) and f.get("kind") == "missed" for f in kept.get("facts", []))


def public(game) -> dict:
    """The record's [league] table ({} when there is nothing to show)."""
    kept = game.meta.get(KEY)
    if not isinstance(kept, dict):
        kept = {}
    out = {}
    if isinstance(kept.get("ended"), str):
        out["ended"] = kept["ended"]
    if isinstance(kept.get("deadlines"), bool):
        out["deadlines"] = kept["deadlines"]
    elif "mail" not in game.meta and game.is_over():  # a finished shell game stamped by no judge: none
        out["deadlines"] = False
    if kept.get("facts"):
        out["facts"] = [dict(f) for f in kept["facts"] if isinstance(f, dict)]
    return out
