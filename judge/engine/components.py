"""Component data (games/*.toml), read through a compiled cache.

Parsing TOML is slow in pure Python (rumors.toml takes about 8 ms, more than the rest of a
`judge order` on it), so the parsed data is kept in `games/__pycache__/` as marshal data, the
way Python keeps compiled modules. The cache is used only while it was made from exactly the
same file (it starts with a hash of the file's bytes), so a game master may edit the data at
any time; where the folder cannot be written, the file is simply parsed every time.
"""
from __future__ import annotations

import marshal
import sys
from pathlib import Path

from judge.engine import writes
from judge.engine.rng import blake2b

_KEY = 32


def load(path: Path) -> dict:
    raw = path.read_bytes()
    key = blake2b(raw, digest_size=_KEY).digest()
    cache = path.parent / "__pycache__" / f"{path.name}.{sys.implementation.cache_tag}.marshal"
    try:
        blob = cache.read_bytes()
        if blob[:_KEY] == key:
            return marshal.loads(blob[_KEY:])
    except (OSError, EOFError, ValueError, TypeError):
        pass
    import tomllib

    data = tomllib.loads(raw.decode("utf-8"))
    _store(cache, key, data)
    return data


def _store(cache: Path, key: bytes, data: dict) -> None:
    """Write the cache atomically; give up quietly (read-only install, unmarshalable value)."""
    try:
        writes.write_atomic(cache, key + marshal.dumps(data), 0o666, cache.parent.parent, sync=False, folders=0o777)
    except (OSError, ValueError):
        pass
