"""A mail game's settings and the time helpers the mail side needs, kept in the game file's
[meta.mail] beside what earlier judges wrote (each with a default, so their files load
unchanged): per player (players.NAME) `zone`, `mail`, `away_until`, `absences`, `missed`,
`resigned`, `last_report`, `pending_address`; per game `press`, `away_limit`, `away_days`,
`absent_after`, `skip_weekends`, `end_votes` and `press_pending` (press to one player or
anonymous waiting to be sent apart from the change that gave it, one mail per recipient). The lines that change them are the
gateway's (judge/gateway/selfservice.py); resign, the votes to end and press are also the
shell's (both through judge/mail/players.py)."""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULTS = {"press": "on", "away_limit": 3, "away_days": 14, "absent_after": 3, "skip_weekends": False}
COMPACT_AFTER = 30  # more events since the last report than this are compacted
SHOWN_IN_REPORT = 12  # the report itself lists the last this many events
_PLAYER_KEYS = {"zone": str, "mail": str, "away_until": str, "absences": int, "missed": int, "resigned": bool,
                "last_report": int, "pending_address": dict}
_NUMBERS = re.compile(r"\d+")


def setting(m: dict, key: str):
    return m.get(key, DEFAULTS[key])


def is_away(entry: dict, now: datetime) -> bool:
    """Whether a player is away now: until the end of their `away_until` day (UTC)."""
    until = entry.get("away_until")
    return bool(until) and now.date() <= date.fromisoformat(until)


def problems(m: dict) -> str:
    """What is wrong with the self-service keys of [meta.mail] ("" when nothing), so that a
    hand-edited file is refused with its reason, never a crash halfway through a message."""
    for key, default in DEFAULTS.items():
        if key in m and type(m[key]) is not type(default):
            return f"{key} must be like {default!r}, not {m[key]!r}"
    if m.get("press", "on") not in ("off", "on", "anon"):
        return f"press must be off, on or anon, not {m['press']!r}"
    if not isinstance(m.get("end_votes", []), list):
        return "end_votes must be a list of players"
    pending = m.get("press_pending", [])
    if not (isinstance(pending, list) and all(isinstance(p, dict) and isinstance(p.get("text"), str)
                                              and p.get("to") in ("all", *m["players"])
                                              and ("from" not in p or p["from"] in m["players"])
                                              and ("by" not in p or p["by"] in m["players"]) for p in pending)):
        return ("press_pending must be a list of tables of to (all or a player), text and from (named press) "
                "or by (anonymous press)")
    for player, entry in m["players"].items():
        for key, kind in _PLAYER_KEYS.items():
            if key in entry and type(entry[key]) is not kind:
                return f"players.{player}.{key} must be a {kind.__name__}, not {entry[key]!r}"
        try:
            if "away_until" in entry:
                date.fromisoformat(entry["away_until"])
            if "zone" in entry:
                ZoneInfo(entry["zone"])
        except (ValueError, ZoneInfoNotFoundError):
            return f"players.{player} holds a bad date or time zone"
    return ""


def weekday_deadline(now: datetime, hours: int) -> datetime:
    """`hours` from now counting only Monday to Friday (UTC)."""
    t, left = now, timedelta(hours=hours)
    while left > timedelta(0):
        if t.weekday() >= 5:  # to the next midnight
            t = datetime.combine(t.date() + timedelta(days=1), datetime.min.time(), tzinfo=t.tzinfo)
            continue
        midnight = datetime.combine(t.date() + timedelta(days=1), datetime.min.time(), tzinfo=t.tzinfo)
        step = min(left, midnight - t)
        t, left = t + step, left - step
    return t


def in_zone(when: datetime, zone: str | None) -> str:
    """A time as a player reads it: in their zone with UTC beside, or in UTC."""
    utc = when.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    if not zone:
        return utc
    return f"{when.astimezone(ZoneInfo(zone)).strftime('%Y-%m-%d %H:%M %Z')} ({utc})"


def catch_up(game, player: str, since: int) -> str:
    """The events `player` may see from move `since` on, when there are more than the report
    itself lists; compacted when long. "" when the report shows them all."""
    from judge.engine.ruleset import KEEP_EVENTS, visible_events

    kept = game.state["events"]
    if len(kept) < KEEP_EVENTS or kept[0]["move"] < since:  # the state still holds them all
        events = visible_events(game.state, player)
    else:
        from judge.record.history import all_events

        events = visible_events({"events": all_events(game)}, player)
    events = [e for e in events if e["move"] >= since]
    if len(events) <= SHOWN_IN_REPORT:
        return ""
    lines = [f"#{e['move']} {e['text']}" for e in events]
    if len(events) > COMPACT_AFTER:
        lines = compact(lines, game.players)
    return (f"Since your last report (move {since}), {len(events)} events:\n"
            + "".join(f"  {line}\n" for line in lines) + "\n")


def compact(lines: list[str], players: list[str]) -> list[str]:
    """Runs of three or more events alike but for their numbers and the players they name
    (an auction's bids) become the first, how many more alike, and the last."""
    names = re.compile(r"\b(" + "|".join(map(re.escape, players)) + r")\b")

    shapes = [_NUMBERS.sub("#", names.sub("P", line.split(" ", 1)[-1])) for line in lines]
    out, i = [], 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and shapes[j + 1] == shapes[i]:
            j += 1
        if j - i >= 2:
            out += [lines[i], f"... and {j - i - 1} more like it ...", lines[j]]
        else:
            out += lines[i:j + 1]
        i = j + 1
    return out
