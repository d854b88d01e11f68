"""What a newcomer reads in a mogul report (issue 27): the public prompt in the third person,
credit offered only when it may be taken, singular after 1, an example that does something."""
from judge.engine.report import render

from test_mogul import fixed_game, play


def test_the_waiting_line_names_the_player_it_waits_for_and_says_no_you():
    g = fixed_game(["green/brown"])  # each holds one brown share (the border colour)
    play(g, "alice: bid", "bob: pass", "carol: pass")
    assert g.ruleset.prompt(g.state, "alice") == "take, or sell alice's 1 brown share"
    for reader in ("bob", None):  # others read the same line
        assert "Waiting for: alice (take, or sell alice's 1 brown share)" in render(g.view(reader))
    play(g, "alice: take")
    assert g.ruleset.prompt(g.state, "carol") == "the winner took the card: sell carol's 1 brown share"


def test_a_winner_holding_several_or_none_to_sell():
    g = fixed_game(["green/brown", "pink/green", "blue/green"])
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take", "carol: sell 0")  # alice: 1 green
    assert g.ruleset.prompt(g.state, "alice") == "bid or pass"
    play(g, "alice: bid", "bob: pass", "carol: pass")
    assert g.ruleset.prompt(g.state, "alice") == "take, or sell alice's 1 green share"
    g = fixed_game(["pink/yellow"])  # nobody holds yellow
    play(g, "alice: bid", "bob: pass", "carol: pass")
    assert g.ruleset.prompt(g.state, "alice") == "take, or sell nothing, as alice holds no yellow shares"


def test_credit_is_offered_only_when_it_may_be_taken():
    g = fixed_game(["green/brown"], chip_credit=True)  # no premiums: nobody has 2 points
    assert g.awaiting() == ["alice"] and g.ruleset.prompt(g.state, "alice") == "bid or pass"
    assert "(bid or pass)" in render(g.view(None))
    g = fixed_game(["brown/green", "brown/yellow"], chip_credit=True)
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take")  # brown pays 1, then 1 more (carol: no green)
    assert g.state["players"]["alice"]["score"] >= 2
    assert g.ruleset.prompt(g.state, "alice") == "bid or pass, or credit"


def test_one_chip_and_one_point_are_singular():
    g = fixed_game(["green/brown", "yellow/green"])
    play(g, "alice: bid", "bob: pass", "carol: pass", "alice: take", "carol: sell 0")
    play(g, "alice: bid", "bob: pass", "carol: pass")  # alice holds the only green share: price 1
    report = render(g.view("alice"))
    assert "N of your 1 green share at 1 point each" in report
    g.state["players"]["alice"]["chips"] = 1  # (a view of a position with one chip)
    report = render(g.view("alice"))
    assert "[1 chip]" in report and "[1 chips]" not in report and "You hold 1 chip (secret)" in report


def test_the_example_is_an_order_that_does_something():
    g = fixed_game(["pink/yellow"])  # nobody holds yellow: selling is selling nothing
    play(g, "alice: bid", "bob: pass", "carol: pass")
    report = render(g.view("alice"))
    assert "  For example: take" in report and "sell 0" in report
    g = fixed_game(["green/brown"])
    play(g, "alice: bid", "bob: pass", "carol: pass")
    assert "  For example: sell 1" in render(g.view("alice"))


def test_standings_say_chip_points_in_words():
    from judge.engine.report import render_standings

    g = fixed_game([], crash_at=0)  # the crash comes first: the game ends with 6 chips each
    text = render_standings(g.ruleset.standings(g.state), g.is_over())
    assert "chip points 1" in text and "chip_points" not in text
