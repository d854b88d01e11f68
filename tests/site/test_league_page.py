"""The site's league page (league.html): the league of the finished games the site shows, the
same figures `judge league` gives on the same source, linked from the index, never an address;
the rebuild after a change touches it only when a game has finished."""
from __future__ import annotations

import json
import subprocess

from judge.engine import bots
from judge.league import html, table
from judge.mail import mailgame
from judge.site import build
from judge.store import gamefile

from registry import new_game


def test_the_league_page_lists_the_players_of_finished_games_with_their_figures(games_dir, tmp_path):
    out = tmp_path / "site"
    count, warnings = build.build(games_dir, out)
    assert warnings == []
    page = (out / "league.html").read_text()
    sections, _ = table.from_source(games_dir)  # what `judge league` computes from the same games
    assert html.fragment(sections) in page
    assert {s.ruleset for s in sections} - {table.ALL} == {
        gamefile.load(p).ruleset.name for p in games_dir.glob("*.toml") if gamefile.load(p).is_over()}
    for s in sections:
        for i, row in enumerate(s.rows, 1):
            assert f"<tr><td>{i}</td><td>{row.player}</td><td>{row.skill.rating:.2f}</td>" in page
    rumors = next(s for s in sections if s.ruleset == "rumors")
    assert len(rumors.games) == 1  # the running rumors game counts for nothing
    assert 'href="league.html"' in (out / "index.html").read_text()
    # the site's [league] aliases are the league's
    build.build(games_dir, tmp_path / "aliased", aliases={"alice": "Zoe"})
    aliased = (tmp_path / "aliased" / "league.html").read_text()
    assert "<td>Zoe</td>" in aliased and "<td>alice</td>" not in aliased


def test_the_league_page_holds_no_address(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    addresses = []
    for seed, name in ((1, "mogul"), (2, "stock-round")):
        game = new_game(name, 3, {}, seed)
        mail = {p: f"{p}.{seed}@players.example" for p in game.players}
        mailgame.enable(game, mail, ["watcher@observers.example"], deadline_hours=48)
        bots.play_out(game)
        gamefile.create(game, games / f"{name}.toml")
        addresses += [*mail.values(), game.meta["mail"]["gm_password"]]
    build.build(games, tmp_path / "site")
    for name in ("league.html", "league.json"):
        text = (tmp_path / "site" / name).read_text()
        assert "alice" in text and "@" not in text
        assert not [a for a in addresses if a in text]


def test_a_running_game_leaves_the_league_page_alone_and_a_finished_one_joins_it(tmp_path, monkeypatch):
    games, out = tmp_path / "games", tmp_path / "site"
    games.mkdir()
    done = new_game("mogul", 3, {}, 1)
    bots.play_out(done)
    gamefile.create(done, games / "one.toml")
    build.build(games, out)
    page, data = out / "league.html", out / "league.json"
    before = (page.read_text(), page.stat().st_mtime_ns, data.read_text(), data.stat().st_mtime_ns)
    assert "1 finished game, 1 without an end date<" in before[0]  # (saved with no change to stamp it)

    running = new_game("mogul", 4, {}, 2)
    gamefile.create(running, games / "two.toml")
    def unasked(*args, **kwargs):
        raise AssertionError("the league was computed for a change of a running game")

    monkeypatch.setattr(table, "league", unasked)  # (update turns it into a warning)
    for _ in range(5):  # the rebuild after each change of a running game: the league is not computed
        bots.play_one(running)
        gamefile.save(running, games / "two.toml")
        assert build.update(out, running, games / "two.toml") == ""
        assert (page.read_text(), page.stat().st_mtime_ns, data.read_text(), data.stat().st_mtime_ns) == before
    assert "mogul/two.html" in (out / "index.html").read_text()

    monkeypatch.undo()
    bots.play_out(running)  # the change that ends it
    gamefile.save(running, games / "two.toml")
    assert build.update(out, running, games / "two.toml") == ""
    after = page.read_text()
    assert "2 finished games, 2 without an end date<" in after and "<td>dave</td>" in after
    assert html.fragment(table.from_source(games)[0]) in after
    assert [g["game"] for g in json.loads(data.read_text())["games"]] == ["one", "two"]


def test_a_site_built_before_the_league_page_gets_it_from_the_archive_with_the_next_change(tmp_path):
    from judge.record import archive

    repo = tmp_path / "archive"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    done = new_game("mogul", 3, {}, 1)
    bots.play_out(done)
    gamefile.create(done, tmp_path / "one.toml")
    archive.commit(done, "one", repo)
    running = new_game("mogul", 3, {}, 2)
    gamefile.create(running, tmp_path / "two.toml")
    assert build.update(tmp_path / "site", running, tmp_path / "two.toml", repo) == ""
    assert html.fragment(table.from_source(repo)[0]) in (tmp_path / "site" / "league.html").read_text()
    assert "1 finished game, 1 without an end date<" in (tmp_path / "site" / "league.html").read_text()
