"""The log in the game file: read and appended as text (judge/orderlog.py) so that a command
costs the same at any length, yet the file is exactly what tomli-w writes, diffs by one line an
order, and reads as the same TOML whichever way it is read."""
import difflib
import os
import shutil
import tomllib
from pathlib import Path

import tomli_w
from hypothesis import given, settings, strategies as st

from judge.engine import bots
from judge.store import gamefile
from judge.engine.game import Game
from judge.engine.orderlog import Log

from registry import every_name, new_game

OLD_FILES = sorted((Path(__file__).parents[1] / "golden" / "files").glob("*/*.toml"))


def played(name: str, orders: int) -> Game:
    game = new_game(name, 4, {}, 3)
    bots.play_out(game, moves=orders)
    return game


def test_the_file_is_exactly_what_tomli_w_writes_and_reads_back_as_toml():
    for name in every_name():
        for orders in (0, 1, 30):
            game = played(name, orders)
            text = gamefile.dumps(game)
            assert text == tomli_w.dumps(game.to_dict(), indent=2), (name, orders)
            loaded = gamefile.parse(text.encode(), "g.toml")
            assert loaded.to_dict() == tomllib.loads(text) == game.to_dict()
            assert gamefile.dumps(loaded) == text


def test_old_files_are_read_the_fast_way_and_give_what_tomllib_gives():
    for path in OLD_FILES:
        text = path.read_text()
        fast = gamefile._fast_parse(text)
        assert fast is not None and isinstance(fast["log"]["orders"], Log), path.name
        assert fast == tomllib.loads(text)
        assert gamefile.dumps(gamefile.load(path)) == text  # saved again unchanged, byte for byte


def test_an_order_adds_one_line_to_the_log_in_the_file(tmp_path):
    path = tmp_path / "g.toml"
    shutil.copy(OLD_FILES[0], path)
    game = gamefile.load(path)
    before = path.read_text().splitlines()
    bots.play_one(game)
    bots.play_one(game)
    gamefile.save(game, path)
    after = path.read_text().splitlines()
    log_at = before.index("[log]")
    assert after[:log_at] != before[:log_at]  # the state changed
    changes = [d for d in difflib.ndiff(before[log_at:], after[log_at:]) if d[0] in "+-"]
    assert changes == [f'+   "{game.log[-2]}",', f'+   "{game.log[-1]}",']


def test_a_log_that_is_not_as_the_judge_writes_it_is_read_by_tomllib(tmp_path):
    game = played("mogul", 5)
    text = gamefile.dumps(game)
    move, player, order = game.log[-1].split(" ", 2)
    escaped = text.replace(f'"{game.log[-1]}"', f'"{move} \\u{ord(player[0]):04x}{player[1:]} {order}"')
    reordered = text.replace("\n[log]\n", "\n[log]\n# hand-written\n")
    for variant in (escaped, reordered):
        assert variant != text and gamefile._fast_parse(variant) is None
        loaded = gamefile.parse(variant.encode(), "g.toml")
        assert loaded.log == game.log and loaded.state == game.state
        assert gamefile.dumps(loaded) == text  # the next save writes it the usual way
    moved = text.replace("\n[log]\n", "\n[logbook]\n")
    assert gamefile._fast_parse(moved) is None


_ENTRY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=int(os.environ.get("JUDGE_LOG_EXAMPLES", 200)), deadline=None)
@given(st.lists(_ENTRY, max_size=6), st.lists(_ENTRY, max_size=3))
def test_any_log_reads_as_tomllib_reads_it_and_appends_as_tomli_w_writes(entries, more):
    text = tomli_w.dumps({"format": 1, "state": {"move": 1}, "log": {"orders": entries}}, indent=2)
    fast = gamefile._fast_parse(text)
    plain = all('"' not in e and "\\" not in e and all(c >= " " and c != "\x7f" for c in e) for e in entries)
    assert (fast is not None) == plain
    if fast is None:
        return
    assert fast == tomllib.loads(text)
    log = fast["log"]["orders"]
    assert len(log) == len(entries) and list(log) == entries and log[-1:] == entries[-1:]
    if entries:
        assert log[-1] == entries[-1] and log[0] == entries[0]
    copy = log.copy()
    log.extend(more)
    assert log == entries + more and copy == entries and len(log) == len(entries) + len(more)
    lines = log.lines()
    if lines is not None:
        written = tomli_w.dumps({"log": {"orders": entries + more}}, indent=2)
        assert written == ("[log]\norders = [\n" + lines + "]\n" if lines else "[log]\norders = []\n")


def test_a_log_is_a_list_of_strings_to_the_rest_of_the_judge():
    log = Log(["1 alice bid"])
    log.append("2 bob pass")
    assert log == ["1 alice bid", "2 bob pass"] and ["1 alice bid", "2 bob pass"] == log
    assert log != ["1 alice bid"] and log[1] == "2 bob pass" and log[-1] == "2 bob pass"
    assert list(log) == log[:] == ["1 alice bid", "2 bob pass"] and len(log) == 2
    assert [e.split()[1] for e in log] == ["alice", "bob"]
    log[0] = "1 alice pass"
    assert log == ["1 alice pass", "2 bob pass"] and log.lines() == '  "1 alice pass",\n  "2 bob pass",\n'
    read = gamefile._fast_parse(tomli_w.dumps({"x": 1, "log": {"orders": ["1 a bid", "2 b pass"]}}, indent=2))["log"]["orders"]
    read[-1] = "2 b bid"
    assert read == ["1 a bid", "2 b bid"] and read.lines() == '  "1 a bid",\n  "2 b bid",\n'


def test_corrections_are_written_before_the_log_which_stays_last_and_fast():
    game = played("mogul", 12)
    game.corrections.append({"kind": "rollback", "time": "2026-11-22T12:00:00Z", "from_move": 13, "to_move": 12,
                             "reason": "a slip", "undone": ["12 alice bid"]})
    text = gamefile.dumps(game)
    assert text.index("[[corrections]]") < text.index("[log]")
    fast = gamefile._fast_parse(text)
    assert fast is not None and fast == tomllib.loads(text)
    loaded = gamefile.parse(text.encode(), "g.toml")
    assert loaded.corrections == game.corrections and loaded.log == game.log
