"""What catching a player up costs: the report of a player whose last report was long ago
begins with every event since then (judge/mail/players.py `catch_up`), read from the state
while it holds them, else from one replay of the log. Plays a bot game of each ruleset
(or RULESET) to its end and times catch_up from move 1 (the worst case: a whole replay) and
from 30 moves back (usually the state alone), at the last move.

    .venv/bin/python bench/catch_up.py [RULESET] [--seed 1]
"""
from __future__ import annotations

import argparse
import time

from judge.engine import bots, ruleset
from judge.engine.game import Game
from judge.mail.settings import catch_up


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset", nargs="?")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = [args.ruleset] if args.ruleset else [rs.name for rs in ruleset.every()]
    for name in names:
        game = Game.new(name, ["alice", "bob", "carol"], seed=args.seed)
        bots.play_out(game)
        for since in (1, max(1, game.move - 30)):
            start = time.perf_counter()
            text = catch_up(game, "alice", since)
            ms = (time.perf_counter() - start) * 1000
            print(f"{name:12} {len(game.log):5} orders  since move {since:5}: {ms:8.1f} ms, "
                  f"{text.count(chr(10)):4} lines")


if __name__ == "__main__":
    main()
