"""Players serve themselves by mail: the lines a player may write in a block besides orders
(help, rules, history, report, away, back, resign, propose end, agree end, press, set,
confirm, league), the game master's `set` of the game's mail settings, and what the other parts of
the mail judge ask of them (away players' deadlines, resigned seats played by the bot, the
events a player missed since their last report).

Everything lives in [meta.mail] beside what was there before, each with a default, so game
files of earlier judges load unchanged: per player (in players.NAME) `zone`, `mail`,
`away_until`, `absences`, `missed`, `resigned`, `last_report`, `pending_address`; per game
`press`, `away_limit`, `away_days`, `absent_after`, `skip_weekends` and `end_votes`. Press
sent to all is kept in [meta] `press` for the game's public record."""
from __future__ import annotations

import hashlib
import re
import secrets
from datetime import date, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from judge.engine.errors import JudgeError
from judge.mail import players
from judge.mail.settings import setting
from judge.mail.outbox import compose
from judge.mail.addresses import is_address

GM_SETTINGS = {  # `set KEY VALUE` from the game master: how VALUE is read
    "press": lambda v: _choice(v, ("off", "on", "anon")),
    "away_limit": lambda v: _number(v, 0, 100),
    "away_days": lambda v: _number(v, 1, 365),
    "absent_after": lambda v: _number(v, 0, 1000),
    "skip_weekends": lambda v: _choice(v, ("yes", "no")) == "yes",
}


def _choice(value: str, allowed: tuple) -> str:
    if value.lower() not in allowed:
        raise JudgeError(f"write one of {', '.join(allowed)}")
    return value.lower()


def _number(value: str, low: int, high: int) -> int:
    if not _digits(value) or not low <= int(value) <= high:
        raise JudgeError(f"write a whole number from {low} to {high}")
    return int(value)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) < 10


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode()).hexdigest()


_SET_PASSWORD = re.compile(r"(?i)^set\s+password\s+(\S+)")


def new_passwords(lines: list[str]) -> list[str]:
    """The new passwords a block's `set password NEW` lines give: hidden everywhere."""
    return [m[1] for line in lines if (m := _SET_PASSWORD.match(line))]


# ---- the player's lines -----------------------------------------------------------------
ANSWERING = ("help", "rules", "history", "report", "league", "link")  # lines that only ask: what their
MAX_ANSWERS = 5  # answers cost (a replay, the league's records, a long text) is bounded per block


def handle(run, verb: str, args: list[str], line: str) -> None:
    """Carry out one line of a player (`run.who`); raise JudgeError to refuse it. A line that
    only asks is answered once a block (the same line again: "answered above"), and at most
    MAX_ANSWERS of them; neither refuses the block's orders."""
    if verb in ANSWERING:
        asked = (verb, *(a.lower() for a in args))
        if asked in run.asked or len(run.asked) >= MAX_ANSWERS:
            run.answers.append(f"'{' '.join(asked)}': " + ("answered above." if asked in run.asked else
                               f"not answered: at most {MAX_ANSWERS} such lines a block."))
            return
        run.asked.add(asked)
    COMMANDS[verb](run, run.who, args)


def _entry(run, player: str) -> dict:
    return run.mg.m["players"][player]


def _help(run, player, args):
    from judge.engine.report import render_help

    _nothing_after("help", args)
    run.answers.append(render_help(run.game.ruleset))


def _rules(run, player, args):
    from judge.engine.report import render_help

    _nothing_after("rules", args)
    text = render_help(run.game.ruleset)
    at = text.find("\nRules")
    run.answers.append(text[at + 1:] if at >= 0 else text)


def _league(run, player, args):
    """The league of this game's ruleset (docs/league.md), as the index of the site's archive
    (or games) keeps it: no record is read (judge/league/index.py)."""
    from judge.league import index, records, table

    _nothing_after("league", args)
    kept = index.kept_for(records.site_source(run.cfg), run.cfg.aliases)
    if kept is None:
        return run.answers.append("The league is not computed yet: the next judge tick computes it.")
    rs = run.game.ruleset.name
    excluded = [n for n in kept.excluded if n["ruleset"] == rs]
    run.answers.append(table.text(kept.sections(rs)) + (f"{len(excluded)} finished game{'s' if len(excluded) != 1 else ''}"
                       " left out: judge audit fails on their records (the site's league page says why).\n"
                       if excluded else ""))


def _move_arg(run, args, verb: str, default: int) -> int:
    if not args:
        return default
    if len(args) != 1 or not _digits(args[0]) or not 1 <= int(args[0]) <= run.game.move:
        raise JudgeError(f"write {verb} MOVE, a move from 1 to {run.game.move}")
    return int(args[0])


def _history(run, player, args):
    from judge.record.history import moves

    since = _move_arg(run, args, "history", _entry(run, player).get("last_report", 1))

    def answer() -> str:  # (once the block is applied: Run.lines)
        rows = [r for r in moves(run.game) if r["move"] >= since]
        text = f"Moves since move {since} (as every player saw them):\n"
        for r in rows:
            text += f"  #{r['move']} " + "; ".join(r["orders"]) + "\n"
            text += "".join(f"      {e}\n" for e in r["events"])
        return text if rows else f"Nothing has happened since move {since}."
    run.answers.append(answer)


def _report(run, player, args):
    from judge.record.history import at_move
    from judge.engine.report import render

    move = _move_arg(run, args, "report", run.game.move)
    run.answers.append(lambda: f"Your report at move {move}:\n\n" + render(at_move(run.game, move).view(player), mail=True))


def _link(run, player, args):
    """The link to the sender's own page (their seat's: never another's)."""
    from judge.store import seatkeys

    _nothing_after("link", args)
    seatkeys.ensure(run.game)  # (a game made before keys: drawn now, saved with the block)
    text = run.mg.link_text(run.cfg, player)
    run.answers.append(text.rstrip("\n") + "\n" if text else
                       "This judge publishes no site, so there is no page of your own: your reports come by mail.")


def _away(run, player, args):
    m, entry = run.mg.m, _entry(run, player)
    if len(args) != 2 or args[0].lower() != "until":
        raise JudgeError("write away until YYYY-MM-DD")
    try:
        until = date.fromisoformat(args[1])
    except ValueError:
        raise JudgeError(f"'{args[1]}' is not a date (write YYYY-MM-DD, e.g. 2026-12-24)") from None
    today, longest = run.now.date(), setting(m, "away_days")
    if until <= today:
        raise JudgeError(f"{until} is not after today ({today})")
    if until > today + timedelta(days=longest):
        raise JudgeError(f"an absence may last at most {longest} day{'s' if longest != 1 else ''} in this game "
                         f"(until {today + timedelta(days=longest)})")
    used, limit = entry.get("absences", 0), setting(m, "away_limit")
    if used >= limit:
        used_up = "the one absence" if limit == 1 else f"all {limit} absences"
        raise JudgeError(f"you have used {used_up} this game allows; ask the game master")
    entry["away_until"], entry["absences"] = until.isoformat(), used + 1
    run.notices.append(f"{player} is away until {until}.")


def _back(run, player, args):
    _nothing_after("back", args)
    if not _entry(run, player).pop("away_until", None):
        raise JudgeError("you are not away")
    run.notices.append(f"{player} is back.")


def _changing(verb: str):
    """The handler of `resign`, `propose end`, `agree end` or `press` (judge/mail/players.py,
    the shell's too): a password pasted in press reaches nobody, nor the record (run.hide)."""
    def handler(run, player, args):
        notice = players.carry_out(run.game, run.mg.m, player, verb, args, hide=run.hide)
        run.notices += [notice] if notice else []
    return handler


def deliver_press(path, name: str, cfg, outbox, now, tick: bool = False) -> int:
    """Send the press waiting in [meta.mail] press_pending as a change of its own, one mail for
    each recipient (players.press_mails), never beside a report or a notice of the change that
    gave it: the press to one player that named players sent (after the message or the shell
    command that gave it); with `tick` (judge tick) also the anonymous press that has waited
    through a tick already (`held`), kept for the public record then, in an archive commit of
    its own, while the newer anonymous press is held for the next tick. So anonymous press
    goes out at a tick's time, in one batch with all the anonymous press written between the
    two ticks before, whoever wrote it. Returns how many mails it sent."""
    from judge.change.unit import Change

    who = "judge tick (press)" if tick else "judge (press)"
    with Change(path, cfg, outbox, now=now, sender=who, reports=False) as change:
        mg = change.mail
        waiting = mg.m.get("press_pending", []) if mg is not None else []
        sent = [e for e in waiting if "from" in e or (tick and e.get("held"))]
        left = [e for e in waiting if not ("from" in e or (tick and e.get("held")))]
        newly = [e for e in left if tick and not e.get("held")]
        if not sent and not newly:
            change.discard()
            return 0
        for e in newly:
            e["held"] = True  # delivered by the next tick
        if left:
            mg.m["press_pending"] = left
        else:
            del mg.m["press_pending"]
        for e in sorted(sent, key=lambda e: e["text"]):  # (as press_mails: the order written tells who wrote)
            if "from" not in e and e["to"] == "all":
                players.keep_press(change.game, "anonymous", e["text"])
        change.mails += players.press_mails(cfg, mg, sent)
        if sent:
            anonymous = sum("from" not in e for e in sent)
            change.outcome = f"press delivered: {len(sent) - anonymous} named, {anonymous} anonymous lines"
    return len(change.sent)


def _set(run, player, args):
    if len(args) != 2:
        raise JudgeError("write set, then password, address, zone or mail, then the new value")
    key, value = args[0].lower(), args[1]
    entry = _entry(run, player)
    if key == "password":
        from judge.mail.passwords import hash_password

        if len(value) < 8 or len(value) > 200:
            raise JudgeError("a password has 8 to 200 characters")
        entry["password"] = hash_password(value)
        run.mails.append(compose(run.cfg, entry["address"], f"game {run.name}: your password was changed",
                                 f"Your password for game {run.name} ({player}) was changed as you asked; "
                                 "the old one no longer works. If you did not ask for it, tell the game master at once.\n"))
    elif key == "address":
        if not is_address(value):
            raise JudgeError(f"'{value}' is not a mail address (write local@example.org)")
        if value.lower() == entry["address"]:
            raise JudgeError("that is your address already")
        code = secrets.token_hex(4)
        entry["pending_address"] = {"address": value.lower(), "code": _code_hash(code)}
        run.mails.append(compose(run.cfg, value.lower(), f"game {run.name}: confirm your new address",
                                 f"{player} of game {run.name} asked to receive the game's mail at this address. "
                                 f"To confirm, send from the old address, in a block for game {run.name}:\n\n"
                                 f"  confirm {code}\n\nIf you did not ask for it, ignore this mail.\n"))
        run.answers.append(f"A code was mailed to {value.lower()}. Send 'confirm CODE' from this address "
                           "to make the change; until then your mail comes here.")
    elif key == "zone":
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise JudgeError(f"unknown time zone '{value}' (write a zone name such as Europe/Berlin or UTC)") from None
        entry["zone"] = value
    elif key == "mail":
        entry["mail"] = _choice(value, ("turn", "all"))
    else:
        raise JudgeError(f"there is no setting '{args[0]}' (password, address, zone or mail)")


def _confirm(run, player, args):
    entry = _entry(run, player)
    pending = entry.get("pending_address")
    if not pending:
        raise JudgeError("no change of address waits for a code (write set address NEW first)")
    if len(args) != 1 or not secrets.compare_digest(_code_hash(args[0]), pending["code"]):
        raise JudgeError("that is not the code mailed to your new address")
    old, new = entry["address"], pending["address"]
    entry["address"] = new
    del entry["pending_address"]
    for address in (old, new):
        run.mails.append(compose(run.cfg, address, f"game {run.name}: your address was changed",
                                 f"The mail of game {run.name} for {player} now goes to {new} (before: {old}). "
                                 "Write your orders from the new address.\n"))


def _nothing_after(verb: str, args) -> None:
    if args:
        raise JudgeError(f"'{verb}' takes nothing after it")


def _notify(run, player, args):
    """notify URL (notices to an Apprise URL), notify digest (in one message at most every
    [notify] digest minutes), notify off. The URL is a secret: the answer names its service
    only, and every echo and log line hides it (`notify_urls`). Written once the block is
    applied whole (judge/gateway/inbox.py), under the game's lock."""
    from judge.mail import notify

    if len(args) != 1:
        raise JudgeError("write notify URL (an Apprise URL such as ntfys://ntfy.sh/TOPIC), notify digest or notify off")
    word, entry = args[0].lower(), notify.load(run.cfg, run.name)["players"].get(player)
    if word == "off":
        run.notify.append((player, None, None))
        run.answers.append(f"Your notices for game {run.name} are switched off." if entry else
                           f"You had no notices for game {run.name}; none are sent.")
    elif word == "digest":
        if not entry:
            raise JudgeError("set a URL first: notify URL")
        run.notify.append((player, None, True))  # (its URL kept as it is)
        minutes = run.cfg.notify.get("digest", 60)
        run.answers.append(f"Your notices for game {run.name} come as a digest, at most one every {minutes} minutes "
                           f"({notify.service(entry['url'])}).")
    else:
        name = notify.check(run.cfg, args[0])
        run.notify.append((player, args[0], False))
        run.answers.append(f"Your notices for game {run.name} go to {name}: your turn, a reminder before the "
                           "deadline, an order given for you, the end.")


def notify_urls(lines: list[str]) -> list[str]:
    """What a block's `notify` lines give besides `off` and `digest`: hidden everywhere, as
    passwords are, whatever else the line holds (a refused `notify URL digest` is echoed too)."""
    out = []
    for line in lines:
        words = line.split()
        if words and words[0].startswith("#") and words[0][1:].isdigit():
            words = words[1:]  # (a move's guard before it)
        if words and words[0].lower() == "notify":
            out += [w for w in words[1:] if w.lower() not in ("off", "digest")]
    return out


COMMANDS = {
    "help": _help, "rules": _rules, "history": _history, "report": _report, "away": _away, "back": _back,
    **{verb: _changing(verb) for verb in players.VERBS}, "set": _set, "confirm": _confirm,
    "league": _league, "notify": _notify, "link": _link,
}


# ---- a hand-edited game file -----------------------------------------------------------------


# ---- the game master's settings -----------------------------------------------------------
def gm_set(run, args: list[str]) -> None:
    if len(args) != 2 or args[0].lower() not in GM_SETTINGS:
        raise JudgeError("write set KEY VALUE, KEY one of " + ", ".join(GM_SETTINGS))
    key = args[0].lower()
    run.mg.m[key] = GM_SETTINGS[key](args[1])


def gm_notes(m: dict, player: str) -> str:
    """What the game master's status shows beside a player: " (absent, away until ..., ...)"."""
    entry = m["players"][player]
    notes = (["absent"] if player in m["absent"] else []) + (["resigned"] if entry.get("resigned") else []) \
        + ([f"away until {entry['away_until']}"] if entry.get("away_until") else []) \
        + ([f"missed {entry['missed']} deadlines"] if entry.get("missed") else [])
    return f" ({', '.join(notes)})" if notes else ""


# ---- what the rest of the mail judge asks --------------------------------------------------

