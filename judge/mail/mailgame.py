"""The mail side of one game, kept in the game file's free-form [meta] table under "mail":
players' addresses and password hashes, the game master's password hash, observers, the
deadline settings and the current deadline, absent players, the paused flag and the
Message-IDs already handled. None of it ever reaches a view or a report.

Message-IDs are kept as fixed-size keys (`message_key`), at most KEEP_SEEN of them: a player's
messages cannot grow the game file beyond that. Files of earlier judges, which kept the raw
Message-IDs, are migrated on load.

Also the mails that follow a change: each recipient whose report changed gets it, with
any notices (missed orders, the game master's doings) that everyone must see.
"""
from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta, timezone

from judge.engine.errors import GameFileError, JudgeError
from judge.mail.journal import iso
from judge.mail.passwords import check_password, hash_password, new_password
from judge.engine.report import WIDTH, render
from judge.engine.ruleset import GM
from judge.mail.outbox import compose
from judge.mail import settings

KEEP_SEEN = 500  # Message-IDs remembered per game against duplicate deliveries
_KEY = re.compile(r"^[0-9a-f]{32}$")
_NO_PASSWORD = "scrypt$16384$8$1$" + "00" * 16 + "$" + "00" * 32  # checked for unknown names: same time


def message_key(message_id: str, block: int = 0, sender: str = "") -> str:
    """What the game file keeps of a Message-ID (32 hex digits however long the ID); `block`
    counts the earlier blocks for the same game in the same message. With the `sender`, each
    sender's IDs are their own: a Message-ID is no secret, and a player who sends first with
    another's future ID must not make that player's real message "handled before"."""
    text = message_id if block == 0 else f"{message_id}\n{block}"
    text = f"{sender}\n{text}" if sender else text
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def parse_time(text: str) -> datetime:
    """An ISO date and time; without a zone it is UTC."""
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def shown(text: str) -> str:
    return parse_time(text).strftime("%Y-%m-%d %H:%M UTC")


def enable(game, addresses: dict, observers: list[str], deadline_hours: int = 0,
           grace_hours: int = 0, remind_hours: int = 0, now: datetime | None = None) -> dict:
    """Make `game` a mail game; return the new passwords (players' and GM's), shown once."""
    passwords = {p: new_password() for p in [*game.players, GM]}
    game.meta["mail"] = {
        "players": {p: {"address": addresses[p].lower(), "password": hash_password(passwords[p])} for p in game.players},
        "gm_password": hash_password(passwords[GM]),
        "observers": [a.lower() for a in observers],
        "deadline_hours": deadline_hours,
        "grace_hours": grace_hours,
        "remind_hours": remind_hours,
        "deadline": "",
        "reminded": False,
        "absent": [],
        "paused": False,
        "seen": [],
        "outbox_tx": 0,
    }
    MailGame(game, "").reset_deadline(now or datetime.now(timezone.utc))
    return passwords


class MailGame:
    def __init__(self, game, name: str):
        self.game, self.name = game, name
        self.m = game.meta.get("mail")
        if self.enabled:
            self._check()

    @property
    def enabled(self) -> bool:
        return isinstance(self.m, dict)

    def _check(self) -> None:
        """A hand-edited [meta.mail] that the judge cannot use is refused with its reason
        (GameFileError), never a crash; raw Message-IDs of earlier judges become keys."""
        m, where = self.m, f"game {self.name}: [meta.mail]"

        def bad(key, what):
            raise GameFileError(f"{where} {key} must be {what}, not {m.get(key)!r}")

        for key in ("deadline_hours", "grace_hours", "remind_hours"):
            if type(m.get(key)) is not int or not 0 <= m[key] <= 24 * 365:
                bad(key, "a whole number of hours (0 to 8760)")
        for key in ("reminded", "paused"):
            if type(m.get(key)) is not bool:
                bad(key, "true or false")
        for key in ("observers", "absent", "seen"):
            if not isinstance(m.get(key), list) or not all(isinstance(x, str) for x in m[key]):
                bad(key, "a list of strings")
        if not isinstance(m.get("deadline"), str):
            bad("deadline", "a date and time")
        if m["deadline"]:
            try:
                parse_time(m["deadline"])
            except ValueError:
                bad("deadline", "an ISO date and time such as 2026-05-01T12:00:00Z")
        players = m.get("players")
        if not isinstance(players, dict) or set(players) != set(self.game.players) or not all(
                isinstance(v, dict) and isinstance(v.get("address"), str) and isinstance(v.get("password"), str)
                for v in players.values()):
            bad("players", "a table of every player's address and password")
        wrong = settings.problems(m)
        if wrong:
            raise GameFileError(f"{where} {wrong}")
        if not isinstance(m.get("gm_password"), str):
            bad("gm_password", "a password hash")
        if type(m.setdefault("outbox_tx", 0)) is not int:
            bad("outbox_tx", "a whole number")
        if not all(_KEY.match(x) for x in m["seen"]):
            m["seen"] = [x if _KEY.match(x) else message_key(x) for x in m["seen"]][-KEEP_SEEN:]

    def address(self, player: str) -> str:
        return self.m["players"][player]["address"]

    def hand_seat(self, seat: str, address: str) -> str:
        """The seat's new player: their address and a new password, which is returned (shown once)."""
        password = new_password()
        self.m["players"][seat] = {"address": address.lower(), "password": hash_password(password)}
        return password

    def address_of(self, cfg, who: str) -> str:
        """Where `who`, a player or the game master, gets mail."""
        return cfg.gm if who == GM else self.address(who)

    # ---- who is writing ----------------------------------------------------------------
    def authenticate(self, cfg, name: str, password: str, sender: str) -> tuple[str, str, str]:
        """(player or GM, "", "") for good credentials, else ("", a polite refusal, whose
        password it was when the right password came from another address). A wrong password
        and a right one from the wrong address get the same refusal, so that nobody can try
        passwords from their own address; the owner is told instead."""
        game = f"game {self.name}"
        if not name:
            return "", f"No 'player NAME PASSWORD' line for {game}. Nothing was changed.", ""
        player = self.named(name)
        stored = self.m["gm_password"] if player == GM else self.m["players"][player]["password"] if player else _NO_PASSWORD
        refusal = (f"The player name or password for {game} is not right, or this message does not come "
                   "from that player's registered address. Nothing was changed. If your address has "
                   "changed, ask the game master.")
        if not check_password(password, stored) or not player:
            return "", refusal, ""
        if not self.from_registered(cfg, player, sender):
            return "", refusal, player
        return player, "", ""

    def named(self, name: str) -> str:
        """The player (or GM) a 'player' line names, in any case; "" for nobody of this game. A
        seat handed on answers to its new player's name too, as in the shell (Game.player_name)."""
        try:
            return self.game.player_name(name)
        except JudgeError:
            return ""

    def writes_as(self, who: str) -> str:
        """The name `who` (a seat, or GM) writes on the 'player' line: the new player's own name
        for a seat handed to a named player, else the seat's ("gm" for the game master)."""
        if who == GM:
            return "gm"
        from judge.record.corrections import UNNAMED, holder

        playing = holder(self.game, who)
        return playing if playing != UNNAMED else who

    def from_registered(self, cfg, who: str, sender: str) -> bool:
        """Whether `sender` is the registered address of `who` (a player or GM)."""
        return bool(who) and sender == self.address_of(cfg, who)

    def seen(self, key: str, *older: str) -> str:
        """The key by which the message of `key` was handled, "" when it was not (an `older`
        key: those the judge kept before keys were per sender and per content, which no new
        message can add)."""
        return next((k for k in (key, *older) if k in self.m["seen"]), "")

    def remember(self, key: str) -> list[str]:
        """Remember a message's key; the keys forgotten to make room."""
        seen = self.m["seen"]
        seen.append(key)
        forgotten = seen[:-KEEP_SEEN]
        del seen[:-KEEP_SEEN]
        return forgotten

    # ---- deadlines ---------------------------------------------------------------------
    def reset_deadline(self, now: datetime) -> None:
        """A new move: its deadline runs from now (none while paused or over)."""
        hours = self.m["deadline_hours"]
        live = hours and not self.m["paused"] and not self.game.is_over()
        end = settings.weekday_deadline(now, hours) if settings.setting(self.m, "skip_weekends") \
            else now + timedelta(hours=hours)
        self.m["deadline"] = iso(end) if live else ""
        self.m["reminded"] = False

    def deadline_text(self, who: str | None = None) -> str:
        if self.m["paused"]:
            return "The game is paused by the game master: no deadline."
        if not self.m["deadline"]:
            return "No deadline." if not self.game.is_over() else "The game is over."
        grace = self.m["grace_hours"]
        extra = f" (and {grace} hour{'s' if grace != 1 else ''}' grace after it)" if grace else ""
        entry = self.m["players"].get(who, {}) if who else {}
        deadline = parse_time(self.m["deadline"])
        when = settings.in_zone(deadline, entry.get("zone"))
        away = (f" You are away until {entry['away_until']}: the judge waits for you until then."
                if entry.get("away_until", "") >= deadline.date().isoformat() else "")
        return f"Deadline for move {self.game.move}: {when}{extra}.{away}"

    # ---- what to send ------------------------------------------------------------------
    def recipients(self) -> list[tuple]:
        """(address, whose view): players their own, observers the public one."""
        return [(self.address(p), p) for p in self.game.players] + [(a, None) for a in self.m["observers"]]

    def _views(self) -> dict:
        return {who: self.game.view(who) for who in [*self.game.players, None, GM]}

    def snapshot(self) -> dict:
        return {who: render(view, mail=True) for who, view in self._views().items()}

    def mails(self, cfg, before: dict, notices: list[str]) -> list:
        """Reports for everyone whose report changed since `before`, with the notices for all;
        the game master gets theirs when awaited or when there are notices."""
        views = self._views()
        after = {who: render(view, mail=True) for who, view in views.items()}
        targets = self.recipients()
        out, awaited = [], self.game.awaiting()
        if notices or GM in awaited:
            targets.append((cfg.gm, GM))
        for address, who in targets:
            changed = before.get(who) != after[who]
            if not (changed or notices):
                continue
            entry = self.m["players"].get(who) if who not in (None, GM) else None
            if entry is not None and not notices and entry.get("mail") == "turn" and who not in awaited \
                    and not self.game.is_over():
                continue  # only when awaited: the next report catches up
            body = "".join(f"{n}\n\n" for n in notices)  # (each notice a paragraph of its own)
            if changed:
                if entry is not None:
                    body += settings.catch_up(self.game, who, entry.get("last_report", 1))
                    entry["last_report"] = self.game.move
                body += after[who] + "\n" + self.footer(cfg, who, views[who])
            if changed:
                subject = f"game {self.name}: move {self.game.move}, " + ("report for " + who if who else "public report")
            else:  # only the notices: the subject says so
                subject = f"game {self.name}: notice, move {self.game.move}"
            out.append(compose(cfg, address, subject, body))
        return out

    def footer(self, cfg, who: str | None, view: dict | None = None) -> str:
        """The log's head (judge/engine/chain.py), the deadline and how to answer; `view` is
        `who`'s view when the caller has it."""
        head = self.game.head_line()
        text = (f"{head}\n\n" if head else "") + self.deadline_text(who) + "\n"
        if who is not None:
            name = self.writes_as(who)
            orders = (view if view is not None else self.game.view(who)).get("orders") or []
            fits = [o for o in orders if len(f"  #{self.game.move} {o}") <= WIDTH]  # a line to copy: never wrapped
            example = f"#{self.game.move} {fits[0]}" if fits else "#MOVE ORDER"
            text += (f"\nTo give orders, reply to this mail (keep 'game {self.name}' in the subject) "
                     f"or write to {cfg.address}. A good order message, whole:\n\n"
                     f"  game {self.name}\n  player {name} YOUR-PASSWORD\n  {example}\n  end\n\n"
                     "One order a line, above anything else you write. The judge reads no further "
                     "than 'end', a quote (>), \"On ... wrote:\", a signature (-- ) or a closing.\n")
        return text

    def link_text(self, cfg, player: str) -> str:
        """The paragraph that gives `player` the link to their own page (the site's page of the
        game with their seat's key: docs/site.md), or "" when the judge publishes no site."""
        if cfg is None or cfg.site is None:
            return ""
        from judge.site import links

        made = links.private(self.game, self.name, player, cfg.site_url)
        if made is None:
            return ""
        where = made if cfg.site_url else f"{made} (in the site's folder)"
        return (f"The link to your own page, your report and your orders in one tap (keep it as secret "
                f"as your password: whoever has it reads your view, but cannot give your orders):\n{where}\n\n")

    def welcomes(self, cfg, passwords: dict) -> list:
        """The welcome mails of a new game: each player's, and the observers' (public) one."""
        out = [self.welcome(cfg, p, passwords[p]) for p in self.game.players]
        rs = self.game.ruleset
        for address in self.m["observers"]:
            body = (f"Welcome to game {self.name}, {rs.title}, played by mail. You watch it: you get the "
                    f"public report after every change. The players are {', '.join(self.game.players)}.\n\n"
                    + render(self.game.view(None), mail=True) + "\n" + self.footer(cfg, None))
            out.append(compose(cfg, address, f"game {self.name}: welcome, observer", body))
        return out

    def welcome(self, cfg, player: str, password: str):
        """The welcome of `player`'s seat: at the start, or to a new player the seat is handed to
        (who is told the name to write on the 'player' line)."""
        rs = self.game.ruleset
        name = self.writes_as(player)
        if name == player:
            you = f"You play {player}; the players are {', '.join(self.game.players)}."
        else:
            you = (f"You take over the seat {player} from move {self.game.move}; the seats are "
                   f"{', '.join(self.game.players)}. Your reports are those of {player}; in your orders, "
                   f"write your own name: player {name} YOUR-PASSWORD (the seat's name, {player}, works too).")
        body = (f"Welcome to game {self.name}, {rs.title}, played by mail. {you}\n\n"
                f"Your password: {password}\n\n"
                "Keep it secret: anyone with it and your address can give your orders.\n\n"
                f"{PLAYERS_PAGE}\n\n"
                + self.link_text(cfg, player)
                + render(self.game.view(player), mail=True) + "\n" + self.footer(cfg, player))
        return compose(cfg, self.address(player), f"game {self.name}: welcome, {player}", body)


# The welcome's pointer to the players' handout (docs/players.md): what a player receives and
# writes, three sample answers, the commands by mail.
PLAYERS_PAGE = ("What you receive, what to write, sample answers and every command by mail are on one "
                "page, docs/players.md of the judge (ask the game master for it); a line 'help' in your "
                "block answers with this game's orders and rules.")
