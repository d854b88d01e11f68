"""Where a game's notice URLs are kept, and what a URL may be (docs/notices.md).

A notice URL (an Apprise URL: discord://ID/TOKEN, ntfys://host/topic ...) is a secret: whoever
has it may post as the judge, or read the player's notices. It is kept beside the host's other
secrets, in the games directory's `.mail/notify/GAME.toml` (folders 0700, the file 0600),
never in the game file, a report, the record, the site, the archive or a log line: a log or
an answer names its service only (`service`). The file is written under the game's lock (by
the `notify` line of a mail or `judge notify`):

    public = "ntfys://ntfy.example.org/game1"        # this game's public channel
    public_since = "2026-05-01T12:00:00Z"
    [players.alice]
    url = "discord://ID/TOKEN"
    since = "2026-05-01T12:00:00Z"                    # when it was set (set again, its failures are forgotten)
    digest = false                                    # true: one digest at most every [notify] digest minutes

A URL is checked here by its scheme only ([notify] schemes) and its length; the address it
names is checked when a notice is sent, on the address connected to (judge/mail/wire.py).
"""
from __future__ import annotations

import hashlib
import re
import tomllib

import tomli_w

from judge.engine import writes
from judge.engine.errors import JudgeError

FOLDER = ".mail/notify"  # in the games directory
MAX_URL = 600  # characters: a webhook URL is about 150
_URL = re.compile(r"^([a-z][a-z0-9+.-]{0,31})://[\x21-\x7e]+$")

SERVICES = {"discord": "Discord", "slack": "Slack", "tgram": "Telegram", "matrix": "Matrix", "matrixs": "Matrix",
            "ntfy": "ntfy", "ntfys": "ntfy", "gotify": "Gotify", "gotifys": "Gotify", "pover": "Pushover",
            "mmost": "Mattermost", "mmosts": "Mattermost", "rocket": "Rocket.Chat", "rockets": "Rocket.Chat",
            "msteams": "Microsoft Teams", "zulip": "Zulip", "json": "a JSON webhook", "jsons": "a JSON webhook"}


def service(url: str) -> str:
    """The name of a URL's service, the one thing of it ever shown ("Discord", "ntfy")."""
    scheme = url.partition("://")[0].lower()
    return SERVICES.get(scheme, f"{scheme}://" if _URL.match(url.lower()) else "an unknown service")


def key(url: str) -> str:
    """A URL's name in the sender's own state (its failures): a digest, never the URL."""
    return hashlib.sha256(url.encode("utf-8")).hexdigest()[:32]


def check(cfg, url: str) -> str:
    """The URL's service name when [notify] allows it; JudgeError saying why not (never
    repeating the URL)."""
    allowed = cfg.notify.get("schemes", []) if cfg.notify else []
    m = _URL.match(url)
    if len(url) > MAX_URL or not m:
        raise JudgeError(f"write notify URL, an Apprise URL such as discord://ID/TOKEN or ntfys://HOST/TOPIC "
                         f"(at most {MAX_URL} characters, no spaces)")
    if m[1] not in allowed:
        raise JudgeError(f"the judge sends no notices through {m[1]}:// URLs; it allows "
                         + (", ".join(f"{s}://" for s in allowed) or "none (the game master has no [notify])"))
    return service(url)


def _path(cfg, game: str):
    return cfg.games / FOLDER / f"{game}.toml"


def load(cfg, game: str) -> dict:
    """{"public": URL or "", "players": {player: {"url", "digest"}}}; empty when none is set."""
    try:
        data = tomllib.loads(_path(cfg, game).read_text("utf-8"))
    except FileNotFoundError:
        data = {}
    except (OSError, UnicodeError, tomllib.TOMLDecodeError):
        data = {}  # (a hand-broken file sends nothing; `judge notify` writes it anew)
    players = data.get("players") if isinstance(data.get("players"), dict) else {}
    text = lambda d, k: d.get(k) if isinstance(d.get(k), str) else ""  # noqa: E731
    return {"public": text(data, "public"), "public_since": text(data, "public_since"),
            "players": {p: {"url": e["url"], "digest": e.get("digest") is True, "since": text(e, "since"),
                            "own": e.get("own") is True}
                        for p, e in players.items() if isinstance(e, dict) and isinstance(e.get("url"), str)}}


def save(cfg, game: str, data: dict) -> None:
    """Write the game's URLs (under the game's lock), 0600 in folders 0700."""
    folder = cfg.games / FOLDER
    writes.make_folder(folder, cfg.games, 0o700)
    clean = {"players": {p: e for p, e in sorted(data["players"].items())}}
    if data.get("public"):
        clean["public"], clean["public_since"] = data["public"], data.get("public_since", "")
    writes.write_atomic(_path(cfg, game), tomli_w.dumps(clean).encode("utf-8"), 0o600, cfg.games)


def set_player(cfg, game: str, player: str, url: str | None, digest: bool | None = None, now: str = "",
               own: bool = False) -> dict:
    """Set (`url`), switch off (None) or change the digest of a player's notices; their entry.
    `now` marks when a URL was set: set again, it starts afresh (its failures forgotten);
    `own`: the player set it themselves, by mail (only then may a notice carry their private
    link, where [notify] link allows it)."""
    data = load(cfg, game)
    if url is None and digest is None and player not in data["players"]:
        return {}  # (nothing to forget: nothing written)
    entry = data["players"].get(player, {"url": "", "digest": False, "since": "", "own": False})
    if url is not None:
        entry["url"], entry["since"], entry["own"] = url, now, own
    if digest is not None:
        entry["digest"] = digest
    if url is None and digest is None:
        data["players"].pop(player, None)
    else:
        data["players"][player] = entry
    save(cfg, game, data)
    return entry


def set_public(cfg, game: str, url: str, now: str = "") -> None:
    """Set (or, with "", remove) the game's own public channel."""
    data = load(cfg, game)
    data["public"], data["public_since"] = url, now
    save(cfg, game, data)


def public_url(cfg, game: str, data: dict | None = None) -> str:
    """The game's public channel: its own, else [notify] public."""
    data = data if data is not None else load(cfg, game)
    return data["public"] or (cfg.notify.get("public", "") if cfg.notify else "")


def players_told(cfg, game: str) -> set:
    """The players of `game` who have a notice URL (nothing read when nobody has one)."""
    if not (cfg.games / FOLDER).is_dir():
        return set()
    return set(load(cfg, game)["players"])


def set_by_gm(cfg, name: str, player: str | None, url: str, digest: bool, now: str) -> str:
    """`judge notify`: set `player`'s URL (None: the game's public channel; "off" removes it),
    under the game's lock; what to say (the service's name, never the URL). The caller has
    checked that this user owns the games directory (judge/mail/host.py check_user)."""
    from judge.engine.errors import UsageError
    from judge.store import gamefile

    path = cfg.game_path(name)
    if path is None:
        raise UsageError(f"there is no mail game {name} in {cfg.games}")
    with gamefile.locked(path):
        game = gamefile.load(path)
        if "mail" not in game.meta:
            raise UsageError(f"game {name} is not played by mail")
        off = url.lower() == "off"
        try:
            service_name = "" if off else check(cfg, url)
        except JudgeError as e:
            raise UsageError(str(e)) from None
        if player is None:
            set_public(cfg, name, "" if off else url, now)
            if off:
                return f"game {name}: its own public channel removed" + (
                    " ([notify] public of judge.toml still applies)" if cfg.notify.get("public") else "")
            return f"game {name}: public notices go to {service_name}"
        seat = game.player_name(player)
        if seat not in game.players:
            raise UsageError(f"{player} is no player of game {name}")
        set_player(cfg, name, seat, None if off else url, None if off else digest, now)
        return f"game {name}: notices of {seat} " + ("switched off" if off else f"go to {service_name}"
                                                     + (" as a digest" if digest else ""))
