"""Balance of mogul-board's stand-in components: sensible-bot games by player count, wins by
start position (position 1 is the start player and gets the placard's first portfolio).

    .venv/bin/python bench/mogul_board_balance.py [GAMES_PER_COUNT] [--random N] [--jobs J]

The start player is rotated over the games. With --random N, also N games per count of one
sensible bot against random bots. A shared win counts 1/k to each of the k winners.
"""
from __future__ import annotations

import sys
import time
from multiprocessing import Pool

from judge.engine import bots
from judge.engine.game import Game

NAMES = ["alice", "bob", "carol", "dave", "erin"]


def play(n: int, seed: int, kinds: dict | None = None) -> tuple[list[str], Game]:
    """One bot game with the start player rotated by seed; the players by start position."""
    start = NAMES[seed % n]
    game = Game.new("mogul-board", NAMES[:n], seed=seed, setup={"start_player": start})
    bots.play_out(game, kinds)
    i = NAMES.index(start)
    return NAMES[i:n] + NAMES[:i], game


def balance_game(job: tuple[int, int]) -> tuple[list[float], int, int, int]:
    n, seed = job
    positions, game = play(n, seed)
    winners = game.ruleset.winners(game.state)
    wins = [1 / len(winners) if p in winners else 0.0 for p in positions]
    depots = sum(len(pl["depots"]) for pl in game.state["players"].values())
    return wins, game.state["round"], len(game.log), depots


def random_game(job: tuple[int, int]) -> float:
    n, seed = job
    hero = NAMES[seed % n]
    _, game = play(n, 10**6 + seed, {p: "random" for p in NAMES[:n] if p != hero})
    winners = game.ruleset.winners(game.state)
    return (hero in winners) / len(winners)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv and argv[0].isdigit() else 2000
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 1
    against = int(argv[argv.index("--random") + 1]) if "--random" in argv else 0
    with Pool(jobs) as pool:
        for n in (3, 4, 5):
            t = time.perf_counter()
            results = pool.map(balance_game, [(n, seed) for seed in range(games)], chunksize=20)
            secs = time.perf_counter() - t
            wins = [sum(r[0][i] for r in results) for i in range(n)]
            rounds, moves, depots = (sum(r[k] for r in results) / games for k in (1, 2, 3))
            share = "  ".join(f"{i + 1}: {w / games:6.1%}" for i, w in enumerate(wins))
            print(f"{n} players, {games} games: wins by start position  {share}")
            print(f"    per game: {rounds:.1f} rounds, {moves:.0f} orders, {depots:.1f} depots built "
                  f"(45 spaces); {secs / games * 1000 * jobs:.0f} ms a game", flush=True)
        for n in (3, 4, 5) if against else ():
            won = sum(pool.map(random_game, [(n, seed) for seed in range(against)], chunksize=10))
            print(f"{n} players: one sensible bot against random bots wins {won / against:.1%} "
                  f"of {against} games (fair share {1 / n:.1%})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
