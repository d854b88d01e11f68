"""Outgoing mail: composing a message; the durable outbox every mail passes through; sending
from it by SMTP or into a Maildir.

The outbox is the directory .mail/outbox/ in the games directory (files 0600). A change to a
game and the mails that tell of it are one transaction (`Outbox.commit`): the mails are
written there as *pending* files, numbered by the game's next transaction number; then the
game file, which holds that number (meta.mail.outbox_tx), replaces the old one atomically;
then the pending files become ready. A pending file whose number the game file holds was
committed (the run was killed before it could say so) and is made ready by the next flush;
one with a higher number belongs to a change that never happened and is deleted by the
game's next change. Ready files are sent in the order they were written, each deleted once
the server has taken it, by every `judge mail` and `judge tick` (`Outbox.flush`); what a
killed run had sent but not yet deleted goes out twice rather than never. A mail that is no
game's change (an answer, a note) is written as .part and renamed: never sent half-written.

Temporary failures (connection refused, 4xx, a login refused) keep the mail for the next run
and make the command exit 75 (EX_TEMPFAIL); a permanent refusal of one mail (5xx for its
recipient or content) drops that mail, logs it in mail.log and tells the game master.

A mail put with a key (the answer to a message, the alert to a password's owner) is written
once: while it waits in the outbox, and for KEEP_SENT_DAYS after the server took it (a file
named by the key under .mail/sent/DAY/, written before the outbox's file is deleted), putting
it again writes nothing and says what became of the first. A run killed between the server's
"250 OK" and that file sends it twice rather than never.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import smtplib
import socket
import ssl
import time
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import formatdate, make_msgid
from pathlib import Path

from judge.store import gamefile
from judge.store.config import password
from judge.engine import writes
from judge.engine.errors import GameFileError, MailError, UsageError
from judge.mail.journal import general_log, record
from judge.mail.addresses import clean

SPOOL = ".mail/outbox"  # in the games directory
SENT = ".mail/sent"  # in the games directory: which keyed mails the server took, by day
KEEP_SENT_DAYS = 14  # longer than any MTA keeps a message to deliver it again (Postfix: 5 days)
PART_KEPT = 3600  # seconds: a mail still being written is written in far less


class TryLater(Exception):
    """A temporary failure: for this mail only, or (`whole`) for the connection."""

    def __init__(self, reason: str, whole: bool):
        super().__init__(reason)
        self.whole = whole


class Undeliverable(Exception):
    """The server refused this mail for good (5xx)."""


def compose(cfg, to: str, subject: str, body: str, reply_to_id: str = "") -> EmailMessage:
    """A mail of the judge. Every line of its body is wrapped to 78 columns here, the one
    point every answer, notice, report, reminder and welcome passes (continuation lines 4
    columns further in; a word longer than a line, a player's or a commitment, is not cut)."""
    from judge.engine.report import wrap

    body = wrap(body)
    msg = EmailMessage()
    msg["From"] = f"Judge <{cfg.address}>"
    msg["To"] = to
    msg["Subject"] = clean(subject)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=cfg.address.rpartition("@")[2] or None)
    msg["Auto-Submitted"] = "auto-replied" if reply_to_id else "auto-generated"
    reply_to_id = clean(reply_to_id)
    if reply_to_id.startswith("<") and reply_to_id.endswith(">") and " " not in reply_to_id and len(reply_to_id) < 250:
        msg["In-Reply-To"] = reply_to_id
        msg["References"] = reply_to_id
    msg.set_content(body)
    return msg


def write_synced(path: Path, data: bytes, base=None) -> None:
    """A new file of `data`, synced; on a failure (a full disk) none is left behind. Never
    through a link below `base` (judge/engine/writes.py)."""
    writes.write_new(path, data, 0o600, base)


def _make_ready(pending: Path, base) -> None:
    """A pending file made ready: a mail (.eml), or a notice (.notice: its number is nN)."""
    ready = ".notice" if pending.name.split(".")[3].startswith("n") else ".eml"
    try:
        writes.rename(pending, pending.with_suffix(ready), base)
    except FileNotFoundError:  # made ready by another run in between
        pass


def _pending(folder: Path) -> list[tuple[Path, str, int]]:
    """The pending files (STAMP.GAME.TX.N.pending), each with its game and transaction number."""
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".pending"):
            _, game, tx, _, _ = name.split(".")
            out.append((folder / name, game, int(tx)))
    return out


def _recipient(data: bytes) -> str:
    """The address a mail of the outbox goes to (the judge writes one a mail)."""
    head = BytesHeaderParser(policy=policy.default).parsebytes(data)
    return str(head["To"] or "").lower()


def _held(to: str) -> str:
    """How a recipient is named in a place's file name (`Outbox.keep_place`) and among the
    recipients a pass holds: an address may hold dots and slashes, its digest none."""
    return hashlib.sha256(to.lower().encode("utf-8")).hexdigest()[:32]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (another user's process)
        return True
    return True


def _stamp() -> str:
    """A file name's start that sorts in the order of writing."""
    return f"{time.time_ns():020d}"


class Outbox:
    """A judge site's durable outbox and its way out (`transport`: SMTP or a Maildir)."""

    def __init__(self, cfg, transport):
        self.cfg, self.transport = cfg, transport
        self.dir = cfg.games / SPOOL
        self.down = ""  # this run's temporary failure: no more tries until the next run
        self._count = 0

    def _name(self, tag: str, stamp: str = "") -> str:
        self._count += 1
        return f"{stamp or _stamp()}.{tag}.{os.getpid()}-{self._count}"

    def _ready_dir(self) -> Path:
        writes.make_folder(self.dir, self.cfg.games, 0o700)
        return self.dir

    # ---- into the outbox -------------------------------------------------------------
    def put(self, msg: EmailMessage, key: str = "", place: Path | None = None) -> str:
        """A mail that belongs to no game's change (a reply, a note): ready at once, or at the
        `place` kept for it (`keep_place`). Returns "queued"; with a `key` whose mail was put
        before, nothing is written and the answer says what became of that one: "waits in the
        outbox", or "went out at TIME" (see `known`)."""
        folder = self._ready_dir()
        stamp = place.name.split(".")[0] if place is not None else ""
        try:
            if not key:
                self._write(folder / (self._name("mail", stamp) + ".eml"), msg)
                return "queued"
            fd = writes.open_write(self.dir.parent / "keys.lock", os.O_RDWR | os.O_CREAT, 0o600, self.cfg.games)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # two deliveries of one message at once: one answer
                known = self.known(key)
                if not known:
                    self._write(folder / (self._name(f"reply-{key}", stamp) + ".eml"), msg)
            finally:
                os.close(fd)
            return known or "queued"
        finally:
            self.free_place(place)

    def keep_place(self, to: str) -> Path:
        """A place in the outbox's order for a mail to `to` that is written later: a message's
        answer, which is whole only once every game of the message was changed. Until it is
        filled (`put(..., place=)`) or freed, no mail to `to` written after it is sent, so that
        the answer, and the report it may hold, never comes after the next change's report.
        The place of a run that died is freed by the next flush. Its name says whose it is
        (STAMP.place.PID-N.DIGEST.place): a run that sees it before its recipient is written
        in it, or once it is gone, knows whom it holds all the same (`_kept_for`)."""
        path = self._ready_dir() / f"{self._name('place')}.{_held(to)}.place"
        fd = writes.open_write(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600, self.cfg.games)
        try:
            os.write(fd, to.lower().encode("utf-8"))  # (for whoever looks; not synced: after a crash its run is gone)
        except OSError:
            writes.remove(path, self.cfg.games)  # (a full disk: no empty file left behind)
            raise
        finally:
            os.close(fd)
        return path

    def free_place(self, place: Path | None) -> None:
        if place is not None:
            writes.remove(place, self.cfg.games)

    def known(self, key: str) -> str:
        """What became of the mail put with `key`: "waits in the outbox", "went out at TIME"
        (the server took it), "was refused for good at TIME", or "" when none was put (or it
        went out more than KEEP_SENT_DAYS ago). A flush records a mail as sent before it
        deletes its file, so that one of the two is always found."""
        if self.dir.is_dir() and any(self.dir.glob(f"*.reply-{key}.*.eml")):
            return "waits in the outbox"
        today = datetime.now(timezone.utc).date()
        for back in range(KEEP_SENT_DAYS + 1):
            try:
                return (self.cfg.games / SENT / (today - timedelta(days=back)).isoformat() / key).read_text("utf-8")
            except (OSError, UnicodeError):
                continue
        return ""

    def _mark_sent(self, name: str, what: str) -> None:
        """Record that the keyed mail of the outbox file `name` went out (or was refused)."""
        tag = name.split(".")[1]
        if not tag.startswith("reply-"):
            return
        now = datetime.now(timezone.utc)
        folder = self.cfg.games / SENT / now.date().isoformat()
        try:
            writes.make_folder(folder, self.cfg.games, 0o700)
            write_synced(folder / tag[len("reply-"):], f"{what} {now.strftime('%Y-%m-%d %H:%M:%S UTC')}".encode(),
                         self.cfg.games)
            gamefile.sync_directory_of(folder / tag)
        except FileExistsError:  # sent twice: a run was killed between the send and this record
            return
        except OSError as e:  # a full disk, or a link (refused): the mail went out all the same; its outbox
            try:  # file must go (else every run would send it again), a delivery again may answer again
                record(general_log(self.cfg), now, outcome=f"a mail went out, but its record was not kept: {e}")
            except OSError:
                pass

    def _forget_sent(self) -> None:
        """The records of sent mails older than KEEP_SENT_DAYS (whole days at a time)."""
        folder = self.cfg.games / SENT
        if not folder.is_dir():
            return
        oldest = (datetime.now(timezone.utc).date() - timedelta(days=KEEP_SENT_DAYS)).isoformat()
        for day in os.listdir(folder):
            if day < oldest:
                try:
                    writes.remove_tree(folder / day, self.cfg.games)
                except OSError:
                    pass

    def _write(self, path: Path, msg: EmailMessage) -> None:
        part = path.with_suffix(".part")  # a run killed while writing leaves no half mail to send
        write_synced(part, bytes(msg), self.cfg.games)
        writes.rename(part, path, self.cfg.games)
        gamefile.sync_directory_of(path)

    def send(self, msg: EmailMessage) -> None:
        self.put(msg)
        self.flush()

    def commit(self, game_name: str, game, mails: list, write, notices: list = ()) -> None:
        """Write the game (`write()` saves or creates its file), `mails` and `notices` (records
        of judge/mail/notices.py, sent by judge/mail/noticesend.py) as one transaction."""
        if not mails and not notices:
            write()
            return
        m = game.meta["mail"]
        committed = int(m.get("outbox_tx", 0))
        tx = m["outbox_tx"] = committed + 1
        folder = self._ready_dir()
        for old, game_of, old_tx in _pending(folder):
            if game_of != game_name:
                continue
            if old_tx <= committed:  # committed by a run killed before making it ready
                _make_ready(old, self.cfg.games)
            else:  # of a change that never happened
                writes.remove(old, self.cfg.games)
        stamp = _stamp()
        from judge.mail.notices import encode

        pending = [folder / f"{stamp}.{game_name}.{tx}.{i:04d}.pending" for i in range(len(mails))]
        pending += [folder / f"{stamp}.{game_name}.{tx}.n{i:04d}.pending" for i in range(len(notices))]
        try:
            for path, data in zip(pending, [bytes(m) for m in mails] + [encode(n) for n in notices]):
                write_synced(path, data, self.cfg.games)
            gamefile.sync_directory_of(pending[0])
        except OSError:  # a full disk: nothing of the change is left behind
            for path in pending:
                writes.remove(path, self.cfg.games)
            raise
        try:
            write()
        except GameFileError:  # refused, nothing written (`judge new` on a game that exists)
            for path in pending:
                writes.remove(path, self.cfg.games)
            raise
        # Any other failure leaves the pending files: the game's next change or flush knows
        # from the game file whether they were committed.
        for path in pending:
            _make_ready(path, self.cfg.games)

    # ---- out of it -------------------------------------------------------------------
    def flush(self) -> None:
        """Send every ready mail; raise MailError when some must wait for a later run."""
        if self.down:
            raise MailError(self.down)
        if not self.dir.is_dir():
            return
        fd = writes.open_write(self.dir.parent / "outbox.lock", os.O_RDWR | os.O_CREAT, 0o600, self.cfg.games)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # one sender at a time: nothing goes out twice
            self._recover()
            self._forget_sent()
            self._send_notices()
            for _ in range(2):  # a second round for the game master's notes of the first
                if not self._send_ready():
                    break
        finally:
            os.close(fd)
        if self.down:
            raise MailError(self.down)

    def _send_ready(self) -> bool:
        """One pass over the ready mails in the order they were written; whether a note to the
        game master was added. A recipient's mails go out in that order, or wait: after a mail
        refused for now (4xx), and after a place kept for a mail not yet written (`keep_place`),
        that recipient's later mails wait for a later pass."""
        noted, held = False, set()
        for name in sorted(os.listdir(self.dir)):
            if name.endswith(".place"):
                held |= self._kept_for(name)
                continue
            if not name.endswith(".eml"):
                continue
            path = self.dir / name
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                continue
            to = _held(_recipient(data))
            if to in held:
                continue
            try:
                self.transport.send(data)
                self._mark_sent(name, "went out at")
            except TryLater as e:
                self.down = f"cannot send mail through {self.transport.where}: {e}; it waits in the outbox"
                if e.whole:
                    break
                held.add(to)
                continue
            except Undeliverable as e:
                self._mark_sent(name, "was refused for good at")
                noted |= self._undeliverable(data, str(e))
            writes.remove(path, self.cfg.games)
        return noted

    def _send_notices(self) -> None:
        """The ready notices (judge/mail/noticesend.py, which imports Apprise only now), before
        the mails: a mail server that is down keeps no notice waiting, and the mail that tells
        a player their notices were switched off goes out in this run."""
        if any(name.endswith((".notice", ".sending")) for name in os.listdir(self.dir)):
            from judge.mail import noticesend

            try:
                told = noticesend.send_ready(self.cfg, self.dir)
            except Exception as e:  # noqa: BLE001 - the notices wait for the next run; the mails go now
                noticesend.log(self.cfg, f"notices not sent in this run ({type(e).__name__}: {e})")
                return
            for to, subject, body, key in told:
                self.put(compose(self.cfg, to, subject, body), key=key)

    def _kept_for(self, name: str) -> set[str]:
        """The recipient (`_held`) of a place kept by a run that still works on it, or of one
        filled or freed since this pass listed the outbox: the mail put at it may have been
        written after the listing, so the recipient's later mails wait for a pass that sees
        it (they used to go out before it). The place of a run that died (or older than
        PART_KEPT) is freed."""
        path = self.dir / name
        try:
            _, _, run, who, _ = name.split(".")
            if time.time() - os.stat(path).st_mtime < PART_KEPT and _alive(int(run.split("-")[0])):
                return {who}
        except FileNotFoundError:  # filled or freed after the listing
            return {who}
        except (OSError, ValueError):
            pass
        writes.remove(path, self.cfg.games)
        return set()

    def _undeliverable(self, data: bytes, why: str) -> bool:
        mail = message_from_bytes(data, policy=policy.default)
        to, subject = str(mail["To"]), str(mail["Subject"])
        record(general_log(self.cfg), datetime.now(timezone.utc), outcome=f"undeliverable: {why}", to=to, subject=subject)
        if to == self.cfg.gm:
            return False  # never a note about a note
        body = (f"The judge could not deliver a mail: the server refused it for good.\n\n"
                f"  To: {to}\n  Subject: {subject}\n  Refusal: {why}\n\n"
                "If a player's address is wrong, 'replace PLAYER NEW_ADDRESS' gives the seat a new "
                "address and password (and mails them the welcome again).\n")
        self.put(compose(self.cfg, self.cfg.gm, "judge: a mail could not be delivered", body))
        return True

    def _recover(self) -> None:
        """Pending files of a committed change (the run was killed before making them ready);
        the half-written mails of killed runs (.part, older than PART_KEPT seconds) removed."""
        for name in os.listdir(self.dir):
            if name.endswith(".part"):
                try:
                    if time.time() - os.stat(self.dir / name).st_mtime > PART_KEPT:
                        writes.remove(self.dir / name, self.cfg.games, missing_ok=False)
                except FileNotFoundError:
                    pass
        committed = {}
        for path, game_name, tx in _pending(self.dir):
            if game_name not in committed:
                try:
                    m = gamefile.load(self.cfg.games / f"{game_name}.toml").meta.get("mail", {})
                    committed[game_name] = int(m.get("outbox_tx", 0))
                except (GameFileError, ValueError, TypeError, AttributeError):
                    committed[game_name] = 0
            if tx <= committed[game_name]:
                _make_ready(path, self.cfg.games)

    def close(self) -> None:
        self.transport.close()


# ---- the ways out -------------------------------------------------------------------
class MaildirTransport:
    """Mail left in a Maildir (new/) for a local MTA or a test to pick up; files 0600."""

    def __init__(self, path):
        self.path = Path(path)
        self.where = str(path)
        self._count = 0

    def send(self, data: bytes) -> None:
        try:
            for sub in ("tmp", "new", "cur"):
                writes.make_folder(self.path / sub, self.path, 0o700)
            self._count += 1
            name = f"{time.time_ns()}.P{os.getpid()}Q{self._count}.{socket.gethostname().replace('/', '_')}"
            write_synced(self.path / "tmp" / name, data, self.path)
            writes.rename(self.path / "tmp" / name, self.path / "new" / name, self.path)
        except OSError as e:
            raise TryLater(e.strerror or str(e), whole=True) from None

    def close(self) -> None:
        pass


class SmtpTransport:
    """One connection for a run, opened at the first mail (STARTTLS and login when set)."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.where = settings["host"]
        self.conn = None

    def _connect(self):
        s = self.settings
        # verified against the system's authorities (and SSL_CERT_FILE), or only those of cafile
        context = ssl.create_default_context(cafile=s.get("cafile") or None)
        if s.get("security") == "tls":  # implicit TLS (port 465)
            conn = smtplib.SMTP_SSL(s["host"], s.get("port", 465), timeout=60, context=context)
        else:
            conn = smtplib.SMTP(s["host"], s.get("port", 25), timeout=60)
        try:
            if s.get("starttls"):
                conn.starttls(context=context)
            if s.get("user"):
                try:
                    secret = password(s)  # (a password_file is read at every connection)
                except UsageError as e:
                    raise smtplib.SMTPException(str(e)) from None
                conn.login(s["user"], secret)
        except BaseException:
            conn.close()
            raise
        return conn

    def send(self, data: bytes) -> None:
        msg = message_from_bytes(data, policy=policy.default)
        if self.conn is not None:
            try:
                self.conn.noop()
            except (OSError, smtplib.SMTPException):  # timed out while the judge worked
                self.close()
        try:
            if self.conn is None:
                self.conn = self._connect()
        except (OSError, smtplib.SMTPException) as e:  # down, no STARTTLS, login refused
            self.close()
            raise TryLater(str(e) or type(e).__name__, whole=True) from None
        try:
            self.conn.send_message(msg)
        except smtplib.SMTPRecipientsRefused as e:
            code, reply = next(iter(e.recipients.values()), (550, "no recipient"))
            raise _refusal(code, reply) from None
        except smtplib.SMTPDataError as e:
            raise _refusal(e.smtp_code, e.smtp_error) from None
        except (smtplib.SMTPNotSupportedError, ValueError) as e:  # an address this server cannot carry
            raise Undeliverable(str(e) or type(e).__name__) from None
        except (OSError, smtplib.SMTPException) as e:  # the connection lost, our sender refused
            self.close()
            raise TryLater(str(e) or type(e).__name__, whole=True) from None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.conn = None


def _refusal(code: int, reply) -> Exception:
    text = f"{code} {reply.decode('utf-8', 'replace') if isinstance(reply, bytes) else reply}"
    return Undeliverable(text) if 500 <= code < 600 else TryLater(text, whole=False)


def open_outbox(cfg) -> Outbox:
    transport = MaildirTransport(cfg.maildir) if cfg.maildir is not None else SmtpTransport(cfg.smtp)
    return Outbox(cfg, transport)


def refused_recipients(cfg, addresses: list[str]) -> dict[str, str]:
    """Ask the SMTP server, without sending anything, which addresses it refuses outright
    (a 5xx answer to RCPT TO): {address: the server's answer}. A Maildir outbox refuses none.
    A server that cannot be reached, or answers 4xx, raises MailError (temporary)."""
    if cfg.maildir is not None:
        return {}
    box, refused = SmtpTransport(cfg.smtp), {}
    try:
        conn = box.conn = box._connect()
        conn.ehlo_or_helo_if_needed()
        code, text = conn.mail(cfg.address)
        if code >= 400:
            raise smtplib.SMTPSenderRefused(code, text, cfg.address)
        for address in addresses:
            code, text = conn.rcpt(address)
            if code >= 500:
                refused[address] = f"{code} {text.decode('utf-8', 'replace')}"
            elif code >= 400:
                raise smtplib.SMTPRecipientsRefused({address: (code, text)})
        conn.rset()
    except (OSError, smtplib.SMTPException) as e:
        raise MailError(f"cannot reach the mail server {cfg.smtp['host']} to check the addresses: {e}") from None
    finally:
        box.close()
    return refused
