"""Each player's private view, encrypted, beside the game's public page (docs/public-record.md,
"Private views"; docs/site.md, "Your own page").

The publishing step (it has the game file) seals every seat's current report with AES-256-GCM
under a key derived from the seat's key (judge/store/seatkeys.py) by HKDF-SHA256, whose info
names the game, the seat and the move; a 96-bit nonce; associated data binding the
game, the seat, the move and the log's head (the plaintext says how many log entries it was
made from); a 96-bit nonce drawn from the view's key and plaintext (`seal_one`). Every plaintext of a game is padded to one size (SIZE), so that no ciphertext's length
tells anything (a hand's size, a secret order's length). The page (templates/site/private.js)
derives the same key with WebCrypto from the link's fragment and opens the seat's view.

The public record lists the SHA-256 of every ciphertext published (its `[private]` rows); once
the game is over it reveals every seat key with the seed, and `audit` opens every view given
and checks that it is the report the replay gives that seat after that many log entries.

pyca `cryptography` is imported here alone (never on an order's path).
"""
from __future__ import annotations

import base64
import hashlib
import json

from judge.store import seatkeys

FORMAT = 1
SIZE = 16384  # bytes of every plaintext (a multiple of it for one that is larger: see `_pad`)
INFO = "judge private view v1"


# ---- what a view holds ------------------------------------------------------------------
def plaintext(game, name: str, seat: str, judge_address: str = "") -> dict:
    """What `seat`'s private page shows: their report as `judge show --as` prints it, their
    orders now (the same list as `judge orders`) and its short forms, their standing orders,
    and what their mail needs (the judge's address, the name they write on the player line)."""
    from judge.engine.report import render
    from judge.record.corrections import UNNAMED, holder

    view = game.view(seat)
    head = game.log_head() or {}
    playing = holder(game, seat)
    orders = list(view.get("orders") or []) if seat in game.awaiting() else []
    shown = {
        "game": name, "ruleset": game.ruleset.name, "player": seat,
        "name": seat if playing == UNNAMED else playing,
        "move": game.move, "head": head.get("hash", ""), "head_move": head.get("move", 0),
        "entries": len(game.log), "over": game.is_over(), "awaited": seat in game.awaiting(),
        "report": render(view), "head_line": game.head_line(),
        "orders": orders, "all_orders": True,
        "forms": view.get("order_forms", ""), "standing": list(view.get("standing") or []),
        "to": judge_address,
    }
    if len(_json(shown)) > SIZE - 512:  # (rumors' 259 bets of six players): the short forms alone
        shown.update(orders=[], all_orders=False)
    return shown


def _json(shown: dict) -> bytes:
    return json.dumps(shown, ensure_ascii=False, sort_keys=True).encode()


def same_report(a: dict, b: dict) -> bool:
    """Whether two plaintexts show the same: everything but the judge's address and the
    player's written name, which come from [meta] (a finished record does not reveal it); the
    log's head line the page prints included."""
    return all(a.get(k) == b.get(k) for k in {*a, *b} - {"to", "name"})


# ---- sealing ----------------------------------------------------------------------------
def _derive(key: bytes, game: str, seat: str, move: int) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    info = f"{INFO}\0{game}\0{seat}\0{move}".encode()
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"", info=info).derive(key)


def aad(game: str, seat: str, move: int, head: str) -> bytes:
    """The associated data: the game, the seat, the move and the log's head the view is of."""
    return f"{INFO}\n{game}\n{seat}\n{move}\n{head}".encode()


def _pad(data: bytes) -> bytes:
    """JSON padded with spaces to SIZE (JSON.parse reads past them). A plaintext longer than
    SIZE (none the rulesets' bounds allow: 120 lines of report, and a list of orders too
    long to fit is left out for its short forms) takes the
    next multiple of it, which its length then tells."""
    size = max(SIZE, -(-len(data) // SIZE) * SIZE)
    return data + b" " * (size - len(data))


def seal_one(key: bytes, shown: dict) -> dict:
    """One seat's view sealed. Its 96-bit nonce is drawn from the view's key and what it seals
    (HMAC-SHA256, as AES-GCM-SIV draws its own) rather than from os.urandom: unpredictable to
    anyone without the key, the same only for the very same view of the same position, so that
    a publishing step run again (a judge killed and caught up) writes the same bytes."""
    import hmac

    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    data = _pad(_json(shown))
    derived = _derive(key, shown["game"], shown["player"], shown["move"])
    bound = aad(shown["game"], shown["player"], shown["move"], shown["head"])
    nonce = hmac.new(derived, b"nonce\0" + bound + b"\0" + data, "sha256").digest()[:12]
    ct = AESGCM(derived).encrypt(nonce, data, bound)
    return {"player": shown["player"], "nonce": _b64(nonce), "ct": _b64(ct)}


def open_one(key: bytes, sealed: dict, box: dict) -> dict | None:
    """The plaintext of one sealed view of the file `sealed` (its game, move and head), or
    None when `key` does not open it (another seat's or game's key, an edited ciphertext)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    try:
        data = AESGCM(_derive(key, sealed["game"], box["player"], sealed["move"])).decrypt(
            base64.b64decode(box["nonce"]), base64.b64decode(box["ct"]),
            aad(sealed["game"], box["player"], sealed["move"], sealed["head"]))
        shown = json.loads(data)
        return shown if isinstance(shown, dict) else None
    except (InvalidTag, ValueError, KeyError, TypeError):
        return None


def seal(game, name: str, earlier: str | None = None, judge_address: str = "") -> dict | None:
    """The sealed views of every seat now ({format, game, ruleset, move, head, public, size,
    views: [{player, nonce, ct}]}), or None for a game without seat keys.

    Views are sealed anew only when what the public sees changed (the move, the head, the
    public log's length: `public`): the file `earlier` (its text) for the same public position
    is kept as it is, so that a standing order given, which nobody else may know of, changes
    no public byte (its player's page shows it from the next public change), and publishing
    twice writes the same bytes. A view that no longer opens with its seat's key (a seat
    handed on) is sealed anew."""
    from judge.record.entries import public_log

    if seatkeys.current(game, game.players[0]) is None:
        return None
    head = (game.log_head() or {}).get("hash", "")
    sealed = {"format": FORMAT, "game": name, "ruleset": game.ruleset.name, "move": game.move, "head": head,
              "public": len(public_log(game)), "size": SIZE, "views": []}
    before = _read(earlier)
    same = before is not None and all(before.get(k) == sealed[k] for k in ("game", "move", "head", "public"))
    kept = {b.get("player"): b for b in before["views"]} if same else {}
    for seat in game.players:
        key = seatkeys.current(game, seat)
        old = kept.get(seat)
        if old is not None and open_one(key, sealed, old) is not None:
            sealed["views"].append(old)
        else:
            sealed["views"].append(seal_one(key, plaintext(game, name, seat, judge_address)))
    return sealed


def for_site(cfg, game, name: str) -> dict | None:
    """The sealed views of `game` for the site of `cfg` (its earlier file read from there)."""
    from pathlib import Path

    from judge.site import files, pages

    earlier = files.read(Path(cfg.site) / (pages.base(game.ruleset.name, name) + pages.PRIVATE))
    return seal(game, name, earlier, cfg.address)


def of_source(source, out, judge_address: str = "") -> dict:
    """`judge site SOURCE OUT`: the sealed views of every game file at `source` (a public
    record has none to give), keyed by (ruleset, game), each kept as OUT holds it already when
    nothing public changed."""
    from pathlib import Path

    from judge.record import public
    from judge.site import files, pages, sources
    from judge.store import gamefile

    found, _ = sources.records(source)
    out, sealed = Path(out), {}
    for path, record in found:
        data = gamefile.parse_toml(gamefile.read_bytes(path), str(path))
        if public.is_record(data):
            continue
        game = gamefile.load(path)
        earlier = files.read(out / (pages.base(record["ruleset"], record["game"]) + pages.PRIVATE))
        made = seal(game, record["game"], earlier, judge_address)
        if made is not None:
            sealed[(record["ruleset"], record["game"])] = made
    return sealed


def _read(text: str | None) -> dict | None:
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    ok = (isinstance(data, dict) and isinstance(data.get("views"), list)
          and all(isinstance(v, dict) for v in data["views"]))
    return data if ok else None


def _well_formed(box: dict) -> bool:
    """Whether a sealed view read from a file has the fields `digest` and `open_one` read."""
    try:
        return isinstance(box.get("player"), str) and all(
            isinstance(box.get(k), str) and base64.b64decode(box[k], validate=True) for k in ("nonce", "ct"))
    except ValueError:  # (binascii.Error)
        return False


def digest(box: dict) -> str:
    """The SHA-256 of one sealed view (its nonce, then its ciphertext): what the record lists."""
    return hashlib.sha256(base64.b64decode(box["nonce"]) + base64.b64decode(box["ct"])).hexdigest()


def row(sealed: dict) -> dict:
    """The public record's row of a sealed file: its position and each view's digest."""
    return {"move": sealed["move"], "public": sealed["public"], "head": sealed["head"],
            "views": {b["player"]: digest(b) for b in sealed["views"]}}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# ---- the audit --------------------------------------------------------------------------
def audit(game, record: dict, files: list[dict]) -> tuple[int, list[str]]:
    """Open every sealed view of `files` (the GAME.private.json published, each as read) with
    the keys the finished `record` reveals, and check each: its digest is in the record, it
    opens with its seat's key and no other seat's, and it equals the report the replay gives
    that seat after the number of log entries it says it was made from (`entries`, sealed
    with it). (views checked, problems)."""
    private = record.get("private") if isinstance(record.get("private"), dict) else {}
    keys = private.get("keys")
    if not isinstance(keys, dict):
        return 0, ["the record reveals no seat keys: its private views cannot be checked"]
    digests = listed(record)
    checked, problems, replays = 0, [], {}
    points = _points(game)
    for sealed in files:
        if not isinstance(sealed, dict) or (sealed.get("game"), sealed.get("ruleset")) != (record.get("game"),
                                                                                           record.get("ruleset")):
            problems.append("a private views file of another game was given")
            continue
        if type(sealed.get("move")) is not int or not isinstance(sealed.get("head"), str):
            problems.append(f"a private views file of {record.get('game')} says of no move and head")
            continue
        for box in sealed.get("views", []):
            seat, where = box.get("player"), f"{box.get('player')}'s view at move {sealed.get('move')}"
            if not _well_formed(box):
                problems.append(f"{where} is not a sealed view (player, nonce and ciphertext in base64)")
                continue
            if digest(box) not in digests:
                problems.append(f"{where} is not listed in the record's [private] digests")
                continue
            shown = next(filter(None, (open_one(k, sealed, box) for k in seatkeys.at_move(keys, seat, sealed["move"]))),
                         None)
            if shown is None:
                problems.append(f"{where} does not open with the seat's revealed key")
                continue
            if any(open_one(k, sealed, box) for other in keys if other != seat
                   for k in seatkeys.at_move(keys, other, sealed["move"])):
                problems.append(f"{where} opens with another seat's key")
            entries = shown.get("entries")
            if not isinstance(entries, int) or shown.get("move") != sealed["move"] or shown.get("player") != seat:
                problems.append(f"{where} does not say which position it is of")
                continue
            for k, (log, corrections) in enumerate(points):  # (now, then before each rollback)
                if (k, entries) not in replays:
                    replays[k, entries] = _replayed(game, log, corrections, entries)
                then = replays[k, entries]
                if then is not None and same_report(shown, plaintext(then, record["game"], seat)):
                    break
            else:
                problems.append(f"{where} is not the report the replay gives {seat} after {entries} log entries")
            checked += 1
    return checked, problems


def listed(record: dict) -> set[str]:
    """The digests of every private view the record says was published."""
    private = record.get("private") if isinstance(record.get("private"), dict) else {}
    return {h for r in private.get("views", []) if isinstance(r, dict) and isinstance(r.get("views"), dict)
            for h in r["views"].values()}


def published(path, name: str) -> list[dict]:
    """The sealed views of game `name` found at `path`: a GAME.private.json file, a folder
    holding them (a site), or a git repository, every version its history holds of them (an
    archive whose site lies inside it: every view ever published)."""
    from pathlib import Path

    from judge.record import archive

    path, found = Path(path), []
    file = f"{name}.private.json"
    if path.is_file():
        texts = [path.read_text(encoding="utf-8")]
    elif (path / ".git").exists():
        texts = archive.versions(path, file)
    elif path.is_dir():
        texts = [p.read_text(encoding="utf-8") for p in sorted(path.rglob(file)) if p.is_file()]
    else:
        texts = []
    for text in texts:
        sealed = _read(text)
        if sealed is not None and sealed not in found:
            found.append(sealed)
    return found


def _points(game) -> list[tuple[list[str], list[dict]]]:
    """(the log, the game master's trace) as they stood when views may have been published: now,
    and just before each rollback, the latest first (judge/engine/chain.py `rolled_back`: the
    game file's trace keeps the undone entries whole)."""
    from judge.engine import chain

    rollbacks = [i for i, c in enumerate(game.corrections) if c.get("kind") == "rollback"]
    earlier = chain.rolled_back(game.log, game.corrections, game.ended)
    return [(list(game.log), list(game.corrections)),
            *((before, game.corrections[:i]) for (_, before), i in zip(earlier, reversed(rollbacks)))]


def _replayed(game, log: list[str], corrections: list[dict], entries: int):
    """The game replayed from the first `entries` entries of `log`, with the trace
    `corrections` (None when they do not replay)."""
    from judge.engine.game import Game

    if entries > len(log):
        return None
    try:
        return Game(game.ruleset, game.players, game.options, game.setup, game.rng.at(0), {},
                    list(log[:entries]), game.meta, game.salt, game.commitment, list(corrections),
                    game.format).replay()
    except Exception:  # noqa: BLE001 - a log cut where it does not replay: the view is not this game's
        return None
