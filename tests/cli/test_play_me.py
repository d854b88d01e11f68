"""`judge play RULESET --me NAME` (issue 47, item 1): a newcomer plays one seat against the
bots, from a pipe (one order a line; at the end of the input the game is saved and the judge
says whose turn it is) or in a terminal (line editing, the legal orders completed by Tab)."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

from typer.testing import CliRunner

from judge.cli import app
from judge.store import gamefile


def judge(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def test_a_pipe_of_orders_plays_the_seat_answers_a_typo_as_judge_order_and_saves(tmp_path):
    path = tmp_path / "g.toml"
    r = judge("play", "mogul", "--me", "ann", "-q", "--seed", "3", "--save", path, input="bid\n# a comment\nbidd\n")
    assert r.exit_code == 0, r.output
    assert "ann> bid\nok: bid\n" in r.stdout and "ann, move 6: bid or pass" in r.stdout
    assert "judge: syntax error \"bidd\": unknown order 'bidd'" in r.stderr
    assert "move 6: waiting for ann (bid or pass)" in r.stdout  # the input ended: whose turn it is
    assert f"go on with: judge order {path} --as ann ORDER" in r.stdout.replace("\n    ", " ")
    game = gamefile.load(path)
    assert game.players[0] == "ann" and game.awaiting() == ["ann"]
    r = judge("order", path, "--as", "ann", "pass")  # the game goes on in the shell
    assert r.exit_code == 0 and "ok: pass" in r.stdout, r.output


def test_a_seat_played_to_the_end_shows_the_final_ranking_and_no_seed_set_by_the_game_master():
    r = judge("play", "stock-round", "--me", "ann", "-n", "3", "-q", input="pass\n" * 400)
    assert r.exit_code == 0, r.output
    assert "Final standings" in r.stdout and "report for ann" in r.stdout
    assert "seed drawn by the judge" in r.stdout
    assert "Set by the game master" not in r.stdout  # (the judge drew the seed: issue 47, item 9)


def test_the_report_and_the_orders_are_shown_before_each_order():
    r = judge("play", "mogul", "--me", "ann", "--me", "bob", "-n", "3", "--seed", "3", input="bid\n")
    assert r.exit_code == 0, r.output
    assert "Mogul, the card game: report for ann, move 1" in r.stdout
    assert "you may order: bid, pass" in r.stdout and "ann> bid\nok: bid" in r.stdout
    assert "Mogul, the card game: report for bob, move 2" in r.stdout  # the second seat's turn
    assert r.stdout.rstrip().splitlines()[-2] == "move 2: waiting for bob (bid or pass)"


def test_help_and_report_are_answered_between_orders():
    r = judge("play", "mogul", "--me", "ann", "-q", "--seed", "3", input="help\nreport\nbid\n")
    assert r.exit_code == 0, r.output
    assert "Rules in short" in r.stdout and "Mogul, the card game: report for ann, move 2" in r.stdout
    assert "ok: bid" in r.stdout and not r.stderr  # (nothing refused)


def test_without_me_json_and_too_many_seats_are_refused():
    assert judge("play", "mogul", "--me", "ann", "--json").exit_code == 2
    r = judge("play", "mogul", "-n", "3", "--me", "a", "--me", "b", "--me", "c", "--me", "d")
    assert r.exit_code == 2 and "not 4" in r.output


def test_in_a_terminal_tab_completes_a_legal_order():
    main, child = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "judge", "play", "mogul", "--me", "ann", "-q", "--seed", "3"],
                           stdin=child, stdout=child, stderr=child, env={**os.environ, "TERM": "dumb"})
    os.close(child)
    out = b""

    def read_until(text: bytes, times: int = 1) -> None:
        nonlocal out
        while out.count(text) < times:
            ready, _, _ = select.select([main], [], [], 30)
            assert ready, out.decode(errors="replace")
            out += os.read(main, 4096)

    read_until(b"ann> ")
    os.write(main, b"bi\t\n")
    read_until(b"ok: bid")
    read_until(b"ann> ", 2)  # (Ctrl-D once readline reads again)
    os.write(main, b"\x04")  # end of input: the judge says whose turn it is
    read_until(b"waiting for ann")
    assert run.wait(30) == 0
    os.close(main)


def test_a_line_longer_than_any_input_is_refused_before_it_is_read_as_an_order():
    from judge.cli import MAX_INPUT

    result = judge("play", "mogul", "-n", 3, "--me", "ann", "--seed", 1, input="bid" + " " * MAX_INPUT + "\n")
    assert result.exit_code == 2 and f"longer than {MAX_INPUT} bytes" in result.output
