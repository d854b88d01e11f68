"""Which rating model the league uses: candidates measured on bot games (never run by the tests).

    python bench/league_ratings.py [--games 600] [--pool 12] [--seed 1] [--rulesets mogul,rumors]

A pool of players of known, graded skill: player k of n gives the sensible bot's order with
probability k/(n-1) at each of their turns, else the random bot's (so 0 always plays at random
and n-1 always sensibly). Each game seats 3 to 5 players drawn from the pool, of a ruleset in
turn. The games are taken in order, and before each one every model predicts it from what it
has learned so far (online, as the league is used):

- winner log-loss: -log of the chance the model gave the actual winner (shared among tied
  winners); lower is better;
- pairs: the share of pairs of players finishing apart that the model ordered rightly by mu;
- final order: Spearman's correlation of the model's final ratings with the true skills;
- the time of one update.

Candidates: the league's own Weng-Lin Plackett-Luce (judge/league/rating.py), openskill's
PlackettLuce, BradleyTerryFull and ThurstoneMostellerFull (pip install openskill), and a
multiplayer Elo (each pair of players an Elo game, K=32/(n-1)). It also checks that the
league's model gives openskill's PlackettLuce numbers on games without ties.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import bots  # noqa: E402
from judge.engine.game import Game  # noqa: E402
from judge.league import rating  # noqa: E402


def play(ruleset: str, skills: list[float], seed: int) -> list[int]:
    """A bot game whose player i plays sensibly with probability skills[i]; their final ranks."""
    names = [f"p{i}" for i in range(len(skills))]
    game = Game.new(ruleset, names, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        player = game.awaiting()[0]
        good = player not in names or rng.random() < skills[names.index(player)]
        game.submit(player, [bots.choose(game, player, "sensible" if good else "random", salt=str(seed))])
    ranks = {r["player"]: r["rank"] for r in game.ruleset.standings(game.state)}
    return [ranks[n] for n in names]


def games(n: int, pool: int, seed: int, rulesets: list[str]):
    rng = random.Random(seed)
    truth = [k / (pool - 1) for k in range(pool)]
    out = []
    for g in range(n):
        seats = rng.sample(range(pool), rng.randint(3, 5))
        ruleset = rulesets[g % len(rulesets)]
        try:
            ranks = play(ruleset, [truth[s] for s in seats], seed * 100_000 + g)
        except Exception:  # noqa: BLE001 - a ruleset that refuses a player count
            continue
        out.append((seats, ranks))
    return truth, out


class Own:
    name = "league (Weng-Lin PL, hand-written)"

    def __init__(self):
        self.s = {}

    def get(self, p):
        return self.s.setdefault(p, rating.Skill())

    def mu(self, p):
        return self.get(p).mu

    def chances(self, players):
        return rating.win_chances([self.get(p) for p in players])

    def update(self, players, ranks):
        for p, s in zip(players, rating.rate([self.get(p) for p in players], ranks)):
            self.s[p] = s


class OpenSkill:
    def __init__(self, model_name):
        import openskill.models as models

        self.model = getattr(models, model_name)()
        self.name = f"openskill {model_name}"
        self.s = {}

    def get(self, p):
        return self.s.setdefault(p, self.model.rating())

    def mu(self, p):
        return self.get(p).mu

    def chances(self, players):
        return self.model.predict_win([[self.get(p)] for p in players])

    def update(self, players, ranks):
        out = self.model.rate([[self.get(p)] for p in players], ranks=ranks)
        for p, team in zip(players, out):
            self.s[p] = team[0]


class Elo:
    name = "multiplayer Elo (pairwise, K=32/(n-1))"

    def __init__(self):
        self.r = {}

    def mu(self, p):
        return self.r.setdefault(p, 1500.0)

    def chances(self, players):
        x = [10 ** (self.mu(p) / 400) for p in players]
        return [v / sum(x) for v in x]

    def update(self, players, ranks):
        k = 32 / (len(players) - 1)
        delta = {p: 0.0 for p in players}
        for i, a in enumerate(players):
            for j, b in enumerate(players):
                if i < j:
                    expect = 1 / (1 + 10 ** ((self.mu(b) - self.mu(a)) / 400))
                    score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                    delta[a] += k * (score - expect)
                    delta[b] -= k * (score - expect)
        for p in players:
            self.r[p] += delta[p]


def spearman(a, b):
    def ranks(xs):
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        r = [0.0] * len(xs)
        for k, i in enumerate(order):
            r[i] = k
        return r

    ra, rb = ranks(a), ranks(b)
    return statistics.correlation(ra, rb)


def measure(model, truth, played):
    losses, right, pairs, spent = [], 0, 0, 0.0
    for seats, ranks in played:
        chances = model.chances(seats)
        winners = [i for i, r in enumerate(ranks) if r == 1]
        losses.append(-math.log(max(sum(chances[i] for i in winners), 1e-12)))
        mus = [model.mu(p) for p in seats]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                if ranks[i] != ranks[j]:
                    pairs += 1
                    right += (mus[i] > mus[j]) == (ranks[i] < ranks[j])
        t = time.perf_counter()
        model.update(seats, ranks)
        spent += time.perf_counter() - t
    final = spearman([model.mu(p) for p in range(len(truth))], truth)
    return statistics.mean(losses), right / pairs, final, spent / len(played) * 1e6


def same_as_openskill(played) -> float:
    """The largest difference of mu or sigma between the league's model and openskill's
    PlackettLuce over the games without ties."""
    own, theirs = Own(), OpenSkill("PlackettLuce")
    worst = 0.0
    for seats, ranks in played:
        if len(set(ranks)) != len(ranks):
            continue
        own.update(seats, ranks)
        theirs.update(seats, ranks)
        for p in seats:
            worst = max(worst, abs(own.get(p).mu - theirs.get(p).mu), abs(own.get(p).sigma - theirs.get(p).sigma))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--pool", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default="mogul,rumors,mogul-board")
    a = ap.parse_args()
    t = time.perf_counter()
    truth, played = games(a.games, a.pool, a.seed, a.rulesets.split(","))
    ties = sum(len(set(r)) != len(r) for _, r in played)
    print(f"{len(played)} games ({ties} with a tie) of {a.rulesets}, pool {a.pool}, played in "
          f"{time.perf_counter() - t:.0f} s\n")
    models = [Own(), Elo()]
    try:
        models[1:1] = [OpenSkill(m) for m in ("PlackettLuce", "BradleyTerryFull", "ThurstoneMostellerFull")]
    except ImportError:
        print("(openskill is not installed: pip install openskill to compare it)\n")
    print(f"{'model':<42} {'winner log-loss':>15} {'pairs right':>11} {'final Spearman':>14} {'us/update':>9}")
    for model in models:
        loss, pairs, final, us = measure(model, truth, played)
        print(f"{model.name:<42} {loss:>15.4f} {100 * pairs:>10.1f}% {final:>14.3f} {us:>9.1f}")
    if len(models) > 2:
        print(f"\nlargest difference from openskill PlackettLuce over games without ties: {same_as_openskill(played):.2e}")


if __name__ == "__main__":
    main()
