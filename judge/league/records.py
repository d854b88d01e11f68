"""The finished games of a source, read from their public records alone.

A source is a directory, searched with its subdirectories (hidden ones such as .git left
out: a game directory (game files, each read as its record would show it, with no replay), a
git archive of records (RULESET/GAME.toml), or any directory of exported records; or one file. Games
still running are passed over; the same game found twice (a game file and its record) counts
once. What the league needs of a finished record is read into a `Finished`: the final
standings (from the record's own [game_file], no replay), who held each seat when
(`[[corrections]]`, rollbacks included), the whole log, and [league]'s facts (missed
deadlines, resignations, the end's time) where the record has them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from judge.engine import standing
from judge.engine.errors import GameFileError
from judge.engine.orderlog import LogEntry
from judge.engine.ruleset import GM

MAX_FILES = 100_000  # .toml files a source may hold
UNNAMED = "a new player"  # a seat handed on without a name (judge/record/corrections.py)


@dataclass
class Finished:
    """One finished game as its public record tells it."""
    ruleset: str
    game: str
    ended: str  # when it ended, ISO UTC ("" when the record does not say)
    agreed: bool  # ended by the players' agreement, scored as it stood
    ranks: dict[str, int]  # seat -> final rank (1 best; ties share a rank)
    spans: dict[str, list[tuple[int, str]]]  # seat -> [(from move, player)], in order
    orders: list[tuple[int, str]]  # (move, seat) of every order given for a seat
    missed: list[tuple[int, str, str]] = field(default_factory=list)  # (move, seat, player) standing missed deadlines
    resigned: list[tuple[int, str, str]] = field(default_factory=list)  # (move, seat, player)
    deadlines: bool | None = None  # whether it had deadlines (None: its record, older, does not say)

    def holder(self, seat: str, move: int) -> str:
        """Who played `seat` at `move`."""
        who = seat
        for since, player in self.spans[seat]:
            if since <= move:
                who = player
        return who

    def final(self, seat: str) -> str:
        return self.spans[seat][-1][1]


def gather(source) -> tuple[list[Finished], list[str]]:
    """The finished games of `source` in order of their end (games whose record does not say
    when first, then by ruleset and name), and a warning for each file passed over."""
    source = Path(source)
    if source.is_file():
        files = [source]
    elif source.is_dir():
        files = sorted(p for p in source.rglob("*.toml")
                       if not any(part.startswith(".") for part in p.relative_to(source).parts))
    else:
        raise GameFileError(f"no games directory, archive or record at {source}")
    if len(files) > MAX_FILES:
        raise GameFileError(f"{source} holds more than {MAX_FILES} .toml files: name a smaller directory")
    found, warnings, seen = [], [], set()
    for path in files:
        try:
            key, game = read(path)
            if game is None:
                continue
            if key in seen:
                continue
            seen.add(key)
            found.append(game)
        except GameFileError as e:
            warnings.append(f"skipped {path}: {e}")
    return ordered(found), warnings


def ordered(games: list[Finished]) -> list[Finished]:
    """In order of their end (games whose record does not say first), then by ruleset and name."""
    return sorted(games, key=lambda f: (f.ended, f.ruleset, f.game))


def read(path: Path) -> tuple[object, "Finished | None"]:
    """(what tells the game from others: its commitment, the finished game in `path`), `path`
    a public record or a game file; None for a game still running or a TOML file that is
    neither (such as judge.toml). A game file is read as it is (its [league] facts are those
    its record would show), not made into a record first: no replay."""
    from judge.store import gamefile

    key, _, game = examine(path, gamefile.read_bytes(path))
    return key, game


def examine(path: Path, raw: bytes) -> tuple[object, object, "Finished | None"]:
    """`read` of the file's bytes `raw`, with the game itself: (its key, the finished `Game`
    for an audit or None, the `Finished` or None). GameFileError for a file that cannot be
    read."""
    from judge.record import public, shape
    from judge.store import gamefile

    data = fast_record(raw) or gamefile.parse_toml(raw, str(path))
    if public.is_record(data):
        shape.check(data, str(path), shape.LEAGUE)
        key = data.get("commitment") or (data.get("ruleset"), data.get("game"))
        if not data.get("complete"):
            return key, None, None
        game = _read(lambda: public.finished_game(data, str(path)), path, "game_file")
        return key, game, _read(lambda: finished(data, str(path), game), path, "game_file or its league")
    if "state" not in data or "ruleset" not in data:
        return None, None, None
    from judge.engine.game import Game

    game = _read(lambda: Game.from_dict(data, str(path)), path, "game file")
    key = game.commitment or (game.ruleset.name, path.stem)
    if not _read(game.is_over, path, "state"):
        return key, None, None
    return key, game, _read(lambda: of_game_file(game, path.stem, str(path)), path, "state or its league")


def _read(read, path: Path, what: str):
    """`read()`, with what the engine raises on a file edited into nonsense (a TypeError deep in
    a ruleset, say) made a GameFileError naming the file and the part it could not read."""
    try:
        return read()
    except GameFileError:
        raise
    except Exception as e:  # noqa: BLE001 - a record or game file edited by hand: named, skipped
        raise GameFileError(f"{path}: the {what} cannot be read ({type(e).__name__}: {e})") from None


def of_game_file(game, name: str, where: str) -> Finished:
    """What the league reads of a finished game file called `name` (its [league] facts are
    those its record would show)."""
    from judge.record import conduct

    return of_game(game, name, conduct.public(game), where)


def fast_record(raw: bytes) -> dict | None:
    """A finished public record as the judge writes it, read without its `[[moves]]` (the
    league never needs them, and they are most of the file) and with both copies of the log
    kept as text (judge/engine/orderlog.py); None for any other file (then read whole)."""
    import tomllib

    from judge.engine.orderlog import Log

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.startswith('record = "public record of a judge game"\n'):
        return None
    moves, body = text.find("\n[[moves]]\n"), text.rfind("\n[game_file]\n")
    at = text.rfind(_GAME_LOG)
    start = text.find(_LOG, 0, moves)
    end = text.find("\n]\n", start) if start >= 0 else -1
    if not 0 < start < end < moves < body < at or not text.endswith("\n]\n"):
        return None
    shown, kept = Log.from_lines(text[start + len(_LOG):end + 1]), Log.from_lines(text[at + len(_GAME_LOG):-2])
    if shown is None or kept is None:
        return None
    view = text.find("\n[view]\n", end, moves)  # the public view: the league needs none of it
    after = min((k for k in (text.find(h, view, moves) for h in _AFTER_VIEW) if k > 0), default=moves)
    head = text[end + 3:view + 1] + text[after + 1:moves + 1] if 0 < view < after else text[end + 3:moves + 1]
    try:
        data = tomllib.loads(text[:start + 1] + head)
        data["game_file"] = tomllib.loads(text[body + 1:at + 1]).get("game_file")
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    if "log" in data or not isinstance(data["game_file"], dict) or "log" in data["game_file"]:
        return None
    data["log"], data["game_file"]["log"] = list(shown), {"orders": kept}
    return data


_LOG, _GAME_LOG = "\nlog = [\n", "\n[game_file.log]\norders = [\n"
_AFTER_VIEW = ("\n[[standings]]\n", "\n[[press]]\n", "\n[league]\n", "\n[league.")  # the tables that follow it


def finished(record: dict, where: str, game=None) -> Finished:
    """What the league reads of a finished record (GameFileError for one it cannot use);
    `game`, the game inside it when the caller has read it already."""
    from judge.record import public

    game = game or public.finished_game(record, where)
    return of_game(game, str(record.get("game", "")), record.get("league", {}), where)


def of_game(game, name: str, facts, where: str) -> Finished:
    """What the league reads of a finished game called `name`: from its log alone for a game
    of file format 2 (the judge's own entries: missed deadlines, resignations, seats handed on,
    the end; `facts` is not read, so no table beside the log can change a rating), else with
    its record's [league] table `facts` and its corrections' trace, as format 1 kept them."""
    if not game.is_over():
        raise GameFileError(f"{where}: the record says the game is over, but its game is not")
    ranks = {row["player"]: row["rank"] for row in game.ruleset.standings(game.state)}
    if game.format >= 2:
        return _of_log(game, name, ranks, where)
    if not isinstance(facts, dict):
        raise GameFileError(f"{where}: [league] must be a table")
    ended, timed = facts.get("ended", ""), facts.get("deadlines")
    if not isinstance(ended, str):
        raise GameFileError(f"{where}: [league] ended must be a date and time")
    if timed is not None and not isinstance(timed, bool):
        raise GameFileError(f"{where}: [league] deadlines must be true or false")
    out = Finished(game.ruleset.name, name, ended, game.state.get("ended") == "agreement",
                   ranks, _spans(game.players, game.corrections, where), _orders(game), deadlines=timed)
    for fact in _facts(facts.get("facts", []), game.players, where):
        if fact["kind"] == "missed" and not _undone(fact, game.corrections):
            out.missed.append((fact["move"], fact["seat"], fact["player"]))
        elif fact["kind"] == "resigned":
            out.resigned.append((fact["move"], fact["seat"], fact["player"]))
    return out


def _of_log(game, name: str, ranks: dict[str, int], where: str) -> Finished:
    """A game of file format 2 read from its log: the judge's entries (judge/engine/facts.py)
    and the players' orders, the agreed end among them."""
    from judge.engine import facts
    from judge.engine.game import AGREED_END

    logged = facts.facts(game.log)
    spans = {seat: [(1, seat)] for seat in game.players}
    strays = [str(f) for f in logged if f.kind in ("missed", "resigned", "seat") and f.args[0] not in spans]
    if strays:
        raise GameFileError(f"{where}: the log's entry {strays[0]!r} names no seat of the game")
    for f in logged:
        if f.kind == "seat":
            spans[f.args[0]].append((f.move, f.args[1]))
    ended = [f for f in logged if f.kind == "ended"]
    agreed = any(e.endswith(f" {GM} {AGREED_END}") for e in reversed(game.log))
    out = Finished(game.ruleset.name, name, ended[-1].args[0] if ended else "", agreed, ranks, spans, _orders(game),
                   deadlines=not ended[-1].args[1] if ended else None)
    for f in logged:
        if f.kind in ("missed", "resigned"):
            getattr(out, f.kind).append((f.move, f.args[0], out.holder(f.args[0], f.move)))
    return out


def _spans(players: list[str], corrections: list[dict], where: str) -> dict:
    """Who held each seat from which move on. A rollback to move N hands the moves from N on
    to whoever held the seat when it was made (the orders after N were given again by them)."""
    handed = []
    for c in corrections:
        if c.get("kind") == "replace":
            if c.get("seat") not in players or not isinstance(c.get("player"), str) or type(c.get("since")) is not int:
                raise GameFileError(f"{where}: a replacement in [[corrections]] lacks its seat, player or move")
            handed.append([c["seat"], c["since"], c["player"]])
        elif c.get("kind") == "rollback":
            if type(c.get("to_move")) is not int:
                raise GameFileError(f"{where}: a rollback in [[corrections]] lacks its move")
            for h in handed:
                h[1] = min(h[1], c["to_move"])
    spans = {seat: [(1, seat)] for seat in players}
    for seat, since, player in handed:
        spans[seat].append((since, player))
    return spans


def _orders(game) -> list[tuple[int, str]]:
    """(move, seat) of each order of the whole log given for a seat (not the game master's,
    nor standing orders given or cancelled: the orders those carry out are logged themselves)."""
    out = []
    for entry in game.log:
        parts = LogEntry.read(entry)
        if parts and parts.player != GM and parts.player in game.players and not standing.is_secret_entry(entry):
            out.append((parts.move, parts.player))
    return out


_FACT_KEYS = {"kind": str, "seat": str, "player": str, "move": int, "after": int}


def _facts(facts, players: list[str], where: str) -> list[dict]:
    if not isinstance(facts, list):
        raise GameFileError(f"{where}: [league] facts must be a list")
    for fact in facts:
        if not isinstance(fact, dict) or any(type(fact.get(k)) is not t for k, t in _FACT_KEYS.items()) \
                or fact["seat"] not in players:
            raise GameFileError(f"{where}: a fact in [league] lacks its kind, seat, player, move or count")
    return facts


def _undone(fact: dict, corrections: list[dict]) -> bool:
    """Whether a rollback made after the fact went back over its move (its order was undone)."""
    return any(c.get("kind") == "rollback" and c.get("to_move", fact["move"] + 1) <= fact["move"]
               for c in corrections[fact["after"]:])


def site_source(cfg) -> Path:
    """Where a judge site's league is read: its archive of records when it keeps one, else its
    game directory (whose finished game files hold the same records)."""
    return cfg.archive if cfg.archive is not None and cfg.archive.is_dir() else cfg.games
