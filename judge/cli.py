"""The command line: thin commands over the engine. Errors become messages and exit codes
in one place, `_Group.invoke`."""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import List, Optional, get_args, get_origin

import typer
from typer.core import TyperGroup

from judge.store import gamefile
from judge.engine import facts, ruleset as registry, standing
from judge.engine.errors import GameFileError, IllegalOrder, JudgeError, NotYourTurn, OrderError, UsageError, VerifyError
from judge.engine.game import Game
from judge.engine.ruleset import GM

MAX_INPUT = 1024 * 1024
NOT_JUDGED_EXIT = 6  # a batch applied up to a line that revealed something; the rest NOT JUDGED


class _Group(TyperGroup):
    def invoke(self, ctx):
        """Run the command; a refusal becomes one line `judge: ...` on standard error and its
        exit code, or, with --json, the object {"ok": false, "error": ..., "exit": CODE} on
        standard output (a bad command line too, and a bug before its traceback)."""
        from typer._click.exceptions import UsageError as BadCommandLine

        as_json = "--json" in [*ctx._protected_args, *ctx.args]
        try:
            return super().invoke(ctx)
        except JudgeError as e:
            _refused(str(e), e.exit_code, as_json)
        except BadCommandLine as e:
            if not as_json:
                raise
            _refused(e.format_message(), e.exit_code, as_json)
        except typer.Exit:
            raise
        except Exception as e:
            if as_json:  # a program still reads JSON; the traceback follows on standard error
                _json({"ok": False, "error": f"internal error: {type(e).__name__}: {e}", "exit": 1})
            raise

    def parse_args(self, ctx, args):
        for param in self.get_params(ctx):
            _plain_coercion(param)
            _plain_help(param)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        for param in cmd.get_params(ctx) if cmd else ():
            _plain_coercion(param)
            _plain_help(param)
        return name, cmd, rest


_PLAIN = {str: str, int: int, bool: bool, Path: Path}


_METAVARS = {"as_": "NAME", "player": "NAME[=ADDRESS]", "option": "KEY=VALUE", "file": "FILE", "config": "FILE",
             "setup": "FILE", "now": "TIME", "git": "DIR", "save": "FILE", "maildir": "DIR", "bots_": "KIND,...",
             "observer": "ADDRESS", "address": "ADDRESS", "reason": "TEXT", "commitment": "HEX"}


def _plain_help(param) -> None:
    """`--help` in words, not code: GAME_FILE and --as NAME rather than {game_file} and <str>,
    and a line for every --json."""
    if param.metavar is None and not getattr(param, "is_flag", False) and param.name:
        if getattr(param, "param_type_name", "") == "argument":
            shown = param.name.upper() + ("..." if param.nargs == -1 else "")
            param.metavar = shown
            param._usage_display_name = lambda: shown if param.required else f"[{shown}]"
            param.display_type_rich = lambda ctx: None  # no <path>, <list[str]>
        else:
            param.metavar = _METAVARS.get(param.name, param.name.upper().rstrip("_"))
    if "--json" in getattr(param, "opts", ()) and not param.help:
        param.help = "print the answer as JSON (for programs)"


def _plain_coercion(param) -> None:
    """Typer converts each parameter's text through pydantic, whose import alone costs more
    than typer's (bench/bench.py). The judge's parameters are str, int, Path or lists of str:
    convert those directly. Other typers (no `_runtime_param`) and other types keep their way."""
    descriptor = getattr(param, "type_descriptor", None)
    if getattr(param, "_runtime_param", False) is not None or descriptor is None:
        return
    annotation = descriptor.annotation
    item = get_args(annotation)[0] if get_origin(annotation) is list else annotation
    if item not in _PLAIN:
        return
    from typer._coercion import RuntimeParam

    class Plain(RuntimeParam):
        def _coerce_value(self, value, param, ctx):
            try:
                if get_origin(self.annotation) is list:
                    return [_PLAIN[item](v) for v in value]
                return _PLAIN[item](value)
            except ValueError:
                raise typer.BadParameter(f"'{value}' is not a valid {item.__name__}", ctx=ctx, param=param) from None

    param._runtime_param = Plain(parameter_info=descriptor.parameter_info, annotation=annotation)


app = typer.Typer(
    cls=_Group,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="A play-by-email judge for stock-market board games.",
)


def _version(asked: bool) -> None:
    if asked:
        from judge import __version__

        typer.echo(f"judge {__version__}")
        raise typer.Exit()


@app.callback()
def _judge(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the judge's version and exit."),
) -> None:
    """A play-by-email judge for stock-market board games. Exit codes: docs/commands.md."""


def main() -> None:
    import gc

    # What is imported lives as long as the command: keep the collector from scanning it again
    # and again while the game file is parsed (everything made from here on is still collected).
    gc.freeze()
    # typer builds every command's parser before running one; building only the command
    # asked for saves a tenth of `judge order`'s time. `judge`, `judge --help` and an unknown
    # command still see them all.
    asked = sys.argv[1] if len(sys.argv) > 1 else ""
    only = [c for c in app.registered_commands if c.callback.__name__.rstrip("_") == asked]
    if only:
        app.registered_commands[:] = only
    app(prog_name="judge")


def _json(data) -> None:
    import json

    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _refused(error: str, code: int, as_json: bool, **more) -> None:
    """End a command refused: `judge: ERROR` on standard error, or with --json the object
    {"ok": false, "error": ERROR, "exit": CODE, ...more} on standard output; exit CODE."""
    if as_json:
        _json({"ok": False, "error": error, "exit": code, **more})
    else:
        _say(f"judge: {error}", err=True)
    raise typer.Exit(code)


def _json_option():
    return typer.Option(False, "--json")


def _read_text(source: str, data: bytes) -> str:
    if len(data) > MAX_INPUT:
        raise UsageError(f"{source} is larger than {MAX_INPUT} bytes")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark (Windows Notepad) is dropped
    except UnicodeDecodeError:
        raise UsageError(f"{source} is not UTF-8 text") from None


def _parse_options(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key.strip()] = value
    return out


def _load_setup(path: Optional[Path]) -> dict:
    if path is None:
        return {}
    import tomllib

    try:
        raw = path.read_bytes()
    except OSError as e:
        raise UsageError(f"cannot read setup file {path}: {e.strerror}") from None
    try:
        return tomllib.loads(_read_text(str(path), raw))
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"setup file {path} is not valid TOML: {e}") from None
    except RecursionError:
        raise UsageError(f"setup file {path} is not valid: its TOML is nested too deeply") from None


@app.command()
def rulesets(as_json: bool = _json_option()) -> None:
    """List the rulesets with their player counts and options."""
    if as_json:
        return _json([{"name": rs.name, "version": rs.version, "title": rs.title, "min_players": rs.min_players,
                       "max_players": rs.max_players, "old_versions": list(rs.old_versions),
                       "options": [o.describe() for o in rs.options]} for rs in registry.every()])
    for rs in registry.every():
        olds = [str(v) for v in rs.old_versions]
        versions = f"versions {', '.join(olds[:-1])} and {olds[-1]}" if len(olds) > 1 else f"version {''.join(olds)}"
        older = f"; still plays {versions} for older games" if olds else ""
        _say(f"{rs.name} (version {rs.version}{older}): {rs.title}, {rs.min_players}-{rs.max_players} players")
        for o in rs.options:
            _say(f"    --option {o.describe()}")


def _config_option():
    return typer.Option(None, "--config", help="the judge's configuration judge.toml (default: $JUDGE_CONFIG)")


def _now_option():
    return typer.Option(None, "--now", hidden=True, help="pretend it is this time (ISO), for tests")


@contextmanager
def _mail_site(config: Optional[Path], cfg=None):
    """The judge's configuration and an open outbox, closed at the end. Refused for a user
    other than the owner of the games directory."""
    from judge.store import config as configs
    from judge.mail import host, outbox as outboxes

    cfg = (cfg or configs.load(config)).require_mail()
    host.check_user(cfg.games)
    box = outboxes.open_outbox(cfg)
    try:
        yield cfg, box
    finally:
        box.close()


def _now(text: Optional[str]):
    from datetime import datetime, timezone

    from judge.mail.mailgame import parse_time

    if text is None:
        return datetime.now(timezone.utc)
    try:
        return parse_time(text)
    except ValueError:
        raise UsageError(f"--now takes an ISO date and time such as 2026-05-01T12:00:00Z, not '{text}'") from None


def _site(config: Optional[Path]):
    """The configuration given (--config) or found ($JUDGE_CONFIG), or None: shell commands
    archive their changes when it names an [archive]."""
    if config is None and not os.environ.get("JUDGE_CONFIG"):
        return None
    from judge.store import config as configs

    return configs.load(config)


def _say(text: str, err: bool = False) -> None:
    """An answer, each line wrapped to 78 columns (a mail's line, a phone's screen): a longer
    line goes on 4 columns further in, never cut (judge/engine/report.py's wrap)."""
    from judge.engine.report import wrap

    typer.echo(wrap(text), err=err)


def _warn(warning: str) -> None:
    if warning:
        _say(f"judge: warning: {warning}", err=True)


@app.command()
def new(
    ruleset: str,
    game_file: Path,
    player: List[str] = typer.Option(..., "--player", "-p", help="NAME or NAME=ADDRESS (a mail game), in seat order; repeat"),
    seed: Optional[int] = typer.Option(None, help="seed of the random generator (default: random)"),
    option: List[str] = typer.Option([], "--option", "-o", help="KEY=VALUE; repeat"),
    setup: Optional[Path] = typer.Option(None, help="a TOML file fixing what would be random"),
    observer: List[str] = typer.Option([], "--observer", help="an address that gets the public reports; repeat"),
    deadline: int = typer.Option(0, help="mail games: hours for each move (0: no deadline)"),
    grace: int = typer.Option(0, help="mail games: hours of grace after a deadline"),
    remind: int = typer.Option(12, help="mail games: remind this many hours before a deadline (0: never)"),
    press: str = typer.Option("on", help="mail games: press between players: off, on or anon (may be anonymous)"),
    skip_weekends: bool = typer.Option(False, "--skip-weekends", help="mail games: deadlines count Monday to Friday only"),
    min_reliability: Optional[str] = typer.Option(None, "--min-reliability", help="refuse players whose league "
                                                  "reliability (orders on time, 0 to 1) is lower, e.g. 0.8"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """Create a new game file (never overwrites one). With NAME=ADDRESS players it is played
    by mail: every player gets a password and a welcome mail with their first report."""
    names = [p.partition("=")[0].strip() for p in player]
    addresses = {n: p.partition("=")[2].strip() for n, p in zip(names, player) if "=" in p}
    if addresses and len(addresses) != len(names):
        raise UsageError("in a mail game every player is given as NAME=ADDRESS")
    if addresses or observer:  # the mail modules only for a mail game (they import smtplib, ssl)
        from judge.mail.addresses import is_address

        bad = [a for a in [*addresses.values(), *observer] if not is_address(a)]
        if bad:
            raise UsageError(f"'{bad[0]}' is not a mail address (write local@example.org)")
    if press not in ("off", "on", "anon"):
        raise UsageError(f"--press is off, on or anon, not '{press}'")
    if not addresses and (observer or deadline):
        raise UsageError("--observer and --deadline are for mail games (players given as NAME=ADDRESS)")
    if min(deadline, grace, remind) < 0 or max(deadline, grace, remind) > 24 * 365:
        raise UsageError("--deadline, --grace and --remind are hours from 0 to 8760")
    game = Game.new(ruleset, names, seed=seed, options=_parse_options(option), setup=_load_setup(setup))
    from judge.change import unit
    from judge.store import seatkeys

    seatkeys.ensure(game)  # (each seat's key to its private page: its link is in the welcome)

    unit.check_user(game_file)
    if min_reliability is not None:
        _check_reliability(names, min_reliability, config, game_file)
    made = {"ok": True, "game_file": str(game_file), "players": game.players, "seed": game.rng.seed}
    if not addresses:
        _warn(unit.create(game_file, game, _site(config)))
        if as_json:
            return _json({**made, **game.status()})
        _say(f"created {game_file}: {game.ruleset.name}, players {', '.join(game.players)}, seed {game.rng.seed}")
        _echo_waiting(game)
        return
    from judge.mail import mailgame

    from judge.mail.outbox import refused_recipients

    with _mail_site(config) as (cfg, box):
        name = cfg.game_name(game_file)
        if game_file.exists():
            raise GameFileError(f"{game_file.name} exists already; the judge never overwrites a game")
        refused = refused_recipients(cfg, [*addresses.values(), *observer])  # before anything is made
        if refused:
            raise UsageError("nothing was created: the mail server refuses " +
                             "; ".join(f"{a} ({why})" for a, why in refused.items()))
        passwords = mailgame.enable(game, addresses, observer, deadline, grace, min(remind, deadline // 2), _now(now))
        if press != "on":
            game.meta["mail"]["press"] = press
        if skip_weekends:
            game.meta["mail"]["skip_weekends"] = True
            mailgame.MailGame(game, name).reset_deadline(_now(now))
        welcomes = mailgame.MailGame(game, name).welcomes(cfg, passwords)
        _warn(unit.create(game_file, game, cfg, box, welcomes, _now(now)))
        made.update({"game": name, **game.status(), "passwords": passwords, "observers": len(observer)})
        if as_json:
            from judge.engine.errors import MailError

            try:
                box.flush()
            except MailError as e:  # created: the passwords are shown now or never
                _refused(str(e), e.exit_code, True, created=made)
            return _json(made)
        _say(f"created mail game {name} ({game_file}): {game.ruleset.name}, players {', '.join(game.players)}, seed {game.rng.seed}")
        _echo_waiting(game)
        typer.echo("passwords (shown only now; the game file keeps their hashes):")
        for who, password in passwords.items():
            typer.echo(f"  {who}: {password}" + ("  (game master: 'player gm PASSWORD')" if who == GM else ""))
        box.flush()  # a failure leaves the welcomes in the outbox for the next judge mail or tick
    _say(f"welcome mails sent to {len(game.players)} players" +
         (f" and {len(observer)} {_plural(len(observer), 'observer', 'observers')}" if observer else ""))


def _check_reliability(names: list[str], minimum: str, config: Optional[Path], game_file: Path) -> None:
    """`new --min-reliability`: the players' league records, read from the site's archive or
    game directory (with --config or $JUDGE_CONFIG), else from the new game file's directory."""
    from judge.league import admission, records

    try:
        share = float(minimum)
    except ValueError:
        raise UsageError(f"--min-reliability is a share from 0 to 1, such as 0.8, not '{minimum}'") from None
    cfg = _site(config)
    source = records.site_source(cfg) if cfg else game_file.absolute().parent
    for note in admission.check(source, names, share, cfg.aliases if cfg else None):
        _say(f"judge: {note}", err=True)


@app.command()
def league(
    source: Optional[Path] = typer.Argument(None, help="a games directory, an archive of records, or a record "
                                            "(default: the configuration's archive, else its games)"),
    as_json: bool = _json_option(),
    as_csv: bool = typer.Option(False, "--csv"),
    since: Optional[str] = typer.Option(None, "--since", help="only games that ended on this day (YYYY-MM-DD) or later"),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="only this ruleset's games"),
    config: Optional[Path] = _config_option(),
) -> None:
    """Ratings and reliability of every player over finished games, per ruleset and over all,
    from public records alone (docs/league.md)."""
    from datetime import date

    from judge.league import index, records, table

    if as_json and as_csv:
        raise UsageError("give --json or --csv, not both")
    if since is not None:
        try:
            since = date.fromisoformat(since).isoformat()
        except ValueError:
            raise UsageError(f"--since takes a date YYYY-MM-DD, not '{since}'") from None
    if ruleset is not None:
        ruleset = registry.get(ruleset).name
    cfg = _site(config)
    if source is None and cfg is None:
        raise UsageError("name the games directory, archive or record (or give --config judge.toml)")
    sections, excluded, unaudited, warnings = index.read_league(source or records.site_source(cfg),
                                                                cfg.aliases if cfg else None, ruleset, since)
    for warning in warnings:
        _say(f"judge: {warning}", err=True)
    if as_json:
        return typer.echo(table.as_json(sections, excluded, unaudited), nl=False)
    if as_csv:  # (a table of players: the games left out are told on standard error)
        for note in table.left_out(excluded, unaudited).splitlines():
            _say(f"judge: {note.strip()}", err=True)
        return typer.echo(table.as_csv(sections), nl=False)
    typer.echo(table.text(sections) + ("\n" + table.left_out(excluded, unaudited) if excluded or unaudited else ""),
               nl=False)


@app.command()
def mail(
    maildir: Optional[Path] = typer.Option(None, "--maildir", help="handle every new message of this Maildir"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """Handle one message from standard input (an MTA or procmail pipe), or a Maildir's new mail."""
    from judge.store import config as configs
    from judge.gateway import inbox as gateway, parse as mailparse
    from judge.mail import host

    # a problem of the host (configuration, files, user) exits 75 without details: the MTA
    # would pass them on to the sender; they go to the judge's log and the game master
    with host.guarded(lambda: configs.load(config, games_exist=False)) as cfg, _mail_site(config, cfg) as (cfg, box):
        if maildir is not None:
            done = gateway.handle_maildir(maildir, cfg, box, lambda: _now(now))
            if as_json:
                return _json({"ok": True, "handled": done})
            typer.echo(f"{len(done)} {_plural(len(done), 'message', 'messages')} handled")
            return
        raw = sys.stdin.buffer.read(mailparse.MAX_MESSAGE + 1)
        while sys.stdin.buffer.read(1 << 16):  # take the rest from the pipe; its size refuses it
            pass
        from judge.mail.outbox import MailError

        try:
            handled = gateway.handle_piped(raw, cfg, box, _now(now))
            _json({"ok": True, "handled": [handled]}) if as_json else typer.echo(handled)
        except MailError as e:  # what the MTA may quote in a bounce names no host, path or error
            host.write_log(cfg, str(e))
            raise MailError(host.PUBLIC) from None


@app.command()
def tick(
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """Run from cron: reminders before deadlines, missed orders after them."""
    from judge.store import config as configs
    from judge.gateway import deadlines
    from judge.mail import host

    from judge.engine.errors import MailError

    # a problem of the host (a full disk, a read-only file system, the games directory gone)
    # is one line and exit 75, its detail in the judge's log, the game master told
    with host.guarded(lambda: configs.load(config, games_exist=False), "tick") as cfg, \
            _mail_site(config, cfg) as (cfg, box):
        problems = []
        done = deadlines.tick(cfg, box, _now(now), problems)
        if problems:  # (one line, exit 75; with --json the refusal object)
            if not as_json:
                for line in done:
                    typer.echo(line)
            raise problems[0]
        down = box.down
    # (answered outside host.guarded, which takes any other exception for a host problem)
    if as_json and down:  # what was done stands: its mails wait in the outbox
        _refused(down, MailError.exit_code, True, done=done)
    if as_json:
        return _json({"ok": True, "done": done})
    for line in done:
        typer.echo(line)
    if down:
        raise MailError(down)


@app.command()
def watch(config: Optional[Path] = _config_option(), as_json: bool = _json_option()) -> None:
    """Read the IMAP mailbox of judge.toml's [imap] and handle each new message as `judge mail`
    does; run `judge tick` every [imap] tick seconds. Runs until Ctrl-C or SIGTERM. With --json
    each log line is a JSON object of its own line, {"time", "log"} (JSON Lines)."""
    from judge.store import config as configs
    from judge.gateway.watch import Watcher

    cfg = configs.load(config)
    if not cfg.imap:
        raise UsageError(f"{cfg.where} has no [imap]: judge watch reads the mailbox it names (docs/mail.md)")
    with _mail_site(config, cfg) as (cfg, _):  # (the owner of the games directory only)
        Watcher(cfg, say=_json_line if as_json else typer.echo).run()


def _json_line(line: str) -> None:
    """A log line of judge watch ("TIME TEXT") as one line of JSON."""
    import json

    time_, _, text = line.partition(" ")
    typer.echo(json.dumps({"time": time_, "log": text}, ensure_ascii=False))


@app.command()
def order(
    game_file: Path,
    orders: List[str] = typer.Argument(None, help="orders, one an argument (quote orders with spaces)"),
    as_: Optional[str] = typer.Option(None, "--as", help="the player giving the orders"),
    gm: bool = typer.Option(False, "--gm", help="orders of the game master"),
    file: Optional[Path] = typer.Option(None, "--file", "-f", help="read orders from FILE, one a line ('-': "
                                        "standard input)"),
    config: Optional[Path] = _config_option(),
    as_json: bool = _json_option(),
) -> None:
    """Validate orders in sequence and apply all of them, or none.

    The orders come from the arguments, else from --file, else from standard input, one a
    line. '#17 bid' carries the move number it was written for (refused as stale later);
    '# ' or a lone '#' starts a comment. Lines after an order that revealed something (a
    card, a roll, the turn passed) are NOT JUDGED: send them again. A player's 'resign',
    'propose end', 'agree end' or 'press' does what it does by mail (alone). Exit codes: 0 all
    applied, 6 applied up to a NOT JUDGED line, 4 refused (nothing applied), 2 usage, 3 game
    file (docs/commands.md)."""
    if gm == bool(as_):
        raise UsageError("give exactly one of --as NAME and --gm")
    if orders:
        text = "\n".join(orders)
    elif file is not None and str(file) != "-":
        try:
            text = _read_text(str(file), file.read_bytes())
        except OSError as e:
            raise UsageError(f"cannot read {file}: {e.strerror}") from None
    else:
        text = _read_text("standard input", sys.stdin.buffer.read(MAX_INPUT + 1))
    line = _player_line(text)
    if line is not None:
        return _give_player_line(game_file, config, as_, gm, line, as_json)

    def give(g):
        who = GM if gm else g.player_name(as_)
        seen = registry.visible_events(g.state, who)
        return g, (who, seen, g.submit(who, text))

    game, (who, seen, accepted) = _changed(game_file, config, give)
    if as_json:
        since = registry.new_events(seen, registry.visible_events(game.state, who))
        mine = standing.describe(game.state, who) if who != GM and any(
            isinstance(o, standing.Command) for o in accepted) else []
        _json({"accepted": [str(o) for o in accepted], "not_judged": accepted.unjudged,
               "not_judged_why": accepted.not_judged(), "events": since, "standing": mine,
               **game.status()})
    else:
        _echo_accepted(game, who, seen, accepted)
        _echo_waiting(game)
    if accepted.unjudged:
        raise typer.Exit(NOT_JUDGED_EXIT)


def _echo_accepted(game: Game, who: str, seen: list[dict], accepted) -> None:
    """`ok: ORDER` a line, the lines not judged, the player's standing orders when they changed
    them, and what happened since (`seen`: the events they saw before)."""
    for o in accepted:
        _say(f"ok: {o}")
    for line in accepted.not_judged():
        _say(line)
    if who != GM and any(isinstance(o, standing.Command) for o in accepted):
        for line in standing.describe(game.state, who):
            _say(line)
    since = registry.new_events(seen, registry.visible_events(game.state, who))
    if since:
        typer.echo("what happened:")
        for e in since:
            _say(f"  #{e['move']} {e['text']}")


def _player_line(text: str) -> str | None:
    """The line of `text` if it is `resign`, `propose end`, `agree end` or `press` (what a
    player writes by mail besides orders), else None: such a line comes alone."""
    from judge.mail import players

    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not any(players.is_player_line(line) for line in lines):
        return None
    if len(lines) != 1:
        raise UsageError("give resign, propose end, agree end or press alone, one in a 'judge order'")
    return lines[0]


def _give_player_line(game_file: Path, config: Optional[Path], as_: Optional[str], gm: bool, line: str,
                      as_json: bool) -> None:
    """Carry out a player's `resign`, `propose end`, `agree end` or `press` as the mail gateway
    does (one implementation: judge/mail/players.py), in one change: in a mail game everyone is
    told by mail (the configuration is needed), press to one player is mailed to them, and
    anonymous press goes as a change of its own (judge/gateway/selfservice.py)."""
    from judge.change.unit import Change
    from judge.mail import players

    verb, args = line.split()[0].lower(), line.split()[1:]
    with Change(game_file, _site(config), needs_mail=True) as unit:
        game, m = unit.game, unit.game.meta.get("mail")
        try:
            if gm:
                raise JudgeError(f"'{verb}' is a player's line: give it with --as PLAYER")
            who = game.player_name(as_)
            notice = players.carry_out(game, m, who, verb, args)
        except OrderError:
            raise
        except JudgeError as e:
            raise IllegalOrder(str(e), line) from None
        if m is not None:
            players.play_resigned(game, m)
        unit.notices += [notice] if notice else []
        anonymous = verb == "press" and bool(args) and args[0].lower() == "anon"
        told = notice or ("anonymous press: sent by a later judge tick, with the others' anonymous press"
                          if anonymous else f"press to {game.player_name(args[0])} sent")
    _warn(unit.warning)
    if m is not None and not anonymous and m.get("press_pending"):
        from judge.gateway.selfservice import deliver_press

        deliver_press(unit.path, unit.name, unit.cfg, None, unit.now)
    if unit.box_down:
        _say(f"judge: {unit.box_down}", err=True)
    if as_json:
        return _json({"accepted": [], "told": told, **unit.game.status()})
    _say(f"ok: {told}")
    _echo_waiting(unit.game)


def _changed(game_file: Path, config: Optional[Path], change):
    """One change of the game (judge/change/unit.py): `change(game)` gives (the game to save,
    its result); saved with the reports it mails (a mail game, given a configuration) and
    archived when the configuration asks. Returns both."""
    from judge.change.unit import Change

    with Change(game_file, _site(config)) as unit:
        unit.game, result = change(unit.game)
    _warn(unit.warning)
    if unit.box_down:
        _say(f"judge: {unit.box_down}", err=True)
    return unit.game, result


def _echo_waiting(game: Game) -> None:
    """The waiting line and the log's head (`Log head: move N HEX`, which a player keeps to
    check the game later with `judge audit --head`)."""
    typer.echo(game.waiting_line())
    if game.head_line():
        typer.echo(game.head_line())


def _read(game_file: Path, as_json: bool):
    """(the game, the record): a game file, or a public record (the game inside it once it is
    complete, else None), said so on the first line of a text answer."""
    from judge.record import public

    game, record = public.read(game_file)
    if record is not None and not as_json:
        typer.echo(public.note(record))
    return game, record


def _running_record(what: str) -> UsageError:
    return UsageError(f"a running game's public record holds only what the public sees now: {what}")


@app.command()
def status(game_file: Path, as_json: bool = _json_option()) -> None:
    """Round, phase, move number, who must act and how; the winners at the end (a game file
    or a public record)."""
    from judge.record.corrections import holder

    game, record = _read(game_file, as_json)
    if game is not None:
        st = {**game.status(), "players": [{"seat": p, "player": holder(game, p)} for p in game.players]}
    else:
        view, seats = record["view"], record.get("seats", {})
        st = {"ruleset": record.get("ruleset", ""), "move": record["move"], "awaiting": view.get("awaiting", []),
              "expecting": view.get("prompts", {}), "game_over": False, "winners": [],
              "commitment": record.get("commitment", ""), "log_head": record.get("log_head"),
              "players": [{"seat": p, "player": seats.get(p, {}).get("player", p)} for p in record.get("players", [])]}
    if as_json:
        return _json(st)
    extra = ", ".join(f"{k} {v}" for k, v in st.items() if v not in ("", None)  # (no commitment: a game made before)
                      and k not in ("ruleset", "move", "awaiting", "expecting", "game_over", "winners", "players",
                                    "log_head"))
    _say(f"{st['ruleset']}: move {st['move']}" + (f", {extra}" if extra else ""))
    if isinstance(st.get("log_head"), dict):
        from judge.engine import chain

        _say(chain.line(st["log_head"]))
    if st["game_over"]:
        _say(f"game over; winners: {', '.join(st['winners'])}")
    else:
        for p in st["awaiting"]:
            _say(f"waiting for {p}: {st['expecting'][p]}")


@app.command()
def show(
    game_file: Path,
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose report to show"),
    gm: bool = typer.Option(False, "--gm", help="everything, for the game master"),
    as_json: bool = _json_option(),
) -> None:
    """A player's report, the public report, or (--gm) everything (a game file, or a public
    record: its public report)."""
    game, record = _read(game_file, as_json)
    if game is not None:
        return _show(game, as_, gm, as_json)
    if as_ or gm:
        raise _running_record("the public report, without --as or --gm")
    if as_json:
        return _json({**record["view"], "log_head": record.get("log_head")})
    from judge.engine import chain

    head = record.get("log_head")
    shown = chain.line(head) if isinstance(head, dict) and {"move", "hash"} <= set(head) else ""
    typer.echo(record["report"] + (f"\n{shown}\n" if shown else ""), nl=False)


def _show(game: Game, as_: Optional[str], gm: bool, as_json: bool) -> None:
    if gm and as_:
        raise UsageError("give at most one of --as NAME and --gm")
    view = game.view(GM if gm else (game.player_name(as_) if as_ else None))
    if as_json:
        return _json({**view, "log_head": game.log_head()})  # (the head the report's last line shows)
    from judge.engine.report import render

    typer.echo(render(view) + (f"\n{game.head_line()}\n" if game.head_line() else ""), nl=False)


@app.command()
def standings(game_file: Path, as_json: bool = _json_option()) -> None:
    """The score track now; at the end the final ranking with the tie-break applied (a game
    file or a public record)."""
    game, record = _read(game_file, as_json)
    if game is not None:
        rows, over = game.ruleset.standings(game.state), game.is_over()
    elif isinstance(record.get("standings"), list):
        rows, over = record["standings"], False
    else:
        raise _running_record("this one was written before records held the score track")
    if as_json:
        return _json(rows)
    from judge.engine.report import render_standings

    typer.echo(render_standings(rows, over), nl=False)


@app.command(name="help")
def help_(
    ruleset: Optional[str] = typer.Argument(None, help="a ruleset (judge rulesets lists them)"),
    topic: Optional[str] = typer.Argument(None, help="a topic the help names (rumors: cards)"),
    as_json: bool = _json_option(),
) -> None:
    """A ruleset's order words, the terms of its reports and its rules in short."""
    from judge.engine.report import render_help

    if as_json:
        if ruleset is None:
            return _json({"rulesets": [rs.name for rs in registry.every()]})
        rs = registry.get(ruleset)
        return _json({"ruleset": rs.name, "topic": topic or "", "text": render_help(rs, topic or "")})
    if ruleset is None:
        typer.echo("judge help RULESET: a ruleset's orders, its reports' terms, its rules.")
        typer.echo("The rulesets:")
        for rs in registry.every():
            typer.echo(f"  {rs.name:<12} {rs.title}, {rs.min_players}-{rs.max_players} players")
        typer.echo("The commands: judge --help; each command's options: judge COMMAND --help.")
        return
    typer.echo(render_help(registry.get(ruleset), topic or ""), nl=False)


@app.command(name="orders")
def orders_(
    game_file: Path,
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose orders to list"),
    gm: bool = typer.Option(False, "--gm", help="the game master's orders"),
    as_json: bool = _json_option(),
) -> None:
    """Every order a player may give now, one a line, exactly as the judge accepts it (the
    report shows them as a short grammar)."""
    if gm == bool(as_):
        raise UsageError("give exactly one of --as NAME and --gm")
    game = gamefile.load(game_file)
    who = GM if gm else game.player_name(as_)
    listed = game.ruleset.legal_orders(game.state, who) if who in game.awaiting() else []
    if as_json:
        return _json(listed)
    for o in listed:
        typer.echo(o)
    if not listed:
        _say(f"{who} has no order to give now ({game.waiting_line()})")


@app.command()
def verify(game_file: Path, as_json: bool = _json_option()) -> None:
    """Replay the log from the start and compare with the saved state (a game file, or the
    public record of a finished game). Exit code 5 when they differ or the log does not
    replay (as judge audit)."""
    from judge.record.public import load_game

    game = load_game(game_file)
    try:
        diffs = game.differences(game.replay())
    except GameFileError as e:  # a log that does not replay: the same failure as audit's
        diffs = [str(e)]
    if diffs:
        raise VerifyError("replay differs from the saved state: " + "; ".join(diffs))
    orders, judged, replay = _replays(game, lambda n, one, many: f"{n} {_plural(n, one, many)}")
    if as_json:
        return _json({"ok": True, "orders": orders, "judge_entries": judged, "move": game.move})
    _say(f"ok: {replay} to the saved "
         f"state (move {game.move})")


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _replays(game: Game, count=None) -> tuple[int, int, str]:
    """(the orders of the log, the judge's own entries, "all 12 orders and the judge's 2 entries
    replay"; `count`(n, one, many) words the orders: "all 12 orders" by default): the judge's
    entries (judge/engine/facts.py) are no one's orders."""
    count = count or _all
    judged = sum(1 for e in game.log if facts.is_fact(e))
    n = len(game.log) - judged
    if not judged:
        return n, 0, count(n, 'order replays', 'orders replay') if n else "no order replays"
    return n, judged, (f"{count(n, 'order', 'orders') if n else 'no order'} and the judge's {judged} "
                       f"{_plural(judged, 'entry', 'entries')} replay")


def _all(n: int, one: str, many: str) -> str:
    """"the one draw" or "all 12 draws" (n >= 1)."""
    return f"the one {one}" if n == 1 else f"all {n} {many}"


@app.command()
def audit(
    game_file: Path,
    commitment: Optional[str] = typer.Option(None, help="the commitment your first report showed, to compare "
                                             "(all 64 hex digits, or a unique start of them: at least 8)"),
    head: Optional[list[str]] = typer.Option(None, "--head", help="N:HEX, a report's 'Log head: move N HEX' "
                                             "(16 hex digits or more; repeatable): the record must be the game "
                                             "in which it was sent"),
    views: Optional[list[Path]] = typer.Option(None, "--views", help="the players' private views published "
                                               "(GAME.private.json, a site's folder, or the archive's git "
                                               "repository: every version in its history; repeatable): each "
                                               "must be the report the replay gives its player then"),
    as_json: bool = _json_option(),
) -> None:
    """Check a game's honesty: its seed, setup and salt give the commitment published at the
    start, its log is the one in which each --head was sent, and it replays from them to the
    saved state (a game file, or the public record of a finished game); with --views, each
    private view published opens with the seat key the record reveals and is the report the
    replay gives its player at that point. Exit code 5 when it fails."""
    from judge.engine import chain
    from judge.record.public import load_game

    heads = []
    for text in head or []:
        try:
            heads.append(chain.parse(text))
        except ValueError as e:
            raise UsageError(f"--head '{text.strip()[:70]}': {e}") from None
    game = load_game(game_file)
    wrong = _record_heads_wrong(game_file, game)
    if commitment is not None:
        given = commitment.strip().lower()
        if len(given) < 8 or any(c not in "0123456789abcdef" for c in given) or len(given) > 64:
            raise UsageError(f"--commitment takes the hex digits of the commitment (all 64, or at least the "
                             f"first 8), not '{commitment.strip()[:70]}'")
    problems = game.audit(heads)
    if commitment is not None and not (game.commitment or "").startswith(given):
        problems.insert(0, f"the game's commitment is {game.commitment or 'missing'}, not {commitment.strip()}")
    if wrong:
        problems.append(f"the record shows heads of the log's chain that its log does not give (move "
                        f"{', '.join(map(str, wrong[:5]))}{' ...' if len(wrong) > 5 else ''}): the record was edited")
    private = _private_views(game_file, views, problems) if views else None
    if problems:
        raise VerifyError("audit failed: " + "; ".join(problems))
    from judge.engine.orderlog import LogEntry

    given_by_gm = sum(1 for e in game.log if (read := LogEntry.read(e)) is not None and read.player == GM)
    if game.rng.draws == 0:
        drawn = "the game drew nothing from its generator"
    else:
        drawn = f"{_all(game.rng.draws, 'draw', 'draws')} of its generator came from the committed seed"
    if given_by_gm:
        orders = _plural(given_by_gm, "order (as their roll or result) is", "orders (as their rolls or results) are")
        drawn += f"; the game master's {given_by_gm} {orders} in the log as given: the seed does not vouch for them"
    chosen = game.set_by_gm()
    orders, judged, replay = _replays(game)
    last = game.log_head()
    if as_json:
        return _json({"ok": True, "seed": game.rng.seed, "commitment": game.commitment,
                      "orders": orders, "judge_entries": judged, "draws": game.rng.draws,
                      "game_master_orders": given_by_gm, "set_by_game_master": chosen,
                      "log_head": last, "heads": [{"move": m, "hash": h} for m, h in heads],
                      "before_rollbacks": chain.before_rollbacks(game.commitment, game.salt, game.log, heads,
                                                                 game.corrections, game.ended),
                      **({"private_views": private} if private else {})})
    if chosen:
        drawn += f"; set by the game master, not drawn by the judge: {', '.join(chosen)}"
    key = " key," if game.rng.key else ""
    replay = f"{replay} from them" if game.log else "the game, with no order logged, is"
    _say(f"ok: seed {game.rng.seed},{key} setup and salt match the commitment {game.commitment}, and "
         f"{replay} to the saved state: {drawn}{_stretches(game)}.")
    _say(_chain_said(game_file, last, heads))
    if private:
        _say(f"The private views: {private['checked']} given, each opened with its seat's revealed key and "
             f"equal to the report the replay gives its player then; the record lists {private['listed']}"
             + (f" ({private['listed'] - private['checked']} not given, so not checked)."
                if private["listed"] > private["checked"] else "."))
    for note in chain.before_rollbacks(game.commitment, game.salt, game.log, heads, game.corrections, game.ended):
        _say(f"Note: {note}.")


def _private_views(game_file: Path, views: list[Path], problems: list[str]) -> dict:
    """audit --views: every private view found at `views` checked against the finished record
    at `game_file` (judge/publish/private.py); what is wrong is added to `problems`."""
    from judge.publish import private
    from judge.record import public

    data = gamefile.parse_toml(gamefile.read_bytes(game_file), str(game_file))
    if not public.is_record(data):
        raise UsageError("--views checks the private views against a finished game's public record (the "
                         "archive's RULESET/GAME.toml), which lists them and reveals the seat keys")
    found = [s for path in views for s in private.published(path, data["game"])]
    if not found:
        problems.append(f"no private view of game {data['game']} was found at {', '.join(map(str, views))}")
    game = public.finished_game(data, str(game_file))
    checked, wrong = private.audit(game, data, found)
    problems += wrong
    return {"checked": checked, "listed": len(private.listed(data))}


def _record_heads_wrong(path: Path, game: Game) -> list[int]:
    """The moves whose head a public record at `path` shows wrongly ([] for a game file)."""
    from judge.record import public

    data = gamefile.parse_toml(gamefile.read_bytes(path), str(path))
    return public.wrong_heads(data, game) if public.is_record(data) else []


def _chain_said(game_file: Path, last: dict, heads: list[tuple[int, str]]) -> str:
    """What audit says of the log's chain: the heads given match, or, without one, that the
    chain is consistent but only a head a player received proves the game is the one played."""
    from judge.engine import chain

    if heads:
        moves = ", ".join(str(m) for m, _ in sorted(heads))
        return (f"The log is the one in which the head{'s' if len(heads) > 1 else ''} of move{'s' if len(heads) > 1 else ''} "
                f"{moves} {'were' if len(heads) > 1 else 'was'} sent: no entry up to "
                f"{'them' if len(heads) > 1 else 'it'} differs from the game its players were told.")
    return (f"The log's chain, from the commitment through every entry, ends at the head of move {last['move']}, "
            f"{last['hash'][:chain.SHOWN]}: it is consistent, but only a head a player received during the game "
            f"proves this record is the game that was played: judge audit {game_file.name} --head N:HEX (from any "
            "one report's 'Log head' line).")


def _stretches(game: Game) -> str:
    """The versions of the rules the log was played with, where `judge upgrade` changed it."""
    ups = [f for f in facts.facts(game.log) if f.kind == "upgrade"]
    if not ups:
        return ""
    said = f"; played by {game.ruleset.name} version {ups[0].args[0]} until move {ups[0].move}"
    said += "".join(f", then version {u.args[1]} until move {after.move}" for u, after in zip(ups, ups[1:]))
    return said + f", then version {ups[-1].args[1]} (judge upgrade)"


@app.command()
def export(game_file: Path, out: Path, as_json: bool = _json_option()) -> None:
    """Write the game's public record (TOML), safe to publish while the game runs; complete
    (seed, setup, whole log) once it is over. OUT '-' writes to standard output."""
    from judge.record import public as record

    game = gamefile.load(game_file)
    if str(out) == "-":
        if as_json:
            import tomllib

            return _json({"ok": True, "record": tomllib.loads(record.text(game, game_file.stem))})
        return typer.echo(record.text(game, game_file.stem), nl=False)
    record.export(game, game_file.stem, out)
    if as_json:
        return _json({"ok": True, "game": game_file.stem, "move": game.move, "out": str(out),
                      "complete": game.is_over()})
    _say(f"wrote the public record of {game_file.stem} at move {game.move} to {out}"
               + (" (complete: the game is over)" if game.is_over() else ""))


@app.command()
def archive(
    game_file: Path,
    git: Optional[Path] = typer.Option(None, "--git", help="a git repository to commit the public record to "
                                       "(default: judge.toml's [archive] git)"),
    config: Optional[Path] = _config_option(),
    as_json: bool = _json_option(),
) -> None:
    """Commit the game's public record to a git repository now (judge.toml's [archive] does it
    after every change): the one given by --git, else the configuration's [archive] git."""
    from judge.record import archive as archives

    if git is None:
        cfg = _site(config)
        if cfg is None or cfg.archive is None:
            where = f"this judge.toml ({cfg.where}) has no [archive] git: " if cfg is not None else ""
            raise UsageError(f"{where}give --git DIRECTORY, or a judge.toml with [archive] git = \"DIRECTORY\" "
                             "(--config FILE or JUDGE_CONFIG)")
        git = cfg.archive
    game = gamefile.load(game_file)
    message = archives.commit(game, game_file.stem, git)
    if as_json:
        return _json({"ok": True, "git": str(git), "committed": message or None})
    _say(f"committed: {message}" if message else "the archive holds this record already; nothing to commit")


@app.command(name="site")
def site_(source: Path, out: Path, config: Optional[Path] = _config_option(), as_json: bool = _json_option()) -> None:
    """Write the static site of the games at SOURCE (a game file, a public record, a games
    directory or an archive repository) into the folder OUT: an index, a page per game with its
    report at every move, charts, Atom feeds, CSV and JSON, the league of the finished games
    (with the configuration's [league] aliases); from public records only."""
    from judge.league.index import FOLDER
    from judge.publish import private
    from judge.site import build, listing

    cfg = _site(config)
    index = source / FOLDER
    had_site, had_index = (out / build.INDEX).exists(), index.exists()
    sealed = private.of_source(source, out, cfg.address if cfg else "")  # (a game file's private views)
    count, warnings = build.build(source, out, aliases=cfg.aliases if cfg else None, sealed=sealed)
    for warning in warnings:
        _warn(warning)
    listed = listing.listed(out)
    if as_json:
        return _json({"ok": True, "games": count, "listed": listed, "out": str(out),
                      "index": str(out / "index.html"), "warnings": warnings})
    said = [f"wrote the site of {count} {_plural(count, 'game', 'games')} to {out} (open {out / 'index.html'})"]
    if had_site and listed > count:
        said.append(f"{out} held a site already: it lists {listed} games, the {listed - count} it showed before "
                    "kept (a new folder shows these alone)")
    if index.is_dir() and not had_index:
        said.append(f"kept the league's index of {source} in {index} (read again by the next judge site or "
                    "judge league; git ignores it)")
    for line in said:
        _say(line)


@app.command()
def link(
    game_file: Path,
    as_: str = typer.Option(..., "--as", help="the player whose link to print"),
    config: Optional[Path] = _config_option(),
    as_json: bool = _json_option(),
) -> None:
    """A player's link to their own private page: the game's page on the site with their key
    in the fragment (#k=...), which no browser sends to a server. Relative to the site's
    folder, or absolute with judge.toml's [archive] site_url. Whoever holds it reads the
    player's view: send it to the player alone."""
    from judge.site import links

    cfg = _site(config)
    game = gamefile.load(game_file)
    seat = game.player_name(as_)
    made = links.private(game, game_file.stem, seat, cfg.site_url if cfg else "")
    if made is None:
        raise UsageError(f"game {game_file.stem} has no seat keys yet (a game made before private pages): "
                         "its next change gives them")
    if as_json:
        return _json({"link": made})
    typer.echo(made)


@app.command()
def history(
    game_file: Path,
    at: Optional[int] = typer.Option(None, "--at", help="the report as it stood at the start of this move"),
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose report to show"),
    gm: bool = typer.Option(False, "--gm", help="everything, for the game master"),
    as_json: bool = _json_option(),
) -> None:
    """The moves with their public events; with --at N the report at move N, replayed from the log."""
    from judge.record import history as past

    game, record = _read(game_file, as_json)
    if game is None:
        if at is not None or gm or as_:
            raise _running_record("its moves, without --at, --as or --gm")
        return _record_history(record, as_json)
    if at is None:
        if gm or as_:
            raise UsageError("--as and --gm choose whose report --at N shows; give --at N")
        rows = past.moves(game)
        if as_json:
            return _json(rows)
        from judge.record import corrections

        said = [(c.get("to_move", c.get("since", 0)), corrections.describe(c)) for c in corrections.public(game)]
        for row in rows:
            _say(f"move {row['move']}: " + "; ".join(row["orders"]) if row["orders"] else f"move {row['move']}:")
            for text in row["events"]:
                _say(f"    {text}")
            for at, text in said:
                if at == row["move"]:
                    _say(f"    correction: {text}")
        for at, text in said:
            if at not in {row["move"] for row in rows}:
                _say(f"move {at}: correction: {text}")
        return
    _show(past.at_move(game, at), as_, gm, as_json)


def _record_history(record: dict, as_json: bool) -> None:
    """The moves of a running game's public record: its public log by move, the recent public
    events it holds, and the game master's corrections."""
    from judge.record.corrections import describe

    rows: dict[int, dict] = {}
    for entry in record["log"]:
        number, _, rest = str(entry).partition(" ")
        if number.isdigit():
            rows.setdefault(int(number), {"move": int(number), "orders": [], "events": []})["orders"].append(rest)
    for e in record["view"].get("events", []):
        if isinstance(e, dict) and isinstance(e.get("move"), int):
            rows.setdefault(e["move"], {"move": e["move"], "orders": [], "events": []})["events"].append(e.get("text", ""))
    if as_json:
        return _json([rows[m] for m in sorted(rows)])
    for m in sorted(rows):
        _say(f"move {m}: " + "; ".join(rows[m]["orders"]))
        for text in rows[m]["events"]:
            _say(f"    {text}")
    for c in record.get("corrections", []):
        if isinstance(c, dict) and isinstance(c.get("kind"), str):
            _say(f"correction: {describe(c)}")


@app.command()
def notify(
    game: str,
    url: str = typer.Argument(..., help="an Apprise URL (discord://ID/TOKEN, ntfys://HOST/TOPIC ...), - to read it "
                              "from the standard input (kept out of the shell's history), or off"),
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose notices go there"),
    public: bool = typer.Option(False, "--public", help="the game's public channel (news everyone may see)"),
    digest: bool = typer.Option(False, "--digest", help="the player's notices in one digest at most every "
                                "[notify] digest minutes"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """Send a mail game's turn notices through Apprise (docs/notices.md): a player's (--as
    PLAYER) or the public channel's (--public). The URL is a secret: it is kept in the games
    directory's .mail/notify/ (0600) and never shown again."""
    from judge.mail import host, notify as notices
    from judge.store import config as configs

    if public == (as_ is not None):
        raise UsageError("give --as PLAYER or --public")
    if url == "-":
        url = sys.stdin.readline().strip()
    cfg = configs.load(config).require_mail()
    host.check_user(cfg.games)  # (the files it writes are the games directory owner's)
    said = notices.set_by_gm(cfg, game, as_, url, digest, _now(now).strftime("%Y-%m-%dT%H:%M:%SZ"))
    if as_json:  # (what it says names the service, never the URL)
        return _json({"ok": True, "game": game, "player": as_, "public": public, "said": said})
    _say(said)


@app.command()
def rollback(
    game_file: Path,
    to: int = typer.Option(..., "--to", help="the move to return to (its orders and all after are undone)"),
    reason: str = typer.Option(..., "--reason", help="why, shown to every player and in the public record"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """Undo every order from move N on (kept in the game's [[corrections]] trace); in a mail
    game every player is told by mail."""
    from judge.change import corrections

    game, undone, warning = corrections.rollback_file(game_file, _site(config), _now(now), to, reason)
    _warn(warning)
    if as_json:
        return _json({"ok": True, "to": to, "undone": list(undone), **game.status()})
    _say(f"rolled back to move {to}: {len(undone)} {_plural(len(undone), 'order', 'orders')} undone and kept in the trace")
    _echo_waiting(game)


@app.command()
def replace(
    game_file: Path,
    old: str,
    new: str,
    address: Optional[str] = typer.Option(None, "--address", help="mail games: the new player's address"),
    reason: str = typer.Option("", "--reason", help="shown in the public record"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """Hand the seat of player OLD to the new player NEW (the seat keeps its name in the game;
    the file records who plays it since when). A mail game needs --address: the new player
    gets a new password and a welcome mail."""
    from judge.change import corrections

    game, seat, password, warning = corrections.replace_file(game_file, _site(config), _now(now), old, new,
                                                             address, reason)
    _warn(warning)
    if as_json:
        return _json({"ok": True, "seat": seat, "player": new, "since": game.move, "password": password or None,
                      **game.status()})
    _say(f"{new} plays the seat {seat} from move {game.move}")
    if password:
        _say(f"password of {new} (shown only now; mailed with the welcome): {password}")


@app.command()
def upgrade(game_file: Path, config: Optional[Path] = _config_option(), as_json: bool = _json_option()) -> None:
    """Replay a game written under an older version of its ruleset by the current rules, and
    save it so if every logged order still fits (else nothing changes)."""
    new, old = _changed(game_file, config, lambda g: (g.upgraded(), g.ruleset.version))
    orders = _replays(new)[0]
    if as_json:
        return _json({"ok": True, "from_version": old, "to_version": new.ruleset.version, "orders": orders,
                      "changes": list(new.ruleset.changes_since(old)), **new.status()})
    _say(f"upgraded {game_file} from {new.ruleset.name} version {old} to version {new.ruleset.version}: "
         f"{orders} {_plural(orders, 'order', 'orders')} replayed")
    for line in new.ruleset.changes_since(old):
        _say(f"  - {line}")
    _echo_waiting(new)


@app.command()
def bot(
    game_file: Path,
    as_: Optional[str] = typer.Option(None, "--as", help="the player the bot plays"),
    gm: bool = typer.Option(False, "--gm", help="play the game master's turn (rumors' rolls, stock-round's "
                            "operating results)"),
    kind: str = typer.Option("sensible", help="sensible or random"),
    config: Optional[Path] = _config_option(),
    as_json: bool = _json_option(),
) -> None:
    """A built-in bot picks a legal order for a player, or with --gm for the game master, and
    submits it."""
    from judge.engine import bots

    if gm == bool(as_):
        raise UsageError("give exactly one of --as NAME and --gm")
    if kind not in bots.KINDS:
        raise UsageError(f"--kind is one of {', '.join(bots.KINDS)}")

    def play(game):
        player = GM if gm else game.player_name(as_)
        game.check_turn(player)
        if player not in game.awaiting():
            raise NotYourTurn(f"the game master has no order to give now ({game.waiting_line()})")
        return game, (player, game.submit(player, [bots.choose(game, player, kind)]))

    game, (player, accepted) = _changed(game_file, config, play)
    if as_json:
        return _json({"player": player, "accepted": [str(o) for o in accepted], **game.status()})
    _say(f"ok: {player}: {accepted[0]}")
    _echo_waiting(game)


@app.command()
def play(
    ruleset: str,
    players: int = typer.Option(4, "--players", "-n"),
    me: List[str] = typer.Option([], "--me", help="your seat's name: you play it, the bots the rest; repeat"),
    seed: Optional[int] = typer.Option(None, help="seed of the random generator (default: drawn by the judge)"),
    option: List[str] = typer.Option([], "--option", "-o", help="KEY=VALUE; repeat"),
    bots_: str = typer.Option("sensible", "--bots", help="bot kinds, comma-separated, seated in turn (as in simulate)"),
    save: Optional[Path] = typer.Option(None, "--save", help="keep the game in this new game file (judge order "
                                        "goes on with it)"),
    moves: Optional[int] = typer.Option(None, "--moves", help="stop after N logged orders, leaving the game running"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="only the last report"),
    now: Optional[str] = _now_option(),
    as_json: bool = _json_option(),
) -> None:
    """A game between bots, with the public report each round and the final ranking. With
    --me NAME you play that seat: the judge shows your report and the orders you may give,
    and reads yours (in a terminal with line editing and completion; from a pipe one a
    line, and at the end of the input it saves the game and says whose turn it is); 'help'
    shows the ruleset's help, 'report' your report again."""
    from judge.engine import bots, simulate as sim
    from judge.engine.report import render

    rs = registry.get(ruleset)
    kinds = sim.parse_kinds(bots_)
    if not 1 <= players <= len(bots.NAMES) or len(me) > players:
        raise UsageError(f"{rs.name} is for {rs.min_players} to {rs.max_players} players, not {max(players, len(me))}")
    if moves is not None and moves < 0:
        raise UsageError("--moves is a number of orders, 0 or more")
    if me and as_json:
        raise UsageError("--json is for a game between bots; with --me the judge talks to you")
    taken = {n.lower() for n in me}
    seats = [*me, *[n for n in bots.NAMES if n not in taken]][:players]
    game = Game.new(ruleset, seats, seed=seed, options=_parse_options(option))
    if save is not None:
        gamefile.create(game, save)  # refused now, not after the game, when the file exists
    quiet = quiet or as_json  # (the JSON answer: the last public view)
    if not as_json:
        drawn = f"seed {game.rng.seed}" if seed is not None else "seed drawn by the judge; --seed N plays one again"
        _say(f"{rs.title}: {', '.join(game.players)} ({drawn})\n")
    last_round = [game.status().get("round")]
    if not quiet and not me:
        typer.echo(render(game.view(None)))

    def report_round(player, order):
        rnd = game.status().get("round")
        if rnd != last_round[0] and not quiet and not me and not game.is_over():
            last_round[0] = rnd
            typer.echo(render(game.view(None)))

    bot_kinds = sim.seat_kinds(kinds, game.players, 0)
    people = frozenset(game.player_name(n) for n in me)
    try:
        if people:
            _play_seats(game, people, bot_kinds, quiet, moves)
        else:
            bots.play_out(game, bot_kinds, on_move=report_round, moves=moves)
    finally:
        if save is not None:
            if game.is_over():  # its end's date, as a change stamps it (the league's --since)
                from judge.record import conduct

                conduct.ended(game, _now(now))
            gamefile.save(game, save)
    if as_json:
        return _json({"ok": True, "seed": game.rng.seed, "players": game.players, "orders": _replays(game)[0],
                      "saved": str(save) if save is not None else None, **game.status(),
                      "standings": game.ruleset.standings(game.state)})
    if not me or game.is_over():  # at the end it holds the final ranking
        typer.echo(render(game.view(min(people) if people else None)), nl=False)
    if not game.is_over() and people and (moves is None or len(game.log) < moves):
        _echo_waiting(game)  # (the input ended)
    elif not game.is_over():
        _say(f"\nstopped after {len(game.log)} {_plural(len(game.log), 'order', 'orders')}; {game.waiting_line()}")
    if save is not None:
        awaited = [p for p in game.awaiting() if p in people]
        _say(f"saved {save}: {len(game.log)} logged {_plural(len(game.log), 'order', 'orders')}"
             + (f"; go on with: judge order {save} --as {awaited[0]} ORDER" if awaited else ""))


def _play_seats(game: Game, people: frozenset, kinds: dict, quiet: bool, moves: Optional[int]) -> None:
    """`judge play --me`: the bots play until the judge waits for a person; then that person's
    report (unless quiet: the events since their last order), the orders they may give, and
    one order read and given as `judge order` gives it (engine's submit), a refusal answered
    the same way. Ends with the game, `moves` orders, or the input."""
    from judge.engine import bots
    from judge.engine.report import render

    terminal = sys.stdin.isatty()
    seen = {p: [] for p in people}
    shown = None
    while not game.is_over() and (moves is None or len(game.log) < moves):
        bots.play_out(game, kinds, moves=moves, people=people)
        if game.is_over() or (moves is not None and len(game.log) >= moves):
            return
        who = next(p for p in game.awaiting() if p in people)
        legal = game.ruleset.legal_orders(game.state, who)
        events = registry.visible_events(game.state, who)
        if shown != (who, game.move):
            shown = (who, game.move)
            if quiet:
                for e in registry.new_events(seen[who], events):
                    _say(f"  #{e['move']} {e['text']}")
            else:
                typer.echo(render(game.view(who)))
            _say(f"{who}, move {game.move}: {game.status()['expecting'][who]}")
            if terminal or not quiet:
                _say("you may order: " + ", ".join(legal[:40]) + (f", ... ({len(legal)} in all)" if len(legal) > 40 else ""))
        seen[who] = events
        line = _read_order(who, legal, terminal)
        if line is None:
            if terminal:
                typer.echo("")
            return
        if not line.strip() or line.strip().startswith("#") and not line.strip()[1:2].isdigit():
            continue
        if line.strip().lower() in ("help", "report"):  # (no order word of any ruleset)
            from judge.engine.report import render_help

            typer.echo(render_help(game.ruleset) if line.strip().lower() == "help" else render(game.view(who)))
            continue
        if not terminal:
            _say(f"{who}> {line.strip()}")
        try:
            accepted = game.submit(who, line)
        except JudgeError as e:
            _say(f"judge: {e}", err=True)
            continue
        _echo_accepted(game, who, seen[who], accepted)
        seen[who] = registry.visible_events(game.state, who)


def _read_order(who: str, legal: list[str], terminal: bool) -> Optional[str]:
    """One line: in a terminal with readline's editing and the legal orders completed by Tab
    (where Python has readline), else from standard input; None at the end of the input."""
    if not terminal:
        line = sys.stdin.readline(MAX_INPUT + 1)
        if len(line) > MAX_INPUT:  # (bounded as judge order's input is)
            raise UsageError(f"a line of the standard input is longer than {MAX_INPUT} bytes")
        return line if line else None
    try:
        import readline

        words = sorted(set(legal))
        readline.set_completer(lambda text, i: ([o for o in words if o.startswith(readline.get_line_buffer().lstrip())]
                                               + [None])[i])
        readline.set_completer_delims("")
        readline.parse_and_bind("tab: complete")
    except ImportError:
        pass
    try:
        return input(f"{who}> ")
    except (EOFError, KeyboardInterrupt):
        return None


@app.command()
def simulate(
    ruleset: str,
    players: int = typer.Option(4, "--players", "-n"),
    games: int = typer.Option(100, "--games", "-g"),
    seed: Optional[int] = typer.Option(None, help="seed of the first game; game i plays seed+i (default: random)"),
    bots_: str = typer.Option("sensible", "--bots", help="bot kinds, comma-separated, seated in turn and rotated each game"),
    option: List[str] = typer.Option([], "--option", "-o", help="KEY=VALUE; repeat"),
    standing_: bool = typer.Option(False, "--standing", help="sensible bots write each round's policy as standing orders"),
    as_json: bool = _json_option(),
) -> None:
    """Many whole games between bots, with a summary: length, exchanges by mail, winning score,
    wins by seat and bot."""
    from judge.engine import bots, simulate as sim

    kinds = sim.parse_kinds(bots_)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    results = sim.simulate(ruleset, players, games, seed, kinds, _parse_options(option), standing_)
    summary = sim.Summary(bots.NAMES[:players])
    with typer.progressbar(results, length=games, label=f"{ruleset} (seeds {seed}..{seed + games - 1})", file=sys.stderr) as bar:
        for result in bar:
            summary.add(result)
    if as_json:
        from dataclasses import asdict

        return _json({"ok": True, "ruleset": registry.get(ruleset).name, "seed": seed, **asdict(summary)})
    for line in summary.lines():
        _say(line)
