"""Writes never follow a link (issue 34, item 6): `judge site`, `judge export` and the site an
archive keeps never write through a symbolic link anywhere under their target: a folder that
is a link is refused with the reason, a file that is a link is replaced by the file itself
(its target untouched), and a dangling OUT is refused in one line."""
from __future__ import annotations

import os
import shutil
from unittest.mock import ANY

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.store import gamefile

from archivekit import archived_site, ends_in
from mailkit import flat
from registry import new_game
from archivekit import site_file


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def game_dir(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    game = new_game("mogul", 3, {}, 1)
    bots.play_out(game, moves=20)
    gamefile.create(game, games / "friday.toml")
    return games


def test_judge_site_refuses_a_folder_that_is_a_link_and_replaces_a_file_that_is_one(tmp_path):
    games, out, elsewhere = game_dir(tmp_path), tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "friday.html").write_text("not the site's")
    (tmp_path / "victim.html").write_text("someone's page")
    assert judge("site", games, out)[0] == 0
    shutil.rmtree(out / "mogul")
    (out / "mogul").symlink_to(elsewhere)  # a link left in an earlier site
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(tmp_path / "victim.html")
    code, said, err = judge("site", games, out)
    assert code == 2 and flat(f"{out / 'mogul'} is a symbolic link: the judge never writes through one") in flat(err)
    assert (elsewhere / "friday.html").read_text() == "not the site's" and sorted(os.listdir(elsewhere)) == ["friday.html"]
    (out / "mogul").unlink()
    assert judge("site", games, out)[0] == 0
    assert not (out / "index.html").is_symlink() and "friday" in (out / "index.html").read_text()
    assert (tmp_path / "victim.html").read_text() == "someone's page"


def test_a_dangling_out_is_refused_in_one_line(tmp_path):
    games, out = game_dir(tmp_path), tmp_path / "site"
    out.symlink_to(tmp_path / "gone")
    code, said, err = judge("site", games, out)
    assert code == 2 and len(flat(err).strip().splitlines()) == 1 and "Traceback" not in err
    assert "is a symbolic link to nothing" in flat(err) and not (tmp_path / "gone").exists()
    record = tmp_path / "record.toml"
    record.symlink_to(tmp_path / "gone.toml")
    code, said, err = judge("export", games / "friday.toml", record)
    assert code == 2 and len(flat(err).strip().splitlines()) == 1 and not (tmp_path / "gone.toml").exists()


def test_judge_export_never_writes_through_a_link(tmp_path):
    games = game_dir(tmp_path)
    game_file = games / "friday.toml"
    before = game_file.read_bytes()
    out = tmp_path / "record.toml"
    out.symlink_to(game_file)  # to the game file itself: refused, the game untouched
    code, _, err = judge("export", game_file, out)
    assert code == 2 and "never over a game file" in flat(err) and game_file.read_bytes() == before
    out.unlink()
    earlier = tmp_path / "earlier.toml"
    assert judge("export", game_file, earlier)[0] == 0
    kept = earlier.read_bytes()
    out.symlink_to(earlier)  # to an earlier record of the game: the link is replaced, its target kept
    assert judge("export", game_file, out)[0] == 0
    assert not out.is_symlink() and earlier.read_bytes() == kept and out.read_bytes() == kept


def test_the_archives_site_never_writes_through_a_link(tmp_path):
    config, games, repo, site = archived_site(tmp_path)
    game, rest = ends_in("mogul", 2, 3)
    gamefile.create(game, games / "friday.toml")
    assert judge("order", games / "friday.toml", *rest.pop(0), "--config", config)[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(site / "mogul")
    (site / "mogul").symlink_to(elsewhere)
    code, out, err = judge("order", games / "friday.toml", *rest.pop(0), "--config", config)
    assert code == 0 and flat("the site of friday was not updated") in flat(err) and "symbolic link" in err
    assert os.listdir(elsewhere) == [] and (games / ".publish" / "friday").exists()  # kept for the next try
    (site / "mogul").unlink()
    assert judge("order", games / "friday.toml", *rest.pop(0), "--config", config) == (0, ANY, "")
    assert site_file(site, "mogul", "friday").is_file() and not (games / ".publish" / "friday").exists()
