"""The lines besides orders by which a player changes the game: `resign`, `propose end`,
`agree end` and `press`. One implementation for the mail gateway (judge/gateway/selfservice.py)
and the shell (`judge order GAME --as bob "propose end"`, judge/cli.py): each checks the line,
changes the game (and its [meta.mail]) and returns the notice every player is told; the
change around it (judge/change/unit.py) mails it.

A game without mail ([meta.mail] absent: a shell game) keeps its votes to end in [meta]
`end_votes` and has no `resign` (no bot would play the seat) nor press to one player (no mail
would carry it)."""
from __future__ import annotations

from collections import namedtuple

from judge.engine.errors import JudgeError
from judge.engine.game import AGREED_END
from judge.engine.ruleset import GM

# (the shell's `judge order` imports this module to tell these lines from orders: what only a
# line of them needs is imported where it is needed)

MAX_PRESS = 2000  # characters of one press line
MAX_WAITING = 500  # press lines of one writer (to one player, or anonymous) waiting to be sent in a game
KEEP_PRESS = 500  # press sent to all kept in the game file (and its public record), the latest
VERBS = ("resign", "propose", "agree", "press")


def still_in(game, m: dict | None) -> list[str]:
    """The players who have not resigned."""
    if m is None:
        return list(game.players)
    return [p for p in game.players if not m["players"][p].get("resigned")]


def resign(game, m: dict | None, player: str, args: list[str]) -> str:
    """`resign`: the judge's bot plays the seat from now on (a mail game's)."""
    if args:
        raise JudgeError("'resign' takes nothing after it")
    if m is None:
        raise JudgeError("'resign' is for a mail game, where the judge's bot plays the seat after; "
                         "this game has no mail")
    if game.is_over():
        raise JudgeError("the game has ended")
    entry = m["players"][player]
    if entry.get("resigned"):
        raise JudgeError("you have resigned already")
    if still_in(game, m) == [player]:
        raise JudgeError("nobody else is still in the game: end it with 'propose end' instead")
    entry["resigned"] = True
    from judge.record import conduct, corrections

    conduct.resigned(game, player, corrections.holder(game, player))  # for the league: all are told
    return f"{player} has resigned: the judge's bot plays the seat {player} from now on."


def vote_end(game, m: dict | None, player: str, args: list[str], proposing: bool) -> str:
    """`propose end` or `agree end`: the game ends, scored as it stands, when every player
    still in has agreed."""
    verb = "propose" if proposing else "agree"
    if [a.lower() for a in args] != ["end"]:
        raise JudgeError(f"write {verb} end")
    if game.is_over():
        raise JudgeError("the game has ended")
    kept = game.meta if m is None else m
    votes = kept.get("end_votes", [])
    if not proposing and not votes:
        raise JudgeError("nobody has proposed to end the game (write propose end)")
    if player in votes:
        raise JudgeError("you have agreed already")
    kept["end_votes"] = votes = [*votes, player]
    waiting = [p for p in still_in(game, m) if p not in votes]
    if waiting:
        first = "proposes" if len(votes) == 1 else "agrees"
        return (f"{player} {first} to end the game now, scored as it stands; it ends when "
                f"every player still in agrees (write 'agree end'). Still to agree: {', '.join(waiting)}.")
    game.submit(GM, [AGREED_END])
    del kept["end_votes"]
    return (f"The players ({', '.join(votes)}) agreed to end the game at move {game.move - 1}; "
            "it is scored as it stands.")


Press = namedtuple("Press", "to anonymous text")  # to: "all" or a player


def press(game, m: dict | None, player: str, args: list[str], hide=lambda text: text) -> Press:
    """A press line checked: to whom, anonymous or not, the text (`hide` masks what must reach
    nobody, such as a password pasted in it)."""
    from judge.mail.settings import setting

    allowed = setting(m or {}, "press")
    if allowed == "off":
        raise JudgeError("the game master does not allow press in this game")
    anon = bool(args) and args[0].lower() == "anon"
    if anon and allowed != "anon":
        raise JudgeError("the game master does not allow anonymous press in this game")
    args = args[1:] if anon else args
    if len(args) < 2:
        raise JudgeError("write press PLAYER TEXT, press all TEXT or press anon all TEXT")
    text = hide(" ".join(args[1:]))
    if len(text) > MAX_PRESS:
        raise JudgeError(f"press is at most {MAX_PRESS} characters a line")
    to = "all" if args[0].lower() == "all" else game.player_name(args[0])
    if to in (GM, player):
        raise JudgeError("press goes to all or to one of the others")
    if to != "all" and m is None:
        raise JudgeError("press to one player is a mail, and this game has no mail: write press all TEXT")
    if m is not None and (anon or to != "all") and waiting_from(m, player) >= MAX_WAITING:
        raise JudgeError(f"{MAX_WAITING} press lines of yours wait to be sent in this game; send more after "
                         "the next judge tick")
    return Press(to, anon, text)


def waiting_from(m: dict, player: str) -> int:
    """How many press lines of `player` wait to be sent: each writer's own bound, so that one
    player's press never refuses another's (anonymous press keeps its writer, `by`, only while
    it waits: never in a mail or the record)."""
    return sum(1 for e in m.get("press_pending", []) if e.get("from", e.get("by")) == player)


def send_press(game, m: dict | None, player: str, said: Press) -> str | None:
    """What a checked press line does: press to all is kept for the public record and returned
    as the notice all are told (with the change's reports); press to one player and anonymous
    press wait in [meta.mail] press_pending, to be sent in one mail per recipient, apart from
    the change (judge/gateway/selfservice.py deliver_press): press to one player once the
    message (or the shell's command) is done, anonymous press with the next judge tick."""
    if said.anonymous:
        m.setdefault("press_pending", []).append({"to": said.to, "text": said.text, "by": player})
        return None
    if said.to == "all":
        keep_press(game, player, said.text)
        return f"Press from {player} to all: {said.text}"
    m.setdefault("press_pending", []).append({"from": player, "to": said.to, "text": said.text})
    return None


def carry_out(game, m: dict | None, player: str, verb: str, args: list[str], hide=lambda text: text) -> str | None:
    """One of these lines (`verb` one of VERBS), for the gateway and the shell alike: the notice
    every player is told, or None (press that waits to be sent: `send_press`)."""
    if verb == "resign":
        return resign(game, m, player, args)
    if verb in ("propose", "agree"):
        return vote_end(game, m, player, args, proposing=verb == "propose")
    return send_press(game, m, player, press(game, m, player, args, hide))


def press_mails(cfg, mg, entries: list[dict]) -> list:
    """The mails of press that waited in press_pending (`entries`), one for each recipient:
    the press named players sent them (each sender's lines together), then the anonymous press
    to all and to them, each in alphabetical order (not in the order it was written, which
    could tell who wrote it). Anonymous press to all goes to every player (its writer too),
    the observers and the game master."""
    from judge.mail.outbox import compose

    name = mg.name
    anon_all = sorted(e["text"] for e in entries if "from" not in e and e["to"] == "all")
    out = []
    for address, who in [*mg.recipients(), (cfg.gm, GM)]:
        named: dict[str, list[str]] = {}
        for e in entries:
            if "from" in e and e["to"] == who:
                named.setdefault(e["from"], []).append(e["text"])
        anon_own = sorted(e["text"] for e in entries if "from" not in e and e["to"] == who)
        parts = [f"Press in game {name} from {sender}, to you only:\n\n" + _lines(texts)
                 + f"\nTo answer, write 'press {sender} YOUR TEXT' in a block for game {name}.\n"
                 for sender, texts in named.items()]
        if anon_all:
            parts.append(f"Press in game {name} from anonymous players, to all (in alphabetical order, "
                         f"not in the order it was written):\n\n" + _lines(anon_all))
        if anon_own:
            parts.append(f"Press in game {name} from anonymous players, to you only (in alphabetical order):\n\n"
                         + _lines(anon_own))
        if not parts:
            continue
        senders = list(named) + (["anonymous players"] if anon_all or anon_own else [])
        out.append(compose(cfg, address, f"game {name}: press from {', '.join(senders)}", "\n".join(parts)))
    return out


def _lines(texts: list[str]) -> str:
    return "".join(f"  {text}\n" for text in texts)


def keep_press(game, sender: str, text: str) -> None:
    """Press to all, kept for the game's public record (the latest KEEP_PRESS)."""
    kept = game.meta.setdefault("press", [])
    kept.append({"move": game.move, "from": sender, "text": text})
    del kept[:-KEEP_PRESS]


def play_resigned(game, m: dict) -> None:
    """The bot's orders for resigned seats, as long as one of them is awaited (and the game
    is not paused: then on `resume`)."""
    from judge.engine import bots
    from judge.engine.standing import is_secret_entry

    # The ruleset's bound on a game's length counts the public orders, as `judge simulate` does:
    # players' secret standing-order entries are not moves (they once made it stop short).
    played = sum(1 for e in game.log if not is_secret_entry(e))
    while not m["paused"] and not game.is_over() and played <= game.ruleset.max_moves:
        seat = next((p for p in game.awaiting() if p != GM and m["players"][p].get("resigned")), None)
        if seat is None:
            return
        played += bots.new_public(game, lambda: game.submit(seat, [bots.choose(game, seat)]))


def is_player_line(text: str) -> bool:
    """Whether a line is one of these (not an order)."""
    words = text.split()
    return bool(words) and words[0].lower() in VERBS
