"""Rumors: how often the sensible bot beats random bots, and how long games take.

    .venv/bin/python bench/rumors_bots.py [GAMES]

Each game seats one sensible bot (in turn at every seat) against random bots and counts
the sensible bot's wins (shared wins count) and its mean money against the random mean.
"""
import sys
import time

from judge.engine import bots
from judge.engine.game import Game

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def main(games: int) -> None:
    for n in range(3, 7):
        wins = sensible_money = random_money = orders = 0
        start = time.perf_counter()
        for seed in range(games):
            players = NAMES[:n]
            smart = players[seed % n]
            g = Game.new("rumors", players, seed=seed)
            bots.play_out(g, kinds={p: "sensible" if p == smart else "random" for p in players})
            money = {p: pl["money"] for p, pl in g.state["players"].items()}
            wins += smart in g.status()["winners"]
            sensible_money += money[smart]
            random_money += sum(m for p, m in money.items() if p != smart) / (n - 1)
            orders += len(g.log)
        took = time.perf_counter() - start
        print(f"{n} players: sensible bot wins {wins}/{games} (chance {games / n:.0f}); "
              f"mean money sensible ${sensible_money / games:.0f}, random ${random_money / games:.0f}; "
              f"{orders / games:.0f} orders a game, {1000 * took / games:.0f} ms a game")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
