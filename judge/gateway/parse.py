"""Reading one incoming message: who sent it, its Message-ID, its plain text, and the blocks
of commands in it (`game NAME`, `player NAME PASSWORD`, then orders one a line).

The orders of a reply end where the mail client's own text begins: a quoted-reply header
("On ... wrote:", "Am ... schrieb ...:", an Outlook "From: ... Sent: ..." block), a quoted line
(`>`), a signature separator (`-- `), a phone footer ("Sent from my iPhone"), a closing
("Thanks", "Danke", ...) or an `end` line (judge/gateway/replies.py). A part sent as
format=flowed is joined back into the lines its writer wrote (judge/gateway/flowed.py). HTML
parts are ignored. A message larger than MAX_MESSAGE or with a binary part is refused.
"""
from __future__ import annotations

import email
import email.header
import email.policy
import hashlib
import re
from dataclasses import dataclass, field
from email.utils import parseaddr

from judge.engine.orders import order_lines
from judge.gateway import flowed, replies
from judge.mail.addresses import clean, is_address  # noqa: F401 - is_address: also read from here

MAX_MESSAGE = 1024 * 1024
# signatures ride along as parts of their own (x-pkcs7-signature: Outlook's S/MIME)
_IGNORED_TYPES = {"application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature"}
GAME_IN_SUBJECT = re.compile(r"\bgame\s+([A-Za-z0-9][A-Za-z0-9_-]*)", re.I)


@dataclass
class Incoming:
    sender: str  # the From address, lower case ("" when none)
    message_id: str
    subject: str
    text: str = ""
    problem: str = ""  # why the message is refused as a whole ("" when readable)
    automatic: bool = False  # a bounce or an auto-reply: never answered, to avoid mail loops
    fingerprint: str = ""  # its body and the headers its sender wrote (fallback_id): the same on every delivery


@dataclass
class Block:
    """The commands of one game in a message."""

    game: str
    player: str = ""
    password: str = ""
    lines: list[str] = field(default_factory=list)
    breaks: list[int] = field(default_factory=list)  # the lines a blank line stands before


def read(raw: bytes) -> Incoming:
    """The message as the judge sees it. Never raises: a message that cannot be read at all
    comes back with a `problem` (and no sender when none can be found)."""
    try:
        return _read(raw)
    except Exception as e:  # noqa: BLE001 - the last guard: no message may crash the gateway
        found = _RAW_FROM.search(raw[:65536])
        sender = address_of(found[1].decode("ascii", "replace")) if found else ""
        fingerprint = fallback_id(raw)
        incoming = Incoming(sender, fingerprint, "", automatic=not sender, fingerprint=fingerprint)
        incoming.problem = f"it cannot be read ({type(e).__name__})"
        return incoming


_RAW_FROM = re.compile(rb"^from:[^\n]*?([^\s<>\"]+@[A-Za-z0-9.-]+)", re.I | re.M)


def _read(raw: bytes) -> Incoming:
    too_large = len(raw) > MAX_MESSAGE
    policy = email.policy.default
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    beyond = _beyond_limits(head) or ("" if too_large else _parts_beyond_limits(raw))
    if beyond:  # only the few short headers needed to answer reach the email package
        too_large = True
        msg = email.message_from_bytes(_answerable(head), policy=policy)
    elif too_large:  # read the headers only, to answer
        msg = email.message_from_bytes(head, policy=policy)
    else:
        msg = email.message_from_bytes(raw, policy=policy)
    sender = address_of(header(msg, "From"))
    message_id = header(msg, "Message-ID")
    if len(message_id) > MAX_ID:  # cut, still telling apart IDs that begin alike
        digest = hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:32]
        message_id = f"{message_id[:MAX_ID - 50]}...sha256-{digest}>"
    fingerprint = fallback_id(raw)
    if len(message_id) < 8:  # none, or "<>" from a broken client: not the same for every message
        message_id = fingerprint
    subject = header(msg, "Subject")[:MAX_SUBJECT]
    auto = header(msg, "Auto-Submitted").lower() or "no"
    precedence = header(msg, "Precedence").lower()
    automatic = (
        auto not in ("", "no") or precedence in ("bulk", "junk", "list")
        or not sender or from_mail_system(sender)
    )
    incoming = Incoming(sender, message_id, subject, automatic=automatic, fingerprint=fingerprint)
    if too_large:
        incoming.problem = beyond or f"the message is larger than {MAX_MESSAGE // 1024} KB"
        return incoming
    try:
        texts = []
        for part in msg.walk():
            if part.is_multipart():
                continue
            ctype = part.get_content_type()
            if ctype in _IGNORED_TYPES or ctype == "text/html":
                continue
            if part.get_content_maintype() != "text":
                incoming.problem = f"it holds a binary part ({clean(ctype)[:80]})"
                return incoming
            if ctype == "text/plain" and part.get_content_disposition() != "attachment":
                texts.append(readable(_text(part)))
    except Exception as e:  # noqa: BLE001 - a MIME structure the email package trips over
        incoming.problem = f"its MIME structure cannot be read ({type(e).__name__})"
        return incoming
    if not texts:
        incoming.problem = "it has no plain-text part (the judge does not read HTML)"
    incoming.text = "\n".join(texts)
    return incoming


MAX_ID = 250  # longer Message-IDs are cut to this, ending in a hash of the whole
MAX_SUBJECT = 200

# What reaches the email package is bounded first, on the raw bytes: its header parser takes
# time and memory that grow faster than the header (a Subject of 20,000 encoded words took
# 2.8 GB; a From of 60,000 addresses 20 s). Real mail stays far below these.
MAX_HEADER = 64 * 1024  # bytes of one header (the message's, or one MIME part's)
MAX_FIELDS = 500  # fields in one header
MAX_FIELD = 2 * 1024  # bytes of one field that the judge or the email package parses (but Message-ID)
MAX_WORDS = 200  # encoded words (=?charset?q?...?=) in one header
MAX_PARTS = 20  # MIME parts of a message
_READ_FIELDS = {b"from", b"subject", b"auto-submitted", b"precedence", b"mime-version",
                b"content-type", b"content-transfer-encoding", b"content-disposition"}
_ANSWERING_FIELDS = (b"from", b"message-id", b"auto-submitted", b"precedence")
_ENCODED_WORD = re.compile(rb"=\?[^?\s]*\?[bBqQ]\?")
_FIELD_BREAK = re.compile(rb"\r?\n(?![ \t])")


def _fields(head: bytes) -> list[bytes]:
    """The fields of a raw header, each with its continuation lines."""
    return [f for f in _FIELD_BREAK.split(head) if f.strip()]


def _name(field: bytes) -> bytes:
    return field.split(b":", 1)[0].strip().lower()


def _beyond_limits(head: bytes) -> str:
    """Why a raw header is more than the judge reads, or "" when it is within the bounds."""
    if len(head) > MAX_HEADER:
        return f"its header is larger than {MAX_HEADER // 1024} KB"
    fields = _fields(head)
    if len(fields) > MAX_FIELDS:
        return f"its header has more than {MAX_FIELDS} fields"
    big = next((f for f in fields if len(f) > MAX_FIELD and _name(f) in _READ_FIELDS), None)
    if big is not None:
        return f"its {_name(big).decode('ascii')} header is longer than {MAX_FIELD // 1024} KB"
    if len(_ENCODED_WORD.findall(head)) > MAX_WORDS:
        return f"its header has more than {MAX_WORDS} encoded words"
    return ""


def _parts_beyond_limits(raw: bytes) -> str:
    """Why the MIME parts of a message are more than the judge reads, or "": each part's header
    is bounded as the message's is, before the email package parses any of it (read here with
    the compat32 policy, which leaves every header a raw string)."""
    if b"multipart" not in raw[:MAX_HEADER + 2].lower():
        return ""
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    for n, part in enumerate(msg.walk()):
        if n >= MAX_PARTS:
            return f"it has more than {MAX_PARTS} MIME parts"
        if n:
            head = b"\n".join(f"{k}: {v}".encode("utf-8", "surrogateescape") for k, v in part.raw_items())
            if _beyond_limits(head):
                return "the header of one of its MIME parts is longer than the judge reads"
    return ""


def _answerable(head: bytes) -> bytes:
    """The short fields of a header that is beyond the bounds, which are enough to answer it."""
    kept = [f for f in _fields(head) if _name(f) in _ANSWERING_FIELDS and len(f) <= MAX_FIELD * (_name(f) != b"message-id" or 4)
            and len(_ENCODED_WORD.findall(f)) <= MAX_WORDS]
    return b"\n".join(kept[:len(_ANSWERING_FIELDS)]) + b"\n"


def readable(text: str) -> str:
    """`text` with what cannot be written in a reply (a lone surrogate, as a utf-7 part makes of
    `+2AA-`) replaced by '?': every line echoed, logged or answered can be encoded."""
    return text.encode("utf-8", "replace").decode("utf-8")


def from_mail_system(sender: str) -> bool:
    """A mail from a MAILER-DAEMON or postmaster: a bounce, never a player's (never answered)."""
    return sender.split("@")[0] in ("mailer-daemon", "postmaster")


def header(msg, name: str) -> str:
    """A header's decoded value, cleaned; "" when missing. A header the email package cannot
    parse (the cause of crashes such as `Message-ID: <>`) is read raw instead."""
    try:
        value = msg.get(name)
        return "" if value is None else clean(str(value))
    except Exception:  # noqa: BLE001 - malformed structured headers raise all sorts of errors
        pass
    for key, value in msg.raw_items():
        if key.lower() == name.lower():
            try:
                return clean(str(email.header.make_header(email.header.decode_header(value))))
            except Exception:  # noqa: BLE001
                return clean(value if isinstance(value, str) else str(value))
    return ""


def address_of(value: str) -> str:
    """The sender's address from a From header, lower case; "" when it holds no usable one
    (such as `From: Bob Smith` or `From: "`): such a message is not answered."""
    try:
        found = parseaddr(value)[1].lower()
    except Exception:  # noqa: BLE001
        return ""
    return found if is_address(found) else ""


# The headers that the sender wrote; what the MTA adds on each delivery (Received,
# Delivered-To, Return-Path, X-Original-To, the mbox "From " line...) is left out.
_SENDERS_HEADERS = {b"from", b"to", b"cc", b"subject", b"date", b"in-reply-to", b"references",
                    b"mime-version", b"content-type", b"content-transfer-encoding"}


def fallback_id(raw: bytes) -> str:
    """A Message-ID for a message without one, the same on every delivery of it: a hash of
    its body and of the headers its sender wrote."""
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    digest = hashlib.sha256()
    for line in re.split(rb"\n(?![ \t])", head):  # each header with its continuation lines
        if line.split(b":", 1)[0].strip().lower() in _SENDERS_HEADERS:
            digest.update(line + b"\n")
    digest.update(b"\n" + body)
    return "<sha256-" + digest.hexdigest() + ">"


def _text(part) -> str:
    """The part's text; sent as format=flowed, with the client's soft line breaks undone."""
    try:
        text = part.get_content()
    except Exception:  # noqa: BLE001 - an unknown or lying charset, a broken encoding
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            text = payload.decode("utf-8", errors="replace")
        else:
            text = str(part.get_payload())
    if str(part.get_param("format") or "").lower() == "flowed":
        text = flowed.unflow(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")
    return text


def command_lines(text: str) -> list[tuple[str, bool]]:
    """The lines that count, without comments, each with whether a blank line (or skipped
    text) stands before it: the writer's own lines, wherever they stand outside quoted text.
    Before a block's `game` or `player` line, quotes, attributions, footers and closings are
    skipped (a bottom-post, the other lines are stray); after it, the first of them ends the
    orders (a top-post). What follows Outlook's header block, an original message's separator
    or a signature separator is never read."""
    out = []
    begun = False  # a block's `game` or `player` line has been read
    gap = False  # a blank line or skipped text since the last line read
    lines = [line.strip() for line in replies.normalise(text).splitlines()]
    i = 0
    while i < len(lines):
        line, following = lines[i], lines[i + 1:i + 4]
        if not line:
            gap, i = True, i + 1
            continue
        if replies.hard_end(line, following):
            break
        quoted = replies.quote_lines(line, following)
        if quoted or replies.ends_orders(line):
            if begun:
                break
            gap, i = True, i + (quoted or 1)
            continue
        for found in order_lines(line):
            w = found.split()
            begun = begun or (w[0].lower() == "game" and len(w) == 2) or (w[0].lower() == "player" and len(w) == 3)
            out.append((found, gap))
            gap = False
        i += 1
    return out


def blocks(text: str, subject: str = "") -> tuple[list[Block], list[str]]:
    """The blocks of the message, and the lines that are ignored because they stand before a
    block's `player` line. A `game NAME` in the subject opens the first block."""
    found = []
    m = GAME_IN_SUBJECT.search(subject)
    pending = Block(m[1]) if m else None  # the subject's block, kept once a line falls in it
    current = pending
    stray = []
    for line, gap in command_lines(text):
        w = line.split()
        if w[0].lower() == "game" and len(w) == 2:
            current = Block(w[1])
            found.append(current)
            continue
        is_player = w[0].lower() == "player" and len(w) == 3
        if current is None or not (current.player or is_player):
            stray.append(line)  # e.g. "On Monday the judge wrote:" before the quote
            continue
        if current is pending:
            found.append(pending)
            pending = None
        if is_player and not current.player:
            current.player, current.password = w[1], w[2]
        else:
            if gap:
                current.breaks.append(len(current.lines))
            current.lines.append(line)
    return found, stray
