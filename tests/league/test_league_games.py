"""The league from whole mail games between bots with known outcomes: a player who always
wins, one who always misses her deadlines, a resignation, a seat handed on, a rollback, an end
by agreement; computed from the archive's public records alone, the game files deleted."""
from __future__ import annotations

import json
import shutil
import subprocess
from datetime import timedelta

import pytest

from judge.engine import bots, facts
from judge.engine.ruleset import GM
from judge.gateway import deadlines, inbox as gateway
from judge.league import table
from judge.league.records import gather
from judge.league.reliability import of_game
from judge.change import corrections
from mailkit import T0, address, flat, make_site, message, new_game, reply, short_setup

H = timedelta(hours=1)
WINNER_SETUP_SEEDS = range(1, 40)  # setups tried until alice, playing sensibly, wins


class Play:
    """A judge site with a git archive, and mail games played to the end through the gateway
    and `judge tick`: the bots order for everyone in time, except the players in `late`,
    whose every deadline passes (the judge gives their default order)."""

    def __init__(self, root):
        self.site = make_site(root)
        self.archive = root / "archive"
        subprocess.run(["git", "init", "-q", str(self.archive)], check=True)
        cfg = self.site.root / "judge.toml"
        cfg.write_text(cfg.read_text() + '[archive]\ngit = "archive"\n')
        from judge.store import config

        self.site.cfg = config.load(cfg)
        self.now = T0
        self.passwords = {}
        self.holders = {}  # (game, seat) -> the address of who plays it after a replacement

    def new(self, name: str, setup_seed: int = 1, rounds: int = 3) -> None:
        self.passwords[name] = new_game(self.site, name, deadline=48, remind=0, now=self.now,
                                        setup=short_setup(rounds, setup_seed))
        self.site.take()

    def send(self, name: str, seat: str, *lines: str) -> str:
        """A block from whoever plays `seat` now (after a replacement: the new player)."""
        pw, sender = self.passwords[name][seat], self.holders.get((name, seat), address(seat))
        self.now += H
        gateway.handle(message(sender, f"game {name}\nplayer {seat} {pw}\n" + "\n".join(lines) + "\n"),
                       self.site.cfg, self.site.outbox(), self.now)
        return reply(self.site.take(), sender)

    def tick(self) -> list[str]:
        self.now += 49 * H
        done = deadlines.tick(self.site.cfg, self.site.outbox(), self.now)
        self.site.take()
        return done

    def play(self, name: str, late=(), sensible=("alice",), moves: int | None = None) -> None:
        """Play until the end (or `moves` more orders)."""
        start = len(self.site.load(name).log)
        while True:
            game = self.site.load(name)
            if game.is_over() or (moves is not None and len(game.log) >= start + moves):
                return
            ready = [p for p in game.awaiting() if p != GM and p not in late]
            if not ready:
                assert self.tick(), "a tick after the deadline gives the late players' orders"
                continue
            player = ready[0]
            order = bots.choose(game, player, "sensible" if player in sensible else "random", salt=name)
            assert "OK" in self.send(name, player, order)


def alice_wins(name: str, setup_seed: int) -> bool:
    """Whether alice wins outright the game `name` of this setup, played as `Play.play` plays
    it with carol late (played here without mail: the same orders)."""
    from judge.engine.game import Game

    game = Game.new("mogul", ["alice", "bob", "carol"], seed=1, setup=short_setup(3, setup_seed))
    while not game.is_over():
        player = game.awaiting()[0]
        order = game.ruleset.default_order(game.state, player) if player == "carol" else \
            bots.choose(game, player, "sensible" if player == "alice" else "random", salt=name)
        game.submit(player, [order])
    return game.ruleset.winners(game.state) == ["alice"]


# Cost (20 s, once for the module's tests): five whole mail games with deadlines, a resignation,
# a rollback and a seat handed on.
@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Three games alice wins, carol missing every deadline; then a game where bob resigns,
    and one where carol's seat is handed to dave after a missed deadline undone by a rollback."""
    root = tmp_path_factory.mktemp("league")
    p = Play(root)
    seeds = []
    for seed in WINNER_SETUP_SEEDS:
        if len(seeds) < 3 and alice_wins(f"win{len(seeds)}", seed):
            seeds.append(seed)
    assert len(seeds) == 3
    for i, seed in enumerate(seeds):
        p.new(f"win{i}", seed)
        p.play(f"win{i}", late={"carol"})
    # bob resigns at once: the bot plays his seat; he comes last
    p.new("quit", 2)
    p.send("quit", "bob", "resign")
    p.play("quit")
    # carol misses a deadline, the game master rolls it back, then hands her seat to dave
    p.new("handed", 3)
    p.play("handed", moves=2)
    game = p.site.load("handed")
    awaited = game.awaiting()[0]
    assert p.tick()  # the awaited player's deadline passes
    game = p.site.load("handed")
    assert [f.args[0] for f in facts.facts(game.log)] == [awaited]  # the missed deadline, in the log
    corrections.rollback_file(p.site.game_path("handed"), p.site.cfg, p.now, game.move - 1, "the judge's mail was down")
    _, _, p.passwords["handed"]["carol"], _ = corrections.replace_file(p.site.game_path("handed"), p.site.cfg, p.now,
                                                                       "carol", "dave", address("dave"))
    p.holders["handed", "carol"] = address("dave")
    p.site.take()
    p.play("handed", sensible=())
    return p, seeds, awaited


def test_the_mail_games_end_as_the_test_says(played):
    p, _, _ = played
    for i in range(3):
        game = p.site.load(f"win{i}")
        assert game.is_over() and game.ruleset.winners(game.state) == ["alice"]
        assert len([f for f in facts.facts(game.log) if f.kind == "missed" and f.args[0] == "carol"]) == \
            len([e for e in game.log if e.split()[1] == "carol"]) > 0  # every order of carol's came from a tick
    assert all(facts.ended(p.site.load(n).state) for n in ("win0", "quit", "handed"))


def test_the_league_from_the_archive_alone(played, tmp_path):
    p, _, awaited = played
    files = tmp_path / "games"
    shutil.copytree(p.site.cfg.games, files)
    from_games = table.text(table.league(gather(files)[0]))
    records = tmp_path / "records"
    shutil.copytree(p.archive, records, ignore=shutil.ignore_patterns(".git"))
    shutil.rmtree(files)  # the game files are gone: only the public records are left
    games, warnings = gather(records)
    assert warnings == [] and [g.game for g in games] == ["win0", "win1", "win2", "quit", "handed"]
    sections = table.league(games)
    assert table.text(sections) == from_games
    rows = {r.player: r for r in sections[0].rows}
    # alice won the three games carol played late, and she is first
    assert sections[0].rows[0].player == "alice" and rows["alice"].wins >= 3
    for game in games[:3]:  # carol missed every deadline of the three
        assert of_game(game)["carol"].reliability == 0.0 and of_game(game)["carol"].missed > 0
    carol = rows["carol"].conduct
    assert carol.missed == sum(of_game(g)["carol"].orders for g in games[:3])
    assert carol.on_time == of_game(games[3])["carol"].orders + of_game(games[4])["carol"].orders > 0  # in time there
    assert rows["alice"].conduct.reliability == 1.0 and rows["alice"].conduct.missed == 0
    # bob resigned: last in that game, every later order of his seat not his
    bob = rows["bob"]
    assert bob.conduct.resigned == 1 and bob.conduct.unanswered == bob.conduct.orders - _on_time(games, "bob")
    assert table.placings(games[3], table.Names())["bob"] == 3
    # the seat handed to dave: dave has the seat's result, carol abandoned it; the rolled back miss is gone
    handed = games[4]
    assert handed.missed == [] and handed.final("carol") == "dave"
    assert "dave" in table.placings(handed, table.Names()) and "carol" not in table.placings(handed, table.Names())
    assert rows["carol"].conduct.abandoned == 1 and rows["dave"].games == 1 and rows["dave"].conduct.missed == 0
    assert rows["carol"].games == 4  # the three late games and the resignation game; not the one she left


def _on_time(games, player):
    """bob's orders before his resignation (there were none: he resigned at once) and in the
    games he played to the end."""
    return sum(1 for g in games if g.game != "quit" for move, seat in g.orders if g.holder(seat, move) == player)


def test_a_running_game_changes_nothing(played, tmp_path):
    p, _, _ = played
    records = tmp_path / "records"
    shutil.copytree(p.archive, records, ignore=shutil.ignore_patterns(".git"))
    before = table.text(table.league(gather(records)[0]))
    p.new("running", 5)
    p.play("running", late={"carol"}, moves=6)
    shutil.copy(p.archive / "mogul" / "running.toml", records / "mogul" / "running.toml")
    assert not p.site.load("running").is_over()
    assert table.text(table.league(gather(records)[0])) == before
    assert table.text(table.league(gather(p.site.cfg.games)[0])) == before


def test_the_same_records_give_the_same_table_byte_for_byte_in_order_of_their_end(played, tmp_path):
    p, _, _ = played
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(p.archive / "mogul", a / "mogul")
    for path in (p.archive / "mogul").glob("*.toml"):  # other file names, other directory order
        (b / "x").mkdir(parents=True, exist_ok=True)
        shutil.copy(path, b / "x" / f"z-{path.stem[::-1]}.toml")
    assert table.as_json(table.league(gather(a)[0])) == table.as_json(table.league(gather(b)[0]))
    # the end's time decides the order: swapping two games' ends changes the ratings
    games = gather(a)[0]
    games[0].ended, games[3].ended = games[3].ended, games[0].ended
    games.sort(key=lambda g: (g.ended, g.ruleset, g.game))
    assert [g.game for g in games][:4] == ["quit", "win1", "win2", "win0"]
    assert table.as_json(table.league(games)) != table.as_json(table.league(gather(a)[0]))


def test_the_mail_line_league_answers_with_the_table_of_the_games_ruleset(played):
    p, _, _ = played
    p.new("asking", 6)
    answer = p.send("asking", "bob", "league")
    assert "OK      league" in answer
    assert "League: mogul (5 finished games" in answer and "alice" in answer and "@" not in answer.split("League:")[1]


def test_judge_new_refuses_a_player_below_the_minimum_reliability(played, tmp_path):
    from typer.testing import CliRunner

    from judge.cli import app

    p, _, _ = played
    cfg = p.site.root / "judge.toml"
    out = CliRunner().invoke(app, ["new", "mogul", str(tmp_path / "next.toml"), "-p", "alice", "-p", "carol",
                                   "-p", "zoe", "--min-reliability", "0.8", "--config", str(cfg)])
    assert out.exit_code != 0 and not (tmp_path / "next.toml").exists()
    carol = {r.player: r for r in table.league(gather(p.archive)[0])[0].rows}["carol"].conduct
    assert carol.reliability < 0.8
    assert (f"1 player falls short: carol: {100 * carol.reliability:.1f}% ({carol.on_time} of {carol.orders} orders "
            f"on time, {carol.missed} deadlines missed, 0 resignations)") in flat(out.output)
    out = CliRunner().invoke(app, ["new", "mogul", str(tmp_path / "next.toml"), "-p", "alice", "-p", "bob",
                                   "-p", "zoe", "--min-reliability", "0.5", "--config", str(cfg)])
    assert out.exit_code == 0, out.output
    assert "zoe has no finished game on record yet: admitted" in out.output


def test_json_and_csv_carry_the_same_figures(played):
    p, _, _ = played
    sections = table.league(gather(p.archive)[0])
    data = json.loads(table.as_json(sections))
    lines = table.as_csv(sections).splitlines()
    assert lines[0] == "ruleset,rank,player,rating,mu,sigma,games,wins,orders,timed,on_time,reliability,missed,resigned,abandoned"
    first = data["league"][0]["players"][0]
    assert lines[1].split(",")[:4] == ["mogul", "1", first["player"], str(first["rating"])]
    assert len(lines) - 1 == sum(len(s["players"]) for s in data["league"])
