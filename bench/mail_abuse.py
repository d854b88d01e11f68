"""What a hostile message costs `judge mail` (issue 24): each message an attacker could send,
with no password or with one player's, is given to a real `judge mail` process (as an MTA
pipes it, or from a Maildir), side by side with a normal one-order message. For each: the
wall time, the process's peak memory (its own rusage, from wait4), the exit code and the size
of the answer. A fresh copy of the game directory for every run.

Targets: no hostile message of up to 1 MB costs more than 2 s or 200 MB, nor more than 20x the
time of the normal message; a hostile answer is at most 8 kB.

    .venv/bin/python bench/mail_abuse.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import email
import email.policy
import os
import shutil
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

from judge.engine.game import Game
from judge.mail import mailgame
from judge.store import gamefile

NAMES = ["ann", "bob", "cat"]
JUDGE = [sys.executable, "-m", "judge"]
MB = 1024 * 1024


def mail(sender: str, body: str, subject: str = "orders", charset: str = "") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "judge@bench.test", subject, "<b1@bench.test>"
    if charset:
        msg.set_content(body.encode("ascii"), maintype="text", subtype="plain", cte="7bit")
        msg.set_param("charset", charset)
    else:
        msg.set_content(body)
    return bytes(msg)


def raw(head: bytes, body: bytes) -> bytes:
    return head + b"\nTo: judge@bench.test\nMessage-ID: <b2@bench.test>\n\n" + body


def block(player: str, password: str, *lines: str, game: str = "m4") -> str:
    return f"game {game}\nplayer {player} {password}\n" + "".join(f"{line}\n" for line in lines)


def messages(passwords: dict, first: str, other: str) -> list[tuple[str, str, bytes]]:
    """(name, how it is given: pipe or maildir, the message) for the normal one and each attack."""
    me, pw, opw = f"{first}@bench.test", passwords[first], passwords[other]
    them = f"{other}@bench.test"
    words = b" ".join([b"=?utf-8?q?a?="] * 70_000)
    parts = b"".join(b"--b\nContent-Type: text/plain; charset=" + b" ".join([b"=?utf-8?q?a?="] * 50) + b"\n\nx\n"
                     for _ in range(1300))
    wrong = block("ann", "wrongpass")
    cancels = "".join(block(other, opw, *["cancel"] * 100) for _ in range(2)) + wrong * 8
    return [
        ("normal: one order", "pipe", mail(me, block(first, pw, "bid"))),
        ("1. Subject of 70,000 encoded words (980 kB)", "pipe", raw(b"From: " + me.encode() + b"\nSubject: " + words, b"x\n")),
        ("1. Subject of 20,000 encoded words (280 kB)", "pipe",
         raw(b"From: " + me.encode() + b"\nSubject: " + b" ".join([b"=?utf-8?q?a?="] * 20_000), b"x\n")),
        ("1. From of 60,000 addresses (829 kB)", "pipe",
         raw(b"From: " + b", ".join(b"a%d@x.test" % i for i in range(60_000)), b"x\n")),
        ("1. 1,300 MIME parts, encoded words in each header (1 MB)", "pipe",
         raw(b"From: " + me.encode() + b"\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b\"",
             parts + b"--b--\n")),
        ("1. a 3 MB file in a Maildir", "maildir", mail(me, "x" * (3 * MB))),
        ("2. 300 wrong-password blocks (8.7 kB)", "pipe", mail("victim@else.test", wrong * 300)),
        ("2. 1 MB of wrong-password blocks", "pipe", mail("victim@else.test", wrong * (MB // len(wrong) - 10))),
        ("2. 10 wrong-password blocks (the most read)", "pipe", mail("victim@else.test", wrong * 10)),
        ("3. 2,000 `standing` then `cancel 99`", "maildir", mail(me, block(first, pw, *["standing"] * 2000, "cancel 99"))),
        ("3. 99 `standing` then `cancel 99` (the most read)", "maildir",
         mail(me, block(first, pw, *["standing"] * 99, "cancel 99"))),
        ("4. 1 MB of `cancel` lines", "pipe", mail(them, block(other, opw, *["cancel"] * (MB // 7 - 20)))),
        ("4. 2 blocks of 100 `cancel` lines and 8 others (the most read)", "pipe", mail(them, cancels)),
        ("4. 2 blocks of 100 press lines of 190 characters", "pipe",
         mail(them, block(other, opw, *[f"press all {'x' * 180}"] * 100) * 2)),
        ("6. a utf-7 part with a lone surrogate", "pipe", mail(me, block(first, pw, "bid", "+2AA-"), charset="utf-7")),
    ]


def prepare(root: Path) -> tuple[dict, str, str]:
    (root / "games").mkdir(parents=True)
    (root / "judge.toml").write_text('address = "judge@bench.test"\ngm = "gm@bench.test"\ngames = "games"\n'
                                     '[maildir]\npath = "outbox"\n')
    (root / "judge.toml").chmod(0o600)
    game = Game.new("mogul", NAMES, seed=1)
    passwords = mailgame.enable(game, {p: f"{p}@bench.test" for p in NAMES}, [])
    gamefile.create(game, root / "games" / "m4.toml")
    first = game.awaiting()[0]
    return passwords, first, next(p for p in NAMES if p != first and p not in game.awaiting())


def run(root: Path, how: str, message: bytes) -> tuple[float, int, int, int]:
    """(seconds, peak memory in MB, exit code, bytes of the answer's text) of one `judge mail`."""
    site = root / "site"
    if site.exists():
        shutil.rmtree(site)
    shutil.copytree(root / "pristine", site)
    cmd = [*JUDGE, "mail", "--config", str(site / "judge.toml")]
    stdin = subprocess.PIPE
    if how == "maildir":
        for sub in ("new", "cur", "tmp"):
            (site / "in" / sub).mkdir(parents=True)
        (site / "in" / "new" / "1.msg").write_bytes(message)
        cmd += ["--maildir", str(site / "in")]
        stdin = subprocess.DEVNULL
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=site)
    if how == "pipe":
        try:
            proc.stdin.write(message)
        except BrokenPipeError:
            pass
        proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    answers = []
    for path in (site / "outbox" / "new").glob("*") if (site / "outbox" / "new").is_dir() else []:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if str(msg["Subject"]).startswith("Re:"):
            answers.append(len(msg.get_content().encode()))
    return seconds, usage.ru_maxrss // 1024, proc.returncode, max(answers, default=0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="runs of each message; the slowest is shown")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        passwords, first, other = prepare(root / "pristine")
        rows = []
        for name, how, message in messages(passwords, first, other):
            runs = [run(root, how, message) for _ in range(args.repeat)]
            rows.append((name, how, len(message), *max(runs)))
        normal = rows[0][3]
        print("| message | given | size | time | peak memory | vs normal | exit | answer | targets |")
        print("|---|---|---|---|---|---|---|---|---|")
        failed = 0
        for i, (name, how, size, seconds, peak, code, answer) in enumerate(rows):
            ok = i == 0 or (seconds <= 2 and peak <= 200 and seconds <= 20 * normal and answer <= 8192 and code == 0)
            failed += not ok
            print(f"| {name} | {how} | {size / 1024:,.1f} kB | {seconds:.2f} s | {peak} MB | {seconds / normal:.1f}x "
                  f"| {code} | {answer:,} B | {'met' if ok else 'MISSED'} |")
        print(f"\n{len(rows) - 1 - failed} of {len(rows) - 1} hostile messages within every target")
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
