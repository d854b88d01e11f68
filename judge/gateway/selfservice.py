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

from judge.engine import bots
from judge.engine.errors import JudgeError
from judge.engine.game import AGREED_END
from judge.engine.standing import is_secret_entry
from judge.engine.ruleset import GM
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
MAX_PRESS = 2000  # characters of one press line
KEEP_PRESS = 500  # press sent to all kept in the game file (and its public record), the latest


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
def handle(run, verb: str, args: list[str], line: str) -> None:
    """Carry out one line of a player (`run.who`); raise JudgeError to refuse it."""
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
    """The league of this game's ruleset (docs/league.md), from the site's archive or games."""
    from judge.league import records, table

    _nothing_after("league", args)
    sections, _ = table.from_source(records.site_source(run.cfg), run.cfg.aliases, run.game.ruleset.name)
    run.answers.append(table.text(sections))


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
    run.answers.append(lambda: f"Your report at move {move}:\n\n" + render(at_move(run.game, move).view(player)))


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
        raise JudgeError(f"an absence may last at most {longest} days in this game (until {today + timedelta(days=longest)})")
    used, limit = entry.get("absences", 0), setting(m, "away_limit")
    if used >= limit:
        raise JudgeError(f"you have used all {limit} absences this game allows; ask the game master")
    entry["away_until"], entry["absences"] = until.isoformat(), used + 1
    run.notices.append(f"{player} is away until {until}.")


def _back(run, player, args):
    _nothing_after("back", args)
    if not _entry(run, player).pop("away_until", None):
        raise JudgeError("you are not away")
    run.notices.append(f"{player} is back.")


def _resign(run, player, args):
    _nothing_after("resign", args)
    if run.game.is_over():
        raise JudgeError("the game has ended")
    entry = _entry(run, player)
    if entry.get("resigned"):
        raise JudgeError("you have resigned already")
    if still_in(run.game, run.mg.m) == [player]:
        raise JudgeError("nobody else is still in the game: end it with 'propose end' instead")
    entry["resigned"] = True
    from judge.record import conduct, corrections

    conduct.resigned(run.game, player, corrections.holder(run.game, player))  # for the league: all are told below
    run.notices.append(f"{player} has resigned: the judge's bot plays the seat {player} from now on.")


def still_in(game, m: dict) -> list[str]:
    return [p for p in game.players if not m["players"][p].get("resigned")]


def _propose(run, player, args):
    if [a.lower() for a in args] != ["end"]:
        raise JudgeError("write propose end")
    _vote(run, player, proposing=True)


def _agree(run, player, args):
    if [a.lower() for a in args] != ["end"]:
        raise JudgeError("write agree end")
    _vote(run, player, proposing=False)


def _vote(run, player, proposing: bool) -> None:
    m, game = run.mg.m, run.game
    if game.is_over():
        raise JudgeError("the game has ended")
    votes = m.get("end_votes", [])
    if not proposing and not votes:
        raise JudgeError("nobody has proposed to end the game (write propose end)")
    if player in votes:
        raise JudgeError("you have agreed already")
    m["end_votes"] = votes = [*votes, player]
    waiting = [p for p in still_in(game, m) if p not in votes]
    if waiting:
        first = "proposes" if len(votes) == 1 else "agrees"
        run.notices.append(f"{player} {first} to end the game now, scored as it stands; it ends when "
                           f"every player still in agrees (write 'agree end'). Still to agree: {', '.join(waiting)}.")
        return
    game.submit(GM, [AGREED_END])
    del m["end_votes"]
    run.notices.append(f"The players ({', '.join(votes)}) agreed to end the game at move {game.move - 1}; "
                       "it is scored as it stands.")


def _press(run, player, args):
    m, game = run.mg.m, run.game
    allowed = setting(m, "press")
    if allowed == "off":
        raise JudgeError("the game master does not allow press in this game")
    anon = bool(args) and args[0].lower() == "anon"
    if anon and allowed != "anon":
        raise JudgeError("the game master does not allow anonymous press in this game")
    args = args[1:] if anon else args
    if len(args) < 2:
        raise JudgeError("write press PLAYER TEXT, press all TEXT or press anon all TEXT")
    text = run.hide(" ".join(args[1:]))  # a password pasted in press reaches nobody, nor the record
    if len(text) > MAX_PRESS:
        raise JudgeError(f"press is at most {MAX_PRESS} characters a line")
    to = "all" if args[0].lower() == "all" else game.player_name(args[0])
    if to in (GM, player):
        raise JudgeError("press goes to all or to one of the others")
    if anon:  # delivered and archived apart from the rest of the block (deliver_anonymous_press)
        m.setdefault("press_pending", []).append({"to": to, "text": text})
        return
    sender = player
    if to == "all":
        run.notices.append(f"Press from {sender} to all: {text}")
        _keep_press(game, player, text)
        return
    body = (f"Press in game {run.name} from {sender}, to you only:\n\n  {text}\n\n"
            f"To answer, write 'press {player} YOUR TEXT' in a block for game {run.name}.\n")
    run.mails.append(compose(run.cfg, run.mg.address(to), f"game {run.name}: press from {sender}", body))


def _keep_press(game, sender: str, text: str) -> None:
    """Press to all, kept for the game's public record (the latest KEEP_PRESS)."""
    kept = game.meta.setdefault("press", [])
    kept.append({"move": game.move, "from": sender, "text": text})
    del kept[:-KEEP_PRESS]


def deliver_anonymous_press(path, name: str, cfg, outbox, now) -> int:
    """The anonymous press a block left waiting in [meta.mail] press_pending, sent as a change
    of its own right after that block's: mails of its own (never beside a report, a notice or
    another mail the sender's block caused) and an archive commit of its own, so that nothing
    ties it to the sender's orders or absence. Returns how many mails it sent."""
    from judge.change.unit import Change

    with Change(path, cfg, outbox, now=now, sender="judge (anonymous press)", reports=False) as change:
        game, mg = change.game, change.mail
        pending = mg.m.pop("press_pending", []) if mg is not None else []
        if not pending:
            change.discard()
            return 0
        subject = f"game {name}: press from an anonymous player"
        for press in pending:
            if press["to"] == "all":
                _keep_press(game, "anonymous", press["text"])
                body = f"Press in game {name} from an anonymous player, to all:\n\n  {press['text']}\n"
                targets = [a for a, _ in mg.recipients()] + [cfg.gm]
            else:
                body = f"Press in game {name} from an anonymous player, to you only:\n\n  {press['text']}\n"
                targets = [mg.address(press["to"])]
            change.mails += [compose(cfg, address, subject, body) for address in targets]
        change.outcome = f"anonymous press delivered ({len(pending)})"
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
                                 "the old one no longer works.\nIf you did not ask for it, tell the game master at once.\n"))
    elif key == "address":
        if not is_address(value):
            raise JudgeError(f"'{value}' is not a mail address (write local@example.org)")
        if value.lower() == entry["address"]:
            raise JudgeError("that is your address already")
        code = secrets.token_hex(4)
        entry["pending_address"] = {"address": value.lower(), "code": _code_hash(code)}
        run.mails.append(compose(run.cfg, value.lower(), f"game {run.name}: confirm your new address",
                                 f"{player} of game {run.name} asked to receive the game's mail at this address.\n"
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
                                 f"The mail of game {run.name} for {player} now goes to {new} (before: {old}).\n"
                                 "Write your orders from the new address.\n"))


def _nothing_after(verb: str, args) -> None:
    if args:
        raise JudgeError(f"'{verb}' takes nothing after it")


COMMANDS = {
    "help": _help, "rules": _rules, "history": _history, "report": _report, "away": _away, "back": _back,
    "resign": _resign, "propose": _propose, "agree": _agree, "press": _press, "set": _set, "confirm": _confirm,
    "league": _league,
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
def play_resigned(game, m: dict) -> None:
    """The bot's orders for resigned seats, as long as one of them is awaited (and the game
    is not paused: then on `resume`)."""
    # The ruleset's bound on a game's length counts the public orders, as `judge simulate` does:
    # players' secret standing-order entries are not moves (they once made it stop short).
    played = sum(1 for e in game.log if not is_secret_entry(e))
    while not m["paused"] and not game.is_over() and played <= game.ruleset.max_moves:
        seat = next((p for p in game.awaiting() if p != GM and m["players"][p].get("resigned")), None)
        if seat is None:
            return
        played += bots.new_public(game, lambda: game.submit(seat, [bots.choose(game, seat)]))


