"""Helpers of the tests of what is published from games (the archive, the league's index,
the site): a judge site with an archive, and games saved a few orders before their end."""
from __future__ import annotations

from judge.engine import bots

from registry import new_game


def archived_site(root):
    """A judge.toml for shell games with an archive and its site in it: (the configuration's
    path, the games directory, the archive, the site)."""
    import subprocess

    games, repo = root / "games", root / "archive"
    games.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    config = root / "judge.toml"
    config.write_text('games = "games"\n[archive]\ngit = "archive"\nsite = "archive/site"\n')
    return config, games, repo, repo / "site"


def ends_in(name: str, seed: int, orders: int, players: int = 3):
    """A game of `name` saved `orders` orders before its end (played by the default bots), and
    those orders, each as the arguments of `judge order` (--as PLAYER ORDER, or --gm ORDER)."""
    from judge.engine.orderlog import LogEntry
    from judge.engine.ruleset import GM

    whole = new_game(name, players, {}, seed)
    bots.play_out(whole)
    game = new_game(name, players, {}, seed)
    bots.play_out(game, moves=len(whole.log) - orders)
    rest = [LogEntry.read(e) for e in whole.log[len(game.log):]]
    return game, [(["--gm"] if e.player == GM else ["--as", e.player]) + [e.text] for e in rest]
