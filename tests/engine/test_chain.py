"""The log's hash chain (issue 44, items 1 and 2): a head a player was sent proves which game was
played. The reproductions of the issue: a different legal game replayed from the revealed seed,
key and salt, and a finished game with one `missed alice` entry taken out of its log and its
state, both pass `judge audit` with the same commitment; neither passes against a head its
players were sent after the first move that differs, and the real game passes with every one."""
from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, chain, facts
from judge.engine.game import Game
from judge.record import conduct, public
from judge.store import gamefile

PLAYERS = ["alice", "bob", "carol"]


def judge(*args) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, " ".join(result.output.split())


def played(missed_at: int | None = None) -> tuple[Game, dict[int, str]]:
    """A finished mogul game made as `judge new` makes one (a drawn seed, a secret key), and the
    head every report showed after each move (what `judge status --json` and every report
    give). `missed_at`: alice's first order from that many entries on is given for her by the
    judge, her deadline missed, as `judge tick` logs it."""
    game = Game.new("mogul", PLAYERS)
    heads = {0: game.log_head()["hash"]}
    while not game.is_over():
        player = game.awaiting()[0]
        if missed_at is not None and len(game.log) >= missed_at and player == "alice":
            conduct.missed(game, player, player, "2026-05-04T12:00:00Z")
            missed_at = None
        game.submit(player, [bots.choose(game, player, "sensible")])
        head = game.log_head()
        heads[head["move"]] = head["hash"]
    return game, heads


def forged_from(record: dict, real: Game, changed_move: int) -> Game:
    """A different legal game, made by anyone holding the finished record: its revealed seed,
    key and salt, the real orders up to `changed_move`, another legal order there, bots after."""
    kept = record["game_file"]
    rng = kept["rng"]
    forged = Game.new("mogul", PLAYERS, seed=rng["seed"], key=rng["key"], salt=rng["salt"])
    assert forged.commitment == real.commitment
    for entry in real.log:
        move, player, text = entry.split(" ", 2)
        if int(move) == changed_move:
            break
        forged.submit(player, [text])
    player = forged.awaiting()[0]
    real_order = next(e.split(" ", 2)[2] for e in real.log if e.startswith(f"{changed_move} "))
    other = next(o for o in forged.view(player)["orders"] if o != real_order)
    forged.submit(player, [other])
    bots.play_out(forged)
    return forged


def heads_args(heads: dict[int, str], moves) -> list[str]:
    return sum((["--head", f"{m}:{heads[m][:16]}"] for m in moves), [])


def test_a_different_legal_game_from_the_revealed_seed_fails_against_every_head_sent_after_it(tmp_path):
    real, heads = played()
    real_path, forged_path = tmp_path / "real.toml", tmp_path / "forged.toml"
    public.export(real, "friday", real_path)
    record = gamefile.parse_toml(real_path.read_bytes(), str(real_path))
    changed = 12
    forged = forged_from(record, real, changed)
    public.export(forged, "friday", forged_path)
    # today's audit: the same commitment, and the forged game replays from it
    code, out = judge("audit", forged_path)
    assert code == 0, out
    assert "only a head a player received during the game proves this record is the game that was played" in out
    after = [m for m in heads if m >= changed]
    for m in after[:3] + after[-2:]:
        code, out = judge("audit", forged_path, "--head", f"{m}:{heads[m][:16]}")
        assert code == 5, out
        assert f"the head of move {m} ({heads[m][:16]}) is not this record's" in out
    code, out = judge("audit", forged_path, *heads_args(heads, [changed - 1, changed, after[-1]]))
    assert code == 5
    assert f"the first entry that differs is after move {changed - 1} (whose head matches) and at or before move {changed}" in out
    code, out = judge("audit", forged_path, *heads_args(heads, range(changed)))  # the heads before it: the same game
    assert code == 0, out
    code, out = judge("audit", real_path, *heads_args(heads, sorted(heads)))
    assert code == 0, out
    assert "The log is the one in which the heads of moves 0, 1, 2" in out


def test_a_missed_deadline_taken_out_of_the_log_and_the_state_fails_against_a_head_sent_after_it(tmp_path):
    real, heads = played(missed_at=20)
    entry = next(e for e in real.log if facts.is_fact(e) and " missed alice " in e)
    missed_move = int(entry.split(" ", 1)[0])
    path = tmp_path / "g.toml"
    gamefile.save(real, path)
    assert judge("audit", path, *heads_args(heads, sorted(heads)))[0] == 0
    edited = gamefile.load(path)
    edited.log = [e for e in edited.log if e != entry]
    edited.state[facts.KEY].remove(entry)
    gamefile.save(edited, path)
    code, out = judge("audit", path)  # (it passes without a head: docs/league.md's "missed" gone)
    assert code == 0, out
    code, out = judge("audit", path, "--head", f"{missed_move}:{heads[missed_move]}")
    assert code == 5 and f"the head of move {missed_move}" in out
    assert judge("audit", path, *heads_args(heads, [missed_move - 1]))[0] == 0


def test_every_report_and_judge_status_carry_the_head_after_the_last_move(tmp_path):
    path = tmp_path / "g.toml"
    assert judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol")[0] == 0
    report = judge("show", path, "--as", "alice")[1]
    status = json.loads(CliRunner().invoke(app, ["status", str(path), "--json"]).output)
    assert status["log_head"]["move"] == 0 and len(status["log_head"]["hash"]) == 64
    assert f"Log head: move 0 {status['log_head']['hash'][:16]}" in report
    game = gamefile.load(path)
    code, out = judge("order", path, "--as", game.awaiting()[0], game.view(game.awaiting()[0])["orders"][0])
    head = gamefile.load(path).log_head()
    assert head["move"] == 1 and re.search(rf"Log head: move 1 {head['hash'][:16]}$", out)
    assert head["hash"] != status["log_head"]["hash"]


def test_a_game_made_before_commitments_has_no_chain_and_audit_says_so(tmp_path):
    game = Game.new("mogul", PLAYERS, seed=3)
    game.commitment, game.salt = "", ""
    bots.play_out(game)
    path = tmp_path / "old.toml"
    gamefile.save(game, path)
    assert game.log_head() is None and game.head_line() == ""
    assert "Log head" not in judge("show", path)[1]
    code, out = judge("audit", path, "--head", "3:" + "0" * 16)
    assert code == 5 and "no log chain either" in out


def test_a_head_shorter_than_16_digits_is_a_usage_error(tmp_path):
    real, heads = played()
    path = tmp_path / "g.toml"
    gamefile.save(real, path)
    code, out = judge("audit", path, "--head", f"5:{heads[5][:15]}")
    assert code == 2 and "16 to 64 hex digits" in out
    assert judge("audit", path, "--head", f"5:{heads[5]}")[0] == 0  # (all 64 digits)


def test_a_head_sent_before_a_rollback_still_checks_against_the_log_as_it_stood(tmp_path):
    """The game master rolled the game back: the heads players were sent before it, of the moves
    undone, are those of the log as it stood then (the game file's trace keeps what was undone),
    so the game passes with them; a forged head of those moves still fails."""
    path = tmp_path / "g.toml"
    assert judge("new", "mogul", path, "-p", "alice", "-p", "bob", "-p", "carol")[0] == 0
    sent = {}
    for _ in range(8):
        game = gamefile.load(path)
        player = game.awaiting()[0]
        assert judge("order", path, "--as", player, bots.choose(game, player, "sensible"))[0] == 0
        head = gamefile.load(path).log_head()
        sent[head["move"]] = head["hash"]
    undone = next(e for e in gamefile.load(path).log if e.startswith("5 "))
    assert judge("rollback", path, "--to", 5, "--reason", "a typo")[0] == 0
    game = gamefile.load(path)
    player = game.awaiting()[0]
    game.submit(player, [next(o for o in game.view(player)["orders"] if o != undone.split(" ", 2)[2])])
    bots.play_out(game)
    assert chain_differs(game, sent, 5)
    gamefile.save(game, path)
    after = game.log_head()
    code, out = judge("audit", path, *heads_args(sent, sorted(sent)), "--head", f"{after['move']}:{after['hash']}")
    assert code == 0, out
    for m in range(5, 9):  # (said: a record could claim a rollback the players were never told of)
        assert f"Note: the head of move {m} is the log's as it stood before the game master rolled the game back to move 5" in out
    assert "Note: the head of move 4 " not in out
    wrong = sent[7][:15] + ("1" if sent[7][15] == "0" else "0")  # (its 16th digit changed)
    assert judge("audit", path, "--head", f"7:{wrong}")[0] == 5


def chain_differs(game: Game, sent: dict[int, str], move: int) -> bool:
    """Every head sent from `move` on is not the game's now (the rollback changed the log there)."""
    now = {m: h for m, h in chain.after_each_move(game.commitment, game.salt, game.log).items()}
    return all(now.get(m) != sent[m] for m in sent if m >= move)


def test_a_finished_record_whose_heads_are_not_its_logs_fails_the_audit(tmp_path):
    real, heads = played()
    path = tmp_path / "rec.toml"
    public.export(real, "friday", path)
    assert judge("audit", path)[0] == 0
    text = path.read_text()
    assert f'head = "{heads[3]}"' in text
    path.write_text(text.replace(f'head = "{heads[3]}"', f'head = "{heads[4]}"'))
    code, out = judge("audit", path)
    assert code == 5 and "the record shows heads of the log's chain that its log does not give (move 3)" in out


def test_a_rollback_invented_to_pass_a_forged_game_off_as_the_real_one_is_not_believed(tmp_path):
    """A forger claims, in the game master's trace, a rollback to move 1 that undid the whole
    real game: every head its players were sent would be the log's "as it stood before". No
    rollback returns from a finished game (judge/record/corrections.py refuses it), so the
    trace is not believed and the heads fail as for any other game."""
    real, heads = played()
    real_path, forged_path = tmp_path / "real.toml", tmp_path / "forged.toml"
    public.export(real, "friday", real_path)
    forged = forged_from(gamefile.parse_toml(real_path.read_bytes(), str(real_path)), real, 12)
    forged.corrections.append({"kind": "rollback", "time": "2026-05-04T12:00:00Z", "from_move": real.move,
                               "to_move": 1, "reason": "a mistyped order", "undone": list(real.log)})
    public.export(forged, "friday", forged_path)
    last = max(heads)
    code, out = judge("audit", forged_path, "--head", f"{last}:{heads[last][:16]}")
    assert code == 5 and f"the head of move {last} ({heads[last][:16]}) is not this record's" in out


def test_a_head_extended_from_the_last_chain_is_the_head_computed_afresh():
    """The chain of a log is kept to extend it when the log grows (chain.links): a log that grew,
    was cut back (a rollback), changed in an early entry, or belongs to another game with the
    same commitment and another salt, gives the links computed from nothing."""
    commitment, salts = "ab" * 32, ["01" * 16, "02" * 16]
    entries = [f"{m} alice bid {m}" for m in range(1, 9)]
    logs = [entries[:3], entries[:6], entries[:6], entries[:2], entries[:8],
            entries[:4] + ["4 bob pass"] + entries[5:8], entries[:8], []]
    for log in logs:
        for salt in salts:
            kept = chain.links(commitment, salt, log)
            chain._CHAINS.clear()
            assert kept == chain.links(commitment, salt, log), (log, salt)
    chain.links(commitment, salts[0], entries)
    with pytest.raises(ValueError):  # (a salt that is not hex is refused, as before)
        chain.links(commitment, "not hex", entries)
