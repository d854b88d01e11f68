"""What every player of a mail game was told of each seat's conduct, kept for the league
(judge/league/): the missed deadlines ("Missed order: bob gave no order for move 12 by the
deadline ..."), the resignations ("bob has resigned ..."), the seats handed on, and when the
game ended. Every fact is one all players were told; none depends on a secret (no order's
words, no address).

Games of file format 2 (made since issue 34) log them as entries of the judge
(judge/engine/facts.py), public, replayed and audited like orders, and the league reads them
from the log alone:

    12 judge: missed bob by 2026-05-03T12:00:00Z: the default order
    12 bob pass
    30 judge: resigned carol
    41 judge: seat dave to erin
    77 judge: ended at 2026-05-09T12:00:00Z        # (a game without deadlines: "... with no deadlines")

Games of format 1 (running when the judge began logging them) keep them in the game file's
[meta.league] to their end, as they always did, shown in the public record under [league]
and read by the league from there (docs/league.md):

    [meta.league]
    ended = "2026-05-09T12:00:00Z"   # stamped by the change that first finds the game over
    deadlines = true                 # stamped with it: whether the game had deadlines
    facts = [
      { kind = "missed", seat = "bob", player = "bob", move = 12, deadline = "...", after = 0 },
      { kind = "resigned", seat = "carol", player = "dave", move = 30, after = 1 },
    ]

`player` is who held the seat then (its registered name, after any replacement; the log's
entries leave it to the seat's `seat` entries); `after` is how many corrections the game had
then, so that a later rollback over the move undoes a missed deadline (its order was undone;
a rollback takes a logged one out with the log). Files without [meta.league] load unchanged."""
from __future__ import annotations

from datetime import timezone

from judge.engine import facts

KEY = "league"


def logged(game) -> bool:
    """Whether the game logs its facts (file format 2) rather than keeping them in [meta.league]."""
    return game.format >= 2


def _facts(game) -> list:
    return game.meta.setdefault(KEY, {}).setdefault("facts", [])


def _fact(game, kind: str, seat: str, player: str, **extra) -> None:
    _facts(game).append({"kind": kind, "seat": seat, "player": player, "move": game.move,
                         **extra, "after": len(game.corrections)})


def missed(game, seat: str, player: str, deadline: str, how: str = facts.DEFAULT) -> None:
    """`seat`, played by `player` (corrections.holder), gave no order for the move now awaited
    by `deadline`: the judge gives one, chosen `how` (call this right before it does)."""
    if logged(game):
        game.note(facts.text("missed", seat, deadline, how))
    else:
        _fact(game, "missed", seat, player, deadline=deadline)


def resigned(game, seat: str, player: str) -> None:
    """The seat's player resigned: the judge's bot plays the seat from now on."""
    if logged(game):
        game.note(facts.text("resigned", seat))
    else:
        _fact(game, "resigned", seat, player)


def handed(game, seat: str, player: str) -> None:
    """The game master handed `seat` to `player` from now on (format 1 keeps it in the
    corrections' trace alone, where the league reads it)."""
    if logged(game):
        game.note(facts.text("seat", seat, player))


def ended(game, now) -> None:
    """Stamp the time the game ended, the first time a change (or `judge play --save`) finds it
    over (the league takes games in order of their end), and whether it had deadlines (a mail
    game's, or a deadline missed: every player was told them). A game of file format 2 logs
    both in the judge's entry (`ended at TIME`, `... with no deadlines`)."""
    stamp = now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    mail = game.meta.get("mail")
    timed = bool(isinstance(mail, dict) and mail.get("deadline_hours"))
    if logged(game):
        if not facts.ended(game.state):
            timed = timed or any(f.kind == "missed" for f in facts.facts(game.log))
            game.note(facts.text("ended", stamp, "" if timed else facts.NO_DEADLINES))
        return
    kept = game.meta.setdefault(KEY, {})
    if isinstance(kept, dict) and "ended" not in kept:
        kept["ended"] = stamp
        kept["deadlines"] = timed or any(isinstance(f, dict) and f.get("kind") == "missed"
                                         for f in kept.get("facts", []))


def public(game) -> dict:
    """The record's [league] table ({} when there is nothing to show: always for a game that
    logs its facts, whose record shows them in its log)."""
    kept = game.meta.get(KEY)
    if logged(game):
        return {}
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
