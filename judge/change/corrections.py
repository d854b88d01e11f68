"""The game master's corrections as changes: a rollback or a seat handed on, saved as one
change (judge/change/unit.py) under the game's lock, taken without waiting. In a mail game
every player and observer is told with their report (the deadline starts anew), and a new
player gets a password and a welcome. The trace itself is judge/record/corrections.py."""
from __future__ import annotations

from datetime import datetime

from judge.change.unit import Change
from judge.engine.errors import UsageError
from judge.engine.game import Game
from judge.mail.journal import iso
from judge.record import corrections


def hand_seat(game: Game, old: str, new: str, when: str, reason: str = "",
              address: str | None = None) -> tuple[str, str]:
    """Hand the seat of `old` to `new` in the trace; in a mail game the seat gets `address`
    and a new password. Return the seat and the password ("" outside mail)."""
    from judge.mail.addresses import is_address

    mail = "mail" in game.meta
    if mail != (address is not None):
        raise UsageError("a mail game needs --address for the new player" if mail else "--address is for mail games")
    if address is not None and not is_address(address):
        raise UsageError(f"'{address}' is not a mail address (write local@example.org)")
    seat = corrections.replace(game, old, new, when, reason)
    from judge.store import seatkeys

    seatkeys.renew(game, seat, game.move)  # (the old player's link opens nothing from now on)
    if not mail:
        return seat, ""
    from judge.mail.mailgame import MailGame

    return seat, MailGame(game, "").hand_seat(seat, address)


def seat_handed(game: Game, cfg, name: str, old: str, new: str, when: str, reason: str = "",
                address: str | None = None) -> tuple[str, str, list, str]:
    """`hand_seat`, and what it tells, for the shell's `judge replace` and the game master's
    `replace` by mail alike: (the seat, the password, the mails: the new player's welcome and,
    when the address changes, the old player's goodbye; the notice every player is told). The
    caller forgets the old player's notice URL (judge/mail/notify.py) once the change is sure:
    a block refused after this line must leave it as it was."""
    mails = []
    before = game.meta["mail"]["players"][corrections.seat_of(game, old)]["address"] if "mail" in game.meta else ""
    seat, password = hand_seat(game, old, new, when, reason, address)
    if password and cfg is not None:
        from judge.mail.mailgame import MailGame
        from judge.mail.outbox import compose

        mails.append(MailGame(game, name).welcome(cfg, seat, password))
        if before != address.lower():
            mails.append(compose(cfg, before, f"game {name}: you no longer play {seat}",
                                 f"The game master has handed your seat in game {name} ({seat}) to a new player. "
                                 "Your password no longer works. Thank you for playing!\n"))
    notice = f"The game master has handed the seat {seat} to {corrections.holder(game, seat)} from move {game.move}."
    return seat, password, mails, notice


def rollback_file(path, cfg, now: datetime, move: int, reason: str) -> tuple[Game, list[str], str]:
    """`rollback` on the game file at `path`; (the game, the undone orders, an archive warning)."""
    with _correction(path, cfg, now) as change:
        change.game, undone = corrections.rollback(change.game, move, reason, iso(now))
        shown = corrections.public(change.game)[-1]["undone"]
        change.notices.append(f"The game master has rolled the game back to move {move}: {reason.strip()}. "
                              f"Undone: {', '.join(shown) or 'no public order'}. Standing orders given at move "
                              f"{move} or later are undone as well: your report lists yours, if any.")
    return change.game, undone, change.warning


def replace_file(path, cfg, now: datetime, old: str, new: str, address: str | None,
                 reason: str = "") -> tuple[Game, str, str, str]:
    """`replace` on the game file at `path`; (the game, the seat, the password, an archive warning)."""
    with _correction(path, cfg, now) as change:
        seat, password, mails, notice = seat_handed(change.game, cfg, change.name, old, new, iso(now), reason, address)
        change.notices.append(notice)
        change.mails += mails
        if password and cfg is not None:
            from judge.mail import notify

            notify.set_player(cfg, change.name, seat, None)  # the old player's URL is theirs, not the seat's
    return change.game, seat, password, change.warning


def _correction(path, cfg, now: datetime) -> Change:
    change = Change(path, cfg, now=now, wait=False, needs_mail=True)
    change.restart = True  # the deadline starts anew
    return change
