"""What the registry-wide proofs run over: every registered ruleset, at every player count,
with its default options and with each option set away from its default; what a player is
told of a position (`information`); where docs/architecture.md says what a ruleset must do
(`contract_line`)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from judge.engine import bots, ruleset, standing
from judge.engine.errors import JudgeError, UsageError
from judge.engine.game import Game
from judge.engine.rng import Rng
from judge.engine.ruleset import GM


def every_name() -> list[str]:
    return [rs.name for rs in ruleset.every()]


def with_standing_orders() -> list[str]:
    """The rulesets that have standing orders (a vocabulary: `standing_starts`)."""
    return [rs.name for rs in ruleset.every() if rs.standing_starts]


ARCHITECTURE = Path(__file__).parents[1] / "docs" / "architecture.md"


def contract_line(group: str, term: str) -> str:
    """Where docs/architecture.md's checklist of a new ruleset says what `term` must do: the
    first line naming it after the heading that begins with `group` (a key of
    judge/engine/ruleset.py CONTRACT, e.g. "Hooks every", "Declared", "Keys every view")."""
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(group)), 0)
    for i in range(start, len(lines)):
        if lines[i].startswith((f"- [ ] `{term}`", f"- [ ] `{term}(")):
            return f"docs/architecture.md:{i + 1}: {lines[i][6:]}"
    return f"docs/architecture.md names no `{term}` under {group!r}"


def information(game: Game, player: str | None) -> dict:
    """Everything the judge tells `player` (None: the public, GM: the game master) of the
    position: their whole view as their report gets it (every event the game keeps that they
    were told, not only the report's last 12; their orders, the report's extras, their
    standing orders), that report as rendered, and what anyone may read at any move
    (`judge status`: the ruleset's summary, prompts, winners; `judge standings`)."""
    from judge.engine.report import render

    view = game.view(player)
    return {"view": json.dumps(view, sort_keys=True, ensure_ascii=False, indent=1), "report": render(view),
            "status": json.dumps(game.status(), sort_keys=True),
            "standings": json.dumps(game.ruleset.standings(game.state), sort_keys=True)}


def sees(game: Game, player: str | None) -> str:
    """What `player` reads of the position, cheaply (a policy's view, every event they were
    told, the standings and summary anyone reads): what tells them whether an order showed
    them something."""
    from judge.engine.ruleset import visible_events

    state, rs = game.state, game.ruleset
    return json.dumps([game.view(player, report=False), visible_events(state, player), rs.standings(state),
                       rs.summary(state)], sort_keys=True)


def option_sets(rs) -> list[dict]:
    """The default options, then each option alone at each value other than its default."""
    sets = [{}]
    for o in rs.options:
        if isinstance(o.default, bool):
            values = [not o.default]
        elif o.choices:
            values = [c for c in o.choices if c != o.default]
        else:
            values = []  # numbers: the default only (a ruleset's own tests cover the others)
        sets += [{o.name: v} for v in values]
    return sets


def configs() -> list[tuple[str, int, dict]]:
    """(ruleset, players, options) for every combination a game can be set up with. An option
    that no player count accepts is a bug the random-play test reports (see `unplayable`)."""
    out = []
    for rs in ruleset.every():
        for options in option_sets(rs):
            for n in range(rs.min_players, min(rs.max_players, len(bots.NAMES)) + 1):
                if playable(rs.name, n, options):
                    out.append((rs.name, n, options))
    return out


def unplayable() -> list[tuple[str, dict]]:
    return [(rs.name, options) for rs in ruleset.every() for options in option_sets(rs)
            if not any(playable(rs.name, n, options) for n in range(rs.min_players, rs.max_players + 1))]


def playable(name: str, n: int, options: dict) -> bool:
    try:
        ruleset.get(name).check_players(bots.NAMES[:n], {**ruleset.get(name).default_options(), **options})
    except UsageError:
        return False
    return True


def config_id(config) -> str:
    name, n, options = config
    return "-".join([name, f"{n}p", *(f"{k}={v}" for k, v in options.items())])


def new_game(name: str, n: int, options: dict, seed: int) -> Game:
    return Game.new(name, bots.NAMES[:n], seed=seed, options=options)


def many(variable: str, default: int) -> int:
    """A count the environment may raise for a longer run, e.g. JUDGE_RANDOM_GAMES=200."""
    return int(os.environ.get(variable, default))


def random_bots(game: Game) -> dict:
    """Random bots for every seat and for the game master (when the game awaits one)."""
    return {p: "random" for p in [*game.players, GM]}


def redrawn(game: Game, player: str, salt: int) -> Game:
    """The game with what `player` may not know redrawn, and another generator from here on
    (the same generator further on: its past draws stay, so the log still replays)."""
    state = game.ruleset.resample_hidden(game.state, player, Rng(salt))
    state = standing.resample(game, state, player, Rng(salt + 1))
    return game.with_state(state, game.rng.at(game.rng.draws + 7919 * (salt + 1)))


def positions(config, seed: int, every: int):
    """Every n-th position of a random game, and every position whose next order ends a
    round or a phase (where cards are turned and dice rolled)."""
    game = new_game(*config, seed)
    vocabulary, rng = {"pass", "standing", "cancel", "cancel 1"}, Rng(seed)
    while not game.is_over():
        for p in game.awaiting():
            vocabulary.update(game.view(p)["orders"])
        for p in game.players:
            vocabulary.update(game.ruleset.standing_examples(game.state, p))
        if not rng.below(4):  # now and then someone gives a standing order
            p = rng.choice(game.players)
            try:
                game.submit(p, [rng.choice(game.ruleset.standing_examples(game.state, p) or ["standing"])])
            except JudgeError:
                pass
            if game.is_over():
                break
        ahead = game.copy()
        player = rng.choice(ahead.awaiting())  # in a simultaneous phase anyone may be last
        ahead.submit(player, [bots.choose(ahead, player, "random", salt="fair")])
        edge = ahead.ruleset.summary(ahead.state) != game.ruleset.summary(game.state)
        if edge or len(game.log) % every == 0:
            yield game, vocabulary, edge
        game = ahead
