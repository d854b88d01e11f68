"""Record (or re-record) the golden game of a ruleset: a bot game's seed, players, options and
orders, with every reader's report (each player's, the public's, the game master's) at chosen
points. tests/proofs/test_golden.py replays it and diffs the reports.

    python tests/golden/record.py RULESET [--players N] [--seed S] [--bots sensible,random] [--every K]

Re-record only when a report is meant to change (and bump the ruleset's version when its rules do).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

import tomli_w  # noqa: E402

from judge.engine import bots, ruleset  # noqa: E402
from judge.engine.game import Game  # noqa: E402
from judge.engine.report import render  # noqa: E402
from judge.engine.ruleset import GM  # noqa: E402
from judge.engine.simulate import parse_kinds, seat_kinds, usual_players  # noqa: E402


SALT = "5a17" * 8  # a fixed salt, so the commitment in the reports is the same at every replay


def path_of(name: str) -> Path:
    return HERE / f"{name}.toml"


def readers(game: Game) -> list[str]:
    """Everyone who gets a report: each player, the public ("") and the game master."""
    return [*game.players, "", GM]


def reports(game: Game) -> list[dict]:
    return [{"after": len(game.log), "reader": who, "text": render(game.view(who or None))} for who in readers(game)]


def record(name: str, players: int, seed: int, kinds: list[str], every: int) -> dict:
    rs = ruleset.get(name)
    game = Game.new(name, bots.NAMES[:players], seed=seed, salt=SALT)
    shots = reports(game)

    def on_move(player, order):
        if len(game.log) % every == 0 or game.is_over():
            shots.extend(reports(game))

    bots.play_out(game, seat_kinds(kinds, game.players, 0), on_move=on_move)
    return {
        "ruleset": name,
        "ruleset_version": rs.version,
        "seed": seed,
        "salt": SALT,
        "players": game.players,
        "options": game.options,
        "orders": list(game.log),
        "reports": shots,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=None, help="default: 4, or the nearest count allowed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="sensible,random", help="bot kinds seated in turn")
    ap.add_argument("--every", type=int, default=40, help="orders between recorded reports")
    args = ap.parse_args(argv)
    rs = ruleset.get(args.ruleset)
    players = args.players or usual_players(rs)
    data = record(rs.name, players, args.seed, parse_kinds(args.bots), args.every)
    command = f"python tests/golden/record.py {rs.name} --players {players} --seed {args.seed} --bots {args.bots} --every {args.every}"
    text = f"# The golden game of {rs.name}, recorded by:\n#   {command}\n" + tomli_w.dumps(data, multiline_strings=True)
    path_of(rs.name).write_text(text, encoding="utf-8")
    print(f"wrote {path_of(rs.name)}: {len(data['orders'])} orders, {len(data['reports'])} reports")


if __name__ == "__main__":
    main()
