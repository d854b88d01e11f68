"""Where the templates/ and games/ folders are: inside the installed package, or beside it."""
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # judge/


def resource(name: str) -> Path:
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name
