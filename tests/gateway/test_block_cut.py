"""A mail block never peeks past a reveal (issue 23, item 1): once an order of the block turns a
card, rolls dice or passes the turn to another player, every later line of the block (orders,
self-service lines such as history, report, help and press alike) is NOT JUDGED: neither
applied nor answered. And a block refused at a later line answers no history or report: the
answers come only from a block applied whole, computed on the game as it is saved."""
import pytest

from judge.engine import bots
from judge.engine.game import Game
from judge.gateway import inbox
from judge.mail import mailgame, passwords
from judge.store import gamefile
from mailkit import T0, address, flat, make_site, message, reply

PLAYERS = ["alice", "bob", "carol"]


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)


class Table:
    """A mail game on a site with a Maildir outbox, brought to a position by `reach`."""

    def __init__(self, root, ruleset: str, seed: int, reach):
        self.site = make_site(root)
        game = Game.new(ruleset, PLAYERS, seed=seed)
        self.pw = mailgame.enable(game, {p: address(p) for p in PLAYERS}, [], 0, 0, 0, T0)
        reach(game)
        gamefile.create(game, self.site.game_path("g"))
        self.before = self.site.game_path("g").read_bytes()

    def send(self, who: str, *lines: str) -> str:
        body = f"game g\nplayer {who} {self.pw[who]}\n" + "".join(f"{line}\n" for line in lines)
        inbox.handle(message(address(who), body), self.site.cfg, self.site.outbox(), T0)
        return reply(self.site.take(), address(who))

    def game(self) -> Game:
        return self.site.load("g")

    def reset(self) -> None:
        self.site.game_path("g").write_bytes(self.before)


def take_turns_a_card(game: Game) -> bool:
    trial = game.copy()
    trial.submit(trial.awaiting()[0], ["take"])
    return trial.state["round"] != game.state["round"]


def mogul_at_a_revealing_take(game: Game) -> None:
    while not (game.state["phase"] == "winner" and take_turns_a_card(game)):
        bots.play_one(game)


def rumors_at_the_last_bag(game: Game) -> None:
    for p in "bob carol alice alice carol bob".split():
        game.submit(p, ["pass"])
    game.submit("alice", ["bag"])
    game.submit("bob", ["bag"])


def told(answer: str) -> str:
    """What the answer says of the block (the echo and the outcome), before the position."""
    return answer.split("\nmove ")[0]


def test_mogul_take_then_history_does_not_show_the_next_card(tmp_path):
    t = Table(tmp_path, "mogul", 3, mogul_at_a_revealing_take)
    round_now = t.game().state["round"]
    winner = t.game().awaiting()[0]
    answer = t.send(winner, "take", "history", "zzz")
    assert "  OK      take\n" in answer
    for line in ("history", "zzz"):
        assert f'NOT JUDGED "{line}": it comes after "take", which revealed the next card' in answer
    assert f"Round {round_now + 1}:" not in told(answer) and "Moves since" not in answer
    assert flat('Applied up to "take", which revealed the next card;') in flat(answer)
    assert t.game().log[-1].endswith(f"{winner} take")


@pytest.mark.parametrize("service", ["help", "report", "history 1", "press all gg", "rules"])
def test_mogul_take_then_a_self_service_line_then_an_order_is_not_judged(tmp_path, service):
    t = Table(tmp_path, "mogul", 3, mogul_at_a_revealing_take)
    winner = t.game().awaiting()[0]
    answer = t.send(winner, "take", service, "sell 1")
    assert f'NOT JUDGED "{service}"' in answer and 'NOT JUDGED "sell 1"' in answer
    assert "Orders" not in told(answer) and "Your report" not in answer and "Moves since" not in answer
    assert "Press from" not in answer and t.site.take() == []  # (the reports went with the reply)
    assert t.game().log[-1].endswith(f"{winner} take")


def test_a_block_refused_at_its_last_line_answers_nothing_computed_mid_block(tmp_path):
    t = Table(tmp_path, "mogul", 3, mogul_at_a_revealing_take)
    winner = t.game().awaiting()[0]
    # the refused block: `bid`/`pass` before it pass no turn here (winner phase), so history and
    # report would have been computed after the take
    answer = t.send(winner, "history", "report", "take", "zzz")
    assert "Nothing was applied" in answer
    assert "Moves since" not in answer and "Your report at move" not in answer
    assert gamefile.load(t.site.game_path("g")).log == Game.from_dict(gamefile.parse_toml(t.before, "g")).log


def test_answers_come_from_the_game_as_saved(tmp_path):
    t = Table(tmp_path, "mogul", 3, mogul_at_a_revealing_take)
    winner = t.game().awaiting()[0]
    round_now = t.game().state["round"]
    answer = t.send(winner, "history", "take")  # history before the order: answered after it, applied
    assert "All applied." in answer and f"Round {round_now + 1}:" in answer.split("Moves since")[1]


def test_an_order_that_passes_the_turn_cuts_the_block(tmp_path):
    t = Table(tmp_path, "mogul", 3, lambda game: None)
    first = t.game().awaiting()[0]
    answer = t.send(first, "bid", "help")
    assert "  OK      bid\n" in answer and 'NOT JUDGED "help": it comes after "bid", which passed the turn to' in answer
    assert "Orders" not in told(answer)
    assert flat(f'Applied up to "bid", which passed the turn to {t.game().awaiting()[0]};') in flat(answer)


def test_a_rumors_short_that_passes_the_turn_says_so_not_that_it_revealed_something(tmp_path):
    """Issue 37: after `short Banana 2`, which passed the turn, the answer said "Applied up to an
    order that revealed hidden information"; it names the order and what it did."""
    t = Table(tmp_path, "rumors", 4, lambda game: None)
    first = t.game().awaiting()[0]
    company = next(o.split()[1] for o in t.game().view(first)["orders"] if o.startswith("short") and o.endswith(" 2"))
    answer = t.send(first, f"short {company} 2", "pass")
    following = t.game().awaiting()[0]
    assert following != first
    assert flat(f'Applied up to "short {company} 2", which passed the turn to {following};') in flat(answer)
    assert "revealed" not in flat(answer).split("Applied up to")[1].split(";")[0]


def test_a_block_without_a_cut_answers_every_line_once_applied(tmp_path):
    t = Table(tmp_path, "mogul", 3, lambda game: None)
    first = t.game().awaiting()[0]
    answer = t.send(first, "help", "history", "bid")
    assert "OK      help\n  OK      history\n  OK      bid\n" in answer and "All applied." in answer
    assert "Orders" in answer and "Moves since move 1" in answer and "bids (pot 1)" in answer


def test_rumors_the_last_bag_then_history_does_not_show_the_roll(tmp_path):
    t = Table(tmp_path, "rumors", 5, rumors_at_the_last_bag)
    for lines in (["bag", "history", "zzz"], ["bag", "history", "bag Edison"], ["bag", "report", "dice Edison 1 2 3"]):
        t.reset()
        answer = t.send("carol", *lines)
        assert "  OK      bag\n" in answer
        assert all(f'NOT JUDGED "{line}": it comes after "bag", which' in answer for line in lines[1:])
        assert "dice show" not in flat(answer) and "Moves since" not in answer and "Your report" not in answer
        assert t.game().log[-1].endswith("carol bag")
    t.reset()
    answer = t.send("carol", "history", "bag Edison", "zzz")
    assert "Nothing was applied" in answer and "Moves since" not in answer
