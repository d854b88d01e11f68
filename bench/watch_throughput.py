"""Throughput of `judge watch` against a local Dovecot, beside `judge mail --maildir` on the
same messages: mogul games and their players' orders (bench/mail_throughput.py's), each message
checked (scrypt password), applied, logged, answered and its reports written to a Maildir
outbox. The watcher's pass is the one `judge watch` makes (judge/gateway/watch.py
handle_waiting): per message a partial FETCH after RFC822.SIZE, the gateway, the mark on the
server ($Judged), the outbox sent. Dovecot is started as the tests start it (tests/imapkit.py:
root and Debian's dovecot-imapd needed). It uses the tests' helpers, so it needs the test
extras: `.venv/bin/pip install -e '.[test]'`.

    .venv/bin/python bench/watch_throughput.py [--games 20] [--per-game 10]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

try:
    from imapkit import Dovecot  # noqa: E402
except ImportError as e:  # (tests/imapkit.py and its helpers need the test extras)
    sys.exit(f"bench/watch_throughput.py needs the test extras ({e}): .venv/bin/pip install -e '.[test]'")
from mail_throughput import prepare  # noqa: E402

from judge.gateway import imap, inbox as gateway  # noqa: E402
from judge.gateway.watch import Watcher  # noqa: E402
from judge.mail.outbox import open_outbox  # noqa: E402
from judge.store import config, gamefile  # noqa: E402


def interleaved(streams: list[list[bytes]]) -> list[bytes]:
    """Each game's messages in order, the games taking turns."""
    return [s[i] for i in range(max(map(len, streams))) for s in streams if i < len(s)]


def outcome(root: Path, cfg) -> str:
    applied = sum(len(gamefile.load(p).log) for p in cfg.games.glob("*.toml"))
    return f"orders applied {applied}; mails written {len(list((root / 'outbox' / 'new').iterdir()))}"


def run_maildir(root: Path, messages: list[bytes]) -> float:
    """`judge mail --maildir` on the messages: its seconds."""
    cfg = config.load(root / "judge.toml")
    maildir = root / "inbox"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    for n, raw in enumerate(messages):
        (maildir / "new" / f"{n:07d}.bench").write_bytes(raw)
    t = time.perf_counter()
    box = open_outbox(cfg)
    done = gateway.handle_maildir(maildir, cfg, box, lambda: datetime.now(timezone.utc))
    box.close()
    elapsed = time.perf_counter() - t
    assert len(done) == len(messages)
    print(f"  judge mail --maildir: {len(done)} messages in {elapsed:.1f} s = {len(done) / elapsed:.2f} messages/s"
          f"; {outcome(root, cfg)}")
    return elapsed


def run_watch(root: Path, messages: list[bytes], dovecot: Dovecot) -> float:
    """`judge watch`'s pass over the same messages in a Dovecot mailbox: its seconds."""
    user = dovecot.new_user()
    dovecot.append(user, *messages)
    path = root / "judge.toml"
    path.write_text(path.read_text() + dovecot.settings(user))
    path.chmod(0o600)
    cfg = config.load(path)
    t = time.perf_counter()
    mailbox = imap.Mailbox(cfg.imap)
    done = Watcher(cfg, say=lambda _: None).handle_waiting(mailbox)
    mailbox.close()
    elapsed = time.perf_counter() - t
    assert len(done) == len(messages) and not dovecot.unhandled(user)
    print(f"  judge watch (Dovecot on the loopback): {len(done)} messages in {elapsed:.1f} s = "
          f"{len(done) / elapsed:.2f} messages/s; {outcome(root, cfg)}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--per-game", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2, help="runs of each, taking turns (the machine's load varies)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        _, streams = prepare(base, args.games, args.per_game)
        messages = interleaved(streams)
        print(f"{args.games} games, {len(messages)} messages, {args.rounds} rounds")
        dovecot = Dovecot().start()
        times = {"maildir": 0.0, "watch": 0.0}
        try:
            for n in range(args.rounds):
                shutil.copytree(base, Path(tmp) / f"maildir{n}")  # the same games and passwords for each run
                shutil.copytree(base, Path(tmp) / f"watch{n}")
                times["maildir"] += run_maildir(Path(tmp) / f"maildir{n}", messages)
                times["watch"] += run_watch(Path(tmp) / f"watch{n}", messages, dovecot)
        finally:
            dovecot.remove()
        count = len(messages) * args.rounds
        print(f"in all: judge mail --maildir {count / times['maildir']:.2f} messages/s "
              f"({times['maildir'] / count * 1000:.0f} ms a message), judge watch {count / times['watch']:.2f} "
              f"messages/s ({times['watch'] / count * 1000:.0f} ms a message)")


if __name__ == "__main__":
    main()
