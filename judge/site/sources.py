"""What a site is built from: public records, found in a game file (turned into its record as
`judge export` does), a public record, a games directory or an archive repository."""
from __future__ import annotations

from pathlib import Path

from judge.engine import ruleset as registry
from judge.engine.errors import GameFileError, JudgeError, UsageError
from judge.record import public
from judge.store import gamefile
from judge.store.config import GAME_NAME

MAX_FILES = 100_000  # .toml files looked at in a directory (as the league's, judge/league/index.py)


def records(source) -> tuple[list[tuple[Path, dict]], list[str]]:
    """The public records found at `source`, each with its file (sorted by ruleset and game;
    the first of two with the same name kept), and a warning for each file skipped."""
    source = Path(source)
    if source.is_file():
        paths = [source]
    elif source.is_dir():
        paths = []
        for path in sorted(source.rglob("*.toml")):
            if any(part.startswith(".") for part in path.relative_to(source).parts):
                continue  # .git, .venv and the like
            paths.append(path)
            if len(paths) > MAX_FILES:
                raise UsageError(f"{source} holds more than {MAX_FILES} .toml files: name a smaller directory")
    else:
        raise UsageError(f"no file or directory {source}")
    found, warnings = {}, []
    for path in paths:
        try:
            record = of_file(path)
        except JudgeError as e:
            warnings.append(f"skipped {path}: {e}")
            continue
        if record is not None:
            found.setdefault((record["ruleset"], record["game"]), (path, record))
        elif source.is_file():
            raise UsageError(f"{path} is neither a game file nor a public record")
    return [found[k] for k in sorted(found)], warnings


def of_file(path: Path) -> dict | None:
    """The public record in or of the file at `path`; None for another kind of TOML file.
    GameFileError (naming the file and the field) for a record the site cannot show."""
    from judge.record import shape

    data = gamefile.parse_toml(gamefile.read_bytes(path), str(path))
    if public.is_record(data):
        shape.check(data, str(path))
        record = data
    elif {"ruleset", "players", "state", "rng"} <= set(data):
        try:
            record = public.build(gamefile.load(path), path.stem)
        except JudgeError:
            raise
        except Exception as e:  # noqa: BLE001 - a game file edited by hand: named, skipped
            raise GameFileError(f"{path}: the game file cannot be read ({type(e).__name__}: {e})") from None
    else:
        return None
    check(record, str(path))
    return record


def check(record: dict, where: str) -> None:
    """A record's names become file names and its keys are read: refuse what does not fit."""
    if not isinstance(record.get("game"), str) or not GAME_NAME.match(record["game"]):
        raise UsageError(f"{where}: the record's game name is not letters, digits, - and _")
    if not isinstance(record.get("ruleset"), str):
        raise UsageError(f"{where}: the record names no ruleset")
    registry.get(record["ruleset"])  # (an unknown one: refused with the known ones named)
    for key, kind in (("players", list), ("log", list), ("move", int), ("view", dict), ("report", str)):
        if not isinstance(record.get(key), kind):
            raise UsageError(f"{where}: the record's {key} is missing or not a {kind.__name__}")
