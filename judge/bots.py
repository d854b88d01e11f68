"""Built-in bots. A bot sees only its own player's view, never the state."""
from __future__ import annotations

from .rng import Rng, blake2b

KINDS = ("sensible", "random")
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]  # the seats of bot games


def bot_rng(game, player: str, salt: str = "") -> Rng:
    """A generator of the bot's own, so a bot never draws from the game's generator."""
    digest = blake2b(f"bot:{game.rng.seed}:{game.move}:{player}:{salt}".encode(), digest_size=7).digest()
    return Rng(int.from_bytes(digest, "big"))


def choose(game, player: str, kind: str = "sensible", salt: str = "") -> str:
    view = game.view(player, forms=False)  # the report's grammar is for people
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


def play_out(game, kinds: dict | None = None, salt: str = "", on_move=None, moves: int | None = None) -> None:
    """Play bots until the game ends (or the ruleset's move bound is passed: a bug), or
    until `moves` orders are logged."""
    limit = game.ruleset.max_moves
    while not game.is_over() and (moves is None or len(game.log) < moves):
        if len(game.log) > limit:
            raise RuntimeError(f"{game.ruleset.name}: no end after {limit} orders (seed {game.rng.seed})")
        player, order = play_one(game, kinds, salt)
        if on_move:
            on_move(player, order)
