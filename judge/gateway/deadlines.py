"""`judge tick`, run from cron: reminders before a deadline; after the deadline and its grace,
each late player's default order (the ruleset's `default_order`), or the built-in bot's for a
player the game master marked absent (also when the ruleset has no default order). Every
such missed order is announced to everyone. A player whose `away until DATE` has run out is
told, alone, that they are back and what the game awaits of them. The anonymous press that
waited through a tick is sent (judge/gateway/selfservice.py deliver_press)."""
from __future__ import annotations

from datetime import datetime, timedelta

from judge.change.unit import Change
from judge.record import conduct, corrections
from judge.engine import bots
from judge.engine.errors import GameFileError, HostError, JudgeError
from judge.engine.report import render
from judge.mail.journal import general_log, record
from judge.mail.mailgame import parse_time, shown
from judge.engine.errors import MailError
from judge.mail.outbox import compose
from judge.mail import host, notify, players, settings
from judge.mail import notices as tell
from judge.gateway import selfservice
from judge.engine.ruleset import GM


def tick(cfg, outbox, now: datetime, problems: list | None = None) -> list[str]:
    """One pass over every game of the directory, then the outbox is sent (also what earlier
    runs left in it); what was done, one line each. A game that cannot be handled is skipped
    with its reason, and the others are handled all the same. A problem of the host (a full
    disk, a read-only file system, a wrong owner or mode) is no game's: it becomes one
    HostError for the whole run, added to `problems`, or raised once the run is done. What is
    published (the games left marked, then each change's) waits for busy locks a bounded
    total (judge/publish/step.py `waiting`)."""
    from judge.publish import step

    with step.waiting():
        return _tick(cfg, outbox, now, problems)


def _tick(cfg, outbox, now: datetime, problems: list | None) -> list[str]:
    done, found = [], []

    def host_problem(where: str, e: Exception) -> None:
        error = HostError(f"judge tick: {where}: {e}")
        error.__cause__ = e
        found.append(error)

    try:
        done += publish(cfg, now)
    except (HostError, OSError) as e:
        host_problem("publishing", e)
    for path in sorted(p for p in cfg.games.glob("*.toml") if p.is_file()):  # (a FIFO would be read for ever)
        try:
            done += tick_game(path, cfg, outbox, now)
        except (HostError, OSError) as e:
            host_problem(f"game {path.stem}", e)
        except GameFileError as e:  # a broken file, or one the host keeps the judge from
            if host.cause_of(e) in host.DIRECTORY_CAUSES:
                host_problem(f"game {path.stem}", e)
            else:
                done.append(f"{path.stem}: skipped: {e}")
        except Exception as e:  # noqa: BLE001 - one game must never stop the others
            done.append(f"{path.stem}: skipped: {type(e).__name__}: {e}")
            try:
                record(general_log(cfg), now, game=path.stem, outcome=f"judge tick failed: {type(e).__name__}: {e}")
            except OSError as full:
                host_problem("mail.log", full)
    try:
        outbox.flush()
    except MailError as e:  # the caller sees outbox.down
        done.append(str(e))
    except OSError as e:
        host_problem("the outbox", e)
    if found:
        if len(found) > 1:
            found[0].args = (f"{found[0]} (and {len(found) - 1} more like it)",)
        if problems is None:
            raise found[0]
        problems.append(found[0])
    return done


def publish(cfg, now: datetime) -> list[str]:
    """What a judge killed while publishing left undone (judge/publish/), and the league's index
    when the site has none yet (computed once, here: never under a game's lock)."""
    from judge.league import index, records
    from judge.publish import step
    from judge.record import derived

    warnings = step.pending(cfg, now)
    for warning in warnings:
        host.tell_publishing(cfg, warning)
    source = records.site_source(cfg)
    if index.Index(source).kept() is None:  # (none yet, or one that does not check: made again)
        try:
            warnings += [w for w in index.league_of(source, cfg.aliases)[1] if w.startswith(derived.SAID)]
        except (JudgeError, OSError) as e:
            warnings.append(f"the league's index of {source} was not made ({e})")
    return [f"judge: warning: {w}" for w in warnings]


def tick_game(path, cfg, outbox, now: datetime) -> list[str]:
    """One game's deadline work (a change), then the press waiting to be sent (a change of its
    own: never in one mail or one commit with the deadline's)."""
    done, waiting = _deadline(path, cfg, outbox, now)
    if waiting and selfservice.deliver_press(path, path.stem, cfg, outbox, now, tick=True):
        done.append(f"{path.stem}: press delivered")
    return done


def _deadline(path, cfg, outbox, now: datetime) -> tuple[list[str], bool]:
    """The reminders, missed orders and ends of absences of one game; and whether press waits."""
    name = path.stem
    with Change(path, cfg, outbox, now=now, sender="judge tick", reports=False) as change:
        game, mg = change.game, change.mail
        waiting = mg is not None and bool(mg.m.get("press_pending"))
        if mg is None or mg.m["paused"] or game.is_over() or not mg.m["deadline_hours"]:
            change.discard()
            return [], waiting
        if not mg.m["deadline"]:
            mg.reset_deadline(now)
            return [f"{name}: deadline set to {shown(mg.m['deadline'])}"], waiting
        back = absences_over(mg, now)
        deadline = parse_time(mg.m["deadline"])
        past = now >= deadline + timedelta(hours=mg.m["grace_hours"])
        if past and set(back) & set(game.awaiting()):  # their deadline waited for them: a whole new one
            mg.reset_deadline(now)
            deadline, past = parse_time(mg.m["deadline"]), False
        outcome = ""
        told = notify.players_told(cfg, name)
        if past:
            change.watch()
            notices, late, at = [], [], game.move
            for player in game.awaiting():
                if player == GM or player not in game.awaiting():
                    continue  # the game master is never defaulted; an earlier order may have moved on
                if settings.is_away(mg.m["players"][player], now):
                    continue  # their deadline waits until they are back
                late.append(player)
                move = game.move
                order, how = missed_order(game, mg, player)
                conduct.missed(game, player, corrections.holder(game, player), mg.m["deadline"], how)  # all are told below
                game.submit(player, [order])
                notices.append(f"Missed order: {player} gave no order for move {move} by the deadline "
                               f"({shown(mg.m['deadline'])}); the judge ordered {_public(game, order)} for them ({how}).")
                if player in told:
                    change.told.append(tell.defaulted(name, player, notices[-1]))
            if notices:
                outcome = "; ".join(notices)
                notices += [f"Late at the deadline of move {at}: {', '.join(late)}.", *count_missed(mg, late)]
                players.play_resigned(game, mg.m)
                mg.reset_deadline(now)
                change.notices += notices
            else:
                change.reports = False
        elif mg.m["remind_hours"] and not mg.m["reminded"] and now >= deadline - timedelta(hours=mg.m["remind_hours"]):
            mg.m["reminded"] = True
            awaited = game.awaiting()
            change.mails += [reminder(cfg, mg, p, now) for p in awaited]
            change.told += [tell.reminder(name, p, game.view(p), mg.deadline_text(p)) for p in awaited if p in told]
            outcome = "reminded " + ", ".join(awaited)
        if back:  # told after the missed orders, so that the mail tells what is awaited now
            change.later += [welcome_back(cfg, mg, player, until) for player, until in back.items()]
            outcome = "; ".join(filter(None, [outcome, f"back from an absence: {', '.join(back)}"]))
        if not outcome:
            change.discard()
            return [], waiting
        change.outcome = outcome
    return [f"{name}: {outcome}"], waiting


def absences_over(mg, now: datetime) -> dict[str, str]:
    """The players whose `away until DATE` has run out, each with its date, which is dropped
    (so that each is told once)."""
    over = {}
    for player, entry in mg.m["players"].items():
        if entry.get("away_until") and not settings.is_away(entry, now):
            over[player] = entry.pop("away_until")
    return over


def welcome_back(cfg, mg, player: str, until: str):
    """The mail to a player whose absence has run out: what is awaited of them, their own
    report (nothing of anyone else's view) and their deadline."""
    game = mg.game
    awaited = (f"The game is waiting for your order for move {game.move}." if player in game.awaiting()
               else "The game is not waiting for an order of yours now.")
    body = (f"Your absence from game {mg.name} has ended (you were away until {until}). {awaited}\n\n"
            + render(game.view(player), mail=True) + "\n" + mg.footer(cfg, player))
    return compose(cfg, mg.address(player), f"game {mg.name}: you are back, move {game.move}", body)


def count_missed(mg, late: list[str]) -> list[str]:
    """Count each late player's missed deadline; mark absent those who reach the game's limit."""
    notices, limit = [], settings.setting(mg.m, "absent_after")
    for player in late:
        entry = mg.m["players"][player]
        entry["missed"] = entry.get("missed", 0) + 1
        if limit and entry["missed"] >= limit and player not in mg.m["absent"]:
            mg.m["absent"].append(player)
            notices.append(f"{player} has missed {entry['missed']} deadlines and is marked absent: the judge's "
                           "bot plays for them at each deadline (the game master may mark them present).")
    return notices


def _public(game, order: str) -> str:
    """The missed order as every player may read it: quoted, or "a secret order" (a roll-phase
    bag), as the public record shows it (the ruleset's public_order)."""
    shown_ = game.ruleset.public_order(order)
    return f"'{shown_}'" if shown_ is not None else "a secret order"


def missed_order(game, mg, player: str) -> tuple[str, str]:
    """The order given for a late player, and how it was chosen."""
    if player not in mg.m["absent"]:
        order = game.ruleset.default_order(game.state, player)
        if order is not None:
            try:
                game.copy().submit(player, [order])
                return order, "the default order"
            except JudgeError:
                pass
    # (one text whether there is none or it is refused: everyone reads it, and a refusal may
    # depend on the player's secrets)
    return bots.choose(game, player), "the judge's bot plays for an absent player" if player in mg.m["absent"] else "the judge's bot, as no default order could be given"


def reminder(cfg, mg, who: str, now: datetime):
    game = mg.game
    deadline = parse_time(mg.m["deadline"])
    if who == GM:  # never defaulted (see tick_game)
        when = "The judge gives no default order for the game master: the game waits for you."
    elif now < deadline:
        when = "If none arrives by the deadline, the judge gives the default order for you."
    else:  # the first tick after the deadline came in the grace period
        end = deadline + timedelta(hours=mg.m["grace_hours"])
        when = (f"The deadline has passed; if none arrives by the end of the grace period "
                f"({end.strftime('%Y-%m-%d %H:%M UTC')}), the judge gives the default order for you.")
    body = (f"Reminder: game {mg.name} is waiting for your order for move {game.move}. {when}\n\n"
            + mg.footer(cfg, who))
    return compose(cfg, mg.address_of(cfg, who), f"game {mg.name}: reminder, move {game.move}", body)
