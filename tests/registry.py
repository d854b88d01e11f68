"""What the registry-wide proofs run over: every registered ruleset, at every player count,
with its default options and with each option set away from its default; what a player is
told of a position (`information`); where docs/architecture.md says what a ruleset must do
(`contract_line`)."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from judge.engine import bots, chain, ruleset, standing
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


def told(game: Game, player: str | None) -> dict:
    """`information`, as the proofs compare it cheaply: the whole view (the dict, and its JSON
    in its own order of keys, compact) without its report, which is rendered from the view
    alone (judge/engine/report.py): the same view in the same order is the same report."""
    view = game.view(player)
    return {"view": view, "json": json.dumps(view, ensure_ascii=False),
            "status": json.dumps(game.status(), sort_keys=True),
            "standings": json.dumps(game.ruleset.standings(game.state), sort_keys=True)}


def key_path(a, b, path: str = "") -> str:
    """Where `a` and `b` (JSON-like values) first differ: a key path such as
    `players[2].hand`, with both values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in [*a, *(k for k in b if k not in a)]:
            if k not in a or k not in b:
                return f"{path}.{k}: {'absent' if k not in a else _short(a[k])} / {'absent' if k not in b else _short(b[k])}"
            if a[k] != b[k]:
                return key_path(a[k], b[k], f"{path}.{k}")
        if list(a) != list(b):
            return f"{path}: the order of its keys ({', '.join(map(str, a))} / {', '.join(map(str, b))})"
    elif isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return key_path(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path}: {len(a)} items / {len(b)}"
    return f"{path}: {_short(a)} / {_short(b)}"


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


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


MOST_SEATS = 12  # the proofs play every player count a ruleset allows, up to this


def proof_configs() -> list[tuple[str, int, dict]]:
    """What the proofs of privacy and fair play play: every ruleset at every player count it
    allows with its default options, then each other option set once, at a player count of its
    own (in turn round the counts it accepts). Every count on every run, and no whole game
    played again at every count for each option."""
    out = []
    for rs in ruleset.every():
        counts = range(rs.min_players, min(rs.max_players, MOST_SEATS) + 1)
        out += [(rs.name, n, {}) for n in counts if playable(rs.name, n, {})]
        for k, options in enumerate(option_sets(rs)[1:]):
            fits = [n for n in counts if playable(rs.name, n, options)]
            if fits:
                out.append((rs.name, fits[k % len(fits)], options))
    return out


def unplayable() -> list[tuple[str, dict]]:
    return [(rs.name, options) for rs in ruleset.every() for options in option_sets(rs)
            if not any(playable(rs.name, n, options) for n in range(rs.min_players, rs.max_players + 1))]


def playable(name: str, n: int, options: dict) -> bool:
    try:
        ruleset.get(name).check_players(seat_names(n), {**ruleset.get(name).default_options(), **options})
    except UsageError:
        return False
    return True


def config_id(config) -> str:
    name, n, options = config
    return "-".join([name, f"{n}p", *(f"{k}={v}" for k, v in options.items())])


def new_game(name: str, n: int, options: dict, seed: int) -> Game:
    return Game.new(name, seat_names(n), seed=seed, options=options)


def seat_names(n: int) -> list[str]:
    """The players of a bot game of `n` (the bots' names, then player7, player8 ...)."""
    return [*bots.NAMES, *(f"player{k}" for k in range(len(bots.NAMES) + 1, n + 1))][:n]


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


def positions(config, seed: int, every: int, repeats: int | None = None):
    """Every n-th position of a random game, and every position whose next order ends a
    round or a phase (where cards are turned and dice rolled); with `repeats`, only the first
    `repeats` of each kind of end (the phase it ends and the phase it begins, and whether a
    round ends with it; the game's end too): every kind, without the same end round after
    round. Deterministic: the same positions on every run."""
    game = new_game(*config, seed)
    vocabulary, rng = {"pass", "standing", "cancel", "cancel 1"}, Rng(seed)
    ends: dict = {}
    while not game.is_over():
        for p in game.awaiting():
            vocabulary.update(game.view(p)["orders"])
        for p in game.players:
            vocabulary.update(game.ruleset.standing_examples(game.state, p))
        if now_and_then_a_standing_order(game, rng, 4) and game.is_over():
            break
        ahead = game.copy()
        player = rng.choice(ahead.awaiting())  # in a simultaneous phase anyone may be last
        ahead.submit(player, [bots.choose(ahead, player, "random", salt="fair")])
        before, after = game.ruleset.summary(game.state), ahead.ruleset.summary(ahead.state)
        edge = after != before
        if edge and repeats is not None:
            kind = (before.get("phase"), after.get("phase"), before.get("round") != after.get("round"), ahead.is_over())
            ends[kind] = ends.get(kind, 0) + 1
            edge = ends[kind] <= repeats
        if edge or len(game.log) % every == 0:
            yield game, vocabulary, edge
        game = ahead


# ---- the log's heads in the proofs ------------------------------------------------------------
_FULL = re.compile(r"\b[0-9a-f]{64}\b")
_LINE = re.compile(r"Log head: move (\d+) (<code>)?([0-9a-f]{16})\b")


def _heads_of(game: Game) -> tuple[list, dict[str, int]]:
    chained = chain.links(game.commitment, game.salt, game.log)
    last_of = {move: link for move, link in chained}  # the link after each move's last entry
    return chained, {last_of[move].hex(): move for move in sorted(last_of, reverse=True)}


def without_heads(text: str, game: Game) -> str:
    """`text` with each head of `game`'s log chain (judge/engine/chain.py) put as `<head of move
    N>`: its 64 hex digits where they are the head of move N of this very game's chain, and
    the 16 of a `Log head: move N HEX` line where they begin the head of move N.

    The head is the one thing of what the judge shows that the proofs cannot compare byte for
    byte between two worlds: it is an HMAC keyed by the game's secret salt over the whole log,
    so another world (another salt, other secret entries) has other heads, each a random value
    to anyone without the salt. So the proofs compare everything else byte for byte, and the
    heads by what they must be: the head of the same move of each world's own chain, where the
    other shows its head of that move (no other value, no other link of the chain, no other
    move, which would tell when a secret entry was logged); and tests/proofs/test_privacy.py
    proves apart that the head is keyed (`unkeyed_heads`). A value that is not such a head
    stays as it is, and the comparison shows it."""
    if not game.commitment:
        return text
    chained, heads = _heads_of(game)
    last = chained[-1][0]

    def full(m: re.Match) -> str:
        return f"<head of move {heads[m[0]]}>" if m[0] in heads else m[0]

    def line(m: re.Match) -> str:
        move = int(m[1])
        if move <= last and chain.at(chained, move).hex().startswith(m[3]):
            return f"Log head: move {move} {m[2] or ''}<head of move {move}>"
        return m[0]

    return _LINE.sub(line, _FULL.sub(full, text))


def with_heads(rows: list[dict], game: Game) -> list[dict]:
    """The record's rows `rows` with the heads of `game`'s own chain (the one part of a row made
    from the log and the salt rather than from a position: judge/record/moves.py)."""
    after = chain.after_each_move(game.commitment, game.salt, game.log) if game.commitment else {}
    return [{**r, "head": after[r["move"]]} if "head" in r else r for r in rows]


def now_and_then_a_standing_order(game: Game, rng: Rng, chance: int) -> bool:
    """One time in `chance`, a seat drawn from `rng` gives one of its ruleset's example standing
    orders (a refused one is passed over); whether one was tried."""
    if rng.below(chance):
        return False
    seat = rng.choice(game.players)
    try:
        game.submit(seat, [rng.choice(game.ruleset.standing_examples(game.state, seat) or ["standing"])])
    except JudgeError:
        pass
    return True
