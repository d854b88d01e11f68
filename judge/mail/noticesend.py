"""Sending the queued notices, under the outbox's lock (judge/mail/outbox.py `flush` calls
`send_ready`): the promises of the mail, kept for notices (docs/notices.md).

- **Queued with its change.** A notice is a file of the outbox: pending with the change's
  mails, ready (`STAMP.GAME.TX.nN.notice`) once the game file is saved; a run killed between
  the save and the send leaves it ready for the next run.
- **Sent once.** Before it is sent its file is renamed `.sending`; after the service took it
  the file is removed; when the send surely failed (no connection made, an HTTP error, a 429)
  it is renamed back. A `.sending` file found by a later run (one killed while sending, or a
  connection lost after the request went out) may have arrived: it is dropped and logged,
  never sent again. So a notice arrives at most once; the mail that follows the same change
  still carries the news.
- **Retried with backoff.** A recipient's notices go out in order; after a failure the next
  try waits 1, 2, 4 ... minutes (at most an hour), or what a 429's Retry-After asked (at most
  a day; a 429 is not counted as a failure).
- **A URL that keeps failing** is switched off after [notify] fail_after failures in a row
  (its waiting notices dropped); its player is told once by mail (the game master for a
  public channel), naming the service only.
- **Digests.** A recipient on digest gets their waiting notices in one message, at most every
  [notify] digest minutes.

The sender's own state (failures, next try, last sent, per URL by its digest, never the URL)
is `.mail/notify/state.json`.
"""
from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone

from judge.engine import writes
from judge.engine.errors import GameFileError
from judge.mail import notify
from judge.mail.journal import general_log, record
from judge.mail.notices import PUBLIC, decode
from judge.store import gamefile

STATE = ".mail/notify/state.json"
MAX_BACKOFF = 3600  # seconds
MAX_DIGEST = 1800  # characters of a digest's notices (Discord takes 2000): the latest kept
clock = time.time  # (tests move it)


def backoff(failures: int) -> float:
    return min(60.0 * 2 ** max(failures - 1, 0), MAX_BACKOFF)


def _load_state(cfg) -> dict:
    try:
        state = json.loads((cfg.games / STATE).read_text("utf-8"))
        return state if isinstance(state, dict) else {}
    except (OSError, ValueError, UnicodeError):
        return {}


def _save_state(cfg, state: dict) -> None:
    """The state written, without the URLs that have nothing to remember (no failure, not
    switched off, no wait, nothing sent for longer than any digest waits): it does not grow
    with every URL ever set."""
    now = clock()
    state = {k: v for k, v in state.items()
             if v.get("failures") or v.get("off") or v.get("next", 0) > now or v.get("last", 0) > now - 60 * 1440}
    writes.make_folder(cfg.games / notify.FOLDER, cfg.games, 0o700)
    writes.write_atomic(cfg.games / STATE, json.dumps(state, sort_keys=True).encode("utf-8"), 0o600, cfg.games)


def log(cfg, outcome: str) -> None:
    """A line of the judge's mail log about the notices of no one game."""
    _log(cfg, "", outcome)


def _log(cfg, game: str, outcome: str) -> None:
    try:
        record(general_log(cfg), datetime.now(timezone.utc), game=game, outcome=outcome)
    except OSError:
        pass


class Sender:
    def __init__(self, cfg, folder):
        self.cfg, self.dir = cfg, folder
        self.state = _load_state(self.cfg)
        self.urls: dict = {}
        self.tell: list = []  # (address, subject, body, key): the mails that say a URL was switched off

    def url_of(self, game: str, to: str) -> tuple[str, bool, str]:
        """The recipient's URL ("" for none), whether they take digests, and the URL's name in
        the state (a URL set again starts afresh)."""
        if game not in self.urls:
            self.urls[game] = notify.load(self.cfg, game)
        data = self.urls[game]
        if to == PUBLIC:
            url = notify.public_url(self.cfg, game, data)
            return url, bool(self.cfg.notify.get("public_digest")), notify.key(f"{data['public_since']}\n{url}")
        entry = data["players"].get(to)
        if not entry:
            return "", False, ""
        return entry["url"], entry["digest"], notify.key(f"{entry['since']}\n{entry['url']}")

    def run(self) -> None:
        names = sorted(os.listdir(self.dir))
        for name in names:  # (one sender at a time: a file .sending is a stopped run's)
            if name.endswith(".sending"):
                self._drop(name, "a notice may have gone out while the run that sent it stopped: not sent again")
        groups: dict = {}
        for name in names:
            if name.endswith(".notice"):
                try:
                    notice = decode((self.dir / name).read_bytes())
                except FileNotFoundError:
                    continue
                if notice is None:
                    self._drop(name, "a notice file that is not one: removed")
                    continue
                groups.setdefault((notice["game"], notice["to"]), []).append((name, notice))
        for (game, to), notes in groups.items():
            self._send_group(game, to, notes)
        if groups:
            _save_state(self.cfg, self.state)

    def _drop(self, name: str, why: str) -> None:
        writes.remove(self.dir / name, self.cfg.games)
        _log(self.cfg, name.split(".")[1], why)

    def _send_group(self, game: str, to: str, notes: list) -> None:
        url, digest, key = self.url_of(game, to)
        st = self.state.setdefault(key, {"failures": 0, "next": 0, "last": 0, "off": False}) if url else None
        allowed = url.partition("://")[0] in self.cfg.notify.get("schemes", [])
        if st is None or st["off"] or not allowed:  # nobody to tell now (switched off, or its scheme no longer allowed)
            for file, _ in notes:
                writes.remove(self.dir / file, self.cfg.games)
            if st is not None and not allowed:
                _log(self.cfg, game, f"notices to {to or 'the public channel'} dropped: [notify] schemes no longer "
                                     f"allows {notify.service(url)}")
            return
        now = clock()
        if now < st["next"] or (digest and now < st["last"] + 60 * self.cfg.notify["digest"]):
            return
        units = [notes] if digest and len(notes) > 1 else [[n] for n in notes]
        for unit in units:
            if not self._send_unit(game, to, (url, key), st, unit):
                return

    def _send_unit(self, game: str, to: str, target: tuple, st: dict, unit: list) -> bool:
        from judge.mail import wire

        url = target[0]
        if len(unit) == 1:
            title, body = unit[0][1]["title"], unit[0][1]["body"]
        else:
            title = f"game {game}: {len(unit)} notices"
            bodies = [n["body"] for _, n in unit]
            while len(bodies) > 1 and sum(len(b) + 2 for b in bodies) > MAX_DIGEST:  # the latest kept
                bodies.pop(0)
            left = len(unit) - len(bodies)
            body = (f"({left} earlier notice{'s' if left != 1 else ''} left out)\n\n" if left else "") + "\n\n".join(bodies)
        paths = [self.dir / file for file, _ in unit]
        for path in paths:
            writes.rename(path, path.with_suffix(".sending"), self.cfg.games)
        gamefile.sync_directory_of(paths[0])
        result = wire.send(url, title, body, bool(self.cfg.notify.get("private")))
        who = f"the public channel ({notify.service(url)})" if to == PUBLIC else f"{to} ({notify.service(url)})"
        if result.sent == "yes":
            st.update(failures=0, next=0, last=clock())
        if result.sent != "no":  # gone, or it may have arrived: never sent again
            for path in paths:
                writes.remove(path.with_suffix(".sending"), self.cfg.games)
            if result.sent == "yes":
                return True
            _log(self.cfg, game, f"notice to {who}: {result.why}; it may have arrived: not sent again")
        else:
            for path in paths:
                writes.rename(path.with_suffix(".sending"), path, self.cfg.games)
        if result.wait:
            st["next"] = clock() + result.wait
            _log(self.cfg, game, f"notice to {who}: {result.why}: waits {result.wait:.0f} s as asked")
            return False
        st["failures"] += 1  # (a notice that may have arrived counts too: a server that never answers is switched off)
        st["next"] = clock() + backoff(st["failures"])
        _log(self.cfg, game, f"notice to {who} failed ({st['failures']} in a row): {result.why}")
        if st["failures"] >= self.cfg.notify["fail_after"]:
            self._switch_off(game, to, target, st, result.why)
        return False

    def _switch_off(self, game: str, to: str, target: tuple, st: dict, why: str) -> None:
        """Switch the URL off, drop what waits for it, tell its owner once (the outbox puts the
        mail with a key: once, however often this is reached)."""
        url, key = target
        st["off"] = True
        for file in os.listdir(self.dir):
            if file.endswith(".notice"):
                try:
                    notice = decode((self.dir / file).read_bytes())
                except FileNotFoundError:
                    continue
                if notice and notice["game"] == game and notice["to"] == to:
                    writes.remove(self.dir / file, self.cfg.games)
        service, count = notify.service(url), st["failures"]
        address = self.cfg.gm
        if to != PUBLIC:
            try:
                address = gamefile.load(self.cfg.games / f"{game}.toml").meta["mail"]["players"][to]["address"]
            except (GameFileError, KeyError, TypeError, OSError):
                pass
        whose = "the public channel's notices" if to == PUBLIC else "your notices"
        again = ("'judge notify GAME --public URL' sets one again" if to == PUBLIC
                 else "send 'notify URL' in a block for the game to set one again")
        if to != PUBLIC and why.startswith("refused:"):  # (the address the host resolved is the game master's to know)
            why = "the judge may not connect to its address"
        body = (f"The judge could not deliver {whose} of game {game} through {service}: {count} tries in a row "
                f"failed (the last: {why}). They are switched off; {again}.\n")
        self.tell.append((address, f"game {game}: notices switched off", body, f"notify-off-{key}"))
        _log(self.cfg, game, f"notices to {to or 'the public channel'} ({service}) switched off after {count} failures")


def send_ready(cfg, folder) -> list[tuple]:
    """Send the ready notices of the outbox `folder`; the mails to put: (address, subject,
    body, key). Apprise is made ready before any notice is marked as being sent: a judge that
    cannot load it (a broken install) leaves every notice waiting, none dropped as "may have
    gone out"."""
    from judge.mail import wire

    wire.ready()
    sender = Sender(cfg, folder)
    sender.run()
    return sender.tell
