"""Every line the judge writes for people fits 78 columns (the line length RFC 5322
recommends for mail; a phone's screen): each player's, the public and the game master's
report of bot games of every ruleset at every player count, the score track, and `judge help`
of every ruleset and topic, and without one."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, ruleset as registry
from judge.engine.report import WIDTH, render, render_help, render_standings
from judge.engine.ruleset import GM

from mailkit import flat, make_site
from registry import new_game

def _case(name: str, *rest):
    return pytest.param(name, *rest, id="-".join(map(str, (name, *rest))))


def too_wide(text: str, where: str) -> list[str]:
    return [f"{where}: {len(line)} columns: {line}" for line in text.splitlines() if len(line) > WIDTH]


@pytest.mark.parametrize("name,players", [_case(rs.name, n) for rs in registry.every()
                                          for n in range(rs.min_players, rs.max_players + 1)])
# Cost (up to 8 s, stock-round at 5): every reader's report every third move of a whole game.
def test_every_report_fits_78_columns(name, players):
    game = new_game(name, players, {}, players)
    kinds = {p: "random" for p in [*game.players, GM][::2]}
    wide: list[str] = []
    while True:
        if game.move % 3 == 0 or game.is_over():
            for who in [*game.players, None, GM]:
                wide += too_wide(render(game.view(who)), f"move {game.move}, {who or 'public'}")
            wide += too_wide(render_standings(game.ruleset.standings(game.state), game.is_over()), "standings")
        wide += too_wide(game.waiting_line(), f"move {game.move}, the waiting line")  # (judge bot's last)
        if game.is_over() or wide:
            break
        bots.play_one(game, kinds)
    assert not wide, "\n".join(wide[:10])


@pytest.mark.parametrize("name", [_case(rs.name) for rs in registry.every()])
def test_every_help_fits_78_columns(name):
    rs = registry.get(name)
    from judge.engine.paths import resource

    topics = [""] + sorted(t.name[len("help-"):-len(".txt.j2")] for t in (resource("templates") / name).glob("help-*.txt.j2"))
    wide = [w for t in topics for w in too_wide(render_help(rs, t), f"judge help {name} {t}")]
    assert not wide, "\n".join(wide)
    # written to fit, not fitted by the wrap: a help line the wrap breaks reads badly, its
    # continuation 2 columns in beside the template's own aligned under its column
    from judge.engine.report import _env

    for t in topics:
        raw = _env().get_template(f"{name}/help-{t}.txt.j2" if t else f"{name}/help.txt.j2").render(rs=rs)
        wide += too_wide(raw, f"templates/{name}/help{'-' + t if t else ''}.txt.j2")
    assert not wide, "\n".join(wide)


def test_judge_help_without_a_ruleset_fits_78_columns():
    out = CliRunner().invoke(app, ["help"]).output
    assert not too_wide(out, "judge help")


def test_the_check_catches_a_wide_line():
    assert too_wide("x" * 79, "here") and not too_wide("x" * 78, "here")


LONG = "a long line of words " * 6  # 126 columns of the player's own


# Cost (up to 9 s, rumors): every mail of a whole mail game; the widest reports come late.
@pytest.mark.parametrize("name", [_case(rs.name) for rs in registry.every()])
def test_every_mail_of_a_mail_game_fits_78_columns(tmp_path, monkeypatch, name):
    """A mail game of each ruleset through the gateway and `judge tick`: the welcomes, the
    answers (help, history, a refused overlong line, press), the reports with their notices
    and footers, the reminders and the missed deadlines; every line of every body. A player's
    own overlong line quoted in an answer is wrapped like the rest (a single word longer than
    a line is never cut, as a commitment's 64 digits)."""
    from datetime import timedelta

    from judge.gateway import deadlines
    from judge.mail import passwords as hashes
    from mailkit import NAMES, T0, block, message, new_game as new_mail_game, send

    monkeypatch.setattr(hashes, "N", 2**4)  # cheap hashes (each keeps its cost): no password is guessed here
    site = make_site(tmp_path)
    passwords = new_mail_game(site, ruleset=name, deadline=24, grace=0, remind=12)
    mails = site.take()
    now = T0
    for i in range(60):
        game = site.load()
        if game.is_over():
            break
        now += timedelta(hours=1)
        who = next((p for p in game.awaiting() if p in NAMES), None)
        if i % 7 == 3:  # a deadline passes: the reminder, then the missed order
            for hours in (13, 12):
                now += timedelta(hours=hours)
                deadlines.tick(site.cfg, site.outbox(), now)
                mails += site.take()
            continue
        if who is None:
            continue
        extra = {0: ["help", "history", LONG], 1: ["press all " + LONG], 2: [f"press {NAMES[0] if who != NAMES[0] else NAMES[1]} {LONG}"],
                 4: ["away until 2026-05-09"], 5: ["rules"]}.get(i, [])
        order = bots.choose(game, who)
        mails += send(site, message(f"{who}@players.test", block(who, passwords[who], *extra, order)), now)
    mails += send(site, message(f"{NAMES[0]}@players.test", block(NAMES[0], passwords[NAMES[0]], "propose end")), now)
    wide = [w for m in mails for w in too_wide(m.get_content(), f"{m['Subject']} to {m['To']}")
            if len(w.partition(" columns: ")[2].split()) > 1]  # (not one word longer than a line)
    subjects = " ".join(m["Subject"] for m in mails)
    assert all(s in subjects for s in ("welcome", "Re: orders", "press from", "reminder", "report for"))
    assert not wide, "\n".join(wide[:12])
    answers = "\n".join(m.get_content() for m in mails if m["Subject"].startswith("Re:"))
    # the player's own lines, whole and in order; an echoed one goes on under its start
    assert f'REFUSED not an order "{LONG.strip()}"' in flat(answers) and f"OK press all {LONG.strip()}" in flat(answers)
    assert re.search(r"^  OK      press all .{50,}\n {10}\S", answers, re.M), answers
    for m in mails:  # the example a player is told to copy is never wrapped
        if "A good order message, whole:" in m.get_content():
            example = m.get_content().split("A good order message, whole:\n\n")[1].split("\n\n")[0].split("\n")
            assert [line.split()[0] for line in example] == ["game", "player", example[2].split()[0], "end"], example



def _a_path_alone(line: str, tmp_path) -> bool:
    """A line that is one word, a path of the test's own folder: the wrap never cuts a word, so
    it is as wide as the temporary path makes it (a long --basetemp), whatever the judge does."""
    return len(line.split()) == 1 and str(tmp_path) in line


def _shell(*args) -> str:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exit_code in (0, 4, 6), r.output
    return r.output


@pytest.mark.parametrize("name,players", [_case(rs.name, n) for rs in registry.every()
                                          for n in (rs.min_players, rs.max_players)])
def test_every_shell_answer_fits_78_columns(tmp_path, name, players):
    """What the shell prints of a bot game of each ruleset with the fewest and the most players
    (the line `bot` and `order` end with is checked at every count above): `judge new`,
    `order` (its answer and what happened; press and propose end too), `bot`, `status`, `orders`, `standings`, `history`,
    `verify`, `audit`, and the refusals of an overlong order line and of a long wrong one.
    Bots play in between (a shell call every few moves); after every move the line `order` and
    `bot` end with (`move N: waiting for ...`) is checked too. Only `judge orders` may print a line past 78
    columns: each of its lines is one order, whole, to be copied as it is (docs/mail.md)."""
    from judge.store import gamefile

    path = tmp_path / "g.toml"
    said = [("new", _shell("new", name, path, *[a for p in bots.NAMES[:players] for a in ("-p", p)],
                           "--seed", players))]
    game = gamefile.load(path)
    who = game.awaiting()[0]
    said += [("order, too long", _shell("order", path, "--as", who, "buy x " * 40)),
             ("order, wrong", _shell("order", path, "--as", who, "buy x " * 20)),
             ("press", _shell("order", path, "--as", who, "press all " + LONG)),
             ("propose end", _shell("order", path, "--as", who, "propose end"))]
    game = gamefile.load(path)
    legal: set[str] = set()
    for turn in range(1000):
        if game.is_over():
            break
        who = game.awaiting()[0]
        flag = ("--gm",) if who == GM else ("--as", who)
        if turn % 5 == 0:  # through the shell: an order given, or the bot's
            gamefile.save(game, path)
            if turn % 10 or who == GM:
                said.append((f"order, move {game.move}", _shell("order", path, *flag, bots.choose(game, who))))
            else:
                said.append((f"bot, move {game.move}", _shell("bot", path, "--as", who)))
            game = gamefile.load(path)
            if turn % 25 == 0 and not game.is_over():
                said += [(f"{c}, move {game.move}", _shell(c, path)) for c in ("status", "standings")]
                who = game.awaiting()[0]
                legal |= set(game.ruleset.legal_orders(game.state, who))
                said.append((f"orders, move {game.move}", _shell("orders", path, *(("--gm",) if who == GM else ("--as", who)))))
        else:
            bots.play_one(game)
        said.append((f"waiting line, move {game.move}", game.waiting_line()))
    gamefile.save(game, path)
    said += [(c, _shell(c, path)) for c in ("status", "standings", "history", "verify", "audit")]
    wide = [w for where, out in said for w in too_wide(out, where)
            if not (where.startswith("orders") and w.partition(" columns: ")[2] in legal)
            and not _a_path_alone(w.partition(" columns: ")[2], tmp_path)]
    assert "game over" in said[-5][1] and not wide, "\n".join(wide[:12])


def test_the_order_a_footer_shows_to_copy_is_one_that_fits_a_line(tmp_path):
    """The footer's example order is copied into a player's mail as it stands: one too long
    for a line (a rumors bag of many dice) is passed over, never wrapped into two lines."""
    from judge.mail.mailgame import MailGame
    from mailkit import new_game as new_mail_game

    site = make_site(tmp_path)
    new_mail_game(site)
    mg = MailGame(site.load(), "g1")
    long = "bag " + " ".join(["Banana"] * 8 + ["Edison"] * 4)
    footer = mg.footer(site.cfg, "alice", {"orders": [long, "bag Edison", "bag"]})
    assert "\n  #1 bag Edison\n  end\n" in footer and long not in footer
    assert "\n  #MOVE ORDER\n" in mg.footer(site.cfg, "alice", {"orders": [long]})


_WORD = st.one_of(st.sampled_from(["bid", "'agree end'", '"resign"', "alice's", "--", ">", "#12", "\t", "\xa0"]),
                  st.text(st.sampled_from("ab'\"-.é"), min_size=1, max_size=12),
                  st.text(st.sampled_from("x'"), min_size=40, max_size=100),
                  st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8))
_LINE = st.lists(st.tuples(_WORD, st.sampled_from([" ", " ", "  "])), max_size=40).map(
    lambda parts: "".join(w + gap for w, gap in parts))


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_LINE, min_size=1, max_size=4), lead=st.integers(0, 30), hang=st.sampled_from([4, 8, 11]))
def test_wrap_keeps_every_word_and_leaves_a_line_that_fits_as_it_is(lines, lead, hang):
    """judge/engine/report.py's wrap, which every mail passes: a line that fits is left byte
    for byte; a longer one is broken only at spaces, its words kept whole and in order, each
    piece within 78 columns unless it is one word longer than a line (or a short quoted
    phrase, kept whole), its continuations further in than it (never read as a quote, a
    signature or a line of its own); wrapping twice changes nothing."""
    from judge.engine.report import wrap

    text = "\n".join(" " * lead + line for line in lines)
    out = wrap(text, hang=hang)
    assert flat(out) == flat(text.expandtabs()) and wrap(out, hang=hang) == out
    pieces, at = out.split("\n"), 0
    for line in text.split("\n"):
        if len(line) <= WIDTH:
            assert pieces[at] == line
            at += 1
            continue
        words, first = flat(line.expandtabs()).split(), at
        indent = min(len(line) - len(line.lstrip()), WIDTH // 3) + hang
        while words or at == first:
            piece = pieces[at]
            n = len(piece.split())
            assert piece.split() == words[:n]
            assert len(piece) <= WIDTH or n == 1 or re.search("['\"]", piece), piece
            assert at == first or len(piece) - len(piece.lstrip()) >= indent
            words, at = words[n:], at + 1
    assert at == len(pieces)
