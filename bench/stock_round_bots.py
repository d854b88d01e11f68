"""stock-round bots: how often one sensible bot beats three random ones, and game lengths.

    .venv/bin/python bench/stock_round_bots.py [GAMES]
"""
import sys
import time

from judge.engine import bots
from judge.engine.game import Game
from judge.engine.ruleset import GM

NAMES = ["alice", "bob", "carol", "dave"]


def main(games: int) -> None:
    wins, lengths, start = 0, [], time.perf_counter()
    for seed in range(games):
        g = Game.new("stock-round", NAMES, seed=seed)
        kinds = {p: "random" for p in NAMES} | {NAMES[seed % 4]: "sensible", GM: "sensible"}
        bots.play_out(g, kinds)
        wins += NAMES[seed % 4] in g.ruleset.winners(g.state)
        lengths.append(len(g.log))
    took = time.perf_counter() - start
    print(f"{games} games, 4 players, default options: the sensible seat won {wins} ({100 * wins / games:.0f}%; chance 25%)")
    print(f"orders a game: min {min(lengths)}, mean {sum(lengths) / games:.0f}, max {max(lengths)}; {took / games * 1000:.0f} ms a game")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
