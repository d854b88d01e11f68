"""The mail gateway: handle one incoming message (authenticate, apply all or none per game
under the game's lock, log it, answer it, send the new reports), or every new message of a
Maildir. Works for every ruleset through the core alone."""
from __future__ import annotations

import fcntl
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path

from .. import gamefile
from . import bounces, parse as mailparse
from ..errors import GameFileError, GameOver, HostError, JudgeError, NotAnOrder, NotYourTurn, OrderSyntaxError
from .mailgame import MailGame, is_address, journal_path, record
from .outbox import compose
from .passwords import hash_password, new_password
from ..report import render
from ..ruleset import GM

GM_COMMANDS = ("status", "pause", "resume", "replace", "absent", "present")
HOW_TO = """The judge found no 'game NAME' line (nor 'game NAME' in the subject). Nothing was changed.
Write, one a line:
  game NAME
  player YOURNAME YOURPASSWORD
  your orders, one a line
Quoted lines (>) and everything after a signature line (-- ) or a line 'end' are ignored."""


def general_log(cfg) -> Path:
    """Messages that name no game of this judge are logged here."""
    return cfg.games / "mail.log"


def handle(raw: bytes, cfg, outbox, now: datetime) -> str:
    """Handle one message completely; return a one-line summary."""
    msg = mailparse.read(raw)
    log = partial(record, general_log(cfg), now, sender=msg.sender, message_id=msg.message_id)
    if msg.automatic or msg.sender == cfg.address:
        if bounces.is_bounce(raw, msg.sender):
            outcome, note = bounces.report(raw, cfg, msg.subject)
            log(outcome=outcome)
            if note is not None:
                outbox.send(note)
            return f"{msg.message_id}: a bounce, the game master told" if note else f"{msg.message_id}: a bounce, logged"
        log(outcome="ignored: an automatic message (not answered, against mail loops)")
        return f"{msg.message_id}: ignored (automatic)"
    if msg.problem:
        log(outcome=f"refused: {msg.problem}")
        body = (f"The judge cannot read your message: {msg.problem}. Nothing was changed.\n"
                "Please send your orders as plain text, without attachments.\n")
        outbox.send(compose(cfg, msg.sender, _re(msg.subject), body, msg.message_id))
        return f"{msg.message_id}: refused ({msg.problem})"
    blocks, stray = mailparse.blocks(msg.text, msg.subject)
    sections, mails = [], []
    if stray:
        sections.append("These lines were ignored (each game's orders follow its 'game' and 'player' lines):\n"
                        + "".join(f"  {line}\n" for line in stray))
    if not blocks:
        log(outcome="refused: no game named")
        sections.append(HOW_TO)
    for block in blocks:
        text, more = handle_block(block, msg, cfg, now)
        sections.append(text)
        mails += more
    subject = reply_subject(msg.subject, [b.game for b in blocks])
    outbox.send(compose(cfg, msg.sender, subject, "\n\n".join(sections) + "\n", msg.message_id))
    for m in mails:
        outbox.send(m)
    return f"{msg.message_id}: {len(blocks)} game(s), answered, {len(mails)} other mail(s)"


def _re(subject: str) -> str:
    subject = subject or "your orders"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def reply_subject(subject: str, games: list[str]) -> str:
    """The answer's subject: "Re: " and the player's subject, naming the games answered."""
    subject = _re(subject)
    missing = [g for g in dict.fromkeys(games)
               if not re.search(rf"\bgame\s+{re.escape(g)}\b", subject, re.I)]
    return subject + "".join(f" (game {g})" for g in missing)


def handle_block(block, msg, cfg, now) -> tuple[str, list]:
    """One game's part of a message: (the reply's section, the mails to send)."""
    head = f"game {block.game}"
    path = cfg.game_path(block.game)
    if path is None:
        record(general_log(cfg), now, sender=msg.sender, message_id=msg.message_id, game=block.game,
               outcome="refused: unknown game")
        return f"{head}: there is no game called '{block.game}' on this judge. Nothing was changed.", []
    log = partial(record, journal_path(path), now, sender=msg.sender, message_id=msg.message_id, player=block.player)
    try:
        with gamefile.locked(path):
            game = gamefile.load(path)
            mg = MailGame(game, block.game)
            if not mg.enabled:
                log(outcome="refused: not a mail game")
                return f"{head}: this game is not played by mail. Nothing was changed.", []
            who, refusal = mg.authenticate(cfg, block.player, block.password, msg.sender)
            if refusal:
                log(outcome="refused: " + refusal)
                return f"{head}: {refusal}", []
            if mg.seen(msg.message_id):
                log(outcome="duplicate: handled before, nothing done")
                return f"{head}: this message ({msg.message_id}) was handled before; nothing was done again.", []
            run = Run(game.copy(), block.game, who, cfg)
            run.lines(block.lines)
            if run.ok:
                before = mg.snapshot()
                game = run.game
                mg = MailGame(game, block.game)
                if game.move != run.start_move or run.restart:
                    mg.reset_deadline(now)
            mg.remember(msg.message_id)
            gamefile.save(game, path)
            log(outcome=run.outcome(), lines=block.lines, results=run.echo)
            mails = run.mails + mg.mails(cfg, before, run.notices) if run.ok else []
    except (GameFileError, OSError) as e:  # the host's fault, not the player's: tried again later
        raise HostError(f"game {block.game}: {e}") from None
    who_text = "the game master" if who == GM else who
    text = f"{head}, {who_text}:\n" + "".join(f"  {e}\n" for e in run.echo) + run.outcome() + "\n"
    text += game.waiting_line() + "\n" + mg.deadline_text() + "\n"
    if run.show_report and who == GM:
        m = mg.m
        text += "Players: " + ", ".join(f"{p} <{mg.address(p)}>" + (" (absent)" if p in m["absent"] else "")
                                        for p in game.players) + "\n"
        text += "Observers: " + (", ".join(m["observers"]) or "none") + "\n"
    if run.show_report:
        text += "\n" + render(game.view(who))
    return text, mails


@dataclass
class Run:
    """Carry out a block's lines on a copy of the game, stopping at the first refusal."""

    game: object
    name: str
    who: str
    cfg: object
    echo: list = field(default_factory=list)
    notices: list = field(default_factory=list)
    mails: list = field(default_factory=list)
    ok: bool = True
    applied: int = 0
    restart: bool = False  # paused or resumed: the deadline starts anew
    show_report: bool = False
    cut: bool = False  # lines left unjudged after an order that revealed hidden information

    def __post_init__(self):
        self.start_move = self.game.move
        self.mg = MailGame(self.game, self.name)

    def outcome(self) -> str:
        if not self.ok:
            return "Nothing was applied: a refused line refuses all of this game's lines."
        if self.cut:
            return ("Applied up to an order that revealed hidden information; the lines NOT JUDGED "
                    "after it were neither applied nor checked: send them again after reading the new report.")
        return "All applied." if self.applied else "Nothing to apply."

    def lines(self, lines: list[str]) -> None:
        if not lines:
            self.show_report = True
        steps = [self.step(line) for line in lines]
        i = 0
        while i < len(steps) and self.ok:
            actor, text, error = steps[i]
            if error:
                self.refuse(i, [f"REFUSED {error}"], lines)
            elif actor is None:
                self.command(text, i, lines)
            else:  # consecutive orders of one actor are one submission, as on the command line
                j = i
                while j < len(steps) and steps[j][0] == actor and not steps[j][2]:
                    j += 1
                self.orders(actor, [s[1] for s in steps[i:j]], i, lines)
                i = j
                continue
            i += 1

    def step(self, line: str) -> tuple:
        """(actor, text, error): actor None is a game master's command."""
        if self.who != GM:
            if self.mg.m["paused"]:
                return self.who, line, f'"{line}": the game is paused by the game master'
            return self.who, line, ""
        w = line.split()
        if w[0].lower() in GM_COMMANDS:
            return None, line, ""
        if w[0].lower() == "as" and len(w) >= 3:
            try:
                return self.game.player_name(w[1], line), " ".join(w[2:]), ""
            except JudgeError as e:
                return GM, line, str(e)
        return GM, line, ""

    def refuse(self, at: int, entries: list[str], lines: list[str]) -> None:
        self.ok = False
        self.echo += entries + [f"SKIPPED {line}" for line in lines[at + len(entries):]]

    def orders(self, actor: str, texts: list[str], at: int, lines: list[str]) -> None:
        prefix = f"as {actor}: " if self.who == GM and actor != GM else ""
        try:
            accepted = self.game.submit(actor, texts)  # all or none: unchanged when refused
        except JudgeError as e:
            done, error = [], e
            for k in range(1, len(texts)):  # which line failed, and the canonical text of those before
                try:
                    done = self.game.copy().submit(actor, texts[:k])
                except JudgeError as first:
                    error = first
                    break
            error = not_an_order(self.game, error)
            self.refuse(at, [f"OK      {prefix}{o}" for o in done] + [f"REFUSED {prefix}{error}"], lines)
            return
        self.echo += [f"OK      {prefix}{o}" for o in accepted]
        self.echo += [f"NOT JUDGED {prefix}{line[len('not judged '):]}" for line in accepted.not_judged()]
        self.cut = self.cut or bool(accepted.unjudged)
        self.applied += len(accepted)
        if prefix:
            self.notices += [f"The game master gave the order '{o}' for {actor}." for o in accepted]

    def command(self, line: str, at: int, lines: list[str]) -> None:
        w = line.split()
        verb, args = w[0].lower(), w[1:]
        m = self.mg.m
        try:
            if verb in ("status", "pause", "resume") and args:
                raise JudgeError(f"'{verb}' takes nothing after it")
            if verb == "status":
                self.show_report = True
            elif verb in ("pause", "resume"):
                if m["paused"] == (verb == "pause"):
                    raise JudgeError(f"the game is {'paused' if m['paused'] else 'running'} already")
                m["paused"] = verb == "pause"
                self.restart = True
                self.notices.append(f"The game master has {verb}d the game.")
            elif verb in ("absent", "present"):
                player = self.player(args, f"{verb} PLAYER")
                if (player in m["absent"]) == (verb == "absent"):
                    raise JudgeError(f"{player} is marked {verb} already")
                if verb == "absent":
                    m["absent"].append(player)
                    self.notices.append(f"The game master has marked {player} absent: when {player} misses "
                                        "a deadline, the judge's bot plays for them.")
                else:
                    m["absent"].remove(player)
                    self.notices.append(f"{player} is back: the bot no longer plays for them.")
            else:  # replace
                if len(args) != 2 or not is_address(args[1]):
                    raise JudgeError("write replace PLAYER NEW_ADDRESS")
                player = self.player(args[:1], "replace PLAYER NEW_ADDRESS")
                password = new_password()
                m["players"][player] = {"address": args[1].lower(), "password": hash_password(password)}
                self.mails.append(self.mg.welcome(self.cfg, player, password))
                self.notices.append(f"The game master has handed {player} to a new player.")
        except JudgeError as e:
            self.refuse(at, [f'REFUSED "{line}": {e}'], lines)
            return
        self.echo.append(f"OK      {line}")
        self.applied += 1

    def player(self, args: list[str], usage: str) -> str:
        if len(args) != 1:
            raise JudgeError(f"write {usage}")
        name = self.game.player_name(args[0])
        if name == GM:
            raise JudgeError("the game master is not a player")
        return name


def not_an_order(game, error: JudgeError) -> JudgeError:
    """A line refused as out of turn or as bad syntax that begins with no order word of the
    game at all ("Thanks for the game!") is "not an order", which tells the player more."""
    verbs = getattr(game.ruleset, "verbs", ())
    line = getattr(error, "line", "")
    if not verbs or not line or not isinstance(error, (NotYourTurn, GameOver, OrderSyntaxError)):
        return error
    first = line.lstrip("#0123456789 ").split(maxsplit=1)
    if first and first[0].lower() in verbs:
        return error
    return NotAnOrder(f"orders begin with {', '.join(verbs)}; end your orders with a line 'end' "
                      "before anything else you write", line)


def _arrival_order(folder: Path) -> list[str]:
    def key(name):
        try:
            return (os.stat(folder / name).st_mtime_ns, name)
        except FileNotFoundError:
            return (0, name)

    return sorted(os.listdir(folder), key=key)


def handle_maildir(path, cfg, outbox, now_fn) -> list[str]:
    """Handle every message in DIR/new, moving each to DIR/cur once it is fully handled.
    One run at a time per Maildir (a lock file inside it)."""
    path = Path(path)
    new, cur = path / "new", path / "cur"
    if not new.is_dir() or not cur.is_dir():
        raise GameFileError(f"{path} is not a Maildir (no new/ and cur/)")
    fd = os.open(path / ".judge-mail.lock", os.O_RDWR | os.O_CREAT, 0o644)
    done = []
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        for name in _arrival_order(new):
            src = new / name
            try:
                raw = src.read_bytes()
            except FileNotFoundError:  # taken by another reader
                continue
            done.append(handle(raw, cfg, outbox, now_fn()))
            os.rename(src, cur / (name if ":" in name else name + ":2,S"))
    finally:
        os.close(fd)
    return done
