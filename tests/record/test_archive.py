"""Games archived in a real git repository as they are played: one commit of the public record
per change (from the shell, mail or tick), a message naming the move and what the public saw,
failures that never block the game, and no secret of the game file in any commit while the game
runs; the finished record then verifies and audits on its own."""
from __future__ import annotations

import re
import subprocess
import tomllib

import pytest
import tomli_w
from typer.testing import CliRunner

from judge.engine import bots, facts, ruleset as registry, standing
from judge.store import config as configs, gamefile
from judge.record import archive, entries
from judge.cli import app
from judge.engine.game import Game
from judge.gateway import deadlines, inbox as gateway
from judge.mail import passwords
from judge.engine.ruleset import GM

from mailkit import GM_ADDRESS, OBSERVER, T0, address, flat, make_site, message, new_game, reply

ARCHIVE = '[archive]\ngit = "archive"\n'


def judge(*args, input=None):
    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    return result.exit_code, result.stdout, result.stderr


def git(repo, *args) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def init(repo):
    repo.mkdir(exist_ok=True)
    git(repo, "init", "-q")
    return repo


def subjects(repo) -> list[str]:
    return git(repo, "log", "--format=%s").splitlines()[::-1]


def archived_site(tmp_path):
    site = make_site(tmp_path)
    config = tmp_path / "judge.toml"
    config.write_text(config.read_text() + ARCHIVE)
    site.cfg = configs.load(config)
    return site, config, init(tmp_path / "archive")


def test_every_change_from_the_shell_is_one_commit_naming_the_move_and_what_the_public_saw(tmp_path):
    _, config, repo = archived_site(tmp_path)
    path = tmp_path / "friday.toml"
    code, out, err = judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11",
                           "--config", config)
    assert code == 0 and not err, err
    for _ in range(5):
        game = gamefile.load(path)
        assert judge("bot", path, "--as", game.awaiting()[0], "--config", config)[0] == 0
    log = gamefile.load(path).log
    first_bid = next(i for i, e in enumerate(log) if e.endswith(" bid"))
    said = subjects(repo)
    assert said[0] == "mogul/friday: move 1, new game for alice, bob, carol"
    assert len(said) == 1 + len(log)
    move, player, _ = log[first_bid].split(" ", 2)
    assert re.match(rf"mogul/friday: move {move}, {player} bids \(pot \d+\)$", said[1 + first_bid]), said
    assert git(repo, "ls-files").split() == ["mogul/friday.toml"]
    assert (repo / "mogul" / "friday.toml").read_text() == judge("export", path, "-")[1]
    # the same order refused changes nothing and commits nothing
    assert judge("order", path, "--as", "nobody", "bid", "--config", config)[0] == 4
    assert len(subjects(repo)) == 1 + len(log)


def test_a_failure_to_commit_never_blocks_the_game_and_is_tried_again_with_the_next_change(tmp_path):
    _, config, repo = archived_site(tmp_path)
    path = tmp_path / "friday.toml"
    judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11", "--config", config)
    (repo / ".git" / "index.lock").write_text("")  # as a git command that crashed would leave it
    code, out, err = judge("bot", path, "--as", gamefile.load(path).awaiting()[0], "--config", config)
    assert code == 0 and out.startswith("ok: ") and len(gamefile.load(path).log) == 1
    assert flat("judge: warning: the public record of friday was not archived") in flat(err) and "tried again" in flat(err)
    assert "index.lock" in (tmp_path / "friday.archive.log").read_text()
    (repo / ".git" / "index.lock").unlink()  # repaired: the next change commits both
    code, out, err = judge("bot", path, "--as", gamefile.load(path).awaiting()[0], "--config", config)
    assert code == 0 and not err
    game = gamefile.load(path)
    said = subjects(repo)
    assert len(said) == 2 and said[1].startswith("mogul/friday: move 1, ")
    events = [e["text"].rstrip(".") for e in game.view(None)["events"] if e["move"] in (1, 2)][-2:]
    assert all(e in said[1] for e in events)
    assert tomllib.loads((repo / "mogul" / "friday.toml").read_text())["log"] == game.log


def test_judge_archive_commits_once_and_refuses_a_directory_that_is_not_a_repository(tmp_path):
    path = tmp_path / "g.toml"
    judge("new", "rumors", path, "-p", "a", "-p", "b", "-p", "c")
    code, out, err = judge("archive", path, "--git", tmp_path / "nowhere")
    assert code == 1 and "no directory" in flat(err) and "git init" in flat(err)
    repo = init(tmp_path / "repo")
    assert judge("archive", path, "--git", repo)[1].startswith("committed: rumors/g: move 1, new game for a, b, c")
    assert "nothing to commit" in judge("archive", path, "--git", repo)[1]
    assert len(subjects(repo)) == 1


def test_a_bad_archive_setting_is_refused_before_any_change(tmp_path):
    site = make_site(tmp_path)
    config = tmp_path / "judge.toml"
    config.write_text(config.read_text() + '[archive]\ndir = "x"\n')
    path = tmp_path / "g.toml"
    code, out, err = judge("new", "mogul", path, "-p", "a", "-p", "b", "-p", "c", "--config", config)
    assert code == 2 and flat("[archive] needs git") in flat(err) and not path.exists()


# ---- a whole mail game of each ruleset, archived ------------------------------------------------
SEED = 7301948265531  # digits that no record holds by chance


def short_setup(name: str, players: list[str]) -> tuple[dict, dict]:
    """(options, setup) for a short whole game: the crash card early in the Mogul games, one
    operating round in the stock round (for the suite's time); any other ruleset plays its
    whole game."""
    if name == "stock-round":
        return {"rounds": "1"}, {}
    if name not in ("mogul", "mogul-board"):
        return {}, {}
    st = Game.new(name, players, seed=SEED).state  # the same seed deals the same start cards
    deck = [c for c in [st["revealed"], *st["deck"]] if c and c != "crash"]
    deck.insert(3, "crash")
    return {}, {"deck": deck}


def secrets_of(game: Game) -> set[str]:
    """The hidden values of a game file while it runs, as they would be written anywhere."""
    found = {str(game.rng.seed), game.salt}
    mail = game.meta["mail"]
    found |= {mail["gm_password"], *(p["password"] for p in mail["players"].values())}
    found |= {p["address"] for p in mail["players"].values()}
    found |= {e for e in game.log if entries.secret_entry(game, e)}  # secret orders, in full
    found |= {", ".join(f'"{c}"' for c in game.setup.get("deck", [])[:4])} - {""}
    return found


def contents(repo, objects: list[str]) -> list[str]:
    """The files REVISION:PATH, read by one git process."""
    out = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"], input=("\n".join(objects) + "\n").encode(),
                         capture_output=True, check=True).stdout
    texts, at = [], 0
    for _ in objects:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        texts.append(out[header_end + 1:header_end + 1 + size].decode())
        at = header_end + 1 + size + 1
    return texts


def key_names(value, out: set | None = None) -> set[str]:
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            key_names(v, out)
    elif isinstance(value, list):
        for v in value:
            key_names(v, out)
    return out


def hidden_keys(game: Game) -> set[str]:
    """Names of what the game master's view holds and the public view does not."""
    return key_names(game.view(GM)) - key_names(game.view(None))


# Cost (up to 11 s, rumors): a whole mail game, every change committed to git and searched for
# every secret the game held; the secrets of a late move are as much the point as the first.
@pytest.mark.parametrize("name", [rs.name for rs in registry.every()])
def test_a_mail_game_archived_in_git_leaves_one_commit_per_change_and_no_secret(name, tmp_path, monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)  # cheap hashes (each keeps its cost): this test checks no password
    site, config, repo = archived_site(tmp_path)
    players = ["ann", "ben", "cat"]
    options, setup = short_setup(name, players)
    setup_file = tmp_path / "setup.toml"
    setup_file.write_text(tomli_w.dumps(setup))
    remembered, known = {}, archive._known  # what each change leaves for the next as its previous record
    monkeypatch.setattr(archive, "_known", lambda text, data: known(text, remembered.setdefault(text, data)))
    code, out, err = judge("new", name, site.game_path(), *sum((["-p", f"{p}={address(p)}"] for p in players), []),
                           "--observer", OBSERVER, "--seed", SEED, "--setup", setup_file, "--config", config,
                           *sum((["-o", f"{k}={v}"] for k, v in options.items()), []))
    assert code == 0 and not err, err
    pw = dict(re.findall(r"^  (\w+): (\S+)", out, re.M))
    secrets, keys, changes = set(), set(), 1
    game = site.load()
    while not game.is_over():
        secrets |= secrets_of(game)
        keys |= hidden_keys(game)
        who = game.awaiting()[0]
        order = bots.choose(game, who)
        sender = GM_ADDRESS if who == GM else address(who)
        gateway.handle(message(sender, f"game g1\nplayer {who} {pw[who]}\n#{game.move} {order}\n"),
                       site.cfg, site.outbox(), T0)
        assert "All applied." in reply(site.take(), sender)
        changes += 1
        game = site.load()
    assert deadlines.tick(site.cfg, site.outbox(), T0) == []  # no deadlines: nothing to commit
    game = site.load()
    revisions = git(repo, "rev-list", "--all").split()  # newest first
    assert len(revisions) == changes == 1 + len([e for e in game.log if not facts.is_fact(e)])  # (the end's entry: the last change's)
    where = f"{name}/g1.toml"
    texts = contents(repo, [f"{r}:{where}" for r in revisions])
    records = [tomllib.loads(text) for text in texts]
    # the record a change built, kept for the next change, is the committed one as TOML reads it
    assert all(t in remembered for t in texts) and all(remembered[t] == r for t, r in zip(texts, records))
    assert [r["complete"] for r in records] == [True] + [False] * (len(records) - 1)
    running = revisions[1:]  # every commit made while the game ran
    history = git(repo, "log", "-p", *running)  # the messages and every change of every commit
    found = [s for s in secrets if s in history]
    assert not found, f"{found} in the archive"
    grep = subprocess.run(["git", "-C", str(repo), "grep", "-F", "-l", *sum((["-e", s] for s in secrets), []),
                           *running], capture_output=True, text=True)
    assert grep.returncode == 1 and not grep.stdout, grep.stdout
    for r, shown in zip(running, records[1:]):
        named = set().union(*(key_names(v) for v in shown.values()))  # below the record's own header
        assert not named & keys, f"commit {r} names {named & keys}"
    said = subjects(repo)  # a secret order's commit names its player (the order, never: above)
    secret = [e.split(" ", 2)[:2] for e in game.log if entries.secret_entry(game, e) and not standing.is_secret_entry(e)]
    assert not secret or any(re.search(rf": move {move}, {player} ", s) for move, player in secret for s in said), said
    # the finished record alone verifies and audits: no game file needed
    final = tmp_path / "final.toml"
    final.write_text(git(repo, "show", f"HEAD:{where}"))
    assert judge("verify", final)[0] == 0
    code, out, _ = judge("audit", final)
    assert code == 0 and f"seed {game.rng.seed}" in out


def test_a_running_record_cannot_be_verified_and_an_edited_one_is_refused(tmp_path):
    path = tmp_path / "g.toml"
    judge("new", "mogul", path, "-p", "a", "-p", "b", "-p", "c", "--seed", SEED)
    code, out, _ = judge("export", path, tmp_path / "running.toml")
    assert code == 0 and flat(out) == f"wrote the public record of g at move 1 to {tmp_path / 'running.toml'}"
    running = tomllib.loads((tmp_path / "running.toml").read_text())
    game = gamefile.load(path)
    assert running["commitment"] == game.commitment and running["complete"] is False
    assert not {"seed", "salt", "setup", "state", "meta", "rng", "game_file"} & key_names(running)
    assert str(game.rng.seed) not in (tmp_path / "running.toml").read_text()
    code, _, err = judge("verify", tmp_path / "running.toml")
    assert code == 3 and flat("a game still running") in flat(err)
    bots.play_out(game)
    gamefile.save(game, path)
    judge("export", path, tmp_path / "final.toml")
    data = tomllib.loads((tmp_path / "final.toml").read_text())
    data["log"][0] = "1 a nonsense"
    (tmp_path / "edited.toml").write_text(tomli_w.dumps(data))
    code, _, err = judge("verify", tmp_path / "edited.toml")
    assert code == 3 and flat("the record's log is not its game file's: the record was edited") in flat(err)


def archived_mail_game(tmp_path, monkeypatch):
    """A mail game of mogul for ann, ben and cat with a 24-hour deadline, archived: (the
    site, the archive, what `judge new` printed)."""
    monkeypatch.setattr(passwords, "N", 2**4)
    site, config, repo = archived_site(tmp_path)
    code, out, err = judge("new", "mogul", site.game_path(), *sum((["-p", f"{p}={address(p)}"] for p in ["ann", "ben", "cat"]), []),
                           "--deadline", "24", "--config", config, "--now", "2026-05-01T12:00:00Z")
    assert code == 0 and not err, err
    return site, repo, out


def test_a_missed_order_given_by_tick_is_committed_too(tmp_path, monkeypatch):
    from datetime import timedelta

    site, repo, _ = archived_mail_game(tmp_path, monkeypatch)
    late = site.load().awaiting()[0]
    done = deadlines.tick(site.cfg, site.outbox(), T0 + timedelta(hours=25))
    assert done and "Missed order" in done[0]
    said = subjects(repo)
    assert len(said) == 2 and said[1].startswith(f"mogul/g1: move 1, {late} ")


def test_rollback_and_replace_are_committed_with_what_the_game_master_did(tmp_path):
    _, config, repo = archived_site(tmp_path)
    path = tmp_path / "friday.toml"
    judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11", "--config", config)
    for _ in range(4):
        judge("bot", path, "--as", gamefile.load(path).awaiting()[0], "--config", config)
    assert judge("rollback", path, "--to", 3, "--reason", "a typo", "--config", config)[0] == 0
    assert judge("replace", path, "carol", "dave", "--config", config)[0] == 0
    said = subjects(repo)
    assert len(said) == 7
    assert said[5] == "mogul/friday: move 3, the game master rolled the game back from move 5 to move 3: a typo"
    assert said[6] == "mogul/friday: move 3, dave plays the seat carol from move 3 (was carol)"


def test_the_first_commit_of_a_game_archived_under_way_is_no_new_game(tmp_path):
    """Issue 37: `judge archive` after a rollback and a replacement said "move 3, new game for
    alice, bob, carol"; it says the record begins with the game under way, who plays each seat
    now, and the corrections made before."""
    path = tmp_path / "friday.toml"
    judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11")
    for _ in range(4):
        judge("bot", path, "--as", gamefile.load(path).awaiting()[0])
    judge("rollback", path, "--to", 3, "--reason", "a typo")
    judge("replace", path, "carol", "dave")
    repo = init(tmp_path / "archive")
    assert judge("archive", path, "--git", repo)[0] == 0
    message = git(repo, "log", "-1", "--format=%B").strip()
    assert "new game" not in message
    assert message.startswith("mogul/friday: move 3, first record, the game under way: alice, bob, dave (seat carol); ")
    assert message.splitlines()[-4:] == ["the game master rolled the game back from move 5 to move 3: a typo",
                                         "dave plays the seat carol from move 3 (was carol)", "",
                                         gamefile.load(path).head_line()]
    assert message.splitlines()[-1].startswith("Log head: move 2 ")
    fresh = tmp_path / "new.toml"
    judge("new", "mogul", fresh, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11")
    judge("archive", fresh, "--git", repo)
    assert subjects(repo)[-1] == "mogul/new: move 1, new game for alice, bob, carol"


def test_a_pause_a_resume_and_press_are_committed_saying_what_all_were_told(tmp_path, monkeypatch):
    """Issue 37: the commit of a pause said only "move 1"."""
    site, repo, out = archived_mail_game(tmp_path, monkeypatch)
    pw = dict(re.findall(r"^  (\w+): (\S+)", out, re.M))
    for who, line in ((GM, "pause"), (GM, "resume"), ("ann", "press all good luck")):
        sender = GM_ADDRESS if who == GM else address(who)
        gateway.handle(message(sender, f"game g1\nplayer {who} {pw[who]}\n{line}\n"), site.cfg, site.outbox(), T0)
        assert "All applied." in reply(site.take(), sender)
    said = subjects(repo)
    assert said[1:] == ["mogul/g1: move 1, no deadline now", "mogul/g1: move 1, deadline 2026-05-02T12:00:00Z",
                        "mogul/g1: move 1, press from ann: good luck"]


def test_a_host_that_only_archives_shell_games_needs_only_archive(tmp_path):
    config = tmp_path / "judge.toml"
    config.write_text(ARCHIVE)  # no address, gm, [smtp] or [maildir]: shell games only
    repo = init(tmp_path / "archive")
    path = tmp_path / "friday.toml"
    code, out, err = judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11",
                           "--config", config)
    assert code == 0, err
    assert judge("bot", path, "--as", gamefile.load(path).awaiting()[0], "--config", config)[0] == 0
    assert len(subjects(repo)) == 2 and subjects(repo)[1].startswith("mogul/friday: move 1, bob bids")
    # the mail commands refuse it, saying why
    code, out, err = judge("tick", "--config", config)
    assert code == 2 and flat("has no mail settings") in flat(err)
    code, out, err = judge("new", "mogul", tmp_path / "m.toml", "-p", "a=a@example.org", "-p", "b=b@example.org",
                           "-p", "c=c@example.org", "--config", config)
    assert code == 2 and flat("has no mail settings") in flat(err) and not (tmp_path / "m.toml").exists()
    # a configuration with only some mail settings is still refused
    config.write_text('address = "judge@example.org"\n' + ARCHIVE)
    code, out, err = judge("tick", "--config", config)
    assert code == 2 and "needs gm" in flat(err)


# ---- a judge killed between the save and the commit (issue 23, item 11) ------------------------
def killed_while_committing(monkeypatch, repo):
    """The record's write (judge/record/archive.py `write`) as a judge killed halfway through
    it: its temporary file left behind. (tests/publish/test_killed.py kills a real judge at
    every step.)"""
    from judge.record import archive

    def killed(game, name, where, *rest):
        (repo / game.ruleset.name).mkdir(exist_ok=True)
        (repo / game.ruleset.name / f".{name}.toml.4242-0.tmp").write_text("half a record")
        raise SystemExit(137)

    monkeypatch.setattr(archive, "write", killed)


def test_a_judge_killed_between_save_and_commit_is_caught_up_by_the_next_change(tmp_path, monkeypatch):
    _, config, repo = archived_site(tmp_path)
    path = tmp_path / "friday.toml"
    judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "11", "--config", config)
    with monkeypatch.context() as m:
        killed_while_committing(m, repo)
        code, _, _ = judge("bot", path, "--as", gamefile.load(path).awaiting()[0], "--config", config)
    assert code == 137 and len(gamefile.load(path).log) == 1 and len(subjects(repo)) == 1  # saved, not archived
    assert (tmp_path / ".publish" / "friday").is_file()  # the mark the killed judge left
    assert git(repo, "status", "--porcelain", "--untracked-files=all").strip()  # the killed write's file
    # a refused command saves nothing, so publishes nothing (issue 44 item 4: its cost is its own) ...
    code, _, err = judge("order", path, "--as", "nobody", "bid", "--config", config)
    assert code != 0 and "no player" in err and len(subjects(repo)) == 1
    # ... the next change of the game (or judge tick, for a game of the games directory) brings
    # the archive up to date and leaves no stray file
    code, _, err = judge("bot", path, "--as", gamefile.load(path).awaiting()[0], "--config", config)
    assert code == 0, err
    said = subjects(repo)
    assert len(said) == 2 and said[1].startswith("mogul/friday: move 1, ")
    assert tomllib.loads((repo / "mogul" / "friday.toml").read_text())["log"] == gamefile.load(path).log
    assert git(repo, "status", "--porcelain", "--untracked-files=all").strip() == ""
    assert not (tmp_path / ".publish" / "friday").exists()
    judge("order", path, "--as", "nobody", "bid", "--config", config)
    assert len(subjects(repo)) == 2  # nothing more to catch up


def test_the_last_change_of_a_mail_game_killed_before_its_commit_is_archived_by_the_next_tick(tmp_path, monkeypatch):
    site, config, repo = archived_site(tmp_path)
    monkeypatch.setattr(passwords, "N", 2**4)
    pw = new_game(site)
    game = site.load()
    who = game.awaiting()[0]
    with monkeypatch.context() as m:
        killed_while_committing(m, repo)
        with pytest.raises(SystemExit):
            gateway.handle(message(address(who), f"game g1\nplayer {who} {pw[who]}\n#1 {bots.choose(game, who)}\n"),
                           site.cfg, site.outbox(), T0)
    assert len(site.load().log) == 1 and not (repo / "mogul" / "g1.toml").exists()
    assert judge("tick", "--config", config, "--now", T0.isoformat())[0] == 0  # nothing to do, but this
    assert len(subjects(repo)) == 1
    assert tomllib.loads((repo / "mogul" / "g1.toml").read_text())["log"] == site.load().log
    assert git(repo, "status", "--porcelain", "--untracked-files=all").strip() == ""
