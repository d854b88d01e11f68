"""The log's hash chain: every entry of the log (an order, a standing order given or cancelled,
an entry of the judge) extends a chain that starts at the game's commitment, so that the head
a player was sent binds the whole log up to it.

    link 0 = SHA-256("judge log chain 1" NL commitment)
    link i = SHA-256(link i-1 || HMAC-SHA-256(salt, "i" NL entry i))      (i = 1, 2, ...)

Every entry enters salted (keyed by the game's secret salt, revealed with the seed at the end),
the public ones as the secret ones: while the game runs nobody without the salt can test a
guess of a secret order (a rumors `bag`, a standing order) against a head, and a head tells
nothing but that the log grew. Once the game is over, anyone holding its record recomputes the
chain (`judge audit`), and a head a player was sent during the game (`Log head: move N HEX`,
in every report and answer) fails against a record that differs in any entry up to it.

A head is named by a move, `move N`, and covers every entry of the moves up to N: the reports
of move N+1 show the head of move N, never one covering an entry of the move under way (a
standing order given now, a secret order of a simultaneous phase), so that neither its move nor
its hash tells anyone that such an entry was just logged; the finished game's head covers the
whole log (named by its last entry's move). Heads are computed from the log (cheap: two hashes an entry), never stored in the game file, so every
game with a commitment has a chain, those begun before it included; a game made before the
judge committed to a seed (no commitment, no salt) has none.
"""
from __future__ import annotations

try:
    from _sha256 import sha256  # what hashlib.sha256 is, without loading OpenSSL (as rng.py does)
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha256

from judge.engine.orderlog import LogEntry

START = b"judge log chain 1\n"
SHOWN = 16  # hex digits of a head in a report's line (the whole 64 in JSON)
SHORTEST = 16  # the fewest hex digits `judge audit --head` takes


def _hmac(salt: bytes):
    """HMAC-SHA-256 keyed by `salt` (RFC 2104), as a function of the message: the inner and outer
    hashes of the key are made once."""
    key = salt.ljust(64, b"\0")
    inner, outer = sha256(bytes(b ^ 0x36 for b in key)), sha256(bytes(b ^ 0x5C for b in key))

    def mac(message: bytes) -> bytes:
        i = inner.copy()
        i.update(message)
        o = outer.copy()
        o.update(i.digest())
        return o.digest()

    return mac


def start(commitment: str) -> bytes:
    return sha256(START + commitment.encode()).digest()


# The chains this process computed last, by commitment and salt: (the log, its links). A game's
# log only grows between its reports, so the next head extends the chain from where it stood
# (every report shows a head: recomputed whole, a long game's reports cost O(entries²) hashes).
_CHAINS: dict[tuple[str, str], tuple[list[str], list[tuple[int, bytes]]]] = {}
CHAINS = 64


def links(commitment: str, salt: str, log) -> list[tuple[int, bytes]]:
    """(the move of the last entry covered, the link) after each prefix of `log`: the first for
    the empty log (move 0), then one an entry. An entry that is not "MOVE PLAYER TEXT" keeps the
    move before it (its replay fails anyway)."""
    log, key = list(log), bytes.fromhex(salt)
    known, out = _CHAINS.get((commitment, salt), ((), ()))
    if len(known) <= len(log) and log[:len(known)] == known:
        out = list(out)
    else:  # (another game, or a log cut back by a rollback)
        out = [(0, start(commitment))]
    move, link = out[-1]
    mac = None
    for i in range(len(out), len(log) + 1):
        mac = mac or _hmac(key)
        entry = log[i - 1]
        read = LogEntry.read(entry)
        move = read.move if read is not None else move
        link = sha256(link + mac(b"%d\n" % i + entry.encode())).digest()
        out.append((move, link))
    if len(_CHAINS) >= CHAINS and (commitment, salt) not in _CHAINS:
        del _CHAINS[next(iter(_CHAINS))]
    _CHAINS[(commitment, salt)] = (log, out)
    return list(out)


def head(commitment: str, salt: str, log, upto: int | None = None) -> dict | None:
    """{move, hash}: the head after move `upto` (every entry of a move up to it; None: the whole
    log, named by its last entry's move), the hash in 64 hex digits; None for a game without a
    commitment (made before the judge committed to its seed): it has no chain."""
    if not commitment or not salt:
        return None
    chained = links(commitment, salt, log)
    if upto is None:
        upto = chained[-1][0]
    return {"move": upto, "hash": at(chained, upto).hex()}


def at(chained: list[tuple[int, bytes]], move: int) -> bytes:
    """The link after the last entry of a move up to `move` (`links`' list)."""
    return next(link for m, link in reversed(chained) if m <= move)


def line(found: dict | None) -> str:
    """`Log head: move N HEX` (the first SHOWN hex digits), or "" without a chain."""
    return f"Log head: move {found['move']} {found['hash'][:SHOWN]}" if found else ""


def after_each_move(commitment: str, salt: str, log) -> dict[int, str]:
    """The head after the last entry of each move that has one: {move: hash}."""
    return {move: link.hex() for move, link in links(commitment, salt, log)[1:]}


def parse(text: str) -> tuple[int, str]:
    """`N:HEX` (as `judge audit --head` takes it) as (N, hex digits in lower case); ValueError
    with the reason otherwise."""
    move, sep, digits = text.strip().partition(":")
    digits = digits.strip().lower()
    if not sep or not move.strip().isdigit():
        raise ValueError("it is MOVE:HEX, the move and the digits of a report's 'Log head: move N HEX' line")
    if not SHORTEST <= len(digits) <= 64 or any(c not in "0123456789abcdef" for c in digits):
        raise ValueError(f"the head is {SHORTEST} to 64 hex digits (a report shows {SHOWN})")
    return int(move), digits


def rolled_back(log, corrections, ended=None) -> list[tuple[int, list[str]]]:
    """(the move returned to, the log as it stood just before) of each rollback in the game
    master's trace, the latest first: the log kept before that move, then the entries the
    rollback undid (the game file's trace keeps them whole). A head sent before a rollback, of
    the move it returned to or a later one, is that log's. `ended(log)`: whether a log is a
    finished game's; no rollback returns from one (judge/record/corrections.py refuses it), so a
    trace that claims one is a forger's (a whole other game's heads passed off as undone) and is
    left out."""
    current, out = list(log), []
    for c in reversed(corrections or []):
        undone, to = c.get("undone"), c.get("to_move")
        if c.get("kind") != "rollback" or type(to) is not int or not isinstance(undone, list):
            continue
        kept = [e for e in current if (read := LogEntry.read(e)) is not None and read.move < to]
        current = kept + [str(e) for e in undone]
        if ended is not None and ended(current):
            break  # (nor is any rollback before it believed: this trace is not the judge's)
        out.append((to, current))
    return out


def check(commitment: str, salt: str, log, heads: list[tuple[int, str]], corrections=(), ended=None) -> list[str]:
    """What is wrong with `log` against the heads a player was sent (each (move, hex digits)):
    one line a head that the log up to its move does not give (nor, for a head sent before a
    rollback of the game master's `corrections`, the log as it stood then), and which move
    first differs (after the latest head that matches, at or before the earliest that does
    not). [] when every head matches."""
    chained = links(commitment, salt, log)
    last = chained[-1][0]
    earlier = [(to, links(commitment, salt, before)) for to, before in rolled_back(log, corrections, ended)]
    failed, matched = [], []
    for move, digits in sorted(heads):
        logs = [chained] + [c for to, c in earlier if move >= to]
        if any(_gives(c, move, digits) for c in logs):
            matched.append(move)
        else:
            failed.append((move, digits))
    if not failed:
        return []
    first = failed[0][0]
    since = max((m for m in matched if m < first), default=None)
    out = []
    for move, digits in failed:
        beyond = f" (the record's log ends at move {last})" if move > last else ""
        out.append(f"the head of move {move} ({digits[:SHOWN]}) is not this record's{beyond}: the record is not "
                   f"the game in which it was sent")
    where = (f"after move {since} (whose head matches) and at or before move {first}" if since is not None
             else f"at or before move {first}")
    out.append(f"the first entry that differs is {where}")
    return out


def _gives(chained: list[tuple[int, bytes]], move: int, digits: str) -> bool:
    return move <= chained[-1][0] and at(chained, move).hex().startswith(digits)


def before_rollbacks(commitment: str, salt: str, log, heads: list[tuple[int, str]], corrections=(),
                     ended=None) -> list[str]:
    """For each head that only the log as it stood before a rollback gives (not the log now),
    what that means, to be said with the audit's answer: the player was sent it in a game the
    game master rolled back afterwards (every player was told), so the record's moves from the
    one returned to are another game's; a player who was never told of that rollback has been
    deceived."""
    chained = links(commitment, salt, log)
    earlier = [(to, links(commitment, salt, before)) for to, before in rolled_back(log, corrections, ended)]
    out = []
    for move, digits in sorted(heads):
        if _gives(chained, move, digits):
            continue
        back = next((to for to, c in earlier if move >= to and _gives(c, move, digits)), None)
        if back is not None:
            out.append(f"the head of move {move} is the log's as it stood before the game master rolled the game "
                       f"back to move {back}: every player was told of that rollback, and the moves from {back} on "
                       "were played again; if you were never told, the record is not the game you played")
    return out
