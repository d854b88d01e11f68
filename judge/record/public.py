"""The public record of a game: one TOML file anyone may read while the game runs.

While the game runs it holds the header without the seed, the setup or the salt (the
commitment to them is public), the log as the public saw it (secret orders, such as rumors'
roll-phase `bag` orders, read "secret order"), the game master's corrections, who plays each
seat now, and the public view (`Game.view(None)`, with the public events) and report. Never a
password hash, an address, [meta] or a secret. Once the game is over the record is complete:
the whole log and `[game_file]`, the game file without [meta] (seed, setup, salt, state), so
that `judge verify` and `judge audit` check the finished record alone.

The record is built from the game file without replaying it: it shows only what the file
holds publicly now. tests/proofs/test_privacy.py proves it: resampling everything hidden from the
public leaves it byte for byte the same.
"""
from __future__ import annotations

from pathlib import Path

from judge.engine.errors import GameFileError, UsageError
from judge.engine.game import Game
from judge.record.entries import public_log

FORMAT = 1
KIND = "public record of a judge game"
OWN_KEYS = {"record", "game_file", "moves", "view", "report"}  # keys of a record that no game file has


def is_record(data: dict) -> bool:
    """Whether TOML data is (meant as) a public record: it says so, or holds a key only records
    hold (an edited record is still read as one, and refused as one, never passed over)."""
    return data.get("record") == KIND or bool(OWN_KEYS & set(data))


def build(game: Game, name: str, previous: dict | None = None, rows: list[dict] | None = None,
          sealed: dict | None = None) -> dict:
    """The public record of `game` (called `name`) as a TOML-able dict; `previous`, the
    game's record before this change, saves replaying work (judge/record/moves.py); `rows`,
    the moves' rows when the caller has made them; `sealed`, the row of the private views the
    publishing step publishes now (judge/publish/private.py `row`): added to `previous`'s."""
    from judge.record import corrections, moves
    from judge.engine.report import render

    view = game.view(None)
    over = game.is_over()
    record = {
        "record": KIND,
        "format": FORMAT,
        "game": name,
        "ruleset": game.ruleset.name,
        "ruleset_version": game.ruleset.version,
        "commitment": game.commitment,
        "players": list(game.players),
        "move": game.move,
        "game_over": over,
        "complete": over,
        "options": game.options,
        "seats": corrections.seats(game),
        "log": public_log(game),
        "corrections": corrections.public(game),
        "report": render(view),
        "view": tomlable(view),
        "standings": tomlable(game.ruleset.standings(game.state)),  # the score track, public
    }
    if game.meta.get("press"):  # what players sent to all by mail (never press to one)
        record["press"] = list(game.meta["press"])
    from judge.record import conduct

    if conduct.public(game):  # missed deadlines, resignations, the end: what all were told (the league)
        record["league"] = conduct.public(game)
    deadline = game.meta.get("mail", {}).get("deadline") if isinstance(game.meta.get("mail"), dict) else None
    if deadline and not over:  # every player and observer is told it
        record["deadline"] = deadline
    if game.log_head():  # the log's head now (judge/engine/chain.py): what every report sent now shows
        record["log_head"] = game.log_head()
    record[moves.KEY] = moves.build(game, previous) if rows is None else rows
    private = _private(game, previous, sealed)
    if private:
        record["private"] = private
    if over:
        whole = game.to_dict()
        del whole["meta"]  # addresses and password hashes stay private for ever
        record["game_file"] = whole
    return record


def _private(game: Game, previous: dict | None, sealed: dict | None) -> dict:
    """`[private]`: the digest of every private view published (a row each time they changed:
    their move, the public log's length, the head and each seat's digest), and once the game
    is over every seat key it had (judge/store/seatkeys.py), so that `judge audit` opens them."""
    from judge.store import seatkeys

    kept = previous.get("private") if isinstance(previous, dict) else None
    rows = [r for r in kept.get("views", []) if isinstance(r, dict)] if isinstance(kept, dict) else []
    if sealed is not None and (not rows or rows[-1] != sealed):
        rows.append(sealed)
    out = {"views": rows} if rows else {}
    if game.is_over() and seatkeys.every(game):
        out["keys"] = seatkeys.every(game)
    return out


def dumps(record: dict) -> str:
    import tomli_w

    return tomli_w.dumps(record, indent=2, multiline_strings=True)


def tomlable(value):
    """A JSON-able view as TOML values: keys as strings, None left out."""
    if isinstance(value, dict):
        return {str(k): tomlable(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [tomlable(v) for v in value if v is not None]
    return value


def text(game: Game, name: str) -> str:
    return dumps(build(game, name))


def export(game: Game, name: str, out) -> None:
    """Write the record to `out` atomically: a new file, or over an earlier public record of
    the same game, never over anything else (the game file itself, another game's record)."""
    from judge.store.gamefile import write_atomic

    out = Path(out).absolute()
    if not out.parent.is_dir():
        raise GameFileError(f"no directory {out.parent} for the record")
    if out.exists() or out.is_symlink():
        _check_replaceable(out, game, name)
    write_atomic(out, text(game, name))


def _check_replaceable(out: Path, game: Game, name: str) -> None:
    """Refuse (UsageError) unless `out` holds an earlier public record of this very game."""
    from judge.store import gamefile

    refusal = (f"{out} exists and is not an earlier public record of game {name}: judge export writes "
               "only a new file or over such a record, never over a game file or anything else; "
               "remove it first or choose another name")
    try:
        data = gamefile.parse_toml(gamefile.read_bytes(out), str(out))
    except GameFileError:
        raise UsageError(refusal) from None
    same = {"record": KIND, "game": name, "ruleset": game.ruleset.name, "commitment": game.commitment,
            "players": list(game.players)}
    if any(data.get(key) != value for key, value in same.items()):
        raise UsageError(refusal)


def load_game(path) -> Game:
    """A game file, or the game inside a finished public record (for verify and audit)."""
    from judge.store import gamefile

    path = Path(path)
    data = gamefile.parse_toml(gamefile.read_bytes(path), str(path))  # read once, either kind
    if data.get("record") != KIND:
        return Game.from_dict(data, str(path))
    return finished_game(data, str(path))


def read(path) -> tuple[Game | None, dict | None]:
    """A game file: (the game, None); a public record: (the game inside it once it is complete,
    else None; the record). For show, status, standings and history on either."""
    from judge.store import gamefile

    path = Path(path)
    data = gamefile.parse_toml(gamefile.read_bytes(path), str(path))
    if data.get("record") != KIND:
        return Game.from_dict(data, str(path)), None
    for key, kind in (("report", str), ("view", dict), ("log", list), ("move", int), ("game", str)):
        if not isinstance(data.get(key), kind):
            raise GameFileError(f"{path} is a public record without its {key}: it cannot be read")
    return (finished_game(data, str(path)) if isinstance(data.get("game_file"), dict) else None), data


def note(data: dict) -> str:
    """The line that says a record is read, not a game file."""
    return (f"(the public record of game {data['game']} at move {data['move']}: what the public may see"
            + ("; the game is over" if data.get("game_over") else "") + ")")


def finished_game(data: dict, where: str) -> Game:
    """The game inside a finished public record (read as a dict), checked against the record."""
    if not isinstance(data.get("game_file"), dict):
        raise GameFileError(f"{where} is the public record of a game still running: it holds no seed or setup, "
                            "so it can be checked only once the game is over")
    game = Game.from_dict(data["game_file"], f"{where} [game_file]")
    shown = {k: data.get(k) for k in ("commitment", "players", "log")}
    own = {"commitment": game.commitment, "players": game.players, "log": game.log}
    for key in shown:
        if shown[key] != own[key]:
            raise GameFileError(f"{where}: the record's {key} is not its game file's: the record was edited")
    return game


def wrong_heads(data: dict, game: Game) -> list[int]:
    """The moves whose head the finished record `data` shows (`log_head`, a row's `head`) is not
    the one the log of its game gives (judge/engine/chain.py): an edited record. (Records
    written before the chain show none.)"""
    from judge.engine import chain

    if not game.commitment:
        return []
    after = chain.after_each_move(game.commitment, game.salt, game.log)
    shown = [(r.get("move"), r["head"]) for r in data.get("moves", []) if isinstance(r, dict) and "head" in r]
    head = data.get("log_head")
    if isinstance(head, dict):
        shown.append((head.get("move"), head.get("hash")))
    return sorted({move for move, value in shown if after.get(move) != value}, key=str)
