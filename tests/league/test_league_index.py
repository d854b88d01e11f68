"""The league's index (judge/league/index.py): `judge league SOURCE` reads each record once,
ever, then only the index's rows; a record changed since is read again; a game that ends after
the others is added to the kept league, which stays byte for byte the league computed from
every record; the index is rebuilt from the records alone, and git never sees it."""
from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.league import index, records, table
from judge.league.records import gather
from judge.record import conduct, public
from judge.store import gamefile

from registry import new_game

T0 = datetime(2026, 5, 1, 12, tzinfo=timezone.utc)


def finished(seed: int, players: int = 3, day: int = 0):
    game = new_game("mogul", players, {}, seed)
    bots.play_out(game)
    conduct.ended(game, T0 + timedelta(days=day))
    return game


@pytest.fixture(scope="module")
def games():
    return [finished(seed, 3 + seed % 2, day=seed) for seed in range(1, 6)]


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def export(game, folder, name):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.toml").write_text(public.text(game, name))


def reads(monkeypatch) -> list:
    """The files the league parses from now on."""
    seen = []
    real = records.examine

    def counting(path, raw):
        seen.append(path.name)
        return real(path, raw)
    monkeypatch.setattr(records, "examine", counting)
    return seen


def test_judge_league_reads_each_record_once_then_its_index(games, tmp_path, monkeypatch):
    folder = tmp_path / "records"
    for k, game in enumerate(games):
        export(game, folder / "mogul", f"g{k}")
    seen = reads(monkeypatch)
    code, first, err = judge("league", folder)
    assert code == 0 and not err and sorted(seen) == [f"g{k}.toml" for k in range(5)]
    assert first == table.text(table.league(gather(folder)[0]))  # what every record gives, byte for byte
    seen.clear()
    assert judge("league", folder)[1] == first and seen == []  # the index alone
    # a record touched but the same is not parsed again; one changed is
    (folder / "mogul" / "g1.toml").touch()
    export(games[0], folder / "mogul", "g2")  # g2 now holds another game (it ends first)
    code, after, _ = judge("league", folder)
    assert seen == ["g2.toml"] and after != first
    assert after == table.text(table.league(gather(folder)[0]))
    # the index is kept beside the records, and rebuilt from them alone
    assert (folder / index.FOLDER / "rows" / "mogul" / "g2.toml.json").is_file()
    shutil.rmtree(folder / index.FOLDER)
    assert judge("league", folder)[1] == after


def test_a_game_that_ends_after_the_others_is_added_to_the_kept_league(games, tmp_path, monkeypatch):
    folder = tmp_path / "records"
    for k, game in enumerate(games[:3]):
        export(game, folder, f"g{k}")
    judge("league", folder)
    recomputed = []
    real = index.compute
    monkeypatch.setattr(index, "compute", lambda *a: recomputed.append(1) or real(*a))
    export(games[3], folder, "g3")  # it ended after the three
    code, out, _ = judge("league", folder, "--json")
    assert recomputed == [] and out == table.as_json(table.league(gather(folder)[0]))
    export(games[4], folder, "a-late")  # and this one after it, under a name that sorts first
    judge("league", folder)
    assert recomputed == []
    kept = json.loads((folder / index.FOLDER / "league.json").read_text())
    assert kept["fresh"] and kept["last"][2] == "a-late"
    # one that ended before the last counted (a record copied in late) recomputes the league
    shutil.copy(folder / "g0.toml", folder / "z-copy.toml")  # the same game again: counted once
    (folder / "g0.toml").unlink()
    assert judge("league", folder, "--json")[1] == table.as_json(table.league(gather(folder)[0]))
    assert recomputed == [1]


def test_the_index_of_an_archive_is_never_committed_and_a_games_directory_has_its_own(games, tmp_path):
    repo = tmp_path / "archive"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    gamesdir = tmp_path / "games"
    gamesdir.mkdir()
    for k, game in enumerate(games[:2]):
        gamefile.create(game, gamesdir / f"g{k}.toml")
        assert judge("archive", gamesdir / f"g{k}.toml", "--git", repo)[0] == 0
    from_games, from_archive = judge("league", gamesdir)[1], judge("league", repo)[1]
    assert from_games == from_archive and "2 finished games" in from_games
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""
    assert (gamesdir / index.FOLDER / "league.json").is_file() and (repo / index.FOLDER / "league.json").is_file()


def test_the_copied_archive_of_the_tests_holds_what_the_judge_would_make(tmp_path):
    """tests/archivekit.py `copies` (the 1,000 records of the tests of cost) writes the rows and
    the league the judge would make of them: rebuilt from the records alone, they are the same."""
    from archivekit import copies

    paths = copies(tmp_path, 30)
    made = {w: {k: v for k, v in e.items() if k not in ("size", "mtime")} for w, e in index.Index(tmp_path).entries().items()}
    league = (tmp_path / index.FOLDER / "league.json").read_text()
    assert judge("audit", paths[17])[0] == 0
    shutil.rmtree(tmp_path / index.FOLDER)
    assert judge("league", tmp_path)[0] == 0
    rebuilt = {w: {k: v for k, v in e.items() if k not in ("size", "mtime")} for w, e in index.Index(tmp_path).entries().items()}
    assert rebuilt == made and (tmp_path / index.FOLDER / "league.json").read_text() == league


def test_an_index_edited_or_cut_short_is_read_again_from_the_records(games, tmp_path):
    folder = tmp_path / "records"
    for k, game in enumerate(games[:3]):
        export(game, folder, f"g{k}")
    first = judge("league", folder)[1]
    (folder / index.FOLDER / "rows" / "g1.toml.json").write_text('{"kind": "finished", "row": {"ranks": 7}}')
    (folder / index.FOLDER / "league.json").write_text("{ cut sho")
    (folder / index.FOLDER / "files.json").write_text("[]")
    code, out, err = judge("league", folder)
    assert code == 0 and out == first
    said = " ".join(err.split()).replace("judge: the judge's file", "\n").strip().splitlines()
    said = [line.strip() for line in said]
    assert sorted(line.split()[0].rpartition("/")[2] for line in said) == ["files.json", "g1.toml.json", "league.json"]
    assert all("does not check" in line and line.endswith("made again from the records") for line in said), said
    assert judge("league", folder) == (0, first, "")  # said once: made again
