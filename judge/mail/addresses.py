"""Mail addresses and header text: what the judge accepts as an address, and one line of text
made safe to echo, log or put in a header."""
from __future__ import annotations

import re

MAX_ADDRESS = 254  # the longest address SMTP carries
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]+")
_USABLE_ADDRESS = re.compile(r"^[^@\s,;<>()\"\\\[\]]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$")


def is_address(text: str) -> bool:
    """A plain mail address, local@domain.tld or local@host (user@localhost on a judge's own
    host): no names, lists, brackets or spaces, and ASCII (what every SMTP server carries)."""
    return len(text) <= MAX_ADDRESS and text.isascii() and bool(_USABLE_ADDRESS.match(text))


def clean(text: str) -> str:
    """One line of text safe to echo, log or put in a header: control characters, line
    breaks and undecodable bytes become spaces, runs of spaces one space."""
    return " ".join(_CONTROL.sub(" ", text).split())
