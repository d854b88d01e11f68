"""No record breaks a reader (issue 34, item 5): hypothesis mutates any field of real public
records, at any depth (a wrong type, NaN, inf, a huge number, a huge string, control
characters and NUL, a key removed, a key added) or writes bytes that are no text, and `judge
site`, `judge league` and the archive's rebuild of its index run on the folder holding it and
two good records: no traceback, the good games published (their pages, the league counting
them), and the bad one either published too or skipped with one warning naming its file and
the field.

JUDGE_MALFORMED_EXAMPLES (default 40) sets the examples; runs are derandomized, so the suite is
repeatable (JUDGE_FUZZ_RANDOM=1 for new ones)."""
from __future__ import annotations

import math
import os
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.record import public

from archivekit import href, site_file, template
from mailkit import flat
from registry import new_game

EXAMPLES = int(os.environ.get("JUDGE_MALFORMED_EXAMPLES", "40"))


class Records(dict):
    def __repr__(self) -> str:  # (hypothesis prints the test's arguments)
        return "Records(done, running, bad)"


@pytest.fixture(scope="module")
def good() -> dict[str, str]:
    """Two good records (a finished game, a running one) and the one to mutate (finished)."""
    running = new_game("mogul", 3, {}, 2)
    bots.play_out(running, moves=12)
    return Records(done=template(3)[1].replace('game = "template"', 'game = "done"', 1),
                   running=public.text(running, "running"),
                   bad=template(1)[1].replace('game = "template"', 'game = "bad"', 1))


def paths(value, at=()) -> list[tuple]:
    """Every path into `value` (keys of tables, places in arrays), a few of each array."""
    out = [at] if at else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, at + (k,))
    elif isinstance(value, list):
        for i in sorted({0, 1, len(value) // 2, len(value) - 1} & set(range(len(value)))):
            out += paths(value[i], at + (i,))
    return out


BAD = st.one_of(
    st.just(math.nan), st.just(math.inf), st.just(-math.inf), st.just(10 ** 18), st.just(-(10 ** 18)),
    st.just("x" * 200_000), st.just("\x00\x01\x7f\ufffd"), st.just(True), st.just([]), st.just({}),
    st.just([1, "two", {}]), st.just({"a": [math.nan]}), st.integers(-3, 3), st.text(max_size=20))


@st.composite
def mutations(draw, record):
    where = draw(st.sampled_from(paths(record)))
    kind = draw(st.sampled_from(["replace", "replace", "replace", "delete", "extra"]))
    value = draw(BAD)
    return where, kind, value


def mutated(record: dict, where: tuple, kind: str, value) -> dict:
    import copy

    out = copy.deepcopy(record)
    holder = out
    for step in where[:-1]:
        holder = holder[step]
    last = where[-1]
    if kind == "replace":
        holder[last] = value
    elif kind == "delete":
        del holder[last]
    else:
        target = holder[last]
        if isinstance(target, dict):
            target["unexpected"] = value
        elif isinstance(target, list):
            target.append(value)
        else:
            holder[last] = [target, value]
    return out


def run(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        "".join(__import__("traceback").format_exception(result.exception))
    return result.exit_code, result.stdout, result.stderr


def check(folder: Path, out: Path, bad: Path, where: tuple):
    code, said, err = run("site", folder, out)
    assert code == 0, err
    for name in ("done", "running"):
        assert site_file(out, "mogul", name).is_file()
    index = (out / "index.html").read_text()
    assert href("mogul", "done") in index and href("mogul", "running") in index
    if not site_file(out, "mogul", "bad").is_file():  # skipped: one warning naming the file and the field
        warned = [w for w in flat(err).splitlines() if str(bad) in w]
        assert len(warned) == 1, err
        assert not where or str(where[0]) in warned[0], (where, warned)  # the top field, or a field below it
    code, said, err = run("league", folder, "--json")
    assert code == 0, err
    import json

    league = json.loads(said)
    counted = league["league"][0]["games"] if league["league"] else 0
    assert counted >= 1  # the good finished game
    if counted == 1 and not league["left_out"]:  # the bad one neither counted nor left out: skipped, named
        assert len([w for w in flat(err).splitlines() if str(bad) in w]) == 1, err


# Cost (4 s): EXAMPLES mutated records, each built into a site and a league beside two good ones.
@given(data=st.data())
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("JUDGE_FUZZ_RANDOM"),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_no_mutated_record_breaks_the_site_or_the_league(good, tmp_path_factory, data):
    record = tomllib.loads(good["bad"])
    where, kind, value = data.draw(mutations(record))
    folder = tmp_path_factory.mktemp("records")
    (folder / "done.toml").write_text(good["done"])
    (folder / "running.toml").write_text(good["running"])
    bad = folder / "bad.toml"
    try:
        bad.write_text(tomli_w.dumps(mutated(record, where, kind, value), multiline_strings=True))
    except (ValueError, TypeError):  # what TOML cannot hold: the mutation as bytes, then
        bad.write_bytes(good["bad"].encode()[:5000] + b"\xff\xfe\x00 = [")
    check(folder, tmp_path_factory.mktemp("site"), bad, where)


def test_a_file_of_bytes_that_are_no_text_is_skipped_and_named(good, tmp_path):
    (tmp_path / "done.toml").write_text(good["done"])
    (tmp_path / "running.toml").write_text(good["running"])
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(2000))
    check(tmp_path, tmp_path.parent / f"{tmp_path.name}-site", bad, ())


def test_a_record_whose_reports_double_at_every_move_is_skipped_before_any_is_decoded(good, tmp_path):
    """Issue 44 item 8: report operations that copy the previous report twice a move (a 93 kB
    record drove judge site to 1.9 GB): the record is skipped with one warning naming it and
    the move, the others published."""
    record = tomllib.loads(good["bad"])
    rows = record["moves"]
    assert len(rows) > 12
    rows[0]["report"] = ["+" + "x" * 70] * 10
    for row in rows[1:12]:  # 10 lines, then 20, 40, ... 20,480 at move 12
        row["report"] = ["=0 999999999", "=0 999999999"]
    (tmp_path / "done.toml").write_text(good["done"])
    (tmp_path / "running.toml").write_text(good["running"])
    bad = tmp_path / "bad.toml"
    bad.write_text(tomli_w.dumps(record, multiline_strings=True))
    check(tmp_path, tmp_path.parent / f"{tmp_path.name}-site", bad, ("moves",))
    code, _, err = run("site", tmp_path, tmp_path.parent / f"{tmp_path.name}-site")
    assert not site_file(tmp_path.parent / f"{tmp_path.name}-site", "mogul", "bad").is_file()
    assert "moves[8].report decodes to a report of 2,560 lines" in flat(err)


def test_a_report_within_the_bounds_is_shown_whole():
    """The bounds refuse nothing a judge writes: a report of REPORT_LINES lines decodes."""
    from judge.record import moves

    rows = [{"move": 1, "report": ["+x"] * moves.REPORT_LINES}, {"move": 2, "report": [f"=0 {moves.REPORT_LINES}"]}]
    assert [len(r.splitlines()) for r in moves.reports(rows)] == [moves.REPORT_LINES] * 2
