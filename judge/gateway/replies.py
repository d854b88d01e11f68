"""Where a player's own text ends in a reply, as Gmail, Outlook, Apple Mail and Thunderbird
write replies in English, German, French, Spanish, Italian and Dutch: the quoted-reply header
("On ... wrote:"), Outlook's header block ("From: ... Sent: ..."), "-----Original Message-----"
and underscore lines, quoted lines (`>`), the signature separator (`-- `), phone footers
("Sent from my iPhone") and closings ("Thanks", "Danke", "Merci", ...).

Hand-written rather than a library's: the reply parsers on PyPI work on the whole text and
return a block, where the judge needs to know line by line where the orders end (see the
commit message of this file for the comparison).
"""
from __future__ import annotations

import re

# Unicode spaces a mail client may put in a line (NBSP above all), and invisible marks (the
# byte-order mark, zero-width spaces and joiners, the soft hyphen).
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060\u00ad]")


def normalise(text: str) -> str:
    return _SPACES.sub(" ", _INVISIBLE.sub("", text))


# "On Sun, 22 Nov 2026 at 10:00, Judge <judge@example.org> wrote:" and its translations, as
# the clients write them (Gmail may wrap the line in two).
_WROTE = r"(wrote|writes|schrieb|schreef|a\s+écrit|escribió|ha\s+scritto|scrisse|geschreven)"
_HEADER_START = re.compile(r"^(on|am|le|el|il|op)\s", re.I)
_HEADER_END = re.compile(r"\b" + _WROTE + r"\s*:$", re.I)  # "Judge wrote:"
_VERB = re.compile(r"\b" + _WROTE + r"\b", re.I)  # "Am ... schrieb Judge <...>:"
# The first line of Outlook's header block ("From: Judge <...>", then "Sent:", "To:"...), in
# every language above: "Von:", "De :", "De:", "Da:", "Van:".
_OUTLOOK_FROM = re.compile(r"^\*?(from|von|de|da|van)\s?:\*?\s", re.I)
# "-----Original Message-----", "-------- Forwarded Message --------", "_______" (Outlook),
# "Begin forwarded message:" (Apple Mail).
_SEPARATOR = re.compile(r"^(-{3,}[^-]{1,60}-{3,}|_{8,}|begin forwarded message:)$", re.I)


MAX_MARK = 400  # longer lines are no header, footer or closing (and are not searched: it costs)


def quote_lines(line: str, next_line: str = "") -> int:
    """How many lines from `line` on are a quoted line or the header of a quote (0, 1, or 2 for
    a header wrapped over two lines): where a top-posted reply's own text ends (a bottom-post
    has them before its own text)."""
    if line.startswith(">"):
        return 1
    if len(line) > MAX_MARK:
        return 0
    if _SEPARATOR.match(line) or _OUTLOOK_FROM.match(line) or _HEADER_END.search(line) or _is_header(line):
        return 1
    if _HEADER_START.match(line) and _is_header(line + " " + next_line[:MAX_MARK]):
        return 2
    return 0


def _is_header(line: str) -> bool:
    return line.endswith(":") and bool(_HEADER_START.match(line) and _VERB.search(line))


# Footers mobile clients add: "Sent from my iPhone", "Von meinem iPhone gesendet",
# "Envoyé de mon iPhone", "Enviado desde mi iPhone", "Inviato da iPhone", "Verstuurd vanaf mijn
# iPhone", "Get Outlook for Android", ...
_FOOTER = re.compile(
    r"^(sent\s+(from|with|via)\s|get\s+outlook\s+for\s|"
    r"(von|gesendet\s+von)\s+mein(em)?\s|gesendet\s+(von|mit|über|vom)\s|"
    r"envoyé\s+(de|depuis|à\s+partir\s+de|avec)\s|obtenir\s+outlook\s|"
    r"enviado\s+(desde|con|de)\s|obtener\s+outlook\s|"
    r"inviato\s+(da|dal|con)\s|scarica\s+outlook\s|"
    r"(verzonden|verstuurd)\s+(vanaf|met|van|via)\s|outlook\s+voor\s)", re.I)
# A closing on a line of its own, perhaps with a name: "Thanks!", "Best regards, Alice".
_CLOSING = re.compile(
    r"^(thanks(\s+a\s+lot)?|thank\s+you|many\s+thanks|cheers|regards|best(\s+regards|\s+wishes)?|kind\s+regards|"
    r"danke(\s+schön|\s+sehr)?|vielen\s+dank|(viele|liebe|beste|freundliche)\s+grüße|grüße|gruß|lg|vg|mfg|"
    r"mit\s+freundlichen\s+grüßen|merci(\s+beaucoup)?|cordialement|bien\s+à\s+vous|amitiés|bonne\s+journée|"
    r"gracias|muchas\s+gracias|saludos|un\s+saludo|atentamente|grazie(\s+mille)?|saluti|cordiali\s+saluti|"
    r"ciao|bedankt|dank\s+je(\s+wel)?|groeten|groetjes|met\s+vriendelijke\s+groet(en)?)"
    r"[\s,.!]*(\S+(\s+\S+){0,2})?$", re.I)


def ends_orders(line: str) -> bool:
    """A line after which nothing is read: a signature separator, a phone footer, a closing
    or `end`."""
    if len(line) > MAX_MARK:
        return False
    return line in ("--", "__") or line.lower() == "end" or bool(_FOOTER.match(line) or _CLOSING.match(line))
