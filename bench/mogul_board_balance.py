"""Balance of mogul-board's stand-in components: bot games by player count, wins by start
position (position 1 is the start player, who gets the placard's first portfolio).

    .venv/bin/python bench/mogul_board_balance.py [GAMES_PER_COUNT] [--random N]

With --random N, also plays N games per count of one sensible bot against random bots and
prints how often the sensible bot wins. A shared win counts as 1/k to each of the k winners.
"""
from __future__ import annotations

import sys
import time

from judge import bots
from judge.game import Game

NAMES = ["alice", "bob", "carol", "dave", "erin"]


def play(n: int, seed: int, kinds: dict | None = None) -> tuple[list[str], Game]:
    """One bot game; the start player is rotated by seed. Returns the players by start position."""
    start = NAMES[seed % n]
    game = Game.new("mogul-board", NAMES[:n], seed=seed, setup={"start_player": start})
    bots.play_out(game, kinds)
    i = NAMES.index(start)
    return NAMES[i:n] + NAMES[:i], game


def balance(n: int, games: int) -> None:
    wins = [0.0] * n
    rounds = moves = depots = 0
    t = time.perf_counter()
    for seed in range(games):
        positions, game = play(n, seed)
        winners = game.ruleset.winners(game.state)
        for w in winners:
            wins[positions.index(w)] += 1 / len(winners)
        rounds += game.state["round"]
        moves += len(game.log)
        depots += sum(len(pl["depots"]) for pl in game.state["players"].values())
    secs = time.perf_counter() - t
    share = "  ".join(f"{i + 1}: {w / games:6.1%}" for i, w in enumerate(wins))
    print(f"{n} players, {games} games: wins by start position  {share}")
    print(f"    per game: {rounds / games:.1f} rounds, {moves / games:.0f} orders, "
          f"{depots / games:.1f} depots built of 45 spaces; {secs / games * 1000:.0f} ms a game")


def against_random(n: int, games: int) -> None:
    wins = 0.0
    for seed in range(games):
        hero = NAMES[seed % n]
        kinds = {p: "random" for p in NAMES[:n] if p != hero}
        _, game = play(n, 10**6 + seed, kinds)
        winners = game.ruleset.winners(game.state)
        wins += (hero in winners) / len(winners)
    print(f"{n} players: one sensible bot against random bots wins {wins / games:.1%} of {games} games (fair share {1 / n:.1%})")


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv and argv[0].isdigit() else 2000
    for n in (3, 4, 5):
        balance(n, games)
    if "--random" in argv:
        k = int(argv[argv.index("--random") + 1])
        for n in (3, 4, 5):
            against_random(n, k)


if __name__ == "__main__":
    main(sys.argv[1:])
