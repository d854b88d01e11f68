"""Every line the judge writes for people fits 78 columns (the line length RFC 5322
recommends for mail; a phone's screen): each player's, the public and the game master's
report of bot games of every ruleset at every player count, the score track, and `judge help`
of every ruleset and topic, and without one."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, ruleset as registry
from judge.engine.report import WIDTH, render, render_help, render_standings
from judge.engine.ruleset import GM

from mailkit import make_site
from registry import new_game

def _case(name: str, *rest):
    return pytest.param(name, *rest, id="-".join(map(str, (name, *rest))))


def too_wide(text: str, where: str) -> list[str]:
    return [f"{where}: {len(line)} columns: {line}" for line in text.splitlines() if len(line) > WIDTH]


@pytest.mark.parametrize("name,players", [_case(rs.name, n) for rs in registry.every()
                                          for n in range(rs.min_players, rs.max_players + 1)])
def test_every_report_fits_78_columns(name, players):
    game = new_game(name, players, {}, players)
    kinds = {p: "random" for p in [*game.players, GM][::2]}
    wide: list[str] = []
    while True:
        if game.move % 3 == 0 or game.is_over():
            for who in [*game.players, None, GM]:
                wide += too_wide(render(game.view(who)), f"move {game.move}, {who or 'public'}")
            wide += too_wide(render_standings(game.ruleset.standings(game.state), game.is_over()), "standings")
        if game.is_over() or wide:
            break
        bots.play_one(game, kinds)
    assert not wide, "\n".join(wide[:10])


@pytest.mark.parametrize("name", [_case(rs.name) for rs in registry.every()])
def test_every_help_fits_78_columns(name):
    rs = registry.get(name)
    topics = [""] + (["cards"] if name == "rumors" else [])
    wide = [w for t in topics for w in too_wide(render_help(rs, t), f"judge help {name} {t}")]
    assert not wide, "\n".join(wide)


def test_judge_help_without_a_ruleset_fits_78_columns():
    out = CliRunner().invoke(app, ["help"]).output
    assert not too_wide(out, "judge help")


def test_the_check_catches_a_wide_line():
    assert too_wide("x" * 79, "here") and not too_wide("x" * 78, "here")


LONG = "a long line of words " * 6  # 126 columns of the player's own


@pytest.mark.parametrize("name", [_case(rs.name) for rs in registry.every()])
def test_every_mail_of_a_mail_game_fits_78_columns(tmp_path, name):
    """A mail game of each ruleset through the gateway and `judge tick`: the welcomes, the
    answers (help, history, a refused overlong line, press), the reports with their notices
    and footers, the reminders and the missed deadlines; every line of every body. A player's
    own overlong line quoted in an answer is wrapped like the rest (a single word longer than
    a line is never cut, as a commitment's 64 digits)."""
    from datetime import timedelta

    from judge.gateway import deadlines
    from mailkit import NAMES, T0, block, message, new_game as new_mail_game, send

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
