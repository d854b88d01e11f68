"""One change: the unit of work every entry point uses (the shell's commands, the mail gateway,
`judge tick`, the game master's rollback and replace, `judge new`).

    with Change(path, cfg, box, now=now) as change:
        change.game.submit(...)            # or: change.game = other_game
        change.notices.append("...")       # told to everyone, with their reports
    # saved here, with the mail it causes; the lock left; then published

On entering: the game's lock, the game file loaded, and for a mail game (a configuration
given) everyone's report as it stands. On leaving without an exception: the game saved
together with its mail (the outbox's transaction, judge/mail/outbox.py: reports to everyone
whose report changed, the notices, and `mails` added by the caller) and a journal line for a
mail game, under the lock; the mails are sent once it is left. With a configuration the save also marks the game to be published
(judge/publish/marks.py), and once the lock is left the publishing step runs (the archive, the
league's index, the site: judge/publish/step.py), for this game and for any other of its
own game (a change that saved nothing publishes nothing; what earlier changes left marked,
judge tick catches up); its warning is `warning`. An exception leaves the file
and the outbox as they were. `discard()` leaves without saving (a refusal, a duplicate message).

Without a configuration a change touches the game file alone, mail game or not (a mail
game's deadline starts anew in it as by mail; nothing is mailed).
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from judge.engine import writes
from judge.engine.errors import UsageError
from judge.engine.ruleset import visible_events
from judge.store import gamefile

# The mail and archive modules are imported only by a change that needs them: a shell game's
# `judge order` loads neither smtplib nor git's helpers (bench/bench.py times its start).


class Change:
    def __init__(self, path, cfg=None, box=None, *, now: datetime | None = None, wait: bool = True,
                 sender: str = "judge (shell)", needs_mail: bool = False, reports: bool = True):
        self.path = Path(path)
        self.name = self.path.stem
        self.cfg, self.box, self.wait = cfg, box, wait
        self.now = now or datetime.now(timezone.utc)
        self.sender = sender
        self.needs_mail = needs_mail  # refuse a mail game without a configuration
        self.notices: list[str] = []  # for everyone, with their reports
        self.mails: list = []  # more mails of this change, before the reports (welcomes)
        self.later: list = []  # and after them (what tells a player the new position)
        self.told: list = []  # notices (judge/mail/notices.py) the caller adds: a reminder, a default order
        self.notes: list | None = None  # the change's notices, queued with its mails (`ready`)
        self.awaited_before: list = []
        self.events_before: list | None = None
        self.outcome = ""  # the journal's line ("" : the notices)
        self.journal: dict = {}  # more fields of the journal's line
        self.restart = False  # the deadline starts anew although the move did not change
        self.reports = reports  # mail the reports that changed (a mail game with a configuration)
        self.sent: list | None = None  # the mails the change puts in the outbox (`ready`)
        self.warning = ""  # the publishing step's, when something could not be published
        self.box_down = ""  # why the mails of the change wait in the outbox (an outbox opened here)
        self._keep = True
        self.saved = False  # the game was saved (and marked to be published)
        self._lock = None
        self._opened = None  # an outbox the change opened itself, to send once the lock is left

    # ---- entering ---------------------------------------------------------------------
    def __enter__(self) -> "Change":
        check_user(self.path)
        self._lock = gamefile.locked(self.path, wait=self.wait)
        self._lock.__enter__()
        try:
            self.game = gamefile.load(self.path)
            mail = self.mail
            if mail is not None and self.cfg is None and self.needs_mail:
                raise UsageError("this is a mail game: give --config judge.toml (or set JUDGE_CONFIG) so that "
                                 "the players are told by mail")
            if mail is not None and self.cfg is not None and (self.needs_mail or self.reports):
                self.cfg.require_mail()
            self.start_move, self.logged_before = self.game.move, len(self.game.log)
            self.before = {}
            if self.reports:
                self.watch()
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise
        return self

    def watch(self) -> None:
        """Take everyone's report as it stands, to mail those that the change alters (done on
        entering, unless the change was made with `reports=False`: a tick that may change
        nothing skips the cost)."""
        mail = self.mail
        if mail is not None and self.cfg is not None:
            self.before = mail.snapshot()
            self.awaited_before = self.game.awaiting()
            self.events_before = visible_events(self.game.state, None)  # (the public channel's news: those added)
        self.reports = True

    def ready(self) -> list:
        """The mails of the change, composed once: first the deadline starts anew when the move
        changed (or `restart`), then the caller's `mails`, the reports that changed with the
        notices, and the `later` mails. Done when the change is saved, or earlier by a caller
        that tells the deadline or the mails first (the gateway's answer); the game must not
        change after it."""
        if self.sent is None:
            mail, mails = self.mail, list(self.mails)
            if mail is not None and (self.game.move != self.start_move or self.restart):
                mail.reset_deadline(self.now)  # (a configuration or not: the game file's deadline)
            notes = list(self.told)
            if mail is not None and self.cfg is not None and self.reports:
                mails += mail.mails(self.cfg, self.before, self.notices)
                notes = self._notices(mail) + notes
            self.sent, self.notes = mails + self.later, notes
        return self.sent

    def _notices(self, mail) -> list:
        """The notices of the change to those with a notice URL (judge/mail/notices.py)."""
        if not self.cfg.notify.get("public") and not (self.cfg.games / ".mail/notify").is_dir():
            return []  # (nobody has a notice URL: nothing read)
        from judge.mail import notices, notify

        urls = notify.load(self.cfg, self.name)
        wants = set(urls["players"]) | ({notices.PUBLIC} if notify.public_url(self.cfg, self.name, urls) else set())
        if not wants:
            return []
        return notices.for_change(self.name, self.game, self.start_move, self.awaited_before, wants,
                                  mail.deadline_text, self.cfg.notify.get("page", ""), self._link(urls),
                                  self.events_before)

    def _link(self, urls: dict):
        """Who is sent their private link with a "your turn": a player whose URL is their own
        (set by mail), where [notify] link allows it and the judge publishes a site."""
        if not self.cfg.notify.get("link") or self.cfg.site is None:
            return lambda who: ""
        from judge.site import links

        return lambda who: (links.private(self.game, self.name, who, self.cfg.site_url) or ""
                            if urls["players"].get(who, {}).get("own") else "")

    def _logged(self) -> str:
        """What the change logged, for the journal (the game master's own file)."""
        added = self.game.log[self.logged_before:] if len(self.game.log) > self.logged_before else []
        return f"logged: {'; '.join(added)}" if added else ""

    def discard(self) -> None:
        """Leave without saving anything."""
        self._keep = False

    # ---- leaving ----------------------------------------------------------------------
    def __exit__(self, kind, value, tb) -> None:
        try:
            if kind is None and self._keep:
                self._commit(partial(gamefile.save, self.game, self.path))
        finally:
            self._lock.__exit__(None, None, None)
            self._send()
            self.publish()

    def _send(self) -> None:
        """Outside the lock: send the mails of an outbox the change opened itself (the shell's
        commands; the gateway and tick send theirs once all their changes are made)."""
        box, self._opened = self._opened, None
        if box is None:
            return
        from judge.engine.errors import MailError

        try:
            box.flush()
        except MailError as e:  # the mails wait in the outbox for the next judge mail or tick
            self.box_down = str(e)
        finally:
            box.close()

    def publish(self) -> None:
        """Outside the lock: what is published from this game, when the change saved it and has
        a configuration (what earlier changes left marked, judge tick catches up); a cause only
        the game master can mend is told to them (judge/mail/host.py, once an hour)."""
        if self.cfg is not None and self.saved:
            from judge.publish import step

            self.warning = step.publish(self.cfg, self.path, self.now) or self.warning
            if getattr(self.warning, "cause", ""):
                from judge.mail import host

                host.tell_publishing(self.cfg, self.warning)

    @property
    def mail(self):
        """The mail side of the game as it is now (the caller may have replaced the game), or
        None for a game not played by mail."""
        if "mail" not in self.game.meta:
            return None
        from judge.mail.mailgame import MailGame

        return MailGame(self.game, self.name)

    def _commit(self, write) -> None:
        from judge.store import seatkeys

        seatkeys.ensure(self.game)  # (a new game, or one made before: its private pages' keys)
        game, mails, mail = self.game, self.ready(), self.mail
        if game.is_over():
            from judge.record import conduct

            conduct.ended(game, self.now)
        box, opened = self.box, False
        if (mails or self.notes) and box is None:
            from judge.mail.outbox import open_outbox

            box, opened = open_outbox(self.cfg), True
        if self.cfg is not None:  # the save marks the game to be published (judge/publish/)
            from judge.publish import marks

            write = marks.marking(self.path, self.now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), write)
        try:
            if mail is not None:  # its mail log is written after the save: a link there refuses the change first
                from judge.mail.journal import journal_path

                writes.check_file(journal_path(self.path))
            if box is None:
                write()
            else:  # the change and its mails are one transaction
                box.commit(self.name, game, mails, write, self.notes)
            self.saved = True
            outcome = self.outcome or "; ".join(self.notices) or self._logged()
            if mail is not None and (outcome or self.journal):
                from judge.mail.journal import journal_path, record

                record(journal_path(self.path), self.now, sender=self.sender, **{"outcome": outcome, **self.journal})
        except BaseException:
            if opened:
                box.close()
            raise
        if opened:
            self._opened = box  # sent once the lock is left


def create(path, game, cfg=None, box=None, mails=(), now: datetime | None = None) -> str:
    """A new game's file, written only if none exists, with its welcome mails; published.
    Returns the publishing step's warning, or ""."""
    change = Change(path, cfg, box, now=now)
    change.game, change.mails, change.start_move, change.logged_before = game, list(mails), game.move, 0
    change.reports = False
    try:
        change._commit(partial(gamefile.create, game, change.path))
    finally:
        change._send()
        change.publish()
    return change.warning


def check_user(game_file: Path) -> None:
    """A game of the judge's games directory is changed only by the directory's owner."""
    try:
        if game_file.absolute().parent.stat().st_uid == os.geteuid():
            return  # the common case
    except OSError:
        return
    from judge.mail import host

    host.check_game_user(game_file)
