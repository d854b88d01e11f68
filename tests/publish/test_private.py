"""Each player's private view (judge/publish/private.py, judge/store/seatkeys.py): the link
that carries a seat's key, the mail command that sends it again, a seat handed on, the keys
revealed when the game ends, and `judge audit` refusing a view that is not the replay's."""
from __future__ import annotations

import base64
import json
import re

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine.game import Game
from judge.publish import private
from judge.record import public
from judge.site.pages import base
from judge.store import gamefile, seatkeys
from mailkit import NAMES, address, block, make_site, message, new_game, reply, send, short_setup


def from_fragment(text: str) -> bytes | None:
    """The key a link's fragment carries (as templates/site/private.js reads it)."""
    m = re.fullmatch(r"#?k=([A-Za-z0-9_-]{43})", text.strip())
    return base64.urlsafe_b64decode(m[1] + "=") if m else None


def judge(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(autouse=True)
def cheap(monkeypatch):
    from judge.mail import passwords

    monkeypatch.setattr(passwords, "N", 2**4)


def finished(rounds: int = 3, handed_on: str = "") -> tuple[Game, list[dict], dict]:
    """A short mogul game played to its end with its views sealed after every order: (the
    game, every sealed file, its finished record listing them). `handed_on`: that seat is
    handed on at move 1, after the first views were sealed."""
    game = Game.new("mogul", NAMES, seed=1, setup=short_setup(rounds))
    seatkeys.ensure(game)
    sealed, record = [private.seal(game, "g")], None
    record = public.build(game, "g", rows=[], sealed=private.row(sealed[-1]))
    if handed_on:
        seatkeys.renew(game, handed_on, game.move)
    while not game.is_over():
        player = game.awaiting()[0]
        legal = game.ruleset.legal_orders(game.state, player)
        game.submit(player, ([o for o in legal if o.split()[0] in ("pass", "sell")] or legal)[0])
        sealed.append(private.seal(game, "g"))
        record = public.build(game, "g", previous=record, rows=[], sealed=private.row(sealed[-1]))
    return game, sealed, record


def test_the_finished_record_reveals_every_key_and_audit_opens_every_view():
    game, sealed, record = finished()
    assert record["private"]["keys"] == seatkeys.every(game) and len(record["private"]["views"]) == len(sealed)
    checked, problems = private.audit(public.finished_game(record, "g"), record, sealed)
    assert problems == [] and checked == 3 * len(sealed)


def test_a_view_sealed_in_the_move_its_seat_was_handed_on_opens_with_the_key_revealed_for_it():
    game, sealed, record = finished(handed_on="bob")
    assert len(record["private"]["keys"]["bob"]) == 2
    checked, problems = private.audit(public.finished_game(record, "g"), record, sealed)
    assert problems == [] and checked == 3 * len(sealed)


def test_audit_refuses_a_view_that_is_not_the_replays_or_is_not_listed():
    game, sealed, record = finished()
    forged = json.loads(json.dumps(sealed[1]))
    shown = private.plaintext(game, "g", "bob")  # the end's report, passed off as move 2's
    shown.update(move=forged["move"], head=forged["head"], entries=1)
    forged["views"][1] = private.seal_one(bytes.fromhex(record["private"]["keys"]["bob"][-1]["key"]), shown)
    _, problems = private.audit(public.finished_game(record, "g"), record, [forged])
    assert problems == ["bob's view at move 2 is not listed in the record's [private] digests"]
    record["private"]["views"].append(private.row(forged))  # a game master who listed it too
    _, problems = private.audit(public.finished_game(record, "g"), record, [forged])
    assert problems == ["bob's view at move 2 is not the report the replay gives bob after 1 log entries"]


def test_audit_refuses_a_view_that_shows_another_log_head_line():
    game, sealed, record = finished()
    forged = json.loads(json.dumps(sealed[1]))
    key = bytes.fromhex(record["private"]["keys"]["bob"][-1]["key"])
    bob = next(b for b in forged["views"] if b["player"] == "bob")
    shown = private.open_one(key, forged, bob)
    shown["head_line"] = "Log head: move 1 0123456789abcdef"  # what the page prints, not the bound head
    forged["views"][forged["views"].index(bob)] = private.seal_one(key, shown)
    record["private"]["views"].append(private.row(forged))
    _, problems = private.audit(public.finished_game(record, "g"), record, [forged])
    assert problems == [f"bob's view at move {forged['move']} is not the report the replay gives bob after "
                        f"{shown['entries']} log entries"]


def test_audit_names_a_private_views_file_edited_out_of_shape_and_goes_on():
    game, sealed, record = finished()
    bad = json.loads(json.dumps(sealed[1]))
    bad["views"][0].pop("nonce")
    bad["views"][1]["ct"] = "not base64 at all!"
    moved = {**sealed[2], "move": "two"}
    other = {**sealed[3], "ruleset": "rumors"}
    checked, problems = private.audit(public.finished_game(record, "g"), record, [bad, moved, other, sealed[4]])
    assert checked == 1 + 3 and problems == [  # (carol's view of the edited file, and the last file's three)
        f"alice's view at move {bad['move']} is not a sealed view (player, nonce and ciphertext in base64)",
        f"bob's view at move {bad['move']} is not a sealed view (player, nonce and ciphertext in base64)",
        "a private views file of g says of no move and head", "a private views file of another game was given"]


def test_a_view_published_before_a_rollback_is_checked_against_the_log_as_it_stood_then():
    from judge.record import corrections

    game = Game.new("mogul", NAMES, seed=1, setup=short_setup(3))
    seatkeys.ensure(game)
    sealed, record = [], None
    for n in range(4):
        player = game.awaiting()[0]
        game.submit(player, game.ruleset.legal_orders(game.state, player)[0])
        sealed.append(private.seal(game, "g"))
        record = public.build(game, "g", previous=record, rows=[], sealed=private.row(sealed[-1]))
    game, _ = corrections.rollback(game, 2, "a wrong bid", "2026-05-01T12:00:00Z")
    while not game.is_over():  # other orders this time
        player = game.awaiting()[0]
        legal = game.ruleset.legal_orders(game.state, player)
        game.submit(player, ([o for o in legal if o.split()[0] in ("pass", "sell")] or legal)[0])
        sealed.append(private.seal(game, "g"))
        record = public.build(game, "g", previous=record, rows=[], sealed=private.row(sealed[-1]))
    checked, problems = private.audit(public.finished_game(record, "g"), record, sealed)
    assert problems == [] and checked == 3 * len(sealed)


def test_a_seat_handed_on_gets_a_new_key_and_the_old_one_opens_nothing_newer():
    game = Game.new("mogul", NAMES, seed=1)
    seatkeys.ensure(game)
    old = seatkeys.current(game, "bob")
    game.submit(game.awaiting()[0], "pass")
    seatkeys.renew(game, "bob", game.move)
    sealed = private.seal(game, "g")
    bob = next(b for b in sealed["views"] if b["player"] == "bob")
    assert private.open_one(old, sealed, bob) is None and private.open_one(seatkeys.current(game, "bob"), sealed, bob)
    keys = seatkeys.every(game)
    assert seatkeys.at_move(keys, "bob", 1) == [old] and seatkeys.at_move(keys, "bob", 2) == [seatkeys.current(game, "bob"), old]


def test_judge_link_prints_the_page_with_the_key_relative_or_absolute(tmp_path):
    path = tmp_path / "friday.toml"
    assert judge("new", "mogul", path, "-p", "ann", "-p", "ben", "-p", "cat")[0] == 0
    key = seatkeys.current(gamefile.load(path), "ben")
    code, out, _ = judge("link", path, "--as", "ben")
    assert code == 0 and out == f"{base('mogul', 'friday')}.html#{seatkeys.fragment(key)}\n"
    assert from_fragment(out.strip().partition("#")[2]) == key
    (tmp_path / "host").mkdir()
    site = make_site(tmp_path / "host")
    config = site.root / "judge.toml"
    config.write_text(config.read_text() + '[archive]\ngit = "archive"\nsite_url = "https://example.org/games/"\n')
    code, out, _ = judge("link", path, "--as", "ben", "--config", config, "--json")
    assert code == 0 and json.loads(out) == {"link": "https://example.org/games/" + judge("link", path, "--as", "ben")[1].strip()}
    assert judge("link", path, "--as", "dan")[0] != 0


def test_the_mail_command_link_answers_the_senders_own_link_alone(tmp_path):
    site = make_site(tmp_path)
    config = site.root / "judge.toml"
    config.write_text(config.read_text() + '[archive]\ngit = "archive"\nsite = "archive/site"\n'
                      'site_url = "https://example.org/games"\n')
    from judge.store import config as configs

    site.cfg = configs.load(config)
    passwords = new_game(site)  # (made without keys, as before them: the first change draws them)
    answer = reply(send(site, message(address("bob"), block("bob", passwords["bob"], "link"))), address("bob"))
    game = site.load()
    key = {p: seatkeys.fragment(seatkeys.current(game, p)) for p in NAMES}
    assert f"https://example.org/games/mogul/" in answer and key["bob"] in answer
    assert key["alice"] not in answer and key["carol"] not in answer
    refused = reply(send(site, message(address("bob"), block("bob", passwords["bob"], "link alice"))), address("bob"))
    assert key["alice"] not in refused and "takes nothing after it" in refused


def test_a_site_url_that_is_no_web_address_is_refused_when_judge_toml_is_read(tmp_path):
    site = make_site(tmp_path)
    config = site.root / "judge.toml"
    config.write_text(config.read_text() + '[archive]\ngit = "archive"\nsite_url = "games.example.org#k"\n')
    code, _, err = judge("link", tmp_path / "none.toml", "--as", "ann", "--config", config)
    assert code == 2 and "site_url is the address the site is served at" in err
