"""Bounces: a mail of the judge that could not be delivered comes back from the receiving
side's MAILER-DAEMON. It is never answered (against mail loops); the game master is told
which address failed and why, so that they can `replace` a player whose address is dead.
Only the delivery report is passed on, never the returned mail (it may hold a password)."""
from __future__ import annotations

import email
import email.policy

from judge.mail.outbox import compose
from judge.gateway.parse import GAME_IN_SUBJECT, from_mail_system


def is_bounce(raw: bytes, sender: str) -> bool:
    """A delivery status notification (RFC 3464), or a mail from a MAILER-DAEMON or postmaster."""
    head = raw[:8192].lower()
    return (from_mail_system(sender)
            or b"report-type=delivery-status" in head or b"report-type=\"delivery-status\"" in head)


def failures(raw: bytes) -> tuple[list[str], str]:
    """(the failed recipients with their status and reason, the subject of the returned mail)."""
    failed, subject = [], ""
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        for part in msg.walk():
            ctype = part.get_content_type()
            if ctype == "message/delivery-status":
                for block in part.get_payload():
                    recipient = str(block.get("Final-Recipient", "")).rpartition(";")[2].strip()
                    if recipient and str(block.get("Action", "failed")).strip().lower() in ("failed", "delayed"):
                        why = " ".join(str(block.get("Diagnostic-Code", "")).split()) or "no reason given"
                        failed.append(f"{recipient} ({block.get('Action', 'failed').strip()}, "
                                      f"status {block.get('Status', '?').strip()}: {why[:300]})")
            elif ctype in ("message/rfc822", "text/rfc822-headers") and not subject:
                inner = part.get_payload()
                inner = inner[0] if isinstance(inner, list) and inner else inner
                if isinstance(inner, str):
                    inner = email.message_from_string(inner)
                subject = " ".join(str(inner.get("Subject", "")).split())
    except Exception:  # a malformed report: what was found so far is told
        pass
    return failed, subject[:200]


def report(raw: bytes, cfg, subject: str) -> tuple[str, object | None]:
    """(a line for the log, the mail to the game master or None). A bounce of a mail to the
    game master is logged only: telling them by mail would bounce again."""
    failed, returned = failures(raw)
    where = returned or subject
    outcome = "bounce: " + ("; ".join(failed) if failed else f"'{subject[:200]}'")
    if any(cfg.gm in f.lower() for f in failed) or cfg.gm.encode() in raw.lower():
        return outcome + " (concerns the game master's address: logged only)", None
    game = GAME_IN_SUBJECT.search(where)
    body = ("A mail of the judge could not be delivered"
            + (f" (game {game[1]})" if game else "") + ".\n\n"
            + ("".join(f"  to {f}\n" for f in failed) if failed else f"  the bounce's subject: {subject[:200]}\n")
            + (f"  the returned mail's subject: {returned}\n" if returned else "")
            + "\nIf a player's address no longer works, give the seat a new address by mail:\n"
              "  replace PLAYER NEW_ADDRESS\n")
    title = "judge: undelivered mail" + (f" in game {game[1]}" if game else "")
    return outcome + " (the game master is told)", compose(cfg, cfg.gm, title, body)
