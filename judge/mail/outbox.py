"""Outgoing mail: composing a message, and sending it by SMTP or leaving it in a Maildir."""
from __future__ import annotations

import mailbox
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from ..errors import JudgeError


class MailError(JudgeError):
    """Outgoing mail could not be handed on."""

    exit_code = 75  # EX_TEMPFAIL: an MTA piping to `judge mail` keeps the message and retries


def compose(cfg, to: str, subject: str, body: str, reply_to_id: str = "") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"Judge <{cfg.address}>"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=cfg.address.rpartition("@")[2] or None)
    msg["Auto-Submitted"] = "auto-replied" if reply_to_id else "auto-generated"
    if reply_to_id:
        msg["In-Reply-To"] = reply_to_id
        msg["References"] = reply_to_id
    msg.set_content(body)
    return msg


class MaildirOutbox:
    def __init__(self, path):
        self.box = mailbox.Maildir(str(path), create=True)

    def send(self, msg: EmailMessage) -> None:
        self.box.add(msg)

    def close(self) -> None:
        pass


class SmtpOutbox:
    """One connection for a run, opened at the first message."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.conn = None

    def _connect(self):
        s = self.settings
        conn = smtplib.SMTP(s["host"], s.get("port", 25), timeout=60)
        if s.get("starttls"):
            conn.starttls(context=ssl.create_default_context())
        if s.get("user"):
            conn.login(s["user"], s.get("password", ""))
        return conn

    def send(self, msg: EmailMessage) -> None:
        try:
            if self.conn is None:
                self.conn = self._connect()
            self.conn.send_message(msg)
        except (OSError, smtplib.SMTPException) as e:
            self.close()
            raise MailError(f"cannot send mail through {self.settings['host']}: {e}") from None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.conn = None


def open_outbox(cfg):
    return MaildirOutbox(cfg.maildir) if cfg.maildir is not None else SmtpOutbox(cfg.smtp)


def refused_recipients(cfg, addresses: list[str]) -> dict[str, str]:
    """Ask the SMTP server, without sending anything, which addresses it refuses outright
    (a 5xx answer to RCPT TO): {address: the server's answer}. A Maildir outbox refuses none.
    A server that cannot be reached, or answers 4xx, raises MailError (temporary)."""
    if cfg.maildir is not None:
        return {}
    box, refused = SmtpOutbox(cfg.smtp), {}
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
