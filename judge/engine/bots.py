"""Built-in bots. A bot sees only its own player's view, never the state."""
from __future__ import annotations

from judge.engine.rng import Rng
from judge.engine.standing import is_secret_entry

KINDS = ("sensible", "random")
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]  # the seats of bot games


def bot_rng(game, player: str, salt: str = "") -> Rng:
    """A generator of the bot's own, so a bot never draws from the game's generator; keyed
    like every draw of the game, by its seed and its secret key (a game made with --seed has
    no key, and its bots draw as they always did)."""
    digest = game.rng.digest(f"bot:{game.rng.seed}:{game.move}:{player}:{salt}".encode(), 7)
    return Rng(int.from_bytes(digest, "big"), key=game.rng.key)


def choose(game, player: str, kind: str = "sensible", salt: str = "") -> str:
    view = game.view(player, report=False)  # the grammar of orders and the events are for people
    rng = bot_rng(game, player, salt)
    if kind == "random":
        return rng.choice(view["orders"])
    return game.ruleset.bot_order(view, rng)


def play_one(game, kinds: dict | None = None, salt: str = "") -> tuple[str, str]:
    """Let the first awaited player's bot give one order; return (player, order)."""
    player = game.awaiting()[0]
    order = choose(game, player, (kinds or {}).get(player, "sensible"), salt)
    game.submit(player, [order])
    return player, order


def play_out(game, kinds: dict | None = None, salt: str = "", on_move=None, moves: int | None = None,
             standing: bool = False, people: frozenset = frozenset()) -> int:
    """Play bots until the game ends (or the ruleset's move bound is passed: a bug), or until
    `moves` orders are logged, or until the judge waits for `people` alone (`judge play --me`:
    their seats are never played by a bot; an awaited bot plays before them). Return
    the exchanges the game took by mail: a new one whenever the awaited players change (a
    simultaneous phase counts once), or the judge waits again after standing orders moved on. With `standing`, sensible bots
    write their policy for each round as standing orders when it starts (one exchange for
    all of them), and with each order they give the standing orders that follow from it."""
    rs, limit = game.ruleset, game.ruleset.max_moves
    exchanges, asked, public, tried = 0, set(), 0, None
    while not game.is_over() and (moves is None or len(game.log) < moves):
        if public > limit:
            raise RuntimeError(f"{rs.name}: no end after {limit} orders (seed {game.rng.seed})")
        if standing and tried != (key := (rs.standing_round(game.state), rs.summary(game.state).get("phase"))):
            tried = key
            written = 0
            for p in game.players:
                if (kinds or {}).get(p, "sensible") == "sensible" and not game.is_over():
                    lines = rs.bot_standing(game.view(p), bot_rng(game, p, salt + "standing"))
                    if lines:
                        public += new_public(game, lambda: game.submit(p, lines))
                        written += 1
            if written:
                exchanges, asked = exchanges + 1, set()
            continue
        awaiting = set(game.awaiting())
        if awaiting and awaiting <= people:  # (none awaited in a running game: the next line says so)
            break
        if not awaiting <= asked:  # the awaited players changed (a simultaneous phase shrinks)
            exchanges += 1
        asked = awaiting
        player = next(p for p in game.awaiting() if p not in people)
        kind = (kinds or {}).get(player, "sensible")
        order = choose(game, player, kind, salt)
        lines = [order]
        if standing and kind == "sensible":
            lines += rs.bot_standing(game.view(player), bot_rng(game, player, salt + "standing"), then=order)
        accepted = []
        added = new_public(game, lambda: accepted.extend(game.submit(player, lines)))
        public += added
        if added > sum(1 for o in accepted if hasattr(o, "args")):
            asked = set()  # standing orders carried the game on: whoever it waits for now is asked anew
        if on_move:
            on_move(player, order)
    return exchanges


def new_public(game, submit) -> int:
    """Submit, and count the public log entries it added (orders typed or carried out)."""
    before = len(game.log)
    submit()
    return sum(1 for e in game.log[before:] if not is_secret_entry(e))
