"""Fair play, proved over the whole registry: the judge's answer to a batch of orders (accepted
or refused, the exact text, the exit code, the lines left unjudged) depends only on what the
player could see before sending it. At positions of random games, for every player and for
batches of 1-3 lines (their legal orders and plausible wrong ones), everything the player may
not know is redrawn, the generator's future draws included (another seed from here on), and
the other players' standing orders, and the answer must stay byte for byte the same. The
random games' players give random standing orders, and the batches hold standing commands.
Besides, every line of the vocabulary (every order any awaited player could give so far) is
judged alone for every awaited player, as `parse` judges it, in each world: a refusal that
tells a hidden fact is found whatever batches were drawn.

And no batch goes on past an order that showed its player something hidden, whatever the
ruleset's `revealed` says and whether the generator drew or not: after each line of a batch
but the last, the player's view (with every event they were told, the standings and the
summary) is compared between those worlds; where it differs, that line showed them something,
and the judge must have left the lines after it unjudged. The proof needs nothing of the
ruleset for this but its views: a ruleset that turns a card nobody had seen without saying so
in `revealed` fails here even when no later line's answer depends on the card.

Every player count a ruleset allows is played on every run, with its default options, and each
other option set at one count (registry.proof_configs); the positions are the first ENDS
before each kind of end of a phase or round and every EVERY-th (registry.positions).

JUDGE_FAIR_GAMES (default 1) sets the games per ruleset, player count and option set."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from judge.engine import bots
from judge.store import gamefile
from judge.cli import NOT_JUDGED_EXIT, app
from judge.engine.errors import IllegalOrder, JudgeError
from judge.engine.game import Game
from judge.engine.rng import Rng
from judge.rulesets.mogul.rules import Mogul

from mailkit import flat
from registry import config_id, many, new_game, positions, proof_configs, random_bots, redrawn, sees

GAMES = many("JUDGE_FAIR_GAMES", 1)
EVERY = 23  # orders between the positions checked (registry.positions)
ENDS = 2  # the positions checked before each kind of end of a phase or round (registry.positions)
BATCHES = 4  # batches tried per player and position
TRIES = 2  # redraws of the hidden facts per batch


def answer(game: Game, player: str, lines: list[str]) -> tuple:
    """What the judge tells `player` about the batch `lines` (on a copy: nothing changes)."""
    try:
        accepted = game.copy().submit(player, lines)
    except JudgeError as e:
        return ("refused", str(e), e.exit_code)
    return ("accepted", [str(o) for o in accepted], accepted.not_judged())


def batches(game: Game, player: str, vocabulary: list[str], rng: Rng, edge: bool) -> list[list[str]]:
    """Batches a player might send: legal orders first, then whatever they guess follows. At an
    edge (the next order ends a round or a phase) every awaited player tries several of their
    orders, each followed by guesses: what would be legal after it, and other plausible lines."""
    out = []
    for _ in range(BATCHES):
        trial, lines = game.copy(), []
        for _ in range(1 + rng.below(3)):
            legal = trial.view(player)["orders"] if not trial.is_over() else []
            line = rng.choice(legal) if legal and rng.below(4) else rng.choice(vocabulary)
            lines.append(line)
            try:
                trial.submit(player, [line])
            except JudgeError:
                break
        out.append(lines)
    if edge and player in game.awaiting():
        firsts = game.view(player)["orders"]
        for first in (firsts if len(firsts) <= 3 else [rng.choice(firsts) for _ in range(3)]):
            trial = game.copy()
            trial.submit(player, [first])
            after = trial.view(player)["orders"] if not trial.is_over() else []
            guesses = [rng.choice(after) for _ in range(min(4, len(after)))]
            guesses += [rng.choice(vocabulary) for _ in range(4)]
            out += [[first, guess] for guess in guesses] + [[first, *guesses[:2]]]
    return out


def unfair_answers(game: Game, vocabulary: list[str], seed: int, edge: bool = False) -> list[str]:
    out = []
    rng = Rng(seed * 7 + game.move)
    for player in game.players:
        others = [redrawn(game, player, seed * 100 + game.move + k) for k in range(TRIES)]
        if player in game.awaiting():
            for line in vocabulary:  # every line alone, as `parse` judges it, in one other world: no
                told = judged(game, player, line)  # refusal left to chance
                if judged(others[0], player, line) != told:
                    return [f"{game.ruleset.name} seed {seed} move {game.move}: {player} sends '{line}':\n"
                            f"  the line that tells: '{line}'\n  judged {told}\n"
                            f"  but with other hidden facts {judged(others[0], player, line)}"]
        for lines in batches(game, player, vocabulary, rng, edge):
            where = f"{game.ruleset.name} seed {seed} move {game.move}: {player} sends {lines}"
            told = answer(game, player, lines)
            for other_game in others:
                other = answer(other_game, player, lines)
                if other != told:
                    return [f"{where}:\n  {blamed(game, other_game, player, lines)}\n  answered {told}\n"
                            f"  but with other hidden facts {other}"]
            past = looked_past(game, others, player, lines)
            if past:
                return [f"{where}:\n  {past}"]
    return out


def judged(game: Game, player: str, line: str):
    """What the ruleset's `parse` makes of `line` of `player` now: the order, or the refusal
    (its kind and words). Cheap: no copy, nothing carried out."""
    try:
        return str(game.ruleset.parse(game.state, player, line))
    except JudgeError as e:
        return (type(e).__name__, str(e))


def blamed(game: Game, other: Game, player: str, lines: list[str]) -> str:
    """The line of a batch whose answer tells the hidden facts apart: the first whose batch up
    to it is answered differently in `game` and `other` (the lines before it are answered the
    same in both worlds)."""
    for i in range(1, len(lines) + 1):
        if answer(game, player, lines[:i]) != answer(other, player, lines[:i]):
            return f"the line that tells: '{lines[i - 1]}' (line {i}; the lines before it are answered alike)"
    return "no line alone tells: the batch as a whole"


def looked_past(game: Game, others: list[Game], player: str, lines: list[str]) -> str:
    """Where the judge went on judging `lines` past an order that showed `player` something
    hidden: after it their view differs between `game` and one of `others` (worlds that were
    the same to them before the batch). "" when the batch is cut or refused first."""
    for i in range(1, len(lines)):
        real = game.copy()
        try:
            accepted = real.submit(player, lines[:i], more=True)  # (more: its last order is watched too)
        except JudgeError:
            return ""
        if accepted.revealed:
            return ""
        seen = sees(real, player)
        for other in others:
            trial = other.copy()
            try:
                trial.submit(player, lines[:i], more=True)
            except JudgeError:
                continue  # (then the whole batch's answers differ: the comparison of answers tells)
            if sees(trial, player) != seen:
                return (f"'{lines[i - 1]}' showed {player} something hidden (their view after it differs with "
                        f"other hidden facts), but the judge went on to judge '{lines[i]}'")
    return ""


# Cost: every player's batches at the first ENDS positions before each kind of end of a phase
# or round of a whole random game, at every player count, each answered in three worlds and
# cut line by line; the positions are what the proof is about.
@pytest.mark.parametrize("config", proof_configs(), ids=config_id)
def test_no_answer_depends_on_what_the_player_may_not_know(config):
    for seed in range(GAMES):
        for game, vocabulary, edge in positions(config, seed, EVERY, repeats=ENDS):
            failures = unfair_answers(game, sorted(vocabulary), seed, edge)
            assert not failures, "\n".join(failures)


class PeekingMogul(Mogul):
    """Mogul without the cut after a revealed card (its pile is shuffled at setup: no draw when a
    card turns): the proof must catch it."""

    def revealed(self, before, after):
        return ""


def test_the_proof_catches_a_batch_that_looks_past_a_card():
    caught = []
    for seed in range(40):
        game = new_game("mogul", 4, {"chip_credit": True}, seed)
        game.ruleset = PeekingMogul()
        vocabulary = ["take", "credit", "bid", "pass", "sell 0", "sell 1"]
        while not game.is_over() and not caught:
            if game.state["phase"] == "winner":
                winner = game.awaiting()[0]
                told = answer(game, winner, ["take", "bid"])
                for k in range(6):
                    if answer(redrawn(game, winner, k), winner, ["take", "bid"]) != told:
                        caught.append(seed)
                        break
            bots.play_one(game, random_bots(game), salt="peek")
        if caught:
            break
    assert caught, "a ruleset that judges orders past a revealed card went unnoticed"
    del vocabulary


def test_a_failure_blames_the_line_that_tells():
    """A refusal that names another player's chips, sent after a line accepted: the failure
    blames the refused line, not the first of the batch."""
    class Telling(Mogul):
        def parse(self, state, player, text):
            if text == "peek":
                others = {p: state["players"][p]["chips"] for p in state["seats"] if p != player}
                raise IllegalOrder(f"no such order; the others hold {others}", text)
            return super().parse(state, player, text)

    game = new_game("mogul", 3, {}, 0)
    game.ruleset = Telling()
    bots.play_out(game, random_bots(game), moves=20)  # (the chips differ by now)
    player = game.awaiting()[0]
    found = unfair_answers_of(game, player, ["standing", "peek"])  # (a standing command keeps the turn)
    assert "the line that tells: 'peek' (line 2" in found, found


def unfair_answers_of(game: Game, player: str, lines: list[str]) -> str:
    told = answer(game, player, lines)
    for k in range(6):
        other = redrawn(game, player, k)
        if answer(other, player, lines) != told:
            return blamed(game, other, player, lines)
    return ""


def test_the_proof_catches_a_batch_that_goes_on_past_a_card_whatever_its_answer():
    """`take, pass` with the card turned unsaid: `pass` is legal whatever the card, so the
    answers are the same in every world, but the winner's view after `take` is not."""
    caught = []
    for seed in range(40):
        game = new_game("mogul", 4, {}, seed)
        game.ruleset = PeekingMogul()
        while not game.is_over() and not caught:
            if game.state["phase"] == "winner":
                winner, batch = game.awaiting()[0], ["take", "pass"]
                others = [redrawn(game, winner, k) for k in range(TRIES)]
                told = answer(game, winner, batch)
                if all(answer(other, winner, batch) == told for other in others):
                    caught += [past for past in [looked_past(game, others, winner, batch)] if past]
            bots.play_one(game, random_bots(game), salt="peek")
        if caught:
            break
    assert caught and "'take' showed" in caught[0] and "went on to judge 'pass'" in caught[0], caught


# ---- the three reproductions of the issue, through the command line -----------------------
def judge(*args: str):
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def rumors_at_last_bag(tmp_path):
    """`judge new rumors g.toml -p a -p b -p c --seed 5`; `b c a a c b` each pass; a, b bag."""
    path = str(tmp_path / "g.toml")
    assert judge("new", "rumors", path, "-p", "a", "-p", "b", "-p", "c", "--seed", "5")[0] == 0
    for p in "b c a a c b".split():
        assert judge("order", path, "--as", p, "pass")[0] == 0, p
    for p in "ab":
        assert judge("order", path, "--as", p, "bag")[0] == 0, p
    return path


def test_rumors_a_refused_line_after_the_last_bag_does_not_show_the_roll(tmp_path):
    path = rumors_at_last_bag(tmp_path)
    before = (tmp_path / "g.toml").read_bytes()
    outputs = []
    for bag, then in [("bag", "dice Edison 1 2 3 4 5 6"), ("bag Edison", "dice Edison 1 2 3 4 5 6"),
                      ("bag", "buy Gazillioon 5")]:
        (tmp_path / "g.toml").write_bytes(before)
        code, out = judge("order", path, "--as", "c", bag, then)
        assert code == NOT_JUDGED_EXIT, out
        told = out.split("what happened:")[0].split("move ")[0]  # what is said of the batch; then what it did
        assert f'not judged "{then}"' in flat(told) and "dice show" not in flat(told) and "$" not in told
        outputs.append(told.replace(f"ok: {bag.lower()}", "ok: BAG"))
    assert flat(outputs[0]) == flat(outputs[2].replace("buy Gazillioon 5", "dice Edison 1 2 3 4 5 6"))  # (wrapped)
    game = gamefile.load(path)
    assert game.state["phase"] != "roll" and game.log[-1].endswith("c bag")


def test_rumors_the_mail_reply_to_a_batch_past_the_roll_does_not_show_it(tmp_path):
    path = rumors_at_last_bag(tmp_path)
    game = gamefile.load(path)
    told = answer(game, "c", ["bag", "dice Edison 1 2 3 4 5 6"])
    assert told[0] == "accepted" and told[1] == ["bag"] and "ended the roll phase" in told[2][0]
    for k in range(5):
        assert answer(redrawn(game, "c", k), "c", ["bag", "dice Edison 1 2 3 4 5 6"]) == told


def test_mogul_take_then_credit_is_not_judged_against_the_next_card(tmp_path):
    path = str(tmp_path / "m.toml")
    assert judge("new", "mogul", path, "-p", "a", "-p", "b", "-p", "c", "--seed", "3", "-o", "chip_credit=true")[0] == 0
    game = gamefile.load(path)

    def take_turns_the_card():  # the second holds no share to sell: `take` ends the round
        trial = game.copy()
        trial.submit(trial.awaiting()[0], ["take"])
        return trial.state["round"] != game.state["round"]

    while not (game.state["phase"] == "winner" and take_turns_the_card()):
        bots.play_one(game)
    gamefile.save(game, path)
    winner = game.awaiting()[0]
    before = (tmp_path / "m.toml").read_bytes()
    code, out = judge("order", path, "--as", winner, "take", "credit")
    assert code == NOT_JUDGED_EXIT, out
    assert out.startswith("ok: take\nnot judged \"credit\": it comes after \"take\", which revealed the next card")
    game = gamefile.load(path)
    assert game.log[-1].endswith(f"{winner} take") and (tmp_path / "m.toml").read_bytes() != before


def test_the_mail_reply_marks_the_lines_after_the_roll_not_judged(tmp_path):
    from judge.gateway import inbox as gateway
    from judge.mail import mailgame
    from mailkit import T0, address, make_site, message, reply

    site = make_site(tmp_path)
    game = Game.new("rumors", ["a", "b", "c"], seed=5)
    passwords = mailgame.enable(game, {p: address(p) for p in game.players}, [], 0, 0, 0, T0)
    for p in "b c a a c b".split():
        game.submit(p, ["pass"])
    game.submit("a", ["bag"])
    game.submit("b", ["bag"])
    gamefile.create(game, site.game_path("r"))
    body = f"game r\nplayer c {passwords['c']}\nbag\ndice Edison 1 2 3 4 5 6\n"
    gateway.handle(message(address("c"), body), site.cfg, site.outbox(), T0)
    answer = reply(site.take(), address("c"))
    told = answer.split("move ")[0]
    assert "OK      bag" in told and 'NOT JUDGED "dice Edison 1 2 3 4 5 6": it comes after "bag"' in told
    assert flat('Applied up to "bag", which') in flat(answer)
    assert "Edison's dice show" not in flat(answer)
    assert site.load("r").log[-1].endswith("c bag")
