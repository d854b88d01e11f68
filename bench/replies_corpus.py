"""How many real replies the judge reads exactly: the reply bodies of public reply-parser test
corpora (Gmail, Outlook, Apple Mail, Thunderbird, Yahoo, mobile clients, many languages), each
given a player's block where players put it, read as plain text and as format=flowed.

    .venv/bin/python bench/replies_corpus.py FOLDER [--libraries] [--show exact|refused|wrong]

FOLDER holds the corpora as `fetch` leaves them (OWNER+NAME/repo, a bare git directory, read
with `git show`; nothing is copied into this repository). Corpora read when present:

    github/email_reply_parser      test/emails/*.txt
    zapier/email-reply-parser      test/emails/*.txt
    willdurand/EmailReplyParser    tests/Fixtures/*.txt
    crisp-oss/email-reply-parser   test/fixtures/*.txt
    alfonsrv/mail-parser-reply     test/emails/*.txt
    discourse/email_reply_trimmer  test/emails/*.txt
    mailgun/talon                  tests/fixtures/standard_replies/*.eml and the reply bodies
                                   written in tests/text_quotations_test.py
    closeio/quotequail             the reply bodies written in tests/test_quote.py

Bodies found in several corpora count once. Each body B makes these messages (a reply to the
judge's report, whose subject names the game), the player's block being
`player alice PASSWORD`, `#3 bid` and a long `press` line (wrapped by the client when flowed):

- top:        the block, a blank line, then B without its first paragraph (the writer's own
              words, replaced by the block; when B begins with a quote, all of B): the
              writer's sign-off, signature, footers and the client's quote follow the orders;
- top-note:   the block, a blank line, then all of B (a note after the orders);
- bottom:     for a B that quotes with `>`: B from the attribution of its first quote to
              its last quoted line, the block, then the rest of B (its signature...): a
              bottom-post under the corpus's own quote;
- bottom-judge: the same attribution over the judge's report quoted with `>`, then the block.

Each message is read by the judge (judge.gateway.parse.read and blocks, then the block's end of
orders for a mogul player, as judge/gateway/inbox.py does) and counted:
- exact:   one block, alice's, with exactly the block's two orders;
- refused: no block, another block, or a line that the game would refuse (it begins with no
           order word): the player is told, nothing is applied;
- wrong:   anything else: an order dropped, or a line that begins with an order word taken
           for an order (it may be applied).

`--libraries` also measures the maintained reply parsers (quotequail, mail-parser-reply,
email-reply-parser; install them in the venv first), each giving the reply text in which the
judge then reads the block's lines up to the end of that text, the judge's rule for words
after the orders applied alike.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import re
import subprocess
import sys
from collections import Counter
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from judge.gateway import parse, replies

PASSWORD = "k7mxq2pv4a"
PRESS = ("press bob I have thought about your offer of yesterday for a long time, so here it is: "
         "pass the next card to carol and I bid for the one after it")
ORDERS = ["#3 bid", PRESS]
BLOCK = f"player alice {PASSWORD}\n" + "\n".join(ORDERS) + "\n"
SUBJECT = "Re: game g1: move 3, report for alice"
# The mogul player's order words (the ruleset's, its standing orders', the self-service lines)
WORDS = ("bid", "pass", "take", "sell", "credit", "if", "every", "standing", "cancel", "player",
         "help", "rules", "history", "report", "away", "back", "resign", "propose", "agree", "press",
         "set", "confirm")
REPORT = """game g1: move 3, report for alice

Mogul, the card game: report for alice, move 3
Round 1, auction of Banana (revealed), pot 2 chips.
  alice   7 chips   shares: Edison
  bob     6 chips   shares: Nile
  carol   8 chips   shares: Banana
Waiting for alice: bid or pass.

Your orders now:
  bid            pay one chip into the pot
  pass           take the pot, leave the auction
To give orders, write:
  game g1
  player alice YOUR-PASSWORD
  #3 bid
  end
"""

CORPORA = [
    ("github+email_reply_parser", "test/emails/", ".txt"),
    ("zapier+email-reply-parser", "test/emails/", ".txt"),
    ("willdurand+EmailReplyParser", "tests/Fixtures/", ".txt"),
    ("crisp-oss+email-reply-parser", "test/fixtures/", ".txt"),
    ("alfonsrv+mail-parser-reply", "test/emails/", ".txt"),
    ("discourse+email_reply_trimmer", "test/emails/", ".txt"),
    ("mailgun+talon", "tests/fixtures/standard_replies/", ".eml"),
]
WRITTEN = [("mailgun+talon", "tests/text_quotations_test.py"), ("closeio+quotequail", "tests/test_quote.py")]


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout


def bodies(folder: Path) -> dict[str, list[str]]:
    """The reply bodies by corpus, each body once over all corpora."""
    seen, out = set(), {}
    def add(corpus, text):
        text = text.replace("\r\n", "\n").strip("\n")
        key = hashlib.sha256(" ".join(text.split()).encode()).hexdigest()
        if len(text) >= 10 and key not in seen:
            seen.add(key)
            out.setdefault(corpus, []).append(text + "\n")
    for name, under, ext in CORPORA:
        repo = folder / name / "repo"
        if not repo.exists():
            continue
        for path in git(repo, "ls-tree", "-r", "--name-only", "HEAD", under).decode().split("\n"):
            if not path.endswith(ext):
                continue
            raw = git(repo, "show", f"HEAD:{path}")
            if ext == ".eml":
                msg = message_from_bytes(raw, policy=policy.default)
                part = msg.get_body(("plain",))
                if part is None:
                    continue
                add(name, part.get_content())
            else:
                add(name, raw.decode("utf-8", "replace"))
    for name, path in WRITTEN:
        repo = folder / name / "repo"
        if not repo.exists():
            continue
        for node in ast.walk(ast.parse(git(repo, "show", f"HEAD:{path}"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.count("\n") >= 2 \
                    and not re.search(r"\{\w*\}", node.value):
                add(name, node.value)
    return out


def paragraphs(text: str) -> list[list[str]]:
    out, current = [], []
    for line in text.split("\n"):
        if line.strip():
            current.append(line)
        elif current:
            out.append(current)
            current = []
    return out + ([current] if current else [])


def attribution_start(lines: list[str]) -> int | None:
    """The index of the first quote's attribution (the lines just above its first `>` line,
    since the last blank line, at most three), or None when nothing is quoted with `>`."""
    first = next((i for i, line in enumerate(lines) if line.lstrip().startswith(">")), None)
    if first is None:
        return None
    start = first
    while start > 0 and lines[start - 1].strip() and first - start < 3:
        start -= 1
    return start


def messages(body: str) -> dict[str, str]:
    lines = body.split("\n")
    out = {}
    paras = paragraphs(body)
    first = paras[0] if paras else []
    starts_quoted = bool(first) and (first[0].lstrip().startswith(">") or replies.quote_lines(first[0].strip(), ""))
    if first and not starts_quoted:
        rest = lines[lines.index(first[-1]) + 1:] if first[-1] in lines else lines
        out["top"] = BLOCK + "\n" + "\n".join(rest)
    else:
        out["top"] = BLOCK + "\n" + body
    out["top-note"] = BLOCK + "\n" + body
    start = attribution_start(lines)
    if start is not None:
        last = max(i for i, line in enumerate(lines) if line.lstrip().startswith(">"))
        out["bottom"] = "\n".join(lines[start:last + 1]) + "\n\n" + BLOCK + "\n" + "\n".join(lines[last + 1:])
        first_quoted = next(i for i, line in enumerate(lines) if line.lstrip().startswith(">"))
        header = "\n".join(lines[start:first_quoted])
        out["bottom-judge"] = header + ("\n" if header else "") + "".join(f"> {line}\n" for line in REPORT.split("\n")) \
            + "\n" + BLOCK
    return out


def flowed(text: str, width: int = 72) -> str:
    """The text as a client sends it format=flowed (RFC 3676, DelSp=no): long lines broken
    after a space, which stays at the end of the line; lines beginning with a space or
    "From " stuffed with one; quoted lines keep their marks on each piece."""
    out = []
    for line in text.split("\n"):
        marks = re.match(r"^(>+ ?)?", line)[0]
        content = line[len(marks):]
        if not marks and (content.startswith(" ") or content.startswith("From ")):
            content = " " + content
        content = content if content == "-- " else content.rstrip(" ")
        while len(marks) + len(content) > width and " " in content[1:width - len(marks)]:
            cut = content.rindex(" ", 1, width - len(marks)) + 1
            out.append(marks + content[:cut])
            content = content[cut:]
            if not marks and content.startswith(("From ", " ")):
                content = " " + content
        out.append(marks + content)
    return "\n".join(out)


def raw_message(body: str, as_flowed: bool) -> bytes:
    msg = EmailMessage()
    msg["From"] = "alice@players.test"
    msg["To"] = "judge@judge.test"
    msg["Subject"] = SUBJECT
    if as_flowed:
        msg.set_content(flowed(body), cte="quoted-printable")
        msg.set_param("format", "flowed")
        msg.set_param("delsp", "no")
    else:
        msg.set_content(body, cte="quoted-printable")
    return bytes(msg)


def judged(found: list) -> str:
    """exact, refused or wrong, for the blocks read from a message (see the module's text)."""
    if len(found) != 1 or (found[0].game, found[0].player, found[0].password) != ("g1", "alice", PASSWORD):
        return "refused"
    lines = found[0].lines
    if lines == ORDERS:
        return "exact"
    if any(line not in ORDERS and refused(line) for line in lines):
        return "refused"  # the whole block is refused, the line quoted: nothing applied
    return "wrong"


GAME = []


def refused(line: str) -> bool:
    """The mogul game refuses the line from alice, whose turn it is (the self-service lines
    other than `press` are taken as accepted: the judge would carry them out)."""
    from judge.engine.errors import JudgeError
    from judge.engine.game import Game

    if line.split()[0].lower() in WORDS[10:]:
        return False
    if not GAME:
        trial = Game.new("mogul", ["alice", "bob", "carol"], seed=1)
        GAME.append(Game.new("mogul", ["alice", "bob", "carol"], seed=1,
                             setup={"start_player": "alice", "deck": [trial.state["revealed"], *trial.state["deck"]],
                                    "start_cards": {p: trial.state["players"][p]["shares"][0] for p in trial.players}}))
    try:
        GAME[0].copy().submit("alice", [line.split(" ", 1)[1] if line.startswith("#") else line])
    except JudgeError:
        return True
    return False


def read_by_judge(raw: bytes) -> list:
    incoming = parse.read(raw)
    found, _ = parse.blocks(incoming.text, incoming.subject)
    for block in found:
        if hasattr(replies, "own_orders"):  # (judges before issue 25 read every line after the block's start)
            block.lines = replies.own_orders(block.lines, block.breaks, WORDS)
    return found


def library_readers() -> dict:
    """The maintained parsers, each as text -> the reply text it finds."""
    readers = {}
    try:
        import quotequail

        readers["quotequail"] = lambda text: "\n".join(t for reply, t in (quotequail.quote(text) or [(True, text)]) if reply)
    except ImportError:
        pass
    try:
        from mailparser_reply import EmailReplyParser as MPR

        languages = ["en", "de", "fr", "es", "it", "nl", "pl", "sv", "da", "fi", "no", "pt", "ru", "ja", "zh", "cs", "ko"]
        def mpr(text, parser=[]):
            if not parser:
                try:
                    parser.append(MPR(languages=languages))
                except Exception:  # noqa: BLE001 - older versions know fewer languages
                    parser.append(MPR(languages=["en", "de", "fr", "es", "it", "nl"]))
            return parser[0].parse_reply(text=text)
        readers["mail-parser-reply"] = mpr
    except ImportError:
        pass
    try:
        from email_reply_parser import EmailReplyParser as ERP

        readers["email-reply-parser"] = ERP.parse_reply
    except ImportError:
        pass
    return readers


def read_by_library(reader, raw: bytes) -> list:
    """The block's lines in the reply text the library finds (from the `player` line to the
    end of that text, comments and blank lines left out), ended by the judge's rule for words
    after the orders (replies.own_orders), so that a note after the orders counts alike."""
    incoming = parse.read(raw)
    try:
        text = reader(incoming.text) or ""
    except Exception:  # noqa: BLE001 - a library failing on a body refuses it
        return []
    found, block, gap = [], None, False
    for line in text.split("\n"):
        line = line.strip()
        w = line.split()
        if not w or (line.startswith("#") and not line[1:2].isdigit()):
            gap = gap or not w
            continue
        if block is None:
            if w[0].lower() == "player" and len(w) == 3:
                block = parse.Block("g1", w[1], w[2])
                found.append(block)
        else:
            if gap:
                block.breaks.append(len(block.lines))
            block.lines.append(line)
        gap = False
    for block in found:
        block.lines = replies.own_orders(block.lines, block.breaks, WORDS)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--libraries", action="store_true")
    ap.add_argument("--show", choices=("exact", "refused", "wrong"))
    args = ap.parse_args()
    corpora = bodies(args.folder)
    if not corpora:
        sys.exit(f"no corpus found under {args.folder}")
    total = sum(len(b) for b in corpora.values())
    print(f"{total} reply bodies: " + ", ".join(f"{name.replace('+', '/')} {len(b)}" for name, b in corpora.items()))
    readers = {"judge": read_by_judge}
    if args.libraries:
        readers.update({name: (lambda r: lambda raw: read_by_library(r, raw))(r) for name, r in library_readers().items()})
    for name, reader in readers.items():
        for as_flowed in (False, True):
            counts, by_kind = Counter(), Counter()
            for corpus, found in corpora.items():
                for body in found:
                    for kind, text in messages(body).items():
                        raw = raw_message(text, as_flowed)
                        result = judged(reader(raw))
                        counts[result] += 1
                        by_kind[kind, result] += 1
                        if args.show == result and name == "judge":
                            print(f"---- {result} ({corpus}, {kind}, {'flowed' if as_flowed else 'plain'}):")
                            print(parse.read(raw).text)
                            print("---- read:", [(b.player, b.lines) for b in reader(raw)])
            n = sum(counts.values())
            kinds = "  ".join(f"{k} {by_kind[k, 'exact']}/{sum(v for (kk, _), v in by_kind.items() if kk == k)}"
                              for k in ("top", "top-note", "bottom", "bottom-judge"))
            print(f"{name:19} {'flowed' if as_flowed else 'plain':6}  {n} messages: exact {counts['exact']} "
                  f"({100 * counts['exact'] / n:.1f}%), refused {counts['refused']}, wrong {counts['wrong']}   [{kinds}]")


if __name__ == "__main__":
    main()
