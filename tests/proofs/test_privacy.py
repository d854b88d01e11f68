"""Privacy, proved over the whole registry: at several points of a game, for each player, redraw
everything that player may not know (resample_hidden, and the other players' standing orders)
and check that their whole information stays byte-for-byte the same (registry.information:
their JSON view with every event the game keeps that they were told, their report, and what
anyone reads at any move: `judge status` and `judge standings`). A ruleset whose
resample_hidden is missing fails here, and so does one that leaves a kind of hidden fact as
it is: every key of the game master's view that a player's view hides must be redrawn at
some point of the game (else the proofs never try another world for it). The random games'
players give random standing orders.

The public record (judge export, the git archive) likewise: redrawing everything hidden from the
public leaves it byte for byte the same, and its log shows of an order (as the ruleset's
`information.orders` declares) only what tells it from every other order the player could
have given there that the public view after it does not tell apart. Its `moves` (the public
report, scores and prices at the start of every move) stay the same when everything hidden is
redrawn at the start of every move, and so does every file of the static site (judge site).

Every player count a ruleset allows is played on every run, with its default options, and each
other option set at one count (registry.proof_configs); the positions checked are chosen by
the game's own phases and rounds (`checked_positions`), the same on every run.

JUDGE_PRIVACY_GAMES (default 1) sets the games per ruleset, player count and option set."""
from __future__ import annotations

import json
import marshal

import pytest

from judge.engine import bots, ruleset, standing
from judge.record import conduct, entries, moves, public as record
from judge.engine.errors import JudgeError
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.rng import Rng
from judge.engine.ruleset import GM, SECRET_PART, WHOLE, Information, visible_events
from judge.rulesets.mogul.rules import Mogul
from judge.rulesets.rumors.ruleset import Rumors

from registry import (config_id, contract_line, information, key_path, many, new_game, proof_configs,
                      random_bots, told, with_heads, without_heads)

GAMES = many("JUDGE_PRIVACY_GAMES", 1)
EVERY = 16  # orders between the positions of the public record checked
SPREAD = 10  # the positions of a game checked, spread evenly from its start to its end
PHASES = 2  # the positions checked after each kind of end of a phase or round
TRIES = 8  # resamples per player and position until one changes a hidden fact
VIEWER_KEYS = ("player", "orders", "order_forms", "example", "you")  # the parts of a view that name who reads it
STANDING_KEYS = ("standing", "standing_stopped", "standing_unmet", "standing_orders")


def with_state(game: Game, state: dict) -> Game:
    return game.with_state(state)


def with_standing_redrawn(game: Game, state: dict, player: str, rng: Rng) -> dict:
    """`state` with the other players' standing orders redrawn as well (a copy)."""
    return standing.resample(game, json.loads(json.dumps(state)), player, rng)


def some_standing_orders(game: Game, rng: Rng) -> None:
    """Now and then a random player gives a random standing order (or cancels theirs)."""
    if game.is_over() or rng.below(4):
        return
    player = rng.choice(game.players)
    lines = game.ruleset.standing_examples(game.state, player) + ["cancel", "cancel 1"]
    try:
        game.submit(player, [rng.choice(lines)])
    except JudgeError:
        pass


def facts(game: Game, who, state: dict | None = None) -> dict:
    """`who`'s view with the events they were told, without what names its reader, nor the
    standing orders (redrawn apart)."""
    state = game.state if state is None else state
    view = {**game.view(who, report=False, state=state), "events": visible_events(state, who)}
    return {k: v for k, v in view.items() if k not in VIEWER_KEYS + STANDING_KEYS}


def deducible(game: Game) -> tuple[str, ...]:
    """The keys of the game master's view a player can work out though their view may not show
    them (the ruleset's `information.deducible`): not shown is not hidden."""
    return game.ruleset.information.deducible if game.ruleset.information else ()


def hides_something(game: Game, player: str) -> bool:
    """While the game runs, the game master sees something `player` does not (viewer-specific
    keys and what they can deduce aside). After the end what is left may be deducible (the
    last card of a pile)."""
    return not game.is_over() and bool(hidden_keys(game, player) or facts(game, GM)["events"] != facts(game, player)["events"])


def hidden_keys(game: Game, player: str) -> set[str]:
    """The keys of the game master's view that `player`'s view shows otherwise (or not at all)
    and that they cannot deduce, but the events (told as they happened: never redrawn)."""
    gm, mine = facts(game, GM), facts(game, player)
    return {k for k in gm if k != "events" and k not in deducible(game) and gm[k] != mine.get(k)}


def privacy_failures(game: Game, seed: int, cover: dict | None = None) -> list[str]:
    """What goes wrong when each player's hidden facts are redrawn in the current position.
    `cover` gathers the keys of the game master's view hidden from a player ("hidden") and
    those a redraw changed ("redrawn")."""
    rs, out = game.ruleset, []
    gm = facts(game, GM) if cover is not None else {}
    for player in game.players:
        where = f"{rs.name} seed {seed} move {game.move} player {player}"
        before, original = told(game, player), json.dumps(game.state, sort_keys=True)
        changed = False
        for k in range(TRIES):
            rng = Rng(seed * 1000 + game.move * 10 + k)
            other = rs.resample_hidden(game.state, player, rng)
            if json.dumps(game.state, sort_keys=True) != original:
                return [f"{where}: resample_hidden changed the state it was given"]
            rs.check(other)
            after = told(with_state(game, with_standing_redrawn(game, other, player, rng)), player)
            if after["json"] != before["json"]:
                return [f"{where}: the view (and the report made from it) shows a hidden fact at "
                        f"view{key_path(before['view'], after['view'])} (as it is / with {player}'s hidden facts redrawn)"]
            for part in ("status", "standings"):
                if after[part] != before[part]:
                    return [f"{where}: `judge {part}` shows a hidden fact at {part}"
                            f"{key_path(json.loads(before[part]), json.loads(after[part]))}"]
            if other != game.state:
                changed = True
                if cover is not None and not game.is_over():
                    cover["hidden"] |= hidden_keys(game, player)
                    redrawn = facts(game, GM, state=other)
                    cover["redrawn"] |= {key for key in gm if redrawn.get(key) != gm[key]}
                    for key in deducible(game):
                        if redrawn.get(key) != gm.get(key):
                            return [f"{where}: `{key}` is declared deducible (`information.deducible`), but a world "
                                    f"{player} cannot tell from this one has another: at view{key_path({key: gm.get(key)}, {key: redrawn.get(key)})}\n"
                                    f"    ({contract_line('Declared', 'information')})"]
                break
        if hides_something(game, player) and not changed:
            out.append(f"{where}: something is hidden from {player}, but {TRIES} resamples changed nothing")
    return out


def _first_difference(a: str, b: str) -> str:
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return f"  before:    {x}\n  resampled: {y}"
    return "  (one is longer)"


def checked_positions(config, seed: int):
    """A random game (played first: playing is cheap, checking is not), then SPREAD of its
    positions spread evenly from the start to the end, and the first PHASES positions after
    each kind of end of a phase or round (the phase it ends, the phase it begins, whether a
    round ends): every phase the game reaches, whatever the seed and however long the game."""
    game = new_game(*config, seed)
    rng, kept, chosen, ends = Rng(seed + 77), [game.copy()], set(), {}
    while not game.is_over():
        some_standing_orders(game, rng)
        if game.is_over():
            break
        before = game.ruleset.summary(game.state)
        bots.play_one(game, random_bots(game), salt="privacy")
        kept.append(game.copy())
        after = game.ruleset.summary(game.state)
        if after != before:
            kind = (before.get("phase"), after.get("phase"), before.get("round") != after.get("round"))
            ends[kind] = ends.get(kind, 0) + 1
            if ends[kind] <= PHASES:
                chosen.add(len(kept) - 1)
    chosen |= {round(k * (len(kept) - 1) / (SPREAD - 1)) for k in range(SPREAD)}
    return [kept[k] for k in sorted(chosen)]


def unredrawn(cover: dict, name: str) -> list[str]:
    return [f"{name}: the game master's `{key}` is hidden from a player, but resample_hidden never redrew it\n"
            f"    ({contract_line('Hooks every', 'resample_hidden')})" for key in sorted(cover["hidden"] - cover["redrawn"])]


def first_shown(game: Game, seed: int) -> str:
    """Where a failure of the proof at `game`'s position began: the first move at whose start
    the proof fails, and the order that brought the game there (replayed; on a failure only)."""
    from judge.record.history import at_move

    for move in range(1, game.move + 1):
        at = at_move(game, move)
        found = privacy_failures(at, seed)
        if found:
            before = [e for e in game.log if e.split(" ", 1)[0].isdigit() and int(e.split(" ", 1)[0]) < move]
            return f"first shown at the start of move {move}, after the order '{before[-1] if before else '(setup)'}':\n{found[0]}"
    return ""


@pytest.mark.parametrize("config", proof_configs(), ids=config_id)
def test_what_a_player_may_not_know_never_reaches_them(config):
    for seed in range(GAMES):
        cover = {"hidden": set(), "redrawn": set()}
        for game in checked_positions(config, seed):
            failures = privacy_failures(game, seed, cover)
            assert not failures, "\n".join([*failures, first_shown(game, seed)])
        failures = unredrawn(cover, config_id(config))
        assert not failures, "\n".join(failures)


class LeakyMogul(Mogul):
    """Mogul with a report that shows everyone's chips: the proof must catch it."""

    def view(self, state, player):
        return super().view(state, GM if player else None)


def test_the_proof_catches_a_report_that_shows_another_players_chips():
    game = new_game("mogul", 4, {}, 5)
    game.ruleset = LeakyMogul()
    bots.play_one(game, random_bots(game))
    failures = privacy_failures(game, 5)
    assert failures and "hidden fact at view.players[" in failures[0], failures


def test_the_proof_catches_a_report_that_shows_another_players_standing_orders(monkeypatch):
    game = new_game("stock-round", 3, {}, 5)  # nothing else is secret in 18xx
    game.submit("bob", ["decline offers"])
    real = standing.add_to_view
    monkeypatch.setattr(standing, "add_to_view", lambda view, state, player: real(view, state, GM if player else None))
    failures = privacy_failures(game, 5)
    assert failures and "hidden fact at view.standing" in failures[0], failures


def test_a_failure_names_the_order_that_first_showed_the_fact():
    """Mogul whose report shows the next card once a second has sold: the failure names the
    key and the order after which it was first shown."""
    class Telling(Mogul):
        def view(self, state, player):
            view = super().view(state, player)
            return {**view, "next_card": state["deck"][:1]} if state.get("sold_once") else view

        def apply(self, state, order, rng):
            super().apply(state, order, rng)
            if order.verb == "sell":
                state["sold_once"] = True

    game = new_game("mogul", 3, {}, 0)
    game.ruleset = Telling()
    while not game.state.get("sold_once"):
        bots.play_one(game, random_bots(game))
    sold = game.log[-1]
    for _ in range(10):
        bots.play_one(game, random_bots(game))
    failures = privacy_failures(game, 0)
    assert failures and "hidden fact at view.next_card[0]" in failures[0], failures
    assert f"after the order '{sold}'" in first_shown(game, 0)


def test_the_proof_catches_a_resample_that_changes_nothing():
    class Lazy(Mogul):
        def resample_hidden(self, state, player, rng):
            return json.loads(json.dumps(state))

    game = new_game("mogul", 4, {}, 5)
    game.ruleset = Lazy()
    failures = privacy_failures(game, 5)
    assert failures and "resamples changed nothing" in failures[0]


def test_the_proof_catches_a_resample_that_leaves_the_pile_as_it_is():
    """A resample_hidden that redraws the other players' chips but not the order of the pile:
    no view tells, and something changed at every redraw, but the fair-play proofs would never
    try another next card; the cover of the hidden keys tells."""
    class Partial(Mogul):
        def resample_hidden(self, state, player, rng):
            return {**super().resample_hidden(state, player, rng), "deck": list(state["deck"])}

    cover = {"hidden": set(), "redrawn": set()}
    for game in checked_positions(("mogul", 4, {}), 0):
        game.ruleset = Partial()
        assert privacy_failures(game, 0, cover) == []
    missing = unredrawn(cover, "mogul")
    assert missing and "`deck`" in missing[0] and "docs/architecture.md:" in missing[0], missing


class CountingMogul(Mogul):
    """Mogul whose game master's view counts the cards each player has bought, which the
    players' views leave out though anyone can count them from the events."""

    def view(self, state, player):
        view = super().view(state, player)
        if player == GM:
            view["bought"] = {p: sum(1 for e in state["events"] if e["text"].startswith(f"{p} takes")) for p in state["seats"]}
        return view


def proof_of(kind, positions: int = 6) -> list[str]:
    cover, out = {"hidden": set(), "redrawn": set()}, []
    for k, game in enumerate(checked_positions(("mogul", 3, {}), 0)):
        game.ruleset = kind()
        out += privacy_failures(game, 0, cover)
        if out or k == positions:
            break
    return out + unredrawn(cover, "mogul")


def test_what_a_player_can_deduce_is_not_hidden_once_declared():
    """Not shown is not hidden: undeclared, the count reads as a hidden fact no redraw changes
    (the game master's report would have to lose it); declared deducible, the proof passes;
    a key declared deducible that a redraw changes (the pile's order) is refused."""
    from dataclasses import replace

    undeclared = proof_of(CountingMogul)
    assert undeclared and "`bought` is hidden from a player, but resample_hidden never redrew it" in undeclared[0]
    declared = type("Declared", (CountingMogul,), {"information": replace(Mogul.information, deducible=("bought",))})
    assert proof_of(declared) == []
    wrong = type("Wrong", (CountingMogul,), {"information": replace(Mogul.information, deducible=("bought", "deck"))})
    failures = proof_of(wrong)
    assert failures and "`deck` is declared deducible" in failures[0] and "at view.deck" in failures[0], failures


def test_the_proof_compares_every_event_a_player_was_told_not_only_the_reports():
    """A resample_hidden that loses the oldest event the game keeps: the report (the last 12
    events) reads the same, the player's whole information does not."""
    class Forgetful(Mogul):
        def resample_hidden(self, state, player, rng):
            return {**super().resample_hidden(state, player, rng), "events": state["events"][1:]}

    game = new_game("mogul", 4, {}, 5)
    game.ruleset = Forgetful()
    while len(game.state["events"]) <= 14:
        bots.play_one(game, random_bots(game))
    failures = privacy_failures(game, 5)
    assert failures and "shows a hidden fact at view.events[0].text" in failures[0], failures


# ---- the public record ----------------------------------------------------------------------
PUBLIC_META = ("press", "league")  # what [meta] keeps for the record: what every player was told


def hidden_from_the_public(game: Game, seed: int, k: int) -> Game:
    """The game with everything the public may not know redrawn: every player's secrets and the
    undealt cards (resample_hidden for the public), the generator (another seed from here on),
    the setup, the salt, the mail addresses and password hashes, and the arguments of every
    secret order in the log."""
    rs, rng = game.ruleset, Rng(seed * 1000 + game.move * 10 + k)
    other = game.copy()
    other.state = rs.resample_hidden(game.state, None, rng)
    # (whether the generator has a key and which keys the setup has are public: every report
    # says what the game master set, Game.set_by_gm; the seed, key and setup's values are not)
    other.rng = Rng((game.rng.seed + 7919 * (k + 1)) % 2**63, game.rng.draws,
                    f"{rng.below(2**32):032x}" if game.rng.key else "")
    other.setup = {key: [f"card{rng.below(100)}" for _ in range(5)] for key in game.setup}
    other.salt = f"{rng.below(2**32):032x}"
    deadline = game.meta.get("mail", {}).get("deadline", "")  # (public: every player is told it)
    other.meta = {**{key: game.meta[key] for key in PUBLIC_META if key in game.meta},
                  "mail": {"deadline": deadline,
                           "players": {p: {"address": f"{p}{k}@elsewhere.test", "password": f"hash{k}"}
                                       for p in game.players}}}
    for i, entry in enumerate(other.log):
        if standing.is_secret_entry(entry):  # a standing order given or cancelled: another one
            move, player = entry.split(" ", 2)[:2]
            other.log[i] = f"{move} {player} secret: resampled {rng.below(1000)}"
        elif entries.secret_entry(game, entry):  # its secret part redrawn, what the public sees of it kept
            move, player, text = entry.split(" ", 2)
            shown = game.ruleset.public_order(text)
            kept = text.split()[0] if shown is None else shown.removesuffix(f" {SECRET_PART}")
            other.log[i] = f"{move} {player} {kept} Resampled{rng.below(1000)}"
            assert entries.secret_entry(other, other.log[i]), "a redrawn secret order must stay secret"
    if rng.below(2):  # or none at all: that a player holds standing orders is their secret too
        other.log = [e for e in other.log if not standing.is_secret_entry(e)]
    return other


def record_failures(game: Game, seed: int) -> list[str]:
    where = f"{game.ruleset.name} seed {seed} move {game.move}"
    # The record without its rows of moves: both records would be given the same rows, which
    # could tell nothing apart here (the rows are proved apart, test_every_move_...), and
    # making them replays the game and renders every move's report (a second a call).
    rows: list[dict] = []
    before, changed = without_heads(record.dumps(record.build(game, "g", rows=rows)), game), False
    for k in range(TRIES):
        other = hidden_from_the_public(game, seed, k)  # (its salt and secret entries redrawn: its own heads)
        after = without_heads(record.dumps(record.build(other, "g", rows=with_heads(rows, other))), other)
        if after != before:
            import tomllib

            at = key_path(tomllib.loads(before), tomllib.loads(after))
            return [f"{where}: the public record shows a hidden fact at record{at} (as it is / with what the "
                    f"public may not know redrawn):\n{_first_difference(before, after)}"]
        changed = changed or other.state != game.state
        if changed and k:
            break
    if hides_something(game, None) and not changed:
        return [f"{where}: something is hidden from the public, but {TRIES} resamples changed nothing"]
    return []


def public_after(game: Game, player: str, line: str) -> tuple | None:
    """What the public sees once `player`'s order `line` is carried out (its events, then its
    view), and the state then; None once the game is over (the record is complete then). The
    ruleset's own `apply` on a copy of the state, with the same generator: no log, no
    standing orders."""
    rs, state = game.ruleset, marshal.loads(marshal.dumps(game.state))  # (a deep copy, fast)
    rs.apply(state, rs.parse(state, player, line), game.rng.at(game.rng.draws))
    if rs.is_over(state):
        return None
    return visible_events(state, None), lambda: rs.view(state, None), state


def telltale_orders(game: Game, player: str, given: str, seed: int) -> list[str]:
    """Every order `player` could have given instead of `given` that the public record would
    show otherwise (`public_order`, as `information.orders` declares it) although the public
    sees the same after it: the record would tell the public what it may not know. All of
    their legal orders, compared by their public forms first; only those shown otherwise are
    carried out (on a copy of the state), their events compared, then their views. Two
    orders that did the same (the same state after) tell nothing but their wording."""
    rs = game.ruleset
    shown = rs.public_order(given)
    others = [o for o in rs.legal_orders(game.state, player) if rs.public_order(o) != shown]
    seen = public_after(game, player, given) if others else None
    if seen is None:
        return []
    out, view = [], None
    for other in others:
        after = public_after(game, player, other)
        if after is None or after[0] != seen[0] or after[2] == seen[2]:
            continue  # (the public is told apart by the events; or both did the same: `sell` of none, `sell none`)
        view = seen[1]() if view is None else view
        if after[1]() == view:
            out.append(f"{rs.name} seed {seed} move {game.move}: the public record shows {player}'s '{given}' as "
                       f"'{shown}' and '{other}' as '{rs.public_order(other)}', though the public sees the same after "
                       f"either: declare the secret part of '{given.split()[0]}' in `information.orders`\n"
                       f"    ({contract_line('Declared', 'information')})")
    return out


@pytest.mark.parametrize("config", proof_configs(), ids=config_id)
def test_the_public_record_is_the_same_whatever_is_hidden_from_the_public(config):
    for seed in range(GAMES):
        game = new_game(*config, seed)
        failures = record_failures(game, seed)
        assert not failures, "\n".join(failures)
        rng = Rng(seed + 99)
        while not game.is_over():
            some_standing_orders(game, rng)  # their existence and words are secret too
            if game.is_over():
                break
            player = game.awaiting()[0]
            order = bots.choose(game, player, "random", salt="record")
            if len(game.log) % 11 == 5 and player != GM:  # now and then a missed deadline, as `judge tick` logs it (never the GM's)
                conduct.missed(game, player, player, "2026-05-03T12:00:00Z")
            game.submit(player, [order])
            if len(game.log) % EVERY == 0 and not game.is_over():
                failures = record_failures(game, seed)
                assert not failures, "\n".join(failures)


# Cost (0.6 s in all): every order of a whole game of each ruleset against every other legal order
# its player had (rumors: 60 a move), the few whose public form differs carried out on a copy.
@pytest.mark.parametrize("name", [rs.name for rs in ruleset.every()])
def test_the_record_shows_every_order_as_the_public_can_tell_it_from_every_other(name):
    """Every order of a whole game (at the fewest players, where a game is shortest), against
    every other order its player could have given there: not a sample, so that a kind whose
    secret part was not declared (`information.orders`) is caught on every run."""
    game = new_game(name, ruleset.get(name).min_players, {}, 0)
    while not game.is_over():
        player = game.awaiting()[0]
        order = bots.choose(game, player, "random", salt="record")
        failures = telltale_orders(game, player, order, 0)
        assert not failures, "\n".join(failures)
        game.submit(player, [order])


@pytest.mark.parametrize("name", [rs.name for rs in ruleset.every()])
def test_a_finished_record_replays_to_the_final_state_without_the_game_file(name, tmp_path):
    game = new_game(name, 4, {}, 3)
    bots.play_out(game)
    path = tmp_path / "record.toml"
    record.export(game, "g", path)
    text = path.read_text()
    assert f"seed = {game.rng.seed}" in text and game.salt in text and "[meta]" not in text
    again = record.load_game(path)
    assert again.differences(again.replay()) == [] and again.audit() == []
    assert again.state == game.state and again.log == game.log


class ShowingRumors(Rumors):
    """Rumors that forgot to declare its roll-phase orders secret (every kind public): the
    proof must catch it."""

    information = Information(secret=True, reveals=Rumors.information.reveals, orders=dict.fromkeys(Rumors.verbs, WHOLE))


def test_the_proof_catches_a_record_that_shows_secret_orders():
    game = new_game("rumors", 3, {}, 1)
    game.ruleset = ShowingRumors()
    found = []
    while not found and not game.is_over():
        player = game.awaiting()[0]
        order = bots.choose(game, player, "random")
        found = telltale_orders(game, player, order, 1)
        game.submit(player, [order])
    assert found and "the public sees the same after either" in found[0] and "'bag" in found[0], found


def test_the_proof_catches_a_record_that_shows_the_seed(monkeypatch):
    game = new_game("mogul", 3, {}, 1)
    built = record.build
    monkeypatch.setattr(record, "build", lambda g, name, **kw: {**built(g, name, **kw), "seed": g.rng.seed})
    failures = record_failures(game, 1)
    assert failures and "hidden fact" in failures[0]


# ---- every move of the record, and the site -------------------------------------------------
def redrawn_rows(game: Game, seed: int, previous: dict | None = None) -> list[dict]:
    """The record's rows of `game`, each made from its move's position with everything hidden
    from the public redrawn there (hidden_from_the_public); those of `previous` (a record of
    the same game, proved already) kept as the archive keeps them."""
    return moves.build(game, previous, seen=lambda at: moves.at(hidden_from_the_public(at, seed, 0)))


def site_files(rec: dict, out, game: Game) -> dict[str, str]:
    """The site of the record `rec` of `game`, its file's texts with `game`'s heads masked
    (registry.without_heads)."""
    from datetime import datetime, timezone

    from judge.site import build, listing

    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    out.mkdir(parents=True, exist_ok=True)
    write = build.Writer(out)
    shown = listing.Listing(out, write)  # the game's files, and the index and feed that list it
    shown.put(build.write_game(rec, out, now, write, None))
    shown.save()
    return {str(p.relative_to(out)): without_heads(p.read_text(encoding="utf-8"), game)
            for p in sorted(out.rglob("*")) if p.is_file()}


def running_positions(config, seed: int) -> list[Game]:
    """A random game with standing orders now and then: a position near its middle, and the
    last before its end."""
    game = new_game(*config, seed)
    rng, kept, last = Rng(seed + 55), [], game.copy()
    while not game.is_over():
        last = game.copy()
        if len(game.log) // 40 >= len(kept):
            kept.append(last)
        some_standing_orders(game, rng)
        if not game.is_over():
            bots.play_one(game, random_bots(game), salt="moves")
    return [kept[len(kept) // 2], last]


@pytest.mark.parametrize("config", proof_configs(), ids=config_id)
def test_every_move_of_the_record_and_the_site_are_the_same_whatever_is_hidden(config, tmp_path):
    for seed in range(GAMES):
        previous = None  # the middle's record: the last position's rows of the moves before it are its rows,
        for n, game in enumerate(running_positions(config, seed)):  # proved already (as the archive keeps them)
            assert not game.is_over()
            rows, other_rows = moves.build(game, previous), redrawn_rows(game, seed, previous)
            for row, other in zip(rows, other_rows):
                assert row == other, (f"{config_id(config)} seed {seed}: move {row['move']} shows a hidden fact at "
                                      f"row{key_path(row, other)} (as it is / with what the public may not know redrawn)")
            assert len(rows) == len(other_rows) == game.move
            other = hidden_from_the_public(game, seed, 1)
            previous = record.build(game, "g", rows=rows)
            mine = site_files(previous, tmp_path / f"{n}a", game)
            theirs = site_files(record.build(other, "g", rows=with_heads(other_rows, other)), tmp_path / f"{n}b", other)
            assert mine.keys() == theirs.keys()
            for name in mine:
                assert mine[name] == theirs[name], f"{config_id(config)} seed {seed}: the site's {name} shows a hidden fact"


def test_the_proof_catches_a_row_that_shows_the_undealt_cards(monkeypatch):
    game = new_game("mogul", 3, {}, 2)
    bots.play_out(game, random_bots(game), moves=30)
    real = moves.at
    monkeypatch.setattr(moves, "at", lambda g: {**real(g), "prices": [["deck", str(g.state["deck"][:3])]]})
    rows = moves.build(game, seen=moves.at)
    other = moves.build(game, seen=lambda at: moves.at(hidden_from_the_public(at, 2, 0)))
    assert rows != other


def test_the_records_rows_are_the_reports_at_every_move():
    from judge.record.history import at_move

    game = new_game("rumors", 4, {}, 6)
    bots.play_out(game, random_bots(game), moves=120)
    shown = moves.reports(moves.build(game))
    assert [render(at_move(game, m).view(None)) for m in range(1, game.move + 1)] == shown


# ---- the log's head -----------------------------------------------------------------------------
def unkeyed_heads(game: Game) -> list[str]:
    """Where the heads of `game`'s log chain are not keyed by its secret salt: with another salt,
    every head after the start must differ (else anyone could test a guess of a secret entry
    against a head, or see that two logs are alike)."""
    from judge.engine import chain

    mine = chain.after_each_move(game.commitment, game.salt, game.log)
    other = chain.after_each_move(game.commitment, f"{int(game.salt, 16) ^ 1:032x}", game.log)
    return [f"{game.ruleset.name}: the head of move {m} is the same with another salt" for m in mine if mine[m] == other[m]]


@pytest.mark.parametrize("name", [rs.name for rs in ruleset.every()])
def test_the_log_head_is_keyed_by_the_secret_salt_and_binds_every_entry(name):
    from judge.engine import chain

    game = new_game(name, 3, {}, 8)
    bots.play_out(game, random_bots(game), moves=40)
    assert unkeyed_heads(game) == []
    heads = chain.after_each_move(game.commitment, game.salt, game.log)
    k = len(game.log) // 2
    move = int(game.log[k].split(" ", 1)[0])
    forged = game.copy()
    forged.log[k] = game.log[k] + "x"  # any entry changed: every head from its move on differs, none before
    again = chain.after_each_move(forged.commitment, forged.salt, forged.log)
    assert [m for m in heads if heads[m] != again[m]] == [m for m in heads if m >= move]


def test_the_proof_catches_a_head_not_keyed_by_the_salt(monkeypatch):
    from judge.engine import chain

    game = new_game("rumors", 3, {}, 8)
    bots.play_out(game, random_bots(game), moves=20)
    monkeypatch.setattr(chain, "_hmac", lambda salt: lambda message: chain.sha256(message).digest())
    assert unkeyed_heads(game)


def head_told(game: Game) -> list[str]:
    """What the public and every player are told of the position, heads included, unmasked:
    each one's information (registry.information: their view, report and `judge status`) and
    the public record."""
    rows = moves.build(game)
    return [record.dumps(record.build(game, "g", rows=rows))] + [
        json.dumps(information(game, who), sort_keys=True) for who in game.players]


@pytest.mark.parametrize("name", [rs.name for rs in ruleset.every() if rs.standing_starts])
def test_a_secret_entry_of_the_move_under_way_changes_no_head_anyone_is_shown(name):
    """A standing order given (an entry of the log while the move is under way) is seen by its
    player alone: the public record and every other player's information, the log's head in
    `judge status` and the record included, stay byte for byte as they were (a head covering it
    would change, and so tell that someone gave one)."""
    game = new_game(name, 3, {}, 4)
    rng, checked = Rng(40), 0
    while not game.is_over() and checked < 6:
        bots.play_one(game, random_bots(game), salt="head")
        if game.is_over() or rng.below(3):
            continue
        player = rng.choice(game.players)
        examples = game.ruleset.standing_examples(game.state, player)
        if not examples:
            continue
        before, log = head_told(game), len(game.log)
        try:
            game.submit(player, [rng.choice(examples)])
        except JudgeError:
            continue
        if len(game.log) != log + 1 or not standing.is_secret_entry(game.log[-1]):
            continue  # (it carried out an order at once: the move went on)
        after = head_told(game)
        for k, who in enumerate(["the public record"] + game.players):
            if who != player:
                assert after[k] == before[k], f"{name} move {game.move}: {who} can tell that {player} gave a standing order"
        checked += 1
    assert checked, f"{name}: no standing order was given alone"
