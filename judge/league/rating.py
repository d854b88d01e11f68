"""Ratings from ranked multiplayer games: the Weng–Lin Bayesian approximation with the
Plackett–Luce model (Weng and Lin, "A Bayesian Approximation Method for Online Ranking",
JMLR 12, 2011, Algorithm 4; the model of openskill's PlackettLuce, with its default
constants, written here in a few lines: bench/league_ratings.py measures the two).

Each player's skill is a normal belief N(mu, sigma^2), at first N(25, (25/3)^2). A game is
the players' ranks (ties share a rank); the update moves each player's mu toward what the
result says of them against everyone they finished behind or level with, and shrinks sigma as
the evidence grows. Before each game sigma grows by tau (skills drift). A player's `rating`
is the conservative mu - 3 sigma: a newcomer starts at 0 and climbs as their games show a
skill the judge can be sure of.

Plain floats in a fixed order: the same games give the same numbers on every run."""
from __future__ import annotations

import math
from dataclasses import dataclass

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2  # the spread of one game's performance around the skill
TAU = MU / 300  # the drift of a skill between games
KAPPA = 0.0001  # sigma never shrinks below this fraction in one game


@dataclass
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def rating(self) -> float:
        """What the league sorts by: mu - 3 sigma (about 99.9% sure the skill is above it)."""
        return self.mu - 3 * self.sigma


def rate(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """The skills after a game in which player i finished `ranks[i]` (1 best; equal ranks tie)."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a rated game needs two players or more, each with a rank")
    before = [Skill(s.mu, math.sqrt(s.sigma ** 2 + TAU ** 2)) for s in skills]
    c = math.sqrt(sum(s.sigma ** 2 + BETA ** 2 for s in before))
    strength = [math.exp(s.mu / c) for s in before]
    n = range(len(before))
    sum_q = [sum(strength[i] for i in n if ranks[i] >= ranks[q]) for q in n]
    tied = [sum(1 for i in n if ranks[i] == ranks[q]) for q in n]
    out = []
    for i in n:
        omega = delta = 0.0
        for q in n:
            if ranks[q] > ranks[i]:
                continue
            p = strength[i] / sum_q[q]  # the chance i would come first among those ranked from q down
            omega += ((1.0 if q == i else 0.0) - p) / tied[q]
            delta += p * (1 - p) / tied[q]
        var = before[i].sigma ** 2
        gamma = math.sqrt(var) / c
        mu = before[i].mu + var / c * omega
        sigma = before[i].sigma * math.sqrt(max(1 - gamma * var / c ** 2 * delta, KAPPA))
        out.append(Skill(mu, sigma))
    return out


def win_chances(skills: list[Skill]) -> list[float]:
    """Each player's chance to finish first under the model (for measuring predictions)."""
    c = math.sqrt(sum(s.sigma ** 2 + BETA ** 2 for s in skills))
    strength = [math.exp(s.mu / c) for s in skills]
    total = sum(strength)
    return [x / total for x in strength]
