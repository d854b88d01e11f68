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
from judge.engine import ruleset as registry, standing
from judge.engine.errors import GameFileError, JudgeError, NotYourTurn, UsageError, VerifyError
from judge.engine.game import Game
from judge.engine.ruleset import GM

MAX_INPUT = 1024 * 1024


class _Group(TyperGroup):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except JudgeError as e:
            typer.echo(f"judge: {e}", err=True)
            raise typer.Exit(e.exit_code) from None

    def parse_args(self, ctx, args):
        for param in self.get_params(ctx):
            _plain_coercion(param)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        for param in cmd.get_params(ctx) if cmd else ():
            _plain_coercion(param)
        return name, cmd, rest


_PLAIN = {str: str, int: int, bool: bool, Path: Path}


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
    help="A play-by-email judge for stock-market board games.",
)


@app.callback()
def _judge() -> None:
    """A play-by-email judge for stock-market board games."""


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


def _read_text(source: str, data: bytes) -> str:
    if len(data) > MAX_INPUT:
        raise UsageError(f"{source} is larger than {MAX_INPUT} bytes")
    try:
        return data.decode("utf-8")
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


@app.command()
def rulesets() -> None:
    """List the rulesets with their player counts and options."""
    for rs in registry.every():
        olds = [str(v) for v in rs.old_versions]
        versions = f"versions {', '.join(olds[:-1])} and {olds[-1]}" if len(olds) > 1 else f"version {''.join(olds)}"
        older = f"; still plays {versions} for older games" if olds else ""
        typer.echo(f"{rs.name} (version {rs.version}{older}): {rs.title}, {rs.min_players}-{rs.max_players} players")
        for o in rs.options:
            typer.echo(f"    --option {o.describe()}")


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

    cfg = cfg or configs.load(config)
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


def _warn(warning: str) -> None:
    if warning:
        typer.echo(f"judge: warning: {warning}", err=True)


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
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
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

    unit.check_user(game_file)
    if not addresses:
        _warn(unit.create(game_file, game, _site(config)))
        typer.echo(f"created {game_file}: {ruleset}, players {', '.join(game.players)}, seed {game.rng.seed}")
        typer.echo(game.waiting_line())
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
        typer.echo(f"created mail game {name} ({game_file}): {ruleset}, players {', '.join(game.players)}, seed {game.rng.seed}")
        typer.echo(game.waiting_line())
        typer.echo("passwords (shown only now; the game file keeps their hashes):")
        for who, password in passwords.items():
            typer.echo(f"  {who}: {password}" + ("  (game master: 'player gm PASSWORD')" if who == GM else ""))
        box.flush()  # a failure leaves the welcomes in the outbox for the next judge mail or tick
    typer.echo(f"welcome mails sent to {len(game.players)} players" + (f" and {len(observer)} observers" if observer else ""))


@app.command()
def mail(
    maildir: Optional[Path] = typer.Option(None, "--maildir", help="handle every new message of this Maildir"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
) -> None:
    """Handle one message from standard input (an MTA or procmail pipe), or a Maildir's new mail."""
    from judge.store import config as configs
    from judge.gateway import inbox as gateway, parse as mailparse
    from judge.mail import host

    # a problem of the host (configuration, files, user) exits 75 without details: the MTA
    # would pass them on to the sender; they go to the judge's log and the game master
    with host.guarded(lambda: configs.load(config)) as cfg, _mail_site(config, cfg) as (cfg, box):
        if maildir is not None:
            done = gateway.handle_maildir(maildir, cfg, box, lambda: _now(now))
            typer.echo(f"{len(done)} messages handled")
            return
        raw = sys.stdin.buffer.read(mailparse.MAX_MESSAGE + 1)
        while sys.stdin.buffer.read(1 << 16):  # take the rest from the pipe; its size refuses it
            pass
        typer.echo(gateway.handle_piped(raw, cfg, box, _now(now)))


@app.command()
def tick(
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
) -> None:
    """Run from cron: reminders before deadlines, missed orders after them."""
    from judge.gateway import deadlines

    from judge.mail.outbox import MailError

    with _mail_site(config) as (cfg, box):
        for line in deadlines.tick(cfg, box, _now(now)):
            typer.echo(line)
        if box.down:
            raise MailError(box.down)


@app.command()
def order(
    game_file: Path,
    orders: List[str] = typer.Argument(None, help="orders, one an argument (quote orders with spaces)"),
    as_: Optional[str] = typer.Option(None, "--as", help="the player giving the orders"),
    gm: bool = typer.Option(False, "--gm", help="orders of the game master"),
    file: Optional[Path] = typer.Option(None, "--file", "-f", help="read orders from FILE, one a line"),
    config: Optional[Path] = _config_option(),
) -> None:
    """Validate orders in sequence and apply all of them, or none."""
    if gm == bool(as_):
        raise UsageError("give exactly one of --as NAME and --gm")
    if orders:
        text = "\n".join(orders)
    elif file is not None:
        try:
            text = _read_text(str(file), file.read_bytes())
        except OSError as e:
            raise UsageError(f"cannot read {file}: {e.strerror}") from None
    else:
        text = _read_text("standard input", sys.stdin.buffer.read(MAX_INPUT + 1))
    game, accepted = _changed(game_file, config, lambda g: (g, g.submit(GM if gm else as_, text)))
    for o in accepted:
        typer.echo(f"ok: {o}")
    for line in accepted.not_judged():
        typer.echo(line)
    if not gm and any(isinstance(o, standing.Command) for o in accepted):
        for line in standing.describe(game.state, game.player_name(as_)):
            typer.echo(line)
    _echo_waiting(game)


def _changed(game_file: Path, config: Optional[Path], change):
    """One change of the game (judge/change/unit.py): `change(game)` gives (the game to save,
    its result); saved with the reports it mails (a mail game, given a configuration) and
    archived when the configuration asks. Returns both."""
    from judge.change.unit import Change

    with Change(game_file, _site(config)) as unit:
        unit.game, result = change(unit.game)
    _warn(unit.warning)
    if unit.box_down:
        typer.echo(f"judge: {unit.box_down}", err=True)
    return unit.game, result


def _echo_waiting(game: Game) -> None:
    typer.echo(game.waiting_line())


@app.command()
def status(game_file: Path, as_json: bool = typer.Option(False, "--json")) -> None:
    """Round, phase, move number, who must act and how; the winners at the end."""
    st = gamefile.load(game_file).status()
    if as_json:
        return _json(st)
    extra = ", ".join(f"{k} {v}" for k, v in st.items() if k not in ("ruleset", "move", "awaiting", "expecting", "game_over", "winners"))
    typer.echo(f"{st['ruleset']}: move {st['move']}" + (f", {extra}" if extra else ""))
    if st["game_over"]:
        typer.echo(f"game over; winners: {', '.join(st['winners'])}")
    else:
        for p in st["awaiting"]:
            typer.echo(f"waiting for {p}: {st['expecting'][p]}")


@app.command()
def show(
    game_file: Path,
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose report to show"),
    gm: bool = typer.Option(False, "--gm", help="everything, for the game master"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """A player's report, the public report, or (--gm) everything."""
    _show(gamefile.load(game_file), as_, gm, as_json)


def _show(game: Game, as_: Optional[str], gm: bool, as_json: bool) -> None:
    if gm and as_:
        raise UsageError("give at most one of --as NAME and --gm")
    view = game.view(GM if gm else (game.player_name(as_) if as_ else None))
    if as_json:
        return _json(view)
    from judge.engine.report import render

    typer.echo(render(view), nl=False)


@app.command()
def standings(game_file: Path, as_json: bool = typer.Option(False, "--json")) -> None:
    """The score track now; at the end the final ranking with the tie-break applied."""
    game = gamefile.load(game_file)
    rows = game.ruleset.standings(game.state)
    if as_json:
        return _json(rows)
    from judge.engine.report import render_standings

    typer.echo(render_standings(rows, game.is_over()), nl=False)


@app.command(name="help")
def help_(
    ruleset: str,
    topic: Optional[str] = typer.Argument(None, help="a topic the help names (rumors: cards)"),
) -> None:
    """A ruleset's order words, the terms of its reports and its rules in short."""
    from judge.engine.report import render_help

    typer.echo(render_help(registry.get(ruleset), topic or ""), nl=False)


@app.command(name="orders")
def orders_(
    game_file: Path,
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose orders to list"),
    gm: bool = typer.Option(False, "--gm", help="the game master's orders"),
    as_json: bool = typer.Option(False, "--json"),
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
        typer.echo(f"{who} has no order to give now ({game.waiting_line()})")


@app.command()
def verify(game_file: Path) -> None:
    """Replay the log from the start and compare with the saved state (a game file, or the
    public record of a finished game)."""
    from judge.record.public import load_game

    game = load_game(game_file)
    replayed = game.replay()
    diffs = game.differences(replayed)
    if diffs:
        raise VerifyError("replay differs from the saved state: " + "; ".join(diffs))
    typer.echo(f"ok: {len(game.log)} orders replay to the saved state (move {game.move})")


@app.command()
def audit(
    game_file: Path,
    commitment: Optional[str] = typer.Option(None, help="the commitment your first report showed, to compare"),
) -> None:
    """Check a game's honesty: its seed, setup and salt give the commitment published at the
    start, and its log replays from them to the saved state (a game file, or the public record
    of a finished game)."""
    from judge.record.public import load_game

    game = load_game(game_file)
    problems = game.audit()
    if commitment is not None and commitment.strip().lower() != game.commitment:
        problems.insert(0, f"the game's commitment is {game.commitment or 'missing'}, not {commitment.strip()}")
    if problems:
        raise VerifyError("audit failed: " + "; ".join(problems))
    key = " key," if game.rng.key else ""
    typer.echo(f"ok: seed {game.rng.seed},{key} setup and salt match the commitment {game.commitment}, and all "
               f"{len(game.log)} orders replay from them to the saved state: every draw came from the committed seed")


@app.command()
def export(game_file: Path, out: Path) -> None:
    """Write the game's public record (TOML), safe to publish while the game runs; complete
    (seed, setup, whole log) once it is over. OUT '-' writes to standard output."""
    from judge.record import public as record

    game = gamefile.load(game_file)
    if str(out) == "-":
        return typer.echo(record.text(game, game_file.stem), nl=False)
    record.export(game, game_file.stem, out)
    typer.echo(f"wrote the public record of {game_file.stem} at move {game.move} to {out}"
               + (" (complete: the game is over)" if game.is_over() else ""))


@app.command()
def archive(
    game_file: Path,
    git: Path = typer.Option(..., "--git", help="a git repository to commit the public record to"),
) -> None:
    """Commit the game's public record to a git repository now (judge.toml's [archive] does it
    after every change)."""
    from judge.record import archive as archives

    game = gamefile.load(game_file)
    message = archives.commit(game, game_file.stem, git)
    typer.echo(f"committed: {message}" if message else "the archive holds this record already; nothing to commit")


@app.command()
def history(
    game_file: Path,
    at: Optional[int] = typer.Option(None, "--at", help="the report as it stood at the start of this move"),
    as_: Optional[str] = typer.Option(None, "--as", help="the player whose report to show"),
    gm: bool = typer.Option(False, "--gm", help="everything, for the game master"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The moves with their public events; with --at N the report at move N, replayed from the log."""
    from judge.record import history as past

    game = gamefile.load(game_file)
    if at is None:
        if gm or as_:
            raise UsageError("--as and --gm choose whose report --at N shows; give --at N")
        rows = past.moves(game)
        if as_json:
            return _json(rows)
        for row in rows:
            typer.echo(f"move {row['move']}: " + "; ".join(row["orders"]) if row["orders"] else f"move {row['move']}:")
            for text in row["events"]:
                typer.echo(f"    {text}")
        return
    _show(past.at_move(game, at), as_, gm, as_json)


@app.command()
def rollback(
    game_file: Path,
    to: int = typer.Option(..., "--to", help="the move to return to (its orders and all after are undone)"),
    reason: str = typer.Option(..., "--reason", help="why, shown to every player and in the public record"),
    config: Optional[Path] = _config_option(),
    now: Optional[str] = _now_option(),
) -> None:
    """Undo every order from move N on (kept in the game's [[corrections]] trace); in a mail
    game every player is told by mail."""
    from judge.change import corrections

    game, undone, warning = corrections.rollback_file(game_file, _site(config), _now(now), to, reason)
    _warn(warning)
    typer.echo(f"rolled back to move {to}: {len(undone)} order(s) undone and kept in the trace")
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
) -> None:
    """Hand the seat of player OLD to the new player NEW (the seat keeps its name in the game;
    the file records who plays it since when). A mail game needs --address: the new player
    gets a new password and a welcome mail."""
    from judge.change import corrections

    game, seat, password, warning = corrections.replace_file(game_file, _site(config), _now(now), old, new,
                                                             address, reason)
    _warn(warning)
    typer.echo(f"{new} plays the seat {seat} from move {game.move}")
    if password:
        typer.echo(f"password of {new} (shown only now; mailed with the welcome): {password}")


@app.command()
def upgrade(game_file: Path, config: Optional[Path] = _config_option()) -> None:
    """Replay a game written under an older version of its ruleset by the current rules, and
    save it so if every logged order still fits (else nothing changes)."""
    new, old = _changed(game_file, config, lambda g: (g.upgraded(), g.ruleset.version))
    typer.echo(f"upgraded {game_file} from {new.ruleset.name} version {old} to version {new.ruleset.version}: "
               f"{len(new.log)} orders replayed")
    _echo_waiting(new)


@app.command()
def bot(
    game_file: Path,
    as_: str = typer.Option(..., "--as", help="the player the bot plays"),
    kind: str = typer.Option("sensible", help="sensible or random"),
    config: Optional[Path] = _config_option(),
) -> None:
    """A built-in bot picks a legal order for a player and submits it."""
    from judge.engine import bots

    if kind not in bots.KINDS:
        raise UsageError(f"--kind is one of {', '.join(bots.KINDS)}")

    def play(game):
        player = game.player_name(as_)
        game.check_turn(player)
        if player not in game.awaiting():
            raise NotYourTurn("the game master has no order to give now")
        return game, (player, game.submit(player, [bots.choose(game, player, kind)]))

    game, (player, accepted) = _changed(game_file, config, play)
    typer.echo(f"ok: {player}: {accepted[0]}")
    _echo_waiting(game)


@app.command()
def play(
    ruleset: str,
    players: int = typer.Option(4, "--players", "-n"),
    seed: Optional[int] = typer.Option(None),
    option: List[str] = typer.Option([], "--option", "-o", help="KEY=VALUE; repeat"),
    bots_: str = typer.Option("sensible", "--bots", help="bot kinds, comma-separated, seated in turn (as in simulate)"),
    save: Optional[Path] = typer.Option(None, "--save", help="keep the game in this new game file"),
    moves: Optional[int] = typer.Option(None, "--moves", help="stop after N logged orders, leaving the game running"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="only the last report"),
) -> None:
    """A game between bots, with the public report each round and the final ranking."""
    from judge.engine import bots, simulate as sim
    from judge.engine.report import render

    rs = registry.get(ruleset)
    kinds = sim.parse_kinds(bots_)
    if not 1 <= players <= len(bots.NAMES):
        raise UsageError(f"{rs.name} is for {rs.min_players} to {rs.max_players} players, not {players}")
    if moves is not None and moves < 0:
        raise UsageError("--moves is a number of orders, 0 or more")
    if seed is None:  # (a bot game: its seed alone, printed, plays it again)
        seed = int.from_bytes(os.urandom(6), "big")
    game = Game.new(ruleset, bots.NAMES[:players], seed=seed, options=_parse_options(option))
    if save is not None:
        gamefile.create(game, save)  # refused now, not after the game, when the file exists
    typer.echo(f"{rs.title}: {', '.join(game.players)} (seed {game.rng.seed})\n")
    last_round = [game.status().get("round")]
    if not quiet:
        typer.echo(render(game.view(None)))

    def report_round(player, order):
        rnd = game.status().get("round")
        if rnd != last_round[0] and not quiet and not game.is_over():
            last_round[0] = rnd
            typer.echo(render(game.view(None)))

    bots.play_out(game, sim.seat_kinds(kinds, game.players, 0), on_move=report_round, moves=moves)
    typer.echo(render(game.view(None)), nl=False)  # at the end it holds the final ranking
    if save is not None:
        gamefile.save(game, save)
    if not game.is_over():
        typer.echo(f"\nstopped after {len(game.log)} orders; {game.waiting_line()}")
    if save is not None:
        typer.echo(f"saved {save}: {len(game.log)} logged orders")


@app.command()
def simulate(
    ruleset: str,
    players: int = typer.Option(4, "--players", "-n"),
    games: int = typer.Option(100, "--games", "-g"),
    seed: Optional[int] = typer.Option(None, help="seed of the first game; game i plays seed+i (default: random)"),
    bots_: str = typer.Option("sensible", "--bots", help="bot kinds, comma-separated, seated in turn and rotated each game"),
    option: List[str] = typer.Option([], "--option", "-o", help="KEY=VALUE; repeat"),
    standing_: bool = typer.Option(False, "--standing", help="sensible bots write each round's policy as standing orders"),
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
    for line in summary.lines():
        typer.echo(line)
