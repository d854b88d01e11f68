"""The judge host's configuration, judge.toml: the judge's address, the game directory,
where outgoing mail goes (SMTP or a Maildir outbox) and the game master's address.

    address = "judge@example.org"
    gm = "gm@example.org"
    games = "games"                  # relative to this file's directory
    [smtp]                           # either this ...
    host = "smtp.example.org"
    port = 587
    security = "starttls"            # or "tls" (implicit, port 465) or "none"; starttls = true is the same
    user = "judge"                   # optional login
    password = "secret"              # or password_file = "smtp-password"; cafile = "ca.pem" (every key: docs/mail.md)
    [maildir]                        # ... or this: outgoing mail is left in a Maildir
    path = "outbox"
    [imap]                           # optional: `judge watch` reads incoming mail here
    host = "imap.example.org"
    user = "judge@example.org"
    password_file = "imap-password"  # or password = "..." (every key: docs/mail.md)
    [archive]                        # optional: commit every game's public record here
    git = "archive"                  # a git repository (relative to this file's directory)
    site = "archive/site"            # optional: the static site, rebuilt after every change (committed when inside git)
    [league]                         # optional: names of one player (judge league, docs/league.md)
    aliases = { alice2 = "alice" }   # a registered name = the player it counts for
    [notify]                         # optional: turn notices through Apprise (docs/notices.md)
    public = "discord://ID/TOKEN"    # a public channel for every game (a secret: chmod 600)
    schemes = ["discord", "ntfys"]   # the URL schemes allowed (default: NOTIFY_SCHEMES)
    private = false                  # true: addresses on loopback and private networks allowed
    digest = 60                      # minutes between two digests (public_digest = true; a player's `notify digest`)
    fail_after = 5                   # failed deliveries in a row before a URL is switched off

A host that plays no game by mail (shell games, archived) needs none of the mail settings:
`[archive]` alone will do (`games` is then this file's directory unless given). The mail
commands refuse such a configuration (`require_mail`).
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from judge.engine.errors import UsageError

GAME_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


@dataclass(frozen=True)
class Config:
    address: str
    gm: str
    games: Path
    smtp: dict = field(default_factory=dict)
    maildir: Path | None = None
    archive: Path | None = None  # a git repository for the games' public records
    site: Path | None = None  # the static site rebuilt after every archived change (judge/site)
    aliases: dict = field(default_factory=dict)  # [league] aliases: a name -> the player it is
    imap: dict = field(default_factory=dict)  # [imap], every key given its default (imap_settings)
    where: str = "judge.toml"  # the file it was read from
    notify: dict = field(default_factory=dict)  # [notify], every key given its default (notify_settings)
    site_url: str = ""  # [archive] site_url: where the site is served (a player's link is absolute)

    @property
    def has_mail(self) -> bool:
        return bool(self.address)

    def require_mail(self) -> "Config":
        """This configuration, refused when it has no mail settings."""
        if not self.has_mail:
            raise UsageError(f"this judge.toml ({self.where}) has no mail settings: a mail game needs address, "
                             "gm and [smtp] or [maildir] (docs/mail.md)")
        return self

    def game_path(self, name: str) -> Path | None:
        """The file of the mail game `name`, or None when there is no such game."""
        if not GAME_NAME.match(name):
            return None
        path = self.games / f"{name}.toml"
        return path if path.is_file() else None

    def game_name(self, path) -> str:
        """The name of the game in file `path`, which must lie in the game directory."""
        path = Path(path).resolve()
        if path.parent != self.games.resolve() or path.suffix != ".toml" or not GAME_NAME.match(path.stem):
            raise UsageError(f"a mail game is a file NAME.toml in {self.games} (NAME: letters, digits, - and _)")
        return path.stem


def find(path: Path | None) -> Path:
    """The configuration file named by --config, else by JUDGE_CONFIG."""
    if path is None and os.environ.get("JUDGE_CONFIG"):
        path = Path(os.environ["JUDGE_CONFIG"])
    if path is None:
        raise UsageError("no configuration: give --config judge.toml or set JUDGE_CONFIG")
    return path


def load(path: Path | None, games_exist: bool = True) -> Config:
    """The configuration; `games_exist=False` loads one whose games directory is gone (for
    `judge mail` and `judge tick`, which tell the game master: judge/mail/host.py)."""
    path = find(path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as e:
        raise UsageError(f"cannot read configuration {path}: {e.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise UsageError(f"configuration {path} is not valid TOML: {e}") from None
    except RecursionError:
        raise UsageError(f"configuration {path} is not valid: its TOML is nested too deeply") from None
    where = f"configuration {path}"
    mail = any(key in data for key in ("address", "gm", "smtp", "maildir", "imap"))  # else: no mail at all
    if not mail:
        data.setdefault("games", ".")
    for key in ("address", "gm", "games") if mail else ("games",):
        if not isinstance(data.get(key), str) or not data[key]:
            raise UsageError(f"{where} needs {key} = \"...\"")
    unknown = set(data) - {"address", "gm", "games", "smtp", "maildir", "imap", "archive", "league", "notify"}
    if unknown:
        raise UsageError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
    if mail and ("smtp" in data) == ("maildir" in data):
        raise UsageError(f"{where} needs exactly one of [smtp] and [maildir] for outgoing mail")
    for table in ("smtp", "maildir", "imap"):
        if table in data and not isinstance(data[table], dict):
            raise UsageError(f"{where}: {table} must be a table [{table}]")
    base = path.parent
    games = base / data["games"]
    if games_exist and not games.is_dir():
        raise UsageError(f"{where}: the game directory {games} does not exist")
    smtp = smtp_settings(data.get("smtp", {}), path)
    maildir = None
    if "maildir" in data:
        if not isinstance(data["maildir"].get("path"), str):
            raise UsageError(f"{where}: [maildir] needs path = \"...\"")
        maildir = base / data["maildir"]["path"]
    archive = data.get("archive")
    if archive is not None and (not isinstance(archive, dict) or not {"git"} <= set(archive) <= {"git", "site", "site_url"}
                                or not all(isinstance(v, str) and v for v in archive.values())):
        raise UsageError(f"{where}: [archive] needs git = \"DIRECTORY\" (and may have site = \"DIRECTORY\" and "
                         "site_url = \"https://...\")")
    site_url = archive.get("site_url", "") if archive else ""
    if site_url and not re.match(r"^https?://[^\s#?]+$", site_url):
        raise UsageError(f"{where}: [archive] site_url is the address the site is served at (https://...), "
                         f"not '{site_url[:60]}'")
    site = base / archive["site"] if archive and "site" in archive else None
    archive = base / archive["git"] if archive else None
    if site is not None and (site.resolve() == archive.resolve() or site.resolve() == games.resolve()):
        raise UsageError(f"{where}: [archive] site must be a folder of its own (such as \"site\" or \"archive/site\"), "
                         "not the archive or the games directory themselves")
    return Config(data.get("address", "").lower(), data.get("gm", "").lower(), games, smtp, maildir, archive, site,
                  _aliases(data.get("league", {}), where), where=str(path), imap=imap_settings(data.get("imap", {}), path),
                  notify=notify_settings(data.get("notify", {}), path), site_url=site_url.rstrip("/"))


# The schemes of Apprise URLs allowed by default: common chat and push services, over https
# (Discord, Slack, Telegram, Matrix, ntfy, Gotify, Pushover, Mattermost, Rocket.Chat, Teams,
# Zulip, a JSON webhook). A self-hosted service over plain http is allowed by naming its
# scheme (ntfy, gotify, json, ...) in [notify] schemes.
NOTIFY_SCHEMES = ("discord", "slack", "tgram", "matrixs", "ntfys", "gotifys", "pover", "mmosts", "rockets",
                  "msteams", "zulip", "jsons")
# [notify]: each key with its type, default and bounds
NOTIFY_KEYS = {"public": (str, ""), "schemes": (list, list(NOTIFY_SCHEMES)), "private": (bool, False),
               "public_digest": (bool, False),
               "digest": (int, 60), "fail_after": (int, 5), "page": (str, ""),
               "link": (bool, False)}


def _no_unknown(table: dict, keys, where: str) -> None:
    unknown = set(table) - set(keys)
    if unknown:
        raise UsageError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")


def notify_settings(table, path: Path) -> dict:
    """The [notify] table checked, with every key's default (docs/notices.md): `public` (a URL
    for every game's public channel), `public_digest` (it gets digests), `schemes`, `private`,
    `digest` (minutes between two digests, 1 to 1440), `fail_after` (failed deliveries in a
    row before a URL is switched off, 1 to 100), `page` (the game's page, "{game}" standing
    for its name), `link` (a player's "your turn" carries their private link, docs/site.md, when
    they set the URL themselves by mail)."""
    where = f"configuration {path}: [notify]"
    if not isinstance(table, dict):
        raise UsageError(f"{where} must be a table [notify]")
    _no_unknown(table, NOTIFY_KEYS, where)
    out = {}
    for key, (kind, default) in NOTIFY_KEYS.items():
        value = table.get(key, default)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise UsageError(f"{where} needs {key} = " + {int: "NUMBER", bool: "true or false",
                                                           list: '["SCHEME", ...]'}.get(kind, '"..."'))
        out[key] = value
    if not all(isinstance(s, str) and re.fullmatch(r"[a-z][a-z0-9+.-]{0,31}", s) for s in out["schemes"]):
        raise UsageError(f'{where}: schemes is a list of URL schemes such as ["discord", "ntfys"]')
    if not 1 <= out["digest"] <= 1440 or not 1 <= out["fail_after"] <= 100:
        raise UsageError(f"{where}: digest is 1 to 1440 minutes, fail_after 1 to 100 deliveries")
    if out["public"] and path.stat().st_mode & 0o077:
        raise UsageError(f"configuration {path} holds a notice URL (a secret) but others may read it "
                         f"(mode {path.stat().st_mode & 0o777:o}): chmod 600 {path}")
    return out


# [imap]: each key with its type and default (None: required, or optional when "" is allowed)
IMAP_KEYS = {"host": (str, None), "port": (int, 0), "security": (str, "tls"), "user": (str, None),
             "password": (str, ""), "password_file": (str, ""), "folder": (str, "INBOX"), "move_to": (str, ""),
             "quarantine": (str, "Quarantine"), "cafile": (str, ""), "poll": (int, 60), "tick": (int, 600)}
SECURITY_PORTS = {"tls": 993, "starttls": 143, "none": 143}
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def imap_settings(table: dict, path: Path) -> dict:
    """The [imap] table checked, with every key's default; file names made absolute (relative
    to judge.toml's directory). {} when there is none."""
    if not table:
        return {}
    where = f"configuration {path}: [imap]"
    _no_unknown(table, IMAP_KEYS, where)
    out = {}
    for key, (kind, default) in IMAP_KEYS.items():
        value = table.get(key, default)
        if value is None or not isinstance(value, kind) or isinstance(value, bool) or (kind is str and key in (
                "host", "user", "folder", "quarantine") and not value.strip()):
            raise UsageError(f"{where} needs {key} = " + ("NUMBER" if kind is int else '"..."'))
        out[key] = value
    if out["security"] not in SECURITY_PORTS:
        raise UsageError(f'{where}: security is "tls" (port 993), "starttls" (port 143) or "none", '
                         f'not "{out["security"]}"')
    if out["security"] == "none" and out["host"] not in LOOPBACK:
        raise UsageError(f'{where}: security = "none" sends the password unencrypted: only for a server on this '
                         f'host ({", ".join(LOOPBACK)}); use "tls" or "starttls" for {out["host"]}')
    if bool(out["password"]) == bool(out["password_file"]):
        raise UsageError(f'{where} needs password = "..." or password_file = "FILE" (one of them)')
    if out["password"] and path.stat().st_mode & 0o077:
        raise UsageError(f"configuration {path} holds the IMAP password but others may read it "
                         f"(mode {path.stat().st_mode & 0o777:o}): chmod 600 {path}")
    if not 1 <= out["poll"] <= 3600 or not 10 <= out["tick"] <= 86400:
        raise UsageError(f"{where}: poll is 1 to 3600 seconds, tick 10 to 86400 seconds")
    if out["move_to"] in (out["folder"], out["quarantine"]) or out["folder"] == out["quarantine"]:
        raise UsageError(f"{where}: folder, move_to and quarantine must be three different folders")
    out["port"] = out["port"] or SECURITY_PORTS[out["security"]]
    return _files_beside(out, path, where)


# [smtp]: each key with its type and default ("" for none)
SMTP_KEYS = {"host": str, "port": int, "security": str, "starttls": bool, "user": str, "password": str,
             "password_file": str, "cafile": str}
SMTP_PORTS = {"tls": 465, "starttls": 25, "none": 25}  # (starttls on 25 as before; submission is 587)


def smtp_settings(table: dict, path: Path) -> dict:
    """The [smtp] table checked, with every key (`security`: "tls" is implicit TLS, the default
    on port 465; `starttls = true` is the older spelling of security = "starttls"); file names
    made absolute (relative to judge.toml's directory). {} when there is none."""
    if not table:
        return {}
    where = f"configuration {path}: [smtp]"
    if not isinstance(table.get("host"), str) or not isinstance(table.get("port", 25), int) \
            or isinstance(table.get("port"), bool):
        raise UsageError(f"{where} needs host = \"...\" and port = NUMBER")
    unknown = set(table) - set(SMTP_KEYS)
    if unknown:
        raise UsageError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
    for key, kind in SMTP_KEYS.items():
        if key in table and (not isinstance(table[key], kind) or (kind is int and isinstance(table[key], bool))):
            raise UsageError(f"{where} needs {key} = " + {int: "NUMBER", bool: "true or false"}.get(kind, '"..."'))
    out = {key: table.get(key, 0 if kind is int else False if kind is bool else "") for key, kind in SMTP_KEYS.items()}
    security = out["security"] or ("starttls" if out["starttls"] else "tls" if out["port"] == 465 else "none")
    if security not in SMTP_PORTS or (out["starttls"] and security != "starttls"):
        raise UsageError(f'{where}: security is "tls" (implicit TLS, port 465), "starttls" or "none", '
                         f'not "{out["security"]}"' + (" (with starttls = true)" if out["starttls"] else ""))
    out["security"], out["starttls"] = security, security == "starttls"
    out["port"] = out["port"] or SMTP_PORTS[security]
    if out["password"] and out["password_file"]:
        raise UsageError(f'{where} needs password = "..." or password_file = "FILE", not both')
    if out["password"] and path.stat().st_mode & 0o077:
        raise UsageError(f"configuration {path} holds the SMTP password but others may read it "
                         f"(mode {path.stat().st_mode & 0o777:o}): chmod 600 {path}")
    return _files_beside(out, path, where)


def _files_beside(out: dict, path: Path, where: str) -> dict:
    """`password_file` and `cafile` of [imap] or [smtp], named from judge.toml's folder; a
    cafile that is no file is refused now (at the first connection it read as the server being
    down, "No such file or directory" naming no file, and the mail waited for ever)."""
    for key in ("password_file", "cafile"):
        out[key] = str(path.parent / out[key]) if out[key] else ""
    if out["cafile"] and not Path(out["cafile"]).is_file():
        raise UsageError(f"{where}: cafile {out['cafile']} is not a file (the certificate of the CA to trust)")
    return out


def password(settings: dict) -> str:
    """The password of an [smtp] or [imap] table: its own, or the first line of its
    password_file (read at every connection, so that a new password needs no restart).
    UsageError when the file cannot be read or others may read it."""
    if settings.get("password") or not settings.get("password_file"):
        return settings.get("password", "")
    path = Path(settings["password_file"])
    try:
        if path.stat().st_mode & 0o077:
            raise UsageError(f"the password file {path} may be read by others: chmod 600 {path}")
        return (path.read_text("utf-8").splitlines() or [""])[0].strip()
    except OSError as e:
        raise UsageError(f"cannot read the password file {path}: {e.strerror}") from None
    except UnicodeError:
        raise UsageError(f"the password file {path} is not text (UTF-8)") from None


def _aliases(league, where: str) -> dict:
    """[league] aliases = { NAME = "PLAYER", ... }: names that count as another player."""
    aliases = league.get("aliases", {}) if isinstance(league, dict) else None
    if not isinstance(league, dict) or set(league) - {"aliases"} or not isinstance(aliases, dict) \
            or not all(isinstance(v, str) and v for v in aliases.values()):
        raise UsageError(f'{where}: [league] holds only aliases = {{ NAME = "PLAYER", ... }}')
    return dict(aliases)
