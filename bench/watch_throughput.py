"""Throughput of `judge watch` against a local Dovecot, beside `judge mail --maildir` on the
same messages: mogul games and their players' orders (bench/mail_throughput.py's), each message
checked (scrypt password), applied, logged, answered and its reports written to a Maildir
outbox. The watcher's pass is the one `judge watch` makes (judge/gateway/watch.py
handle_waiting): per message a partial FETCH after RFC822.SIZE, the gateway, the mark on the
server ($Judged), the outbox sent. Dovecot is started as the tests start it (tests/imapkit.py:
root and Debian's dovecot-imapd needed).

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

from imapkit import Dovecot  # noqa: E402
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--per-game", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "maildir-run", Path(tmp) / "watch-run"
        a.mkdir()
        cfg_a, streams = prepare(a, args.games, args.per_game)
        shutil.copytree(a, b)  # the same games and passwords for the watcher
        messages = interleaved(streams)
        print(f"{args.games} games, {len(messages)} messages")

        maildir = a / "inbox"
        for sub in ("new", "cur", "tmp"):
            (maildir / sub).mkdir(parents=True)
        for n, raw in enumerate(messages):
            (maildir / "new" / f"{n:07d}.bench").write_bytes(raw)
        t = time.perf_counter()
        box = open_outbox(cfg_a)
        done = gateway.handle_maildir(maildir, cfg_a, box, lambda: datetime.now(timezone.utc))
        box.close()
        elapsed_a = time.perf_counter() - t
        print(f"judge mail --maildir: {len(done)} messages in {elapsed_a:.1f} s = {len(done) / elapsed_a:.2f} messages/s"
              f"; {outcome(a, cfg_a)}")

        dovecot = Dovecot().start()
        try:
            user = dovecot.new_user()
            dovecot.append(user, *messages)
            path = b / "judge.toml"
            path.write_text(path.read_text() + dovecot.settings(user))
            path.chmod(0o600)
            cfg_b = config.load(path)
            t = time.perf_counter()
            mailbox = imap.Mailbox(cfg_b.imap)
            done = Watcher(cfg_b, say=lambda _: None).handle_waiting(mailbox)
            mailbox.close()
            elapsed_b = time.perf_counter() - t
            print(f"judge watch (Dovecot {dovecot.port}, IMAP on the loopback): {len(done)} messages in "
                  f"{elapsed_b:.1f} s = {len(done) / elapsed_b:.2f} messages/s; {outcome(b, cfg_b)}")
            left = dovecot.unhandled(user)
            assert not left, f"{len(left)} messages not handled"
        finally:
            dovecot.remove()
        print(f"per message: {elapsed_a / len(messages) * 1000:.0f} ms from a Maildir, "
              f"{elapsed_b / len(messages) * 1000:.0f} ms by IMAP")


if __name__ == "__main__":
    main()
