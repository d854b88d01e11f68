"""Players' and the game master's passwords: the game file keeps only a salted scrypt hash,
written "scrypt$N$R$P$SALT$HASH" (hex), and a guess is compared in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets

N, R, P = 2**14, 8, 1
_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: easy to copy from a mail


def new_password(length: int = 10) -> str:
    return "".join(secrets.choice(_LETTERS) for _ in range(length))


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    return f"scrypt${N}${R}${P}${salt.hex()}${_scrypt(password, salt, N, R, P).hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt" or len(password) > 200:
            return False
        got = _scrypt(password, bytes.fromhex(salt), int(n), int(r), int(p))
        return hmac.compare_digest(got, bytes.fromhex(digest))
    except ValueError:
        return False
