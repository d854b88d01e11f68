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

from dataclasses import asdict, dataclass, field
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


def of_records(records: list[dict]) -> tuple[dict[str, Finished], list[str]]:
    """The finished games among public records already read (a site's), by "RULESET/GAME",
    and a warning for each one left out."""
    found, warnings = {}, []
    for record in records:
        if record.get("complete"):
            where = f"{record.get('ruleset')}/{record.get('game')}"
            try:
                found[where] = finished(record, where)
            except GameFileError as e:
                warnings.append(f"left out of the league: {e}")
    return found, warnings


def as_data(game: Finished) -> dict:
    """A finished game as JSON data (what a site keeps of it for its league page)."""
    return asdict(game)


def from_data(data: dict) -> Finished:
    """The finished game `as_data` wrote (GameFileError for data it did not write)."""
    try:
        return Finished(str(data["ruleset"]), str(data["game"]), str(data["ended"]), bool(data["agreed"]),
                        {str(s): int(r) for s, r in data["ranks"].items()},
                        {str(s): [(int(m), str(p)) for m, p in spans] for s, spans in data["spans"].items()},
                        [(int(m), str(s)) for m, s in data["orders"]],
                        [(int(m), str(s), str(p)) for m, s, p in data["missed"]],
                        [(int(m), str(s), str(p)) for m, s, p in data["resigned"]],
                        None if data.get("deadlines") is None else bool(data["deadlines"]))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise GameFileError(f"not a finished game's league data ({type(e).__name__} {e})") from None


def read(path: Path) -> tuple[object, "Finished | None"]:
    """(what tells the game from others: its commitment, the finished game in `path`), `path`
    a public record or a game file; None for a game still running or a TOML file that is
    neither (such as judge.toml). A game file is read as it is (its [league] facts are those
    its record would show), not made into a record first: no replay."""
    from judge.record import conduct, public
    from judge.store import gamefile

    data = gamefile.parse_toml(gamefile.read_bytes(path), str(path))
    if data.get("record") == public.KIND:
        key = data.get("commitment") or (data.get("ruleset"), data.get("game"))
        return key, finished(data, str(path)) if data.get("complete") else None
    if "state" not in data or "ruleset" not in data:
        return None, None
    from judge.engine.game import Game

    game = Game.from_dict(data, str(path))
    key = game.commitment or (game.ruleset.name, path.stem)
    return key, of_game(game, path.stem, conduct.public(game), str(path)) if game.is_over() else None


def finished(record: dict, where: str) -> Finished:
    """What the league reads of a finished record (GameFileError for one it cannot use)."""
    from judge.record import public

    game = public.finished_game(record, where)
    return of_game(game, str(record.get("game", "")), record.get("league", {}), where)


def of_game(game, name: str, facts, where: str) -> Finished:
    """What the league reads of a finished game called `name`, with its record's [league]
    table `facts` (missed deadlines, resignations, the end)."""
    if not game.is_over():
        raise GameFileError(f"{where}: the record says the game is over, but its game is not")
    ranks = {row["player"]: row["rank"] for row in game.ruleset.standings(game.state)}
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
