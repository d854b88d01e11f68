"""The site from the command line and after every archived change; what it shows and what it
never shows (secrets grepped in every file of the site of mail games between bots)."""
from __future__ import annotations

import json
import subprocess
import tomllib
from datetime import datetime, timezone

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, ruleset
from judge.engine.rng import Rng
from judge.mail import mailgame
from judge.record import entries, public
from judge.site import build
from judge.store import gamefile, seatkeys

from mailkit import flat
from registry import new_game, now_and_then_a_standing_order, random_bots
from archivekit import href, site_file

from mailkit import flat

T0 = datetime(2026, 5, 1, 12, tzinfo=timezone.utc)


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def secret_game(name: str, seed: int, moves: int):
    """A mail game between random bots, with standing orders given now and then (and rumors'
    secret roll-phase orders), stopped while it runs."""
    game = new_game(name, 4, {}, seed)
    mailgame.enable(game, {p: f"{p}.{seed}@players.example" for p in game.players}, ["watcher@observers.example"],
                    deadline_hours=48, now=T0)
    rng, last = Rng(seed), game.copy()
    while len(game.log) < moves and not game.is_over():
        last = game.copy()
        now_and_then_a_standing_order(game, rng, 3)
        bots.play_one(game, random_bots(game), salt="site")
    return last if game.is_over() else game


def test_the_site_of_running_mail_games_holds_no_secret(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    secrets = []
    for k, rs in enumerate(ruleset.every()):
        game = secret_game(rs.name, 7301948265531 + k, 60)
        seatkeys.ensure(game)  # (their private views sealed beside the pages: GAME.private.json)
        gamefile.create(game, games / f"{rs.name}.toml")
        secrets += [v for p in game.players for key in [seatkeys.current(game, p)]
                    for v in (key.hex(), seatkeys.fragment(key)[2:])]
        mail = game.meta["mail"]
        secrets += [str(game.rng.seed), game.salt, mail["gm_password"], *mail["observers"]]
        secrets += [v for p in mail["players"].values() for v in p.values()]
        for entry in game.log:
            if entries.secret_entry(game, entry):
                words = entry.split(" ", 2)[2].removeprefix("secret: ")
                if " " in words and not words.startswith("cancel"):
                    secrets.append(words)
    assert any(s.startswith("bag ") for s in secrets) and any(s.startswith(("auto", "if", "bid", "turn")) for s in secrets)
    code, out = judge("site", games, tmp_path / "out")
    n = len(ruleset.every())  # (a game of each ruleset)
    assert code == 0 and flat(f"wrote the site of {n} games") in flat(out)
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(files) == 8 + n * 5 + 2  # index, css, 4 scripts, feed, games.json; 5 files a game; league.html and .json
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = [s for s in secrets if s in text]
        assert found == [], f"{path.name} shows {found[:3]}"
    index = (tmp_path / "out" / "index.html").read_text()
    assert "deadline 2026-05-" in index and "waiting for" in index


# Cost (4 s): a whole stock-round game, its site built by the command and its audit replayed,
# then an edited record's site: the audit's verdict on the page is the point.
def test_a_finished_game_shows_its_seed_and_the_audit_and_its_data(tmp_path):
    game = new_game("stock-round", 3, {}, 5)
    bots.play_out(game)
    path = tmp_path / "sr.toml"
    gamefile.create(game, path)
    assert judge("site", path, tmp_path / "out")[0] == 0
    page = site_file(tmp_path / "out", "stock-round", "sr").read_text()
    assert f"Seed <code>{game.rng.seed}</code>" in page and game.salt in page and "judge audit passes" in page
    assert page.count('id="move=') == game.move  # every move in the move list (its report: test_pages.py)
    data = json.loads(site_file(tmp_path / "out", "stock-round", "sr", "json").read_text())
    assert len(data["moves"]) == game.move and set(data["moves"][-1]["scores"]) == set(game.players)
    csv = site_file(tmp_path / "out", "stock-round", "sr", "csv").read_text().splitlines()
    assert csv[0].startswith("move,score ") and len(csv) == game.move + 1
    # an edited record fails the audit, and the page says so
    record = public.build(game, "sr")
    record["game_file"]["rng"]["seed"] += 1
    (tmp_path / "edited").mkdir()
    (tmp_path / "edited" / "sr.toml").write_text(public.dumps(record))
    assert judge("site", tmp_path / "edited", tmp_path / "out2")[0] == 0
    assert "judge audit fails" in site_file(tmp_path / "out2", "stock-round", "sr").read_text()


def test_a_record_of_the_earlier_judge_without_moves_still_makes_a_page(tmp_path):
    game = new_game("mogul", 3, {}, 4)
    bots.play_out(game, moves=30)
    record = public.build(game, "old")
    del record["moves"]
    (tmp_path / "old.toml").write_text(public.dumps(record))
    assert judge("site", tmp_path / "old.toml", tmp_path / "out")[0] == 0
    page = site_file(tmp_path / "out", "mogul", "old").read_text()
    assert page.count('class="report"') == 1 and f'data-move="{game.move}"' in page and "move 1</a>" in page


def test_a_hostile_record_is_skipped_with_a_warning(tmp_path):
    game = new_game("mogul", 3, {}, 4)
    record = public.build(game, "x")
    record["game"] = "../../escape"
    (tmp_path / "bad.toml").write_text(public.dumps(record))
    (tmp_path / "judge.toml").write_text('address = "a@b.c"\n')  # not a game: passed over
    code, out = judge("site", tmp_path, tmp_path / "out")
    assert code == 0 and "skipped" in out and flat("game name") in flat(out) and flat("wrote the site of 0 games") in flat(out)
    assert not (tmp_path / "escape.html").exists()


def test_the_archive_commits_the_site_with_every_change_and_a_failure_blocks_nothing(tmp_path):
    repo = tmp_path / "archive"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    config = tmp_path / "judge.toml"
    config.write_text('address = "judge@example.org"\ngm = "gm@example.org"\ngames = "."\n[maildir]\npath = "out"\n'
                      '[archive]\ngit = "archive"\nsite = "archive/site"\n')
    path = tmp_path / "g.toml"
    assert judge("new", "mogul", path, "-p", "a", "-p", "b", "-p", "c", "--seed", "3", "--config", config)[0] == 0
    for _ in range(3):
        game = gamefile.load(path)
        who = game.awaiting()[0]
        code, out = judge("order", path, "--as", who, bots.choose(game, who), "--config", config)
        assert code == 0 and "warning" not in out
    files = subprocess.run(["git", "-C", str(repo), "ls-files"], capture_output=True, text=True).stdout.split()
    assert {"mogul/g.toml", "site/index.html", f"site/{href('mogul', 'g')}", "site/feed.atom"} <= set(files)
    log = subprocess.run(["git", "-C", str(repo), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines() == ["mogul/g: move 3, c bids (pot 3)", "mogul/g: move 2, b bids (pot 2)",
                                "mogul/g: move 1, a bids (pot 1)", "mogul/g: move 1, new game for a, b, c"]
    shown = subprocess.run(["git", "-C", str(repo), "show", "--name-only", "--format=", "HEAD"], capture_output=True,
                           text=True).stdout.split()
    assert {"mogul/g.toml", f"site/{href('mogul', 'g')}", "site/index.html"} <= set(shown)  # a change: one commit, its site in it
    page = site_file(repo / "site", "mogul", "g").read_text()
    assert page.count('<li id="move=') == 4 and '"moves":[1,2,3,4]' in page
    record = tomllib.loads((repo / "mogul" / "g.toml").read_text())
    assert [r["move"] for r in record["moves"]] == [1, 2, 3, 4]
    # the site's folder made unwritable (a file in its way): the change is saved, with a warning
    (repo / "site" / "mogul").rename(repo / "site" / "moved")
    (repo / "site" / "mogul").write_text("in the way")
    game = gamefile.load(path)
    who = game.awaiting()[0]
    code, out = judge("order", path, "--as", who, bots.choose(game, who), "--config", config)
    assert code == 0 and flat("the site of g was not updated") in flat(out)
    assert gamefile.load(path).move == 5 and "site of g" in (tmp_path / "g.archive.log").read_text()


def test_a_rebuild_keeps_each_feed_entrys_first_time(tmp_path):
    game = new_game("rumors", 3, {}, 2)
    bots.play_out(game, random_bots(game), moves=10)
    path = tmp_path / "r.toml"
    gamefile.create(game, path)
    build.build(path, tmp_path / "out", now=T0)
    feed = site_file(tmp_path / "out", "rumors", "r", "atom").read_text()
    bots.play_out(game, random_bots(game), moves=len(game.log) + 3)
    gamefile.save(game, path)
    later = datetime(2026, 5, 2, tzinfo=timezone.utc)
    build.build(path, tmp_path / "out", now=later)
    again = site_file(tmp_path / "out", "rumors", "r", "atom").read_text()
    entries = feed.count("<entry>")
    assert entries >= 5 and feed.count("2026-05-01T12:00:00Z") == entries + 1  # (and the feed's own)
    assert again.count("2026-05-01T12:00:00Z") == entries  # each as first published
    assert again.count("<entry>") > entries and "<updated>2026-05-02T00:00:00Z</updated>\n<link" in again


def test_corrections_are_marked_at_the_move_where_they_happened(tmp_path):
    from judge.record import corrections

    game = new_game("mogul", 3, {}, 8)
    bots.play_out(game, moves=12)
    game, _ = corrections.rollback(game, 6, "a typo", "2026-05-01T12:00:00Z")
    bots.play_out(game, moves=len(game.log) + 3)
    path = tmp_path / "c.toml"
    gamefile.create(game, path)
    assert judge("site", path, tmp_path / "out")[0] == 0
    page = site_file(tmp_path / "out", "mogul", "c").read_text()
    at = page.index('<li id="move=6">')
    assert page.index("rolled the game back from move", at) < page.index('<li id="move=7">')
    feed = site_file(tmp_path / "out", "mogul", "c", "atom").read_text()
    assert "rolled the game back" in feed and "<updated>2026-05-01T12:00:00Z</updated>" in feed


def test_judge_site_never_writes_over_a_folder_that_is_not_a_site(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    gamefile.create(new_game("mogul", 3, {}, 1), games / "friday.toml")
    own = tmp_path / "own"
    own.mkdir()
    (own / "index.html").write_text("<p>mine</p>")
    for out in (own, games):
        before = sorted(p.name for p in out.iterdir())
        code, said = judge("site", games, out)
        assert code == 2 and flat("holds files but no site of the judge") in flat(said)
        assert sorted(p.name for p in out.iterdir()) == before
    assert (own / "index.html").read_text() == "<p>mine</p>"
    code, _ = judge("site", games, tmp_path / "site")
    assert code == 0 and judge("site", games, tmp_path / "site")[0] == 0  # its own site: rebuilt


def test_the_configured_site_is_a_folder_of_its_own(tmp_path):
    """[archive] site = the archive itself would commit everything there under the site's name;
    = the games directory would write pages among the games: both refused when judge.toml loads."""
    from judge.engine.errors import UsageError
    from judge.store import config

    (tmp_path / "games").mkdir()
    path = tmp_path / "judge.toml"
    for site, refused in (("archive", True), ("games", True), ("archive/site", False)):
        path.write_text(f'games = "games"\n[archive]\ngit = "archive"\nsite = "{site}"\n')
        try:
            assert config.load(path).site == tmp_path / site and not refused
        except UsageError as e:
            assert refused and "site must be a folder of its own" in str(e)


def test_a_finished_game_of_the_current_format_is_filed_under_the_month_it_ended(tmp_path):
    """Issue 47, item 2: its end is the log's `ended at` entry (the site filed it as undated)."""
    games = tmp_path / "games"
    games.mkdir()
    code, said = judge("play", "mogul", "-n", "3", "--seed", "2", "-q", "--save", games / "g.toml",
                       "--now", "2026-05-03T10:00:00Z")
    assert code == 0, said
    code, said = judge("site", games, tmp_path / "out")
    assert code == 0, said
    index = (tmp_path / "out" / "index.html").read_text()
    assert "over 2026-05-03" in index and "undated" not in index
    assert (tmp_path / "out" / "finished" / "2026-05.html").exists()
    assert not (tmp_path / "out" / "finished" / "undated.html").exists()


def test_judge_site_says_it_kept_the_games_of_an_existing_site_and_where_it_kept_the_index(tmp_path):
    """Issue 47, item 9: it merged into an existing site and wrote .judge-index/ into the source,
    saying only "wrote the site of 1 game"."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        gamefile.create(new_game("mogul", 3, {}, 1), tmp_path / name / f"{name}.toml")
    code, said = judge("site", tmp_path / "a", tmp_path / "out")
    assert code == 0 and flat(f"kept the league's index of {tmp_path / 'a'} in {tmp_path / 'a' / '.judge-index'}") in flat(said)
    code, said = judge("site", tmp_path / "b", tmp_path / "out")
    assert code == 0 and flat("wrote the site of 1 game") in flat(said)
    assert flat("held a site already: it lists 2 games, the 1 it showed before kept") in flat(said)
    code, said = judge("site", tmp_path / "b", tmp_path / "out")
    assert code == 0 and "held a site" in said and "kept the league's index" not in said  # (said once)
