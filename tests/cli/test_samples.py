"""The sample reports of docs/samples.md are real: each is replayed from the command above it
(`judge new RULESET FILE -p ann -p ben -p cy --seed 4`, then K bot orders) and must read as the
judge renders it now. A line "  ... (...)" in a sample stands for lines cut there."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.engine import bots
from judge.engine.game import Game
from judge.engine.report import render

SAMPLES_MD = (Path(__file__).parents[2] / "docs" / "samples.md").read_text(encoding="utf-8")
SAMPLE = re.compile(r"^## `([a-z-]+)`\n\n`judge new \1 \S+ ((?:-p \w+ )+)--seed (\d+)`, then (\d+) bot orders?:"
                    r"\n\n```\n(.*?)```", re.S | re.M)
SAMPLES = SAMPLE.findall(SAMPLES_MD)
SALT = "5a17" * 8  # the samples' salt (a real game draws its own, so its commitment differs)


def test_there_is_a_sample_of_every_ruleset_the_readme_lists():
    """The rulesets of the README's table, each with a sample, and no sample of another (a new
    ruleset drops in without its README row: docs/architecture.md "A new ruleset")."""
    from judge.engine import ruleset

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z-]+)` \|", readme, re.M)
    assert listed and set(listed) <= {rs.name for rs in ruleset.every()}
    assert sorted(s[0] for s in SAMPLES) == sorted(listed)


@pytest.mark.parametrize("sample", SAMPLES, ids=[s[0] for s in SAMPLES])
def test_a_sample_is_the_report_the_judge_renders(sample):
    name, players, seed, orders, text = sample
    game = Game.new(name, players.replace("-p", "").split(), seed=int(seed), salt=SALT)
    for _ in range(int(orders)):
        bots.play_one(game)
    fresh = render(game.view(game.awaiting()[0]))
    lines = text.splitlines()
    cut = next((i for i, line in enumerate(lines) if re.match(r"  \.\.\. \(", line)), None)
    if cut is None:
        assert text == fresh, f"docs/samples.md: the sample of {name} is stale; it is now:\n{fresh}"
    else:
        after = len(lines) - cut - 1
        got = fresh.splitlines()
        assert got[:cut] == lines[:cut] and got[len(got) - after:] == lines[cut + 1:], \
            f"docs/samples.md: the sample of {name} is stale; it is now:\n{fresh}"
