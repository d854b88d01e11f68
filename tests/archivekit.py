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


# ---- an archive of many finished games, made cheaply -----------------------------------------
TEMPLATE_PLAYERS = ("pxa", "pxb", "pxc")  # renamed in each copy (three letters, in the same order)
POOL = ("amy", "bea", "cal", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lee", "max", "ned",
        "oli", "pam", "quy", "ros", "sam", "tom", "uma", "val", "wes", "xia", "yan", "zoe")
PLAYERS = [name + end for name in POOL for end in "ab"]  # 52 players in all
ENDED = "2026-05-01T12:00:00Z"


def template(seed: int = 1):
    """A short finished mail game of mogul between the TEMPLATE_PLAYERS, its public record's
    text and the entry the league's index keeps of it (judge/league/index.py)."""
    import hashlib
    from datetime import datetime, timezone

    from judge.engine.game import Game
    from judge.league import index, records
    from judge.record import conduct, public

    players = list(TEMPLATE_PLAYERS)
    trial = Game.new("mogul", players, seed=seed)
    st = trial.state
    deck = [st["revealed"], *st["deck"]]
    deck.remove("crash")
    deck.insert(2, "crash")  # the crash card in round 3: a short game
    game = Game.new("mogul", players, seed=seed, setup={"start_player": st["start"], "deck": deck, "start_cards": {
        p: st["players"][p]["shares"][0] for p in players}})
    bots.play_out(game)
    conduct.ended(game, datetime(2026, 5, 1, 12, tzinfo=timezone.utc))
    record = public.build(game, "template")
    text = public.dumps(record)
    entry = index.entry_of_game(text.encode(), game, records.finished(record, "template", game))
    assert entry["row"]["audit"] == "passes"
    return game, text, entry


class Copies:
    """Copy i of the template game: its three players (of PLAYERS, in the template's order), its
    own salt and so its own commitment (which `judge audit` accepts), its name gNNNNN and its
    end (200 games a month from May 2026, a minute apart)."""

    def __init__(self, seed: int = 1):
        self.game, self.text, self.entry = template(seed)

    def names(self, i: int) -> dict[str, str]:
        """What copy i writes for each word of the template that differs (players, salt,
        commitment, end, name)."""
        import hashlib
        import json

        from judge.engine import chain
        from judge.engine.game import commitment

        game = self.game
        names = sorted(PLAYERS[(i * 7 + k * 17) % len(PLAYERS)] for k in range(3))
        renamed = dict(zip(TEMPLATE_PLAYERS, names))
        salt = hashlib.sha256(f"{self.game.rng.seed} {i}".encode()).hexdigest()[:len(game.salt)]
        setup = json.loads(_renamed(json.dumps(game.setup), renamed))
        renamed[game.salt] = salt
        renamed[game.commitment] = commitment(game.ruleset, names, game.options, setup, game.rng.seed, salt,
                                              game.rng.key, game.format)
        month, day = 5 + i // 200, 1 + i % 200 // 8
        renamed[ENDED] = f"{2026 + (month - 1) // 12}-{(month - 1) % 12 + 1:02d}-{day:02d}T{i % 8 + 10:02d}:{i % 60:02d}:00Z"
        renamed["template"] = f"g{i:05d}"
        # the log's heads (judge/engine/chain.py): those of the copy's log, under its salt and commitment
        log = [_renamed(e, renamed) for e in game.log]
        mine = chain.after_each_move(game.commitment, game.salt, game.log)
        theirs = chain.after_each_move(renamed[game.commitment], salt, log)
        renamed.update({mine[m]: theirs[m] for m in mine})
        return renamed

    def write(self, root, n: int, folder: str = "mogul") -> list:
        """`n` finished records under root/FOLDER/gNNNNN.toml, with the index's entry of each and
        the league kept of them all, as the judge would have made them."""
        import hashlib
        import json
        import os

        from judge.league import index

        base = root / folder
        base.mkdir(parents=True, exist_ok=True)
        idx = index.Index(root)
        idx.folder.mkdir(exist_ok=True)
        (idx.folder / ".gitignore").write_text("*\n")
        entries = {}
        row = json.dumps(self.entry["row"])
        for i in range(n):
            renamed = self.names(i)
            copy = _renamed(self.text, renamed)
            path = base / f"g{i:05d}.toml"
            path.write_text(copy)
            st = os.stat(path)
            entries[f"{folder}/{path.name}"] = {"hash": hashlib.sha256(copy.encode()).hexdigest(), "kind": "finished",
                                                "row": json.loads(_renamed(row, renamed)), "size": st.st_size,
                                                "mtime": st.st_mtime_ns}
        for where, e in entries.items():
            idx._put(where, e)
        kept, counted = index.compute(entries, {})
        idx._save("counted.json", counted)
        idx._save("league.json", kept.as_data())
        return sorted(base.glob("g*.toml"))


def copies(root, n: int, seed: int = 1, folder: str = "mogul") -> list:
    """`n` copies of the template game under root/FOLDER (`Copies.write`): what a long-lived
    archive holds, in a second or two."""
    return Copies(seed).write(root, n, folder)


def _renamed(text: str, names: dict) -> str:
    for old, new in names.items():  # (the template's words are found in nothing else: "px" is no hex)
        text = text.replace(old, new)
    return text


def site_file(site, ruleset: str, game: str, ending: str = "html"):
    """The file of a game in a site (judge/site/pages.py `base`: RULESET/XY/GAME.ENDING)."""
    from judge.site.pages import base

    return site / f"{base(ruleset, game)}.{ending}"


def href(ruleset: str, game: str) -> str:
    """The link of a game's page from the site's index."""
    from judge.site.pages import base

    return f"{base(ruleset, game)}.html"
