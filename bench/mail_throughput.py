"""Throughput of `judge mail --maildir`: 1,000 messages of orders for 100 mogul games, each
checked (scrypt password), applied under the game's lock, logged, answered, and the changed
reports written to a Maildir outbox. Prints messages per second.

    .venv/bin/python bench/mail_throughput.py [--games 100] [--per-game 10]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from datetime import datetime, timezone
from pathlib import Path

from judge.engine import bots
from judge.store import config, gamefile
from judge.gateway import inbox as gateway
from judge.mail import mailgame
from judge.engine.game import Game
from judge.mail.outbox import open_outbox
from judge.mail.passwords import check_password, hash_password

NAMES = ["alice", "bob", "carol", "dave"]


def incoming(sender: str, subject: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "judge@bench.test", subject
    msg["Message-ID"] = make_msgid(domain="bench.test")
    msg.set_content(body)
    return bytes(msg)


def prepare(root: Path, games: int, per_game: int) -> tuple[config.Config, list[list[bytes]]]:
    (root / "games").mkdir()
    (root / "judge.toml").write_text('address = "judge@bench.test"\ngm = "gm@bench.test"\ngames = "games"\n'
                                     '[maildir]\npath = "outbox"\n')
    cfg = config.load(root / "judge.toml")
    streams = []
    for g in range(games):
        name = f"bench{g:03d}"
        game = Game.new("mogul", NAMES, seed=g)
        passwords = mailgame.enable(game, {p: f"{p}@bench.test" for p in NAMES}, ["watch@bench.test"])
        gamefile.create(game, cfg.games / f"{name}.toml")
        trial, stream = game.copy(), []
        for i in range(per_game):  # the orders the players will send, found by playing ahead
            if trial.is_over():
                break
            player = trial.awaiting()[0]
            order = bots.choose(trial, player)
            body = f"game {name}\nplayer {player} {passwords[player]}\n#{trial.move} {order}\n"
            stream.append(incoming(f"{player}@bench.test", f"Re: game {name}", body))
            trial.submit(player, [order])
        streams.append(stream)
    return cfg, streams


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--per-game", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        cfg, streams = prepare(root, args.games, args.per_game)
        inbox = root / "inbox"
        for sub in ("new", "cur", "tmp"):
            (inbox / sub).mkdir(parents=True)
        n = 0
        for i in range(max(len(s) for s in streams)):  # interleaved: each game's messages in order
            for stream in streams:
                if i < len(stream):
                    (inbox / "new" / f"{n:07d}.bench").write_bytes(stream[i])
                    n += 1
        print(f"prepared {args.games} games and {n} messages in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        box = open_outbox(cfg)
        done = gateway.handle_maildir(inbox, cfg, box, lambda: datetime.now(timezone.utc))
        elapsed = time.perf_counter() - t
        applied = sum(len(gamefile.load(p).log) for p in cfg.games.glob("*.toml"))
        sent = len(list((root / "outbox" / "new").iterdir()))
        print(f"judge mail --maildir: {len(done)} messages in {elapsed:.1f} s = {len(done) / elapsed:.1f} messages/s")
        print(f"orders applied {applied} of {n}; mails written {sent}")
        t = time.perf_counter()
        for _ in range(20):
            check_password("x", hash_password("y"))
        print(f"of which one scrypt password check takes {(time.perf_counter() - t) / 40 * 1000:.0f} ms")


if __name__ == "__main__":
    main()
