"""The rating model, the placings of a game (ties, an end by agreement, resignations), the
command `judge league` and its options, aliases, hostile records, the HTML fragment."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import AGREED_END, Game
from judge.engine.ruleset import GM
from judge.league import html, rating, table
from judge.league.records import Finished, gather
from judge.record import conduct, public
from judge.store import gamefile

from mailkit import flat


def test_the_model_gives_openskills_plackett_luce_numbers():
    # openskill 6.2.0: PlackettLuce().rate([[30/6], [25/8.33], [20/4]], ranks=[2, 1, 3])
    after = rating.rate([rating.Skill(30, 6), rating.Skill(), rating.Skill(20, 4)], [2, 1, 3])
    assert [(round(s.mu, 8), round(s.sigma, 8)) for s in after] == [
        (29.60154926, 5.8669823), (28.59606735, 8.10178926), (19.34832127, 3.97910266)]


def test_a_win_raises_a_loss_lowers_and_a_tie_between_equals_changes_both_alike():
    win, mid, last = rating.rate([rating.Skill()] * 3, [1, 2, 3])
    assert win.mu > mid.mu > last.mu and win.rating > 0 > last.rating
    assert all(s.sigma < rating.SIGMA for s in (win, mid, last))
    a, b, c = rating.rate([rating.Skill()] * 3, [1, 1, 3])
    assert a == b and a.mu > rating.MU > c.mu
    with pytest.raises(ValueError):
        rating.rate([rating.Skill()], [1])


def finished(ranks: dict, resigned=(), spans=None) -> Finished:
    return Finished("mogul", "g", "", False, ranks, spans or {s: [(1, s)] for s in ranks}, [],
                    resigned=[(1, s, s) for s in resigned])


def test_placings_credit_the_seat_to_who_held_it_at_the_end_and_put_resigned_players_last():
    game = finished({"ann": 2, "ben": 1, "cy": 2, "dot": 4},
                    spans={"ann": [(1, "ann")], "ben": [(1, "ben"), (9, "eve")], "cy": [(1, "cy")], "dot": [(1, "dot")]},
                    resigned=["cy"])
    assert table.placings(game, table.Names()) == {"eve": 1, "ann": 2, "dot": 3, "cy": 4}
    tied = finished({"ann": 1, "ben": 1, "cy": 3})
    assert table.placings(tied, table.Names()) == {"ann": 1, "ben": 1, "cy": 3}


def test_aliases_make_one_player_of_two_names_keeping_the_better_seat():
    names = table.Names({"Ann2": "ann"})
    game = finished({"ann": 3, "ann2": 1, "ben": 2})
    assert table.placings(game, names) == {"ann": 1, "ben": 2}


def bot_game(path, players, seed, *, agreed_at=None, missed=()):
    """A game between bots saved at `path`: ended by agreement after `agreed_at` orders, or
    played out; `missed`: players noted as missing a deadline at their first turn."""
    game = Game.new("mogul", players, seed=seed)
    while not game.is_over() and (agreed_at is None or len(game.log) < agreed_at):
        player = game.awaiting()[0]
        if player in missed and not any(f["seat"] == player for f in game.meta.get("league", {}).get("facts", [])):
            conduct.missed(game, player, player, "2026-05-03T12:00:00Z")
        bots.play_one(game, {p: "sensible" if p == players[0] else "random" for p in players})
    if agreed_at is not None:
        game.submit(GM, [AGREED_END])
    gamefile.save(game, path)
    return game


def test_a_game_ended_by_agreement_counts_as_it_stood(tmp_path):
    game = bot_game(tmp_path / "early.toml", ["ann", "ben", "cy"], 3, agreed_at=40)
    [fin], _ = gather(tmp_path)
    assert fin.agreed and fin.ranks == {r["player"]: r["rank"] for r in game.ruleset.standings(game.state)}
    assert len(fin.orders) == 40  # the game master's end is nobody's order


def run(*args):
    out = CliRunner().invoke(app, ["league", *map(str, args)])
    return out.exit_code, out.output


@pytest.fixture
def games(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    for i, (seed, ended) in enumerate([(1, "2026-01-05T10:00:00Z"), (2, "2026-03-01T10:00:00Z"), (3, "")]):
        game = bot_game(d / f"m{i}.toml", ["ann", "ben", "cy"], seed, missed=["cy"])
        if ended:
            game.meta["league"]["ended"] = ended
        else:
            game.meta.setdefault("league", {}).pop("ended", None)  # a game that ended under an older judge
        (d / f"m{i}.toml").write_text(gamefile.dumps(game))
    game = Game.new("rumors", ["ann", "ben", "dee"], seed=4)
    bots.play_out(game)
    game.meta["league"] = {"ended": "2026-02-01T00:00:00Z"}
    (d / "r.toml").write_text(gamefile.dumps(game))
    return d


def test_judge_league_per_ruleset_and_over_all_with_since_ruleset_json_and_csv(games):
    code, text = run(games)
    assert code == 0
    assert "League: mogul (3 finished games, ended 2026-01-05 to 2026-03-01; 1 without an end date)" in text
    assert "League: rumors (1 finished game, ended 2026-02-01)" in text
    assert "League: all rulesets (4 finished games" in text
    code, only = run(games, "--ruleset", "rumors", "--json")
    data = json.loads(only)
    assert [s["ruleset"] for s in data["league"]] == ["rumors"] and data["league"][0]["games"] == 1
    assert {p["player"] for p in data["league"][0]["players"]} == {"ann", "ben", "dee"}
    since = CliRunner().invoke(app, ["league", str(games), "--since", "2026-02-01", "--json"])
    assert [(s["ruleset"], s["games"]) for s in json.loads(since.stdout)["league"]] == [("mogul", 1), ("rumors", 1), ("all", 2)]
    assert "--since left out 1 finished game" in since.stderr and "mogul/m2" in since.stderr  # (the undated one)
    code, csv = run(games, "--csv")
    cy = [line for line in csv.splitlines() if line.startswith("mogul,") and ",cy," in line][0].split(",")
    assert cy[12] == "3"  # a deadline missed in each of the three mogul games
    assert run(games) == (0, text)  # byte for byte


def test_judge_league_refuses_bad_options_and_passes_over_broken_files_with_a_warning(games):
    assert run(games, "--since", "yesterday")[0] != 0
    assert "unknown ruleset 'chess'" in run(games, "--ruleset", "chess")[1]
    assert "not both" in run(games, "--json", "--csv")[1]
    assert "no games directory" in flat(run(games / "nowhere")[1])
    record = public.build(gamefile.load(games / "m0.toml"), "m0")
    record["league"]["facts"][0]["move"] = "soon"  # a hostile record
    (games / "bad.toml").write_text(public.dumps(record))
    (games / "m0.toml").unlink()
    code, out = run(games)
    assert code == 0 and "skipped" in out and "bad.toml" in out and "League: mogul (2 finished games" in out


def test_aliases_from_judge_toml(games, tmp_path):
    cfg = tmp_path / "judge.toml"
    cfg.write_text('address = "j@x.test"\ngm = "gm@x.test"\ngames = "games"\n[maildir]\npath = "out"\n'
                   '[league]\naliases = { dee = "cy" }\n')
    code, text = run("--config", cfg)
    assert code == 0
    overall = text.split("League: all rulesets")[1]
    assert " dee " not in overall and overall.count(" cy ") == 1
    cfg.write_text(cfg.read_text().replace('aliases = { dee = "cy" }', 'aliases = ["cy"]'))
    assert flat("[league] holds only aliases") in flat(run("--config", cfg)[1])


def test_the_html_fragment_escapes_names():
    game = finished({"ann": 1, "ben": 2})
    section = table.section("mogul", [game], table.Names({"ann": "<b>ann</b>"}))
    out = html.fragment([section])
    assert "&lt;b&gt;ann&lt;/b&gt;" in out and "<b>" not in out and out.count("<tr>") == 3
    assert html.page([section]).startswith("<!DOCTYPE html>")
