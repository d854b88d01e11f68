"""What a notice says (docs/notices.md): made from its recipient's view alone, so that it holds
nothing they may not know (tests/proofs/test_fair_play.py redraws the rest and compares every
notice's whole text).

A player with a notice URL is told when the game comes to wait for them (your turn: the kind
of order, the move, the deadline, the game's page), before the deadline (a reminder), when the
judge gave an order for them at a missed deadline, and at the end. The game's public channel
is told each change's public events in one message, and the end with the winners.

A notice is a small record, queued with the change that causes it (judge/mail/outbox.py
`commit`: pending with the change's mails, ready once the game file is saved) and sent by
judge/mail/noticesend.py: {"game", "to" (a player, or "" for the public channel), "kind",
"title", "body"}. It names no URL: the sender looks the recipient's up when it sends.
"""
from __future__ import annotations

import json

MAX_EVENTS = 8  # a public message's events; the rest is said in one line
PUBLIC = ""  # the `to` of the public channel


def record(game: str, to: str, kind: str, title: str, body: str) -> dict:
    return {"game": game, "to": to, "kind": kind, "title": title, "body": body}


def encode(notice: dict) -> bytes:
    return json.dumps(notice, sort_keys=True).encode("utf-8")


def decode(data: bytes) -> dict | None:
    try:
        notice = json.loads(data.decode("utf-8"))
    except (UnicodeError, ValueError):
        return None
    fields = ("game", "to", "kind", "title", "body")
    return notice if isinstance(notice, dict) and all(isinstance(notice.get(f), str) for f in fields) else None


def _page(page: str, name: str) -> str:
    return f"\nThe game's page: {page.replace('{game}', name)}" if page else ""


def your_turn(name: str, who: str, view: dict, deadline: str, page: str, link: str = "") -> dict:
    """`link`: the player's own private page (their seat's key: theirs to know)."""
    move = view["move"]
    body = (f"{view['title']}, game {name}, move {move}: the game waits for your order: "
            f"{view['prompts'].get(who, 'an order')}.\n{deadline}" + _page(page, name)
            + (f"\nYour own page, orders in one tap: {link}" if link else ""))
    return record(name, who, "turn", f"game {name}: your turn, move {move}", body)


def reminder(name: str, who: str, view: dict, deadline: str) -> dict:
    move = view["move"]
    body = f"Reminder: game {name} is waiting for your order for move {move}.\n{deadline}"
    return record(name, who, "reminder", f"game {name}: reminder, move {move}", body)


def defaulted(name: str, who: str, said: str) -> dict:
    """`said`: the notice everyone was told of the order the judge gave for `who`."""
    return record(name, who, "default", f"game {name}: an order was given for you", said)


def _winners(view: dict) -> str:
    rows = view.get("standings") or []
    best = [r for r in rows if r.get("rank") == 1]
    table = "; ".join(f"{r['rank']}. {r['player']} {r['score']}" for r in rows)
    return (f"Winner{'s' if len(best) != 1 else ''}: {', '.join(r['player'] for r in best) or 'none'}.\n"
            f"Final standings: {table}.")


def ended(name: str, who: str, view: dict, page: str) -> dict:
    body = f"{view['title']}, game {name} is over.\n{_winners(view)}" + _page(page, name)
    return record(name, who, "end", f"game {name}: the game is over", body)


def public_move(name: str, view: dict, since: int, page: str, before: list[dict] | None = None) -> dict | None:
    """The public events of a change (those the public saw `before` it left out; without
    `before`, those of moves `since` and later), and whom the game waits for now; None when
    nothing public happened."""
    from judge.engine.ruleset import new_events

    shown_now = view.get("events", [])
    added = new_events(before, shown_now) if before is not None else [e for e in shown_now if e.get("move", 0) >= since]
    events = [e["text"] for e in added]
    if not events and view["move"] == since:
        return None
    shown = events[:MAX_EVENTS] + ([f"... and {len(events) - MAX_EVENTS} more."] if len(events) > MAX_EVENTS else [])
    waits = "; ".join(f"{p}: {view['prompts'].get(p, 'an order')}" for p in view["awaiting"])
    if view.get("game_over"):
        return record(name, PUBLIC, "end", f"game {name}: the game is over",
                      "\n".join(shown + [_winners(view)]) + _page(page, name))
    body = "\n".join(shown + [f"Now move {view['move']}, waiting for {waits}." if waits else f"Now move {view['move']}."])
    return record(name, PUBLIC, "move", f"game {name}: move {view['move']}", body + _page(page, name))


def for_change(name: str, game, start_move: int, awaited_before, wants, deadline, page: str = "",
               link=lambda who: "", events_before: list[dict] | None = None) -> list[dict]:
    """The notices of a change that took `game` from move `start_move`, when `awaited_before`
    were awaited, to where it is: to each player of `wants` who is awaited now and was not
    (one a turn), or to each at the end; to the public channel (PUBLIC in `wants`) the
    change's public events. `deadline(player)` says their deadline, `link(player)` their
    private link for a "your turn" ("": none); `events_before`, the public events before the
    change (its public message tells only those added). Each text is made from its
    recipient's view alone (and their own link)."""
    out = []
    over = game.is_over()
    for who in [p for p in game.players if p in wants]:
        if over:
            out.append(ended(name, who, game.view(who), page))
        elif who in game.awaiting() and who not in awaited_before:
            out.append(your_turn(name, who, game.view(who), deadline(who), page, link(who)))
    if PUBLIC in wants:
        note = public_move(name, game.view(None), start_move, page, events_before)
        out += [note] if note else []
    return out
