"""Fuzzing with hypothesis: arbitrary order lines (through Game.submit and through the CLI) and
arbitrary game files (truncated, wrong types, huge numbers, unknown keys, binary) never crash
the judge: each is accepted or refused with one clean line and a documented exit code, and a
refusal leaves the game (and its file) exactly as it was.

JUDGE_FUZZ_EXAMPLES (default 40) sets the examples per test; runs are derandomized, so the
suite is repeatable; raise the count (and unset derandomizing with JUDGE_FUZZ_RANDOM=1) to hunt."""
from __future__ import annotations

import json
import os
import tempfile
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from judge.engine import bots, ruleset
from judge.store import gamefile
from judge.cli import app
from judge.engine.errors import JudgeError
from judge.engine.ruleset import GM
from judge.engine.simulate import usual_players

from registry import every_name, many, new_game, random_bots

from mailkit import flat

EXAMPLES = many("JUDGE_FUZZ_EXAMPLES", 40)
fuzz = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("JUDGE_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
EXIT_CODES = {2, 3, 4, 5}  # README: bad command, game file, order refused, verify
STOPS = (0, 7, 30, 10**6)  # the positions fuzzed: orders played from the start (10**6: to the end)
ODD_WORDS = ["all", "#", "#1", "#0", "#-1", "0", "-1", "1.5", "999999999", "99999999999999999999",
             "²", "#²", "#٣", "٣", "１", "\u00a0", "\x00", "\u202e", "é", "gm", "ＢＩＤ", "bid" * 70]


@lru_cache(maxsize=None)
def position_text(name: str, stop: int) -> str:
    """The game file of a random game of `name` after `stop` orders (or at its end)."""
    game = new_game(name, usual_players(ruleset.get(name)), {}, 2)
    while not game.is_over() and len(game.log) < stop:
        bots.play_one(game, random_bots(game), salt="fuzz")
    return gamefile.dumps(game)


def position(name: str, stop: int):
    return gamefile.parse(position_text(name, stop).encode(), "fuzz")


def order_lines(name: str):
    """Lines made of the words the ruleset knows, odd words, and any text at all."""
    game = position(name, 7)
    known = sorted({w for p in game.players for o in game.ruleset.legal_orders(game.state, p) for w in o.split()}
                   | {"bid", "pass", "take", "sell", "buy", "short", "roll", "par", "offer", "credit"})
    word = st.sampled_from(known + ODD_WORDS) | st.text(min_size=1, max_size=12)
    made = st.lists(word, min_size=0, max_size=5).map(" ".join)
    return made | st.text(max_size=240)


def who(game) -> st.SearchStrategy:
    return st.sampled_from([*game.players, *game.awaiting(), GM, "GM", "nobody", "ALICE", ""])


def assert_clean_refusal(result, path: Path, before: bytes, as_json: bool = False) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        return
    assert result.exit_code in EXIT_CODES, (result.exit_code, result.stderr)
    if as_json:  # the refusal object on standard output, its exit code the command's
        answer = json.loads(result.stdout)
        assert answer["ok"] is False and answer["exit"] == result.exit_code and answer["error"], answer
        assert path.read_bytes() == before
        return
    lines = result.stderr.splitlines()
    # one message, no traceback: a line "judge: ...", wrapped to 78 columns (its continuation 4 in)
    assert lines and (lines[0] + " ").startswith("judge: ") and all(line.startswith("    ") for line in lines[1:]) \
        or "Usage:" in result.stderr, result.stderr
    assert path.read_bytes() == before


def orders_given(name: str):
    """(stop, player, lines): a position of the game, someone (or no one) giving orders, the lines."""
    @st.composite
    def draw(draw):
        stop = draw(st.sampled_from(STOPS))
        return stop, draw(who(position(name, stop))), draw(st.lists(order_lines(name), min_size=1, max_size=3))

    return draw()


@pytest.mark.parametrize("name", every_name())
def test_any_order_line_is_accepted_or_refused_cleanly(name):
    @fuzz
    @given(orders_given(name))
    def check(given_orders):
        stop, player, lines = given_orders
        game = position(name, stop)
        before = game.to_dict()
        try:
            game.submit(player, lines)
        except JudgeError as e:
            assert str(e) and "\n" not in str(e)
            assert game.to_dict() == before
        else:
            game.ruleset.check(game.state)

    check()


@pytest.mark.parametrize("name", every_name())
def test_any_order_line_through_the_cli_is_clean(name):
    @fuzz
    @given(orders_given(name))
    def check(given_orders):
        stop, player, lines = given_orders
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "game.toml"
            path.write_text(position_text(name, stop))
            before = path.read_bytes()
            args = ["--gm"] if player == GM else ["--as", player]
            result = CliRunner().invoke(app, ["order", str(path), *args, "--", *lines])
            assert_clean_refusal(result, path, before)

    check()


def mutated(data, text: str) -> bytes:
    """A game file broken in one of the ways a hand edit or a bad disk breaks one."""
    how = data.draw(st.sampled_from(["truncate", "binary", "bytes", "value", "delete", "add"]))
    raw = text.encode()
    if how == "truncate":
        return raw[: data.draw(st.integers(0, len(raw)))]
    if how == "binary":
        return data.draw(st.binary(max_size=400))
    if how == "bytes":
        at = data.draw(st.integers(0, len(raw)))
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    doc = tomllib.loads(text)
    parent, key = pick_path(data, doc)
    if how == "delete":
        del parent[key]
    elif how == "add" and isinstance(parent, list):
        parent.append(data.draw(wild_values))
    elif how == "add":
        parent[data.draw(st.sampled_from(["zzz", "extra", "players", "move"]))] = data.draw(wild_values)
    else:
        parent[key] = data.draw(wild_values)
    return tomli_w.dumps(doc).encode()


wild_values = st.sampled_from(["", "x", "alice", "gm", "over", -1, 0, 1, 7, 10**18, 2**63 + 5, -(10**18),
                               True, False, [], ["alice"], [1, 2], {}, {"a": 1}, [{"move": "x"}], [[]]])


def pick_path(data, doc: dict):
    """A random (container, key) inside the document: a top-level key, or deeper."""
    parent = doc
    key = data.draw(st.sampled_from(["state"] * len(doc) + sorted(parent)))  # mostly the state
    while isinstance(parent[key], (dict, list)) and parent[key] and data.draw(st.integers(0, 3)):
        parent = parent[key]
        key = data.draw(st.sampled_from(sorted(parent))) if isinstance(parent, dict) else data.draw(st.integers(0, len(parent) - 1))
    return parent, key


COMMANDS = [["show"], ["show", "--gm"], ["show", "--as", "alice"], ["show", "--json", "--as", "bob"], ["status"],
            ["status", "--json"], ["standings"], ["verify"]]


@pytest.mark.parametrize("name", every_name())
def test_any_broken_game_file_is_refused_cleanly(name):
    @fuzz
    @given(stop=st.sampled_from(STOPS), data=st.data())
    def check(stop, data):
        text = position_text(name, stop)
        broken = mutated(data, text)
        command = data.draw(st.sampled_from(COMMANDS + [["order"]]))
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "game.toml"
            path.write_bytes(broken)
            if command == ["order"]:
                game = position(name, stop)
                player = (game.awaiting() or game.players)[0]
                orders = game.ruleset.legal_orders(game.state, player) or ["pass"]
                command = ["order", "--gm" if player == GM else f"--as={player}", "--", orders[0]]
            result = CliRunner().invoke(app, [command[0], str(path), *command[1:]])
            assert_clean_refusal(result, path, broken, as_json="--json" in command)

    check()


# ---- what the fuzzing found, kept as plain examples -----------------------------------------
@pytest.mark.parametrize("line, message", [
    ("", "an empty order line"),
    ("   ", "an empty order line"),
    ("#² bid", "move number '#²' is not a whole number"),
    ("\n" + "bid" * 70, "the line holds control or binary characters"),
])
def test_odd_order_lines_are_refused_with_a_reason(line, message):
    game = position("mogul", 0)
    with pytest.raises(JudgeError) as e:
        game.submit(game.awaiting()[0], [line])
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["state"].pop("start"), "is inconsistent: KeyError 'start'"),
    (lambda d: d["state"]["events"].append(7), "state.events must be tables"),
    (lambda d: d.update(players=["alice", "x y"], state={**d["state"], "seats": ["alice", "x y"]}), "player name 'x y'"),
    (lambda d: d.update(meta=5), "[meta] must be a table"),
])
def test_a_hand_edit_that_would_break_a_report_is_refused_on_loading(edit, message, tmp_path):
    doc = tomllib.loads(position_text("mogul", 7))
    edit(doc)
    path = tmp_path / "game.toml"
    path.write_text(tomli_w.dumps(doc))
    before = path.read_bytes()
    result = CliRunner().invoke(app, ["show", str(path), "--as", "alice"])
    assert result.exit_code == 3 and flat(message) in flat(result.stderr), result.stderr
    assert path.read_bytes() == before
