"""Where the templates/ and games/ folders are: inside the installed package, or beside it; and
the folders of rulesets dropped in from outside the judge's tree ($JUDGE_RULESETS_PATH)."""
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # judge/
# Folders (separated by os.pathsep) each laid out as the judge's own tree for its rulesets:
# rulesets/<module>/ (imported as judge.rulesets.<module>), templates/<name>/, games/<name>.toml.
# For a ruleset kept out of the judge's tree (a new one being tried, docs/architecture.md).
DROP_IN = "JUDGE_RULESETS_PATH"


def resource(name: str) -> Path:
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


def dropped_in() -> list[Path]:
    """The folders of $JUDGE_RULESETS_PATH (none when it is unset)."""
    return [Path(p) for p in os.environ.get(DROP_IN, "").split(os.pathsep) if p]


def resources(name: str) -> list[Path]:
    """`resource(name)`, then the same folder of each dropped-in tree."""
    return [resource(name), *(root / name for root in dropped_in())]


def find(path: str) -> Path:
    """The file `path` (e.g. games/mogul.toml) in the judge's tree or a dropped-in one."""
    for folder in resources(path.split("/", 1)[0]):
        found = folder.parent / path
        if found.exists():
            return found
    return resource(path)
