"""Where a player's own text ends in a reply, as Gmail, Outlook, Apple Mail, Thunderbird, Yahoo,
mutt and the phone clients write replies in the languages players use.

Three kinds of lines (judge/gateway/parse.py `command_lines` walks the message with them):

- `hard_end`: the rest of the message is not the writer's: Outlook's header block ("From: ...
  Sent: ..."), "-----Original Message-----" and its translations, a forwarded message, a line
  of underscores, the signature separator (`-- `);
- `quote_lines`: a quoted line (`>`) or a quote's attribution ("On ... wrote:", in many
  languages and shapes, also wrapped over two or three lines): skipped before the player's
  block (a bottom-post), the end of the orders after it (a top-post);
- `ends_orders`: a line that ends the orders once the block has begun: a phone footer ("Sent
  from my iPhone"), a closing ("Thanks", "Pozdrawiam"), a dash sign-off ("-Alice"), a line of
  dashes or equals signs, a mail footer ("If you have any questions..."), or `end`.

Then `own_orders`, once the game is known: words after the orders that start a paragraph of
their own and begin with no order word of the game (nor one typing slip away from one) end the
orders instead of being refused ("bid", a blank line, "Hope you are well").

Hand-written rather than a library's: measured with bench/replies_corpus.py on the reply-parser
corpora, the maintained parsers (quotequail, mail-parser-reply, email-reply-parser) find the
reply text of a whole message, where the judge must know line by line where a block's orders
end, and they read fewer messages exactly (docs/mail-reference.md, "What replies may look like").
"""
from __future__ import annotations

import re

# Unicode spaces a mail client may put in a line (NBSP above all), and invisible marks (the
# byte-order mark, zero-width spaces and joiners, the soft hyphen).
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060\u00ad\u200e\u200f\u1427]")


def normalise(text: str) -> str:
    return _SPACES.sub(" ", _INVISIBLE.sub("", text))


MAX_MARK = 400  # longer lines are no header, footer or closing (and are not searched: it costs)

# ---- the rest is not the writer's ------------------------------------------------------------
# The first line of Outlook's header block ("From: Judge <...>", then "Sent:", "To:"...), in the
# languages players use, also bold ("*From:*"): From, Von, De, Da, Van, Fra, Från, Od, Lähettäjä,
# Feladó, От, Kimden, Från, Frá.
_OUTLOOK_FROM = re.compile(
    r"^\*?(from|von|de|da|van|fra|från|od|lähettäjä|feladó|от|kimden|frá|de la)\s?:\*?(\s|$)", re.I)
_OUTLOOK_NEXT = re.compile(
    r"^\*?(sent|date|to|subject|cc|gesendet|datum|an|betreff|envoyé|date|à|objet|enviado|fecha|para|asunto|"
    r"inviato|data|a|oggetto|verzonden|datum|aan|onderwerp|sendt|dato|til|emne|skickat|till|ämne|"
    r"wysłano|wysłane|do|temat|lähetetty|vastaanottaja|aihe|отправлено|дата|кому|тема|enviada|assunto)\s?:", re.I)
# "-----Original Message-----", "-------- Forwarded Message --------", "---------- Forwarded
# message ---------" and their translations; "_______" (Outlook); "Begin forwarded message:".
_SEPARATOR = re.compile(r"^(-{2,}\s*[^-\s][^-]{0,60}-{2,}|_{5,}|begin forwarded message:|"
                        r"(original message|ursprüngliche nachricht|message d'origine|mensaje original|"
                        r"messaggio originale|oorspronkelijk bericht|oprindelig meddelelse|"
                        r"opprinnelig melding|ursprungligt meddelande|alkuperäinen viesti|"
                        r"wiadomość oryginalna|исходное сообщение|mensagem original)\s*:?)$", re.I)


def hard_end(line: str, following: list[str] = ()) -> bool:
    """A line from which on nothing is the writer's: Outlook's header block, an original or
    forwarded message's separator, a line of underscores, the signature separator."""
    if len(line) > MAX_MARK:
        return False
    if line in ("--", "-- ", "__") or _SEPARATOR.match(line):
        return True
    if _OUTLOOK_FROM.match(line):  # "From: x" alone may be a player's words; the block's next line tells
        return any(_OUTLOOK_NEXT.match(n) for n in following[:3] if n)
    return False


# ---- quotes and their attributions -----------------------------------------------------------
# "On Sun, 22 Nov 2026 at 10:00, Judge <judge@example.org> wrote:" and its translations.
_WROTE = (r"(wrote|writes|schrieb|schreibt|schreef|geschreven|a\s+écrit|écrit|escribió|escreveu|ha\s+scritto|"
          r"scrisse|napisał|napisała|napisal|napsal|napsala|kirjoitti|skrev|skriver|написал|написала|"
          r"написав|пишет|írta|yazdı|a\s+scris|έγραψε|rašė|rakstīja|kirjutas|napisao|napisala)")
_HEADER_START = re.compile(r"^(on|am|le|el|il|op|em|w\s+dniu|den|dne|i|på|den|dnia|el\s+día)\s", re.I)
_HEADER_END = re.compile(r"(^|\s|\)|>|,)" + _WROTE + r"(\s+\S+){0,2}\s*:$", re.I)  # "Judge wrote:"
_VERB = re.compile(r"(^|\s)" + _WROTE + r"\b", re.I)
# An attribution that ends in the address it quotes, with no verb: "ср, 30 апр. 2025 г. в 15:19,
# John Doe <doe@example.com>:", "2017-11-24 16:32 GMT+01:00 Name <name@example.com>:"
_ADDRESS_END = re.compile(r"(<[^<>\s]+@[^<>\s]+>|\(?\S+@\S+\.\w+\)?|\[mailto:\S+\])\s*:$")
_MUTT = re.compile(r"^\*\s.*\[\d{4}-\d\d-\d\d[^\]]*\]\s*:$")  # "* Name <addr> [2026-11-24 06:04]:"
_DATED = re.compile(r"\d")
_TIME = re.compile(r"(^|\D)\d{1,2}[:.]\d\d(\D|$)")


def quote_lines(line: str, following: list[str] = ()) -> int:
    """How many lines from `line` on are a quoted line or the attribution of a quote (1 to 3
    lines: clients wrap long attributions): skipped before the player's block, the end of the
    orders after it."""
    if line.startswith(">"):
        return 1
    if len(line) > MAX_MARK:
        return 0
    if _is_attribution(line, _quote_follows(following)):
        return 1
    if _HEADER_START.match(line) or (_DATED.search(line[:40]) and not line.startswith("#")):
        joined = line
        for k, more in enumerate(following[:2], start=2):
            if not more or len(more) > MAX_MARK:
                break
            joined += " " + more
            if _is_attribution(joined, _quote_follows(following[k - 1:])) and _starts_attribution(line, joined):
                return k
    return 0


def _quote_follows(following) -> bool:
    """The next line that is not blank is a quoted line."""
    return next((n for n in following if n), "").startswith(">")


def _starts_attribution(first: str, joined: str) -> bool:
    """The first line of an attribution wrapped over several lines: it begins like one ("On",
    "Am", "W dniu"...) or holds a time of day ("su 22.11.2026 klo 10.00 Judge"), or the whole
    ends in an address."""
    return bool(_HEADER_START.match(first) or _TIME.search(first) or _ADDRESS_END.search(joined))


def _is_attribution(line: str, quote_follows: bool) -> bool:
    if line.endswith(":") and (_HEADER_END.search(line) or _MUTT.match(line)):
        return True
    if _HEADER_START.match(line) and _VERB.search(line) and (line.endswith(":") or quote_follows):
        return True
    if line.endswith(":") and _ADDRESS_END.search(line) and _DATED.search(line):
        return True
    # "... wrote" without its colon, or a dated line ending in a colon, over a quote
    return quote_follows and (bool(re.search(_WROTE + r"$", line, re.I))
                              or (line.endswith(":") and bool(_DATED.search(line)) and " " in line))


# ---- the end of the orders ----------------------------------------------------------------------
# Footers mobile and web clients add: "Sent from my iPhone", "Von meinem iPhone gesendet",
# "Envoyé de mon iPhone", "Enviado do meu iPhone", "Sendt fra min iPhone", "Skickat från min
# iPhone", "Lähetetty iPhonesta", "Wysłane z iPhone'a", "Отправлено с iPhone", "Get Outlook for
# Android", "Sent with Sparrow"...
_FOOTER = re.compile(
    r"^(sent\s+(from|with|via|on)\s|sent\s+from$|get\s+outlook\s+for\s|download\s+outlook\s|"
    r"(von|gesendet\s+von)\s+mein(em)?\s|gesendet\s+(von|mit|über|vom|aus)\s|von\s+meinem\s|"
    r"envoyé\s+(de|depuis|à\s+partir\s+de|avec)\s|obtenir\s+outlook\s|"
    r"enviado\s+(desde|con|de|do|da|pelo|a\s+partir)\s|obtener\s+outlook\s|baixe\s+o\s+outlook|"
    r"inviato\s+(da|dal|con)\s|scarica\s+outlook\s|"
    r"(verzonden|verstuurd)\s+(vanaf|met|van|via)\s|outlook\s+voor\s|"
    r"sendt\s+(fra|från|med)\s|skickat\s+(från|med)\s|send\s+fra\s|"
    r"lähetetty\s|wysłane\s+(z|ze|przez)\s|wysłano\s+(z|ze)\s|odesláno\s+z\s|"
    r"отправлено\s+(с|из|через)\s|надіслано\s+з\s|"
    r"(this|the)\s+(e-?mail|message)\s+(and\s+any\s+(files|attachments)\s+)?(is|are|was|may\s+contain|contains)\s|"
    r"if\s+you\s+(have\s+(any\s+)?(further\s+)?questions|are\s+not\s+the\s+intended|received\s+this)|"
    r"confidentiality\s+notice|disclaimer\s*:|please\s+consider\s+the\s+environment|"
    r"unsubscribe\b|to\s+unsubscribe\s)", re.I)
# A closing on a line of its own, perhaps with a name: "Thanks!", "Best regards, Alice".
_CLOSING = re.compile(
    r"^(thanks(\s+(a\s+lot|again|so\s+much|in\s+advance))?|thank\s+you(\s+(so|very)\s+much)?|thx|tnx|ty|many\s+thanks|"
    r"cheers|regards|best(\s+regards|\s+wishes)?|kind\s+regards|warm\s+regards|all\s+the\s+best|yours(\s+truly)?|"
    r"sincerely|have\s+a\s+(nice|good|great)\s+(day|one|weekend)|talk\s+soon|see\s+you|bye|ttyl|"
    r"danke(\s+schön|\s+sehr|\s+dir)?|vielen\s+dank|(viele|liebe|beste|freundliche|herzliche)\s+grüße|grüße|gruß|lg|vg|mfg|"
    r"mit\s+freundlichen\s+grüßen|schöne\s+grüße|merci(\s+beaucoup)?|cordialement|bien\s+à\s+vous|amitiés|"
    r"(passe\s+une\s+)?bonne\s+(journée|soirée)|à\s+bientôt|bises|salutations|"
    r"gracias|muchas\s+gracias|saludos|un\s+saludo|atentamente|abrazos?|"
    r"grazie(\s+mille)?|saluti|cordiali\s+saluti|un\s+saluto|ciao|a\s+presto|"
    r"obrigad[oa]|abraços?|atenciosamente|cumprimentos|"
    r"bedankt|dank\s+je(\s+wel)?|dank\s+u(\s+wel)?|groeten|groetjes|met\s+vriendelijke\s+groet(en)?|"
    r"tack(\s+så\s+mycket)?|hälsningar|med\s+vänliga\s+hälsningar|mvh|vh|"
    r"tak|takk|hilsen|med\s+venlig\s+hilsen|vennlig\s+hilsen|mange\s+tak|"
    r"kiitos|terveisin|ystävällisin\s+terveisin|"
    r"dziękuję|dzięki|pozdrawiam|pozdrowienia|z\s+poważaniem|"
    r"děkuji|díky|s\s+pozdravem|"
    r"спасибо|с\s+уважением|всего\s+доброго|"
    r"köszönöm|üdvözlettel|teşekkürler|saygılarımla)(?!\w)"
    r"[\s,.!:)-]*(\S+(\s+\S+){0,2})?$", re.I)
# A sign-off with a dash: "-Alice", "- Alice", "– Alice", "—Alice Smith"
_DASH_SIGNOFF = re.compile(r"^[-–—~]{1,2}\s*[^\W\d_][\w.'-]*(\s+[^\W\d_][\w.'-]*){0,2}$")
# A line of dashes, equals signs, stars, tildes or plus signs (a hand-made separator)
_RULE = re.compile(r"^([-=*~+_·•]\s?){3,}$")


def ends_orders(line: str) -> bool:
    """A line that ends the orders once the block has begun: a phone or mail footer, a closing,
    a dash sign-off, a line of dashes or the like, or `end`."""
    if len(line) > MAX_MARK:
        return False
    return (line.lower() == "end" or bool(_FOOTER.match(line) or _CLOSING.match(line)
            or _DASH_SIGNOFF.match(line) or _RULE.match(line)))


# ---- words after the orders -----------------------------------------------------------------------
def own_orders(lines: list[str], breaks: list[int], words) -> list[str]:
    """The block's lines up to the first paragraph, after at least one line, that begins with
    no order word of the game (`words`: the lower-case first words of every line the writer
    may give) nor a word one typing slip from one, and not with a move number (`#12`): the
    writer's own words after the orders ("Hope you are well", "Alice Smith, Acme Inc.").

    A mistyped order is never dropped so: within a paragraph, or starting one with a word close
    to an order word ("bdi 3", "sel 2"), it is read, and refused with its line quoted."""
    for i in breaks:
        if 0 < i < len(lines) and not order_like(lines[i], words):
            return lines[:i]
    return lines


def order_like(line: str, words) -> bool:
    if re.match(r"#\d", line):
        return True
    first = line.split()[0].lower().rstrip(",.;:!?")
    return first in words or any(_near(first, w) for w in words)


def _near(word: str, order: str) -> bool:
    """At most one slip (two for order words of five letters or more, none for words of two):
    a letter left out, added, changed, or two swapped."""
    limit = 2 if len(order) >= 5 else 1 if len(order) >= 3 else 0
    if abs(len(word) - len(order)) > limit:
        return False
    return _distance(word, order) <= limit


def _distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (optimal string alignment)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]
