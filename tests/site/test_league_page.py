"""The site's league page (league.html): the league of the finished games the site shows, the
same figures `judge league` gives on the same source, linked from the index, never an address;
the rebuild after a change touches it only when a game has finished."""
from __future__ import annotations

import json
from unittest.mock import ANY

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.league import html, index, table
from judge.mail import mailgame
from judge.site import build
from judge.store import gamefile

from archivekit import archived_site, ends_in, href, site_file
from registry import new_game


# Cost (9 s): finished mail games published to a site with its league page; the page is
# checked against figures the games made, not written by hand.
def test_the_league_page_lists_the_players_of_finished_games_with_their_figures(games_dir, tmp_path):
    out = tmp_path / "site"
    count, warnings = build.build(games_dir, out)
    assert warnings == []
    page = (out / "league.html").read_text()
    sections, _ = index.from_source(games_dir)  # what `judge league` computes from the same games
    assert html.fragment(sections) in page
    assert {s.ruleset for s in sections} - {table.ALL} == {
        gamefile.load(p).ruleset.name for p in games_dir.glob("*.toml") if gamefile.load(p).is_over()}
    for s in sections:
        for i, row in enumerate(s.rows, 1):
            assert (f'<tr><td data-label="#">{i}</td><td data-label="player">{row.player}</td>'
                    f'<td data-label="rating">{row.skill.rating:.2f}</td>') in page
    rumors = next(s for s in sections if s.ruleset == "rumors")
    assert rumors.count == 1  # the running rumors game counts for nothing
    assert 'href="league.html"' in (out / "index.html").read_text()
    # the site's [league] aliases are the league's
    build.build(games_dir, tmp_path / "aliased", aliases={"alice": "Zoe"})
    aliased = (tmp_path / "aliased" / "league.html").read_text()
    assert '<td data-label="player">Zoe</td>' in aliased and '>alice</td>' not in aliased


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


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_a_running_game_leaves_the_league_page_alone_and_a_finished_one_joins_it(tmp_path, monkeypatch):
    config, games, repo, site = archived_site(tmp_path)
    done = new_game("mogul", 3, {}, 1)
    bots.play_out(done)
    gamefile.create(done, games / "one.toml")
    assert judge("archive", games / "one.toml", "--git", repo)[0] == 0
    running, rest = ends_in("mogul", 2, 7, players=4)
    gamefile.create(running, games / "two.toml")
    assert judge("order", games / "two.toml", *rest.pop(0), "--config", config) == (0, ANY, "")
    page, data = site / "league.html", site / "league.json"
    before = (page.read_text(), page.stat().st_mtime_ns, data.read_text(), data.stat().st_mtime_ns)
    assert "1 finished game, 1 without an end date<" in before[0]  # from the archive's records (one.toml: saved
    # with no change to stamp its end)

    def unasked(*args, **kwargs):
        raise AssertionError("the league was recomputed for a change of a running game")

    monkeypatch.setattr(index, "compute", unasked)
    for _ in range(5):  # a change of a running game: the league page is not touched
        assert judge("order", games / "two.toml", *rest.pop(0), "--config", config) == (0, ANY, "")
        assert (page.read_text(), page.stat().st_mtime_ns, data.read_text(), data.stat().st_mtime_ns) == before
    assert href("mogul", "two") in (site / "index.html").read_text()
    # the change that ends it adds it to the kept league: still nothing recomputed
    assert judge("order", games / "two.toml", *rest.pop(0), "--config", config) == (0, ANY, "")
    assert gamefile.load(games / "two.toml").is_over() and rest == []
    monkeypatch.undo()
    after = page.read_text()
    assert "2 finished games, ended " in after and "; 1 without an end date<" in after and '<td data-label="player">dave</td>' in after
    assert html.fragment(index.from_source(repo)[0]) in after
    assert json.loads(data.read_text())["league"][0]["games"] == 2


def test_a_site_of_an_earlier_judge_is_rebuilt_from_the_archive_with_the_next_change(tmp_path):
    config, games, repo, site = archived_site(tmp_path)
    done = new_game("mogul", 3, {}, 1)
    bots.play_out(done)
    gamefile.create(done, games / "one.toml")
    assert judge("archive", games / "one.toml", "--git", repo)[0] == 0
    site.mkdir()
    (site / "games.json").write_text('{"games": []}\n')  # what an earlier judge's site held
    running = new_game("mogul", 3, {}, 2)
    gamefile.create(running, games / "two.toml")
    assert judge("bot", games / "two.toml", "--as", running.awaiting()[0], "--config", config) == (0, ANY, "")
    assert html.fragment(index.from_source(repo)[0]) in (site / "league.html").read_text()
    assert "1 finished game, 1 without an end date<" in (site / "league.html").read_text()
    index_page = (site / "index.html").read_text()
    assert href("mogul", "one") in index_page and href("mogul", "two") in index_page
    assert site_file(site, "mogul", "one").is_file()
