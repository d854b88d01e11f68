"""The game master's corrections, kept as a trace in the game file's [[corrections]]:

- a rollback returns the game to an earlier move; the orders it undid stay in the trace;
- a replacement hands a seat to a new player. The seat keeps its name in the state, the log
  and the commitment (so replay and `judge verify` are untouched); the trace records who
  plays it now and since which move. In a mail game the seat's address and password in
  [meta] change as well (they never reach the trace).

Both appear in the public record (secret undone orders as "secret order").
"""
from __future__ import annotations

import re
from datetime import datetime

from judge.engine.errors import UsageError
from judge.engine.game import NAME, Game, LogEndsEarly
from judge.engine.ruleset import GM

_MOVE = re.compile(r"^(\d+) ")


def _move_of(entry: str) -> int:
    m = _MOVE.match(entry)
    return int(m[1]) if m else 0


def check_move(game: Game, move: int) -> None:
    if not 1 <= move <= game.move:
        raise UsageError(f"move {move} is not in this game (moves 1 to {game.move})")


def before_move(game: Game, move: int) -> Game:
    """The game as it stood at the start of `move`, replayed from its log, to go on from there:
    refused for a move that a standing order played the moment it began (replayed, the game
    would play it again at once)."""
    check_move(game, move)
    past = game.copy()
    past.log = [e for e in game.log if _move_of(e) < move]
    try:
        return past.replay()
    except LogEndsEarly:
        raise UsageError(f"move {move} was played by a standing order the moment it began: roll back to "
                         f"move {move - 1} or earlier, or to a later move") from None


def rollback(game: Game, move: int, reason: str, when: str) -> tuple[Game, list[str]]:
    """The game returned to the start of `move`, with the undone orders in its trace."""
    if not reason.strip():
        raise UsageError("give the reason for the rollback (--reason TEXT): it is shown to every player")
    if game.is_over() and game.commitment:
        raise UsageError("the game is over and its seed is revealed: played again from an earlier move, "
                         "every card and roll to come would be known in advance")
    past = before_move(game, move)
    undone = game.log[len(past.log):]
    if not undone:
        raise UsageError(f"nothing to undo: no order was given at move {move} or after")
    past.corrections.append({"kind": "rollback", "time": when, "from_move": game.move, "to_move": move,
                             "reason": reason.strip(), "undone": undone})
    return past, undone


def holder(game: Game, seat: str) -> str:
    """Who plays `seat` now."""
    for c in reversed(game.corrections):
        if c["kind"] == "replace" and c["seat"] == seat:
            return c["player"]
    return seat


def seat_of(game: Game, name: str) -> str:
    """The seat called `name`, or played now by `name` (any case)."""
    for seat in game.players:
        if name.lower() in (seat.lower(), holder(game, seat).lower()):
            return seat
    raise UsageError(f"no player '{name}' in this game (seats: {', '.join(game.players)})")


UNNAMED = "a new player"


def replace(game: Game, old: str, new: str, when: str, reason: str = "", address: str | None = None) -> tuple[str, str]:
    """Hand the seat of `old` to the new player `new` ("": not named). In a mail game the seat
    gets `address` and a new password. Return the seat and the password ("" outside mail)."""
    from judge.mail.mailgame import MailGame, is_address
    from judge.mail.passwords import hash_password, new_password

    mail = MailGame(game, "")
    if mail.enabled != (address is not None):
        raise UsageError("a mail game needs --address for the new player" if mail.enabled else "--address is for mail games")
    if address is not None and not is_address(address):
        raise UsageError(f"'{address}' is not a mail address (write local@example.org)")
    seat = seat_of(game, old)
    if game.is_over():
        raise UsageError("the game has ended: there is no seat to hand on")
    new = new or UNNAMED
    if new != UNNAMED and (not NAME.match(new) or new.lower() == GM):
        raise UsageError(f"player name '{new}' must start with a letter and hold only letters, digits, - and _ "
                         "(at most 20), and not be gm")
    taken = {n.lower() for s in game.players if s != seat for n in (s, holder(game, s))}
    if new.lower() in taken or new.lower() == holder(game, seat).lower():
        raise UsageError(f"'{new}' already plays in this game")
    game.corrections.append({"kind": "replace", "time": when, "seat": seat, "player": new,
                             "previous": holder(game, seat), "since": game.move,
                             **({"reason": reason.strip()} if reason.strip() else {})})
    if not mail.enabled:
        return seat, ""
    password = new_password()
    mail.m["players"][seat] = {"address": address.lower(), "password": hash_password(password)}
    return seat, password


def seats(game: Game) -> dict:
    """The seats played by someone else than their first player: who and since which move."""
    out = {}
    for c in game.corrections:
        if c["kind"] == "replace":
            out[c["seat"]] = {"player": c["player"], "since": c["since"]}
    return out


def public(game: Game) -> list[dict]:
    """The trace as the public may read it while the game runs."""
    from judge.record.public import public_entries

    if game.is_over():
        return game.corrections
    return [{**c, "undone": public_entries(game, c["undone"])} if "undone" in c else c for c in game.corrections]


def describe(c: dict) -> str:
    """One public line for a correction (mails, commit messages)."""
    if c["kind"] == "rollback":
        return f"the game master rolled the game back from move {c['from_move']} to move {c['to_move']}: {c['reason']}"
    if c["kind"] == "replace":
        return f"{c['player']} plays the seat {c['seat']} from move {c['since']} (was {c['previous']})"
    return f"correction: {c['kind']}"


# ---- a correction from the shell: lock, save, mail, archive ------------------------------------
def rollback_file(path, cfg, now: datetime, move: int, reason: str) -> tuple[Game, list[str], str]:
    """`rollback` on the game file at `path`; (the game, the undone orders, an archive warning)."""
    undone = []

    def correct(game, when):
        past, gone = rollback(game, move, reason, when)
        undone.extend(gone)
        shown = public(past)[-1]["undone"]
        return past, f"The game master has rolled the game back to move {move}: {reason.strip()}. Undone: {', '.join(shown)}."

    game, warning = _save_correction(path, cfg, now, correct)
    return game, undone, warning


def replace_file(path, cfg, now: datetime, old: str, new: str, address: str | None,
                 reason: str = "") -> tuple[Game, str, str, str]:
    """`replace` on the game file at `path`; (the game, the seat, the password, an archive warning).
    In a mail game the new player is welcomed by mail."""
    handed = {}

    def correct(game, when):
        handed["seat"], handed["password"] = replace(game, old, new, when, reason, address)
        return game, f"The game master has handed the seat {handed['seat']} to {new} from move {game.move}."

    def welcome(mg, cfg):
        return [mg.welcome(cfg, handed["seat"], handed["password"])] if handed["password"] else []

    game, warning = _save_correction(path, cfg, now, correct, welcome)
    return game, handed["seat"], handed["password"], warning


def _save_correction(path, cfg, now: datetime, correct, welcome=lambda mg, cfg: []) -> tuple[Game, str]:
    """Under the game's lock, taken without waiting: `correct(game, time) -> (game, notice)`,
    saved; in a mail game every player and observer gets the notice with their report (and the
    deadline starts anew); then the public record is archived if the configuration asks."""
    from pathlib import Path

    from judge.record import archive
    from judge.store import gamefile
    from judge.mail import mailgame, outbox

    path = Path(path)
    with gamefile.locked(path, wait=False):
        game = gamefile.load(path)
        mg = mailgame.MailGame(game, path.stem)
        if mg.enabled and cfg is None:
            raise UsageError("this is a mail game: give --config judge.toml (or set JUDGE_CONFIG) so that "
                             "the players are told by mail")
        before = mg.snapshot() if mg.enabled else {}
        game, notice = correct(game, mailgame.iso(now))
        mg = mailgame.MailGame(game, path.stem)
        if mg.enabled:
            mg.reset_deadline(now)
            mailgame.record(mailgame.journal_path(path), now, sender="judge (shell)", outcome=notice)
        if not mg.enabled:
            gamefile.save(game, path)
            return game, archive.keep(cfg.archive if cfg else None, game, path, now)
        box = outbox.open_outbox(cfg)
        try:  # the change and its mails are one transaction (judge/mail/outbox.py)
            box.commit(path.stem, game, welcome(mg, cfg) + mg.mails(cfg, before, [notice]),
                       lambda: gamefile.save(game, path))
            warning = archive.keep(cfg.archive, game, path, now)
            box.flush()  # a failure leaves the mails in the outbox for the next judge mail or tick
        finally:
            box.close()
    return game, warning
