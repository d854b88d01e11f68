"""Mogul, the card game: the rulebook's examples, the auction's edge cases, the crash, options."""
from collections import Counter

import pytest

from judge.engine.errors import (
    GameOver,
    IllegalOrder,
    NotYourTurn,
    OrderSyntaxError,
    StaleOrder,
    UnknownPlayer,
    UsageError,
)
from judge.engine.game import Game
from judge.engine.ruleset import get

MOGUL = get("mogul")
START = {"alice": "brown/blue", "bob": "brown/pink", "carol": "brown/green"}


def deck_with(top: list[str], crash_at: int | None = None) -> list[str]:
    """A legal deck for START: `top` first, then the other cards; the crash at index crash_at (or last)."""
    rest = Counter(MOGUL.all_cards())
    rest.subtract(START.values())
    rest.subtract(top)
    rest["crash"] -= 1
    deck = list(top) + sorted(rest.elements())
    deck.insert(len(deck) if crash_at is None else crash_at, "crash")
    return deck


def fixed_game(top, crash_at=None, start="alice", **options) -> Game:
    setup = {"start_player": start, "start_cards": dict(START), "deck": deck_with(top, crash_at)}
    return Game.new("mogul", ["alice", "bob", "carol"], seed=7, setup=setup,
                    options={k: str(v) for k, v in options.items()})


def play(game: Game, *moves: str) -> None:
    for move in moves:
        player, _, text = move.partition(":")
        game.submit(player.strip(), [text.strip()])


def player(game, name):
    return game.state["players"][name]


def test_brown_card_revealed_first_scores_one_for_every_player():
    for n in range(3, 7):
        names = ["alice", "bob", "carol", "dave", "erin", "frank"][:n]
        # a brown first card, fixed through the setup file's deck
        dealt = {p: c for p, c in zip(names, MOGUL.data["start"]["cards"])}
        rest = Counter(MOGUL.all_cards())
        rest.subtract(dealt.values())
        deck = sorted(rest.elements(), key=lambda c: (not c.startswith("brown/"), c == "crash"))
        g = Game.new("mogul", names, seed=n, setup={"start_cards": dealt, "deck": deck})
        assert g.state["revealed"].startswith("brown/")
        assert [player(g, p)["score"] for p in names] == [1] * n


def test_selling_two_brown_shares_when_five_are_held_scores_ten():
    g = fixed_game(["brown/yellow", "brown/pink", "pink/brown"])
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take")  # alice: 2 brown
    play(g, "alice: pass", "bob: bid", "carol: pass", "bob: take")  # bob: 2 brown
    browns = sum(MOGUL.count(pl, "brown") for pl in g.state["players"].values())
    assert browns == 5 and MOGUL.count(player(g, "alice"), "brown") == 2
    assert g.state["revealed"] == "pink/brown"
    play(g, "bob: pass", "carol: pass")  # alice wins without paying, carol is second
    before = player(g, "alice")["score"]
    play(g, "alice: sell 2")
    assert player(g, "alice")["score"] == before + 10
    assert MOGUL.count(player(g, "alice"), "brown") == 0
    assert "pink/brown" in player(g, "carol")["shares"]  # the second had to take the card
    assert sorted(g.state["box"]) == ["brown/blue", "brown/yellow"]  # sold shares leave the game
    assert g.state["start"] == "carol"  # whoever took the card starts the next round


def test_first_player_passes_on_empty_pot_and_everyone_but_one_steps_out():
    g = fixed_game(["brown/yellow"], start="bob")
    play(g, "bob: pass")
    assert player(g, "bob")["chips"] == 6 and g.state["pot"] == 0
    play(g, "carol: pass")
    assert g.state["phase"] == "winner" and g.state["winner"] == "alice" and g.state["second"] == "carol"
    assert player(g, "alice")["chips"] == 6  # the winner pays nothing more
    with pytest.raises(NotYourTurn):
        g.submit("bob", ["bid"])
    with pytest.raises(IllegalOrder, match="the auction is over"):
        g.submit("alice", ["bid"])


def test_a_player_without_chips_must_step_out():
    g = fixed_game(["brown/yellow"])
    play(g, "alice: bid", "bob: bid", "carol: pass")
    for _ in range(5):
        play(g, "alice: bid", "bob: bid")
    assert player(g, "alice")["chips"] == 0 and player(g, "bob")["chips"] == 0
    assert g.view("alice")["orders"] == ["pass"]
    with pytest.raises(IllegalOrder, match="you have no chips"):
        g.submit("alice", ["bid"])
    play(g, "alice: pass")
    assert player(g, "alice")["chips"] == 10
    assert (g.state["winner"], g.state["second"]) == ("bob", "alice")


def test_second_sells_after_winner_takes_and_sell_all():
    g = fixed_game(["green/brown"])
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take")
    assert g.state["phase"] == "second" and g.awaiting() == ["carol"]
    assert g.view("carol")["orders"] == ["sell 0", "sell 1"]
    with pytest.raises(IllegalOrder, match="you must sell"):
        g.submit("carol", ["take"])
    with pytest.raises(IllegalOrder, match="you hold only 1 brown share"):
        g.submit("carol", ["sell 2"])
    g.submit("carol", ["SELL ALL"])
    assert g.log[-1].endswith("carol sell 1")  # logged in canonical form
    assert player(g, "carol")["score"] == 3 and g.state["start"] == "alice"


def test_crash_ends_the_game_at_once_with_chips_and_share_tie_break():
    g = fixed_game(["brown/yellow"], crash_at=1, start="bob")
    play(g, "bob: pass", "carol: pass", "alice: take")
    assert g.is_over() and g.awaiting() == []
    rows = MOGUL.standings(g.state)
    # everyone: 1 premium point + 6 chips = 1 point; alice holds 2 shares and wins the tie
    assert [(r["player"], r["score"], r["rank"]) for r in rows] == [("alice", 2, 1), ("bob", 2, 2), ("carol", 2, 2)]
    assert g.status()["winners"] == ["alice"]
    with pytest.raises(GameOver):
        g.submit("alice", ["bid"])


def test_shared_win_when_points_and_shares_tie():
    g = fixed_game(["brown/yellow"], crash_at=1, start="bob")
    play(g, "bob: bid", "carol: bid", "alice: bid", "bob: bid", "carol: pass", "alice: pass", "bob: take")
    # carol stepped out with the pot of 4, alice with an empty pot; bob bid twice
    chips = {p: player(g, p)["chips"] for p in ("alice", "bob", "carol")}
    assert chips == {"alice": 5, "bob": 4, "carol": 9}
    rows = {r["player"]: r for r in MOGUL.standings(g.state)}
    assert rows["alice"]["score"] == rows["carol"]["score"] == 2 and rows["bob"]["score"] == 1
    assert rows["alice"]["rank"] == rows["carol"]["rank"] == 1
    assert sorted(g.status()["winners"]) == ["alice", "carol"]


def test_crash_is_among_the_last_five_cards_of_the_pile():
    for seed in range(60):
        g = Game.new("mogul", ["a", "b", "c", "d"], seed=seed)
        deck = g.state["deck"]
        assert deck.index("crash") >= len(deck) - 5


def test_fast_start_deals_a_second_share_to_each_of_five_players():
    g = Game.new("mogul", ["a", "b", "c", "d", "e"], seed=3, options={"fast_start": "true"})
    hands = [g.state["players"][p]["shares"] for p in "abcde"]
    assert all(len(h) == 2 and h[0].startswith("brown/") for h in hands)
    assert len(g.state["deck"]) == 32 - 10 - 1
    with pytest.raises(UsageError, match="5 players"):
        Game.new("mogul", ["a", "b", "c", "d"], options={"fast_start": "true"})


def test_chip_credit_turns_two_points_into_two_chips_once_per_auction():
    g = fixed_game(["brown/yellow", "brown/pink", "yellow/blue"], chip_credit=True)
    with pytest.raises(IllegalOrder, match="fewer than 2 points"):
        g.submit("alice", ["credit"])
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take")
    bank = g.state["bank"]
    assert player(g, "alice")["score"] == 3  # 1 + 2 brown premiums
    play(g, "alice: credit")
    assert (player(g, "alice")["score"], player(g, "alice")["chips"], g.state["bank"]) == (1, 7, bank - 2)
    assert g.awaiting() == ["alice"]  # credit does not end the turn
    with pytest.raises(IllegalOrder, match="already"):
        g.submit("alice", ["credit"])
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take")
    assert "credit" not in g.view("alice")["orders"]  # 0 points left after the yellow round
    off = fixed_game(["brown/yellow"])
    with pytest.raises(IllegalOrder, match="chip_credit option"):
        off.submit("alice", ["credit"])


def test_refusals_are_precise_and_quote_the_line():
    g = fixed_game(["brown/yellow"])
    with pytest.raises(OrderSyntaxError, match='"dance".*unknown order'):
        g.submit("alice", ["dance"])
    with pytest.raises(OrderSyntaxError, match="takes nothing"):
        g.submit("alice", ["bid 3"])
    with pytest.raises(NotYourTurn, match="waiting for alice"):
        g.submit("bob", ["bid"])
    with pytest.raises(UnknownPlayer, match="no player 'zed'"):
        g.submit("zed", ["bid"])
    play(g, "alice: bid", "bob: pass", "carol: pass")
    with pytest.raises(OrderSyntaxError, match="'-1' is not a whole number"):
        g.submit("alice", ["sell -1"])
    with pytest.raises(OrderSyntaxError, match="far too large"):
        g.submit("alice", ["sell 99999999999999"])


def test_move_numbers_and_stale_orders():
    g = fixed_game(["brown/yellow"])
    g.submit("alice", ["#1 bid"])
    with pytest.raises(StaleOrder, match="written for move 1, but the game is at move 2"):
        g.submit("bob", ["#1 pass"])
    with pytest.raises(StaleOrder, match="has not come"):
        g.submit("bob", ["#9 pass"])
    g.submit("bob", ["#2 pass"])
    assert g.move == 3


def test_orders_are_all_or_none():
    g = fixed_game(["brown/yellow"])
    before = (dict(g.state["players"]["alice"]), list(g.log), g.move)
    with pytest.raises(OrderSyntaxError):
        g.submit("alice", ["if winner take", "bid 2"])  # the standing order is not given either
    assert (g.state["players"]["alice"], g.log, g.move) == before and "standing" not in g.state
    accepted = g.copy().submit("alice", ["bid", "bid"])  # the second would be bob's turn (or his standing order's)
    assert [str(o) for o in accepted] == ["bid"] and accepted.unjudged == ["bid"]
    assert "which passed the turn to bob" in accepted.not_judged()[0]
    g.submit("alice", "# my orders\nbid   # stay in\n")
    assert g.log == ["1 alice bid"]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_whole_bot_games_account_for_45_chips_and_32_cards_after_every_order(n):
    from judge.engine import bots

    for seed in range(3):
        g = Game.new("mogul", ["alice", "bob", "carol", "dave", "erin", "frank"][:n], seed=seed,
                     options={"chip_credit": str(seed == 1)})
        while not g.is_over():
            bots.play_one(g, {p: "random" for p in g.players})
            MOGUL.check(g.state)  # raises if chips or cards do not add up
            st = g.state
            chips = st["bank"] + st["pot"] + sum(pl["chips"] for pl in st["players"].values())
            revealed = 0 if st["phase"] == "second" else 1  # in "second" the winner holds it
            cards = len(st["deck"]) + revealed + len(st["box"]) + sum(len(pl["shares"]) for pl in st["players"].values())
            assert (chips, cards) == (45, 32)
        assert g.state["revealed"] == "crash"
        assert len(g.log) <= MOGUL.max_moves
        replayed = g.replay()
        assert g.differences(replayed) == [] and replayed.state == g.state


def test_reports_show_own_chips_only_and_never_the_deck():
    g = fixed_game(["brown/yellow"])
    play(g, "alice: bid", "bob: bid")
    from judge.engine.report import render

    alice = render(g.view("alice"))
    assert "You hold 5 chips (secret)" in alice and "[5 chips]" in alice
    assert "[5 chips]" not in render(g.view("bob")).split("You hold")[0]
    assert "chips]" not in render(g.view(None))
    for who in ("alice", "bob", None):
        v = g.view(who)
        assert "deck" not in v
        assert all("chips" not in p for p in v["players"] if p["name"] != who)
    assert "Your orders now" in render(g.view("carol")) and "  bid\n  pass\n" in render(g.view("carol"))
    assert ", ".join(g.state["deck"]) in " ".join(render(g.view("gm")).split())  # the game master sees the pile


def test_setup_file_is_checked():
    with pytest.raises(UsageError, match="not a player"):
        Game.new("mogul", ["a", "b", "c"], setup={"start_player": "zed"})
    with pytest.raises(UsageError, match="not one of the start cards"):
        Game.new("mogul", ["a", "b", "c"], setup={"start_cards": {"a": "green/pink"}})
    with pytest.raises(UsageError, match="exactly the cards not dealt"):
        Game.new("mogul", ["a", "b", "c"], setup={"start_cards": {"a": "brown/blue", "b": "brown/pink", "c": "brown/green"}, "deck": ["crash"]})
    with pytest.raises(UsageError, match="unknown keys"):
        Game.new("mogul", ["a", "b", "c"], setup={"shuffle": True})
    with pytest.raises(UsageError, match="3 to 6 players"):
        Game.new("mogul", ["a", "b"])
    with pytest.raises(UsageError, match="no option 'turbo'"):
        Game.new("mogul", ["a", "b", "c"], options={"turbo": "1"})


# ---- rules re-checked against the rulebook (docs/mogul.md lists each rule and its test) ----

def test_the_published_deck_and_the_setup_of_chips_and_start_cards():
    """31 shares and the crash (RULINGS §1's table), no card sells its own colour, six brown
    start cards; each player starts with 6 of the 45 chips and one start card, the bank keeps
    the rest and the start cards not dealt go into the pile."""
    cards = MOGUL.all_cards()
    shares = [c for c in cards if c != "crash"]
    assert len(shares) == 31 and cards.count("crash") == 1
    by_company = Counter(c.split("/")[0] for c in shares)
    assert by_company == {"brown": 8, "pink": 7, "blue": 6, "green": 5, "yellow": 5}
    assert all(c.split("/")[0] != c.split("/")[1] for c in shares)
    start = MOGUL.data["start"]["cards"]
    assert len(start) == 6 and all(c.startswith("brown/") for c in start)
    for n in range(3, 7):
        names = ["alice", "bob", "carol", "dave", "erin", "frank"][:n]
        g = Game.new("mogul", names, seed=n)
        assert [player(g, p)["chips"] for p in names] == [6] * n
        assert g.state["bank"] == 45 - 6 * n
        dealt = [player(g, p)["shares"][0] for p in names]
        assert not Counter(dealt) - Counter(start)
        in_play = g.state["deck"] + [g.state["revealed"]]
        assert Counter(in_play) == Counter(cards) - Counter(dealt)  # the unused start cards among them


def test_when_the_winner_sells_nothing_the_second_must_take_the_card_and_starts_next():
    g = fixed_game(["yellow/blue", "green/pink"])
    play(g, "alice: bid", "bob: bid", "carol: pass", "alice: pass")  # bob wins, alice is second
    assert (g.state["winner"], g.state["second"]) == ("bob", "alice")
    play(g, "bob: sell 0")  # bob holds no blue share: he chooses to sell, and sells nothing
    assert "yellow/blue" in player(g, "alice")["shares"]  # whoever gets "take" must take the card
    assert g.state["start"] == "alice" and g.awaiting() == ["alice"]
    assert g.state["revealed"] == "green/pink"


def test_chip_credit_needs_two_chips_in_the_bank():
    """Six players leave the bank 45 - 36 = 9 chips: four credits take 8, the fifth is refused."""
    names = ["alice", "bob", "carol", "dave", "erin", "frank"]
    dealt = dict(zip(names, MOGUL.data["start"]["cards"]))
    rest = Counter(MOGUL.all_cards())
    rest.subtract(dealt.values())
    deck = sorted(rest.elements(), key=lambda c: (not c.startswith("brown/"), c == "crash"))
    g = Game.new("mogul", names, seed=1, options={"chip_credit": "true"},
                 setup={"start_player": "alice", "start_cards": dealt, "deck": deck})
    play(g, "alice: bid", *(f"{p}: pass" for p in names[1:]), "alice: take")  # a second brown round
    assert all(player(g, p)["score"] >= 2 for p in names) and g.state["bank"] == 9
    for p in names[:4]:
        play(g, f"{p}: credit", f"{p}: bid")
    assert g.state["bank"] == 1 and g.awaiting() == ["erin"]
    with pytest.raises(IllegalOrder, match="the bank has fewer than 2 chips"):
        g.submit("erin", ["credit"])
    assert "credit" not in g.view("erin")["orders"]
