"""The contract of a ruleset (judge/engine/ruleset.py CONTRACT), checked for every registered
ruleset: what it declares, the hooks it implements, and, in random games, what its hooks give
(every view's keys, a round that never goes back, `verbs` covering every order, what it
declares hidden and what shows it). Each failure names the hook or declaration and its line
in docs/architecture.md, whose checklist of a new ruleset is made from the same declaration.

JUDGE_CONTRACT_GAMES (default 2) sets the random games per ruleset."""
from __future__ import annotations

import importlib.util
import json
import re

import pytest

from judge.engine import bots, ruleset
from judge.engine.game import Game
from judge.engine.paths import find
from judge.engine.ruleset import (CORE_STATE_KEYS, DEFAULT_HOOKS, GENERATOR, GM, HOOKS, PILE, REVEALS, SIMULTANEOUS,
                                  RECORD_KEYS, VIEW_KEYS, WHOLE, Information, Option, Ruleset, checklist)
from judge.engine.simulate import usual_players
from judge.record import moves

from registry import ARCHITECTURE, contract_line, every_name, many, random_bots

GAMES = many("JUDGE_CONTRACT_GAMES", 2)
VIEWS_EVERY = 5  # orders between the positions whose every view is checked
# the groups of CONTRACT, as contract_line finds them in docs/architecture.md
DECLARED, HOOK, DEFAULT, VIEW, PUBLIC, CORE = ("Declared", "Hooks every", "Hooks with a default", "Keys every view",
                                               "Public", "The core's keys")


def test_the_architecture_checklist_is_made_from_the_declared_contract():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    found = re.search(r"<!-- checklist:[^\n]*-->\n(.*?)<!-- /checklist -->", text, re.S)
    assert found, "docs/architecture.md has lost its checklist markers (<!-- checklist: ... --> ... <!-- /checklist -->)"
    assert found[1] == checklist(), ("docs/architecture.md's checklist differs from judge/engine/ruleset.py CONTRACT; "
                                     "between its markers it should read:\n" + checklist())


def test_every_hook_says_who_calls_it():
    for name in HOOKS + DEFAULT_HOOKS:
        assert "Called by:" in " ".join((getattr(Ruleset, name).__doc__ or "").split()), f"Ruleset.{name}: its docstring names no caller"


# ---- what a ruleset declares ------------------------------------------------------------------
def declaration_problems(rs: Ruleset) -> list[str]:
    out = []

    def need(ok, group: str, term: str, what: str) -> None:
        if not ok:
            out.append(f"{rs.name}: `{term}` {what}\n    ({contract_line(group, term)})")

    kind = type(rs)
    need(re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", rs.name), DECLARED, "name", "is not a lower-case name")
    need(importlib.util.find_spec(f"judge.rulesets.{rs.name.replace('-', '_')}") is not None, DECLARED, "name",
         f"names no package judge/rulesets/{rs.name.replace('-', '_')}/")
    need(isinstance(rs.title, str) and rs.title, DECLARED, "title", "is empty")
    need(type(rs.version) is int and rs.version >= 1, DECLARED, "version", "is not a whole number from 1")
    for v in rs.old_versions:
        need(type(v) is int and 1 <= v < rs.version and rs.at_version(v).version == v, DECLARED, "old_versions",
             f"holds {v!r}, which is no older version this ruleset plays")
    need(1 <= rs.min_players <= rs.max_players, DECLARED, "min_players", "is not between 1 and max_players")
    need(all(isinstance(o, Option) for o in rs.options), DECLARED, "min_players", "goes with options that are not Options")
    need(type(rs.max_moves) is int and rs.max_moves > 0, DECLARED, "max_moves", "is not a whole number above 0")
    need(isinstance(rs.verbs, tuple) and rs.verbs and all(re.fullmatch(r"[a-z]+", v) for v in rs.verbs),
         DECLARED, "verbs", "is not a tuple of lower-case words")
    info = rs.information
    need(isinstance(info, Information) and set(info.reveals) <= set(REVEALS), DECLARED, "information",
         f"is {info!r}, not an Information(secret, reveals) with reveals among {', '.join(REVEALS)}")
    if isinstance(info, Information):
        need(PILE not in info.reveals or kind.revealed is not Ruleset.revealed, DEFAULT, "revealed",
             "is not given, but `information` says a shuffled pile is turned in play (PILE)")
        undeclared = [v for v in rs.verbs if v not in info.orders]
        need(not undeclared, DECLARED, "information",
             f"declares no public form of {', '.join(undeclared)} (`orders`: WHOLE, or how many of its first words "
             "the public sees; undeclared, the record shows it as a secret order)")
        odd = {v: k for v, k in info.orders.items() if k != WHOLE and not (type(k) is int and k >= 0)}
        need(not odd, DECLARED, "information", f"declares public forms that are neither WHOLE nor a number of words: {odd}")
    need(isinstance(rs.record_keys, tuple) and set(rs.record_keys) <= set(RECORD_KEYS), DECLARED, "record_keys",
         f"is {rs.record_keys!r}, not a tuple of keys among {', '.join(RECORD_KEYS)}")
    need(isinstance(rs.score_parts, tuple) and all(isinstance(p, str) for p in rs.score_parts), DECLARED,
         "score_parts", "is not a tuple of column names")
    need(bool(rs.standing_starts) == bool(rs.standing_forms), DECLARED, "standing_starts",
         "and `standing_forms` must both be given, or neither")
    if rs.standing_starts:
        for hook in ("standing_parse", "standing_order", "standing_examples"):
            need(getattr(kind, hook) is not getattr(Ruleset, hook), DEFAULT, hook,
                 "is not given, but the ruleset has standing orders (`standing_starts`)")
    if rs.bot_standing_exact or rs.bot_exchanges_a_round:
        need(kind.bot_standing is not Ruleset.bot_standing, DECLARED, "bot_standing_exact",
             "(or `bot_exchanges_a_round`) is declared, but the sensible bot writes no standing orders (`bot_standing`)")
    for hook in HOOKS:
        need(getattr(kind, hook) is not getattr(Ruleset, hook), HOOK, hook,
             "is not implemented" + (": the random bot is not a sensible one" if hook == "bot_order" else ""))
    for term in ("games/<name>.toml", "templates/<name>/report.txt.j2", "templates/<name>/help.txt.j2"):
        path = term.replace("<name>", rs.data_name or rs.name if term.startswith("games") else rs.name)
        need(find(path).is_file(), "Files", term, f"is missing: {path}")
    return out


@pytest.mark.parametrize("name", every_name())
def test_the_ruleset_declares_everything_the_core_reads(name):
    problems = declaration_problems(ruleset.get(name))
    assert not problems, "\n".join(problems)


# ---- what its hooks give, in random games ------------------------------------------------------
def play_problems(rs: Ruleset, seeds=range(GAMES)) -> list[str]:
    """What goes against the contract in random games of `rs` (a registered ruleset, or a
    changed copy of one), the first problem of each kind."""
    out: dict[str, str] = {}
    info = rs.information
    n = usual_players(rs)
    drew = simultaneous = hidden = False
    record_keys: set[str] = set()  # the keys of RECORD_KEYS whose public view gave a row something

    def need(ok, group: str, term: str, what: str) -> None:
        key = f"{group}:{term}"
        if not ok and key not in out:
            out[key] = f"{rs.name} {what}\n    ({contract_line(group, term)})"

    for seed in seeds:
        game = Game.new(rs.name, bots.NAMES[:n], seed=seed)
        game.ruleset = rs
        players, options = list(game.players), dict(game.options)
        kinds = random_bots(game)
        last_round, count = None, 0
        while True:
            state, where = game.state, f"seed {seed} move {game.move}"
            summary = rs.summary(state)
            rnd = summary.get("round") if isinstance(summary, dict) else None
            need(type(rnd) is int and isinstance(summary.get("phase"), str), HOOK, "summary",
                 f"{where}: summary() is {summary!r}, without a whole-number round and a phase")
            if type(rnd) is int:
                need(last_round is None or rnd >= last_round, HOOK, "summary",
                     f"{where}: summary()'s round went back from {last_round} to {rnd}")
                last_round = rnd
            need(_jsonable(summary), HOOK, "summary", f"{where}: summary() is not JSON-able")
            rows = rs.standings(state)
            need(_ranked(rows, players) or (not game.is_over() and sorted(r.get("player") for r in rows) == sorted(players)
                                            and all(isinstance(r.get(k), str) for r in rows for k in ("secret", "public"))),
                 HOOK, "standings", f"{where}: standings() is not every player once, ranked from 1 best first, "
                                    f"with a whole-number score (or, while the game runs, what is secret and public): {rows!r}")
            need(state["seats"] == players and state["options"] == options and ("ended" not in state),
                 CORE, "seats", f"{where}: the state's seats, options or `ended` were changed by the ruleset")
            awaiting = rs.awaiting(state)
            if len([p for p in awaiting if p != GM]) > 1:
                simultaneous = True
            for p in awaiting:
                words = {o.split()[0].lower() for o in rs.legal_orders(state, p)}
                need(words <= set(rs.verbs), DECLARED, "verbs",
                     f"{where}: orders of {p} begin with {', '.join(sorted(words - set(rs.verbs)))}, not among `verbs`")
            if count % VIEWS_EVERY == 0 or game.is_over():
                hidden |= _view_problems(rs, game, where, need)
                public = rs.view(state, None)
                record_keys |= {k for k in RECORD_KEYS if moves.given_by(k, public)}
            if game.is_over():
                break
            count += 1
            draws, move = game.rng.draws, state["move"]
            bots.play_one(game, kinds, salt="contract")
            drew |= game.rng.draws != draws
            need(game.state["move"] in (move, move + 1), CORE, "move", f"{where}: the move went from {move} to {game.state['move']}")
        state = game.state
        need(type(last_round) is int and last_round > 0, HOOK, "summary",
             f"seed {seed}: summary()'s round is {last_round!r} once the game is over, not above 0")
        need(rs.awaiting(state) == [] and rs.winners(state), HOOK, "awaiting",
             f"seed {seed}: once the game is over someone is awaited, or nobody won")
        rows = rs.standings(state)
        need(all(type(r.get("score")) is int for r in rows), HOOK, "standings", f"seed {seed}: a final row has no whole-number score")
        for r in rows:
            parts = [r.get(k) for k in rs.score_parts]
            need(not rs.score_parts or (all(type(x) is int for x in parts) and sum(parts) == r.get("score")),
                 DECLARED, "score_parts", f"seed {seed}: {r.get('player')}'s final {', '.join(rs.score_parts)} "
                                          f"({parts}) do not add up to the score {r.get('score')}")
        need(game.view(None)["standings"] == rows, VIEW, "standings",
             f"seed {seed}: the public view's standings at the end are not the final standings()")
    declared = set(rs.record_keys or ())
    for k in sorted(declared - record_keys):
        need(False, DECLARED, "record_keys", f"declares `{k}`, but its public view never gives the record's rows one "
                                            f"as judge/record/moves.py reads it ({RECORD_KEYS[k]})")
    for k in sorted(record_keys - declared):
        need(False, DECLARED, "record_keys", f"has a public view whose `{k}` the record's rows read, but does not declare it")
    if isinstance(info, Information):
        need(drew <= (GENERATOR in info.reveals), DECLARED, "information",
             "draws from the generator during play, but `information.reveals` has no GENERATOR")
        need(simultaneous <= (SIMULTANEOUS in info.reveals), DECLARED, "information",
             "awaits several players at once, but `information.reveals` has no SIMULTANEOUS")
        need(hidden == info.secret, DECLARED, "information",
             f"says secret={info.secret}, but the views of its random games hide {'something' if hidden else 'nothing'}"
             " from some player while the game runs")
    return list(out.values())


VIEWER_KEYS = ("player", "you", "orders")  # (the parts of a view that name who reads it)


def _view_problems(rs: Ruleset, game: Game, where: str, need) -> bool:
    """Every reader's view: its keys, JSON-able; whether it hides something from a player."""
    state = game.state
    views = {}
    for who in [*game.players, None, GM]:
        v = rs.view(state, who)
        views[who] = v
        missing = [k for k in VIEW_KEYS if k not in v]
        for k in missing:
            need(False, VIEW, k, f"{where}: the view of {who or 'the public'} has no `{k}`")
        need(isinstance(v.get("standings", []), list), VIEW, "standings", f"{where}: the view's standings are not a list")
        need(_jsonable(v), HOOK, "view", f"{where}: the view of {who or 'the public'} is not JSON-able")
    if game.is_over():
        return False
    known = VIEWER_KEYS + (rs.information.deducible if rs.information else ())  # (not shown is not hidden)
    facts = {who: {k: x for k, x in v.items() if k not in known} for who, v in views.items()}
    hides = [p for p in game.players if facts[p] != facts[GM]]
    if not rs.information or rs.information.secret:
        return bool(hides)
    for p in game.players:
        need(rs.resample_hidden(state, p, game.rng.at(0)) == state, HOOK, "resample_hidden",
             f"{where}: changes the state for {p}, though `information` says nothing is secret")
    return bool(hides)


def _ranked(rows: list[dict], players: list[str]) -> bool:
    ranks = [r.get("rank") for r in rows]
    return (sorted(r.get("player") for r in rows) == sorted(players) and all(type(k) is int for k in ranks)
            and ranks == sorted(ranks) and ranks[:1] == [1] and all(type(r.get("score")) is int for r in rows))


def _jsonable(value) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("name", every_name())
def test_random_games_keep_to_the_contract(name):
    problems = play_problems(ruleset.get(name))
    assert not problems, "\n".join(problems)


# ---- the contract test catches what it was written for ------------------------------------------
def mogul_changed(**hooks) -> Ruleset:
    """Mogul with some hooks or declarations replaced, as a careless ruleset might have them."""
    kind = type(ruleset.get("mogul"))
    return type("Careless", (kind,), hooks)()


def test_it_catches_a_summary_whose_round_is_0_at_the_end():
    real = type(ruleset.get("mogul")).summary
    careless = mogul_changed(summary=lambda self, state: {**real(self, state), "round": 0} if self.is_over(state)
                             else real(self, state))
    problems = play_problems(careless, seeds=[0])
    assert any("summary()'s round went back" in p and "docs/architecture.md:" in p and "`summary(state)`" in p
               for p in problems), problems


def test_it_catches_views_and_verbs_and_declarations_that_do_not_fit():
    mogul = ruleset.get("mogul")
    careless = mogul_changed(view=lambda self, state, player: {k: v for k, v in mogul.view(state, player).items()
                                                               if k != "title"},
                             parse=lambda self, state, player, text: mogul.parse(state, player, text),
                             verbs=("bid", "pass"), information=Information(secret=False), revealed=Ruleset.revealed)
    problems = play_problems(careless, seeds=[0])
    for words in ("has no `title`", "orders of", "not among `verbs`", "says secret=False"):
        assert any(words in p for p in problems), (words, problems)
    declared = declaration_problems(mogul_changed(information=Information(secret=True, reveals=(PILE,)),
                                                  revealed=Ruleset.revealed, verbs=()))
    assert any("`revealed` is not given" in p and "docs/architecture.md:" in p for p in declared), declared
    forgot = declaration_problems(mogul_changed(information=Information(True, (PILE,), {"bid": WHOLE, "pass": 1})))
    assert any("declares no public form of take, sell, credit" in p for p in forgot), forgot
    assert any("`verbs` is not a tuple" in p for p in declared), declared


def test_it_names_what_the_view_lacks_of_what_the_record_reads():
    """A ruleset that names its scores otherwise (`points`, not `score`) gets no chart: the
    contract test says its view lacks what it declared."""
    mogul = ruleset.get("mogul")

    def renamed(self, state, player):
        view = mogul.view(state, player)
        view["players"] = [{("points" if k == "score" else k): v for k, v in p.items()} for p in view["players"]]
        return view

    problems = play_problems(mogul_changed(view=renamed), seeds=[0])
    assert any("declares `players`, but its public view never gives" in p for p in problems), problems
    undeclared = play_problems(mogul_changed(record_keys=()), seeds=[0])
    assert any("`players` the record's rows read, but does not declare it" in p for p in undeclared), undeclared


def test_an_order_shows_the_public_what_its_kind_declares_and_no_more():
    info = Information(True, orders={"raise": 2, "pass": WHOLE, "bag": 0})
    shown = {t: ruleset.declared_public(info, t) for t in ("raise 10 2 8", "raise 10", "pass", "bag A B", "peek")}
    assert shown == {"raise 10 2 8": "raise 10 [secret]", "raise 10": "raise 10 [secret]", "pass": "pass",
                     "bag A B": None, "peek": None}  # (how many words are hidden is hidden too; undeclared: secret)


def test_every_core_state_key_is_one_the_core_writes():
    game = Game.new("stock-round", bots.NAMES[:3], seed=1)
    game.submit("bob", ["decline offers"])  # (a standing order)
    game.note("resigned carol")  # an entry of the judge's own (judge/engine/facts.py)
    seen = set(game.state)
    game.submit(GM, ["end by agreement"])
    assert set(CORE_STATE_KEYS) <= seen | set(game.state)
