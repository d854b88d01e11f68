"""`judge watch`: the judge on an ordinary mail account. One long-running command reads new
messages from the IMAP folder of judge.toml's [imap] (judge/gateway/imap.py), handles each
exactly as `judge mail` does (judge/gateway/inbox.py `handle`), sends through the outbox, and
runs `judge tick` every [imap] `tick` seconds; it waits with IDLE where the server offers it
and asks every `poll` seconds otherwise.

The Maildir's promises, on a server:
- A message is marked handled (the keyword $Judged, or a move to `move_to`) only after its
  change and its answer are saved: in the game file and the durable outbox. The outbox is
  sent after the mark, so that a watcher killed before the mark leaves the answer waiting in
  the outbox, where the message handled again (a duplicate by its Message-ID: nothing is
  applied twice) finds it and writes no second one.
- A message the judge fails on is tried again (not before `poll` seconds), the messages after
  it handled meanwhile; the try is counted before it is made (.mail/imap-tries.json in the
  games directory), so that one that kills the judge counts too; after QUARANTINE_AFTER tries
  it is moved to the `quarantine` folder and the game master gets a note.
- At most the gateway's bound (parse.MAX_MESSAGE) is fetched of a message, after its
  RFC822.SIZE: a larger one is refused from its first bytes, as in a Maildir.
- A server that is down, refuses the login, drops the connection or shows a certificate that
  does not verify is tried again with a growing pause (1 s, 2 s, 4 s ... up to 5 poll
  intervals), and the game master is told of each new cause at once, then at most once an
  hour (judge/mail/host.py `tell`, the one mechanism). Ticks go on meanwhile.
- Mail that cannot go out (the SMTP server down) waits in the outbox and is tried again on a
  timer of its own, 1 s, 2 s, 4 s ... up to MAIL_RETRY_LONGEST apart, whether or not a message
  or a tick wakes the watcher.
- A problem of its own host (a full disk, a read-only file system...) in a message, a tick or
  while it tells of the server's problems never stops it: logged, told to the game master as
  `judge mail` and `judge tick` tell it, and tried again.
- SIGTERM or Ctrl-C stops it between two messages (at once while it waits).
"""
from __future__ import annotations

import fcntl
import os
import signal
import time
from datetime import datetime, timezone
from pathlib import Path

from judge.engine import writes
from judge.engine.errors import MailError, UsageError
from judge.gateway import deadlines, imap, inbox, parse as mailparse
from judge.gateway.imap import ImapDown
from judge.mail import host
from judge.mail.journal import general_log, iso, record
from judge.mail.outbox import compose, open_outbox

QUARANTINE_AFTER = inbox.QUARANTINE_AFTER
IDLE_LONGEST = 300  # seconds in one IDLE (routers drop connections that say nothing for long)
MAIL_RETRY_LONGEST = 30  # seconds at most between two tries of mail waiting in the outbox


class Stopped(Exception):
    """SIGTERM or SIGINT while the watcher waited."""


class Held:
    """An outbox whose sending waits until the message is marked handled on the server."""

    def __init__(self, box):
        self._box = box

    def __getattr__(self, name):
        return getattr(self._box, name)

    def flush(self) -> None:
        pass


class Watcher:
    def __init__(self, cfg, say=print):
        self.cfg, self.settings, self.say = cfg, cfg.imap, say
        writes.make_folder(cfg.games / ".mail", cfg.games, 0o700)
        self.tries = inbox._Tries(cfg.games / ".mail" / "imap-tries.json", cfg.games)
        self.later: dict[str, float] = {}  # a failed message's key: when to try it again (monotonic)
        self.failures = 0  # connections failed in a row
        self.mail_down = ""  # why mail waits in the outbox (tried again at mail_retry_at)
        self.mail_failures, self.mail_retry_at = 0, 0.0  # sends failed in a row; the next try (monotonic)
        self.stopping = self.waiting = self.unmarked = False

    def log(self, line: str) -> None:
        self.say(f"{iso(datetime.now(timezone.utc))} {line}")

    # ---- the loop -------------------------------------------------------------------------
    def due(self, next_tick: float) -> float:
        """The tick when its time has come, and the mail held in the outbox when its retry is
        due; the time of the next tick."""
        if time.monotonic() >= next_tick:
            self.tick()
            next_tick = time.monotonic() + self.settings["tick"]
        if self.mail_due() and time.monotonic() >= self.mail_retry_at:
            self.send()
        return next_tick

    def run(self) -> None:
        """Until SIGTERM or SIGINT. One watcher a games directory (a lock in .mail/)."""
        lock = writes.open_write(self.cfg.games / ".mail" / "watch.lock", os.O_RDWR | os.O_CREAT, 0o600, self.cfg.games)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            raise UsageError(f"another judge watch is running on {self.cfg.games}") from None
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._stop)
        box, retry_at, next_tick = None, 0.0, 0.0
        s = self.settings
        try:
            while not self.stopping:
                if box is None and time.monotonic() >= retry_at:
                    try:
                        box = imap.Mailbox(s)
                        self.failures = 0
                        self.log(f"imap: connected to {s['host']}, folder {s['folder']}, "
                                 + ("waiting with IDLE" if box.idle else f"asking every {s['poll']} s"))
                    except ImapDown as e:
                        retry_at = time.monotonic() + self.down(e)
                try:
                    if box is not None:
                        self.handle_waiting(box)
                    # (after the messages: a message handled by a killed watcher finds its answer
                    # still in the outbox)
                    next_tick = self.due(next_tick)
                    wake = min(next_tick, self.mail_retry_at) if self.mail_due() else next_tick
                    if box is not None:
                        longest = IDLE_LONGEST if box.idle else s["poll"]
                        self._wait(box.wait, min(wake - time.monotonic(), longest))
                    else:
                        self._wait(time.sleep, min(retry_at, wake) - time.monotonic())
                except ImapDown as e:
                    box.close()
                    box, retry_at = None, time.monotonic() + self.down(e)
                except (Stopped, KeyboardInterrupt):
                    raise
                except Exception as e:  # noqa: BLE001 - a host problem (the games directory): logged, tried again
                    self.log(f"failed: {inbox._failure(e)}; trying again in {s['poll']} s")
                    self.host_problem(e, inbox._failure(e))
                    try:  # the other games' deadlines and the mail held go on meanwhile
                        next_tick = self.due(next_tick)
                    except Exception as again:  # noqa: BLE001 - (the tick's own problem: logged)
                        self.log(f"failed: {inbox._failure(again)}")
                    self._wait(time.sleep, s["poll"])
        except Stopped:
            if box is not None:  # (in the middle of IDLE: no polite logout)
                try:
                    box.conn.shutdown()
                except OSError:
                    pass
                box.conn = box = None
        finally:
            if box is not None:
                box.close()
            os.close(lock)
        self.log("stopped")

    def _stop(self, signum, frame) -> None:
        self.stopping = True
        if self.waiting:
            raise Stopped

    def _wait(self, wait, seconds: float):
        self.waiting = True
        try:
            if self.stopping:
                raise Stopped
            return wait(max(seconds, 0))
        finally:
            self.waiting = False

    # ---- the messages ---------------------------------------------------------------------
    def handle_waiting(self, box: imap.Mailbox) -> list[str]:
        """Handle every message of the folder not yet handled, oldest first; one log line each.
        One outbox (and SMTP connection) for the pass."""
        done, keys = [], []
        outbox = open_outbox(self.cfg)
        try:
            for uid, size in box.waiting():
                key = f"{box.uidvalidity}.{uid}"
                keys.append(key)
                if self.stopping:
                    break
                if self.later.get(key, 0) > time.monotonic():
                    continue
                raw = box.fetch(uid, min(size, mailparse.MAX_MESSAGE) + 1)  # never more than the gateway reads
                if raw is None:  # gone meanwhile
                    continue
                if self.tries.tried(key) >= QUARANTINE_AFTER:  # the tries that took it never finished
                    self.quarantine(box, uid, key, raw, RuntimeError("the tries that took it never finished"))
                    continue
                self.tries.begin(key)  # counted (on disk) before it is tried: a try that kills the judge counts
                done.append(self.handle_one(box, uid, key, raw, outbox))
        finally:
            outbox.close()
        self.tries.save(keys)
        return done

    def handle_one(self, box: imap.Mailbox, uid: int, key: str, raw: bytes, outbox) -> str:
        self.unmarked = True  # until marked: a note sent meanwhile would send its answer too early
        try:
            said = inbox.handle(raw, self.cfg, Held(outbox), datetime.now(timezone.utc))
        except MailError as e:  # handled and saved; its mail waits
            said = f"handled; {e}"
        except Exception as e:  # noqa: BLE001 - one message must not block the others
            self.unmarked = False
            if host.cause_of(e) in host.DIRECTORY_CAUSES:  # the host's, not the message's (as judge mail):
                self.tries.forget(key)                       # not counted; the pass stops and is tried again
                try:
                    self.tries.save()
                except OSError:
                    pass
                raise
            return self.failed(box, uid, key, raw, e)
        box.mark(uid)  # (ImapDown: not marked; handled again, as a duplicate, after the reconnection)
        self.unmarked = False
        self.tries.forget(key)
        self.log(f"message {uid}: {said}")
        self._flush(outbox)
        return said

    def failed(self, box, uid: int, key: str, raw: bytes, error: Exception) -> str:
        tried = self.tries.tried(key)
        record(general_log(self.cfg), datetime.now(timezone.utc), imap_uid=uid,
               outcome=f"failed ({tried} of {QUARANTINE_AFTER} tries): {inbox._failure(error)}")
        self.log(f"message {uid}: failed ({tried} of {QUARANTINE_AFTER} tries): {inbox._failure(error)}")
        if tried >= QUARANTINE_AFTER:
            self.quarantine(box, uid, key, raw, error)
        else:
            self.later[key] = time.monotonic() + self.settings["poll"]
        return f"message {uid}: failed"

    def quarantine(self, box, uid: int, key: str, raw: bytes, error: Exception) -> None:
        """Move a message the judge keeps failing on to the quarantine folder; tell the game master."""
        folder = self.settings["quarantine"]
        box.move(uid, folder)
        self.tries.forget(key)
        msg = mailparse.read(raw)
        now = datetime.now(timezone.utc)
        record(general_log(self.cfg), now, sender=msg.sender, message_id=msg.message_id, imap_uid=uid,
               outcome=f"quarantined after {QUARANTINE_AFTER} failed tries: moved to the folder {folder}")
        self.log(f"message {uid}: put aside in the folder {folder} after {QUARANTINE_AFTER} failed tries")
        body = (f"The judge failed on a message {QUARANTINE_AFTER} times and has moved it to the folder "
                f"{folder} of its mailbox, so that the messages after it are handled:\n\n"
                f"  From: {msg.sender or 'no usable address'}\n  Message-ID: {msg.message_id}\n"
                f"  Error: {inbox._failure(error)}\n\n"
                "Its sender got no answer. Please look at it (and at mail.log in the games directory); "
                f"when the cause is mended, move it back into the folder {self.settings['folder']} to have "
                "it handled.\n")
        self.note("judge: a message was put aside (quarantine)", body)

    # ---- mail out, ticks, the server's problems --------------------------------------------
    def _flush(self, outbox) -> None:
        try:
            outbox.flush()
            if self.mail_down:
                self.log("mail: sent again")
            self.mail_down, self.mail_failures = "", 0
        except MailError as e:
            self.mail_failures += 1
            pause = min(2 ** (self.mail_failures - 1), MAIL_RETRY_LONGEST)
            if not self.mail_down:
                self.log(f"mail: {e}; trying again in {pause} s, then up to every {MAIL_RETRY_LONGEST} s")
            self.mail_down, self.mail_retry_at = str(e), time.monotonic() + pause

    def mail_due(self) -> bool:
        """Whether mail waits to be tried again on the timer (never while a message is handled
        and not marked: its answer goes out only once it is)."""
        return bool(self.mail_down) and not self.unmarked

    def send(self) -> None:
        """Send what waits in the outbox."""
        outbox = open_outbox(self.cfg)
        try:
            self._flush(outbox)
        finally:
            outbox.close()

    def note(self, subject: str, body: str) -> None:
        """A note to the game master, sent at once unless a message was handled and not marked
        (the connection lost in between): then with the next tick or message."""
        outbox = open_outbox(self.cfg)
        try:
            outbox.put(compose(self.cfg, self.cfg.gm, subject, body))
            if not self.unmarked:
                self._flush(outbox)
        finally:
            outbox.close()

    def tick(self) -> None:
        """`judge tick`: one log line. A problem of the host is told to the game master, as
        cron's `judge tick` tells it."""
        problems = []
        try:
            outbox = open_outbox(self.cfg)
            try:
                done = deadlines.tick(self.cfg, outbox, datetime.now(timezone.utc), problems)
                if outbox.down:
                    self.mail_down = self.mail_down or outbox.down  # (tried again at once, then on the timer)
            finally:
                outbox.close()
        except Exception as e:  # noqa: BLE001 - the watcher goes on; the next tick tries again
            done, problems = [f"failed: {inbox._failure(e)}"], [*problems, e]
        for problem in problems:
            self.host_problem(problem, str(problem))
        self.log("tick: " + ("; ".join(done + [f"host problem: {p}" for p in problems]) or "nothing due"))

    def host_problem(self, error: Exception, detail: str) -> None:
        """A problem of the host met by the watcher: its detail in the judge's log and the game
        master told (at once for a new cause, then once an hour), as `judge mail` does; never
        raises (the disk may be full)."""
        self._told(lambda: host.report(self.cfg, error, detail, via="watch"))

    def _told(self, tell) -> None:
        """Tell the game master (`tell()`: what became of the note, host.tell); a note put in the
        outbox is sent by the mail timer. Never raises."""
        try:
            if tell() == "queued":
                self.mail_down = self.mail_down or "a note to the game master waits in the outbox"
        except Exception as e:  # noqa: BLE001 - telling must never stop the watcher
            self.log(f"the game master could not be told: {inbox._failure(e)}")

    def down(self, error: ImapDown) -> float:
        """The server cannot be used: log it, tell the game master (each new cause at once, then
        once an hour); the pause before the next try, in seconds. Never raises: a full disk
        while the server is down must not stop the watcher."""
        self.failures += 1
        pause = min(2 ** (self.failures - 1), 5 * self.settings["poll"])
        s = self.settings
        self.log(f"imap: {s['host']}: {error}; trying again in {pause} s")
        cause = getattr(error, "cause", "unreachable")
        name, advice = imap.CAUSES.get(cause, imap.CAUSES["unreachable"])
        try:
            record(general_log(self.cfg), datetime.now(timezone.utc), outcome=f"imap: {s['host']}: {error}")
            logged = f"Each try is a line of judge watch's output; this one is in {general_log(self.cfg)} too."
        except OSError as e:
            logged = f"Each try is a line of judge watch's own output (the judge's log {general_log(self.cfg)} " \
                     f"cannot be written now: {e.strerror or e})."
        body = (f"judge watch cannot read the judge's mailbox ({s['user']} on {s['host']}, port {s['port']}): "
                f"{name}.\n\n  {error}\n\n{advice}\n\n"
                f"The messages stay in the IMAP folder {s['folder']} and are handled as soon as the server lets "
                "the judge in; it tries again, first every few seconds, then every few minutes, and keeps the "
                f"deadlines meanwhile. {logged} You are told of each new cause at once, then at most once an hour.\n")
        self._told(lambda: host.tell(self.cfg, f"imap-{cause}", f"judge: cannot read the mailbox ({name})", body))
        return pause
