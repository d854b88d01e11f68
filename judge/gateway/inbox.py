"""The mail gateway: handle one incoming message (authenticate, apply all or none per game
under the game's lock, log it, answer it, send the new reports), or every new message of a
Maildir. Works for every ruleset through the core alone.

Each game's change is saved together with its mails (outbox.Outbox.commit) and with the
section of the answer it gives (kept under .mail/replies/ while its Message-ID is
remembered), so that a message delivered again gets its first answer again. Passwords never
leave: they are hidden in every echoed line, answer, subject and log."""
from __future__ import annotations

import fcntl
import json
import os
import re
import stat
import traceback
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from judge.change.corrections import seat_handed
from judge.change.unit import Change
from judge.store import gamefile
from judge.engine import standing, writes
from judge.gateway import bounces, parse as mailparse, replies, selfservice
from judge.engine.errors import (
    GameFileError,
    GameFileFull,
    GameOver,
    HostError,
    JudgeError,
    NotAnOrder,
    NotYourTurn,
    OrderSyntaxError,
)
from judge.mail.journal import general_log, iso, journal_path, record
from judge.mail.mailgame import MailGame, message_key
from judge.mail import host, players
from judge.mail.addresses import is_address
from judge.engine.errors import MailError
from judge.mail.outbox import compose
from judge.engine.report import render, wrap
from judge.engine.ruleset import GM

GM_COMMANDS = ("status", "pause", "resume", "replace", "absent", "present", "set")
USAGE = ("Write, one a line:\n  game NAME\n  player YOURNAME YOURPASSWORD\n  your orders, one a line\n"
         "For example:\n  game friday\n  player alice YOURPASSWORD\n  #12 bid\n\n"
         "Write 'help' on its own line after your player line for your game's orders, 'rules' for its rules in "
         "short. Quoted lines (>) and everything after a signature line (-- ) or a line 'end' are ignored.")
QUARANTINE_AFTER = 3  # runs that fail on a Maildir message before it is put aside
# What one message may cost (docs/mail-reference.md, "Limits"): each checked before the work it bounds.
MAX_BLOCKS = 10  # game blocks in one message
MAX_SAME_GAME = 2  # blocks for one game in one message
MAX_LINES = 100  # lines in one block
MAX_FAILED_LOGINS = 3  # wrong names or passwords in one message, after which no password is checked
MAX_STRAY = 20  # ignored lines echoed in an answer
MAX_ECHO = 200  # characters of an ignored line echoed
MAX_ECHOED = 3 * 1024  # characters of echoed lines (OK, SKIPPED...) in one answer; the rest are counted
MAX_STRANGER_ANSWER = 8 * 1024  # the answer to a message in which nobody logged in
HIDDEN = "********"


def handle(raw: bytes, cfg, outbox, now: datetime) -> str:
    """Handle one message completely; return a one-line summary. Raises MailError (after
    everything is saved) when its mail must wait in the outbox for a later run."""
    msg = mailparse.read(raw)
    log = partial(record, general_log(cfg), now, sender=msg.sender, message_id=msg.message_id)
    # The answer's key: this sender's message, by its Message-ID and its content (the same on
    # every delivery; another message that reuses the ID is another message).
    reply_key = message_key(f"{msg.message_id}\n{msg.fingerprint}", sender=msg.sender)
    if msg.automatic or msg.sender == cfg.address:
        if bounces.is_bounce(raw, msg.sender):
            outcome, note = bounces.report(raw, cfg, msg.subject)
            log(outcome=outcome)
            if note is not None:
                outbox.put(note)
            outbox.flush()
            return f"{msg.message_id}: a bounce, the game master told" if note else f"{msg.message_id}: a bounce, logged"
        why = f"; {msg.problem}" if msg.problem else ""
        log(outcome=f"ignored: an automatic message or no usable sender (not answered, against mail loops){why}")
        outbox.flush()
        return f"{msg.message_id}: ignored (automatic)"
    answered = outbox.known(reply_key)
    if answered:  # the answer is the last thing a message writes: it was handled whole
        log(outcome=f"duplicate: handled before, and its answer {answered}; nothing done or sent again")
        outbox.flush()
        return f"{msg.message_id}: handled before; its answer {answered}"

    def refuse_whole(why: str, body: str) -> str:
        """The whole message refused before any game is read: logged, answered briefly."""
        fate = outbox.put(compose(cfg, msg.sender, _re(msg.subject, hide_passwords([])), body, msg.message_id),
                          reply_key)
        log(outcome=f"refused: {why}" + ("" if fate == "queued" else f"; its answer {fate}: not sent again"))
        outbox.flush()
        return f"{msg.message_id}: refused ({why})"

    if msg.problem:
        return refuse_whole(msg.problem, f"The judge cannot read your message: {msg.problem}. Nothing was changed. "
                                         "Please send your orders as plain text, without attachments.\n")
    blocks, stray = mailparse.blocks(msg.text, msg.subject)
    if len(blocks) > MAX_BLOCKS:  # refused before any password is checked or game loaded
        return refuse_whole(f"{len(blocks)} blocks in one message",
                            f"Your message holds {len(blocks)} game blocks; the judge reads at most {MAX_BLOCKS} "
                            "in one message. Nothing was changed.\n")
    hide = hide_passwords([b.password for b in blocks] + [p for b in blocks for p in selfservice.new_passwords(b.lines)]
                          + [u for b in blocks for u in selfservice.notify_urls(b.lines)])
    sections = []
    if stray:
        sections.append("These lines were ignored (orders follow the 'game' and 'player' lines):\n"
                        + "".join(f"  {hide(line)[:MAX_ECHO]}\n" for line in stray[:MAX_STRAY])
                        + (f"  ... and {len(stray) - MAX_STRAY} more lines\n" if len(stray) > MAX_STRAY else ""))
    if not blocks:
        log(outcome="refused: no game named")
        sections.append(how_to(msg.subject, stray))
    state, others = Handling(), 0
    try:
        for block in blocks:
            text, mails = read_block(block, msg, cfg, outbox, now, hide, log, state)
            sections.append(text)
            others += mails
        for game, path in state.pending.items():  # one mail per recipient, after every block of the game
            try:
                others += selfservice.deliver_press(path, game, cfg, outbox, now)
            except GameFileFull as e:  # the sender's change is saved; the press waits (and is said so)
                record(journal_path(path), now, sender="judge (press)", outcome=f"not sent: {e}")
        body = hide("\n\n".join(bounded_echo(sections)) + "\n", whole=True)
        if True not in state.logins.values() and len(body) > MAX_STRANGER_ANSWER:  # nobody logged in: kept short
            body = body[:MAX_STRANGER_ANSWER - 100].rsplit("\n", 1)[0] + "\n... (the rest of this answer is left out)\n"
        subject = reply_subject(_re(msg.subject, hide), [b.game for b in blocks])
        fate = outbox.put(compose(cfg, msg.sender, subject, body, msg.message_id), reply_key, state.place)
    finally:
        outbox.free_place(state.place)
    # Said once the answer's fate is known: two deliveries at once write one answer.
    answer = "its answer queued again" if fate == "queued" else f"its answer {fate}: not sent again"
    for path, player in state.again:
        record(journal_path(path), now, sender=msg.sender, message_id=msg.message_id, player=player,
               outcome=f"duplicate: handled before, nothing applied again; {answer}")
    if fate != "queued":
        log(outcome=f"delivered again while its first delivery was handled: {answer}")
    outbox.flush()
    told = "answered" if fate == "queued" else f"its answer {fate}"
    return (f"{msg.message_id}: {len(blocks)} {'game' if len(blocks) == 1 else 'games'}, {told}, "
            f"{others} other {'mail' if others == 1 else 'mails'}")


@dataclass
class Handling:
    """What the blocks of one message share while it is handled."""

    logins: dict = field(default_factory=dict)  # game: whether the block's name and password were right
    pending: dict = field(default_factory=dict)  # game: its path, when press waits for the end of the message
    again: list = field(default_factory=list)  # (path, player) of each block handled before
    read: dict = field(default_factory=dict)  # game: the blocks for it read so far
    place: Path | None = None  # the answer's place in the outbox (Outbox.keep_place)


def read_block(block, msg, cfg, outbox, now, hide, log, state: Handling) -> tuple[str, int]:
    """One block's section of the answer, and how many other mails it sends. A block refused
    unread (too long, a login failed before it, a third for its game) loads no game; a second
    block for the same game is its own change, not a duplicate."""
    nth = state.read[block.game.lower()] = state.read.get(block.game.lower(), -1) + 1
    unread = unread_block(block, state.logins) or (
        f"the judge reads at most {MAX_SAME_GAME} blocks for one game in a message" if nth >= MAX_SAME_GAME else "")
    if unread:
        log(game=block.game, outcome=f"refused: {unread}")
        return f"game {block.game}: not read: {unread}. Nothing was changed.", 0
    return handle_block(block, nth, msg, cfg, outbox, now, hide, state)


def unread_block(block, logins: dict) -> str:
    """Why a block is refused before its game is loaded or its password checked ("" to read it):
    too many lines, or a failed login earlier in the message (to its game, or to several)."""
    if len(block.lines) > MAX_LINES:
        return f"the block has {len(block.lines)} lines; the judge reads at most {MAX_LINES} lines a block"
    if logins.get(block.game.lower()) is False:
        return "an earlier block of this message for the same game gave a wrong player name or password"
    if list(logins.values()).count(False) >= MAX_FAILED_LOGINS:
        return f"{MAX_FAILED_LOGINS} earlier blocks of this message gave a wrong player name or password"
    return ""


_ECHO = re.compile(r"  (OK      |SKIPPED |REFUSED |NOT JUDGED |NOT SENT )")


def bounded_echo(sections: list[str]) -> list[str]:
    """The sections with their echoed lines cut to MAX_ECHO characters, and those past
    MAX_ECHOED characters in the whole answer counted instead of shown (a refusal is shown).
    An echoed line longer than a mail's line is wrapped, going on under its first word."""
    budget, out = MAX_ECHOED, []
    for text in sections:
        kept, hidden = [], 0
        for line in text.split("\n"):
            if echoed := _ECHO.match(line):
                line = line[:MAX_ECHO]
                if budget < len(line) and not line.startswith("  REFUSED"):
                    hidden += 1
                    continue
                budget -= len(line)
                line = wrap(line, hang=len(echoed[1]))  # continued under the quoted line's start
            elif hidden:
                kept.append(f"  ... and {hidden} more lines like these, not shown")
                hidden = 0
            kept.append(line)
        out.append("\n".join(kept))
    return out


_PLAYER_LINE = re.compile(r"(?i)\b(player\s+\S+\s+|set\s+password\s+)\S+")


def hide_passwords(passwords: list[str]):
    """A function that hides the passwords of `passwords` in a text wherever they stand, in
    any case (`(PW)`, `PW.`, `again:PW!`), and in a line (not `whole`) also the word after a
    player's name on a 'player' line. The judge keeps only the passwords' hashes, so these
    are the ones the message itself gives: each block's `player` line (the sender's own, when
    it is right) and its `set password NEW` lines; a password too short to be one (under 6
    characters, a slip on a `player` line) is left alone."""
    words = sorted({p for p in passwords if len(p) >= 6}, key=len, reverse=True)  # (the longest first)
    secret = re.compile("|".join(map(re.escape, words)), re.IGNORECASE) if words else None

    def hide(text: str, whole: bool = False) -> str:
        if not whole:
            text = _PLAYER_LINE.sub(lambda m: m[1] + HIDDEN, text)
        return secret.sub(HIDDEN, text) if secret else text

    return hide


def how_to(subject: str, stray: list[str]) -> str:
    """The answer to a message with no block: what is missing, and how to write."""
    named = mailparse.GAME_IN_SUBJECT.search(subject)
    if any(line.split()[0].lower() == "player" and len(line.split()) != 3 for line in stray):
        problem = "Its 'player' line does not hold your name and your password (player NAME PASSWORD)."
    elif named:
        problem = f"It names game {named[1]} in its subject but has no 'player NAME PASSWORD' line."
    else:
        problem = "It has no 'game NAME' line (nor 'game NAME' in the subject)."
    return f"The judge found no orders to take in your message. {problem} Nothing was changed.\n\n{USAGE}"


def _re(subject: str, hide) -> str:
    subject = hide(subject) or "your orders"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def reply_subject(subject: str, games: list[str]) -> str:
    """The answer's subject ("Re: " and the player's subject), naming the games answered."""
    missing = [g for g in dict.fromkeys(games)
               if not re.search(rf"\bgame\s+{re.escape(g)}\b", subject, re.I)]
    return subject + "".join(f" (game {g})" for g in missing)


# ---- the answers kept for messages delivered again --------------------------------------
def _reply_path(cfg, game: str, key: str) -> Path:
    return cfg.games / ".mail" / "replies" / f"{game}.{key}"


def keep_reply(cfg, game: str, key: str, who: str, text: str) -> None:
    """Keep the section answered to `who` (a player or GM), its first line naming them."""
    path = _reply_path(cfg, game, key)
    gamefile.write_atomic(path, f"for {who}\n{text}", base=cfg.games, folders=0o700)  # (0600, and the directory synced: it survives a crash)


def kept_reply(cfg, game: str, key: str, who: str) -> str:
    """The section kept for `key` when it was answered to `who`, else "": a Message-ID is no
    secret, and another player who writes with it must not get the first sender's answer."""
    try:
        owner, _, text = _reply_path(cfg, game, key).read_text("utf-8").partition("\n")
    except (OSError, UnicodeError):
        return ""
    return text if owner == f"for {who}" else ""


def forget_replies(cfg, game: str, keys: list[str]) -> None:
    for key in keys:
        writes.remove(_reply_path(cfg, game, key), cfg.games)


def handle_block(block, nth: int, msg, cfg, outbox, now, hide, state: Handling | None = None) -> tuple[str, int]:
    """One game's part of a message: (the answer's section, how many other mails it sends).
    The change, its mails and the section are saved together under the game's lock. In
    `state`: whether the block's name and password were right (when checked); the game's
    path, when press waits to be sent once every block of the message is done; (path, player)
    for a block handled before (logged by `handle` once it knows what became of the answer);
    the answer's place in the outbox, kept under the first game's lock, so that the answer
    comes after the news of every change before it and before that of any change after it."""
    state = Handling() if state is None else state
    logins, pending, again = state.logins, state.pending, state.again
    head = f"game {block.game}"
    path = cfg.game_path(block.game)
    if path is None:
        record(general_log(cfg), now, sender=msg.sender, message_id=msg.message_id, game=block.game,
               outcome="refused: unknown game")
        return f"{head}: there is no game called '{block.game}' on this judge. Nothing was changed.", 0
    log = partial(record, journal_path(path), now, sender=msg.sender, message_id=msg.message_id, player=block.player)
    # The same block only when the same content: the key holds the message's fingerprint, so a
    # new message that reuses a Message-ID is handled as new (the older keys: earlier judges').
    key = message_key(f"{msg.message_id}\n{msg.fingerprint}", nth, msg.sender)
    older = (message_key(msg.message_id, nth, msg.sender), message_key(msg.message_id, nth))
    try:
        with Change(path, cfg, outbox, now=now, sender=msg.sender, reports=False) as change:
            if state.place is None:  # (under the lock: no other change is made meanwhile)
                state.place = outbox.keep_place(msg.sender)
            mg = MailGame(change.game, block.game)
            if not mg.enabled:
                change.discard()
                log(outcome="refused: not a mail game")
                return f"{head}: this game is not played by mail. Nothing was changed.", 0
            # A message delivered again gets its first answer, though its password may have
            # changed since (by this very message): the answer goes to the address it went to.
            named = mg.named(block.player)
            known = mg.seen(key, *older)
            if known and mg.from_registered(cfg, named, msg.sender):
                logins[block.game.lower()] = True
                change.discard()
                again.append((path, block.player))
                return kept_reply(cfg, block.game, known, named) or (
                    f"{head}: this message was handled before; nothing was done again."), 0
            who, refusal, owner = mg.authenticate(cfg, block.player, block.password, msg.sender)
            if block.player:
                logins[block.game.lower()] = not refusal
            if refusal:
                change.discard()
                if owner:
                    log(outcome="refused: the right password from another address; its owner is told")
                    outbox.put(alert(cfg, mg, owner, msg.sender), f"{key}-alert")  # once, however often delivered
                else:
                    log(outcome="refused: " + ("no player line" if not block.player else "wrong player name or password"))
                return f"{head}: {refusal}", 0
            run = Run(change.game.copy(), block.game, who, cfg, now=now, hide=hide)
            block.lines = replies.own_orders(block.lines, block.breaks, order_words(change.game, who))  # a note after them
            run.lines(block.lines)
            run.echo = [hide(line) for line in run.echo]
            if run.ok:
                change.watch()  # everyone's report before (the run changed a copy): a refused block renders none
                change.game, change.restart = run.game, run.restart
                change.notices += [hide(notice, whole=True) for notice in run.notices]  # (press is hidden already)
                change.mails += run.mails
            mails = change.ready()  # the deadline the answer tells, and the mails
            if run.ok and run.notify:  # (under the game's lock)
                from judge.mail import notify

                for player, url, digest in run.notify:
                    notify.set_player(cfg, block.game, player, url, digest, now.strftime("%Y-%m-%dT%H:%M:%SZ"), own=True)
            mg = change.mail
            own = mg.address_of(cfg, who)
            if run.show_report and who != GM and any(m["To"] == own and m["Subject"].endswith(f"report for {who}")
                                                     for m in mails):
                run.show_report = False  # one report per player per change: the answer does not repeat it
                run.answers.append("Your new report comes in its own mail.")
            forgotten = mg.remember(key)
            text = section(head, run, change.game, mg)
            keep_reply(cfg, block.game, key, who, text)
            change.journal = {"message_id": msg.message_id, "player": block.player, "outcome": run.outcome(),
                              "lines": [hide(line) for line in block.lines], "results": run.echo}
        forget_replies(cfg, block.game, forgotten)
        if any("from" in e for e in change.game.meta["mail"].get("press_pending", [])):  # (or a crash left it)
            pending[block.game] = path
        return text, len(change.sent)
    except GameFileFull as e:  # the player's lines, not the host: answered, the game untouched
        log(outcome=f"refused: {e}")
        return f"{head}: refused: {e}.", 0
    except (GameFileError, OSError) as e:  # the host's fault, not the player's: tried again later
        raise HostError(f"game {block.game}: {e}") from None


def section(head: str, run, game, mg) -> str:
    who = run.who
    who_text = "the game master" if who == GM else who
    text = f"{head}, {who_text}:\n" + "".join(f"  {e}\n" for e in run.echo) + run.outcome() + "\n"
    text += "".join(f"\n{a.rstrip()}\n" for a in run.answers) + ("\n" if run.answers else "")
    text += game.waiting_line() + "\n" + mg.deadline_text(who) + "\n"
    text += f"\n{game.head_line()}\n" if game.head_line() else ""  # (a paragraph of its own)
    if run.show_report and who == GM:
        m = mg.m
        text += "Players: " + ", ".join(f"{p} <{mg.address(p)}>" + selfservice.gm_notes(m, p) for p in game.players) + "\n"
        text += "Observers: " + (", ".join(m["observers"]) or "none") + "\n"
    if run.show_report:
        text += "\n" + render(game.view(who), mail=True)
    return text


def alert(cfg, mg, owner: str, sender: str):
    """Tell a password's owner that it came from another address."""
    address = mg.address_of(cfg, owner)
    name = "gm" if owner == GM else owner
    body = (f"A message to game {mg.name} gave your name ({name}) and your correct password, but it came "
            f"from {sender}, not from your address {address}. Nothing was changed, and the sender "
            "was told only that the name or password is not right.\n\n"
            "If it was you, write from your registered address. If it was not, someone knows your "
            "password: ask the game master for a new one.\n")
    return compose(cfg, address, f"game {mg.name}: your password was used from another address", body)


def cut_by(accepted) -> str:
    """The order that cut a block and what it did, in the words of its NOT JUDGED lines:
    '"take", which revealed the next card', '"short Banana 2", which passed the turn to bob'."""
    return f'"{accepted.revealed_by}", which {accepted.revealed}'


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
    cut: str = ""  # the order that left the lines after it unjudged, and what it did (public words)
    now: datetime | None = None
    answers: list = field(default_factory=list)  # what a player's help, history, report... answer
    asked: set = field(default_factory=set)  # the answering lines given in this block (each once)
    hide: object = None  # hides the message's passwords in a text (hide_passwords)
    notify: list = field(default_factory=list)  # (player, URL, digest) of `notify` lines (None: unchanged; both: off)

    def __post_init__(self):
        self.start_move = self.game.move
        self.mg = MailGame(self.game, self.name)
        self.now = self.now or datetime.now(timezone.utc)
        self.hide = self.hide or (lambda text: text)

    def outcome(self) -> str:
        if not self.ok:
            return "Nothing was applied: a refused line refuses all of this game's lines."
        if self.cut:
            return (f"Applied up to {self.cut}; the lines NOT JUDGED after it were neither applied nor checked: "
                    "send them again after reading the new report.")
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
                more = j < len(steps) and self.who != GM  # (the game master sees everything)
                accepted = self.orders(actor, [s[1] for s in steps[i:j]], i, lines, more)
                i = j
                if more and accepted is not None and accepted.revealed:
                    # nothing after an order that revealed something is judged or answered
                    self.echo += [f"NOT JUDGED {e[len('not judged '):]}" for e in accepted.not_judged(lines[j:])]
                    self.cut = cut_by(accepted)
                    break
                continue
            i += 1
        if self.ok:  # resigned seats' turns that the lines brought, played by the bot
            players.play_resigned(self.game, self.mg.m)
        # Answers (history, report...) only for a block applied whole, from the game as saved:
        # never from a position the block reached but did not keep.
        self.answers = [a() if callable(a) else a for a in self.answers] if self.ok else []

    def step(self, line: str) -> tuple:
        """(actor, text, error): actor None is a game master's command."""
        w = line.split()
        if w[0].lower() == "player":  # never quoted: its last word may be a password
            return self.who, line, f'"{" ".join(w[:2])} {HIDDEN}": one \'player\' line for each game block'
        if self.who != GM:
            if w[0].lower() in selfservice.COMMANDS:
                return None, line, ""
            if self.mg.m["paused"]:
                return self.who, line, f'"{line}": the game is paused by the game master'
            return self.who, line, ""
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

    def orders(self, actor: str, texts: list[str], at: int, lines: list[str], more: bool = False):
        """Submit one actor's consecutive lines; the Accepted orders, or None when refused.
        `more`: lines of the block follow, which the engine's cut after the last line must stop."""
        prefix = f"as {actor}: " if self.who == GM and actor != GM else ""
        try:  # all or none: unchanged when refused
            accepted = self.game.submit(actor, texts, more=more)
        except JudgeError as e:  # (the orders before the refused line were judged: their canonical text)
            done, error = e.before, not_an_order(self.game, e)
            self.refuse(at, [f"OK      {prefix}{o}" for o in done] + [f"REFUSED {prefix}{error}"], lines)
            return None
        prose = next((e for e in (not_an_order(self.game, NotYourTurn("", line)) for line in accepted.unjudged)
                      if isinstance(e, NotAnOrder)), None)
        if prose is not None:  # words after the orders, not judged: refused as not an order, as when judged
            self.refuse(at, [f"OK      {prefix}{o}" for o in accepted] + [f"REFUSED {prefix}{prose}"], lines)
            return None
        self.echo += [f"OK      {prefix}{o}" for o in accepted]
        self.echo += [f"NOT JUDGED {prefix}{line[len('not judged '):]}" for line in accepted.not_judged()]
        self.cut = self.cut or (cut_by(accepted) if accepted.unjudged else "")
        self.applied += len(accepted)
        if prefix:  # (a standing order given for a player stays secret)
            public = [self.game.ruleset.public_order(str(o)) for o in accepted if not isinstance(o, standing.Command)]
            self.notices += [f"The game master gave the order '{o}' for {actor}." if o is not None  # (as the
                             else f"The game master gave a secret order for {actor}." for o in public]  # public record)
        if any(isinstance(o, standing.Command) for o in accepted):
            self.show_report = True  # the report lists the player's standing orders
        return accepted

    def command(self, line: str, at: int, lines: list[str]) -> None:
        w = line.split()
        verb, args = w[0].lower(), w[1:]
        m = self.mg.m
        try:
            if self.who != GM:
                selfservice.handle(self, verb, args, line)
            elif verb == "set":
                selfservice.gm_set(self, args)
            elif verb in ("status", "pause", "resume") and args:
                raise JudgeError(f"'{verb}' takes nothing after it")
            elif verb == "status":
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
                if len(args) not in (2, 3) or not is_address(args[-1]) or (len(args) == 3 and "@" in args[1]):
                    raise JudgeError("write replace PLAYER NEW_ADDRESS (or replace PLAYER NEW_NAME NEW_ADDRESS)")
                self.player(args[:1], "replace PLAYER NEW_ADDRESS")
                if self.hide(line) != line:  # (the new name is published: never a password)
                    raise JudgeError("the line holds a password of this message")
                seat, _, mails, notice = seat_handed(self.game, self.cfg, self.name, args[0], args[1] if len(args) == 3
                                                     else "", iso(self.now), address=args[-1])
                self.notify.append((seat, None, None))  # the old player's notice URL, forgotten if the block holds
                self.mails += mails
                self.notices.append(notice)
        except JudgeError as e:
            if verb == "press":  # press is no order: refused alone, never taking the block's orders with it
                self.echo.append(f'NOT SENT "{line}": {e}')
                return
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


def order_words(game, who: str) -> tuple[str, ...]:
    """The first word of every line `who` may write in a block: the ruleset's orders and standing
    orders, the self-service lines, the game master's commands. Empty for a ruleset that does
    not name its orders (then every line of a block is read)."""
    verbs = getattr(game.ruleset, "verbs", ())
    if not verbs:
        return ()
    words = (*verbs, *game.ruleset.standing_starts, "standing", "cancel", "every", "player")
    return words + ((*GM_COMMANDS, "as") if who == GM else tuple(selfservice.COMMANDS))


def not_an_order(game, error: JudgeError) -> JudgeError:
    """A line refused as out of turn or as bad syntax that begins with no order word of the
    game at all ("Thanks for the game!") is "not an order", which tells the player more; one
    that is a mistyped order (a move number, or a word one slip from an order word) keeps the
    ruleset's refusal ("unknown order 'bidd'")."""
    verbs = getattr(game.ruleset, "verbs", ())
    line = getattr(error, "line", "")
    if not verbs or not line or not isinstance(error, (NotYourTurn, GameOver, OrderSyntaxError)):
        return error
    first = line.lstrip("#0123456789 ").split(maxsplit=1)
    standing_words = (*game.ruleset.standing_starts, "standing", "cancel")  # standing orders are orders too
    if first and first[0].lower() in (*verbs, *standing_words):
        return error
    if isinstance(error, OrderSyntaxError) and replies.order_like(line, (*verbs, *standing_words)):
        return error  # a mistyped order ('#1 bidd', 'bdi'): "unknown order 'bidd'", as the shell says
    return NotAnOrder(f"orders begin with {', '.join(verbs)}; end your orders with a line 'end' "
                      "before anything else you write", line)


def _arrival_order(folder: Path) -> list[str]:
    def key(name):
        try:
            return (os.stat(folder / name).st_mtime_ns, name)
        except FileNotFoundError:
            return (0, name)

    return sorted(os.listdir(folder), key=key)


def handle_piped(raw: bytes, cfg, outbox, now: datetime) -> str:
    """`judge mail` on one message from an MTA: a failure that is not the message's fault (a
    full disk, a bug) is logged and becomes exit 75, so that the MTA delivers it again later."""
    try:
        return handle(raw, cfg, outbox, now)
    except JudgeError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever it is, the message must not be lost
        record(general_log(cfg), now, outcome=f"failed: {_failure(e)}; left to the MTA to deliver again")
        raise MailError(f"the message could not be handled now ({_failure(e)}); the MTA will deliver it again") from None


def _failure(e: Exception) -> str:
    where = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    return f"{type(e).__name__}: {e}" + (f" (at {Path(where.filename).name}:{where.lineno})" if where else "")


def handle_maildir(path, cfg, outbox, now_fn) -> list[str]:
    """Handle every message in DIR/new, moving each to DIR/cur once it is fully handled (its
    change saved, its mail in the outbox). One run at a time per Maildir (a lock file inside
    it). A message the judge fails on is tried again by the next runs and, after
    QUARANTINE_AFTER of them, moved to DIR/.Quarantine/new/ with a note to the game master;
    the messages after it are handled all the same. A full, read-only or unwritable games
    directory stops the run instead (raised: the caller tells the game master), the message
    left in new/ uncounted. Raises MailError at the end when mail must wait in the outbox."""
    path = Path(path)
    new, cur = path / "new", path / "cur"
    if not new.is_dir() or not cur.is_dir():
        raise GameFileError(f"{path} is not a Maildir (no new/ and cur/)")
    fd = writes.open_write(path / ".judge-mail.lock", os.O_RDWR | os.O_CREAT, 0o600, path)
    done, waiting = [], None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        tries = _Tries(path / ".judge-tries.json", path)
        for name in _arrival_order(new):
            src = new / name
            try:
                raw = read_message(src)
            except FileNotFoundError:  # taken by another reader
                continue
            if raw is None:  # not a regular file (a FIFO would be read for ever): left alone
                continue
            now = now_fn()
            # The try is counted before the message is handled: a run killed on it (out of
            # memory, a time limit) counts as a failed one, so that it is put aside in the end.
            if tries.tried(name) >= QUARANTINE_AFTER:
                quarantine(path, name, raw, RuntimeError("the runs that tried it never finished"), cfg, outbox, now)
                tries.forget(name)
                continue
            tries.begin(name)
            try:
                done.append(handle(raw, cfg, outbox, now))
            except MailError as e:  # handled; its mail waits in the outbox
                waiting = e
                done.append(f"{name}: handled, its mail waits in the outbox")
            except Exception as e:  # noqa: BLE001 - one message must not block the others
                if host.cause_of(e) in host.DIRECTORY_CAUSES:  # not the message's: no run can do better
                    tries.forget(name)
                    try:
                        tries.save()
                    except OSError:
                        pass
                    raise
                failed = tries.tried(name)
                record(general_log(cfg), now, maildir_file=name,
                       outcome=f"failed ({failed} of {QUARANTINE_AFTER} runs): {_failure(e)}")
                if failed >= QUARANTINE_AFTER:
                    quarantine(path, name, raw, e, cfg, outbox, now)
                    tries.forget(name)
                continue
            tries.forget(name)
            writes.rename(src, cur / (name if ":" in name else name + ":2,S"), path)
        tries.save(os.listdir(new))
        try:
            outbox.flush()  # the notes of quarantined messages
        except MailError as e:
            waiting = e
    finally:
        os.close(fd)
    if waiting:
        raise waiting
    return done


def read_message(path: Path) -> bytes | None:
    """A Maildir file's bytes, at most one more than parse.MAX_MESSAGE (enough to refuse it as
    too large); None when it is not a regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(mailparse.MAX_MESSAGE + 1)
    finally:
        os.close(fd)


class _Tries:
    """How many runs failed on each message still in new/ (a small JSON file in the Maildir)."""

    def __init__(self, path: Path, base: Path):
        self.path, self.base = path, base
        try:
            data = json.loads(path.read_text("utf-8"))
            self.count = {k: v for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            self.count = {}

    def tried(self, name: str) -> int:
        return self.count.get(name, 0)

    def begin(self, name: str) -> None:
        """Count a run's try on `name` before it is made (saved: a run killed on it counts)."""
        self.count[name] = self.count.get(name, 0) + 1
        self.save()

    def forget(self, name: str) -> None:
        self.count.pop(name, None)

    def save(self, present=None) -> None:
        if present is not None:
            self.count = {k: v for k, v in self.count.items() if k in present}
        gamefile.write_atomic(self.path, json.dumps(self.count), base=self.base)  # synced: a crash keeps the count


def quarantine(maildir: Path, name: str, raw: bytes, error: Exception, cfg, outbox, now) -> None:
    """Move a message the judge keeps failing on out of new/, and tell the game master."""
    folder = maildir / ".Quarantine"
    for sub in ("tmp", "new", "cur"):
        writes.make_folder(folder / sub, maildir, 0o700)
    dest = folder / "new" / name
    writes.rename(maildir / "new" / name, dest, maildir)
    msg = mailparse.read(raw)
    record(general_log(cfg), now, sender=msg.sender, message_id=msg.message_id, maildir_file=name,
           outcome=f"quarantined after {QUARANTINE_AFTER} failed runs: {dest}")
    body = (f"The judge failed on a message in {QUARANTINE_AFTER} runs and has moved it aside, so that "
            "the messages after it are handled:\n\n"
            f"  File: {dest}\n  From: {msg.sender or 'no usable address'}\n  Message-ID: {msg.message_id}\n"
            f"  Error: {_failure(error)}\n\n"
            "Its sender got no answer. Please look at it (and at mail.log in the games directory); when "
            "the cause is mended, move it back into new/ to have it handled.\n")
    outbox.put(compose(cfg, cfg.gm, "judge: a message was put aside (quarantine)", body))
