"""Refusals a newcomer meets in the shell, each saying what to write (issue 47, item 8): a typo
out of turn, a move number that has not come, mogul-board's credit and depot, rumors' buy with
the count first, rumors' report naming its event cards, a standing order's confirmation."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from judge.cli import app
from judge.store import gamefile

from mailkit import flat


def judge(*args):
    r = CliRunner().invoke(app, [str(a) for a in args])
    return r.exit_code, flat(r.output)


def new(tmp_path, ruleset, seed=4):
    path = tmp_path / f"{ruleset}.toml"
    assert judge("new", ruleset, path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", seed)[0] == 0
    return path, json.loads(CliRunner().invoke(app, ["status", str(path), "--json"]).output)["awaiting"][0]


def test_a_typo_out_of_turn_is_an_unknown_order_and_a_move_to_come_is_not_stale(tmp_path):
    path, first = new(tmp_path, "mogul")
    other = next(p for p in ("ann", "ben", "cy") if p != first)
    code, out = judge("order", path, "--as", other, "bdi")
    assert code == 4 and "unknown order 'bdi'" in out and "not your turn" not in out
    code, out = judge("order", path, "--as", other, "bid")  # a good order out of turn is still told so
    assert code == 4 and "not your turn" in out
    code, out = judge("order", path, "--as", first, "#99 bid")
    assert code == 4 and "stale" not in out and "written for move 99, a move that has not come" in out


def test_mogul_board_credit_and_depot_say_what_to_write(tmp_path):
    path, first = new(tmp_path, "mogul-board")
    code, out = judge("order", path, "--as", first, "credit 3")
    assert code == 4 and "'credit' takes nothing after it" in out and "when out of chips" not in out
    game = gamefile.load(path)
    rs = game.ruleset
    network = rs.networks()["yellow"]
    assert rs.station("seattle", "depot seattle") == "SEA" and rs.station("Salt Lake City", "x") == "SLC"
    try:
        rs.station("atlantis", "depot atlantis", "yellow")
    except Exception as e:  # noqa: BLE001 - the refusal's words are the point
        said = str(e)
    assert all(code in said for code in network) and "CHI" not in said and "Seattle" in said


def test_rumors_buy_with_the_count_first_and_its_event_cards_named(tmp_path):
    path, first = new(tmp_path, "rumors")
    game = gamefile.load(path)
    company = game.ruleset.names(game.state)[0]
    code, out = judge("order", path, "--as", first, f"buy 2 {company}")
    assert code == 4 and f"the company comes first: write 'buy {company} 2'" in out
    code, out = judge("show", path, "--as", first)
    assert "now N, next N: the event card in play (card N)" in out


def test_a_standing_orders_confirmation_says_when_it_becomes_public(tmp_path):
    path, first = new(tmp_path, "mogul")
    code, out = judge("order", path, "--as", first, "bid until pot 5")
    assert code == 0 and "your standing orders (secret until the game ends; then its record shows them): 1" in out
