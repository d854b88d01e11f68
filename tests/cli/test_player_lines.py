"""`resign`, `propose end`, `agree end` and `press` from the shell: the same lines as by mail
(one implementation, judge/mail/players.py), in a shell game and in a mail game, whose players
are told by mail exactly as if the line had come by mail."""
from typer.testing import CliRunner

from judge.cli import app
from judge.store import gamefile
from mailkit import GM_ADDRESS, OBSERVER, address, flat, make_site, new_game, text

runner = CliRunner()


def judge(*args, env=None):
    return runner.invoke(app, list(args), env=env)


def shell_game(tmp_path):
    path = tmp_path / "g.toml"
    assert judge("new", "mogul", str(path), "-p", "ann", "-p", "bob", "-p", "cy", "--seed", "1").exit_code == 0
    return path


def test_a_shell_game_ends_by_agreement_and_keeps_press_to_all(tmp_path):
    path = str(shell_game(tmp_path))
    result = judge("order", path, "--as", "bob", "press all  hello there")
    assert result.exit_code == 0 and "ok: Press from bob to all: hello there" in result.output
    assert gamefile.load(path).meta["press"] == [{"move": 1, "from": "bob", "text": "hello there"}]
    result = judge("order", path, "--as", "ann", "agree end")
    assert result.exit_code == 4 and "nobody has proposed to end the game" in result.output
    result = judge("order", path, "--as", "bob", "propose end")
    assert result.exit_code == 0 and "Still to agree: ann, cy." in result.output
    assert judge("order", path, "--as", "bob", "propose end").exit_code == 4  # agreed already
    assert judge("order", path, "--as", "ann", "agree END", "--json").exit_code == 0
    assert not gamefile.load(path).is_over()
    result = judge("order", path, "--as", "cy", "agree end")
    assert result.exit_code == 0 and "agreed to end the game at move 1" in result.output
    game = gamefile.load(path)
    assert game.is_over() and "end_votes" not in game.meta
    result = judge("order", path, "--as", "cy", "propose end")
    assert result.exit_code == 4 and "the game has ended" in result.output
    assert judge("verify", path).exit_code == 0


def test_what_only_mail_can_do_is_refused_in_a_shell_game_and_the_file_is_unchanged(tmp_path):
    path = shell_game(tmp_path)
    before = path.read_bytes()
    for line, why in [("press ann hi", "press to one player is a mail, and this game has no mail"),
                      ("press anon all hi", "the game master does not allow anonymous press"),
                      ("resign", "'resign' is for a mail game"),
                      ("resign now", "'resign' takes nothing after it"),
                      ("propose peace", "write propose end"),
                      ("press bob hi", "press goes to all or to one of the others"),
                      ("press all", "write press PLAYER TEXT")]:
        result = judge("order", str(path), "--as", "bob", line)
        assert result.exit_code == 4 and f'"{line}": {why}' in flat(result.output), result.output
    result = judge("order", str(path), "--gm", "propose end")
    assert result.exit_code == 4 and "a player's line: give it with --as PLAYER" in flat(result.output)
    result = judge("order", str(path), "--as", "bob", "propose end", "pass")
    assert result.exit_code == 2 and "alone" in result.output
    assert path.read_bytes() == before


def test_resign_and_press_in_a_mail_game_are_mailed_as_by_mail(tmp_path):
    site = make_site(tmp_path)
    env = {"JUDGE_CONFIG": str(site.root / "judge.toml")}
    new_game(site)
    site.take()
    path = str(site.game_path())
    result = judge("order", path, "--as", "alice", "resign")  # a mail game: its players must be told
    assert result.exit_code == 2 and "give --config" in result.output
    result = judge("order", path, "--as", "bob", "press carol psst, the crash is near", env=env)
    assert result.exit_code == 0 and "ok: press to carol sent" in result.output, result.output
    [mail] = site.take()
    assert mail["To"] == address("carol") and "from bob, to you only" in text(mail)
    assert "psst, the crash is near" in text(mail) and "write 'press bob YOUR TEXT'" in text(mail)

    first = site.load().awaiting()[0]
    result = judge("order", path, "--as", first, "resign", env=env)
    assert result.exit_code == 0 and f"{first} has resigned" in result.output, result.output
    game = site.load()
    assert game.meta["mail"]["players"][first]["resigned"] and first not in game.awaiting()
    assert [f["kind"] for f in game.meta["league"]["facts"]] == ["resigned"]
    mails = {m["To"]: text(m) for m in site.take()}
    assert all(f"{first} has resigned" in mails[address(p)] for p in ("alice", "bob", "carol"))
    result = judge("order", path, "--as", first, "resign", env=env)
    assert result.exit_code == 4 and "you have resigned already" in result.output


def test_anonymous_press_from_the_shell_is_sent_apart_naming_nobody(tmp_path):
    site = make_site(tmp_path)
    env = {"JUDGE_CONFIG": str(site.root / "judge.toml")}
    new_game(site)
    game = site.load()
    game.meta["mail"]["press"] = "anon"
    gamefile.save(game, site.game_path())
    site.take()
    result = judge("order", str(site.game_path()), "--as", "bob", "press anon all who holds the crash?", env=env)
    assert result.exit_code == 0 and "anonymous press" in result.output, result.output
    assert site.take() == []  # it waits through a judge tick, as by mail
    for _ in range(2):
        assert judge("tick", env=env).exit_code == 0
    mails = site.take()
    assert sorted(m["To"] for m in mails) == sorted([*map(address, ("alice", "bob", "carol")), OBSERVER, GM_ADDRESS])
    assert all("from anonymous players, to all" in text(m) and "bob" not in text(m) for m in mails)
    game = site.load()
    assert game.meta["press"][-1]["from"] == "anonymous" and "press_pending" not in game.meta["mail"]
