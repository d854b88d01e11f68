"""The judge's IMAP mailbox, for `judge watch` (judge/gateway/watch.py): connect (TLS, STARTTLS,
or plain text to a server on this host), log in, list the messages not yet handled with their
sizes, fetch one (never more than the gateway reads), mark it handled (a keyword, or a move to
a folder), put it aside, and wait for new mail with IDLE where the server offers it.

Built on the standard library's imaplib. Its IDLE (Python 3.14) is not in the Pythons the judge
supports, so `wait` speaks IDLE itself on imaplib's connection: it sends the command and DONE
with imaplib's `send`, reads whole lines with its `readline`, and waits for the socket with
select, looking first into the bytes imaplib's reader holds already (`_buffered`).

Every failure of the server or the connection (refused, dropped, a login refused, a certificate
that does not verify, a NO to a command the judge needs) is raised as ImapDown: the watcher
connects again later. A certificate is checked against the system's trusted certificates (and
SSL_CERT_FILE), or only against `cafile` when judge.toml names one.
"""
from __future__ import annotations

import imaplib
import re
import select
import socket
import ssl
import time

from judge.engine.errors import UsageError
from judge.store import config

KEYWORD = "$Judged"  # the flag of a handled message (with \\Seen, which mail clients show)
TIMEOUT = 60  # seconds for the server to answer a command
FETCH_BATCH = 500  # UIDs in one FETCH of sizes


class ImapDown(Exception):
    """The server cannot be used now (down, refused the login, dropped the connection, a
    certificate that does not verify): try again later. `cause`: a key of CAUSES, by which
    the game master is told of each new cause at once (judge/gateway/watch.py)."""

    def __init__(self, text: str, cause: str = "unreachable"):
        super().__init__(text)
        self.cause = cause


# Why the mailbox cannot be read: (what the note's subject names, what the game master may do).
CAUSES = {
    "unreachable": ("the server cannot be reached", "The server or the network may be down, or the server was "
                    "restarted: nothing to do unless it lasts."),
    "login": ("the login is refused", "If the password was changed, write the new one in judge.toml's [imap] "
              "(or its password_file: then no restart is needed)."),
    "password-file": ("the password file cannot be read", "Mend the password file named in judge.toml's [imap] "
                      "(readable by the judge's user alone: chmod 600); no restart is needed."),
    "certificate": ("its certificate is refused", "The judge never logs in past a certificate it does not trust: "
                    "is [imap] host the name the certificate is for, and does [imap] cafile (or the system) "
                    "trust its authority?"),
    "refused": ("the server refused a command", "The server's answer is below: a folder of [imap] missing or not "
                "allowed, or a server that does not speak what the judge needs."),
}


def password(settings: dict) -> str:
    """The IMAP password: judge.toml's, or the first line of password_file (read at every
    connection, so that a new password needs no restart)."""
    try:
        return config.password(settings)
    except UsageError as e:
        raise ImapDown(str(e), "password-file") from None


def _quoted(name: str) -> str:
    """A folder name as an IMAP quoted string."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Mailbox:
    """One connection to the judge's folder, selected."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.conn = None
        try:
            self.conn = self._open()
            secret = password(settings)
            try:
                self.conn.login(settings["user"], secret)
            except imaplib.IMAP4.error as e:
                if isinstance(e, imaplib.IMAP4.abort):
                    raise
                raise ImapDown(f"the server refused the login: {e}", "login") from None
            self.caps = set(self._ok(self.conn.capability(), "CAPABILITY")[0].decode("ascii", "replace").upper().split())
            for folder in (settings["move_to"], settings["quarantine"]):
                if folder:
                    self._ensure(folder)
            self._ok(self.conn.select(_quoted(settings["folder"])), f"SELECT {settings['folder']}")
            self.uidvalidity = int(self.conn.untagged_responses.get("UIDVALIDITY", [b"0"])[-1])
            flags = b" ".join(self.conn.untagged_responses.get("PERMANENTFLAGS", [b""]))
            self.keywords = b"\\*" in flags or KEYWORD.encode() in flags
        except ImapDown:
            self.close()
            raise
        except (OSError, imaplib.IMAP4.error, ValueError) as e:
            self.close()
            raise _down(e) from None

    @property
    def idle(self) -> bool:
        return "IDLE" in self.caps

    def _open(self):
        s = self.settings
        context = ssl.create_default_context(cafile=s["cafile"] or None)  # with cafile: that one only
        if s["security"] == "tls":
            return imaplib.IMAP4_SSL(s["host"], s["port"], ssl_context=context, timeout=TIMEOUT)
        conn = imaplib.IMAP4(s["host"], s["port"], timeout=TIMEOUT)
        if s["security"] == "starttls":
            try:
                conn.starttls(ssl_context=context)
            except BaseException:
                try:
                    conn.shutdown()
                except OSError:  # (a failed handshake has closed the socket already)
                    pass
                raise
        return conn

    def _ok(self, answer, what: str) -> list:
        kind, data = answer
        if kind != "OK":
            said = b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace")
            raise ImapDown(f"the server refused {what}: {said or kind}", "refused")
        return data

    def _ensure(self, folder: str) -> None:
        kind, data = self.conn.list('""', _quoted(folder))
        if kind == "OK" and any(d for d in data if d):
            return
        self._ok(self.conn.create(_quoted(folder)), f"to create the folder {folder}")
        self.conn.subscribe(_quoted(folder))  # (so that mail clients show it)

    def _command(self, *args) -> list:
        """A UID command; its data. ImapDown when it fails."""
        try:
            return self._ok(self.conn.uid(*args), f"UID {args[0]}")
        except (OSError, imaplib.IMAP4.error, ValueError) as e:
            raise _down(e) from None
        finally:  # what else the server told (EXISTS, EXPUNGE...): not kept for ever
            if self.conn is not None:
                self.conn.untagged_responses.clear()

    # ---- what the judge does with it ---------------------------------------------------
    def waiting(self) -> list[tuple[int, int]]:
        """The messages not yet handled, oldest first: (UID, size in bytes)."""
        search = ["UNDELETED"] if self.settings["move_to"] else ["UNDELETED", "UNKEYWORD", KEYWORD] if self.keywords \
            else ["UNDELETED", "UNSEEN"]
        uids = sorted(int(u) for u in b" ".join(self._command("SEARCH", None, *search)).split())
        out = []
        for i in range(0, len(uids), FETCH_BATCH):
            batch = ",".join(str(u) for u in uids[i:i + FETCH_BATCH])
            for item in self._command("FETCH", batch, "(RFC822.SIZE)"):
                found = re.search(rb"UID (\d+)", item or b""), re.search(rb"RFC822\.SIZE (\d+)", item or b"")
                if found[0] and found[1]:
                    out.append((int(found[0][1]), int(found[1][1])))
        return sorted(out)

    def fetch(self, uid: int, limit: int) -> bytes | None:
        """The message's first `limit` bytes (a partial fetch: a larger message is never read
        whole), without marking it read; None when it is gone (moved or deleted meanwhile)."""
        for item in self._command("FETCH", str(uid), f"(BODY.PEEK[]<0.{limit}>)"):
            if isinstance(item, tuple) and b"BODY[]" in item[0]:
                return item[1][:limit]
        return None

    def mark(self, uid: int) -> None:
        """The message is handled: moved to move_to, or flagged (the keyword, and \\Seen)."""
        if self.settings["move_to"]:
            self.move(uid, self.settings["move_to"])
        else:
            flags = f"(\\Seen {KEYWORD})" if self.keywords else "(\\Seen)"
            self._command("STORE", str(uid), "+FLAGS.SILENT", flags)

    def move(self, uid: int, folder: str) -> None:
        if "MOVE" in self.caps:
            self._command("MOVE", str(uid), _quoted(folder))
            return
        self._command("COPY", str(uid), _quoted(folder))
        self._command("STORE", str(uid), "+FLAGS.SILENT", "(\\Deleted)")
        if "UIDPLUS" in self.caps:
            self._command("EXPUNGE", str(uid))
        else:  # (left flagged \Deleted otherwise: `waiting` skips it)
            try:
                self.conn.expunge()
            except (OSError, imaplib.IMAP4.error) as e:
                raise _down(e) from None

    def wait(self, seconds: float) -> bool:
        """Wait up to `seconds` for new mail: IDLE where the server offers it, else sleep and
        ask again (NOOP). Whether something arrived (always True without IDLE)."""
        if not self.idle:
            time.sleep(max(seconds, 0))
            try:
                self._ok(self.conn.noop(), "NOOP")
            except (OSError, imaplib.IMAP4.error) as e:
                raise _down(e) from None
            return True
        try:
            return self._idle(seconds)
        except (OSError, imaplib.IMAP4.error, ValueError) as e:
            raise _down(e) from None

    def _idle(self, seconds: float) -> bool:
        conn, tag = self.conn, b"JW" + str(int(time.monotonic() * 1000)).encode()
        conn.send(tag + b" IDLE\r\n")
        line = self._line()
        while not line.startswith(b"+"):  # untagged data before the continuation
            if line.startswith(tag):
                raise ImapDown(f"the server refused IDLE: {line.decode('utf-8', 'replace').strip()}")
            line = self._line()
        arrived, end = False, time.monotonic() + seconds
        while not arrived and self._readable(end - time.monotonic()):
            arrived = bool(re.match(rb"\* \d+ (EXISTS|RECENT)", self._line()))  # (EXPUNGE, FETCH: ignored)
        conn.send(b"DONE\r\n")
        while not (line := self._line()).startswith(tag + b" "):
            arrived = arrived or bool(re.match(rb"\* \d+ (EXISTS|RECENT)", line))
        if not line.startswith(tag + b" OK"):
            raise ImapDown(f"IDLE ended with {line.decode('utf-8', 'replace').strip()}")
        return arrived

    def _line(self) -> bytes:
        line = self.conn.readline()
        if not line:
            raise ImapDown("the server closed the connection")
        if line.startswith(b"* BYE"):
            raise ImapDown(f"the server closed the connection: {line[6:].decode('utf-8', 'replace').strip()}")
        return line

    def _readable(self, seconds: float) -> bool:
        """Whether a line can be read within `seconds`: bytes already in imaplib's reader or in
        the TLS layer (select would not see them), or on the socket."""
        sock = self.conn.socket()
        if isinstance(sock, ssl.SSLSocket) and sock.pending():
            return True
        timeout = sock.gettimeout()
        sock.settimeout(0)  # a look into the reader's buffer that never blocks
        try:
            if self.conn.file.peek(1):
                return True
        except (BlockingIOError, ssl.SSLWantReadError):
            pass
        finally:
            sock.settimeout(timeout)
        return seconds > 0 and bool(select.select([sock], [], [], seconds)[0])

    def close(self) -> None:
        if self.conn is None:
            return
        try:
            self.conn.socket().settimeout(5)
            self.conn.logout()
        except (OSError, imaplib.IMAP4.error, ValueError, AttributeError):
            try:
                self.conn.shutdown()
            except (OSError, AttributeError):
                pass
        self.conn = None


def _down(e: Exception) -> ImapDown:
    """A failure of the server or the connection, with its words and its cause."""
    if isinstance(e, ssl.SSLCertVerificationError):
        return ImapDown(f"the server's certificate is refused: {e.verify_message}", "certificate")
    if isinstance(e, socket.timeout):
        return ImapDown("the server did not answer in time")
    text = str(e) or type(e).__name__
    if isinstance(e, imaplib.IMAP4.abort):
        return ImapDown(f"the connection was lost: {text}")
    if isinstance(e, imaplib.IMAP4.error):
        return ImapDown(f"the server refused: {text}", "refused")
    return ImapDown(text)
